// SPDX-License-Identifier: MIT
// Stage 5a, contact generators: joints, cables and rods turn the drift of their point
// pairs into ordinary contacts (Millington ch. 14 "joints"; his cables and rods). A
// contact's normal points from body 1 toward body 0 and body 0 moving along it
// "opens" the contact; here opening means bringing the two points back together, so
// the normal points from A's point toward B's and the penetration is the drift beyond
// what is allowed (negative: still inside the allowance, a speculative contact that
// lets the points drift apart at up to that distance per step and no faster).

#include "contact/stages.hpp"
#include "common/validate.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace jounce::detail {
namespace {

/// Points closer than this have no direction to pull along (and need no pull).
constexpr real coincident = real(1e-9);

Vec3 toWorld(const Body* b, const Vec3& p) { return b ? b->origin().toWorld(p) : p; } // points: body-origin frame

bool isDefault(const JointMotion& m) { return m == JointMotion{}; }

/// A unit vector at right angles to unit `axis` (the world axis least along it, made square).
Vec3 perpendicular(const Vec3& axis) {
    Eigen::Index least = 0;
    axis.cwiseAbs().minCoeff(&least);
    return (Vec3::Unit(least) - axis * axis(least)).normalized();
}

/// A hinge's or slider's normal `v` across unit `axis`, made square to it and unit; zero
/// when `v` is zero and `otherZero` (the pose decides), else an error naming `field`.
Vec3 across(const Vec3& v, const Vec3& axis, const std::string& field, bool otherZero) {
    requireWithin(v, maxCoordinate, "maxCoordinate", field.c_str());
    if (v.isZero() && otherZero) return Vec3::Zero();
    // Unit and square to the axis to rounding already (a joint written to a scene file
    // or snapshot): kept as given, so it loads to the same bits.
    constexpr real rounding = 4 * std::numeric_limits<real>::epsilon();
    if (std::abs(v.squaredNorm() - 1) <= rounding && std::abs(axis.dot(v)) <= rounding) return v;
    const Vec3 square = v - axis * axis.dot(v);
    if (!(square.norm() > real(1e-6) * std::max(v.norm(), real(1))))
        throw Error(field, toText(v), "must be across the joint's axis (not zero or along it; both zero: from the pose)");
    return square.normalized();
}

/// A hinge's or slider's axes checked, and its normals (taken from the pose when both
/// are zero) written into the joint's desc.
void axesAndNormals(const JointDesc& d, const Body& a, const Body* b, const std::string& field, Joint& j) {
    requireWithin(d.axisA, maxCoordinate, "maxCoordinate", (field + ".axisA").c_str());
    requireWithin(d.axisB, maxCoordinate, "maxCoordinate", (field + ".axisB").c_str());
    if (!(d.axisA.norm() > coincident)) throw Error(field + ".axisA", toText(d.axisA), "must not be zero");
    if (!(d.axisB.norm() > coincident)) throw Error(field + ".axisB", toText(d.axisB), "must not be zero");
    j.desc.normalA = across(d.normalA, d.axisA.normalized(), field + ".normalA", d.normalB.isZero());
    j.desc.normalB = across(d.normalB, d.axisB.normalized(), field + ".normalB", d.normalA.isZero());
    if (d.normalA.isZero() && d.normalB.isZero()) {
        // The zero: a vector across A's axis, and where it points in B's frame now.
        j.desc.normalA = perpendicular(d.axisA.normalized());
        const Vec3 world = a.orientation * j.desc.normalA;
        const Vec3 axis = d.axisB.normalized(), inB = b ? Vec3(b->orientation.conjugate() * world) : world;
        j.desc.normalB = (inB - axis * axis.dot(inB)).normalized(); // unit and square as across() keeps it
    }
}

/// Whether a 6-DOF joint holds its anchors together along all three axes (one point,
/// as a ball joint's; else a contact pair per locked or limited translation).
bool pointHeld(const JointDesc& d) { return d.dofLocked[TranslationX] && d.dofLocked[TranslationY] && d.dofLocked[TranslationZ]; }

} // namespace

/// A 6-DOF joint's axes checked: a locked axis has no motion; translations are offsets
/// and rotations angles (a slider's and a hinge's checks); rotation about y, when any
/// rotation has a row, is locked or limited within (-pi/2, pi/2).
void validateSixDof(const JointDesc& d, const std::string& field) {
    static constexpr std::array<const char*, 6> names{"translationX", "translationY", "translationZ",
                                                      "rotationX", "rotationY", "rotationZ"};
    bool rotationRows = false;
    for (std::size_t i = 0; i < 6; ++i) {
        const std::string name = field + ".dofMotion[" + std::to_string(i) + "] (" + names[i] + ")";
        const JointMotion& m = d.dofMotion[i];
        if (d.dofLocked[i] && !isDefault(m)) throw Error(name, "set", "a locked axis does not move (unlock it, or leave its motion as made)");
        validateMotion(m, i < RotationX ? JointType::Slider : JointType::Hinge, name);
        if (i >= RotationX && (d.dofLocked[i] || !isDefault(m))) rotationRows = true;
    }
    const JointMotion& y = d.dofMotion[RotationY];
    const real quarter = std::numbers::pi_v<real> / 2;
    if (rotationRows && !d.dofLocked[RotationY] && !(y.limited && y.lower > -quarter && y.upper < quarter))
        throw Error(field + ".dofMotion[4] (rotationY)", y.limited ? toText(y.lower) + ", " + toText(y.upper) : "free",
                    "must be locked or limited within (-pi/2, pi/2) when another rotation is held or moves (its Euler angles turn over there)");
}

void validateSwingDrive(const JointMotion& drive, const Vec3& target, const std::string& field) {
    validateMotion(drive, JointType::Hinge, field + ".swingDrive");
    JointMotion others = drive; // all but the spring must stay as made
    others.springHertz = others.springDampingRatio = others.springStiffness = others.springDamping = 0;
    if (!isDefault(others))
        throw Error(field + ".swingDrive", "set", "a swing drive is a spring (springHertz or springStiffness, and its damping) toward swingTarget: leave the rest as made");
    requireWithin(target, maxCoordinate, "maxCoordinate", (field + ".swingTarget").c_str());
    if (!target.isZero() && !(target.norm() > coincident))
        throw Error(field + ".swingTarget", toText(target), "must be a direction (or zero: along axisB)");
}

void validateMotion(const JointMotion& m, JointType type, const std::string& field) {
    // A hinge's coordinate is an angle in [-pi, pi]; a slider's an offset, a coordinate;
    // a distance joint's a length, in [0, maxCoordinate].
    const real most = type == JointType::Slider || type == JointType::Distance ? maxCoordinate : std::numbers::pi_v<real>;
    const real least = type == JointType::Distance ? real(0) : -most;
    const auto angle = [&](real x, const char* name) { requireInRange(x, least, most, (field + "." + name).c_str()); };
    angle(m.lower, "lower");
    angle(m.upper, "upper");
    if (m.limited && m.lower > m.upper)
        throw Error(field + ".lower", toText(m.lower), "must not exceed upper (" + toText(m.upper) + ")");
    requireInRange(m.motorSpeed, -maxSpeed, maxSpeed, (field + ".motorSpeed").c_str());
    requireInRange(m.maxMotorForce, 0, maxLoad, (field + ".maxMotorForce").c_str());
    requireInRange(m.springHertz, 0, maxRate, (field + ".springHertz").c_str());
    requireInRange(m.springDampingRatio, 0, maxRate, (field + ".springDampingRatio").c_str());
    angle(m.springTarget, "springTarget");
    requireInRange(m.springStiffness, 0, maxLoad, (field + ".springStiffness").c_str());
    requireInRange(m.springDamping, 0, maxLoad, (field + ".springDamping").c_str());
    if (m.springStiffness > 0 && m.springHertz > 0)
        throw Error(field + ".springStiffness", toText(m.springStiffness), "a spring is a frequency or a stiffness: leave springHertz 0");
    // Each form's damping with its own form only (a damping the spring would not use).
    if (m.springDamping > 0 && !(m.springStiffness > 0))
        throw Error(field + ".springDamping", toText(m.springDamping), "damps a spring given as springStiffness (set it, or leave this 0)");
    if (m.springDampingRatio > 0 && m.springStiffness > 0)
        throw Error(field + ".springDampingRatio", toText(m.springDampingRatio), "damps a spring given as springHertz: with springStiffness, give springDamping");
    requireInRange(m.friction, 0, maxLoad, (field + ".friction").c_str());
}

std::uint64_t jointKey(std::uint32_t index, std::uint32_t generation, int k) {
    // The high half is a hash that marks the key as a joint's, apart from the collider
    // pairs' keys; the low half numbers the contact within the joint.
    std::uint32_t h = 2166136261u;
    for (const std::uint32_t part : {0x6a6f696eu /* "join" */, index, generation})
        h = (h ^ part) * 16777619u;
    return std::uint64_t(h) << 32 | static_cast<std::uint32_t>(k);
}

int jointPointOf(const Joint& joint, std::uint32_t k) {
    // Links give one contact per pair; points that must stay put give six (each way
    // along each axis), numbered k * 6 + axis * 2 + side below.
    // A slider's or wheel's four contacts (across its axis) are its one pair's.
    if (joint.desc.type == JointType::Slider || joint.desc.type == JointType::Wheel) return 0;
    if (joint.desc.type == JointType::Distance) return 0; // its two contacts are its one pair's
    if (joint.desc.type == JointType::SixDof && !pointHeld(joint.desc)) return 0; // its translations' contacts
    const bool link = joint.desc.type == JointType::Cable || joint.desc.type == JointType::Rod;
    return static_cast<int>(link ? k : k / 6);
}

Joint makeJoint(const JointDesc& d, const Body& a, const Body* b, const std::string& field) {
    requirePoint(d.a.point, (field + ".a.point").c_str());
    requirePoint(d.b.point, (field + ".b.point").c_str());
    requireNonNegative(d.tolerance, (field + ".tolerance").c_str());
    requireNonNegative(d.restitution, (field + ".restitution").c_str());
    if (d.restitution > 1) throw Error(field + ".restitution", toText(d.restitution), "must lie in [0, 1]");
    if (std::isnan(d.breakForce) || !(d.breakForce > 0))
        throw Error(field + ".breakForce", toText(d.breakForce), "must be > 0 (infinity: never breaks)");
    if (std::isnan(d.breakTorque) || !(d.breakTorque > 0))
        throw Error(field + ".breakTorque", toText(d.breakTorque), "must be > 0 (infinity: never breaks)");
    if (!a.isDynamic() && !(b && b->isDynamic()))
        throw Error(field + ".a.body", "static or kinematic", "at least one end must be a dynamic body");
    const bool axial = d.type == JointType::Hinge || d.type == JointType::Slider || d.type == JointType::SwingTwist ||
                       d.type == JointType::Wheel || d.type == JointType::Distance;
    const bool sixDof = d.type == JointType::SixDof;
    if (!sixDof) {
        if (d.dofLocked != JointDesc{}.dofLocked) throw Error(field + ".dofLocked", "set", "only a 6-DOF joint locks axes (leave them false)");
        for (std::size_t i = 0; i < 6; ++i)
            if (!isDefault(d.dofMotion[i]))
                throw Error(field + ".dofMotion[" + std::to_string(i) + "]", "set", "only a 6-DOF joint has these (leave them as made)");
    }
    if (d.type != JointType::Wheel && !isDefault(d.suspension))
        throw Error(field + ".suspension", "set", "only a wheel has a suspension (leave it as made)");
    if (d.type != JointType::Wheel && d.suspensionAxis != Vec3::UnitY())
        throw Error(field + ".suspensionAxis", toText(d.suspensionAxis), "only a wheel has a suspension axis (leave it +y)");
    if (d.type == JointType::SwingTwist) {
        validateSwingDrive(d.swingDrive, d.swingTarget, field);
    } else {
        if (!isDefault(d.swingDrive)) throw Error(field + ".swingDrive", "set", "only a swing-twist joint has a swing drive (leave it as made)");
        if (!d.swingTarget.isZero()) throw Error(field + ".swingTarget", toText(d.swingTarget), "only a swing-twist joint has a swing target (leave it zero)");
    }
    if (d.type == JointType::SwingTwist) requireInRange(d.swingLimit, real(1e-3), std::numbers::pi_v<real>, (field + ".swingLimit").c_str());
    else if (d.swingLimit != std::numbers::pi_v<real>)
        throw Error(field + ".swingLimit", toText(d.swingLimit), "only a swing-twist joint has a cone (leave it pi)");
    if (axial) validateMotion(d.motion, d.type, field + ".motion");
    else if (!isDefault(d.motion))
        throw Error(field + ".motion", "set", "only a hinge, slider, swing-twist, wheel or distance joint moves as its motion says (leave it as made)");
    if ((!axial || d.type == JointType::Distance) && !sixDof && (!d.normalA.isZero() || !d.normalB.isZero()))
        throw Error(field + (d.normalA.isZero() ? ".normalB" : ".normalA"), toText(d.normalA.isZero() ? d.normalB : d.normalA),
                    "only a hinge, slider, swing-twist, wheel or 6-DOF joint has normals (leave them zero)");
    Joint j;
    j.desc = d;
    switch (d.type) {
    case JointType::Ball:
        j.pointCount = 1;
        j.pointsA[0] = d.a.point;
        j.pointsB[0] = d.b.point;
        break;
    case JointType::Hinge: {
        // The span places contact points that far from the anchors: a lever arm, bounded
        // like any coordinate (at 1e30 the resolver's 2x2 friction block cancels to 0).
        requireSize(d.span, (field + ".span").c_str());
        axesAndNormals(d, a, b, field, j);
        const Vec3 ua = d.axisA.normalized() * d.span, ub = d.axisB.normalized() * d.span;
        j.pointCount = 2;
        j.pointsA = {d.a.point + ua, d.a.point - ua, Vec3::Zero()};
        j.pointsB = {d.b.point + ub, d.b.point - ub, Vec3::Zero()};
        break;
    }
    case JointType::Wheel: {
        // The axle as a hinge's; the travel along B's suspension axis, made square to the
        // axle and unit, its motion the slider's.
        axesAndNormals(d, a, b, field, j);
        validateMotion(d.suspension, JointType::Slider, field + ".suspension");
        requireWithin(d.suspensionAxis, maxCoordinate, "maxCoordinate", (field + ".suspensionAxis").c_str());
        const Vec3 axle = d.axisB.normalized();
        const Vec3 square = d.suspensionAxis - axle * axle.dot(d.suspensionAxis);
        if (!(square.norm() > real(1e-6) * std::max(d.suspensionAxis.norm(), real(1))))
            throw Error(field + ".suspensionAxis", toText(d.suspensionAxis), "must be across the axle (not zero or along it)");
        constexpr real rounding = 4 * std::numeric_limits<real>::epsilon(); // kept as given when already so (scene files)
        const bool kept = std::abs(d.suspensionAxis.squaredNorm() - 1) <= rounding && std::abs(axle.dot(d.suspensionAxis)) <= rounding;
        j.desc.suspensionAxis = kept ? d.suspensionAxis : Vec3(square.normalized());
        j.pointCount = 1;
        j.pointsA[0] = d.a.point;
        j.pointsB[0] = d.b.point;
        break;
    }
    case JointType::SwingTwist:
    case JointType::Slider:
        // One anchor pair: a swing-twist joint's ball point (its cone and twist are the
        // soft step's rows); a slider's, held together across B's axis by contacts
        // (below), its orientation and the motion along the axis the soft step's rows.
        axesAndNormals(d, a, b, field, j);
        j.pointCount = 1;
        j.pointsA[0] = d.a.point;
        j.pointsB[0] = d.b.point;
        break;
    case JointType::SixDof:
        // One anchor pair; its frame the axes and normals (taken from the pose when the
        // normals are zero), its translations held by contacts, its rotations by rows.
        axesAndNormals(d, a, b, field, j);
        validateSixDof(d, field);
        j.pointCount = 1;
        j.pointsA[0] = d.a.point;
        j.pointsB[0] = d.b.point;
        break;
    case JointType::Fixed: {
        requireSize(d.span, (field + ".span").c_str());
        // A's anchor and two points off it along A's axes; B's matching points are
        // where those points sit in B's frame now (the pose the joint keeps).
        j.pointCount = 3;
        j.pointsA = {d.a.point, d.a.point + Vec3::UnitX() * d.span, d.a.point + Vec3::UnitY() * d.span};
        for (int k = 0; k < 3; ++k) {
            const Vec3 world = a.origin().toWorld(j.pointsA[static_cast<std::size_t>(k)]);
            j.pointsB[static_cast<std::size_t>(k)] = b ? b->origin().toLocal(world) : world;
        }
        break;
    }
    case JointType::Distance:
        // One anchor pair; its length is its motion's coordinate (limits, spring, motor).
        j.pointCount = 1;
        j.pointsA[0] = d.a.point;
        j.pointsB[0] = d.b.point;
        break;
    case JointType::Cable:
    case JointType::Rod:
        requireSize(d.length, (field + ".length").c_str());
        j.pointCount = 1;
        j.pointsA[0] = d.a.point;
        j.pointsB[0] = d.b.point;
        break;
    default:
        throw Error(field + ".type", std::to_string(static_cast<int>(d.type)), "not a JointType");
    }
    return j;
}

namespace {

/// A 6-DOF joint's translations, unless all three are locked (then its anchor is a
/// point): along each of B's frame axes e that is locked or limited, two one-sided
/// contacts on A's offset s = -d . e (d = B's point - A's): s >= lower (normal +e,
/// penetration lower - s) and s <= upper (normal -e, penetration s - upper); locked is
/// [0, 0]. With none, one contact that never pulls (a maxCoordinate away) keeps the
/// joint in its bodies' island, where its rows are solved.
void sixDofContacts(const Joint& j, const Body* b, JointId id, const Vec3& d, const std::vector<KeptContact>& previous,
                    std::vector<std::uint64_t>& previousKeys, Contact c, std::vector<Contact>& out) {
    const JointDesc& desc = j.desc;
    const Vec3 x = desc.axisB.normalized();
    const std::array<Vec3, 3> frame{x, desc.normalB, x.cross(desc.normalB)};
    bool any = false;
    for (std::size_t i = 0; i < 3; ++i) {
        const JointMotion& m = desc.dofMotion[i];
        if (!desc.dofLocked[i] && !m.limited) continue;
        const real lower = desc.dofLocked[i] ? real(0) : m.lower, upper = desc.dofLocked[i] ? real(0) : m.upper;
        const Vec3 e = b ? Vec3(b->orientation * frame[i]) : frame[i];
        const real offset = -d.dot(e);
        for (int side = 0; side < 2; ++side) {
            c.normal = side == 0 ? e : Vec3(-e);
            c.penetration = (side == 0 ? lower - offset : offset - upper) - desc.tolerance;
            // Numbered 7 to 12 (13 alone when there are none): no run of six of them
            // starts at a multiple of 6, so they are never read as a point's six
            // world-axis contacts (soft_joints.cpp folds those), whatever their gaps.
            c.key = jointKey(id.index, id.generation, 7 + static_cast<int>(2 * i) + side);
            c.accumulatedImpulse = Vec3::Zero();
            warmStart(previous, previousKeys, c);
            out.push_back(c);
        }
        any = true;
    }
    if (any) return;
    c.normal = b ? Vec3(b->orientation * frame[0]) : frame[0];
    c.penetration = -maxCoordinate;
    c.key = jointKey(id.index, id.generation, 13);
    c.accumulatedImpulse = Vec3::Zero();
    warmStart(previous, previousKeys, c);
    out.push_back(c);
}

} // namespace

void generateJointContacts(const BodyArray& bodies, const JointArray& joints, const std::vector<KeptContact>& previous,
                           std::vector<std::uint64_t>& previousKeys, std::vector<Contact>& out, bool hingeRows) {
    previousKeys.clear();
    for (const KeptContact& p : previous) previousKeys.push_back(p.key); // sorted, as previous is
    for (std::size_t i = 0; i < joints.slotCount(); ++i) {
        if (!joints.isAlive(i)) continue;
        const Joint& j = joints.atSlot(i);
        const JointId id = joints.idOf(i);
        const Body& a = bodies[j.desc.a.body];
        const Body* b = j.desc.b.body.isNull() ? nullptr : &bodies[j.desc.b.body];
        if (!a.awake && !(b && b->isDynamic() && b->awake)) continue; // a sleeping joint pulls nothing
        // With hinge rows (the soft step) a hinge is its anchor alone: the rows keep its
        // axis (contact/soft_joint_axes.cpp). Two points on the axis hold the bodies
        // together along it twice, so a chain of hinges cannot be solved as one system.
        const bool anchorOnly = hingeRows && j.desc.type == JointType::Hinge;
        for (int k = 0; k < (anchorOnly ? 1 : j.pointCount); ++k) {
            const Vec3 pa = toWorld(&a, anchorOnly ? j.desc.a.point : j.pointsA[static_cast<std::size_t>(k)]);
            const Vec3 pb = toWorld(b, anchorOnly ? j.desc.b.point : j.pointsB[static_cast<std::size_t>(k)]);
            Contact c;
            c.body = {j.desc.a.body.index, b ? j.desc.b.body.index : noBody};
            c.point = (pa + pb) / 2;
            c.friction = 0;
            c.restitution = 0;
            c.supports = false; // a joint pulls both ways: shock propagation never holds it
            const Vec3 d = pb - pa;
            if (j.desc.type == JointType::Distance) {
                // Its length held within [lower, upper] (unlimited: [0, maxCoordinate])
                // by two one-sided contacts along the anchors' line, always there (the
                // farther one speculative): they keep the joint in its bodies' island,
                // where the soft step's row springs and drives the length.
                const real distance = d.norm();
                if (!(distance > coincident)) continue; // no direction to hold along
                const JointMotion& m = j.desc.motion;
                const real longest = m.limited ? m.upper : maxCoordinate, shortest = m.limited ? m.lower : real(0);
                c.normal = d / distance; // A moving toward B's point shortens it
                c.penetration = distance - longest;
                c.key = jointKey(id.index, id.generation, 0);
                warmStart(previous, previousKeys, c);
                out.push_back(c);
                c.normal = -c.normal; // pushes the anchors apart
                c.penetration = shortest - distance;
                c.accumulatedImpulse = Vec3::Zero();
                c.key = jointKey(id.index, id.generation, 1);
                warmStart(previous, previousKeys, c);
                out.push_back(c);
                continue;
            }
            if (j.desc.type == JointType::Cable || j.desc.type == JointType::Rod) {
                const real distance = d.norm();
                if (!(distance > coincident)) continue;
                c.normal = d / distance; // A moving toward B's point shortens the link
                c.penetration = distance - j.desc.length;
                if (j.desc.type == JointType::Cable) {
                    // Slack: no contact until within 5% of the length.
                    if (distance < j.desc.length * real(0.95)) continue;
                    c.restitution = j.desc.restitution;
                } else if (distance < j.desc.length) {
                    c.normal = -c.normal; // too short: push the points apart
                    c.penetration = j.desc.length - distance;
                }
                c.key = jointKey(id.index, id.generation, k);
                warmStart(previous, previousKeys, c);
                out.push_back(c);
                continue;
            }
            if (j.desc.type == JointType::SixDof && !pointHeld(j.desc)) {
                // At A's anchor, not midway: with the axes fixed in B, B's lever to A's
                // anchor is the constraint's own (Box2D's prismatic joint: d + r_a), and
                // the point held on the line is A's anchor, however far the free
                // translation has carried it and however A turns.
                c.point = pa;
                sixDofContacts(j, b, id, d, previous, previousKeys, c, out);
                continue;
            }
            if (j.desc.type == JointType::Slider || j.desc.type == JointType::Wheel) {
                // Held across B's axis only: one contact each way along two directions at
                // right angles to it (B's normal and axis x normal), free along it. A
                // wheel's axis is its suspension's, across it its axle and axle x axis.
                const bool wheel = j.desc.type == JointType::Wheel;
                const Vec3 localAxis = wheel ? j.desc.suspensionAxis : Vec3(j.desc.axisB.normalized());
                const Vec3 localAcross = wheel ? Vec3(j.desc.axisB.normalized()) : j.desc.normalB;
                const Vec3 axis = b ? Vec3(b->orientation * localAxis) : localAxis;
                const Vec3 u = b ? Vec3(b->orientation * localAcross) : localAcross;
                const std::array<Vec3, 2> across{u, axis.cross(u)};
                for (int side = 0; side < 4; ++side) {
                    c.normal = across[static_cast<std::size_t>(side / 2)] * (side % 2 == 0 ? real(1) : real(-1));
                    c.penetration = d.dot(c.normal) - j.desc.tolerance;
                    c.key = jointKey(id.index, id.generation, side);
                    c.accumulatedImpulse = Vec3::Zero();
                    warmStart(previous, previousKeys, c);
                    out.push_back(c);
                }
                continue;
            }
            // A point that must stay put: one contact each way along each world axis,
            // so the drift d is held inside a box of half-width `tolerance` whichever
            // way the bodies move (a single contact along d alone would let the point
            // slide sideways, and pull only after it has drifted).
            for (int axis = 0; axis < 3; ++axis)
                for (const real sign : {real(1), real(-1)}) {
                    c.normal = Vec3::Unit(axis) * sign;
                    c.penetration = d.dot(c.normal) - j.desc.tolerance;
                    c.key = jointKey(id.index, id.generation, k * 6 + axis * 2 + (sign > 0 ? 0 : 1));
                    c.accumulatedImpulse = Vec3::Zero();
                    warmStart(previous, previousKeys, c);
                    out.push_back(c);
                }
        }
    }
}

void jointLinks(const JointArray& joints, std::vector<std::pair<std::uint32_t, std::uint32_t>>& links,
                std::vector<std::pair<std::uint32_t, std::uint32_t>>& noCollision) {
    links.clear();
    noCollision.clear();
    for (std::size_t i = 0; i < joints.slotCount(); ++i) {
        if (!joints.isAlive(i)) continue;
        const JointDesc& d = joints.atSlot(i).desc;
        if (d.b.body.isNull()) continue;
        const std::uint32_t x = d.a.body.index, y = d.b.body.index;
        links.emplace_back(x, y);
        if (!d.collide) noCollision.emplace_back(std::min(x, y), std::max(x, y));
    }
    std::sort(noCollision.begin(), noCollision.end());
}

} // namespace jounce::detail
