#pragma once
// The stages of World::step that live in physics/. Only the world calls them, in
// the order of docs/architecture.md; each works on the world's plain arrays.

#include <jounce/collision/time_of_impact.hpp>
#include <jounce/physics/world.hpp>

#include <span>
#include <utility>

namespace jounce::detail {

using BodyArray = SlotArray<Body, BodyTag>;
using GeneratorArray = SlotArray<ForceGenerator, ForceGeneratorTag>;

/// Stage 1: gravity, API forces and every force generator into each awake dynamic
/// body's forceAccum and torqueAccum.
void applyForces(BodyArray& bodies, const GeneratorArray& generators, const StepContext& ctx);

/// Stage 2: the velocity half of semi-implicit Euler for every awake dynamic body
/// (forces and torques into v and w, damping; see GyroscopicMode).
void integrateVelocities(BodyArray& bodies, const StepContext& ctx);

/// Stage 7: the position half for every awake dynamic and every kinematic body: move
/// and turn with the velocities the resolver left, refresh the world inertia.
/// Bodies flagged in `skip` (by slot, may be empty) are left to the particle layer,
/// which moves them in its small steps.
/// `fraction` (by slot, may be empty) shortens a body's move to that share of the
/// step (continuous collision stops a fast body where it first touches something).
void integratePositions(BodyArray& bodies, const StepContext& ctx, const std::vector<std::uint8_t>& skip = {},
                        const std::vector<real>& fraction = {});
/// Stage 7 for one body over ctx.h (the particle layer's small steps use it).
void integrateBodyPosition(Body& body, const StepContext& ctx, real fraction = 1);

using ColliderArray = SlotArray<Collider, ColliderTag>;

/// Stage 3a: refresh every collider's fat box (covering the step's sweep) into
/// `proxies`, which is cleared first; proxyColliders[i] names proxy i's collider and
/// poses[i] its world pose at the start of the step (the narrow phase's, computed once).
void colliderProxies(const BodyArray& bodies, ColliderArray& colliders, const WorldSettings& settings,
                     std::vector<BroadPhaseProxy>& proxies, std::vector<ColliderId>& proxyColliders,
                     std::vector<Transform>& poses, real h);

/// Stage 3c: the overlapping pairs of every proxy, colliders' and particles' alike.
void findPairs(BroadPhase& bp, const std::vector<BroadPhaseProxy>& proxies, std::vector<ProxyPair>& pairs);

/// Buffers the stages reuse from step to step (their capacity is what matters: once a
/// scene has settled, a step allocates nothing).
struct StepScratch {
    std::vector<Transform> poses;            ///< colliderProxies: each collider proxy's world pose
    std::vector<Manifold> manifolds;         ///< narrowPhase: one pair's manifolds
    std::vector<Manifold> speculative;       ///< narrowPhase: a speculative pair's, rebuilt at impact
    std::vector<Manifold> sweep;             ///< narrowPhase: the time-of-impact walk's
    std::vector<Contact> ordered;            ///< groupContacts: contacts in island order
    std::vector<std::pair<std::uint32_t, std::uint32_t>> links; ///< groupContacts: sleeping and joint links
    std::vector<std::pair<std::uint64_t, std::uint32_t>> order; ///< keepForWarmStart: (key, index), sorted
    std::vector<std::uint64_t> previousKeys; ///< gatherContacts: last step's contact keys, for warmStart
    std::vector<std::uint8_t> fast;          ///< markFastBodies: by body slot, swept this step
    std::vector<real> fraction;              ///< limitFastMotion: by body slot, share of the step to move
    std::vector<std::uint8_t> asleep;        ///< markFastBodies: by body slot, dynamic and asleep before the narrow phase
    std::vector<real> halfSize;              ///< markFastBodies: by body slot, smallest half size of its colliders
    std::vector<real> reach;                 ///< markFastBodies: by body slot, reach from the centre of mass
    std::vector<ContactEvent> touching;      ///< reportContacts: pairs touching now
    std::vector<ContactEvent> near;          ///< reportContacts: every pair with a manifold now
    std::vector<SensorEvent> sensing;        ///< reportSensors: overlaps now
    std::vector<JointId> broken;             ///< measureJointForces: joints that broke this substep
};

/// Stage 9: contact events from the last substep's manifolds against the pairs that
/// touched after the previous step (`touching`, replaced by the new set).
/// `near` (also replaced) keeps every pair with a manifold, speculative ones too: a
/// begin event's approach speed is the larger of now's and the speculative contact's
/// of the step before (which already slowed the bodies to meet at the surface).
void reportContacts(const std::vector<ContactManifold>& contacts, real touchDepth, std::vector<ContactEvent>& touching,
                    std::vector<ContactEvent>& near, StepScratch& scratch, ContactEvents& events);

/// Stage 9: sensor events from the last substep's overlaps (visitors asleep inside a
/// sensor stay in) against the previous step's (events.overlaps, replaced).
void reportSensors(const BodyArray& bodies, const ColliderArray& colliders, const std::vector<SensorEvent>& overlaps,
                   StepScratch& scratch, SensorEvents& events);

/// How a collider placed at `pose` on body b moves this step if b keeps its velocities
/// (turning about its centre of mass; static bodies stay).
Sweep sweepOf(const Body& b, const Transform& pose, real h);

/// Stage 3b (continuous collision): flags by body slot the awake dynamic bodies that
/// are swept this step: bullets, and bodies whose motion this step (|v| h plus |w| h
/// times their reach) exceeds half their smallest size. Empty when continuous
/// collision is off.
void markFastBodies(const BodyArray& bodies, const ColliderArray& colliders, const WorldSettings& settings, real h,
                    StepScratch& scratch);

/// Stage 6b (continuous collision): for each broad-phase pair with a fast body, the
/// time of impact of the two colliders' sweeps with the velocities the resolver
/// left; a fast body moves only up to its earliest impact this step (scratch.fraction),
/// keeping its velocity, so next step's contact stops it at the surface. Pairs
/// already touching at the start are the resolver's; where it left any dynamic body
/// still closing on a static contact (`contacts`, this step's manifolds), the body
/// moves at most the collision margin deeper into it. A body woken mid-step moves from
/// the next step.
void limitFastMotion(const BodyArray& bodies, const ColliderArray& colliders, const WorldSettings& settings,
                     const std::vector<ColliderId>& proxyColliders, const std::vector<ProxyPair>& pairs,
                     const std::vector<std::pair<std::uint32_t, std::uint32_t>>& noCollision,
                     const std::vector<ContactManifold>& contacts, real h, StepScratch& scratch);

/// Stage 4: a manifold for every pair whose shapes are within the collision margin;
/// pairs with a sensor give a sensor overlap instead (when the shapes overlap), and
/// pairs `filter` vetoes give nothing.
void narrowPhase(const BodyArray& bodies, const ColliderArray& colliders, const WorldSettings& settings,
                 const std::vector<ColliderId>& proxyColliders, const std::vector<ProxyPair>& pairs,
                 const std::vector<std::pair<std::uint32_t, std::uint32_t>>& noCollision,
                 std::vector<ContactManifold>& contacts, real h, StepScratch& scratch, const ContactFilter& filter,
                 std::vector<SensorEvent>& sensorOverlaps);

/// Stage 5a: the contact points of every manifold with a dynamic body, each given last
/// step's accumulated impulse when its key matches (warm starting). Points with
/// non-finite data are dropped and described in `errors`.
/// `previousKeys` is filled with previous's keys (in order) for warmStart.
void gatherContacts(const BodyArray& bodies, const std::vector<ContactManifold>& manifolds,
                    const std::vector<KeptContact>& previous, std::vector<std::uint64_t>& previousKeys,
                    std::vector<Contact>& out, std::vector<std::string>& errors);

/// Warm starting: copies last step's impulse of the contact `c` continues (same key, or
/// the nearest point of the same pair within 5 cm), if any. `keys`: previous's keys.
void warmStart(const std::vector<KeptContact>& previous, std::span<const std::uint64_t> keys, Contact& c);

using JointArray = SlotArray<Joint, JointTag>;

/// The point pairs a joint watches, from its desc and its bodies' current poses
/// (b null: the world). Throws jounce::Error naming the field for a bad desc.
Joint makeJoint(const JointDesc& desc, const Body& a, const Body* b, const std::string& field);

/// The contact key of joint (index, generation)'s contact k (joint_contacts.cpp).
std::uint64_t jointKey(std::uint32_t index, std::uint32_t generation, int k);
/// Which of a joint's point pairs contact k of it belongs to.
int jointPointOf(const Joint& joint, std::uint32_t k);

/// Stage 6c: each joint's force this substep (Joint::force: per point pair, the sum of
/// its contacts' impulses over h, the largest pair's length), from the resolved
/// contacts sorted by key (`resolved`, as keepForWarmStart leaves them). Appends to
/// `broken` the joints whose force exceeded their breakForce, in slot order.
void measureJointForces(JointArray& joints, const std::vector<KeptContact>& resolved, real h, std::vector<JointId>& broken);

/// Stage 5 (contact generators): a contact for each joint point pair that drifted
/// apart, appended to `out`, warm-started from `previous` (keys: gatherContacts').
void generateJointContacts(const BodyArray& bodies, const JointArray& joints, const std::vector<KeptContact>& previous,
                           std::span<const std::uint64_t> previousKeys, std::vector<Contact>& out);

/// Pairs of body slots joints join (for islands) and, sorted, those that must not
/// collide (for the narrow phase).
void jointLinks(const JointArray& joints, std::vector<std::pair<std::uint32_t, std::uint32_t>>& links,
                std::vector<std::pair<std::uint32_t, std::uint32_t>>& noCollision);

/// Stage 5b: islands; wakes islands an awake body touches; reorders `contacts` by
/// island, leaving out sleeping islands, with the island ranges in `islandStarts`.
/// `sleepingLinks` (pairs of body indices) join sleeping bodies whose contacts are no
/// longer looked for; links with no sleeping body left are dropped.
using BodyLink = std::pair<std::uint32_t, std::uint32_t>;
void groupContacts(BodyArray& bodies, std::vector<Contact>& contacts, const WorldSettings& settings, Islands& islands,
                   std::vector<std::uint32_t>& islandStarts, std::vector<BodyLink>& sleepingLinks,
                   const std::vector<BodyLink>& jointLinks, StepScratch& scratch);

/// Stage 8b: after islands fell asleep, the pairs of sleeping bodies the step's
/// contacts joined, added to `links`.
void keepSleepingLinks(const BodyArray& bodies, const std::vector<Contact>& contacts, std::vector<BodyLink>& links);

/// After resolution: keep what next step's warm start needs of the contacts, sorted by
/// key (ties in their order). `order` is scratch.
void keepForWarmStart(const std::vector<Contact>& contacts, std::vector<KeptContact>& previous,
                      std::vector<std::pair<std::uint64_t, std::uint32_t>>& order);

/// Mass, inertia (about the centre of mass, body frame) and centre of mass of a set of
/// colliders, each of uniform density. Half-spaces are skipped (static bodies only).
MassProperties massFromColliders(const std::vector<const Collider*>& colliders);

/// q += h/2 [0, w] q, renormalised (seeds/000 eq. 4 under symplectic Euler).
Quat integrateOrientation(const Quat& q, const Vec3& w, real h);

/// R I^-1 R^T for the body's current orientation.
Mat3 worldInverseInertia(const Body& b);
/// I^-1 of a body-frame inertia, symmetrised first (what World keeps for a dynamic body).
Mat3 bodyInverseInertia(const Mat3& inertia);

} // namespace jounce::detail
