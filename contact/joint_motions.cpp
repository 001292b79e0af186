// SPDX-License-Identifier: MIT
// Stage 5a, the joints' own rows: each awake hinge, slider (and swing-twist, wheel,
// distance and 6-DOF joint: a row per axis that has one) hands the soft step its
// axis, normals and (a slider) anchors in world coordinates, with last substep's impulses as
// the warm start; after the solve the impulses come back to the joint (its warm start
// and its torque or force).

#include "contact/stages.hpp"

namespace jounce::detail {
namespace {

/// The warm start of the features a motion has: what a spring, motor or limit turned
/// off (setJointMotion) carried last would otherwise go on pushing, a phantom spring.
std::array<real, 4> keptImpulses(std::array<real, 4> p, const JointMotion& m) {
    if (!m.limited) p[lowerImpulse] = p[upperImpulse] = 0;
    if (!m.motor && !(m.friction > 0)) p[motorImpulse] = 0;
    if (!(m.springHertz > 0 || m.springStiffness > 0)) p[springImpulse] = 0;
    return p;
}

/// A 6-DOF joint's rows, from `row` (its bodies, B's axis, A's axis and the normals
/// filled in): the lock of all three rotations when all are locked, else a row per
/// rotation that is locked (held at 0 as limits [0, 0]) or moves; a row per translation
/// that is driven, sprung or has friction (its lock and limits are contacts:
/// joint_contacts.cpp).
void sixDofRows(const Joint& j, const JointMotionRow& row, const Body& a, const Body* b, std::vector<JointMotionRow>& out) {
    const JointDesc& d = j.desc;
    const bool orientationLocked = d.dofLocked[RotationX] && d.dofLocked[RotationY] && d.dofLocked[RotationZ];
    if (orientationLocked) {
        JointMotionRow lock = row;
        lock.dof = orientationLock;
        lock.lock = j.lockImpulse;
        out.push_back(lock);
    }
    const Vec3 x = d.axisB.normalized();
    const std::array<Vec3, 3> frameB{x, d.normalB, x.cross(d.normalB)};
    for (std::uint8_t i = 0; i < 6; ++i) {
        JointMotionRow r = row;
        r.dof = i;
        r.motion = d.dofMotion[i];
        if (i < RotationX) {
            r.motion.limited = false; // its limits are contacts
            if (d.dofLocked[i] || !hasRows(r.motion)) continue;
            r.axis = b ? Vec3(b->orientation * frameB[i]) : frameB[i];
            r.arm = {a.orientation * (d.a.point - a.localCentroid), b ? Vec3(b->orientation * (d.b.point - b->localCentroid)) : Vec3::Zero()};
            r.gap = a.origin().toWorld(d.a.point) - (b ? b->origin().toWorld(d.b.point) : d.b.point);
        } else if (orientationLocked) {
            continue;
        } else if (d.dofLocked[i]) {
            r.motion = JointMotion{};
            r.motion.limited = true; // held at 0 from both sides
        } else if (!hasRows(r.motion)) {
            continue;
        }
        r.impulse = keptImpulses(j.dofImpulse[i], r.motion);
        out.push_back(r);
    }
}

} // namespace

void generateJointMotions(const BodyArray& bodies, const JointArray& joints, std::vector<JointMotionRow>& out) {
    out.clear();
    for (std::size_t i = 0; i < joints.slotCount(); ++i) {
        if (!joints.isAlive(i)) continue;
        const Joint& j = joints.atSlot(i);
        const JointType type = j.desc.type;
        const bool wheel = type == JointType::Wheel;
        const bool distance = type == JointType::Distance;
        if (type != JointType::Hinge && type != JointType::Slider && type != JointType::SwingTwist && !wheel && !distance &&
            type != JointType::SixDof)
            continue; // every hinge: its rows keep its axis
        const Body& a = bodies[j.desc.a.body];
        const Body* b = j.desc.b.body.isNull() ? nullptr : &bodies[j.desc.b.body];
        if (!a.awake && !(b && b->isDynamic() && b->awake)) continue; // asleep, as its points are
        const auto inB = [&](const Vec3& v) { return b ? Vec3(b->orientation * v) : v; };
        JointMotionRow row;
        row.joint = static_cast<std::uint32_t>(i);
        row.type = type;
        row.swingLimit = j.desc.swingLimit;
        row.body = {j.desc.a.body.index, b ? j.desc.b.body.index : noBody};
        if (!distance) { // a distance joint has no axes of its own (its desc's are not checked)
            row.axis = inB(j.desc.axisB.normalized());
            row.axisA = a.orientation * j.desc.axisA.normalized();
            row.reference = {a.orientation * j.desc.normalA, inB(j.desc.normalB)};
        }
        const auto anchors = [&](JointMotionRow& r) {
            r.arm = {a.orientation * (j.desc.a.point - a.localCentroid), b ? Vec3(b->orientation * (j.desc.b.point - b->localCentroid)) : Vec3::Zero()};
            r.gap = a.origin().toWorld(j.desc.a.point) - (b ? b->origin().toWorld(j.desc.b.point) : j.desc.b.point);
        };
        if (type == JointType::Slider || distance) anchors(row);
        if (distance) {
            // Along the anchors' line as it is now (the solver follows it as they move).
            const real length = row.gap.norm();
            row.axis = length > real(1e-9) ? Vec3(row.gap / length) : Vec3::UnitY();
        }
        if (type == JointType::SixDof) {
            sixDofRows(j, row, a, b, out);
            continue;
        }
        row.lock = j.lockImpulse;
        row.motion = j.desc.motion;
        if (type == JointType::SwingTwist) {
            row.swingDrive = j.desc.swingDrive;
            row.swingTarget = inB(j.desc.swingTarget.isZero() ? Vec3(j.desc.axisB.normalized()) : Vec3(j.desc.swingTarget.normalized()));
            const bool driven = j.desc.swingDrive.springHertz > 0 || j.desc.swingDrive.springStiffness > 0;
            row.drive = driven ? j.swingDriveImpulse : Vec3::Zero(); // a drive turned off pushes no more
        }
        row.impulse = keptImpulses(j.motionImpulse, row.motion);
        out.push_back(row);
        if (!wheel) continue;
        // A wheel's second row: its travel along the suspension axis, a slider's motion
        // with no lock (the spin row above holds the axle).
        JointMotionRow travel = row;
        travel.travel = true;
        travel.axis = inB(j.desc.suspensionAxis);
        anchors(travel);
        travel.lock = Vec3::Zero();
        travel.motion = j.desc.suspension;
        travel.impulse = keptImpulses(j.suspensionImpulse, travel.motion);
        out.push_back(travel);
    }
}

void storeJointMotions(JointArray& joints, const std::vector<JointMotionRow>& rows, real h) {
    for (const JointMotionRow& row : rows) {
        Joint& j = joints.atSlot(row.joint);
        if (row.type == JointType::SixDof) {
            if (row.dof == orientationLock) {
                j.lockImpulse = row.lock;
                continue;
            }
            j.dofImpulse[row.dof] = row.impulse;
            j.dofForce[row.dof] = netImpulse(row.impulse) / h;
            continue;
        }
        if (row.travel) {
            j.suspensionImpulse = row.impulse;
            j.suspensionForce = netImpulse(row.impulse) / h;
            continue;
        }
        j.motionImpulse = row.impulse;
        j.lockImpulse = row.lock;
        j.swingDriveImpulse = row.drive;
        j.torque = netImpulse(row.impulse) / h;
    }
}

} // namespace jounce::detail
