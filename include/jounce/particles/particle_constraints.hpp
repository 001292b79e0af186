// SPDX-License-Identifier: MIT
#pragma once
/// \file particle_constraints.hpp
/// The particle layer's constraints beyond distance: bending, volume and area on a few
/// particles (one flat array of small constraints), closed-mesh volumes (balloons), and
/// clusters (shape matching and rigid-mode damping). Each follows the survey of Bender,
/// Müller and Macklin 2017 (seeds/000, "specific constraints"); docs/particles.md
/// lists the equations.

#include <jounce/common/handle.hpp>
#include <jounce/common/math.hpp>

#include <array>
#include <cstdint>
#include <limits>
#include <vector>

namespace jounce {

struct ParticleTag;
using ParticleId = Handle<ParticleTag>;
struct ParticleConstraintTag;
struct ParticleVolumeTag;
struct ParticleClusterTag;
struct ParticleSurfaceTag;
using ParticleSurfaceId = Handle<ParticleSurfaceTag>;
struct ParticleHierarchyTag;
using ParticleHierarchyId = Handle<ParticleHierarchyTag>;
using ParticleConstraintId = Handle<ParticleConstraintTag>;
using ParticleVolumeId = Handle<ParticleVolumeTag>;
using ParticleClusterId = Handle<ParticleClusterTag>;

/// Constraints on three or four particles.
enum class ParticleConstraintKind : std::uint8_t {
    /// Dihedral angle of two triangles (a, b, c) and (b, a, d) sharing the edge a-b:
    /// C = theta - theta0 (the signed angle between their normals, Müller 2007's
    /// bending constraint written with atan2 so it stays smooth when flat). Independent
    /// of stretching.
    Bending,
    /// Isometric bending (Bergou 2006; Bender, Kelager et al. 2014): the same four
    /// particles; C = 1/2 sum_ij Q_ij x_i . x_j with the constant Q = 3/(A0+A1) K^T K of
    /// the rest stencil. For cloth that does not stretch; its rest state is flat.
    IsometricBending,
    /// Signed volume of the tetrahedron (a, b, c, d): C = 1/6 (x_ba x x_ca) . x_da - V0.
    TetVolume,
    /// Area of the triangle (a, b, c): C = 1/2 |x_ba x x_ca| - A0 (d unused).
    TriangleArea,
};

struct ParticleConstraintDesc {
    ParticleConstraintKind kind = ParticleConstraintKind::TetVolume;
    std::array<ParticleId, 4> particles{}; ///< a, b, c, d (TriangleArea: the first three)
    /// Rest value (angle [rad], volume [m^3], area [m^2]); NaN: as the particles are
    /// now (the default). IsometricBending's rest value is 0 (flat).
    real rest = std::numeric_limits<real>::quiet_NaN();
    /// XPBD compliance in the constraint's units (1 / stiffness); 0: rigid.
    real compliance = 0;
};

struct ParticleConstraint {
    ParticleConstraintKind kind = ParticleConstraintKind::TetVolume;
    std::uint8_t count = 4;                 ///< particles used (3 or 4)
    std::array<std::uint32_t, 4> p{};       ///< particle slots
    real rest = 0;
    real compliance = 0;
    real lambda = 0;
    /// IsometricBending only: Q = c c^T (c = sqrt(3 / (A0 + A1)) K), so
    /// C = 1/2 |sum_i c_i x_i|^2 and grad_i C = c_i sum_j c_j x_j.
    std::array<real, 4> c{};
};

/// How a closed mesh keeps its volume.
enum class VolumeMode : std::uint8_t {
    /// One global constraint C = V(X) - k_pressure V0 with V the mesh's volume by the
    /// divergence theorem and its exact gradient; corrections weighted by inverse mass
    /// (the survey's cloth balloon). Conserves momentum.
    Global,
    /// Diziol et al. 2011: the same C, corrections weighted by w_i = (1 - alpha) w_i^l +
    /// alpha / n, where w_i^l is particle i's share of how far the other constraints
    /// moved the particles this small step; particles touching something get weight 0
    /// (so the volume is restored where the mesh bulges freely). Does not conserve
    /// momentum exactly (the weights are not masses).
    Diziol,
};

struct ParticleVolumeDesc {
    /// Triangles of a closed, consistently oriented mesh (counter-clockwise seen from
    /// outside), as particle handles.
    std::vector<std::array<ParticleId, 3>> triangles;
    real pressure = 1;      ///< k_pressure: the target is k V0 (1: keep the rest volume; 1.5: over-pressure)
    real compliance = 0;    ///< [m^3 / N m]: XPBD compliance of the volume constraint
    VolumeMode mode = VolumeMode::Global;
    real globalShare = real(0.5); ///< Diziol's alpha in [0, 1]
};

struct ParticleVolume {
    std::vector<std::array<std::uint32_t, 3>> triangles; ///< particle slots
    std::vector<std::uint32_t> particles;                ///< each slot once, sorted
    real restVolume = 0;   ///< V0 [m^3] when it was made
    real pressure = 1;
    real compliance = 0;
    VolumeMode mode = VolumeMode::Global;
    real globalShare = real(0.5);
    real lambda = 0;
};

/// A set of particles treated together: shape matching (Müller et al. 2005) pulls them
/// towards their rest shape rotated by the best rotation of the current one, and
/// rigid-mode damping (Müller 2007 sec. 3.5) damps their velocities' deviation from
/// the cluster's rigid motion without touching its momentum.
struct ParticleClusterDesc {
    std::vector<ParticleId> particles;  ///< at least 2 (4 not in one plane for a full rotation)
    /// Fraction of the way to the goal positions per small step, in [0, 1] (spread over
    /// the iterations as k' = 1 - (1 - k)^(1/n)); 0: no shape matching.
    real shapeStiffness = 1;
    /// Fraction of the non-rigid velocity removed per small step, in [0, 1]; 0: none.
    real rigidDamping = 0;
};

struct ParticleCluster {
    std::vector<std::uint32_t> particles;
    std::vector<Vec3> rest;     ///< rest positions relative to the rest centre of mass
    real shapeStiffness = 1;
    real rigidDamping = 0;
    Mat3 rotation = Mat3::Identity(); ///< last optimal rotation (det +1, also when the cluster is inverted)
};

/// A triangle mesh over the particles of one group (a cloth) that particles do not
/// pass through: its own particles (self-collision) and every other particle stay on
/// the side of each triangle they came from, at least `thickness` from its plane
/// (other particles: thickness plus their radius). The survey's triangle collision,
/// C = s (q - x1) . n - h >= 0 with s the side q started the small step on; the
/// correction is spread over the triangle's corners by q's barycentric weights
/// (Bridson et al. 2002), so it keeps momentum. Position-based friction as for pairs.
struct ParticleSurfaceDesc {
    /// Triangles as particle handles; every particle in one non-zero group (the group
    /// is the surface's proxy in the broad phase).
    std::vector<std::array<ParticleId, 3>> triangles;
    real thickness = real(0.01); ///< h [m], > 0: less than the mesh's edges (or neighbours would collide)
};

struct ParticleSurface {
    std::vector<std::array<std::uint32_t, 3>> triangles; ///< particle slots
    std::uint32_t group = 0;                             ///< the group of all its particles
    real thickness = real(0.01);
};

/// Hierarchical position-based dynamics (Müller 2008; survey sec. "hierarchical PBD"):
/// coarser copies of a mesh, each a subset of the finer one's particles, whose distance
/// constraints are projected first in every iteration, coarsest first; each level's
/// corrections are carried down to the particles it left out, as the weighted mean of
/// their coarse neighbours' corrections. Stretch then spreads across a large cloth in
/// one sweep instead of one link per sweep. The coarse constraints are one-sided (they
/// only stop stretching), so the cloth still folds and bends freely.
struct ParticleHierarchyDesc {
    std::vector<ParticleId> particles;              ///< the mesh's particles (each once)
    std::vector<std::array<ParticleId, 2>> edges;   ///< its edges (a cloth: stretch and shear)
    int levels = 2;   ///< coarse levels to build, in [1, 8]
    int parents = 2;  ///< k: every left-out particle keeps at least k coarse neighbours where it has them, in [1, 8]
};

/// One coarse level: its particles (a subset of the finer level's), their masses with
/// their children's shares added (so the corrections carried down keep momentum), the
/// one-sided distance constraints between particles at most two finer edges apart, and
/// how the finer level's left-out particles follow them.
struct ParticleHierarchyLevel {
    std::vector<std::uint32_t> particles;             ///< particle slots
    std::vector<real> inverseMass;                    ///< per entry of particles (0: pinned)
    std::vector<std::array<std::uint32_t, 2>> links;  ///< indices into particles
    std::vector<real> restLength;                     ///< per link [m]
    std::vector<std::uint32_t> children;              ///< slots of the finer level's particles not in this one
    std::vector<std::uint32_t> parentStart;           ///< child k's parents: parents[parentStart[k] .. parentStart[k + 1])
    std::vector<std::uint32_t> parents;               ///< indices into particles
    std::vector<real> weights;                        ///< per parent, summing to 1 per child (by inverse rest distance)
};

struct ParticleHierarchy {
    std::vector<ParticleHierarchyLevel> levels;       ///< finest coarse level first
    /// What it was built from (the desc, as slots and indices into meshParticles), so a
    /// scene file can write the desc back out (the levels cannot be turned back into it).
    std::vector<std::uint32_t> meshParticles;
    std::vector<std::array<std::uint32_t, 2>> meshEdges;
    int levelsAsked = 2;
    int parents = 2;
};

} // namespace jounce
