// SPDX-License-Identifier: MIT
#pragma once
// The stages of the particle solver (DESIGN.md steps 2, 6 and 7 for particles). The
// world calls solveParticles once per world substep; it runs the layer's own small
// steps (Macklin et al. 2019), each: predict, project, update velocities.
//
// Stages given a task system share their work among its workers where the work
// divides into parts that touch different particles: per particle (prediction,
// velocities), per colour of a sweep (sweep_levels.hpp: a colour's rows share no
// particle), per run of about 256 shape candidates or contacts that ends with a
// particle's last (making the shape contacts, put together in candidate order, and
// projecting those with shapes that do not yield), per piece of a free group's members
// (keeping angular momentum, summed piece after piece). Every part computes what it
// would alone, so the result is the same bits for any number of workers. Null: one
// thread.

#include "physics/particles/distance_lines.hpp"
#include "physics/particles/distance_rows.hpp"
#include "physics/particles/pair_rows.hpp"
#include "physics/particles/small_rows.hpp"
#include "physics/particles/sweep_levels.hpp"
#include "physics/world/stages.hpp"

#include <jounce/collision/point_queries.hpp>
#include <jounce/common/tasks.hpp>
#include <jounce/particles/particles.hpp>

namespace jounce::detail {

/// A particle's contact with a shape, a collision constraint of one small step:
/// C(p) = (p - q) . n >= 0 (q: where the particle's centre touches, n: the surface normal).
struct ParticleContact {
    std::uint32_t a = 0;
    Vec3 q = Vec3::Zero();
    Vec3 n = Vec3::UnitY();
    Vec3 surfaceMotion = Vec3::Zero(); ///< how far the shape's surface moves in the small step
    /// Two-way: the surface point under the particle in the body's centre-of-mass frame,
    /// and where it was at the small step's start (world), so friction measures the slip
    /// against where every push left the body, not only this contact's.
    Vec3 surfaceLocal = Vec3::Zero(), surfaceStart = Vec3::Zero();
    std::uint32_t body = noBody;       ///< a dynamic body that takes its share (two-way), or none
    real staticFriction = 0, kineticFriction = 0;
    real restitution = 0;
    real normalVelocity = 0;           ///< v . n before the small step (for the bounce)
};

/// Two particles that may touch in this world substep: C = |p_a - p_b| - (r_a + r_b) >= 0.
/// Kept small (64 bytes in double): a sand pile has tens of thousands, and every
/// pass of every small step reads them all.
struct PairContact {
    std::uint32_t a = 0, b = 0;
    Vec3 n = Vec3::UnitY();  ///< from b to a at the world substep's start (coincident pairs push along it)
    real staticFriction = 0, kineticFriction = 0;
    real restitution = 0;
    real normalVelocity = 0; ///< (v_a - v_b) . n at the world substep's start (for the bounce)
};

/// Step 2 for particles: v += h (g + w f), damping, p = x + h v (Euler), or BDF2's
/// inertial position (survey eq. 19). Pinned and sleeping particles stay.
void predictParticles(ParticleSystem& ps, const Vec3& gravity, real damping, real h, ParticleIntegrator integrator,
                      TaskSystem* tasks = nullptr);

/// This small step's particle-shape constraints from the candidates: a swept test from
/// x to p first (Müller 2007 sec. 3.5: the ray x -> p), the closest surface point when
/// the particle starts inside, which also moves it out (x and p) without a velocity;
/// the tangent plane at the closest point when the path misses by less than `margin`.
/// Each collider's pose is computed once per small step, into `poses`.
struct ColliderPoses {
    std::vector<std::uint32_t> ofSlot; ///< a collider slot's index in `poses`, or ~0
    std::vector<PoseMatrix> poses; ///< rotations as matrices: each turns many particles
    /// On several workers: the candidates cut into runs of whole particles (run k:
    /// candidates [runStart[k], runStart[k + 1])), each run's contacts made apart and
    /// then put together in run order.
    std::vector<std::uint32_t> runStart;
    std::vector<std::vector<ParticleContact>> runContacts;
};
void makeShapeContacts(ParticleSystem& ps, const BodyArray& bodies, const ColliderArray& colliders,
                       const ParticleCandidates& candidates, real margin, real h, ColliderPoses& poses,
                       std::vector<ParticleContact>& out, TaskSystem* tasks = nullptr);

/// The particle-particle constraints of a whole world substep, one per candidate pair
/// that can touch in it
/// (each small step's projection tests whether it is touching; the bounce uses the
/// closing speed at the start of the world substep).
/// On several workers, runs of candidates each fill one of `runs`, put together in run
/// order: the same list on any number of workers.
void makePairContacts(const ParticleSystem& ps, const ParticleCandidates& candidates, real h,
                      std::vector<PairContact>& out, std::vector<std::vector<PairContact>>& runs, TaskSystem* tasks = nullptr);
/// Puts pair contacts colour by colour (sweep_levels.hpp): every pass over them (the
/// pre-stabilisation, the projection, the bounce) touches only the pair's particles, so
/// the pairs of a colour are independent and may be shared among workers. `rows`: the
/// same contacts, in the same order, as the pair kernel's rows (pair_rows.hpp).
void orderPairContacts(std::size_t particles, std::vector<PairContact>& contacts, SweepLevels& levels,
                       std::vector<PairContact>& scratch, PairRows& rows);

/// Pre-stabilization (Macklin et al. 2014, sec. 5): pairs that already overlap at the
/// start of the small step are pushed apart at x and p alike, by their inverse masses,
/// so an overlap left by the last step (a light cloth particle squeezed between heavy
/// grains and a box) is undone without becoming velocity.
/// `levels`: the contacts' colours (orderPairContacts).
void preStabilizePairs(ParticleSystem& ps, const PairRows& rows, const SweepLevels& levels, TaskSystem* tasks = nullptr);
/// What the pair kernel (pair_kernel.hpp) reads and writes of `ps` and `rows`.
PairRowView pairRowView(ParticleSystem& ps, const PairRows& rows, real restitutionThreshold = 0);
/// One pass of the pair kernel over the coloured rows, colour by colour on the workers:
/// each colour's full registers in the widest lanes the processor has (and limitSimd
/// allows), its last rows, fewer than a register holds, with `oneAtATime` (the kernel
/// at width 1). Every width gives the same bits.
void sweepPairs(TaskSystem* tasks, const PairRows& rows, const SweepLevels& levels, const PairRowView& view, PairPass PairLanes::*pass,
                PairPass oneAtATime);

/// Position-based friction (Macklin 2014; survey eq. 27-29): the share of the relative
/// displacement dx to take away, given the normal n and the penetration depth just
/// corrected: all of its tangential part below mu_s depth (stick), else mu_k depth of it.
/// depth and the coefficients are >= 0 (the sticking test's shortcut relies on it).
Vec3 frictionCorrection(const Vec3& dx, const Vec3& n, real depth, real staticFriction, real kineticFriction);

/// A particle over a surface triangle in this small step (surface_collisions.cpp):
/// keep s (q - x1) . n >= gap.
struct SurfaceContact {
    std::uint32_t particle = 0;
    std::array<std::uint32_t, 3> corners{};
    real side = 1;  ///< +1 or -1: the side of the triangle q started on
    real gap = 0;   ///< the surface's thickness (plus q's radius when q is not its own)
    real staticFriction = 0, kineticFriction = 0;
};
/// Once per world substep: particle-triangle candidates of every surface, from the
/// broad phase's pairs of the surface's group proxy (and the surface's own particles).
void findSurfaceCandidates(const ParticleSystem& ps, const std::vector<BroadPhaseProxy>& proxies,
                           const std::vector<ProxyPair>& pairs, const WorldSettings& settings, real h,
                           ParticleCandidates& out);
/// Per small step: the candidates near their triangle's plane and over it.
void makeSurfaceContacts(const ParticleSystem& ps, const ParticleCandidates& candidates, std::vector<SurfaceContact>& out);
/// Per iteration: pushes q and the triangle's corners apart (barycentric weights), with friction.
void projectSurfaceContacts(ParticleSystem& ps, const std::vector<SurfaceContact>& contacts);

/// Hierarchical PBD (hierarchy.cpp): the coarse levels of a mesh given as particle slots
/// and edges (indices into slots); each iteration, every hierarchy's levels projected
/// coarsest first with their corrections carried down (`start`: scratch).
ParticleHierarchy buildHierarchy(const ParticleSystem& ps, const std::vector<std::uint32_t>& slots,
                                 const std::vector<std::array<std::uint32_t, 2>>& edges, int levels, int k);
void projectHierarchies(ParticleSystem& ps, std::vector<Vec3>& start);

/// One Gauss-Seidel sweep over each kind of constraint (XPBD's alpha~ = alpha / h^2;
/// PBD's corrected stiffness k').
/// Distance constraints are packed once per world substep into rows (distance_rows.hpp),
/// in two sets swept one after the other: the compliant rows (XPBD compliance > 0), then
/// the rigid ones (compliance 0, and every row of PBD), so that no compliant correction
/// undoes part of a rigid row's within the distance sweep (solve_particles.cpp). With
/// `lines` (and ParticleSettings::solveLines, XPBD), the rigid rows that form lines go
/// there instead (distance_lines.hpp).
void packDistances(const ParticleSystem& ps, const ParticleSettings& settings, real h,
                   const std::vector<std::uint8_t>& solvedDirectly, DistanceRows& compliant, DistanceRows& rigid,
                   DistanceLines* lines = nullptr);
void projectDistances(std::vector<Vec3>& p, DistanceRows& distances, TaskSystem* tasks = nullptr);
void storeDistanceMultipliers(ParticleSystem& ps, const DistanceRows& distances);
void projectAttachments(ParticleSystem& ps, BodyArray& bodies, const ParticleSettings& settings, real h);
void projectContacts(ParticleSystem& ps, BodyArray& bodies, std::vector<ParticleContact>& contacts, real h,
                     TaskSystem* tasks = nullptr);
/// The pair contacts (as orderPairContacts' rows) colour by colour, in the widest SIMD
/// lanes the processor has (pair_kernel.hpp), with the bits of one at a time.
void projectPairContacts(ParticleSystem& ps, const PairRows& rows, const SweepLevels& levels, TaskSystem* tasks = nullptr);

/// PBD's stiffness per projection, k' = 1 - (1 - k)^(1/n) for n iterations: n
/// projections with k' take (1 - k) of the error away in total, as one with k would
/// (seeds/002).
real pbdStiffnessPerIteration(const ParticleSettings& settings);
/// The XPBD multiplier change for a constraint of value c with summed weights
/// sum_i w_i |grad_i C|^2 and accumulated lambda (PBD: the projection scaled by k').
real multiplierChange(real c, real weights, real compliance, real lambda, const ParticleSettings& settings, real h);

/// Bending, tet volume and triangle area (project_small_constraints.cpp). The value
/// and gradients of one constraint at positions x; false where it has no direction
/// (a collapsed triangle or edge).
bool constraintValue(const ParticleConstraint& k, const std::array<Vec3, 4>& x, real& value, std::array<Vec3, 4>& grad);
/// The signed dihedral angle of triangles (a, b, c), (b, a, d) and its gradients.
bool bendingAngle(const std::array<Vec3, 4>& x, real& theta, std::array<Vec3, 4>& grad);
/// Isometric bending's c = sqrt(3 / (A0 + A1)) K for a rest stencil (Q = c c^T).
std::array<real, 4> isometricBendingCoefficients(const std::array<Vec3, 4>& x);
/// The live constraints in sweep order (small_rows.hpp), packed once per world substep
/// for the constraint step h; projected each iteration; their multipliers stored back
/// in the constraints after the last small step.
void packSmallConstraints(const ParticleSystem& ps, const ParticleSettings& settings, real h, SmallRows& out);
void projectSmallConstraints(ParticleSystem& ps, const ParticleSettings& settings, real h, SmallRows& rows,
                             TaskSystem* tasks = nullptr);
void storeSmallMultipliers(ParticleSystem& ps, const SmallRows& rows);

/// Closed-mesh volumes (project_volumes.cpp). `touching` flags particles with a contact
/// in this small step (Diziol's weights leave them alone).
struct VolumeScratch {
    std::vector<Vec3> grad;
    std::vector<real> omega;
};
real meshVolume(const ParticleSystem& ps, const ParticleVolume& volume); ///< at the predicted positions p
void projectVolumes(ParticleSystem& ps, const ParticleSettings& settings, real h,
                    const std::vector<std::uint8_t>& touching, VolumeScratch& scratch);

/// Clusters (clusters.cpp): shape matching, one pull per iteration; rigid-mode damping
/// of the velocities, once per small step.
/// The smallest least-squares x of a x = b (a pseudo-inverse by SVD: singular a allowed).
Vec3 pseudoInverseSolve(const Mat3& a, const Vec3& b);
void setClusterRest(const ParticleSystem& ps, ParticleCluster& cluster); ///< rest offsets from x
void matchShapes(ParticleSystem& ps, const ParticleSettings& settings);
void dampClusters(ParticleSystem& ps);

/// 1/m + (r x d) . I^-1 (r x d): how far a unit push along d at `at` moves that point.
real generalizedInverseMass(const Body& body, const Vec3& at, const Vec3& direction);
/// Moves and turns a dynamic body by an impulse-like push (its share of a particle
/// constraint's correction) at `at`, adding push / h to its momentum when
/// `withVelocity`. Returns how far the point `at` moved.
Vec3 pushBody(Body& body, const Vec3& at, const Vec3& push, real h, bool withVelocity);

/// Step 7 for particles: v = (p - x) / h (Euler) or BDF2's eq. 21, x = p; keeps BDF2's history.
void updateParticleVelocities(ParticleSystem& ps, real h, ParticleIntegrator integrator, TaskSystem* tasks = nullptr);

/// The velocity pass: touching contacts that closed faster than the threshold leave
/// with their restitution times the closing speed. `contacts` come by particle (a
/// particle's contacts one after the other).
void bounceParticles(ParticleSystem& ps, BodyArray& bodies, const std::vector<ParticleContact>& contacts,
                     const ParticleSettings& settings, real h, TaskSystem* tasks = nullptr);
void bouncePairs(ParticleSystem& ps, const PairRows& rows, const SweepLevels& levels, const ParticleSettings& settings,
                 TaskSystem* tasks = nullptr);

/// Calls link(a, b) for pairs of particle slots that internal constraints join (every
/// particle of a constraint, closed mesh or cluster with its first one).
template <typename Link> void forEachInternalLink(const ParticleSystem& ps, Link link) {
    for (std::size_t k = 0; k < ps.distances.slotCount(); ++k)
        if (ps.distances.isAlive(k)) link(ps.distances.atSlot(k).a, ps.distances.atSlot(k).b);
    for (std::size_t k = 0; k < ps.constraints.slotCount(); ++k) {
        if (!ps.constraints.isAlive(k)) continue;
        const ParticleConstraint& c = ps.constraints.atSlot(k);
        for (std::size_t i = 1; i < c.count; ++i) link(c.p[0], c.p[i]);
    }
    for (std::size_t k = 0; k < ps.volumes.slotCount(); ++k)
        if (ps.volumes.isAlive(k))
            for (const std::uint32_t i : ps.volumes.atSlot(k).particles) link(ps.volumes.atSlot(k).particles.front(), i);
    for (std::size_t k = 0; k < ps.clusters.slotCount(); ++k)
        if (ps.clusters.isAlive(k))
            for (const std::uint32_t i : ps.clusters.atSlot(k).particles) link(ps.clusters.atSlot(k).particles.front(), i);
}

/// Free groups and their angular momentum (conserve_momentum.cpp): rebuilds
/// ps.freeGroups (particles joined by internal constraints, none pinned).
void buildFreeGroups(ParticleSystem& ps);
/// The sums of keepAngularMomentum, in pieces of a group's members.
struct MomentumScratch {
    struct Piece {
        std::uint32_t first = 0, last = 0; ///< members [first, last) of one group
        std::uint32_t group = 0;
        real mass = 0;
        Vec3 startCentre = Vec3::Zero(); ///< sum m x
        Vec3 centre = Vec3::Zero(), torque = Vec3::Zero(); ///< sum m p; the sweep's torque
        Mat3 a = Mat3::Zero();
    };
    struct Group {
        real mass = 0;
        Vec3 startCentre = Vec3::Zero(), centre = Vec3::Zero(); ///< of x, of p
        Vec3 turn = Vec3::Zero(); ///< d theta
    };
    std::vector<Piece> pieces;
    std::vector<std::uint32_t> firstPiece; ///< group g's pieces: [firstPiece[g], firstPiece[g + 1])
    std::vector<Group> groups;
    std::vector<Vec3> before; ///< each member's p before the sweep
    std::vector<Vec3> arm;    ///< each member's m (x - c0): x and c0 hold still through the small step
};
/// Once per small step: the pieces, each group's mass and centre at the step's start,
/// and each member's arm m (x - c0) about it.
/// `memberMass`: 1 / w of each of freeGroups.members, in its order.
void startMomentumStep(const ParticleSystem& ps, const std::vector<real>& memberMass, MomentumScratch& scratch,
                       TaskSystem* tasks = nullptr);
/// Before each sweep: the members' positions p.
void rememberSweepStart(const ParticleSystem& ps, MomentumScratch& scratch, TaskSystem* tasks = nullptr);
/// After it: turns each group so that its angular momentum about the start is kept.
void keepAngularMomentum(ParticleSystem& ps, const std::vector<real>& memberMass, MomentumScratch& scratch,
                         TaskSystem* tasks = nullptr);

/// The awake dynamic bodies of this substep's particle-collider candidates and
/// particle attachments, into candidates.coupledBodies and coupledMask.
void findCoupledBodies(const ParticleSystem& ps, const BodyArray& bodies, const ColliderArray& colliders,
                       ParticleCandidates& candidates);

/// Particle islands (particle_islands.cpp). groupParticles: the islands, and wakes each
/// one with an awake member (particles and bodies alike). particleMotion: each awake
/// particle's recency-weighted motion, and which body islands moving particles keep
/// awake (for updateSleep). sleepParticles: puts to sleep the particle islands whose
/// particles are quiet and whose bodies all sleep.
void groupParticles(ParticleSystem& ps, BodyArray& bodies, const ColliderArray& colliders, const ParticleCandidates& candidates,
                    const Islands& bodyIslands, real sleepThreshold, ParticleIslands& out);
void particleMotion(ParticleSystem& ps, const ParticleIslands& islands, std::size_t bodyIslandCount, real dt,
                    const SleepSettings& settings, std::vector<std::uint8_t>& keepAwake);
void sleepParticles(ParticleSystem& ps, const BodyArray& bodies, const Islands& bodyIslands, const ParticleIslands& islands,
                    const SleepSettings& settings);

/// The buffers solveParticles fills every world substep, kept by the world from step
/// to step only so a step neither allocates nor touches fresh pages (nothing in them
/// carries over: each is rebuilt before it is read).
struct ParticleStepScratch {
    std::vector<ParticleContact> shapeContacts;
    ColliderPoses colliderPoses;
    std::vector<PairContact> pairContacts, pairsSorted;
    PairRows pairRows; ///< pairContacts as the pair kernel's rows (packPairRows)
    std::vector<std::vector<PairContact>> pairRuns; ///< makePairContacts' runs on several workers
    SweepLevels pairLevels;
    std::vector<SurfaceContact> surfaceContacts;
    std::vector<std::uint8_t> touching;
    VolumeScratch volumes;
    std::vector<Vec3> hierarchy;
    std::vector<real> memberMass; ///< 1 / w of the free groups' members (keepAngularMomentum)
    MomentumScratch momentum;
    DistanceRows compliantDistances, rigidDistances; ///< packDistances' two sets
    DistanceLines distanceLines;                      ///< the rigid rows solved by line
    SmallRows smallConstraints;
};

/// Where solveParticles' time went [ms], added to (Profile's particle parts).
struct ParticleTimes {
    double contacts = 0, project = 0, integrate = 0;
};

/// The whole layer for one world substep of length h. Bodies coupled to particles move
/// here, in the layer's small steps; `fraction` (per body slot, empty: all 1) is the
/// share of the step each may move before its first impact (limitFastMotion).
struct DirectSolver;
void solveParticles(ParticleSystem& ps, DirectSolver& direct, ParticleStepScratch& scratch, BodyArray& bodies, const ColliderArray& colliders,
                    const ParticleCandidates& candidates, const ParticleSettings& settings, const StepContext& ctx,
                    const std::vector<real>& fraction, TaskSystem* tasks = nullptr, ParticleTimes* times = nullptr);

/// Stage 3 for particles: refreshes each particle's box (its sphere swept over the
/// step) and appends the particles' proxies after the colliders': one per group-0
/// particle, one per non-zero group; `map` records whose particles each holds.
constexpr std::uint32_t particleOwnerBit = 0x80000000u;
void addParticleProxies(ParticleSystem& ps, const WorldSettings& settings, std::vector<BroadPhaseProxy>& proxies,
                        ParticleCandidates& map, real h);

/// Stage 4 for particles: the broad phase's pairs with particle proxies, opened into
/// particle-collider and particle-particle candidates whose own boxes overlap, sorted.
void particleCandidates(const ParticleSystem& ps, const std::vector<BroadPhaseProxy>& proxies,
                        const std::vector<ColliderId>& proxyColliders, const std::vector<ProxyPair>& pairs,
                        ParticleCandidates& out);

} // namespace jounce::detail
