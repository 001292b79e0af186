// SPDX-License-Identifier: MIT
#pragma once
// A hinge's or slider's own rows as the soft step takes them (joint_motions.cpp makes
// them from the world's joints each substep; contact/soft_joint_axes.cpp solves them).

#include <jounce/contact/joint.hpp>
#include <jounce/contact/contact.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>

namespace jounce::detail {

/// One hinge's or slider's rows: its lock (a hinge's axis kept, a slider's orientation)
/// and its motion about or along the axis; plain data, world coordinates at the
/// substep's start.
struct JointMotionRow {
    std::uint32_t joint = 0;                       ///< the joint's slot
    JointType type = JointType::Hinge;             ///< Hinge, Slider, SwingTwist or Wheel
    /// A wheel gives two rows: its spin about the axle (with the axle's lock, as a
    /// hinge's) and, `travel`, its suspension along B's suspension axis (as a slider's
    /// motion, no lock).
    bool travel = false;
    /// SixDof: the axis this row moves along or about (SixDofAxis, 0-5), or 6: the lock
    /// that keeps all three rotations (as a slider's), when all three are locked.
    std::uint8_t dof = 0;
    real swingLimit = 0;                           ///< SwingTwist: the cone's half angle [rad]
    std::array<std::uint32_t, 2> body{noBody, noBody}; ///< body slots (noBody: the world)
    Vec3 axis = Vec3::UnitZ();                     ///< B's axis, unit (a wheel's travel: its suspension axis)
    Vec3 axisA = Vec3::UnitZ();                    ///< A's axis, unit (a slider's lock)
    std::array<Vec3, 2> reference{Vec3::UnitX(), Vec3::UnitX()}; ///< each side's normal (zero-angle vector)
    std::array<Vec3, 2> arm{Vec3::Zero(), Vec3::Zero()}; ///< slider, travel: each anchor - its body's centre of mass
    Vec3 gap = Vec3::Zero();                       ///< slider, travel: A's anchor - B's
    JointMotion motion;
    /// In: last substep's impulses (the warm start); out: this substep's. Lower limit,
    /// upper limit, motor or friction, spring; on A about or along the axis (the upper
    /// limit's the other way; B takes the opposite).
    std::array<real, 4> impulse{0, 0, 0, 0};
    Vec3 lock = Vec3::Zero();                      ///< the lock's angular impulse on A (a hinge's axis, a slider's orientation)
    /// SwingTwist: the swing drive (its spring fields), where it points A's twist axis
    /// (world, unit), and its angular impulse on A (in: the warm start; out: this substep's).
    JointMotion swingDrive;
    Vec3 swingTarget = Vec3::UnitZ();
    Vec3 drive = Vec3::Zero();
};

/// A hinge's angle or a swing-twist joint's twist [rad], in (-pi, pi]: the turn of A's
/// normal `ua` from B's `ub` about `n` (B's axis, or for a swing-twist joint the mean of
/// the two axes, about which both normals are first made square: swung, they lean).
inline real twistAngle(const Vec3& n, const Vec3& ua, const Vec3& ub) {
    const Vec3 pa = ua - n * n.dot(ua), pb = ub - n * n.dot(ub);
    return std::atan2(pb.cross(pa).dot(n), pb.dot(pa));
}

/// The axis a swing-twist joint twists about: the mean of A's and B's twist axes (B's
/// when they point apart).
inline Vec3 twistAxis(const Vec3& axisA, const Vec3& axisB) {
    const Vec3 mean = axisA + axisB;
    const real length = mean.norm();
    return length > real(1e-6) ? Vec3(mean / length) : axisB;
}

/// Whether a row moves A's anchor along its axis (a slider's, a wheel's travel, a
/// distance joint's length along the anchors' line) rather
/// than turning A about it.
inline bool slides(const JointMotionRow& row) {
    return row.type == JointType::Slider || row.type == JointType::Distance || row.travel ||
           (row.type == JointType::SixDof && row.dof < RotationX);
}

/// Whether a motion asks for rows of the soft step: a motor, a spring, friction, or
/// limits where `limitsAreRows` (a 6-DOF joint's translation limits are contacts).
inline bool hasRows(const JointMotion& m, bool limitsAreRows = true) {
    return (m.limited && limitsAreRows) || m.motor || m.springHertz > 0 || m.springStiffness > 0 || m.friction > 0;
}

/// A 6-DOF joint's lock of all three rotations (JointMotionRow::dof).
inline constexpr std::uint8_t orientationLock = 6;

/// The Euler angles (x, then y, then z) of frame A in frame B, R_B^T R_A = Rx(a) Ry(b)
/// Rz(c), from each frame's x and y axes (world): the angles of a 6-DOF joint's rotations.
inline Vec3 eulerAngles(const Vec3& xa, const Vec3& ya, const Vec3& xb, const Vec3& yb) {
    const Vec3 za = xa.cross(ya), zb = xb.cross(yb);
    // r_ij = e_i(B) . e_j(A): sin b = r_02, tan a = -r_12 / r_22, tan c = -r_01 / r_00.
    const real r02 = xb.dot(za), r12 = yb.dot(za), r22 = zb.dot(za), r01 = xb.dot(ya), r00 = xb.dot(xa);
    return Vec3(std::atan2(-r12, r22), std::asin(std::clamp(r02, real(-1), real(1))), std::atan2(-r01, r00));
}

/// Which of a JointMotionRow's impulses is which.
enum MotionImpulse : std::size_t { lowerImpulse = 0, upperImpulse = 1, motorImpulse = 2, springImpulse = 3 };

/// The motion rows' impulses together, on A along the coordinate (the upper limit pushes back).
inline real netImpulse(const std::array<real, 4>& p) {
    return p[lowerImpulse] - p[upperImpulse] + p[motorImpulse] + p[springImpulse];
}

} // namespace jounce::detail
