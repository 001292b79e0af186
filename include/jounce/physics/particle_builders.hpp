#pragma once
/// \file particle_builders.hpp
/// Builders of common particle objects: a rope and a cloth grid. Each adds particles
/// and constraints to a world through its public API (so each piece is validated)
/// and returns the handles.

#include <jounce/physics/world.hpp>

#include <array>
#include <cstdint>
#include <vector>

namespace jounce {

struct RopeDesc {
    Vec3 from = Vec3::Zero();
    Vec3 to = Vec3(1, 0, 0);
    int segments = 20;           ///< links; the rope has segments + 1 particles
    real mass = 1;               ///< of the whole rope [kg]
    real radius = real(0.03);    ///< of each particle [m]
    real compliance = 0;         ///< of each link [m/N]
    bool pinFrom = true;         ///< the first particle is pinned where it is
    bool pinTo = false;          ///< the last particle is pinned where it is
    real friction = real(0.3);
    std::uint32_t group = 0;     ///< 0: a new group from World::newParticleGroup()
};

struct Rope {
    std::vector<ParticleId> particles;
    std::vector<DistanceConstraintId> links;
};

/// Particles evenly spaced from `from` to `to`, each linked to the next at the spacing.
Rope buildRope(World& world, const RopeDesc& desc);

struct ClothDesc {
    Vec3 corner = Vec3::Zero();      ///< particle (0, 0)
    Vec3 sideU = Vec3(1, 0, 0);      ///< from particle (0, 0) to (nu - 1, 0)
    Vec3 sideV = Vec3(0, 0, 1);      ///< from particle (0, 0) to (0, nv - 1)
    int nu = 16, nv = 16;            ///< particles along each side, >= 2
    real mass = 1;                   ///< of the whole cloth [kg]
    real radius = real(0.02);
    real stretchCompliance = 0;      ///< grid edges [m/N]
    real shearCompliance = real(1e-2); ///< cell diagonals (stiffer ones let a 64 x 64 grid blow up at 1 iteration)
    real bendCompliance = real(1e-3);  ///< edges skipping one particle (a simple bending set)
    real friction = real(0.3);
    /// Grid coordinates (u, v) of pinned particles (a flag hangs by two corners).
    std::vector<std::array<int, 2>> pinned;
    std::uint32_t group = 0;         ///< 0: a new group
};

struct Cloth {
    int nu = 0, nv = 0;
    std::vector<ParticleId> particles;   ///< particle (u, v) at u + nu v
    std::vector<DistanceConstraintId> stretch, shear, bend;
    /// Two triangles per cell, counter-clockwise seen along sideU x sideV, as indices
    /// into `particles` (for drawing and for aerodynamic forces).
    std::vector<std::array<std::uint32_t, 3>> triangles;
    ParticleId at(int u, int v) const { return particles[static_cast<std::size_t>(u + nu * v)]; }
};

/// A grid of nu x nv particles with stretch, shear and bending distance constraints.
Cloth buildCloth(World& world, const ClothDesc& desc);

} // namespace jounce
