// SPDX-License-Identifier: MIT
// Stage 6b: how hard each joint pulled this substep, and which ones gave way.
//
// A joint is a contact generator (joint_contacts.cpp), so the force it carried is the
// impulse the resolver put on its contacts: for point pair k, the vector sum of
// n_c (J_c + B_c) / h over its contacts c (J the sequential impulse, B the bounce
// pass's, both along the normal n_c: joint contacts have no friction). A joint whose
// largest pair force exceeds its breakForce breaks, and so does one whose torque (its
// angular rows', or a fixed joint's points' about its anchor) exceeds its breakTorque. It
// held during this substep (its
// impulse was applied); the world removes it before the next.

#include "contact/stages.hpp"

#include <algorithm>
#include <cmath>

namespace jounce::detail {

namespace {

/// The torque a joint carried between its bodies over the substep [N m]: its angular
/// rows' (the lock's world impulse, and the motion's about the axis when the motion
/// turns), or a fixed joint's point forces F_k about its anchor, sum (p_k - p_0) x F_k
/// with A's points where A is now.
real torqueCarried(const Joint& joint, const BodyArray& bodies, const std::array<Vec3, 3>& impulse, real h) {
    const JointType t = joint.desc.type;
    if (t == JointType::Fixed) {
        const Transform a = bodies[joint.desc.a.body].origin();
        const Vec3 anchor = a.toWorld(joint.pointsA[0]);
        Vec3 moment = Vec3::Zero();
        for (int k = 1; k < joint.pointCount; ++k)
            moment += (a.toWorld(joint.pointsA[static_cast<std::size_t>(k)]) - anchor).cross(impulse[static_cast<std::size_t>(k)]);
        return moment.norm() / h;
    }
    if (t == JointType::SixDof) // the lock of all three rotations, or each rotation's rows (about near-square axes)
        return std::hypot(joint.lockImpulse.norm() / h, std::hypot(joint.dofForce[RotationX], joint.dofForce[RotationY], joint.dofForce[RotationZ]));
    const bool turns = t == JointType::Hinge || t == JointType::SwingTwist || t == JointType::Wheel;
    const real lock = (joint.lockImpulse + joint.swingDriveImpulse).norm() / h; // a swing-twist joint's cone and drive
    return turns ? std::hypot(lock, joint.torque) : lock; // the motion turns about the axis, the lock across it
}

} // namespace

void measureJointForces(JointArray& joints, const BodyArray& bodies, const std::vector<KeptContact>& resolved, real h,
                        std::vector<JointId>& broken) {
    for (std::size_t i = 0; i < joints.slotCount(); ++i) {
        if (!joints.isAlive(i)) continue;
        Joint& joint = joints.atSlot(i);
        const JointId id = joints.idOf(i);
        // Its contacts sit together in `resolved`, which is sorted by key.
        const std::uint64_t first = jointKey(id.index, id.generation, 0);
        auto it = std::lower_bound(resolved.begin(), resolved.end(), first,
                                   [](const KeptContact& c, std::uint64_t key) { return c.key < key; });
        std::array<Vec3, 3> impulse{Vec3::Zero(), Vec3::Zero(), Vec3::Zero()};
        for (; it != resolved.end() && (it->key >> 32) == (first >> 32); ++it) {
            const int k = jointPointOf(joint, static_cast<std::uint32_t>(it->key));
            if (k < 0 || k >= joint.pointCount) continue; // another joint whose key hash collides
            impulse[static_cast<std::size_t>(k)] += it->normal * (it->accumulatedImpulse.x() + it->bounceNormal);
        }
        real largest = 0;
        for (int k = 0; k < joint.pointCount; ++k) largest = std::max(largest, impulse[static_cast<std::size_t>(k)].norm());
        joint.force = largest / h;
        joint.totalTorque = torqueCarried(joint, bodies, impulse, h);
        if (joint.force > joint.desc.breakForce || joint.totalTorque > joint.desc.breakTorque) broken.push_back(id);
    }
}

} // namespace jounce::detail
