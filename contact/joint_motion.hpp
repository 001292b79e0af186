// SPDX-License-Identifier: MIT
#pragma once
// A hinge's motion rows as the soft step takes them (joint_motions.cpp makes them from
// the world's joints each substep; contact/soft_angles.cpp solves them).

#include <jounce/contact/joint.hpp>
#include <jounce/contact/contact.hpp>

#include <array>
#include <cstdint>

namespace jounce::detail {

/// One hinge's limits, motor, spring and friction about its axis, plain data.
struct JointMotionRow {
    std::uint32_t joint = 0;                       ///< the joint's slot
    std::array<std::uint32_t, 2> body{noBody, noBody}; ///< body slots (noBody: the world)
    Vec3 axis = Vec3::UnitZ();                     ///< B's hinge axis, world, unit, at the substep's start
    std::array<Vec3, 2> reference{Vec3::UnitX(), Vec3::UnitX()}; ///< each side's zero-angle vector, world
    JointMotion motion;
    /// In: last substep's impulses (the warm start); out: this substep's [N m s]. Lower
    /// limit, upper limit, motor or friction, spring; on A about the axis (the upper
    /// limit's the other way; B takes the opposite).
    std::array<real, 4> impulse{0, 0, 0, 0};
};

/// Which of a JointMotionRow's impulses is which.
enum MotionImpulse : std::size_t { lowerImpulse = 0, upperImpulse = 1, motorImpulse = 2, springImpulse = 3 };

/// Whether a hinge's motion asks for any row.
inline bool hasRows(const JointMotion& m) {
    return m.limited || m.motor || m.springHertz > 0 || m.friction > 0;
}

} // namespace jounce::detail
