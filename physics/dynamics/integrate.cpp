// SPDX-License-Identifier: MIT
// Stages 2 and 7 of the step: semi-implicit (symplectic) Euler for the Newton-Euler
// equations (seeds/000 eq. 1-4 and its "time integration" section):
//   stage 2 (integrateVelocities): v' = v + h f/m, w' as set by GyroscopicMode;
//   stage 6 (the contact resolver) changes v' and w' by the contact impulses;
//   stage 7 (integratePositions):  x' = x + h v', q' = q + h/2 [0, w'] q, |q'| = 1.
// The position half waits for the resolver so that the contact impulses are part of
// the velocity the body moves with, as every force is in symplectic Euler. Moving
// first (x' = x + h (v + h g)) would sink a resting box by g h^2 = 2.7 mm each step at
// 60 Hz before its contact is even found; the resolver could stop its velocity but
// not undo the move, and a column of 10 boxes settled 6 cm lower. This is the order of
// Millington's loop (ch. 16: positions move with the velocity the resolver left)
// and of Box2D's (collide, integrate velocities, solve, integrate positions).
// Damping multiplies velocities by exp(-c h), the exact solution of dv/dt = -c v over
// the substep, so a body keeps exp(-c t) of its velocity after t seconds whatever the
// step (Millington 10.2 uses d^h, with d = exp(-c), for the same reason).

#include "physics/dynamics/stages.hpp"
#include "common/parallel.hpp"
#include "common/validate.hpp"

#include <cmath>

namespace jounce::detail {

Mat3 bodyInverseInertia(const Mat3& inertia) {
    const Mat3 symmetric = (inertia + inertia.transpose()) / 2;
    // The inverse divides by the determinant, a product of three entries: for moments
    // of 1e-24 kg m^2 (validateInertia's floor) it underflows, so invert I / 2^k with
    // 2^k near the largest entry and divide by 2^k after. Scaling by a power of two
    // is exact: where nothing underflows the result is the plain inverse, bit for bit.
    const real scale = symmetric.cwiseAbs().maxCoeff();
    if (!(scale > 0)) return symmetric.inverse(); // not a valid inertia; validation rejects it
    const int k = std::ilogb(scale);
    return (symmetric * std::ldexp(real(1), -k)).inverse() * std::ldexp(real(1), -k);
}

namespace {

/// dL/dt = tau with L = I w in world space (eq. 3 rearranged: I w' + w x I w = tau).
/// Velocity half: L += h tau, and the angular velocity L gives now. Position half: the
/// body turns with the angular velocity L gives at the middle of the step (explicit
/// midpoint), and the new angular velocity is L seen through the new orientation's
/// inertia. L is kept to round-off; the midpoint keeps the energy error second order
/// (first order turning drifts ~60% in 10 s on the spinning test box at 120 Hz; the
/// midpoint 0.005%, and a quarter of that at 240 Hz).
Vec3 angularVelocityFromMomentum(const Body& b, const Quat& q, const Vec3& momentum) {
    const Mat3 r = q.toRotationMatrix();
    if (b.locks.anyAngular()) return lockedInverseInertia(r * b.inertiaBody * r.transpose(), b.locks) * momentum;
    return r * (b.inverseInertiaBody * (r.transpose() * momentum));
}

void turnConservingMomentum(Body& b, real h) {
    if (isotropicInertia(b)) { // L = I w turns with nothing: w stays as it is
        b.orientation = integrateOrientation(b.orientation, b.angularVelocity, h);
        return;
    }
    const Vec3 momentum = b.angularMomentum(); // includes this step's contact impulses
    const Quat half = integrateOrientation(b.orientation, angularVelocityFromMomentum(b, b.orientation, momentum), h / 2);
    b.orientation = integrateOrientation(b.orientation, angularVelocityFromMomentum(b, half, momentum), h);
    b.angularVelocity = angularVelocityFromMomentum(b, b.orientation, momentum);
}

/// w' = w + h I^-1 (tau - w x I w), eq. 3 of seeds/000 under symplectic Euler;
/// `gyroscopic` false drops the w x I w term as Millington's book does.
void accelerateExplicit(Body& b, real h, bool gyroscopic) {
    const Mat3 r = b.orientation.toRotationMatrix();
    Vec3 torque = b.torqueAccum;
    if (gyroscopic) {
        const Vec3 momentum = r * (b.inertiaBody * (r.transpose() * b.angularVelocity));
        torque -= b.angularVelocity.cross(momentum);
    }
    if (b.locks.anyAngular()) b.angularVelocity += h * (b.inverseInertiaWorld * torque); // the locked inverse
    else b.angularVelocity += h * (r * (b.inverseInertiaBody * (r.transpose() * torque)));
}

/// The accumulated impulses count as forces over this substep (f = J / h), so they
/// enter lastFrameAcceleration, whose planar part the resolver adds back to friction's
/// sliding velocity (the slope-creep fix, ch. 16.1) and whose normal part it keeps out of
/// the bounce of a contact met at the start of the step (ch. 15.1.2).
void accelerate(Body& b, const StepContext& ctx) {
    const real h = ctx.h;
    b.lastFrameAcceleration = (b.forceAccum + b.impulseAccum / h) * b.inverseMass;
    if (b.locks.anyLinear()) b.lastFrameAcceleration = b.lastFrameAcceleration.cwiseProduct(b.locks.linearFree()); // MotionLocks: none along a locked axis
    b.linearVelocity += h * b.lastFrameAcceleration;
    b.linearVelocity *= std::exp(-b.linearDamping * h);
    if (ctx.gyroscopic == GyroscopicMode::ConserveMomentum) {
        Vec3 momentum = b.angularMomentum() + h * b.torqueAccum + b.angularImpulseAccum;
        momentum *= std::exp(-b.angularDamping * h);
        b.angularVelocity = angularVelocityFromMomentum(b, b.orientation, momentum);
    } else {
        b.torqueAccum += b.angularImpulseAccum / h;
        accelerateExplicit(b, h, ctx.gyroscopic == GyroscopicMode::Explicit);
        b.angularVelocity *= std::exp(-b.angularDamping * h);
    }
    applyLocks(b.locks, b.linearVelocity, b.angularVelocity);
}

/// Speeds beyond maxSpeed (the bound every entry point enforces, 1e6 m/s and rad/s)
/// scaled back to it (common/validate.hpp). No physical limit, a guard: without it, in a
/// world already in trouble (constraints that fight each other beside a 1e30 kg body),
/// velocities grow tenfold per step until they overflow.
void limitSpeeds(Body& b) {
    limitSpeed(b.linearVelocity);
    limitSpeed(b.angularVelocity);
}

void move(Body& b, const StepContext& ctx) {
    if (b.type == BodyType::Dynamic) {
        applyLocks(b.locks, b.linearVelocity, b.angularVelocity); // what the solvers added along locked axes
        limitSpeeds(b);
    }
    b.position += ctx.h * b.linearVelocity;
    if (b.type == BodyType::Dynamic && ctx.gyroscopic == GyroscopicMode::ConserveMomentum)
        turnConservingMomentum(b, ctx.h);
    else
        b.orientation = integrateOrientation(b.orientation, b.angularVelocity, ctx.h);
    b.inverseInertiaWorld = worldInverseInertia(b);
}

} // namespace

void integrateVelocities(BodyArray& bodies, const StepContext& ctx, const std::vector<std::uint8_t>& solved, TaskSystem* tasks) {
    // Each body on its own: the bodies are shared among the workers, the same bits.
    parallelFor(tasks, static_cast<std::uint32_t>(bodies.slotCount()), bodiesPerRange, [&](std::uint32_t first, std::uint32_t last) {
        for (std::uint32_t i = first; i < last; ++i) {
            if (!bodies.isAlive(i)) continue;
            Body& b = bodies.atSlot(i);
            const bool done = i < solved.size() && solved[i];
            if (b.type == BodyType::Dynamic && b.awake && !done) accelerate(b, ctx);
            b.impulseAccum.setZero(); // a sleeping body's are dropped: it sleeps because nothing pushes it
            b.angularImpulseAccum.setZero();
        }
    });
}

void integratePositions(BodyArray& bodies, const StepContext& ctx, const std::vector<std::uint8_t>& skip,
                        const std::vector<real>& fraction, TaskSystem* tasks) {
    parallelFor(tasks, static_cast<std::uint32_t>(bodies.slotCount()), bodiesPerRange, [&](std::uint32_t first, std::uint32_t last) {
        for (std::uint32_t i = first; i < last; ++i) {
            if (!bodies.isAlive(i) || (i < skip.size() && skip[i])) continue;
            Body& b = bodies.atSlot(i);
            if (b.type != BodyType::Kinematic && !(b.type == BodyType::Dynamic && b.awake)) continue;
            integrateBodyPosition(b, ctx, i < fraction.size() ? fraction[i] : real(1));
        }
    });
}

void placeBody(Body& body, const Vec3& displacement, const Quat& rotation, real share) {
    if (!(share < 1)) {
        body.position += displacement;
        body.orientation = rotation * body.orientation;
    } else {
        body.position += share * displacement;
        body.orientation = Quat::Identity().slerp(share, rotation) * body.orientation;
    }
    body.orientation.normalize();
    body.inverseInertiaWorld = worldInverseInertia(body);
}

void integrateBodyPosition(Body& body, const StepContext& ctx, real fraction) {
    if (!(fraction < 1)) return move(body, ctx);
    StepContext shorter = ctx;
    shorter.h = ctx.h * fraction;
    move(body, shorter);
}

} // namespace jounce::detail
