#pragma once
// The particle scenes of ../shared/BENCH_SCENES.md (rope, cloth64, sandpile) and the
// demo's particle scenes; the demo shows them, tests assert figures on them,
// jounce-bench times them.

#include "scenes/scene.hpp"

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

/// The cloth's triangles, both faces, in world coordinates, as one draw item.
void drawCloth(const World& world, const Cloth& cloth, Colour colour, DrawList& out);

} // namespace jounce::scenes
