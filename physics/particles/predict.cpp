// Prediction (Müller 2007, steps 5-7 of the loop; the survey's symplectic Euler):
// forces change the velocity, damping takes a share of it, and the predicted position
// p = x + h v is where the particle would go unconstrained.

#include "physics/particles/stages.hpp"

#include <cmath>

namespace jounce::detail {

void predictParticles(ParticleSystem& ps, const Vec3& gravity, real damping, real h) {
    const real keep = std::exp(-damping * h); // v' = -damping v over h, exactly
    for (std::size_t i = 0; i < ps.slotCount(); ++i) {
        if (!ps.isAlive(i)) continue;
        if (ps.w[i] == 0 || ps.asleep[i]) { // pinned, or its island sleeps
            ps.v[i].setZero();
            ps.p[i] = ps.x[i];
            continue;
        }
        ps.v[i] += h * (gravity + ps.w[i] * ps.force[i]);
        ps.v[i] *= keep;
        ps.p[i] = ps.x[i] + h * ps.v[i];
    }
}

} // namespace jounce::detail
