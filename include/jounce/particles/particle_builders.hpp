// SPDX-License-Identifier: MIT
#pragma once
/// \file particle_builders.hpp
/// Builders of common particle objects: a rope, a cloth grid, tetrahedralised soft
/// boxes and balls, a closed balloon, a block of grains, Millington's blob and
/// platform; and the aerodynamic force on a particle triangle mesh. Each adds particles
/// and constraints to a world through its public API (so each piece is validated)
/// and returns the handles.

#include <jounce/world/world.hpp>

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
    /// How the cloth resists bending: distance constraints skipping one particle (the
    /// default, cheap), dihedral angle constraints on each interior edge, isometric
    /// bending on each interior edge, or nothing.
    enum class Bending : std::uint8_t { SkipOne, Dihedral, Isometric, None } bending = Bending::SkipOne;
    /// Compliance of the bending set: [m/N] for SkipOne, [rad/(N m)] for Dihedral,
    /// [1/(N m)] for Isometric.
    real bendCompliance = real(1e-3);
    real friction = real(0.3);
    /// Grid coordinates (u, v) of pinned particles (a flag hangs by two corners).
    std::vector<std::array<int, 2>> pinned{}; // {}: designated initializers may leave it out
    std::uint32_t group = 0;         ///< 0: a new group
    /// > 0: the cloth's triangles become a ParticleSurface of this thickness [m]: the
    /// cloth does not pass through itself and particles do not pass through it
    /// (keep it below the grid spacing). 0: no surface.
    real surfaceThickness = 0;
    /// > 0: that many coarse levels of hierarchical PBD over the stretch and shear
    /// edges (Müller 2008; a ParticleHierarchy). 0: none.
    int hierarchyLevels = 0;
};

struct Cloth {
    int nu = 0, nv = 0;
    std::vector<ParticleId> particles;   ///< particle (u, v) at u + nu v
    std::vector<DistanceConstraintId> stretch, shear, bend;
    std::vector<ParticleConstraintId> bendAngles;   ///< Dihedral or Isometric bending
    /// Two triangles per cell, counter-clockwise seen along sideU x sideV, as indices
    /// into `particles` (for drawing and for aerodynamic forces).
    std::vector<std::array<std::uint32_t, 3>> triangles;
    ParticleSurfaceId surface;  ///< null unless ClothDesc::surfaceThickness > 0
    ParticleHierarchyId hierarchy; ///< null unless ClothDesc::hierarchyLevels > 0
    ParticleId at(int u, int v) const { return particles[static_cast<std::size_t>(u + nu * v)]; }
};

/// A grid of nu x nv particles with stretch, shear and bending constraints.
Cloth buildCloth(World& world, const ClothDesc& desc);

/// The bending stencils of a triangle mesh: for each edge shared by two triangles
/// (a, b, c) and (b, a, d), the four indices {a, b, c, d}, in a fixed order.
std::vector<std::array<std::uint32_t, 4>> bendingStencils(const std::vector<std::array<std::uint32_t, 3>>& triangles);

/// A box of (cells + 1)^3 particles, each cubic cell cut into six tetrahedra around its
/// diagonal (Kuhn's subdivision, which neighbouring cells share faces with), held by a
/// volume constraint per tet and a distance constraint per tet edge.
struct SoftBoxDesc {
    Vec3 centre = Vec3::Zero();
    Vec3 halfExtents = Vec3(real(0.5), real(0.5), real(0.5));
    int cells = 4;                     ///< per side, 1 to 64
    real mass = 1;                     ///< of the whole body [kg]
    real radius = 0;                   ///< of each particle; 0: a third of the smallest cell side
    real edgeCompliance = real(1e-5);  ///< [m/N]
    real volumeCompliance = 0;         ///< per tet [m^5/N] (C is a volume); 0: incompressible tets
    real friction = real(0.5);
    real restitution = 0;
    std::uint32_t group = 0;           ///< 0: a new group
};

/// A tetrahedral soft body: its particles, edges and tets, and its outer surface.
struct SoftBody {
    int cells = 0;                     ///< lattice cells per side
    /// Lattice corners in order i + (cells + 1) (j + (cells + 1) k), those the body uses
    /// (all of them for a box: the first is the corner at centre - halfExtents).
    std::vector<ParticleId> particles;
    std::vector<DistanceConstraintId> edges;
    std::vector<ParticleConstraintId> tets;
    std::vector<std::array<std::uint32_t, 4>> tetIndices;     ///< into `particles`
    std::vector<std::array<std::uint32_t, 3>> surface;        ///< into `particles`, outward
};
using SoftBox = SoftBody;

SoftBody buildSoftBox(World& world, const SoftBoxDesc& desc);

/// A tetrahedralised ball: the cells of a (cells)^3 lattice around `centre` whose
/// centres lie within `radius`, each cut into Kuhn's six tets (a voxel sphere: its
/// surface is stepped at the cell size).
struct SoftSphereDesc {
    Vec3 centre = Vec3::Zero();
    real radius = real(0.5);
    int cells = 6;                     ///< across the diameter, 2 to 64
    real mass = 1;
    real edgeCompliance = real(1e-5);
    real volumeCompliance = 0;
    real friction = real(0.5);
    real restitution = 0;
    std::uint32_t group = 0;
};

SoftBody buildSoftSphere(World& world, const SoftSphereDesc& desc);

/// Grains: an nx x ny x nz block of particles `spacing` apart, its bottom layer centred
/// on `bottomCentre`, each grain offset sideways by up to `jitter` (a fixed hash: the
/// same every run; a perfect lattice stands like a crystal, real grains do not).
struct GranularDesc {
    Vec3 bottomCentre = Vec3::Zero();
    int nx = 16, ny = 16, nz = 16;
    real radius = real(0.05);
    real spacing = real(0.11);
    real grainMass = real(0.5);
    real staticFriction = 1;
    real kineticFriction = real(0.5);
    real jitter = real(0.005);
};

std::vector<ParticleId> buildGranularBlock(World& world, const GranularDesc& desc);

/// Millington's blob, made position-based: particles filling a ball, held in shape by one
/// shape-matching cluster (soft: it squashes and springs back) with rigid-mode damping.
struct BlobDesc {
    Vec3 centre = Vec3::Zero();
    real radius = real(0.3);
    real spacing = real(0.1);          ///< of the particles (their radius is half of it)
    real mass = 1;
    real shapeStiffness = real(0.3);
    real rigidDamping = real(0.02);
    real friction = real(0.4);
    std::uint32_t group = 0;
};

struct Blob {
    std::vector<ParticleId> particles;
    ParticleClusterId cluster;
};

Blob buildBlob(World& world, const BlobDesc& desc);

/// Millington's platform (ch. 7): six particles in two rows of three, joined by rods
/// (zero-compliance distance constraints) along its sides, across it and along the
/// diagonals of its two halves. Its `from` end is pinned; the `to` end hangs from two
/// cables to points `cableHeight` above it, so the platform dips as a load moves
/// along it.
struct PlatformDesc {
    Vec3 from = Vec3(-2, 1, 0), to = Vec3(2, 1, 0);
    real width = 1;
    real particleMass = 1;
    real radius = real(0.1);
    real cableHeight = 2;
    std::uint32_t group = 0;
};

struct Platform {
    std::vector<ParticleId> particles;   ///< row 0 (from -> to), then row 1
    std::vector<DistanceConstraintId> rods;
    std::vector<ParticleAttachmentId> cables;
};

Platform buildPlatform(World& world, const PlatformDesc& desc);

/// Aerodynamic forces on a triangle mesh of particles (a flag, a sail): each triangle
/// of area A and unit normal n, moving at the mean velocity of its corners through air
/// moving at `wind`, takes the pressure force of a flat plate,
///   F = 1/2 rho C_d A |u| (u . n) n,  u = wind - v,
/// plus a lift 1/2 rho C_l A |u| (u . n) across u (in the plane of u and n), shared
/// equally by its corners through World::applyParticleForce. Call before each step.
struct AeroDesc {
    Vec3 wind = Vec3::Zero();
    real airDensity = real(1.2);  ///< rho [kg/m^3]
    real drag = 1;                ///< C_d of a flat plate face-on is about 1.2
    real lift = real(0.3);
};

void applyAerodynamics(World& world, const std::vector<ParticleId>& particles,
                       const std::vector<std::array<std::uint32_t, 3>>& triangles, const AeroDesc& desc);

/// A closed sphere: an icosahedron subdivided `subdivisions` times (12, 42, 162, 642,
/// 2562 vertices), its edges distance constraints and its inside a volume constraint.
struct BalloonDesc {
    Vec3 centre = Vec3::Zero();
    real radius = real(0.5);
    int subdivisions = 3;             ///< 0 to 5
    real mass = real(0.5);            ///< of the skin [kg]
    real particleRadius = 0;          ///< 0: half the mean edge length
    real stretchCompliance = 0;       ///< edges [m/N]
    real pressure = 1;                ///< k_pressure
    real volumeCompliance = 0;        ///< [m^5/N]
    VolumeMode mode = VolumeMode::Global;
    real friction = real(0.5);
    std::uint32_t group = 0;          ///< 0: a new group
};

struct Balloon {
    std::vector<ParticleId> particles;
    std::vector<DistanceConstraintId> edges;
    ParticleVolumeId volume;
    std::vector<std::array<std::uint32_t, 3>> triangles; ///< into `particles`, outward
};

Balloon buildBalloon(World& world, const BalloonDesc& desc);

} // namespace jounce
