// SPDX-License-Identifier: MIT
// Projection of the internal constraints (Müller 2007 sec. 3.3; XPBD, survey eq. 22-24).
//
// For a constraint C(p) = 0 with gradient grad C, XPBD moves each particle by
//   dp_i = w_i grad_i C dlambda,  dlambda = (-C - alpha~ lambda) / (sum_j w_j |grad_j C|^2 + alpha~),
// with alpha~ = alpha / h^2 and lambda accumulated over the substep's iterations, so
// the constraint acts as a spring of stiffness 1/alpha whatever h and the iteration
// count are; lambda / h^2 is the force it exerts. PBD drops lambda and alpha and
// scales the full projection -C / sum w |grad C|^2 by a stiffness k' in (0, 1].

#include "physics/particles/distance_kernel.hpp"
#include "physics/particles/distance_lines.hpp"
#include "physics/particles/stages.hpp"
#include "physics/particles/sweep_levels.hpp"

#include <jounce/common/simd.hpp>

#include <array>
#include <cmath>
#include <cstring>

namespace jounce::detail {

real pbdStiffnessPerIteration(const ParticleSettings& settings) {
    return 1 - std::pow(1 - settings.pbdStiffness, real(1) / static_cast<real>(settings.iterations));
}

/// The multiplier change for a constraint of value c, summed weights `weights`
/// (sum w |grad C|^2) and accumulated lambda; PBD: a plain scaled projection.
real multiplierChange(real c, real weights, real compliance, real lambda, const ParticleSettings& settings, real h) {
    if (settings.solver == ParticleSolver::PBD) {
        const real k = pbdStiffnessPerIteration(settings);
        return -k * c / weights;
    }
    const real alphaTilde = compliance / (h * h);
    return (-c - alphaTilde * lambda) / (weights + alphaTilde);
}

namespace {

/// Calls row(isRigid, DistanceRow) for every distance constraint the sweeps solve, in
/// slot order: not those solved directly, nor those whose two ends are pinned. PBD has no
/// compliance: all its rows are rigid.
template <typename Row>
void forEachDistanceRow(const ParticleSystem& ps, const ParticleSettings& settings, real h,
                        const std::vector<std::uint8_t>& solvedDirectly, Row row) {
    for (std::size_t k = 0; k < ps.distances.slotCount(); ++k) {
        if (!ps.distances.isAlive(k) || (k < solvedDirectly.size() && solvedDirectly[k])) continue;
        const DistanceConstraint& d = ps.distances.atSlot(k);
        const real wa = ps.w[d.a], wb = ps.w[d.b];
        if (wa + wb == 0) continue; // both pinned: nothing can move
        row(!(settings.solver == ParticleSolver::XPBD && d.compliance > 0),
            DistanceRow{d.a, d.b, static_cast<std::uint32_t>(k), wa, wb, d.restLength, d.compliance / (h * h)});
    }
}

bool sameRow(const DistanceRow& a, const DistanceRow& b) {
    return a.a == b.a && a.b == b.b && a.slot == b.slot && sameReal(a.wa, b.wa) && sameReal(a.wb, b.wb) &&
           sameReal(a.restLength, b.restLength) && sameReal(a.alphaTilde, b.alphaTilde);
}

/// Whether listing the rows again gives exactly `compliant` and `rigid`, bit for bit.
bool sameListing(const ParticleSystem& ps, const ParticleSettings& settings, real h, const std::vector<std::uint8_t>& solvedDirectly,
                 const std::vector<DistanceRow>& compliant, const std::vector<DistanceRow>& rigid) {
    std::size_t nextCompliant = 0, nextRigid = 0;
    bool same = true;
    forEachDistanceRow(ps, settings, h, solvedDirectly, [&](bool isRigid, const DistanceRow& row) {
        if (!same) return;
        const std::vector<DistanceRow>& listed = isRigid ? rigid : compliant;
        std::size_t& next = isRigid ? nextRigid : nextCompliant;
        same = next < listed.size() && sameRow(row, listed[next]);
        ++next;
    });
    return same && nextCompliant == compliant.size() && nextRigid == rigid.size();
}

/// Whether a set's arrays are built for its listing (a pack that threw on the way left
/// them stale).
bool packed(const DistanceRows& rows) { return rows.size() == rows.listed.size() && rows.scale.size() == rows.listed.size(); }

bool sameDistanceRows(const std::vector<DistanceRow>& x, const std::vector<DistanceRow>& y) {
    if (x.size() != y.size()) return false;
    for (std::size_t k = 0; k < x.size(); ++k)
        if (!sameRow(x[k], y[k])) return false;
    return true;
}

/// Each row's multiplier change per unit of -(C + alpha~ lambda) (distance_rows.hpp).
void setDistanceScales(DistanceRows& out) {
    for (std::size_t k = 0; k < out.size(); ++k)
        out.scale[k] = out.pbd ? out.pbdStiffness / (out.wa[k] + out.wb[k]) : 1 / (out.wa[k] + out.wb[k] + out.alphaTilde[k]);
    out.scaledForPbd = out.pbd;
    out.scaledForStiffness = out.pbdStiffness;
}

/// Orders and packs one set's listing (out.fresh), or keeps the last pack if the listing
/// is the same.
void packListed(std::size_t particles, DistanceRows& out) {
    std::vector<DistanceRow>& fresh = out.fresh;
    // (The arrays' size too: a pack that threw after clearing the listing left them stale.)
    if (sameDistanceRows(fresh, out.listed) && out.size() == fresh.size() && out.scale.size() == fresh.size()) {
        // As last packed; the scales again only if the solver or k' changed.
        if (out.scaledForPbd != out.pbd || !sameReal(out.scaledForStiffness, out.pbdStiffness)) setDistanceScales(out);
        return;
    }
    const std::vector<DistanceRow>& listed = fresh;
    out.listed.clear(); // names no arrays until they are rebuilt (an allocation may throw on the way)
    // Colour by colour (sweep_levels.hpp): the rows of a colour share no particle.
    orderSweep(
        particles, listed.size(),
        [&](std::size_t r) { return std::array<std::uint32_t, 2>{listed[r].a, listed[r].b}; }, out.levels,
        sweepBlocks(listed.size()));
    const std::size_t rows = listed.size();
    for (auto* v : {&out.a, &out.b, &out.slot}) v->resize(rows);
    for (auto* v : {&out.wa, &out.wb, &out.restLength, &out.alphaTilde, &out.scale}) v->resize(rows);
    out.lambda.assign(rows, 0);
    for (std::size_t k = 0; k < rows; ++k) {
        const DistanceRow& d = listed[out.levels.order[k]];
        out.a[k] = d.a;
        out.b[k] = d.b;
        out.slot[k] = d.slot;
        out.wa[k] = d.wa;
        out.wb[k] = d.wb;
        out.restLength[k] = d.restLength;
        out.alphaTilde[k] = d.alphaTilde;
    }
    setDistanceScales(out);
    out.listed.swap(fresh); // last: the listing names the arrays only once they are built
}

} // namespace

void packDistances(const ParticleSystem& ps, const ParticleSettings& settings, real h,
                   const std::vector<std::uint8_t>& solvedDirectly, DistanceRows& compliant, DistanceRows& rigid,
                   DistanceLines* lines) {
    for (DistanceRows* set : {&compliant, &rigid}) {
        set->pbd = settings.solver == ParticleSolver::PBD;
        set->pbdStiffness = set->pbd ? pbdStiffnessPerIteration(settings) : 0;
        set->fresh.clear();
    }
    const bool byLines = lines != nullptr && settings.solveLines && settings.solver == ParticleSolver::XPBD;
    // What the rigid rows were last listed as: all of them when lines were found among
    // them, else the rows packed for the point sweep.
    const std::vector<DistanceRow>& rigidListed = byLines ? lines->foundAmong : rigid.listed;
    // Most steps list exactly what they listed last time: that is checked first, reading
    // the constraints alone (a cloth's 24 000 rows, listed afresh and compared, took 5 %
    // of its step), and then only the scales may need doing again.
    if (sameListing(ps, settings, h, solvedDirectly, compliant.listed, rigidListed) && packed(compliant) && packed(rigid) &&
        (!byLines || sameDistanceRows(rigid.listed, lines->rest))) {
        for (DistanceRows* set : {&compliant, &rigid})
            if (set->scaledForPbd != set->pbd || !sameReal(set->scaledForStiffness, set->pbdStiffness)) setDistanceScales(*set);
        if (!byLines && lines != nullptr) *lines = DistanceLines{}; // lines turned off: none solved (as below)
        return;
    }
    forEachDistanceRow(ps, settings, h, solvedDirectly, [&](bool isRigid, const DistanceRow& row) {
        (isRigid ? rigid : compliant).fresh.push_back(row);
    });
    // The rigid rows that form lines are solved by line (solve_lines.cpp), found again
    // only when the rigid rows change.
    if (byLines) {
        if (!sameDistanceRows(rigid.fresh, lines->foundAmong)) {
            findDistanceLines(rigid.fresh, ps.slotCount(), *lines);
            lines->foundAmong = rigid.fresh;
        }
        rigid.fresh = lines->rest;
    } else if (lines != nullptr) {
        *lines = DistanceLines{};
    }
    packListed(ps.slotCount(), compliant);
    packListed(ps.slotCount(), rigid);
}

void projectDistances(std::vector<Vec3>& p, DistanceRows& distances, TaskSystem* tasks) {
    static_assert(sizeof(Vec3) == 3 * sizeof(real), "positions are packed x y z triples");
    const DistanceRowView view{reinterpret_cast<real*>(p.data()),       distances.a.data(),          distances.b.data(),
                               distances.wa.data(),    distances.wb.data(),         distances.restLength.data(),
                               distances.alphaTilde.data(), distances.scale.data(), distances.lambda.data(),
                               distances.pbd};
    // The widest lanes the processor has (and limitSimd allows); each level's last
    // rows, fewer than a register holds, one at a time. Every width gives the same bits.
    const SimdLevel level = simdLevel();
    DistanceLanes wide = level == SimdLevel::Avx2 ? avx2DistanceLanes() : DistanceLanes{};
    if (wide.width == 0 && level >= SimdLevel::Sse2) wide = sse2DistanceLanes();
    // A colour's rows in shares of at least 192 (about 2 microseconds of work; handing a
    // share to a waiting worker costs about half a microsecond) on the workers.
    const auto lowest = [&](std::size_t r) { return std::min(distances.a[r], distances.b[r]); };
    sweepLevels(tasks, distances.levels, 192, lowest, [&](std::size_t begin, std::size_t end) {
        if (wide.width > 0) {
            const std::size_t full = begin + (end - begin) / static_cast<std::size_t>(wide.width) * static_cast<std::size_t>(wide.width);
            if (full > begin) wide.project(view, begin, full);
            begin = full;
        }
        DistanceKernel<ScalarLanes<real>>::project(view, begin, end);
    });
}

void storeDistanceMultipliers(ParticleSystem& ps, const DistanceRows& distances) {
    for (std::size_t k = 0; k < distances.size(); ++k) ps.distances.atSlot(distances.slot[k]).lambda = distances.lambda[k];
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
