// SPDX-License-Identifier: MIT
// Projection of the constraints on three or four particles: dihedral and isometric
// bending, tetrahedral volume and triangle area (survey seeds/000, "specific
// constraints"). Each kind gives its value C and gradients grad_i C; one XPBD update
// (project_constraints.cpp's multiplierChange) moves the particles by
// dp_i = w_i grad_i C dlambda.

#include "physics/particles/small_kernel.hpp"
#include "physics/particles/stages.hpp"

#include <jounce/common/simd.hpp>

#include <cmath>
#include <numbers>

namespace jounce::detail {
namespace {

constexpr real tiny = real(1e-12);

/// Wraps an angle difference into (-pi, pi] so a fold past the flat state does not
/// read as a jump of 2 pi.
real wrapAngle(real a) {
    constexpr real pi = std::numbers::pi_v<real>;
    while (a > pi) a -= 2 * pi;
    while (a <= -pi) a += 2 * pi;
    return a;
}

} // namespace

bool bendingAngle(const std::array<Vec3, 4>& x, real& theta, std::array<Vec3, 4>& grad) {
    // Triangles (a, b, c) and (b, a, d) share the edge e = b - a. n1, n2: their unit
    // normals; theta: the signed angle from n1 to n2 about e (0 when flat), from atan2,
    // which stays smooth at 0 where acos(n1 . n2) does not (Müller 2007's bending
    // constraint has an infinite gradient there).
    const Vec3 e = x[1] - x[0];
    const Vec3 N1 = e.cross(x[2] - x[0]);
    const Vec3 N2 = (x[0] - x[1]).cross(x[3] - x[1]);
    const real length = e.norm(), a1 = N1.squaredNorm(), a2 = N2.squaredNorm();
    if (!(length > tiny) || !(a1 > tiny * tiny) || !(a2 > tiny * tiny)) return false;
    const Vec3 n1 = N1 / std::sqrt(a1), n2 = N2 / std::sqrt(a2), axis = e / length;
    theta = std::atan2(n1.cross(n2).dot(axis), n1.dot(n2));
    // A wing turning about the edge turns its normal with it: moving c by delta along
    // n1 turns triangle 1 by delta / h_c (h_c = |N1| / |e|, c's height over the edge)
    // and theta back by as much; likewise d. The edge's ends take the rest so that the
    // gradients sum to zero and exert no torque (Bridson et al. 2003): the share of each
    // wing's gradient is where its foot lies along the edge.
    grad[2] = n1 * (-length / std::sqrt(a1));
    grad[3] = n2 * (-length / std::sqrt(a2));
    const real tc = (x[2] - x[0]).dot(axis) / length, td = (x[3] - x[0]).dot(axis) / length;
    grad[0] = -(1 - tc) * grad[2] - (1 - td) * grad[3];
    grad[1] = -tc * grad[2] - td * grad[3];
    return true;
}

std::array<real, 4> isometricBendingCoefficients(const std::array<Vec3, 4>& x) {
    // Stencil: shared edge x0-x1, wings x2 (triangle x0 x1 x2) and x3 (triangle x0 x3 x1).
    // K holds cotangents of the angles at the edge's ends (survey, isometric bending):
    // K = (cot a1 + cot a1', cot a0 + cot a0', -(cot a1 + cot a0), -(cot a1' + cot a0'))
    // with a0, a1 the angles at x0, x1 in triangle 1, primed in triangle 2. sum K_i x_i
    // vanishes for any flat stencil, so a flat cloth has no bending energy.
    const auto cotangent = [](const Vec3& at, const Vec3& u, const Vec3& v) {
        const Vec3 a = u - at, b = v - at;
        return a.dot(b) / std::max(a.cross(b).norm(), tiny);
    };
    const real a0 = cotangent(x[0], x[1], x[2]), a1 = cotangent(x[1], x[0], x[2]);
    const real b0 = cotangent(x[0], x[1], x[3]), b1 = cotangent(x[1], x[0], x[3]);
    const real area0 = real(0.5) * (x[1] - x[0]).cross(x[2] - x[0]).norm();
    const real area1 = real(0.5) * (x[1] - x[0]).cross(x[3] - x[0]).norm();
    // Q = 3 / (A0 + A1) K^T K is rank one: keep c = sqrt(3 / (A0 + A1)) K.
    const real scale = std::sqrt(real(3) / std::max(area0 + area1, tiny));
    return {scale * (a1 + b1), scale * (a0 + b0), -scale * (a1 + a0), -scale * (b1 + b0)};
}

bool constraintValue(const ParticleConstraint& k, const std::array<Vec3, 4>& x, real& value, std::array<Vec3, 4>& grad) {
    switch (k.kind) {
    case ParticleConstraintKind::Bending: {
        real theta = 0;
        if (!bendingAngle(x, theta, grad)) return false;
        value = wrapAngle(theta - k.rest);
        return true;
    }
    case ParticleConstraintKind::IsometricBending: {
        // C = 1/2 |s|^2 with s = sum_j c_j x_j; grad_i C = c_i s.
        Vec3 s = Vec3::Zero();
        for (int i = 0; i < 4; ++i) s += k.c[i] * x[i];
        value = real(0.5) * s.squaredNorm();
        for (int i = 0; i < 4; ++i) grad[i] = k.c[i] * s;
        return true;
    }
    case ParticleConstraintKind::TetVolume: {
        // V = 1/6 (x_b - x_a) x (x_c - x_a) . (x_d - x_a); each gradient is 1/6 the
        // cross product of the other two edges from a (the opposite face's area normal / 3).
        // (Products with the rounded 1/6: the SIMD lanes' arithmetic, small_kernel.hpp.)
        constexpr real sixth = real(1) / 6;
        const Vec3 e1 = x[1] - x[0], e2 = x[2] - x[0], e3 = x[3] - x[0];
        value = e1.cross(e2).dot(e3) * sixth - k.rest;
        grad[1] = e2.cross(e3) * sixth;
        grad[2] = e3.cross(e1) * sixth;
        grad[3] = e1.cross(e2) * sixth;
        grad[0] = -(grad[1] + grad[2] + grad[3]);
        return true;
    }
    case ParticleConstraintKind::TriangleArea: {
        const Vec3 e1 = x[1] - x[0], e2 = x[2] - x[0], N = e1.cross(e2);
        const real twice = N.norm();
        if (!(twice > tiny)) return false; // collapsed: no direction to restore along
        const Vec3 n = N / twice;
        value = real(0.5) * twice - k.rest;
        grad[1] = real(0.5) * e2.cross(n);
        grad[2] = real(0.5) * n.cross(e1);
        grad[0] = -(grad[1] + grad[2]);
        grad[3].setZero();
        return true;
    }
    }
    return false;
}

namespace {

/// Which arrays a constraint's row uses: 0 tetrahedra, 1 isometric bending, 2 the
/// scalar path (the other kinds, and any stencil that names a particle twice: its
/// corners would be gathered and scattered as if they were different particles).
std::uint8_t rowKind(const ParticleConstraint& k) {
    const bool laned = k.count == 4 && (k.kind == ParticleConstraintKind::TetVolume || k.kind == ParticleConstraintKind::IsometricBending);
    if (!laned) return 2;
    for (int i = 0; i < 4; ++i)
        for (int j = i + 1; j < 4; ++j)
            if (k.p[i] == k.p[j]) return 2;
    return k.kind == ParticleConstraintKind::TetVolume ? 0 : 1;
}

/// What the pack reads of constraint `slot` (the numbers only for the lane kinds).
SmallRows::Listed listRow(const ParticleSystem& ps, std::uint32_t slot, real h) {
    const ParticleConstraint& k = ps.constraints.atSlot(slot);
    SmallRows::Listed e;
    e.slot = slot;
    e.p = k.p;
    e.count = k.count;
    e.kind = rowKind(k);
    if (e.kind == 2) return e;
    for (std::size_t i = 0; i < 4; ++i) {
        e.w[i] = ps.w[k.p[i]];
        e.c[i] = k.c[i];
    }
    e.rest = k.rest;
    e.alphaTilde = k.compliance / (h * h);
    return e;
}

bool sameListing(const std::vector<SmallRows::Listed>& x, const std::vector<SmallRows::Listed>& y) {
    if (x.size() != y.size()) return false;
    for (std::size_t r = 0; r < x.size(); ++r) {
        const SmallRows::Listed &a = x[r], &b = y[r];
        if (a.slot != b.slot || a.p != b.p || a.count != b.count || a.kind != b.kind || !sameReal(a.rest, b.rest) ||
            !sameReal(a.alphaTilde, b.alphaTilde))
            return false;
        for (std::size_t i = 0; i < 4; ++i)
            if (!sameReal(a.w[i], b.w[i]) || !sameReal(a.c[i], b.c[i])) return false;
    }
    return true;
}

/// A listed constraint's values at place `at` of the arrays.
void fillRow(const SmallRows::Listed& e, std::size_t at, SmallRows& out) {
    for (std::size_t i = 0; i < 4; ++i) {
        out.p[i][at] = e.p[i];
        out.w[i][at] = e.w[i];
        out.c[i][at] = e.c[i];
    }
    out.rest[at] = e.rest;
    out.alphaTilde[at] = e.alphaTilde;
}

} // namespace

void packSmallConstraints(const ParticleSystem& ps, const ParticleSettings& settings, real h, SmallRows& out) {
    out.pbd = settings.solver == ParticleSolver::PBD;
    out.pbdStiffness = out.pbd ? pbdStiffnessPerIteration(settings) : 0;
    std::vector<SmallRows::Listed>& fresh = out.fresh;
    fresh.clear();
    for (std::size_t s = 0; s < ps.constraints.slotCount(); ++s)
        if (ps.constraints.isAlive(s)) fresh.push_back(listRow(ps, static_cast<std::uint32_t>(s), h));
    if (sameListing(fresh, out.listed)) return; // as last packed
    const std::vector<SmallRows::Listed>& listed = fresh;
    out.listed.clear(); // names no arrays until they are rebuilt (an allocation may throw on the way)
    orderSweep(
        ps.slotCount(), listed.size(),
        [&](std::size_t r) { return std::span<const std::uint32_t>(listed[r].p.data(), listed[r].count); }, out.levels,
        sweepBlocks(listed.size()));
    // Within each level, by kind (a stable partition: the colour's order within each).
    const std::size_t rows = listed.size();
    out.sequence.resize(rows);
    // The other kinds' entries (never read by a kernel) name a live particle (a
    // constraint's) and carry no weight.
    const std::uint32_t live = rows > 0 ? listed[0].p[0] : 0;
    for (auto& v : out.p) v.assign(rows, live);
    for (auto* v : {&out.w[0], &out.w[1], &out.w[2], &out.w[3], &out.c[0], &out.c[1], &out.c[2], &out.c[3], &out.rest, &out.alphaTilde})
        v->assign(rows, 0);
    out.lambda.assign(rows, 0);
    const std::vector<std::uint32_t>& start = out.levels.levelStart;
    const std::size_t levels = start.empty() ? 0 : start.size() - 1;
    out.levelStart.assign(start.begin(), start.end());
    out.tetEnd.resize(levels);
    out.bendEnd.resize(levels);
    for (std::size_t level = 0; level < levels; ++level) {
        std::size_t at = start[level];
        for (std::uint8_t kind = 0; kind < 3; ++kind) {
            for (std::size_t r = start[level]; r < start[level + 1]; ++r) {
                const SmallRows::Listed& e = listed[out.levels.order[r]];
                if (e.kind != kind) continue;
                out.sequence[at] = e.slot;
                if (kind < 2) fillRow(e, at, out);
                ++at;
            }
            if (kind == 0) out.tetEnd[level] = static_cast<std::uint32_t>(at);
            if (kind == 1) out.bendEnd[level] = static_cast<std::uint32_t>(at);
        }
    }
    out.listed.swap(fresh); // last: the listing names the arrays only once they are built
}

namespace {

/// One constraint of any kind from its own record (the kinds the lanes do not take).
void projectOne(ParticleSystem& ps, ParticleConstraint& k, const ParticleSettings& settings, real h) {
    std::array<Vec3, 4> x, grad;
    for (int i = 0; i < 4; ++i) x[i] = ps.p[k.p[i]];
    real value = 0;
    if (!constraintValue(k, x, value, grad)) return;
    real weights = 0;
    for (int i = 0; i < k.count; ++i) weights += ps.w[k.p[i]] * grad[i].squaredNorm();
    if (!(weights > minWeights)) return;
    const real dlambda = multiplierChange(value, weights, k.compliance, k.lambda, settings, h);
    k.lambda += dlambda;
    for (int i = 0; i < k.count; ++i) ps.p[k.p[i]] += grad[i] * (ps.w[k.p[i]] * dlambda);
}

using Sweep = void (*)(const SmallRowView&, std::size_t, std::size_t);

/// Rows [begin, end) of one kind in one level, in the widest lanes there are.
void projectLanes(const SmallRowView& view, std::size_t begin, std::size_t end, Sweep wide, Sweep one) {
    (wide != nullptr ? wide : one)(view, begin, end);
}

} // namespace

void projectSmallConstraints(ParticleSystem& ps, const ParticleSettings& settings, real h, SmallRows& rows, TaskSystem* tasks) {
    static_assert(sizeof(Vec3) == 3 * sizeof(real), "positions are packed x y z triples");
    SmallRowView view;
    view.p = reinterpret_cast<real*>(ps.p.data());
    for (std::size_t i = 0; i < 4; ++i) {
        view.index[i] = rows.p[i].data();
        view.w[i] = rows.w[i].data();
        view.c[i] = rows.c[i].data();
    }
    view.rest = rows.rest.data();
    view.alphaTilde = rows.alphaTilde.data();
    view.lambda = rows.lambda.data();
    view.pbd = rows.pbd;
    view.pbdStiffness = rows.pbdStiffness;
    // The widest lanes the processor has (and limitSimd allows). Every width gives the same bits.
    const SimdLevel level = simdLevel();
    SmallLanes wide = level == SimdLevel::Avx2 ? avx2SmallLanes() : SmallLanes{};
    if (wide.width == 0 && level >= SimdLevel::Sse2) wide = sse2SmallLanes();
    using One = SmallKernel<ScalarLanes<real>>;
    // A colour's tetrahedra and bending stencils in shares of at least 48 on the workers
    // (about 30 ns each), the other kinds one at a time after them.
    const auto lowest = [&](std::size_t r) { return std::min(std::min(rows.p[0][r], rows.p[1][r]), std::min(rows.p[2][r], rows.p[3][r])); };
    // Each colour's kinds are stages of their own (a share is rows of one kind); a sweep
    // cut into blocks (sweep_levels.hpp) is a share per block instead.
    enum Pass : std::uint32_t { Tetrahedra, Bending, OneAtATime, Levels };
    const auto tetrahedra = [&](std::size_t begin, std::size_t end) { projectLanes(view, begin, end, wide.tetrahedra, &One::tetrahedra); };
    const auto bending = [&](std::size_t begin, std::size_t end) { projectLanes(view, begin, end, wide.bending, &One::bending); };
    const auto oneAtATime = [&](std::size_t begin, std::size_t end) {
        for (std::size_t r = begin; r < end; ++r) projectOne(ps, ps.constraints.atSlot(rows.sequence[r]), settings, h);
    };
    const std::uint32_t workers = tasks == nullptr ? 1 : tasks->workerCount();
    const auto planColour = [&](std::size_t l) {
        planLevel(workers, rows.levelStart[l], rows.tetEnd[l], 48, Tetrahedra, rows.levels, lowest);
        planLevel(workers, rows.tetEnd[l], rows.bendEnd[l], 48, Bending, rows.levels, lowest);
        planLevel(1, rows.bendEnd[l], rows.levelStart[l + 1], 1, OneAtATime, rows.levels, lowest);
    };
    startPlan(rows.levels);
    if (workers > 1 && rows.levels.blockCount() > 1) planBlocks(rows.levels, Levels, planColour); // a share per block (sweep_levels.hpp)
    else
        for (std::size_t l = 0; l < rows.tetEnd.size(); ++l) planColour(l);
    runPlan(tasks, rows.levels, [&](const SweepLevels::Share& share) {
        if (share.pass == Tetrahedra) tetrahedra(share.begin, share.end);
        else if (share.pass == Bending) bending(share.begin, share.end);
        else if (share.pass == OneAtATime) oneAtATime(share.begin, share.end);
        else
            for (std::uint32_t l = share.begin; l < share.end; ++l) {
                tetrahedra(rows.levelStart[l], rows.tetEnd[l]);
                bending(rows.tetEnd[l], rows.bendEnd[l]);
                oneAtATime(rows.bendEnd[l], rows.levelStart[l + 1]);
            }
    });
}

void storeSmallMultipliers(ParticleSystem& ps, const SmallRows& rows) {
    for (std::size_t l = 0; l < rows.tetEnd.size(); ++l)
        for (std::size_t r = rows.levelStart[l]; r < rows.bendEnd[l]; ++r) ps.constraints.atSlot(rows.sequence[r]).lambda = rows.lambda[r];
}

} // namespace jounce::detail
