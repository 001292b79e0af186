// SPDX-License-Identifier: MIT
#pragma once
// Soft constraints (Catto, "Soft Step", GDC 2011 and Solver2D 2024; the soft step of
// Box2D v3 and Box3D): a velocity constraint that behaves as a damped spring of natural
// frequency f [Hz] and damping ratio zeta, integrated implicitly, so it is stable at
// any stiffness and step. The building block of the substepped solver of issue 28.
//
// For a constraint C with effective mass m, the spring k = m w^2 and damper c = 2 m zeta w
// (w = 2 pi f) integrated by implicit Euler over a step h give the impulse
//     dlambda = -m (massScale (v + biasRate C)) - impulseScale lambda,
// with a1 = 2 zeta + h w, a2 = h w a1, a3 = 1 / (1 + a2) and
//     biasRate = w / a1,  massScale = a2 a3,  impulseScale = a3,
// where v is the constraint's velocity before the impulse and lambda the impulse it has
// accumulated in this step (the last term keeps the total what the spring asks for when
// the constraint is visited more than once). One visit from rest reproduces implicit
// Euler exactly: v1 = (v0 - h w^2 C) / (1 + 2 zeta w h + h^2 w^2).

#include <jounce/common/math.hpp>

#include <numbers>

namespace jounce::detail {

struct Softness {
    real biasRate = 0;      ///< [1/s]: the velocity asked for per unit of error
    real massScale = 1;     ///< share of the rigid impulse
    real impulseScale = 0;  ///< share of the accumulated impulse taken back
};

/// The softness of a spring of `hertz` and `dampingRatio` over a step of `h`; hertz 0:
/// a rigid constraint (no bias, the whole rigid impulse).
inline Softness makeSoft(real hertz, real dampingRatio, real h) {
    if (hertz == 0) return {};
    const real omega = 2 * std::numbers::pi_v<real> * hertz;
    const real a1 = 2 * dampingRatio + h * omega;
    const real a2 = h * omega * a1;
    const real a3 = 1 / (1 + a2);
    return {omega / a1, a2 * a3, a3};
}

/// The impulse one visit applies: `effectiveMass` m, constraint velocity `velocity`,
/// error `error` (C) and the impulse accumulated so far this step.
inline real softImpulse(const Softness& s, real effectiveMass, real velocity, real error, real accumulated) {
    return -effectiveMass * s.massScale * (velocity + s.biasRate * error) - s.impulseScale * accumulated;
}

} // namespace jounce::detail
