// SPDX-License-Identifier: MIT
#pragma once
/// \file step_context.hpp
/// How the rotational equations are integrated (a world setting) and the values every
/// stage of one substep reads (docs/architecture.md).

#include <jounce/common/math.hpp>

#include <cstdint>

namespace jounce {

/// How the rotational part of the Newton-Euler equations is integrated
/// (docs/physics.md compares them).
enum class GyroscopicMode : std::uint8_t {
    /// Default. Integrates dL/dt = tau, which is eq. 3 of seeds/000 written for the
    /// world angular momentum L = I w: L += h tau, the body turns with w = I^-1 L,
    /// then w = I'^-1 L in the new orientation. The gyroscopic term is then exact, so
    /// a torque-free body keeps L to round-off and the intermediate-axis flip appears.
    ConserveMomentum,
    /// The survey's symplectic Euler, w += h I^-1 (tau - w x I w). Explicit in the
    /// gyroscopic term: |L| grows by about (1 + h^2 |w x L|^2/|L|^2)^(1/2) each step.
    Explicit,
    /// Millington's book: w += h I^-1 tau, no gyroscopic term. Wrong for any body whose
    /// principal moments differ; kept so a learner can see the difference.
    None,
};

/// The per-substep values every stage needs, passed explicitly.
struct StepContext {
    real h = 0;            ///< substep length [s]
    int substep = 0;       ///< 0-based index within the step
    Vec3 gravity = Vec3::Zero();
    GyroscopicMode gyroscopic = GyroscopicMode::ConserveMomentum;
};

} // namespace jounce
