// SPDX-License-Identifier: MIT
// The soft step's hinge motion rows (contact/soft_step.hpp, SoftAngle): a spring, a
// motor or friction, and two limits about the hinge axis, in Box2D v3's revolute
// joint's order and form (spring and motor first, then the limits, so the limits have
// the last word over what drives the joint). Each is an angular impulse L along B's
// axis n: +L n on A, -L n on B, so A's spin relative to B's, n . (w_a - w_b), changes by
// L / m with m = 1 / (n . (I_a^-1 + I_b^-1) n) (the bodies' own inertia, as Box2D and Jolt
// take it; the hinge's points, solved next, turn an arm about its pivot).

#include "contact/soft_step.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace jounce::detail {
namespace {

struct Axis {
    Vec3 n = Vec3::Zero();
    Vec3 turnA = Vec3::Zero(), turnB = Vec3::Zero(); ///< I^-1 n for each side
    real mass = 0;                                   ///< 1 / (n . (I_a^-1 + I_b^-1) n), 0 if nothing turns
};

/// The axis as B has turned it, with each side's response.
Axis axisNow(const SoftAngle& angle, const SoftBody& a, const SoftBody& b) {
    Axis x;
    x.n = b.turn * angle.axis;
    x.turnA = a.inverseMass > 0 ? Vec3(a.inverseInertia * x.n) : Vec3::Zero();
    x.turnB = b.inverseMass > 0 ? Vec3(b.inverseInertia * x.n) : Vec3::Zero();
    const real k = x.n.dot(x.turnA + x.turnB);
    x.mass = k > 0 ? 1 / k : 0;
    return x;
}

/// A's spin relative to B's about the axis [rad/s].
real spin(const Axis& x, const SoftBody& a, const SoftBody& b) {
    return x.n.dot(a.angularVelocity - b.angularVelocity);
}

void push(const Axis& x, SoftBody& a, SoftBody& b, real impulse) {
    a.angularVelocity += x.turnA * impulse;
    b.angularVelocity -= x.turnB * impulse;
}

/// x in (-pi, pi]: an angle difference taken the short way round.
real wrap(real x) {
    const real pi = std::numbers::pi_v<real>;
    while (x > pi) x -= 2 * pi;
    while (x <= -pi) x += 2 * pi;
    return x;
}

/// One limit row: C >= 0 is the room left (angle - lower, or upper - angle), `rate` its
/// rate; `sign` +1 for the lower limit (pushes the angle up), -1 for the upper.
void solveLimit(real room, const Axis& x, SoftBody& a, SoftBody& b, real& accumulated, real sign, const Softness& joint,
                real sub, bool useBias) {
    real bias = 0, massScale = 1, impulseScale = 0;
    if (room > 0) {
        bias = room / sub; // still apart: it may close this much within the substep, no more
    } else if (useBias) {
        bias = joint.biasRate * room;
        massScale = joint.massScale;
        impulseScale = joint.impulseScale;
    }
    const real rate = sign * spin(x, a, b);
    const real impulse = -x.mass * massScale * (rate + bias) - impulseScale * accumulated;
    const real total = std::max(accumulated + impulse, real(0));
    push(x, a, b, sign * (total - accumulated));
    accumulated = total;
}

} // namespace

real angleNow(const SoftAngle& angle, const SoftBody& a, const SoftBody& b) {
    const Vec3 n = b.turn * angle.axis;
    const Vec3 ua = a.turn * angle.reference[0], ub = b.turn * angle.reference[1];
    return std::atan2(ub.cross(ua).dot(n), ub.dot(ua));
}

void warmStartAngle(const SoftAngle& angle, SoftBody& a, SoftBody& b) {
    const std::array<real, 4>& p = angle.impulse;
    push(axisNow(angle, a, b), a, b, p[lowerImpulse] - p[upperImpulse] + p[motorImpulse] + p[springImpulse]);
}

void solveAngle(SoftAngle& angle, SoftBody& a, SoftBody& b, const Softness& joint, real sub, bool useBias) {
    const Axis x = axisNow(angle, a, b);
    if (x.mass == 0) return; // nothing on either side can turn
    const JointMotion& m = angle.motion;
    std::array<real, 4>& p = angle.impulse;
    const real theta = angleNow(angle, a, b);
    if (m.springHertz > 0) {
        // A physical spring, not a correction: it acts in the relaxing visits too.
        const Softness spring = makeSoft(m.springHertz, m.springDampingRatio, sub);
        const real impulse = softImpulse(spring, x.mass, spin(x, a, b), wrap(theta - m.springAngle), p[springImpulse]);
        p[springImpulse] += impulse;
        push(x, a, b, impulse);
    }
    if (m.motor || m.friction > 0) {
        // Toward the motor's speed (friction: toward no relative spin), bounded by the
        // torque over the substep.
        const real target = m.motor ? m.motorSpeed : real(0);
        const real most = (m.motor ? m.maxMotorTorque : m.friction) * sub;
        const real impulse = -x.mass * (spin(x, a, b) - target);
        const real total = std::clamp(p[motorImpulse] + impulse, -most, most);
        push(x, a, b, total - p[motorImpulse]);
        p[motorImpulse] = total;
    }
    if (m.limited) {
        solveLimit(theta - m.lower, x, a, b, p[lowerImpulse], 1, joint, sub, useBias);
        solveLimit(m.upper - theta, x, a, b, p[upperImpulse], -1, joint, sub, useBias);
    }
}

} // namespace jounce::detail
