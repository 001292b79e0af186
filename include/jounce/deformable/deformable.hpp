// SPDX-License-Identifier: MIT
#pragma once
/// \file deformable.hpp
/// Oriented-particle ARAP deformables (Choi 2017, "As-Rigid-As-Possible Dynamic
/// Deformation with Oriented Particles"; seeds/001). A deformable is a deformation
/// graph of ellipsoids, each with a position and an orientation; an elastic energy
/// (eq. 3) keeps each particle's neighbours where its rotation says they belong, an
/// inertial energy (eq. 12) makes it an implicit Euler step, and handles pull skinned
/// points and directions to targets (eq. 8-10). Each step alternates a local step
/// (every particle's best rotation, by polar decomposition) and a global step (all
/// positions at once, from a sparse SPD system factorised once). A render mesh follows
/// by linear blend skinning (eq. 1). docs/deformable.md has the equations.
///
/// This header is state only: the world owns the deformables, validates what goes in,
/// and runs the solver (physics/deformable/) in its step.

#include <jounce/common/handle.hpp>
#include <jounce/common/math.hpp>

#include <array>
#include <cstdint>
#include <vector>

namespace jounce {

struct DeformableTag;
using DeformableId = Handle<DeformableTag>;
struct DeformableHandleTag;
using DeformableHandleId = Handle<DeformableHandleTag>;

/// One ellipsoid of the deformation graph, as placed (its rest pose).
struct OrientedParticleDesc {
    Vec3 position = Vec3::Zero();
    Quat orientation = Quat::Identity();                      ///< its axes E-bar (columns)
    Vec3 radii = Vec3(real(0.05), real(0.05), real(0.05));    ///< a, b, c along its axes [m], > 0
};

struct DeformableDesc {
    std::vector<OrientedParticleDesc> particles;
    std::vector<std::array<std::uint32_t, 2>> edges; ///< indices into particles; the graph must be connected
    real density = 1000;     ///< rho [kg/m^3]: each particle's mass is rho 4/3 pi a b c
    /// k of eq. 3 [N/m^5]: the energy is k/2 sum_i sum_j (moment term + v_j |R_i (xb_j - xb_i) - (x_j - x_i)|^2).
    /// 1e9 sags the default 2 m bar (0.2 m square, 1000 kg/m^3) by 0.11 m under gravity.
    real stiffness = 1e9;
    int iterations = 10;     ///< local/global iterations per step, in [1, 1000]
    real damping = 0;        ///< v *= exp(-damping h) and w likewise, each step [1/s]
    real friction = real(0.5);  ///< Coulomb coefficient against shapes
    /// The render mesh, in the rest pose; empty: the particles' centres are its vertices
    /// (so handles can still name them).
    std::vector<Vec3> vertices;
    std::vector<Vec3> normals;                            ///< per vertex, or empty
    std::vector<std::array<std::uint32_t, 3>> triangles;  ///< indices into vertices
    int skinningNeighbours = 4; ///< m of eq. 1: particles that move each vertex, in [1, 16]
};

/// A handle (eq. 8-10) pulls a skinned vertex to a target point (position handle) or
/// turns its skinned direction to a target direction (direction handle), with a weight
/// [N/m for positions]. Targets move every step without refactorising; weights, or
/// adding and removing handles, refactorise the global system once.
struct DeformableHandleDesc {
    std::uint32_t vertex = 0;     ///< index into the deformable's vertices
    enum class Kind : std::uint8_t { Position, Direction } kind = Kind::Position;
    Vec3 target = Vec3::Zero();   ///< world point, or unit direction
    Vec3 restDirection = Vec3::UnitX(); ///< Direction only: n-bar at the vertex in the rest pose (unit)
    /// w_p [N/m] or w_d [N m]; 0: stiff, 1000 k v_max (so the handle wins against the
    /// elastic links around it whatever k is). >= 0.
    real weight = 0;
};

/// A handle as the solver keeps it: the vertex's skinning (particles and weights) is
/// copied from the deformable's.
struct DeformableHandle {
    DeformableHandleDesc desc;
};

/// The deformable as the solver keeps it (flat arrays, one entry per particle).
struct Deformable {
    // The rest pose.
    std::vector<Vec3> restPosition;       ///< x-bar
    std::vector<Mat3> restAxes;           ///< E-bar
    std::vector<Vec3> radii;
    std::vector<real> volume;             ///< v = 4/3 pi a b c
    std::vector<real> mass;               ///< m = rho v
    std::vector<Mat3> restMoment;         ///< A-bar = E-bar A E-bar^T, A = 0.2 v diag(a^2, b^2, c^2)
    std::vector<std::uint32_t> neighbourStart, neighbours; ///< N_i = neighbours[neighbourStart[i] .. [i + 1])
    std::vector<std::array<std::uint32_t, 2>> edges;

    // The state.
    std::vector<Vec3> position;           ///< x
    std::vector<Vec3> velocity;           ///< v
    std::vector<Mat3> rotation;           ///< R = E E-bar^T (current axes E = R E-bar)
    std::vector<Vec3> angularVelocity;    ///< omega (the rotational state is (R, omega x R), sec. 4)

    // The render mesh and its skinning (eq. 1).
    std::vector<Vec3> restVertices, restNormals;
    std::vector<std::array<std::uint32_t, 3>> triangles;
    std::vector<std::uint32_t> skinStart, skinParticles; ///< vertex k: skinParticles[skinStart[k] .. [k + 1])
    std::vector<real> skinWeights;
    int skinningNeighbours = 4;           ///< DeformableDesc::skinningNeighbours (for scene files)

    SlotArray<DeformableHandle, DeformableHandleTag> handles;

    real density = 1000, stiffness = 1e9, damping = 0, friction = real(0.5);
    int iterations = 10;
    /// Bumped when the global system's matrix changes (handles, stiffness): the
    /// factorisation is redone at the next step.
    std::uint64_t systemVersion = 0;
    bool asleep = false;
    real motion = 0;                      ///< recency-weighted mean v.v (Millington ch. 16)

    std::size_t size() const { return position.size(); }
};

/// What the last step of a deformable's solver did (for tests and the demo's panel).
struct DeformableStats {
    real globalResidual = 0;   ///< |L x - b| / |b| of the last global step
    real worstDeterminant = 1; ///< the smallest det R the local steps returned
    real worstOrthogonality = 0; ///< the largest |R^T R - I| they returned
    int factorisations = 0;    ///< how many times its matrix was factorised so far
};

} // namespace jounce
