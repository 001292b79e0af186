// Stage 2 of the step: semi-implicit (symplectic) Euler for the Newton-Euler
// equations (seeds/000 eq. 1-4 and its "time integration" section):
//   v' = v + h f/m,  x' = x + h v'
//   rotation as set by GyroscopicMode (world.hpp), then q' = q + h/2 [0, w] q, |q'| = 1.
// Damping multiplies velocities by d^h, so `d` is the share kept after one second
// whatever the step (Millington 10.2 uses d^h for the same reason).

#include "physics/stages.hpp"

#include <cmath>

namespace jounce::detail {

Quat integrateOrientation(const Quat& q, const Vec3& w, real h) {
    const Quat spin(0, w.x(), w.y(), w.z());
    Quat next = q;
    next.coeffs() += (h / 2) * (spin * q).coeffs();
    next.normalize();
    return next;
}

Mat3 worldInverseInertia(const Body& b) {
    const Mat3 r = b.orientation.toRotationMatrix();
    return r * b.inverseInertiaBody * r.transpose();
}

namespace {

void integrateKinematic(Body& b, real h) {
    b.position += h * b.linearVelocity;
    b.orientation = integrateOrientation(b.orientation, b.angularVelocity, h);
}

/// dL/dt = tau with L = I w in world space (eq. 3 rearranged: I w' + w x I w = tau).
/// L is updated first; the body then turns with the angular velocity L gives at the
/// middle of the step (explicit midpoint), and the new angular velocity is L seen
/// through the new orientation's inertia. L is kept to round-off; the midpoint keeps
/// the energy error second order (first order turning drifts ~60% in 10 s on the
/// spinning test box at 120 Hz; the midpoint 0.005%, and a quarter of that at 240 Hz).
Vec3 angularVelocityFromMomentum(const Body& b, const Quat& q, const Vec3& momentum) {
    const Mat3 r = q.toRotationMatrix();
    return r * (b.inverseInertiaBody * (r.transpose() * momentum));
}

void integrateRotationConservingMomentum(Body& b, real h) {
    Vec3 momentum = b.angularMomentum() + h * b.torqueAccum;
    momentum *= std::pow(b.angularDamping, h);
    const Quat half = integrateOrientation(b.orientation, angularVelocityFromMomentum(b, b.orientation, momentum), h / 2);
    b.orientation = integrateOrientation(b.orientation, angularVelocityFromMomentum(b, half, momentum), h);
    b.angularVelocity = angularVelocityFromMomentum(b, b.orientation, momentum);
}

/// w' = w + h I^-1 (tau - w x I w), eq. 3 of seeds/000 under symplectic Euler;
/// `gyroscopic` false drops the w x I w term as Millington's book does.
void integrateRotationExplicit(Body& b, real h, bool gyroscopic) {
    const Mat3 r = b.orientation.toRotationMatrix();
    Vec3 torque = b.torqueAccum;
    if (gyroscopic) {
        const Vec3 momentum = r * (b.inertiaBody * (r.transpose() * b.angularVelocity));
        torque -= b.angularVelocity.cross(momentum);
    }
    b.angularVelocity += h * (r * (b.inverseInertiaBody * (r.transpose() * torque)));
    b.angularVelocity *= std::pow(b.angularDamping, h);
    b.orientation = integrateOrientation(b.orientation, b.angularVelocity, h);
}

void integrateDynamic(Body& b, const StepContext& ctx) {
    const real h = ctx.h;
    b.lastFrameAcceleration = b.forceAccum * b.inverseMass;
    b.linearVelocity += h * b.lastFrameAcceleration;
    b.linearVelocity *= std::pow(b.linearDamping, h);
    b.position += h * b.linearVelocity;
    switch (ctx.gyroscopic) {
    case GyroscopicMode::ConserveMomentum: integrateRotationConservingMomentum(b, h); break;
    case GyroscopicMode::Explicit: integrateRotationExplicit(b, h, true); break;
    case GyroscopicMode::None: integrateRotationExplicit(b, h, false); break;
    }
}

} // namespace

void integrate(BodyArray& bodies, const StepContext& ctx) {
    for (std::size_t i = 0; i < bodies.slotCount(); ++i) {
        if (!bodies.isAlive(i)) continue;
        Body& b = bodies.atSlot(i);
        if (b.type == BodyType::Static) continue;
        if (b.type == BodyType::Kinematic) {
            integrateKinematic(b, ctx.h);
        } else if (b.awake) {
            integrateDynamic(b, ctx);
        } else {
            continue;
        }
        b.inverseInertiaWorld = worldInverseInertia(b);
    }
}

} // namespace jounce::detail
