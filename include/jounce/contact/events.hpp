// SPDX-License-Identifier: MIT
#pragma once
/// \file events.hpp
/// What the step reports after it ran: contacts that began, persisted and ended,
/// sensor overlaps, broken joints (World::contactEvents, sensorEvents, jointEvents).
/// Plain data, Box2D v3's style: read the arrays after step(); the next step replaces them.

#include <jounce/common/handle.hpp>
#include <jounce/common/math.hpp>
#include <jounce/contact/joint.hpp>
#include <jounce/dynamics/collider.hpp>

#include <vector>

namespace jounce {

/// Two colliders that touch (World::contactEvents): `begin` when they start, `persist`
/// every step they still do, `end` when they stop (or one of them is gone). A pair
/// that touches as its bodies fall asleep stays touching while they sleep, with no
/// persist events (Jolt's convention), until they wake and part. Touching
/// means a contact point no more than half the collision margin apart, or a gap the
/// pair closes within the step at its approach speed (a bounce may turn a body back
/// before it comes that close); speculative contacts whose gap stays open do not count. Plain data, Box2D v3's style: read the arrays
/// after step(); the next step replaces them.
struct ContactEvent {
    ColliderId colliderA{}, colliderB{};
    BodyId bodyA{}, bodyB{};
    Vec3 point = Vec3::Zero();    ///< the deepest point (end events: where it was last)
    Vec3 normal = Vec3::UnitY();  ///< from B toward A
    real depth = 0;               ///< > 0: overlap; < 0: the gap of a pair that closes it within the step (a bounce) [m]
    /// Closing speed along the normal before the resolver [m/s]; for a begin event the
    /// speed they met at (a speculative contact the step before may have slowed them).
    real approachSpeed = 0;
};
struct ContactEvents {
    std::vector<ContactEvent> begin, persist, end; ///< each sorted by (colliderA, colliderB) index
};

/// A collider overlapping a sensor (ColliderDesc::sensor): `begin` when it enters,
/// `end` when it leaves (or one of them is gone); `overlaps` lists every current one.
/// A visitor that falls asleep inside stays in until it wakes and leaves.
struct SensorEvent {
    ColliderId sensor{}, visitor{};
    BodyId sensorBody{}, visitorBody{};
};
struct SensorEvents {
    std::vector<SensorEvent> begin, end, overlaps; ///< each sorted by (sensor, visitor) index
};

/// A joint that broke (JointDesc::breakForce) in the last step. Its handle is stale by
/// the time you read this (the joint is gone); the desc says what it joined.
struct JointBreakEvent {
    JointId joint{};
    JointDesc desc;
    real force = 0; ///< the largest force its points carried as it broke [N]
    real torque = 0; ///< the torque it carried as it broke [N m] (Joint::totalTorque)
};
struct JointEvents {
    std::vector<JointBreakEvent> broken; ///< in the order they broke (substep, then joint index)
};

} // namespace jounce
