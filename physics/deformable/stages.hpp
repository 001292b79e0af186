// SPDX-License-Identifier: MIT
#pragma once
// The stages of the ARAP deformable solver (Choi 2017; seeds/001). One step of a
// deformable: predict the inertial targets (eq. 12-14), alternate the local step (each
// particle's rotation, eq. 4 + 13 + handle terms) and the global step (all positions,
// eq. 6-7 + 9 + 14), then turn the new poses into velocities (sec. 4).

#include "physics/world/stages.hpp"

#include <jounce/deformable/deformable.hpp>

#include <Eigen/Sparse>

#include <memory>
#include <utility>
#include <vector>

namespace jounce::detail {

/// Per deformable: the global system's matrix and its factorisation, kept while the
/// matrix stays the same (same systemVersion and step length).
/// The system is solved in double even in float builds: the elastic terms (k v, ~1e5)
/// dwarf the inertial ones (m / h^2, ~1e3), and float's round-off in the solve then
/// shows as a momentum drift of several per cent a second.
struct DeformableSolver {
    std::uint64_t builtFor = ~std::uint64_t(0);
    real builtForStep = 0;
    Eigen::SparseMatrix<double> matrix;
    std::unique_ptr<Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>>> ldlt;
    DeformableStats stats;
};

/// One solver per deformable slot (world-owned, not copied with the state).
struct DeformableSolvers {
    std::vector<DeformableSolver> bySlot;
};

/// Deformables in the shared broad phase: one proxy each, after the particles'.
constexpr std::uint32_t deformableOwnerBit = 0x40000000u;
struct DeformableShapePair {
    std::uint32_t deformable = 0; ///< slot
    ColliderId collider{};
};
struct DeformableCandidates {
    std::uint32_t firstProxy = 0;            ///< proxy firstProxy + k is deformable proxySlots[k]
    std::vector<std::uint32_t> proxySlots;
    std::vector<DeformableShapePair> pairs;  ///< sorted by deformable, then collider
};

/// An oriented particle's rest data from its radii a, b, c, its rest axes E-bar and the
/// density: v = 4/3 pi a b c, m = rho v, A-bar = E-bar A E-bar^T with
/// A = v/5 diag(a^2, b^2, c^2) (Müller & Chentanez 2011, sec. 4).
struct OrientedParticleRest {
    real volume = 0, mass = 0;
    Mat3 moment = Mat3::Zero();
};
OrientedParticleRest orientedParticleRest(const Vec3& radii, const Mat3& axes, real density);

/// Fills the rest pose, masses, moments, neighbour lists, state and skinning of a
/// deformable from a validated description.
void buildDeformable(const DeformableDesc& desc, Deformable& out);

/// Skinning weights of eq. 1 for every vertex: the m particles nearest it in the rest
/// pose, weighted (1 - d_j / d_max)^2 (Sumner et al. 2007) with d_max the distance to
/// the (m+1)-th nearest, normalised to sum to 1.
void computeSkinning(Deformable& d, int neighbours);

/// The inertial targets of a step: y = x + h v + h^2 g for positions, T = R + h [w]x R
/// for rotations (sec. 4: 2 R^(1) - R^(2) with R^(2) = R^(1) - h [w]x R^(1)).
struct InertialTargets {
    std::vector<Vec3> position;
    std::vector<Mat3> rotation;
};
void predictTargets(const Deformable& d, const Vec3& gravity, real h, InertialTargets& out);

/// The local step: every particle's optimal rotation given the positions and the other
/// rotations (Gauss-Seidel: the latest), as the proper rotation of the polar
/// decomposition of C_i. Records the worst det and orthogonality in `stats`.
void localStep(Deformable& d, const InertialTargets& targets, real h, DeformableStats& stats);

/// The global step: assembles (when the matrix changed) and factorises L, builds b from
/// the rotations and targets, and solves L x = b for all positions.
void globalStep(Deformable& d, DeformableSolver& solver, const InertialTargets& targets, real h);

/// A whole step of one deformable.
void stepDeformable(Deformable& d, DeformableSolver& solver, const Vec3& gravity, real h);

/// Where vertex k of the render mesh is now (eq. 1), and its normal (normalised).
/// skinnedOffset is the rotational half of eq. 1, sum_j w_j R_j (vb_k - xb_j): the
/// vertex less the weighted particle positions (the global step's handle term).
Vec3 skinnedOffset(const Deformable& d, std::size_t k);
Vec3 skinnedVertex(const Deformable& d, std::size_t k);
Vec3 skinnedNormal(const Deformable& d, std::size_t k);

/// Collisions (collide_deformables.cpp): the proxies, the candidates from the broad
/// phase's pairs, and the response after a deformable's step.
void addDeformableProxies(const SlotArray<Deformable, DeformableTag>& deformables, const WorldSettings& settings,
                          std::vector<BroadPhaseProxy>& proxies, DeformableCandidates& out, real h);
void findDeformableCandidates(const std::vector<BroadPhaseProxy>& proxies, const std::vector<ColliderId>& proxyColliders,
                              const std::vector<ProxyPair>& pairs, DeformableCandidates& out);
/// The response to the candidates [first, last) of one deformable (its range of the
/// sorted pairs: deformableRange). Impulses on dynamic bodies are added to their
/// impulse accumulators, applied with the next velocity integration.
void collideDeformable(Deformable& d, const DeformableShapePair* first, const DeformableShapePair* last, BodyArray& bodies,
                       const ColliderArray& colliders);
/// The candidate pairs of deformable `slot`.
std::pair<const DeformableShapePair*, const DeformableShapePair*> deformableRange(const DeformableCandidates& candidates,
                                                                                  std::uint32_t slot);

/// Islands and sleep (deformable_islands.cpp): deformables joined to the body islands
/// they touch, grouped as particles are.
using DeformableArray = SlotArray<Deformable, DeformableTag>;
struct DeformableIslands {
    std::vector<std::uint32_t> deformables;      ///< deformable slots grouped by island
    std::vector<std::uint32_t> deformableStarts; ///< island k: deformables[deformableStarts[k] .. [k + 1])
    std::vector<std::uint32_t> bodyIslands;      ///< body islands (contact/'s Islands) grouped likewise
    std::vector<std::uint32_t> bodyIslandStarts;
    std::vector<std::uint32_t> unionFind, islandOf; ///< scratch of groupDeformables, kept for its capacity
    std::size_t count() const { return deformableStarts.empty() ? 0 : deformableStarts.size() - 1; }
};
/// Stage 5: groups, and wakes every island in which anything is awake.
void groupDeformables(DeformableArray& deformables, BodyArray& bodies, const ColliderArray& colliders,
                      const DeformableCandidates& candidates, const Islands& bodyIslands, real sleepThreshold,
                      DeformableIslands& out);
/// Stage 8a: each awake deformable's motion; flags in `keepAwake` (by body island, as
/// particleMotion left it) the body islands a moving deformable touches.
void deformableMotion(DeformableArray& deformables, const DeformableIslands& islands, std::size_t bodyIslandCount,
                      real dt, const SleepSettings& settings, std::vector<std::uint8_t>& keepAwake);
/// Stage 8c (after the bodies' sleep): islands whose deformables are quiet and whose
/// bodies all sleep fall asleep, their velocities zeroed.
void sleepDeformables(DeformableArray& deformables, const BodyArray& bodies, const Islands& bodyIslands,
                      const DeformableIslands& islands, const SleepSettings& settings);

} // namespace jounce::detail
