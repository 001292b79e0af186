// SPDX-License-Identifier: MIT
// The ragdoll builder (include/jounce/world/ragdoll.hpp): a capsule body per bone and a
// joint per bone to its parent, through the world's public API. The skeleton is checked
// whole before anything is made; should the world still refuse a piece (a pose that puts
// a bone beyond maxCoordinate), what was made is removed again before the error leaves.

#include <jounce/world/ragdoll.hpp>
#include <jounce/collision/mass_properties.hpp>

#include "common/guard.hpp"
#include "physics/dynamics/stages.hpp"
#include "common/validate.hpp"
#include "contact/stages.hpp"

#include <algorithm>
#include <string>

namespace jounce {
namespace {


std::string partField(std::size_t i, const char* name) {
    return "RagdollDesc.parts[" + std::to_string(i) + "]." + name;
}

void validatePart(const RagdollPart& p, std::size_t i) {
    const int index = static_cast<int>(i);
    if (i == 0 ? p.parent != -1 : (p.parent < 0 || p.parent >= index))
        throw Error(partField(i, "parent"), std::to_string(p.parent),
                    i == 0 ? "part 0 is the root (its parent must be -1)" : "must name an earlier part (0 to " + std::to_string(index - 1) + ")");
    detail::requirePoint(p.from, partField(i, "from").c_str());
    detail::requirePoint(p.to, partField(i, "to").c_str());
    detail::requireSize(p.radius, partField(i, "radius").c_str());
    detail::requireMass(p.mass, partField(i, "mass").c_str());
    if (i == 0) return; // the root has no joint
    const JointType t = p.joint;
    if (t != JointType::Ball && t != JointType::Hinge && t != JointType::SwingTwist && t != JointType::Fixed)
        throw Error(partField(i, "joint"), std::to_string(static_cast<int>(t)), "must be Ball, Hinge, SwingTwist or Fixed");
    detail::requirePoint(p.jointPoint, partField(i, "jointPoint").c_str());
    // The axis, swing limit and motion of the joint itself are checked by createJoint;
    // checked here too so that nothing is made when one of them is wrong.
    detail::requirePoint(p.jointAxis, partField(i, "jointAxis").c_str());
    const bool axial = t == JointType::Hinge || t == JointType::SwingTwist;
    if (axial && !(p.jointAxis.norm() > real(1e-9))) throw Error(partField(i, "jointAxis"), toText(p.jointAxis), "must not be zero");
    if (t == JointType::SwingTwist)
        detail::requireInRange(p.swingLimit, real(1e-3), std::numbers::pi_v<real>, partField(i, "swingLimit").c_str());
    else if (p.swingLimit != std::numbers::pi_v<real>)
        throw Error(partField(i, "swingLimit"), toText(p.swingLimit), "only a swing-twist joint has a cone (leave it pi)");
    if (t == JointType::SwingTwist) {
        detail::validateSwingDrive(p.swingDrive, p.swingTarget, "RagdollDesc.parts[" + std::to_string(i) + "]");
    } else if (p.swingDrive != JointMotion{}) {
        throw Error(partField(i, "swingDrive"), "set", "only a swing-twist bone has a swing drive (leave it as made)");
    } else if (!p.swingTarget.isZero()) {
        throw Error(partField(i, "swingTarget"), toText(p.swingTarget), "only a swing-twist bone has a swing target (leave it zero)");
    }
    if (axial) detail::validateMotion(p.motion, t, partField(i, "motion"));
    else if (p.motion.limited || p.motion.motor || p.motion.springHertz > 0 || p.motion.springStiffness > 0 || p.motion.friction > 0)
        throw Error(partField(i, "motion"), "set", "only a hinge or swing-twist bone moves as its motion says (leave it as made)");
}

void validate(const RagdollDesc& d) {
    if (d.parts.empty() || d.parts.size() > 256)
        throw Error("RagdollDesc.parts", std::to_string(d.parts.size()) + " parts", "must hold 1 to 256 parts");
    for (std::size_t i = 0; i < d.parts.size(); ++i) validatePart(d.parts[i], i);
    detail::requirePoint(d.pose.position, "RagdollDesc.pose.position");
    detail::requireUnit(d.pose.orientation, "RagdollDesc.pose.orientation");
    detail::requireSpeed(d.linearVelocity, "RagdollDesc.linearVelocity");
    detail::validateDamping(d.linearDamping, d.angularDamping, "RagdollDesc.linearDamping", "RagdollDesc.angularDamping");
    detail::validateMaterial(d.material, "RagdollDesc.material");
}

/// A bone's body: origin at the capsule's middle, its y axis along the bone; the mass as
/// given, the inertia a solid capsule's of that mass.
BodyDesc boneBody(const RagdollDesc& d, const RagdollPart& p) {
    const Vec3 from = d.pose.toWorld(p.from), to = d.pose.toWorld(p.to);
    const Vec3 bone = to - from;
    const real halfHeight = bone.norm() / 2;
    BodyDesc b;
    b.position = (from + to) / 2;
    b.orientation = halfHeight > 0 ? Quat::FromTwoVectors(Vec3::UnitY(), bone) : Quat::Identity();
    b.linearVelocity = d.linearVelocity;
    b.linearDamping = d.linearDamping;
    b.angularDamping = d.angularDamping;
    b.massFromColliders = false;
    b.mass = p.mass;
    const MassProperties unit = solidCapsule(p.radius, halfHeight, 1);
    b.inertia = unit.inertia * (p.mass / unit.mass);
    ColliderDesc c = makeCollider(Capsule{p.radius, halfHeight}, 1, d.material);
    b.colliders.push_back(c);
    return b;
}

/// The joint from bone `child` to its parent, both placed as built: the skeleton's pose
/// is every joint's zero (JointDesc normals left to createJoint).
JointDesc boneJoint(const World& w, const RagdollDesc& d, const RagdollPart& p, BodyId child, BodyId parent) {
    const Transform c = w.body(child).transform(), q = w.body(parent).transform();
    const Vec3 point = d.pose.toWorld(p.jointPoint), axis = d.pose.directionToWorld(p.jointAxis);
    JointDesc j;
    j.type = p.joint;
    j.a = {child, c.toLocal(point)};
    j.b = {parent, q.toLocal(point)};
    if (p.joint == JointType::Hinge || p.joint == JointType::SwingTwist) {
        j.axisA = c.directionToLocal(axis);
        j.axisB = q.directionToLocal(axis);
        j.motion = p.motion;
    }
    if (p.joint == JointType::SwingTwist) {
        j.swingDrive = p.swingDrive;
        // The target in the parent's frame, as the skeleton's pose places it.
        if (!p.swingTarget.isZero()) j.swingTarget = q.directionToLocal(d.pose.directionToWorld(p.swingTarget));
    }
    j.swingLimit = p.swingLimit;
    return j;
}

} // namespace

Ragdoll buildRagdoll(World& world, const RagdollDesc& d) { return detail::guarded(world.errorHandler(), [&] {
    validate(d);
    Ragdoll r;
    try {
        for (std::size_t i = 0; i < d.parts.size(); ++i) {
            const RagdollPart& p = d.parts[i];
            r.bodies.push_back(world.createBody(boneBody(d, p)));
            r.joints.push_back(i == 0 ? JointId{} : world.createJoint(boneJoint(world, d, p, r.bodies.back(),
                                                                                  r.bodies[static_cast<std::size_t>(p.parent)])));
        }
    } catch (const Error&) {
        // All or nothing: take back what was made (destroying a body removes its joints).
        for (auto b = r.bodies.rbegin(); b != r.bodies.rend(); ++b) world.destroyBody(*b);
        throw;
    }
    return r;
}); }

RagdollDesc humanoidRagdoll(real height, real mass) {
    detail::requirePositive(height, "humanoidRagdoll.height");
    detail::requirePositive(mass, "humanoidRagdoll.mass");
    const real s = height / real(1.8); // the skeleton below is 1.8 m tall
    const auto at = [s](real x, real y) -> Vec3 { return Vec3(x, y, 0) * s; };
    const auto swing = [](real cone, real twist) {
        JointMotion m;
        m.limited = true;
        m.lower = -twist;
        m.upper = twist;
        return std::pair{cone, m};
    };
    const auto bend = [](real most) {
        JointMotion m;
        m.limited = true;
        m.upper = most;
        return m;
    };
    RagdollDesc d;
    const auto add = [&](const char* name, int parent, Vec3 from, Vec3 to, real radius, real share) -> RagdollPart& {
        RagdollPart p;
        p.name = name;
        p.parent = parent;
        p.from = from;
        p.to = to;
        p.radius = radius * s;
        p.mass = share * mass;
        d.parts.push_back(p);
        return d.parts.back();
    };
    const auto swingTwist = [](RagdollPart& p, Vec3 point, Vec3 axis, std::pair<real, JointMotion> limits) {
        p.joint = JointType::SwingTwist;
        p.jointPoint = point;
        p.jointAxis = axis;
        p.swingLimit = limits.first;
        p.motion = limits.second;
    };
    const auto hinge = [](RagdollPart& p, Vec3 point, Vec3 axis, JointMotion limits) {
        p.joint = JointType::Hinge;
        p.jointPoint = point;
        p.jointAxis = axis;
        p.motion = limits;
    };
    // Feet on y = 0, facing +z; its left is +x. Shares of the mass: Dempster's, the hands
    // and feet counted with the forearms and shins.
    add("pelvis", -1, at(real(-0.07), real(0.95)), at(real(0.07), real(0.95)), real(0.11), real(0.14));
    swingTwist(add("chest", 0, at(0, real(1.12)), at(0, real(1.38)), real(0.14), real(0.35)), at(0, real(1.05)), Vec3::UnitY(),
               swing(real(0.35), real(0.35)));
    swingTwist(add("head", 1, at(0, real(1.63)), at(0, real(1.69)), real(0.1), real(0.08)), at(0, real(1.52)), Vec3::UnitY(),
               swing(real(0.6), real(0.8)));
    for (const real side : {real(1), real(-1)}) {
        const bool left = side > 0;
        const int chest = 1;
        const int upper = static_cast<int>(d.parts.size());
        swingTwist(add(left ? "upperArmL" : "upperArmR", chest, at(side * real(0.23), real(1.44)), at(side * real(0.23), real(1.2)),
                       real(0.05), real(0.03)),
                   at(side * real(0.23), real(1.45)), -Vec3::UnitY(), swing(real(1.4), real(0.8)));
        // An elbow bends the forearm forward: about -x, A's turn relative to B.
        hinge(add(left ? "forearmL" : "forearmR", upper, at(side * real(0.23), real(1.14)), at(side * real(0.23), real(0.9)),
                  real(0.045), real(0.025)),
              at(side * real(0.23), real(1.17)), -Vec3::UnitX(), bend(real(2.5)));
    }
    for (const real side : {real(1), real(-1)}) {
        const bool left = side > 0;
        const int thigh = static_cast<int>(d.parts.size());
        swingTwist(add(left ? "thighL" : "thighR", 0, at(side * real(0.1), real(0.84)), at(side * real(0.1), real(0.52)),
                       real(0.07), real(0.10)),
                   at(side * real(0.1), real(0.9)), -Vec3::UnitY(), swing(real(0.9), real(0.35)));
        // A knee bends the shin backward: about +x.
        hinge(add(left ? "shinL" : "shinR", thigh, at(side * real(0.1), real(0.44)), at(side * real(0.1), real(0.1)),
                  real(0.055), real(0.06)),
              at(side * real(0.1), real(0.47)), Vec3::UnitX(), bend(real(2.4)));
    }
    return d;
}

} // namespace jounce
