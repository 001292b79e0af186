// SPDX-License-Identifier: MIT
// Projection of the internal constraints (Müller 2007 sec. 3.3; XPBD, survey eq. 22-24).
//
// For a constraint C(p) = 0 with gradient grad C, XPBD moves each particle by
//   dp_i = w_i grad_i C dlambda,  dlambda = (-C - alpha~ lambda) / (sum_j w_j |grad_j C|^2 + alpha~),
// with alpha~ = alpha / h^2 and lambda accumulated over the substep's iterations, so
// the constraint acts as a spring of stiffness 1/alpha whatever h and the iteration
// count are; lambda / h^2 is the force it exerts. PBD drops lambda and alpha and
// scales the full projection -C / sum w |grad C|^2 by a stiffness k' in (0, 1].

#include "physics/particles/stages.hpp"

#include <cmath>

namespace jounce::detail {

/// The multiplier change for a constraint of value c, summed weights `weights`
/// (sum w |grad C|^2) and accumulated lambda; PBD: a plain scaled projection.
real multiplierChange(real c, real weights, real compliance, real lambda, const ParticleSettings& settings, real h) {
    if (settings.solver == ParticleSolver::PBD) {
        // k' = 1 - (1 - k)^(1/n): n projections with k' take (1 - k) of the error away
        // in total, as one with k would (seeds/002).
        const real k = 1 - std::pow(1 - settings.pbdStiffness, real(1) / static_cast<real>(settings.iterations));
        return -k * c / weights;
    }
    const real alphaTilde = compliance / (h * h);
    return (-c - alphaTilde * lambda) / (weights + alphaTilde);
}

void projectDistances(ParticleSystem& ps, const ParticleSettings& settings, real h,
                      const std::vector<std::uint8_t>& solvedDirectly) {
    for (std::size_t k = 0; k < ps.distances.slotCount(); ++k) {
        if (!ps.distances.isAlive(k) || (k < solvedDirectly.size() && solvedDirectly[k])) continue;
        DistanceConstraint& d = ps.distances.atSlot(k);
        const real wa = ps.w[d.a], wb = ps.w[d.b];
        if (wa + wb == 0) continue;
        const Vec3 delta = ps.p[d.a] - ps.p[d.b];
        const real length = delta.norm();
        if (!(length > real(1e-12))) continue; // coincident: no direction to push along
        const Vec3 n = delta / length;         // grad_a C = n, grad_b C = -n
        const real dlambda = multiplierChange(length - d.restLength, wa + wb, d.compliance, d.lambda, settings, h);
        d.lambda += dlambda;
        ps.p[d.a] += n * (wa * dlambda);
        ps.p[d.b] -= n * (wb * dlambda);
    }
}

void projectAttachments(ParticleSystem& ps, BodyArray& bodies, const ParticleSettings& settings, real h) {
    for (std::size_t k = 0; k < ps.attachments.slotCount(); ++k) {
        if (!ps.attachments.isAlive(k)) continue;
        ParticleAttachment& a = ps.attachments.atSlot(k);
        const real w = ps.w[a.particle];
        if (w == 0) continue;
        const Vec3 target = a.target.body.isNull() ? a.target.point : bodies[a.target.body].origin().toWorld(a.target.point);
        const Vec3 delta = ps.p[a.particle] - target;
        const real length = delta.norm();
        if (!(length > real(1e-12))) continue;
        const Vec3 n = delta / length;
        // A dynamic, awake body shares the pull by its generalized inverse mass.
        Body* body = a.target.body.isNull() ? nullptr : &bodies.slots()[a.target.body.index];
        const bool coupled = body != nullptr && body->isDynamic() && body->awake;
        const real weights = w + (coupled ? generalizedInverseMass(*body, target, n) : real(0));
        const real dlambda = multiplierChange(length - a.restLength, weights, a.compliance, a.lambda, settings, h);
        a.lambda += dlambda;
        ps.p[a.particle] += n * (w * dlambda);
        if (coupled) pushBody(*body, target, n * -dlambda, h, true);
    }
}

} // namespace jounce::detail
