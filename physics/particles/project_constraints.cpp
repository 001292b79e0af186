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
#include "physics/particles/sweep_levels.hpp"

#include <array>
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

void packDistances(const ParticleSystem& ps, const ParticleSettings& settings, real h,
                   const std::vector<std::uint8_t>& solvedDirectly, DistanceRows& out) {
    out.rows.clear();
    out.pbd = settings.solver == ParticleSolver::PBD;
    out.pbdStiffness = out.pbd ? 1 - std::pow(1 - settings.pbdStiffness, real(1) / static_cast<real>(settings.iterations)) : 0;
    for (std::size_t k = 0; k < ps.distances.slotCount(); ++k) {
        if (!ps.distances.isAlive(k) || (k < solvedDirectly.size() && solvedDirectly[k])) continue;
        const DistanceConstraint& d = ps.distances.atSlot(k);
        const real wa = ps.w[d.a], wb = ps.w[d.b];
        if (wa + wb == 0) continue; // both pinned: nothing can move
        out.rows.push_back({d.a, d.b, static_cast<std::uint32_t>(k), wa, wb, d.restLength, d.compliance / (h * h), 0});
    }
    // Level by level (sweep_levels.hpp): the same sweep, bit for bit, with independent
    // neighbours.
    orderSweep(
        ps.slotCount(), out.rows.size(),
        [&](std::size_t r) { return std::array<std::uint32_t, 2>{out.rows[r].a, out.rows[r].b}; }, out.levels);
    out.sorted.resize(out.rows.size());
    for (std::size_t k = 0; k < out.rows.size(); ++k) out.sorted[k] = out.rows[out.levels.order[k]];
    out.rows.swap(out.sorted);
}

void projectDistances(std::vector<Vec3>& p, DistanceRows& distances) {
    for (DistanceRow& d : distances.rows) {
        const Vec3 delta = p[d.a] - p[d.b];
        const real length = delta.norm();
        if (!(length > real(1e-12))) continue; // coincident: no direction to push along
        const Vec3 n = delta / length;         // grad_a C = n, grad_b C = -n
        const real c = length - d.restLength, weights = d.wa + d.wb;
        // multiplierChange's two forms, with alpha~ and k' worked out once in packDistances.
        const real dlambda = distances.pbd ? -distances.pbdStiffness * c / weights
                                           : (-c - d.alphaTilde * d.lambda) / (weights + d.alphaTilde);
        d.lambda += dlambda;
        p[d.a] += n * (d.wa * dlambda);
        p[d.b] -= n * (d.wb * dlambda);
    }
}

void storeDistanceMultipliers(ParticleSystem& ps, const DistanceRows& distances) {
    for (const DistanceRow& d : distances.rows) ps.distances.atSlot(d.slot).lambda = d.lambda;
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
