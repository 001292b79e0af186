// SPDX-License-Identifier: MIT
#pragma once
// The particle scenes of ../shared/BENCH_SCENES.md (rope, cloth64, balloon, softcube,
// sandpile, mixed) and the demo's particle scenes; the demo shows them, tests assert
// figures on them, jounce-bench times them.

#include "scenes/scene.hpp"

#include <jounce/particles/particle_builders.hpp>

namespace jounce::scenes {

/// 100 particles of radius 1 cm, 2 m of rope (1 kg) pinned at (0, 3, 0), held out
/// horizontally along +x and let go; the ground below.
Rope buildBenchRope(Scene& scene);

/// A 64 x 64 cloth, 2 m square, 0.5 kg, 1 m above a static sphere of radius 0.5
/// resting on the ground; stretch, shear and bending constraints.
Cloth buildCloth64(Scene& scene);

/// 4096 particles of radius 0.05 (mu_s 1.0, mu_k 0.5) in a 16 x 16 x 16 grid, 0.11 m
/// apart (each offset sideways by up to 5 mm, the same every run), its bottom layer
/// 0.5 m above the ground. Returns them.
std::vector<ParticleId> buildSandpile(Scene& scene, int side = 16, real staticFriction = 1, real kineticFriction = real(0.5));

/// A balloon of 642 particles (radius 0.5 m, 0.5 kg, pressure 1.0) on the ground and a
/// 10 kg box (0.4 m) above it, its bottom 1 m above the balloon's top. `box` gets the box.
Balloon buildBenchBalloon(Scene& scene, BodyId* box);

/// A 1 m soft cube of 10 x 10 x 10 particles (5 kg, Kuhn tets, incompressible), its
/// bottom 1 m above the ground.
SoftBody buildBenchSoftCube(Scene& scene);

/// pyramid10, an 8 m square cloth of 32 x 32 particles (10 kg) 1 m above the pyramid's
/// top, and 1000 grains (10 x 10 x 10, radius 5 cm, 10 g) above its left side.
struct MixedParts {
    std::vector<BodyId> pyramid;
    Cloth cloth;
    std::vector<ParticleId> sand;
};
MixedParts buildMixed(Scene& scene);

/// Particle triangles in world coordinates as one draw item (both faces for cloth).
void drawParticleMesh(const World& world, const std::vector<ParticleId>& particles,
                      const std::vector<std::array<std::uint32_t, 3>>& triangles, Colour colour, bool bothSides,
                      DrawList& out);

} // namespace jounce::scenes
