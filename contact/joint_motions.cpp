// SPDX-License-Identifier: MIT
// Stage 5b, the joints' own rows: each awake hinge and slider hands the soft step its
// axis, normals and (a slider) anchors in world coordinates, with last substep's impulses as
// the warm start; after the solve the impulses come back to the joint (its warm start
// and its torque or force).

#include "contact/stages.hpp"

namespace jounce::detail {

void generateJointMotions(const BodyArray& bodies, const JointArray& joints, std::vector<JointMotionRow>& out) {
    out.clear();
    for (std::size_t i = 0; i < joints.slotCount(); ++i) {
        if (!joints.isAlive(i)) continue;
        const Joint& j = joints.atSlot(i);
        const JointType type = j.desc.type;
        const bool slider = type == JointType::Slider;
        if (type != JointType::Hinge && !slider && type != JointType::SwingTwist) continue; // every hinge: its rows keep its axis
        const Body& a = bodies[j.desc.a.body];
        const Body* b = j.desc.b.body.isNull() ? nullptr : &bodies[j.desc.b.body];
        if (!a.awake && !(b && b->isDynamic() && b->awake)) continue; // asleep, as its points are
        JointMotionRow row;
        row.joint = static_cast<std::uint32_t>(i);
        row.type = type;
        row.swingLimit = j.desc.swingLimit;
        row.body = {j.desc.a.body.index, b ? j.desc.b.body.index : noBody};
        row.axis = b ? Vec3(b->orientation * j.desc.axisB.normalized()) : Vec3(j.desc.axisB.normalized());
        row.axisA = a.orientation * j.desc.axisA.normalized();
        row.reference = {a.orientation * j.desc.normalA, b ? Vec3(b->orientation * j.desc.normalB) : j.desc.normalB};
        if (slider) {
            row.arm = {a.orientation * (j.desc.a.point - a.localCentroid),
                       b ? Vec3(b->orientation * (j.desc.b.point - b->localCentroid)) : Vec3::Zero()};
            row.gap = a.origin().toWorld(j.desc.a.point) - (b ? b->origin().toWorld(j.desc.b.point) : j.desc.b.point);
        }
        row.lock = j.lockImpulse;
        row.motion = j.desc.motion;
        for (std::size_t k = 0; k < 4; ++k) row.impulse[k] = j.motionImpulse[k];
        out.push_back(row);
    }
}

void storeJointMotions(JointArray& joints, const std::vector<JointMotionRow>& rows, real h) {
    for (const JointMotionRow& row : rows) {
        Joint& j = joints.atSlot(row.joint);
        j.motionImpulse = row.impulse;
        j.lockImpulse = row.lock;
        j.torque = netImpulse(row.impulse) / h;
    }
}

} // namespace jounce::detail
