// SPDX-License-Identifier: MIT
#pragma once
/// \file ragdoll.hpp
/// A ragdoll from a skeleton: one capsule body per bone and one joint from each bone to
/// its parent (swing-twist shoulders, hips, spine and neck; limited hinges for knees and
/// elbows), built through the world's public API so every piece is validated. The
/// skeleton is plain data a game edits: humanoidRagdoll() gives a 1.8 m, 70 kg person
/// with human-like limits (docs/joints.md, "Ragdolls"), the layout Jolt's and Box3D's
/// ragdoll samples use (a capsule per bone, joints at the bones' ends).
///
/// Jointed bones do not collide with each other (JointDesc::collide off: they overlap at
/// the joint); any other two bones do, so an arm does not pass through the chest.

#include <jounce/world/world.hpp>

#include <numbers>
#include <string>
#include <vector>

namespace jounce {

/// One bone: a capsule from `from` to `to` (skeleton frame [m]) of `radius` and `mass`,
/// and, unless it is the root, the joint that holds it to its parent at `jointPoint`.
struct RagdollPart {
    std::string name;            ///< for the game's own lookups (not checked)
    int parent = -1;             ///< an earlier part's index; -1 only for part 0, the root
    Vec3 from = Vec3::Zero();    ///< the capsule's segment ends, skeleton frame [m]
    Vec3 to = Vec3::UnitY();
    real radius = real(0.05);    ///< [m] > 0
    real mass = 1;               ///< [kg] > 0
    /// The joint to the parent: Ball, Hinge, SwingTwist or Fixed.
    JointType joint = JointType::SwingTwist;
    Vec3 jointPoint = Vec3::Zero();   ///< skeleton frame [m]
    /// Hinge: its axis; swing-twist: the twist axis, along the bone (skeleton frame,
    /// any length > 0). The pose the skeleton is given in is each joint's zero.
    Vec3 jointAxis = Vec3::UnitY();
    real swingLimit = std::numbers::pi_v<real>; ///< swing-twist: the cone's half angle [rad]
    /// Hinge: the knee's or elbow's limits, motor, spring (a pose drive) and friction;
    /// swing-twist: the twist's (JointDesc::motion).
    JointMotion motion;
    /// Swing-twist: a spring swinging the bone toward `swingTarget` (JointDesc::swingDrive:
    /// a shoulder's or hip's pose drive), and that direction of the bone's twist axis,
    /// skeleton frame (zero: the pose it is built in).
    JointMotion swingDrive;
    Vec3 swingTarget = Vec3::Zero();
};

struct RagdollDesc {
    std::vector<RagdollPart> parts;   ///< 1 to 256, each parent before its children
    Transform pose;                   ///< skeleton frame to world
    Vec3 linearVelocity = Vec3::Zero(); ///< every part's starting velocity [m/s]
    Material material{real(0.6), 0};  ///< every capsule's
    /// Every part's damping [1/s] (BodyDesc::linearDamping): a little angular damping
    /// calms a limp body's limbs as muscles would.
    real linearDamping = 0;
    real angularDamping = 0;
};

/// A person about `height` tall [m] of `mass` [kg], standing at the origin (the shins'
/// round ends 0.045 s above y = 0, the head's top at 1.79 s, s = height / 1.8; facing +z,
/// left hand toward +x), 11 bones: pelvis (the root), chest, head, upper
/// arms, forearms, thighs, shins. Shares of the mass after Dempster's tables.
/// Limits (radians): spine cone 0.35 and twist +-0.35; neck cone 0.6, twist +-0.8;
/// shoulders cone 1.4, twist +-0.8; hips cone 0.9, twist +-0.35; elbows and knees
/// hinges bending one way only, [0, 2.5] and [0, 2.4]. Throws jounce::Error naming
/// the argument when height or mass is not finite and > 0.
RagdollDesc humanoidRagdoll(real height = real(1.8), real mass = 70);

struct Ragdoll {
    std::vector<BodyId> bodies;   ///< one per part, in the desc's order
    std::vector<JointId> joints;  ///< one per part, null for the root
};

/// Creates the parts' bodies and joints. Throws jounce::Error naming the field
/// (`RagdollDesc.parts[3].radius`, ...) and adds nothing when any is invalid.
Ragdoll buildRagdoll(World& world, const RagdollDesc& desc);

} // namespace jounce
