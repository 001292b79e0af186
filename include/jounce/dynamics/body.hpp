// SPDX-License-Identifier: MIT
#pragma once
/// \file body.hpp
/// Rigid-body state (Millington ch. 10; the Newton-Euler equations of the PBD
/// survey, seeds/000 eq. 1-4). Plain data: the world owns an array of these and
/// the stages of the step read and write them.

#include <jounce/dynamics/collider.hpp>
#include <jounce/common/math.hpp>

#include <cstdint>
#include <vector>

namespace jounce {

enum class BodyType : std::uint8_t {
    Static,    ///< never moves; inverse mass 0
    Kinematic, ///< moved by the user through its velocity; inverse mass 0 for contacts
    Dynamic,   ///< moved by forces and contacts
};

/// What a user fills to create a body. Defaults describe a 1 kg, 1 m solid cube
/// at rest at the origin, with no colliders. Units: kg, m, s.
///
/// Degrees of freedom a dynamic body may not use, along and about the world's axes
/// (Jolt's allowed DOFs, Box2D v3's motion locks): a 2.5D game locks linearZ, angularX
/// and angularY so everything stays in the z = const plane; a body that must stay
/// upright locks angularX and angularZ. Rotations are locked exactly (the world inverse
/// inertia loses the locked axes: I^-1 = E (E^T I E)^-1 E^T over the free axes E, so no
/// impulse turns it about them); translations by taking the locked components out of the
/// velocity before every move, as Box2D v3 does (the solver's effective masses still see
/// a free body, so contacts along a locked axis converge a little softer). Kinematic and
/// static bodies ignore them.
/// A direction d whose free share |f o d|^2 (MotionLocks::linearShare) is below this is
/// taken as locked: within 1e-3 rad (double), 1e-2 (float) of the locked axes. A normal off
/// a locked axis by rounding (a platform locked along y on a floor, its normal from GJK)
/// would otherwise give a response of 1e-14 / m and push it sideways by the penetration
/// over |f o d|, kilometres.
inline constexpr real lockedShareTolerance = sizeof(real) == sizeof(float) ? real(1e-4) : real(1e-6);

struct MotionLocks {
    bool linearX = false, linearY = false, linearZ = false;
    bool angularX = false, angularY = false, angularZ = false;

    bool anyLinear() const { return linearX || linearY || linearZ; }
    bool anyAngular() const { return angularX || angularY || angularZ; }
    /// 1 along the free world axes, 0 along the locked ones.
    Vec3 linearFree() const { return Vec3(linearX ? 0 : 1, linearY ? 0 : 1, linearZ ? 0 : 1); }
    Vec3 angularFree() const { return Vec3(angularX ? 0 : 1, angularY ? 0 : 1, angularZ ? 0 : 1); }
    /// |f o d|^2 for a unit direction d (f = linearFree()): the share of an impulse along d
    /// a body with these locks takes in translation; its response along d is
    /// d^T M^-1 d = linearShare(d) / m. Exactly 1 with no linear lock; 0 below
    /// lockedShareTolerance.
    real linearShare(const Vec3& d) const {
        if (!anyLinear()) return 1;
        const real share = d.cwiseProduct(linearFree()).squaredNorm();
        return share < lockedShareTolerance ? real(0) : share;
    }
    bool operator==(const MotionLocks&) const = default;
};

/// With colliders and `massFromColliders` (the default), a dynamic body's mass,
/// inertia and centre of mass come from its colliders' shapes and densities, and
/// `mass` and `inertia` are ignored. `position` is then the body's origin, the frame
/// the colliders are placed in; the body's centre of mass may lie elsewhere. Adding or
/// removing colliders later updates the mass of such a body; a body created with a
/// given mass (no colliders, or massFromColliders = false) keeps it.
struct BodyDesc {
    BodyType type = BodyType::Dynamic;
    Vec3 position = Vec3::Zero();            ///< body origin, world frame [m]
    Quat orientation = Quat::Identity();     ///< must be a unit quaternion (|q| within 1e-6 of 1)
    Vec3 linearVelocity = Vec3::Zero();      ///< [m/s]
    Vec3 angularVelocity = Vec3::Zero();     ///< world frame [rad/s]
    real mass = 1;                           ///< [kg]; > 0 for dynamic bodies, ignored otherwise
    Mat3 inertia = Mat3::Identity() / 6;     ///< body frame, about the centre of mass [kg m^2]; SPD
    /// Damping rates [1/s], >= 0: each substep of length h multiplies the linear (angular)
    /// velocity by exp(-c h), the exact solution of dv/dt = -c v, so a body keeps
    /// exp(-c t) of its velocity after t seconds whatever the step. 0 (the default): no
    /// damping. As Jolt's and Box2D's linear/angular damping and ParticleSettings::damping;
    /// Millington's "share kept after 1 s" d is c = -ln(d).
    real linearDamping = 0;
    real angularDamping = 0; ///< [1/s], as linearDamping
    real gravityScale = 1;   ///< multiplies the world's gravity for this body
    bool canSleep = true;
    bool awake = true;
    /// Always swept for continuous collision (docs/collision.md, "Fast bodies"), not
    /// only in steps where it moves more than half its smallest size.
    bool bullet = false;
    MotionLocks locks;       ///< world axes it may not move along or turn about (dynamic bodies)
    std::uint64_t userData = 0;
    std::vector<ColliderDesc> colliders;
    bool massFromColliders = true;
};

/// The state the world keeps for a body, as the stages read and write it (`position` is
/// the centre of mass here). A game reads a body through World::body(id), a BodyState in
/// the public API's conventions, and changes it through the World's setters.
struct Body {
    BodyType type = BodyType::Dynamic;

    // Mass properties
    real inverseMass = 0;                       ///< 0 for static and kinematic bodies
    Mat3 inertiaBody = Mat3::Identity();        ///< body frame, about the centre of mass
    Mat3 inverseInertiaBody = Mat3::Zero();     ///< 0 for static and kinematic bodies
    Mat3 inverseInertiaWorld = Mat3::Zero();    ///< R I_body^-1 R^T, refreshed after every move
    Vec3 localCentroid = Vec3::Zero();          ///< centre of mass in the body-origin frame

    // State
    Vec3 position = Vec3::Zero();               ///< centre of mass [m]
    Quat orientation = Quat::Identity();        ///< body to world, unit length
    Vec3 linearVelocity = Vec3::Zero();         ///< [m/s]
    Vec3 angularVelocity = Vec3::Zero();        ///< world frame [rad/s]

    // Accumulators: forces set through the API last for the whole next step (all its
    // substeps); forces from generators are recomputed every substep.
    Vec3 userForce = Vec3::Zero();              ///< [N]
    Vec3 userTorque = Vec3::Zero();             ///< [N m]
    Vec3 forceAccum = Vec3::Zero();             ///< this substep's total force [N]
    Vec3 torqueAccum = Vec3::Zero();            ///< this substep's total torque [N m]
    Vec3 lastFrameAcceleration = Vec3::Zero();  ///< linear acceleration of the last substep,
                                                ///< gravity included (Millington 15.2.1)
    /// Impulses to apply with the next velocity integration (from deformables'
    /// contacts), as a force over that substep: [N s] and, about the centre of mass,
    /// [N m s] (world frame).
    Vec3 impulseAccum = Vec3::Zero();
    Vec3 angularImpulseAccum = Vec3::Zero();

    // Settings
    real linearDamping = 0;  ///< [1/s]: v *= exp(-c h) each substep (BodyDesc::linearDamping)
    real angularDamping = 0; ///< [1/s]
    real gravityScale = 1;

    // Sleep (used by the sleep stage of contact/, issue 4)
    bool awake = true;
    bool canSleep = true;
    bool massFromColliders = false;             ///< mass follows the colliders as they change
    bool bullet = false;                        ///< always swept (BodyDesc::bullet)
    MotionLocks locks;                          ///< BodyDesc::locks (dynamic bodies)
    real motion = 0;                            ///< recency-weighted v.v + w.w

    /// A kinematic body's target (World::moveKinematic): the body-origin pose it reaches
    /// at the end of the next step, moving at the velocities that take it there.
    bool hasTarget = false;
    Transform target;

    std::uint64_t userData = 0;

    bool isDynamic() const { return type == BodyType::Dynamic; }
    /// The centre-of-mass frame (position is the centre of mass).
    Transform transform() const { return Transform{position, orientation}; }
    /// The body-origin frame, where colliders are placed.
    Transform origin() const { return Transform{position - orientation * localCentroid, orientation}; }
    /// Velocity of a world point moving with the body.
    Vec3 velocityAt(const Vec3& worldPoint) const {
        return linearVelocity + angularVelocity.cross(worldPoint - position);
    }
    /// World angular momentum L = I_world w (inverse inertia is inverted on the fly).
    Vec3 angularMomentum() const {
        const Mat3 r = orientation.toRotationMatrix();
        return r * (inertiaBody * (r.transpose() * angularVelocity));
    }
};

/// A body as a game reads it (World::body): a copy, by value, in the conventions of the
/// public API. `position` and `transform()` are the body origin, the frame BodyDesc
/// placed it in and its colliders, joints and attachments are given in; the centre of
/// mass, about which it turns, has accessors of its own (Jolt's GetPosition and
/// GetCenterOfMassPosition). Units: kg, m, s, rad.
struct BodyState {
    BodyType type = BodyType::Dynamic;
    Vec3 position = Vec3::Zero();           ///< body origin, world frame [m]
    Quat orientation = Quat::Identity();    ///< body to world
    Vec3 centerOfMass = Vec3::Zero();       ///< world frame [m]
    Vec3 localCenterOfMass = Vec3::Zero();  ///< in the body-origin frame [m]
    Vec3 linearVelocity = Vec3::Zero();     ///< of the centre of mass [m/s]
    Vec3 angularVelocity = Vec3::Zero();    ///< world frame [rad/s]
    real mass = 0;                          ///< [kg]; 0 for static and kinematic bodies
    real inverseMass = 0;                   ///< [1/kg]; 0 for static and kinematic bodies
    Mat3 inertia = Mat3::Identity();        ///< body frame, about the centre of mass [kg m^2]
    Mat3 inverseInertia = Mat3::Zero();     ///< body frame; 0 for static and kinematic bodies [1/(kg m^2)]
    real linearDamping = 0;                 ///< BodyDesc::linearDamping
    real angularDamping = 0;                ///< BodyDesc::angularDamping
    real gravityScale = 1;
    bool awake = true;
    bool canSleep = true;
    bool bullet = false;
    bool massFromColliders = false;         ///< its mass follows its colliders
    MotionLocks locks;                      ///< BodyDesc::locks
    std::uint64_t userData = 0;

    bool isDynamic() const { return type == BodyType::Dynamic; }
    /// The body-origin frame (where its colliders, joints and attachments are placed).
    Transform transform() const { return Transform{position, orientation}; }
    /// The centre-of-mass frame (the same axes, origin at the centre of mass).
    Transform centerOfMassTransform() const { return Transform{centerOfMass, orientation}; }
    /// Velocity of a world point moving with the body [m/s].
    Vec3 velocityAt(const Vec3& worldPoint) const {
        return linearVelocity + angularVelocity.cross(worldPoint - centerOfMass);
    }
    /// World angular momentum about the centre of mass, L = R I R^T w [kg m^2/s].
    Vec3 angularMomentum() const {
        const Mat3 r = orientation.toRotationMatrix();
        return r * (inertia * (r.transpose() * angularVelocity));
    }
};

/// The world inverse inertia of a body turning only about the free axes of `locks`
/// (MotionLocks): turning about the free world axes E (3 x k) only, w = E a, and the
/// moment about them E^T L = (E^T I E) a give w = E (E^T I E)^-1 E^T L.
Mat3 lockedInverseInertia(const Mat3& inertiaWorld, const MotionLocks& locks);

namespace detail {
/// The same inertia about every axis (a sphere, a cube: I_body a multiple of the
/// identity): R I R^T = I for any turn R, so its world inertia is its body inertia and
/// turning keeps its angular momentum I w with w unchanged.
inline bool isotropicInertia(const Body& b) {
    const Mat3& i = b.inertiaBody;
    return i(0, 0) == i(1, 1) && i(1, 1) == i(2, 2) && i(0, 1) == 0 && i(0, 2) == 0 && i(1, 2) == 0 && i(1, 0) == 0 &&
           i(2, 0) == 0 && i(2, 1) == 0;
}

/// R I^-1 R^T for the body's current orientation; without its locked axes (MotionLocks).
/// Exactly I^-1 for an isotropic body (no rounding from the turn).
inline Mat3 worldInverseInertia(const Body& b) {
    const bool locked = b.locks.anyAngular() && b.type == BodyType::Dynamic;
    if (!locked && isotropicInertia(b)) return b.inverseInertiaBody;
    const Mat3 r = b.orientation.toRotationMatrix();
    if (!locked) return r * b.inverseInertiaBody * r.transpose();
    return lockedInverseInertia(r * b.inertiaBody * r.transpose(), b.locks);
}
} // namespace detail

/// Takes the locked components out of a dynamic body's velocities (MotionLocks).
inline void applyLocks(const MotionLocks& locks, Vec3& linear, Vec3& angular) {
    if (locks.anyLinear()) linear = linear.cwiseProduct(locks.linearFree());
    if (locks.anyAngular()) angular = angular.cwiseProduct(locks.angularFree());
}

/// What World::body reports of the world's record.
inline BodyState stateOf(const Body& b) {
    BodyState s;
    s.type = b.type;
    s.position = b.origin().position;
    s.orientation = b.orientation;
    s.centerOfMass = b.position;
    s.localCenterOfMass = b.localCentroid;
    s.linearVelocity = b.linearVelocity;
    s.angularVelocity = b.angularVelocity;
    s.inverseMass = b.inverseMass;
    s.mass = b.inverseMass > 0 ? 1 / b.inverseMass : 0;
    s.inertia = b.inertiaBody;
    s.inverseInertia = b.inverseInertiaBody;
    s.linearDamping = b.linearDamping;
    s.angularDamping = b.angularDamping;
    s.gravityScale = b.gravityScale;
    s.awake = b.awake;
    s.canSleep = b.canSleep;
    s.bullet = b.bullet;
    s.massFromColliders = b.massFromColliders;
    s.locks = b.locks;
    s.userData = b.userData;
    return s;
}

} // namespace jounce
