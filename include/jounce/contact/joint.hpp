// SPDX-License-Identifier: MIT
#pragma once
/// \file joint.hpp
/// Joints, cables and rods as contact generators (Millington, seeds/004 ch. 14 "joints"
/// and the cables and rods of his mass-aggregate chapters, carried over to rigid
/// bodies). None of them is a new kind of constraint: each step a joint looks at
/// pairs of points, one on each body, and where a pair has drifted apart it hands the
/// resolver an ordinary contact whose normal pulls the points together. The contact
/// resolver (projection, then impulses) does the rest, in the same islands.
///
///   Ball   one pair of points: the anchors may drift `tolerance` apart.
///   Hinge  two pairs on the hinge axis (anchor +- axis * span): free to turn about it.
///          (The soft step takes the anchor pair alone and keeps the axis by rows.)
///   Fixed  three pairs (the anchor and two points off it, taken from the bodies'
///          relative pose when the joint is made): no relative motion.
///   Cable  the anchors at most `length` apart (slack below), with `restitution`.
///   Rod    the anchors exactly `length` apart: pulls when longer, pushes when shorter.
///   Slider A's anchor slides along B's axis through B's anchor (one contact each way
///          across the axis) and the bodies keep their relative orientation.
///   SwingTwist  a ball joint whose twist axes (axisA, axisB: a limb's length) stay
///          within `swingLimit` of each other (a cone) and whose twist about them
///          `motion` limits and drives: shoulders and hips; `swingDrive` springs the
///          swing toward `swingTarget` (a ragdoll's pose drive).
///   Wheel  A (the wheel) turns about its axle (axisA, axisB) as on a hinge, driven or
///          braked by `motion`, and its anchor travels along B's `suspensionAxis`
///          through B's anchor, sprung and limited by `suspension` (Box2D's wheel joint
///          in 3D: a car's wheel on its chassis, or on a steering knuckle).
///   Distance  the anchors' distance, as `motion` says: kept within [lower, upper] when
///          limited (a rope: [0, L]; a rod: L = L), sprung toward springTarget, driven
///          by a motor (a winch). Cable and Rod are its old special cases.
///   SixDof  each of six axes of a joint frame free, locked, or limited, sprung and
///          driven as its own JointMotion says (JointDesc::dofLocked, dofMotion):
///          translation of A's anchor from B's along the frame's x, y, z, and rotation
///          of A's frame from B's as Euler angles about x, y, z (Bullet's generic 6-DOF
///          convention). A crane's hook, a suspension with travel and tilt, a gizmo.
///
/// A hinge turns about its axis, a swing-twist joint twists, and a slider slides along
/// its axis, as `JointDesc::motion` says: limits, a motor, a spring and friction, each a
/// row of the soft step's solver
/// (contact/soft_joint_axes.cpp; Box2D v3's revolute and prismatic joints carried to 3D),
/// which also holds a slider's orientation. The worst-first resolver, the learner's
/// path, holds the joints' points (and a slider's contacts across its axis) alone.
///
/// Any of them can break: when one of its point pairs carries more than `breakForce`
/// in a substep (its contacts' impulses over the substep), the joint is removed after
/// that substep and World::jointEvents() reports it.

#include <jounce/dynamics/force_generators.hpp>
#include <jounce/common/handle.hpp>

#include <array>
#include <cstdint>
#include <limits>
#include <numbers>

namespace jounce {

enum class JointType : std::uint8_t { Ball, Hinge, Fixed, Cable, Rod, Slider, SwingTwist, Wheel, Distance, SixDof };

/// A 6-DOF joint's axes (indices into JointDesc::dofLocked and dofMotion). Its frame on
/// each body: x its axis (axisA, axisB), y its normal (normalA, normalB), z = x cross y.
/// Translations are A's anchor from B's along B's x, y, z [m]; rotations are the Euler
/// angles (x, then y, then z) of A's frame in B's [rad]: R_B^T R_A = Rx(a) Ry(b) Rz(c)
/// (Bullet's generic 6-DOF order; Bullet measures B's frame in A's, so its angles are
/// the opposite turn: A's in B's is how Jounce's hinge angle reads, A relative to B).
/// The middle angle b stays within (-pi/2, pi/2) (at +-pi/2 the other two are one turn).
enum SixDofAxis : std::uint8_t { TranslationX, TranslationY, TranslationZ, RotationX, RotationY, RotationZ };

/// How a hinge turns about its axis, a swing-twist joint twists about its axes, or a
/// slider slides along its axis. The coordinate is a hinge's angle, A's turn relative to
/// B about B's axis, right-handed (for a hinge to the world: the body's own turn), from
/// normalB to normalA (JointDesc; 0 in the pose the joint was made in unless the desc
/// says otherwise) [rad]; a swing-twist joint's twist, the same about the axes' mean
/// direction; or a slider's offset, A's anchor from B's along B's axis [m]. Speeds are [rad/s] or [m/s], forces [N m] or [N].
struct JointMotion {
    bool limited = false;  ///< the coordinate stays within [lower, upper]
    real lower = 0;        ///< hinge: in [-pi, upper]; slider: within maxCoordinate
    real upper = 0;        ///< hinge: in [lower, pi]
    bool motor = false;    ///< drives the relative speed toward motorSpeed
    real motorSpeed = 0;   ///< target of A's speed relative to B's about or along the axis
    real maxMotorForce = 0; ///< the most the motor exerts (>= 0)
    /// A spring toward springTarget: frequency in Hz (0: no spring) and damping ratio
    /// (1: critical), Box2D's and Jolt's convention; the stiffness follows from the
    /// bodies' inertia about the axis (or mass along it), k = I (2 pi f)^2.
    real springHertz = 0;
    real springDampingRatio = 0;
    real springTarget = 0;  ///< hinge: in [-pi, pi]
    /// Or a spring given as a stiffness [N/m, N m/rad] and damping [N s/m, N m s/rad]
    /// (Jolt's StiffnessAndDamping mode; springHertz must then stay 0): a car's
    /// suspension sags m g / k under its load whatever the bodies' masses.
    real springStiffness = 0;
    real springDamping = 0;
    /// Friction in the joint: the largest torque (force) with which it resists moving
    /// (>= 0; a motor, when on, takes its place).
    real friction = 0;

    /// Field by field (a NaN differs from everything, itself included).
    friend bool operator==(const JointMotion&, const JointMotion&) = default;
};

struct JointDesc {
    JointType type = JointType::Ball;
    /// The two ends: a point on a body (the body-origin frame, where its colliders are placed [m]) or, with a
    /// null body on `b`, a point fixed in the world. `a` must name a body.
    Attachment a, b;
    Vec3 axisA = Vec3::UnitZ();    ///< Hinge, Slider, SwingTwist, Wheel, SixDof (its x): the axis in A's frame (any length > 0)
    Vec3 axisB = Vec3::UnitZ();    ///< as axisA, in B's frame (world frame if b is the world)
    /// Hinge, Slider, SixDof (its y): a vector across the axis in each body's frame (B's in the world
    /// frame if b is the world), Jolt's normal axes: a hinge's angle is the turn from B's
    /// to A's about B's axis; a slider keeps them together (with the axes, the bodies'
    /// relative orientation). Both zero, the default: the pose the joint is made in, and
    /// createJoint writes the vectors it took into the joint's desc (so a scene file or
    /// snapshot keeps the same zero). Given: at right angles to the axes, made unit.
    Vec3 normalA = Vec3::Zero();
    Vec3 normalB = Vec3::Zero();
    /// SwingTwist: the largest angle between the twist axes (a cone's half angle) [rad],
    /// in (0, pi]; pi: no cone.
    real swingLimit = std::numbers::pi_v<real>;
    /// SwingTwist: a spring that swings A's twist axis toward `swingTarget`, about the two
    /// axes across it: its springHertz and springDampingRatio, or springStiffness and
    /// springDamping [N m/rad, N m s/rad] (a ragdoll's pose drive; Jolt's swing motor
    /// driving to a target orientation). Its other fields, and on other joints all of it,
    /// must stay as made.
    JointMotion swingDrive;
    /// SwingTwist: where the swing drive points A's twist axis, in B's frame (the world
    /// frame if b is the world); zero, the default: along axisB (the cone's centre).
    /// Others: must stay zero.
    Vec3 swingTarget = Vec3::Zero();
    real span = real(0.25);        ///< Hinge and Fixed: distance of the extra points from the anchor [m]
    real tolerance = 0;            ///< Ball, Hinge, Fixed, Slider, SixDof (its translations): drift allowed before the joint pulls [m]
    real length = 1;               ///< Cable (maximum) and Rod (exact) [m]
    real restitution = 0;          ///< Cable: bounce when it snaps taut
    /// Whether the two bodies still collide with each other. Off by default: a
    /// ragdoll's limbs overlap at the joints.
    bool collide = false;
    /// The joint breaks when one of its point pairs carries more than this [N]
    /// (> 0; infinity, the default: never).
    real breakForce = std::numeric_limits<real>::infinity();
    /// The joint also breaks when it carries more torque than this between its bodies
    /// [N m] (Joint::totalTorque; > 0, infinity, the default: never): a welded beam bent
    /// off, a door's hinge wrenched past its stop.
    real breakTorque = std::numeric_limits<real>::infinity();
    /// SixDof: which of its axes (SixDofAxis) are locked; the rest are free, or move as
    /// their dofMotion says. All locked: a weld; all free: no joint at all.
    std::array<bool, 6> dofLocked{false, false, false, false, false, false};
    /// SixDof: each axis's limits, motor, spring and friction (as a slider's along a
    /// translation, as a hinge's about a rotation; a locked axis's must stay as made).
    /// Rotation about y, whenever a rotation has a row, must be locked or limited within
    /// (-pi/2, pi/2): past that its Euler angles turn over.
    std::array<JointMotion, 6> dofMotion{};
    /// Hinge, Slider, SwingTwist, Wheel, Distance: limits, motor, spring and friction about
    /// or along the axis (a swing-twist joint's twist and a wheel's spin, angles as a
    /// hinge's; a distance joint's length, in [0, maxCoordinate]; others: must stay as made).
    JointMotion motion;
    /// Wheel: the direction its anchor travels relative to B, in B's frame (the world
    /// frame if b is the world), across the axle; createJoint writes it back unit and
    /// square to axisB. Others: must stay +y.
    Vec3 suspensionAxis = Vec3::UnitY();
    /// Wheel: the travel along suspensionAxis [m], A's anchor from B's: its limits,
    /// spring (a car's suspension: springStiffness, springDamping), motor and friction.
    /// Others: must stay as made.
    JointMotion suspension;
};

/// A joint as the world keeps it: the desc plus the point pairs it watches, both in
/// body frames (or world frame for a world end).
struct Joint {
    JointDesc desc;
    int pointCount = 0;
    std::array<Vec3, 3> pointsA{Vec3::Zero(), Vec3::Zero(), Vec3::Zero()};
    std::array<Vec3, 3> pointsB{Vec3::Zero(), Vec3::Zero(), Vec3::Zero()};
    /// The largest force one of its point pairs carried in the last substep [N]
    /// (World::jointForce): the resolver's impulses on its contacts over the substep.
    real force = 0;
    /// Hinge and slider motion rows' impulses over the last substep [N m s or N s], their
    /// warm start: lower limit, upper limit, motor (or friction), spring.
    std::array<real, 4> motionImpulse{0, 0, 0, 0};
    /// A slider's orientation lock, a hinge's or wheel's axle lock: its angular impulse on
    /// A over the last substep, world [N m s].
    Vec3 lockImpulse = Vec3::Zero();
    /// A swing-twist joint's swing drive: its angular impulse on A over the last substep,
    /// world [N m s].
    Vec3 swingDriveImpulse = Vec3::Zero();
    /// A wheel's suspension rows' impulses over the last substep [N s] (as motionImpulse).
    std::array<real, 4> suspensionImpulse{0, 0, 0, 0};
    /// What a wheel's suspension rows carried in the last substep along its axis on A [N].
    real suspensionForce = 0;
    /// The torque the joint carried between its bodies in the last substep, whatever
    /// carried it [N m]: its lock and its motion about the axis (a hinge, swing-twist or
    /// wheel joint), a slider's orientation lock, a fixed joint's points about its
    /// anchor. What breakTorque is compared with; 0 for joints that carry none (ball,
    /// cable, rod, distance).
    real totalTorque = 0;
    /// A 6-DOF joint's rows' impulses per axis (SixDofAxis) over the last substep, as
    /// motionImpulse (a translation's limits are contacts: its lower and upper stay 0).
    std::array<std::array<real, 4>, 6> dofImpulse{};
    /// What each of a 6-DOF joint's axis rows carried in the last substep on A [N, N m].
    std::array<real, 6> dofForce{0, 0, 0, 0, 0, 0};
    /// What the motion rows carried in the last substep about or along the axis on A
    /// (World::jointTorque): a hinge's torque [N m], positive turning A the right-handed
    /// way about B's axis; a slider's force [N], positive pushing A along it.
    real torque = 0;
};

struct JointTag;
using JointId = Handle<JointTag>;

} // namespace jounce
