// After the projection (Müller 2007, steps 12-16): the velocity is what the position
// did, v = (p - x) / h, and x takes p. Then the velocity pass: a contact that closed
// faster than the restitution threshold leaves with -e times its closing speed
// (bounceParticles).

#include "physics/particles/stages.hpp"

namespace jounce::detail {

void updateParticleVelocities(ParticleSystem& ps, real h) {
    for (std::size_t i = 0; i < ps.slotCount(); ++i) {
        if (!ps.isAlive(i) || ps.w[i] == 0) continue;
        ps.v[i] = (ps.p[i] - ps.x[i]) / h;
        ps.x[i] = ps.p[i];
    }
}

void bounceParticles(ParticleSystem& ps, const std::vector<ParticleContact>& contacts, const ParticleSettings& settings,
                     real h) {
    for (const ParticleContact& c : contacts) {
        if (c.restitution <= 0 || -c.normalVelocity < settings.restitutionThreshold) continue;
        if (c.b != ParticleContact::none) {
            // A pair candidate bounces only once it touches.
            const real reach = ps.radius[c.a] + ps.radius[c.b] + real(1e-6);
            if ((ps.x[c.a] - ps.x[c.b]).squaredNorm() > reach * reach) continue;
        }
        // Only a contact still touching bounces: its particle was stopped along n.
        const real vn = c.b == ParticleContact::none ? ps.v[c.a].dot(c.n) - c.surfaceMotion.dot(c.n) / h
                                                     : (ps.v[c.a] - ps.v[c.b]).dot(c.n);
        const real gain = -c.restitution * c.normalVelocity - vn;
        if (!(gain > 0)) continue;
        if (c.b == ParticleContact::none) {
            ps.v[c.a] += c.n * gain;
            continue;
        }
        const real wa = ps.w[c.a], wb = ps.w[c.b], total = wa + wb;
        if (!(total > 0)) continue;
        ps.v[c.a] += c.n * (gain * wa / total);
        ps.v[c.b] -= c.n * (gain * wb / total);
    }
}

} // namespace jounce::detail
