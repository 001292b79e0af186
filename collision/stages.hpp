// SPDX-License-Identifier: MIT
#pragma once
// The stages of World::step that find contacts (stages 3-4 and continuous collision):
// collider boxes, broad-phase pairs, the narrow phase, fast bodies. They read the
// bodies' and colliders' public records (dynamics/) and nothing of physics/; the world
// calls them in the order of docs/architecture.md.

#include <jounce/collision/broad_phase.hpp>
#include <jounce/collision/time_of_impact.hpp>
#include <jounce/common/handle.hpp>
#include <jounce/common/tasks.hpp>
#include <jounce/contact/events.hpp>
#include <jounce/dynamics/body.hpp>
#include <jounce/dynamics/collider.hpp>

#include <cstdint>
#include <exception>
#include <span>
#include <utility>
#include <vector>

namespace jounce::detail {

using BodyArray = SlotArray<Body, BodyTag>;
using ColliderArray = SlotArray<Collider, ColliderTag>;

/// The world settings collision reads (WorldSettings' fields of the same names).
struct CollisionSettings {
    real collisionMargin = 0; ///< shapes this far apart still make a contact [m]
    real aabbMargin = 0;      ///< the broad phase's boxes grow by this [m]
    bool continuous = true;   ///< sweep fast bodies, report speculative contacts
    real cacheDistance = 0;   ///< a pair moved less than this keeps its manifold's points [m]
    real cacheAngle = 0;      ///< ... and turned less than this [rad]
    /// sin^2(cacheAngle / 2), the bound mayRefresh reads (made once a step by
    /// collisionSettings, not once a pair: a sine and a power cost a refresh a tenth).
    /// A double in both builds: std::pow(float, int) is one.
    double cacheTurnSquared = 0;
};

/// A collider pair's manifolds in a list of them: [first, last).
struct ManifoldRange {
    std::uint32_t first = 0;
    std::uint32_t last = 0;
};

/// A collider's world pose and tight box, and the placement of its body they were made
/// from. A collider's shape and local pose never change, so while its body's placement
/// is the same to the bit, so are they: a static or sleeping body's colliders are not
/// placed again each substep (a sleeping pile of 1000 boxes: a fifth of its step).
struct PlacedCollider {
    std::uint32_t generation = 0; ///< of the collider in this slot when placed
    bool valid = false;
    Vec3 position = Vec3::Zero(), localCentroid = Vec3::Zero(); ///< the body's, when placed
    Quat orientation = Quat::Identity();
    Transform pose;
    Aabb tight;

    /// Whether `body` is still where this placement was made (bit for bit: -0 and +0
    /// differ, so a world restored from a snapshot, which places everything afresh,
    /// steps the same as the one that kept placing).
    bool madeFrom(const Body& body, std::uint32_t colliderGeneration) const;
    /// Places `collider` (whose slot's generation is `colliderGeneration`) on `body`
    /// afresh, pose and tight box, unless it was placed there already: true if it was.
    bool place(const Body& body, const Collider& collider, std::uint32_t colliderGeneration);
};

/// The share of the step each side of a swept pair may move (limitFastMotion), where
/// limitsA / limitsB say the pair limits that side at all.
struct PairLimit {
    real shareA = 1, shareB = 1;
    bool limitsA = false, limitsB = false;
};

/// Buffers the collision stages reuse from step to step (capacity is what matters: a
/// settled step allocates nothing).
struct CollisionScratch {
    std::vector<PlacedCollider> placed;      ///< colliderProxies: by collider slot (a memo, not state)
    std::vector<std::uint32_t> proxyOf;      ///< colliderProxies: by collider slot, its proxy's index
    std::vector<Transform> poses;            ///< colliderProxies: each collider proxy's world pose
    std::vector<Aabb> boxes;                 ///< colliderProxies: each collider proxy's tight box at that pose
    /// colliderProxies: each collider proxy's body's linear velocity and whether it is a
    /// sensor, beside its box, so the narrow phase drops most pairs without reading the
    /// colliders and bodies (pile1000: 83 % of the pairs; a Body is 0.6 kB).
    std::vector<Vec3> velocities;
    std::vector<std::uint8_t> sensors;
    /// narrowPhase: one worker's buffers for the pair it is testing.
    struct PairWork {
        std::vector<Manifold> manifolds;     ///< the pair's manifolds
        std::vector<Manifold> speculative;   ///< a speculative pair's, rebuilt at impact
        std::vector<Manifold> sweep;         ///< the time-of-impact walk's
    };
    std::vector<PairWork> workers;           ///< narrowPhase: by worker
    /// limitFastMotion: the pairs it sweeps (indices into the pairs) and, by swept pair,
    /// the share of the step each side may move.
    std::vector<std::uint32_t> sweptPairs;
    std::vector<PairLimit> pairLimits;
    /// markFastBodies: by collider slot, its smallest half size and its reach from its
    /// body's centre of mass.
    std::vector<std::pair<real, real>> colliderSizes;
    std::vector<std::uint32_t> tested;       ///< narrowPhase: the pairs it tests, in pair order
    std::vector<ManifoldRange> previous;     ///< narrowPhase: by tested pair, its manifolds of the last step
    std::vector<std::vector<ContactManifold>> chunkContacts; ///< narrowPhase: by chunk, what did not fit its slots
    std::vector<std::vector<SensorEvent>> chunkSensors;      ///< narrowPhase: by chunk
    /// narrowPhase on workers: where each chunk's manifolds start in the step's list (from
    /// its pairs' count of the last step), how many went there, and, when a chunk made
    /// more or fewer, the list joined in chunk order and where each chunk starts in it.
    std::vector<std::size_t> chunkOffsets;
    std::vector<std::size_t> chunkUsed;
    std::vector<std::size_t> joinOffsets;
    std::vector<ContactManifold> joined;
    std::vector<std::exception_ptr> chunkErrors; ///< narrowPhase: what each chunk threw
    std::vector<std::uint8_t> fast;          ///< markFastBodies: by body slot, swept this step
    std::vector<real> fraction;              ///< limitFastMotion: by body slot, share of the step to move
    /// limitFastMotion: by manifold, the body it holds back from a static or kinematic
    /// one and the share of the step its points allow (infinity: none)
    std::vector<std::pair<std::uint32_t, real>> manifoldLimits;
    /// Collider slot pairs (low, high) the game's contact filter vetoed or its contact
    /// modifier turned off this substep: continuous collision lets them pass too.
    std::vector<std::pair<std::uint32_t, std::uint32_t>> offPairs;
    std::vector<std::uint32_t> linked;       ///< shareAcrossJoints: union-find over body slots
    std::vector<real> leastShare;            ///< shareAcrossJoints: by set, its smallest share
    std::vector<std::uint8_t> asleep;        ///< markFastBodies: by body slot, dynamic and asleep before the narrow phase
    std::vector<real> halfSize;              ///< markFastBodies: by body slot, smallest half size of its colliders
    std::vector<real> reach;                 ///< markFastBodies: by body slot, reach from the centre of mass
};

/// Stage 3: refresh every collider's fat box (covering the step's sweep) into
/// `proxies`, which is cleared first; proxyColliders[i] names proxy i's collider,
/// scratch.poses[i] its world pose at the start of the step and scratch.boxes[i] its
/// tight box there (the narrow phase's, computed once).
void colliderProxies(const BodyArray& bodies, ColliderArray& colliders, const CollisionSettings& settings,
                     std::vector<BroadPhaseProxy>& proxies, std::vector<ColliderId>& proxyColliders,
                     CollisionScratch& scratch, real h, TaskSystem* tasks = nullptr);

/// Stage 3: the overlapping pairs of every proxy, colliders' and particles' alike.
/// The list is the broad phase's own (BroadPhase::findPairs): read until the next call.
const std::vector<ProxyPair>& findPairs(BroadPhase& bp, const std::vector<BroadPhaseProxy>& proxies, TaskSystem* tasks = nullptr);

/// How a collider placed at `pose` on body b moves this step if b keeps its velocities
/// (turning about its centre of mass; static bodies stay).
Sweep sweepOf(const Body& b, const Transform& pose, real h);

/// Stage 4a (continuous collision): flags by body slot the awake dynamic bodies that
/// are swept this step: bullets, and bodies whose motion this step (|v| h plus |w| h
/// times their reach) exceeds half their smallest size. Empty when continuous
/// collision is off.
void markFastBodies(const BodyArray& bodies, const ColliderArray& colliders, const CollisionSettings& settings, real h,
                    CollisionScratch& scratch, TaskSystem* tasks = nullptr);

/// Stage 6c (continuous collision): for each broad-phase pair with a fast body, the
/// time of impact of the two colliders' sweeps with the velocities the resolver
/// left; a fast body moves only up to its earliest impact this step (scratch.fraction),
/// keeping its velocity, so next step's contact stops it at the surface. Pairs
/// already touching at the start are the resolver's; where it left any dynamic body
/// still closing on a static contact (`contacts`, this step's manifolds), the body
/// moves at most the collision margin deeper into it. A body woken mid-step moves from
/// the next step.
void limitFastMotion(const BodyArray& bodies, const ColliderArray& colliders, const CollisionSettings& settings,
                     const std::vector<ColliderId>& proxyColliders, const std::vector<ProxyPair>& pairs,
                     const std::vector<std::pair<std::uint32_t, std::uint32_t>>& noCollision,
                     const std::vector<ContactManifold>& contacts, real h, CollisionScratch& scratch,
                     TaskSystem* tasks = nullptr);

/// Stage 6d: joined bodies move together. Every dynamic body joined (`links`: body slot
/// pairs) to one that limitFastMotion stopped short takes the same share of its move,
/// so the joints hold through the stop instead of coming apart by the rest of it.
void shareAcrossJoints(const BodyArray& bodies, const std::vector<std::pair<std::uint32_t, std::uint32_t>>& links,
                       CollisionScratch& scratch);

/// Stage 4b: a manifold for every pair whose shapes are within the collision margin;
/// pairs with a sensor give a sensor overlap instead (when the shapes overlap), and
/// pairs `filter` vetoes give nothing. Each pair continues its manifolds of the last
/// step (`previous`, in the same collider order: persistent_contacts.cpp): refreshed
/// instead of found while the pair barely moved, their impulses carried to the points
/// that continue them. With `tasks`, chunks of pairs are tested on its workers; the
/// results come out in pair order all the same (`filter` is called on the calling
/// thread, in pair order).
void narrowPhase(const BodyArray& bodies, const ColliderArray& colliders, const CollisionSettings& settings,
                 const std::vector<ColliderId>& proxyColliders, const std::vector<ProxyPair>& pairs,
                 const std::vector<std::pair<std::uint32_t, std::uint32_t>>& noCollision,
                 const std::vector<ContactManifold>& previous, std::vector<ContactManifold>& contacts, real h,
                 CollisionScratch& scratch, const ContactFilter& filter, std::vector<SensorEvent>& sensorOverlaps,
                 TaskSystem* tasks = nullptr);

// ---- Persistent contacts (persistent_contacts.cpp) ---------------------------------

/// For each tested pair (indices into `pairs`, in pair order), the range of `previous`
/// (last step's manifolds, in collider order) of the same two colliders: one walk down
/// both lists. Empty where the pair had none, or a collider slot now holds another.
/// With `tasks`, chunks of pairs walk on its workers, each from its first pair's place
/// found by bisection (the same ranges).
void findPreviousManifolds(const std::vector<ContactManifold>& previous, const std::vector<ColliderId>& proxyColliders,
                           const std::vector<ProxyPair>& pairs, const std::vector<std::uint32_t>& tested,
                           std::vector<ManifoldRange>& ranges, TaskSystem* tasks = nullptr);

/// Whether a pair's last manifolds (`last`, non-empty) may be refreshed for colliders at
/// `pa` and `pb`: all were found by the shape test (none speculative or moving) and A's
/// pose in B's frame moved less than the cache's distance and angle since. The caller
/// checks that the pair closes slowly (narrowPhase: by half the margin a step at most).
bool mayRefresh(std::span<const ContactManifold> last, const Transform& pa, const Transform& pb,
                const CollisionSettings& settings);

/// The manifold's points placed again from its anchors on colliders now at `pa` and
/// `pb`: the normal turned with B, each point midway between its two anchors, the depth
/// the anchors' overlap along the normal. Impulses and features stay.
void refreshPoints(ContactManifold& m, const Transform& pa, const Transform& pb);

/// Records a manifold just found for colliders at `pa` and `pb`: its anchors (each
/// point's surface points on A and B), its normal in B's frame and A's pose in B's.
void recordAnchors(ContactManifold& m, const Transform& pa, const Transform& pb);

/// Warm starting (Catto 2005) within the pair: each point of `m` starts from the
/// impulse of the last step's point it continues (same features, else the nearest
/// within 5 cm), the normal part if the normal did not turn over, the friction part if
/// it turned less than 2.6 degrees.
void carryImpulses(std::span<const ContactManifold> last, ContactManifold& m);

} // namespace jounce::detail
