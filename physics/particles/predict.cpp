// SPDX-License-Identifier: MIT
// Prediction (Müller 2007, steps 5-7 of the loop): where each particle would go in the
// small step with no constraints. Euler (the survey's symplectic Euler, eq. 11-16):
// forces change the velocity and p = x + h v. BDF2 (survey eq. 19): the inertial
// position of the second-order backward difference, from the last two steps.

#include "common/parallel.hpp"
#include "physics/particles/stages.hpp"

#include <cmath>

namespace jounce::detail {
namespace {

/// Survey eq. 19 with x^n - x^(n-1) = h u (u: the last step's mean velocity):
/// x~ = x + h (u / 3 + 8/9 v^n - 2/9 v^(n-1) + 4/9 h a).
Vec3 bdf2Inertial(const ParticleSystem& ps, std::size_t i, const Vec3& a, real h) {
    return ps.x[i] + h * (ps.stepVelocity[i] / 3 + ps.v[i] * (real(8) / 9) - ps.previousVelocity[i] * (real(2) / 9) +
                          a * (h * 4 / 9));
}

/// A fresh history as if the particle had moved with the acceleration a for ever:
/// then BDF2 is exact for a projectile from its first step (x is quadratic in t).
void startHistory(ParticleSystem& ps, std::size_t i, const Vec3& a, real h) {
    ps.stepVelocity[i] = ps.v[i] - a * (h / 2);
    ps.previousVelocity[i] = ps.v[i] - a * h;
    ps.hasHistory[i] = 1;
}

} // namespace

void predictParticles(ParticleSystem& ps, const Vec3& gravity, real damping, real h, ParticleIntegrator integrator,
                      TaskSystem* tasks) {
    const real keep = std::exp(-damping * h); // v' = -damping v over h, exactly
    parallelShares(tasks, static_cast<std::uint32_t>(ps.slotCount()), 1024, [&](std::uint32_t begin, std::uint32_t end) {
        for (std::size_t i = begin; i < end; ++i) {
            if (!ps.isAlive(i)) continue;
            if (ps.w[i] == 0 || ps.asleep[i]) { // pinned, or its island sleeps
                ps.v[i].setZero();
                ps.p[i] = ps.x[i];
                ps.hasHistory[i] = 0;
                continue;
            }
            const Vec3 a = gravity + ps.w[i] * ps.force[i];
            if (integrator == ParticleIntegrator::BDF2) {
                if (!ps.hasHistory[i]) startHistory(ps, i, a, h);
                ps.v[i] *= keep;
                ps.p[i] = bdf2Inertial(ps, i, a, h);
                continue;
            }
            ps.v[i] += h * a;
            ps.v[i] *= keep;
            ps.p[i] = ps.x[i] + h * ps.v[i];
        }
    });
}

} // namespace jounce::detail
