// SPDX-License-Identifier: MIT
// The soft step's rows of a hinge, slider or swing-twist joint about or along its axis (contact/
// soft_step.hpp, SoftJointAxis): a spring, a motor or friction, and two limits, in Box2D
// v3's revolute and prismatic joints' order and form (spring and motor first, then the
// limits, so the limits have the last word over what drives the joint), after the lock:
// a hinge's axis kept (two angular rows across it: its points are its anchor alone), a
// slider's whole relative orientation (three), or a swing-twist joint's cone (one row
// when it swings to its limit); a swing-twist joint's coordinate is its twist about the
// mean of its two twist axes. A 6-DOF joint's rows are a slider's (its translations'
// motors, springs and friction) and a hinge's (each rotation, about the direction whose
// rate is its Euler angle's: eulerRowAxis), or a slider's lock when all three rotations are.
//
// Each row is an impulse L along one coordinate with Jacobian J = (j_la, j_aa, -j_lb, -j_ab)
// on (v_a, w_a, v_b, w_b): a hinge's j_aa = j_ab = n (an angular impulse about B's axis
// n, +L n on A, -L n on B), a slider's j_la = j_lb = n, j_aa = l_a x n, j_ab = r_b x n (a
// force along n at B's anchor, l_a reaching it from A's centre, r_b from B's). Its
// effective mass is m = 1 / (J M^-1 J^T): for a hinge 1 / (n . (I_a^-1 + I_b^-1) n), the
// bodies' own inertia as Box2D and Jolt take it (the hinge's points, solved next, turn an
// arm about its pivot).

#include "contact/range_inverse.hpp"
#include "contact/soft_step.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace jounce::detail {
namespace {

/// One coordinate's row: its Jacobian and what a unit impulse does to each body.
struct Dof {
    Vec3 linearA = Vec3::Zero(), angularA = Vec3::Zero(); ///< j_la, j_aa
    Vec3 linearB = Vec3::Zero(), angularB = Vec3::Zero(); ///< j_lb, j_ab
    Vec3 turnA = Vec3::Zero(), turnB = Vec3::Zero();      ///< I^-1 j_a, I^-1 j_b
    real moveA = 0, moveB = 0;                            ///< each body's 1 / m (0: takes no impulse)
    real mass = 0;                                        ///< 1 / (J M^-1 J^T), 0 if nothing moves
};

/// j_l^T M^-1 j_l for a linear Jacobian j_l (any length) of a body with 1 / m = move:
/// only its free components count (MotionLocks, locked_mass.hpp).
real linearReach(const SoftBody& body, real move, const Vec3& l) {
    if (!body.linearLocked) return move * l.squaredNorm();
    const real free = l.cwiseProduct(body.linearFree).squaredNorm();
    return free < lockedShareTolerance * l.squaredNorm() ? real(0) : move * free; // along a locked axis but for rounding: locked
}

Dof makeDof(const SoftBody& a, const SoftBody& b, const Vec3& la, const Vec3& aa, const Vec3& lb, const Vec3& ab) {
    Dof d{la, aa, lb, ab};
    if (a.inverseMass > 0) {
        d.moveA = a.inverseMass;
        d.turnA = a.inverseInertia * aa;
    }
    if (b.inverseMass > 0) {
        d.moveB = b.inverseMass;
        d.turnB = b.inverseInertia * ab;
    }
    const real k = linearReach(a, d.moveA, la) + aa.dot(d.turnA) + linearReach(b, d.moveB, lb) + ab.dot(d.turnB);
    d.mass = k > 0 ? 1 / k : 0;
    return d;
}

/// Where an anchor is now: its arm at the step's start, turned as its body turned.
struct Anchors {
    Vec3 ra = Vec3::Zero(), rb = Vec3::Zero(); ///< anchor - centre of mass, now
    Vec3 gap = Vec3::Zero();                   ///< A's anchor - B's, now
};
Anchors anchorsNow(const SoftJointAxis& x, const SoftBody& a, const SoftBody& b) {
    Anchors n;
    n.ra = a.turn * x.arm[0];
    n.rb = b.turn * x.arm[1];
    n.gap = x.gap + a.moved + (n.ra - x.arm[0]) - b.moved - (n.rb - x.arm[1]);
    return n;
}

/// A 6-DOF joint's rotation row: the direction d whose angular rate d . (w_a - w_b) is
/// its Euler angle's rate. With B's x axis x_b, A's z axis z_a and the middle axis
/// y' = z_a x x_b / cos b (unit), w = a' x_b + b' y' + c' z_a, so a' = w . (y' x z_a) / cos b,
/// b' = w . y', c' = w . (x_b x y') / cos b (Bullet's generic 6-DOF axes, scaled to the
/// angles' rates; cos b is kept >= 0.01 near the turn-over the limits on b keep away).
Vec3 eulerRowAxis(const SoftJointAxis& x, const SoftBody& a, const SoftBody& b) {
    const Vec3 xb = b.turn * x.axis;
    const Vec3 za = (a.turn * x.axisA).cross(a.turn * x.reference[0]);
    const Vec3 u = za.cross(xb);
    const real cosine = u.norm();
    const Vec3 middle = cosine > real(1e-9) ? Vec3(u / cosine) : Vec3(b.turn * x.reference[1]);
    if (x.dof == RotationY) return middle;
    const real scale = 1 / std::max(cosine, real(0.01));
    return x.dof == RotationX ? Vec3(middle.cross(za) * scale) : Vec3(xb.cross(middle) * scale);
}

/// The axis the coordinate turns about or slides along now: B's axis as B has turned it,
/// or a swing-twist joint's mean of both twist axes.
Vec3 axisNow(const SoftJointAxis& x, const SoftBody& a, const SoftBody& b) {
    if (x.type == JointType::Distance) { // the anchors' line now
        const Vec3 gap = anchorsNow(x, a, b).gap;
        const real length = gap.norm();
        return length > real(1e-9) ? Vec3(gap / length) : x.axis;
    }
    const Vec3 nb = b.turn * x.axis;
    if (x.type == JointType::SixDof && x.dof >= RotationX && x.dof != orientationLock) return eulerRowAxis(x, a, b);
    return x.type == JointType::SwingTwist ? twistAxis(a.turn * x.axisA, nb) : nb;
}

/// The coordinate's row, as the bodies have moved so far this step.
Dof dofNow(const SoftJointAxis& x, const SoftBody& a, const SoftBody& b) {
    const Vec3 n = axisNow(x, a, b);
    if (!slides(x)) return makeDof(a, b, Vec3::Zero(), n, Vec3::Zero(), n);
    const Anchors at = anchorsNow(x, a, b);
    // A 6-DOF joint's translation: the axis is fixed in B, so C = n . (p_a - p_b) moves
    // with B's turn too, dC/dt = n . (v_a + w_a x r_a - v_b - w_b x (r_b + gap)): the
    // force acts at A's anchor (as its contacts do), B reaching it by r_b + gap. A
    // slider's orientation is locked (w_a = w_b, both forms the same): the force acts at
    // B's anchor, A reaching it from its centre by r_a - gap.
    if (x.type == JointType::SixDof) return makeDof(a, b, n, at.ra.cross(n), n, (at.rb + at.gap).cross(n));
    return makeDof(a, b, n, (at.ra - at.gap).cross(n), n, at.rb.cross(n));
}

/// A's speed relative to B's along the coordinate.
real rate(const Dof& d, const SoftBody& a, const SoftBody& b) {
    return d.linearA.dot(a.linearVelocity) + d.angularA.dot(a.angularVelocity) - d.linearB.dot(b.linearVelocity) -
           d.angularB.dot(b.angularVelocity);
}

void push(const Dof& d, SoftBody& a, SoftBody& b, real impulse) {
    a.linearVelocity += lockedChange(a, d.linearA * (d.moveA * impulse));
    a.angularVelocity += d.turnA * impulse;
    b.linearVelocity -= lockedChange(b, d.linearB * (d.moveB * impulse));
    b.angularVelocity -= d.turnB * impulse;
}

/// An angular impulse: +L on A, -L on B (bodies that take no impulses are not written).
void turnBy(SoftBody& a, SoftBody& b, const Vec3& angular) {
    if (a.inverseMass > 0) a.angularVelocity += a.inverseInertia * angular;
    if (b.inverseMass > 0) b.angularVelocity -= b.inverseInertia * angular;
}

/// A motion's spring as the soft step's coefficients: its frequency and damping ratio, or
/// (a stiffness k and damping c) the frequency and ratio they give on this row's
/// effective mass m: omega = sqrt(k / m), zeta = c / (2 sqrt(k m)).
Softness springSoftness(const JointMotion& m, real mass, real sub) {
    if (m.springHertz > 0) return makeSoft(m.springHertz, m.springDampingRatio, sub);
    const real omega = std::sqrt(m.springStiffness / mass);
    const real zeta = m.springDamping / (2 * std::sqrt(m.springStiffness * mass));
    return makeSoft(omega / (2 * std::numbers::pi_v<real>), zeta, sub);
}

/// x in (-pi, pi]: an angle difference taken the short way round.
real wrap(real x) {
    const real pi = std::numbers::pi_v<real>;
    while (x > pi) x -= 2 * pi;
    while (x <= -pi) x += 2 * pi;
    return x;
}

/// One limit row: `room` >= 0 is what is left (coordinate - lower, or upper -
/// coordinate); `sign` +1 for the lower limit (pushes the coordinate up), -1 for the upper.
void solveLimit(real room, const Dof& d, SoftBody& a, SoftBody& b, real& accumulated, real sign, const Softness& joint,
                real sub, bool useBias) {
    real bias = 0, massScale = 1, impulseScale = 0;
    if (room > 0) {
        bias = room / sub; // still apart: it may close this much within the substep, no more
    } else if (useBias) {
        bias = joint.biasRate * room;
        massScale = joint.massScale;
        impulseScale = joint.impulseScale;
    }
    const real impulse = -d.mass * massScale * (sign * rate(d, a, b) + bias) - impulseScale * accumulated;
    const real total = std::max(accumulated + impulse, real(0));
    push(d, a, b, sign * (total - accumulated));
    accumulated = total;
}

/// A slider's orientation lock: the frames (axis, normal, axis x normal) of A and B as
/// turned so far, their mismatch e = 1/2 sum_i f_b,i x f_a,i (the small turn taking B's
/// frame to A's), and the 3x3 block impulse L = -K^-1 (w_a - w_b + bias e), K = I_a^-1 + I_b^-1.
void solveSliderLock(SoftJointAxis& x, SoftBody& a, SoftBody& b, const Softness& joint, bool useBias) {
    const Mat3 ia = a.inverseMass > 0 ? a.inverseInertia : Mat3::Zero();
    const Mat3 ib = b.inverseMass > 0 ? b.inverseInertia : Mat3::Zero();
    const Eigen::Matrix3d k = (ia + ib).cast<double>();
    const double det = k.determinant();
    if (!std::isfinite(det) || (ia + ib).isZero(0)) return; // nothing turns: no lock to solve
    const Mat3 mass = det > 0 ? Mat3(k.inverse().cast<real>()) : rangeInverse<3>(ia + ib); // locked axes: on the free ones
    const Vec3 fa[3] = {a.turn * x.axisA, a.turn * x.reference[0], a.turn * x.axisA.cross(x.reference[0])};
    const Vec3 fb[3] = {b.turn * x.axis, b.turn * x.reference[1], b.turn * x.axis.cross(x.reference[1])};
    Vec3 error = Vec3::Zero();
    for (int i = 0; i < 3; ++i) error += fb[i].cross(fa[i]) / 2;
    const Vec3 spin = a.angularVelocity - b.angularVelocity;
    Vec3 impulse;
    if (useBias) impulse = -(mass * (spin + joint.biasRate * error)) * joint.massScale - joint.impulseScale * x.lock;
    else impulse = -(mass * spin);
    x.lock += impulse;
    turnBy(a, b, impulse);
}

/// A hinge's axis lock: B's axis n_b and A's n_a as turned so far, the turn between them
/// e = n_b x n_a (across n_b), held at 0 by two angular rows along u and v = n_b x u
/// across the axis, solved as a 2x2 block: L = -K^-1 (J w + bias J e) with
/// K = J (I_a^-1 + I_b^-1) J^T, J = (u, v). Free about the axis.
void solveHingeLock(SoftJointAxis& x, SoftBody& a, SoftBody& b, const Softness& joint, bool useBias) {
    const Mat3 inverse = (a.inverseMass > 0 ? a.inverseInertia : Mat3::Zero()) + (b.inverseMass > 0 ? b.inverseInertia : Mat3::Zero());
    const Vec3 nb = b.turn * x.axis, na = a.turn * x.axisA;
    const Vec3 u = b.turn * x.reference[1], v = nb.cross(u);
    Eigen::Matrix<real, 2, 2> k;
    k << u.dot(inverse * u), u.dot(inverse * v), v.dot(inverse * u), v.dot(inverse * v);
    const real det = k.determinant();
    if (!std::isfinite(det) || k.isZero(0)) return; // nothing turns across the axis
    const Eigen::Matrix<real, 2, 2> mass = det > 0 ? Eigen::Matrix<real, 2, 2>(k.inverse()) : rangeInverse<2>(k);
    const Vec3 spin = a.angularVelocity - b.angularVelocity;
    const Vec3 error = nb.cross(na);
    const Eigen::Matrix<real, 2, 1> rate(u.dot(spin), v.dot(spin));
    Eigen::Matrix<real, 2, 1> impulse;
    if (useBias) {
        const Eigen::Matrix<real, 2, 1> kept(u.dot(x.lock), v.dot(x.lock)), drift(u.dot(error), v.dot(error));
        impulse = -(mass * (rate + joint.biasRate * drift)) * joint.massScale - joint.impulseScale * kept;
    } else {
        impulse = -(mass * rate);
    }
    const Vec3 angular = u * impulse(0) + v * impulse(1);
    x.lock += angular;
    turnBy(a, b, angular);
}

/// A swing-twist joint's cone: the swing phi between the twist axes t_a and t_b, held at
/// most swingLimit by one one-sided angular row about s = (t_b x t_a) / |t_b x t_a| (A
/// turning about s swings it further: dphi/dt = s . (w_a - w_b)), pushing A by -L s and B
/// by +L s. Its impulse is kept as that world vector and read back along s as it is now.
void solveCone(SoftJointAxis& x, SoftBody& a, SoftBody& b, const Softness& joint, real sub, bool useBias) {
    if (!(x.swingLimit < std::numbers::pi_v<real>)) return; // no cone
    const Vec3 ta = a.turn * x.axisA, tb = b.turn * x.axis;
    const Vec3 across = tb.cross(ta);
    const real sine = across.norm();
    if (!(sine > real(1e-6))) return; // together (or opposite): no direction to swing back along
    const Vec3 s = across / sine;
    const real swing = std::atan2(sine, tb.dot(ta));
    const Dof d = makeDof(a, b, Vec3::Zero(), s, Vec3::Zero(), s);
    if (d.mass == 0) return;
    real accumulated = std::max(-s.dot(x.lock), real(0));
    solveLimit(x.swingLimit - swing, d, a, b, accumulated, -1, joint, sub, useBias);
    x.lock = -accumulated * s;
}

/// A unit vector at right angles to unit `v` (the world axis least along it, made square).
Vec3 across(const Vec3& v) {
    Eigen::Index least = 0;
    v.cwiseAbs().minCoeff(&least);
    return (Vec3::Unit(least) - v * v(least)).normalized();
}

/// A swing-twist joint's swing drive: a spring turning A's twist axis t_a toward the
/// target t (both as turned so far), on the rotation vector r = phi (t_a x t) / |t_a x t|
/// that takes one to the other, by two angular rows across t_a (along u and v = t_a x u:
/// smooth through phi = 0, where a single row about r would lose its direction). Along
/// each, the coordinate is -r . u from the target (turning A about u by +d closes it by
/// d), sprung as a hinge's angle. Its impulse is kept as a world vector, read back along
/// u and v as they are now.
void solveSwingDrive(SoftJointAxis& x, SoftBody& a, SoftBody& b, real sub) {
    const JointMotion& m = x.swingDrive;
    if (!(m.springHertz > 0 || m.springStiffness > 0)) return;
    const Vec3 ta = a.turn * x.axisA, target = b.turn * x.swingTarget;
    const Vec3 c = ta.cross(target);
    const real sine = c.norm();
    const Vec3 r = sine > real(1e-9) ? Vec3(c * (std::atan2(sine, ta.dot(target)) / sine)) : Vec3::Zero();
    const Vec3 u = across(ta);
    for (const Vec3& n : {u, Vec3(ta.cross(u))}) {
        const Dof d = makeDof(a, b, Vec3::Zero(), n, Vec3::Zero(), n);
        if (d.mass == 0) continue;
        const real accumulated = n.dot(x.drive);
        const real impulse = softImpulse(springSoftness(m, d.mass, sub), d.mass, rate(d, a, b), -r.dot(n), accumulated);
        x.drive += n * impulse;
        push(d, a, b, impulse);
    }
}

} // namespace

real coordinateNow(const SoftJointAxis& x, const SoftBody& a, const SoftBody& b) {
    const Vec3 n = axisNow(x, a, b);
    if (slides(x)) return n.dot(anchorsNow(x, a, b).gap);
    if (x.type == JointType::SixDof) {
        if (x.dof == orientationLock) return 0; // no coordinate: the three rotations held at 0
        return eulerAngles(a.turn * x.axisA, a.turn * x.reference[0], b.turn * x.axis, b.turn * x.reference[1])(x.dof - RotationX);
    }
    return twistAngle(n, a.turn * x.reference[0], b.turn * x.reference[1]);
}

Vec3 coordinateAxis(const SoftJointAxis& x, const SoftBody& a, const SoftBody& b) { return axisNow(x, a, b); }

real coordinateRate(const SoftJointAxis& x, const SoftBody& a, const SoftBody& b) { return rate(dofNow(x, a, b), a, b); }

void warmStartJointAxis(SoftJointAxis& x, SoftBody& a, SoftBody& b) {
    if (x.type == JointType::Hinge || (x.type == JointType::Wheel && !x.travel)) {
        // Kept in world coordinates while the bodies turned: only its part across the
        // axis as it is now is the lock's (along it, it would drive the free turn).
        const Vec3 nb = b.turn * x.axis;
        x.lock -= nb * nb.dot(x.lock);
    }
    turnBy(a, b, x.lock);
    if (x.type == JointType::SwingTwist) {
        // Kept as a world vector while A turned: only its part across A's twist axis as
        // it is now is the drive's (along it, it would twist the limb).
        const Vec3 ta = a.turn * x.axisA;
        x.drive -= ta * ta.dot(x.drive);
        turnBy(a, b, x.drive);
    }
    push(dofNow(x, a, b), a, b, netImpulse(x.impulse));
}

void solveJointAxis(SoftJointAxis& x, SoftBody& a, SoftBody& b, const Softness& joint, real sub, bool useBias) {
    if (x.type == JointType::SixDof && x.dof == orientationLock) {
        solveSliderLock(x, a, b, joint, useBias); // all three rotations locked: a slider's lock, and nothing moves
        return;
    }
    if (x.type == JointType::Slider) solveSliderLock(x, a, b, joint, useBias);
    else if (x.type == JointType::Hinge || (x.type == JointType::Wheel && !x.travel)) solveHingeLock(x, a, b, joint, useBias);
    else if (x.type == JointType::SwingTwist) {
        solveSwingDrive(x, a, b, sub); // the drive first: the cone has the last word
        solveCone(x, a, b, joint, sub, useBias);
    }
    // (a wheel's travel and a distance joint have no lock)
    const Dof d = dofNow(x, a, b);
    if (d.mass == 0) return; // nothing on either side can move along it
    const JointMotion& m = x.motion;
    std::array<real, 4>& p = x.impulse;
    const real at = coordinateNow(x, a, b);
    if (m.springHertz > 0 || m.springStiffness > 0) {
        // A physical spring, not a correction: it acts in the relaxing visits too.
        const Softness spring = springSoftness(m, d.mass, sub);
        const real stretch = slides(x) ? at - m.springTarget : wrap(at - m.springTarget);
        const real impulse = softImpulse(spring, d.mass, rate(d, a, b), stretch, p[springImpulse]);
        p[springImpulse] += impulse;
        push(d, a, b, impulse);
    }
    if (m.motor || m.friction > 0) {
        // Toward the motor's speed (friction: toward no relative motion), bounded by the
        // force over the substep.
        const real target = m.motor ? m.motorSpeed : real(0);
        const real most = (m.motor ? m.maxMotorForce : m.friction) * sub;
        const real impulse = -d.mass * (rate(d, a, b) - target);
        const real total = std::clamp(p[motorImpulse] + impulse, -most, most);
        push(d, a, b, total - p[motorImpulse]);
        p[motorImpulse] = total;
    }
    if (m.limited && x.type != JointType::Distance) { // a distance joint's limits are its two contacts
        solveLimit(at - m.lower, d, a, b, p[lowerImpulse], 1, joint, sub, useBias);
        solveLimit(m.upper - at, d, a, b, p[upperImpulse], -1, joint, sub, useBias);
    }
}

} // namespace jounce::detail
