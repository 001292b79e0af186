// SPDX-License-Identifier: MIT
#pragma once
// The stages of World::step that work on contacts once they are found: gathering
// points and warm-starting them, joints as contact generators (Millington ch. 14),
// islands, what the next step keeps, broken joints and the events. The resolver itself
// is contact/resolver.cpp with its own stages (resolver_stages.hpp). They read the
// bodies' public records (dynamics/) and nothing of physics/.

#include <jounce/common/tasks.hpp>
#include <jounce/contact/contact.hpp>
#include <jounce/contact/events.hpp>
#include <jounce/contact/islands.hpp>
#include <jounce/contact/joint.hpp>
#include <jounce/common/handle.hpp>
#include <jounce/dynamics/body.hpp>
#include <jounce/dynamics/collider.hpp>

#include "contact/joint_motion.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace jounce::detail {

using BodyArray = SlotArray<Body, BodyTag>;
using ColliderArray = SlotArray<Collider, ColliderTag>;

/// groupContacts' "goes nowhere" (a manifold or joint contact of a sleeping island, or
/// with no dynamic body).
inline constexpr std::uint32_t noPlace = 0xffffffffu;

/// Buffers the contact stages reuse from step to step.
struct ContactScratch {
    std::vector<std::pair<std::uint32_t, std::uint32_t>> links; ///< groupContacts: sleeping, joint and manifold links
    std::vector<Contact> jointContacts;      ///< generateJointContacts: this substep's, before groupContacts places them
    std::vector<std::pair<std::uint64_t, std::uint32_t>> order; ///< keepForWarmStart: (key, index), sorted
    std::vector<std::uint64_t> previousKeys; ///< generateJointContacts: last step's joint contact keys, for warmStart
    std::vector<std::uint32_t> manifoldFirsts; ///< groupContacts: each manifold's first point's place, or noPlace; then the count
    std::vector<std::uint32_t> jointPlaces;    ///< groupContacts: each joint contact's place, or noPlace
    std::vector<std::uint32_t> manifoldOrder, manifoldStarts; ///< groupContacts: manifolds by island
    /// groupContacts: whether any manifold has rolling resistance (read there, on the
    /// workers, so the step need not look through every manifold again for it)
    bool anyRolling = false;
    /// groupContacts: each manifold's two body slots and point count, read off the
    /// manifolds (0.5 kB apart) once, on the workers.
    struct ManifoldPair {
        std::uint32_t a = 0, b = 0, count = 0;
    };
    std::vector<ManifoldPair> manifoldPairs;
    std::vector<std::uint32_t> jointOrder, jointStarts;       ///< groupContacts: joint contacts by island
    /// groupContacts: for each island in the step's list (islandStarts' order), its
    /// manifolds (manifoldOrder[firstManifold, lastManifold)) and how many joint contacts.
    struct PlacedIsland {
        std::uint32_t firstManifold = 0, lastManifold = 0, joints = 0;
    };
    std::vector<PlacedIsland> placedIslands;
    std::vector<real> rollingNormals;          ///< applyRollingResistance: each manifold's normal impulse
    std::vector<std::uint8_t> movedByKinematic; ///< groupContacts: islands touching a moving kinematic body
    std::vector<ContactEvent> touching;      ///< reportContacts: the pairs touching now (then the last step's)
    std::vector<ContactEvent> near;          ///< reportContacts: the pairs with a speculative manifold now
    std::vector<std::uint8_t> reported;      ///< reportContacts: by manifold, nothing, near or touching
    /// reportContacts: a chunk of manifolds, reported on a worker: how many pairs of each
    /// kind, whether they rise in key order and their first and last keys, its part of
    /// the last step's touching list, how many begins, persists and ends it makes and
    /// where it writes each list.
    struct EventChunk {
        std::uint32_t touching = 0, near = 0;
        bool ordered = true;
        std::pair<std::uint64_t, std::uint64_t> firstTouching{}, lastTouching{}, firstNear{}, lastNear{};
        std::uint32_t wasFirst = 0;
        std::uint32_t begins = 0, persists = 0, ends = 0;
        std::uint32_t touchingAt = 0, nearAt = 0, beginAt = 0, persistAt = 0, endAt = 0;
    };
    std::vector<EventChunk> eventChunks;
    std::vector<std::uint8_t> untested;      ///< reportContacts: per body slot, static or asleep (see there)
    std::vector<SensorEvent> sensing;        ///< reportSensors: overlaps now
    std::vector<JointId> broken;             ///< measureJointForces: joints that broke this substep
};

/// When a pair counts as touching for its events: its deepest point within `depth` of
/// contact, or its gap closing within the substep at its approach speed. The solver
/// pushes a speculative contact as soon as its gap would close within the substep, so
/// a bounce can turn a body back centimetres before the two come within `depth`: they
/// met (the impulse was theirs), and report a begin (Box2D v3 and Jolt report every
/// manifold within their speculative distance as touching; this keeps only those the
/// solver acts on).
struct TouchRule {
    real depth = 0; ///< [m] how far apart the deepest point may be and still touch
    real h = 0;     ///< [s] the substep the manifolds were solved over
    bool touches(real deepest, real approachSpeed) const {
        const real gap = -deepest - depth;
        return gap <= 0 || gap <= approachSpeed * h;
    }
};

/// Stage 9: contact events from the last substep's manifolds against the pairs that
/// touched after the previous step (`touching`, replaced by the new set), touching as
/// `rule` says.
/// `near` (also replaced) keeps the pairs whose manifolds do not touch yet (speculative): a
/// begin event's approach speed is the larger of now's and the speculative contact's
/// of the step before (which already slowed the bodies to meet at the surface).
/// A pair that touched when its bodies fell asleep stays touching while they sleep,
/// with no persist events (`asleep`: by body slot, the dynamic bodies that slept while
/// the last substep's contacts were found).
void reportContacts(const BodyArray& bodies, const ColliderArray& colliders, const std::vector<std::uint8_t>& asleep,
                    const std::vector<ContactManifold>& contacts, TouchRule rule, std::vector<ContactEvent>& touching, std::vector<ContactEvent>& near,
                    ContactScratch& scratch, ContactEvents& events, TaskSystem* tasks);

/// Stage 9: sensor events from the last substep's overlaps (visitors asleep inside a
/// sensor stay in) against the previous step's (events.overlaps, replaced).
void reportSensors(const BodyArray& bodies, const ColliderArray& colliders, const std::vector<SensorEvent>& overlaps,
                   ContactScratch& scratch, SensorEvents& events);

/// A contact's identity across steps: the two colliders (slot and generation) hashed
/// into the high 32 bits, the touching feature in the low 32. Contacts of one collider
/// pair share the high half, so they sit together when sorted by key.
std::uint64_t contactKey(const ContactManifold& m, std::uint32_t feature);

/// The impulse manifold point `point` carried from the last step, in the contact frame
/// `basis` (columns: normal, tangent, bitangent): the friction part is kept as a world
/// vector and read in this step's tangent axes (docs/contact.md, warm starting).
inline Vec3 warmStartImpulse(const ContactManifold& m, std::uint32_t point, const Mat3& basis) {
    const Vec3 friction = m.frictionImpulse[point].cast<real>();
    return Vec3(real(m.normalImpulse[point]), basis.col(1).dot(friction), basis.col(2).dot(friction));
}

/// The reverse: a solved contact-frame impulse back into its manifold point for the
/// next step, friction as a world vector.
inline void keepImpulse(ContactManifold& m, std::size_t point, const Mat3& basis, const Vec3& impulse) {
    m.normalImpulse[point] = static_cast<float>(impulse.x());
    m.frictionImpulse[point] = (basis.col(1) * impulse.y() + basis.col(2) * impulse.z()).cast<float>();
}

/// Contact `c` from point `point` of manifold `m` (number `index` of the narrow phase's
/// list; `key`: contactKey(m, 0)) with the frame `basis` and the warm start `carried`:
/// every field a solver reads before it writes it (the derived ones are its preparation's).
void fillContact(const ContactManifold& m, std::uint32_t index, std::uint32_t point, std::uint64_t key, const Mat3& basis,
                 const Vec3& carried, Contact& c);

/// Stage 5c: the contact points of the manifolds groupContacts placed (`firsts`: each
/// manifold's first place, or noPlace; firsts.back(): the list's length), each starting
/// from the impulse its manifold carried from the last step (warm starting) and naming
/// its manifold point (Contact::source), and the joints' contacts at their places
/// (`jointPlaces`). Manifolds marked in `packed` (by manifold; empty: none) are left
/// for the soft step's coloured blocks, whose places are written when read
/// (SoftStepSolver::describeColoured). With
/// `tasks`, the manifolds' points are built on its workers.
void gatherContacts(const std::vector<ContactManifold>& manifolds, std::span<const std::uint32_t> firsts,
                    const std::vector<Contact>& jointContacts, std::span<const std::uint32_t> jointPlaces,
                    std::span<const std::uint8_t> packed, std::vector<Contact>& out, TaskSystem* tasks);
/// The same for every manifold with a dynamic body, in manifold order (`firsts`: scratch);
/// the manifolds must be finite (dropBadPoints).
void gatherContacts(const BodyArray& bodies, const std::vector<ContactManifold>& manifolds, std::vector<Contact>& out,
                    std::vector<std::uint32_t>& firsts, TaskSystem* tasks = nullptr);

/// Each manifold's points with non-finite data (point, depth, or the normal, friction
/// and restitution they share) taken out of it, each described in `errors` (appended,
/// in manifold order). groupContacts calls it when its pass finds one.
void dropBadPoints(std::vector<ContactManifold>& manifolds, std::vector<std::string>& errors);

/// Warm starting a joint's contact: copies last step's impulse of the contact `c`
/// continues (same key, or the nearest point of the same joint within 5 cm), if any.
/// `keys`: previous's keys.
void warmStart(const std::vector<KeptContact>& previous, std::span<const std::uint64_t> keys, Contact& c);

using JointArray = SlotArray<Joint, JointTag>;

/// The point pairs a joint watches, from its desc and its bodies' current poses
/// (b null: the world). Throws jounce::Error naming the field for a bad desc.
Joint makeJoint(const JointDesc& desc, const Body& a, const Body* b, const std::string& field);

/// The contact key of joint (index, generation)'s contact k (joint_contacts.cpp).
std::uint64_t jointKey(std::uint32_t index, std::uint32_t generation, int k);
/// Which of a joint's point pairs contact k of it belongs to.
int jointPointOf(const Joint& joint, std::uint32_t k);

/// Stage 6b: each joint's force this substep (Joint::force: per point pair, the sum of
/// its contacts' impulses over h, the largest pair's length), from the resolved
/// contacts sorted by key (`resolved`, as keepForWarmStart leaves them). Appends to
/// `broken` the joints whose force exceeded their breakForce, in slot order.
void measureJointForces(JointArray& joints, const BodyArray& bodies, const std::vector<KeptContact>& resolved, real h,
                        std::vector<JointId>& broken);

/// Stage 5a (contact generators): a contact for each joint point pair that drifted
/// apart, appended to `out`, warm-started from `previous` (`keys`: scratch, filled
/// with previous's keys).
/// `hingeRows` (the soft step, whose rows keep a hinge's axis): a hinge gives its anchor
/// pair alone, not its two points on the axis.
void generateJointContacts(const BodyArray& bodies, const JointArray& joints, const std::vector<KeptContact>& previous,
                           std::vector<std::uint64_t>& keys, std::vector<Contact>& out, bool hingeRows);

/// Throws jounce::Error naming the field (`field`.lower, ...) for a hinge's or slider's
/// (`type`) motion out of range.
void validateMotion(const JointMotion& motion, JointType type, const std::string& field);
/// A swing-twist joint's swing drive and target (joint_contacts.cpp: what makeJoint checks),
/// errors naming `field`.swingDrive... and `field`.swingTarget.
void validateSwingDrive(const JointMotion& drive, const Vec3& target, const std::string& field);
/// A 6-DOF joint's axes and their motions (joint_contacts.cpp: what makeJoint checks).
void validateSixDof(const JointDesc& desc, const std::string& field);

/// Stage 5a (the joints' own rows, made just before the soft step): a JointMotionRow
/// for each awake hinge whose motion asks for rows (`out` replaced), in slot order, warm-started from Joint::motionImpulse.
void generateJointMotions(const BodyArray& bodies, const JointArray& joints, std::vector<JointMotionRow>& out);

/// After the solve: each row's impulses back into its joint, and the torque they carried
/// over the substep `h` (Joint::torque).
void storeJointMotions(JointArray& joints, const std::vector<JointMotionRow>& rows, real h);

/// Pairs of body slots joints join (for islands) and, sorted, those that must not
/// collide (for the narrow phase).
void jointLinks(const JointArray& joints, std::vector<std::pair<std::uint32_t, std::uint32_t>>& links,
                std::vector<std::pair<std::uint32_t, std::uint32_t>>& noCollision);

/// Stage 5b: islands over the manifolds' and joints' body pairs; wakes islands an awake
/// body or a moving kinematic one touches; then where each contact goes in the step's
/// list (scratch.manifoldFirsts, scratch.jointPlaces: gatherContacts fills them), island
/// by island, leaving out sleeping islands, with the island ranges in `islandStarts`
/// (and each one's manifolds in scratch.placedIslands). First, points with non-finite
/// data are dropped from their manifolds (dropBadPoints; `errors` replaced).
/// `sleepingLinks` (pairs of body indices) join sleeping bodies whose contacts are no
/// longer looked for; links with no sleeping body left are dropped.
using BodyLink = std::pair<std::uint32_t, std::uint32_t>;
void groupContacts(BodyArray& bodies, std::vector<ContactManifold>& manifolds, const std::vector<Contact>& jointContacts,
                   const SleepSettings& sleep, Islands& islands, std::vector<std::uint32_t>& islandStarts,
                   std::vector<BodyLink>& sleepingLinks, const std::vector<BodyLink>& jointLinks, ContactScratch& scratch,
                   std::vector<std::string>& errors, TaskSystem* tasks = nullptr);

/// Stage 8: after islands fell asleep, the pairs of sleeping bodies the step's
/// contacts joined, added to `links`.
void keepSleepingLinks(const BodyArray& bodies, const std::vector<Contact>& contacts, std::vector<BodyLink>& links);

/// Rolling resistance (Material::rollingResistance), once a step after the solver: for
/// each manifold in order with a bound, the angular impulse that stops the two bodies'
/// relative rolling (their relative angular velocity across the normal), held within
/// rollingResistance times the step's whole normal impulse on the manifold (its solved
/// contacts' accumulatedImpulse.x() + bounceImpulse.x(), summed through Contact::source),
/// goes to its awake dynamic bodies. Friction then brings the slipping contact back to
/// rolling, slower (contact/rolling_resistance.cpp derives (5/7) c_rr g). `normal` is scratch.
void applyRollingResistance(BodyArray& bodies, const std::vector<ContactManifold>& manifolds,
                            const std::vector<Contact>& solved, std::vector<real>& normal);

/// After resolution: keep what next step's warm start needs of the contacts. A
/// collider pair's contact writes its impulse back to its manifold point
/// (Contact::source, keepImpulse); joints' contacts go to `previous`, sorted by key
/// (ties in their order). Islands marked in `skip` (by island of `islandStarts`; empty:
/// none) are passed over: the soft step's coloured blocks wrote theirs back already,
/// and they have no joints. `order` is scratch.
void keepForWarmStart(const std::vector<Contact>& contacts, std::span<const std::uint32_t> islandStarts,
                      std::span<const std::uint8_t> skip, std::vector<ContactManifold>& manifolds,
                      std::vector<KeptContact>& previous, std::vector<std::pair<std::uint64_t, std::uint32_t>>& order,
                      TaskSystem* tasks = nullptr);

} // namespace jounce::detail
