// Particles against the triangles of particle surfaces (cloth self-collision, grains on
// a cloth): the survey's "triangle collision", C = s (q - x1) . n - h >= 0, a one-sided
// constraint that keeps the point q on the side s of triangle (x1, x2, x3) it started
// the small step on, at least h from the triangle's plane.
//
// Candidates (once per world substep): the broad phase already pairs each surface's
// group proxy with the proxies near it; the surface's own particles and those of the
// paired proxies are swept (sort and sweep on x) against its triangles' boxes. This
// is the mid phase a mesh shape would have, not a second broad phase.
//
// Each small step keeps the candidates whose point is near its triangle's plane and
// over the triangle; each iteration projects them with n held fixed in the gradient
// and the correction spread over the corners by q's barycentric weights b_i (Bridson
// et al. 2002): grad_q = s n, grad_xi = -b_i s n, which sum to zero, so the
// correction keeps linear momentum.

#include "physics/particles/stages.hpp"

#include "physics/stages.hpp"

#include <algorithm>
#include <cmath>
#include <span>

namespace jounce::detail {
namespace {

/// The triangle's unit normal, false when it has collapsed to a line or a point.
bool triangleNormal(const Vec3& x0, const Vec3& x1, const Vec3& x2, Vec3& n) {
    const Vec3 e1 = x1 - x0, e2 = x2 - x0;
    n = e1.cross(e2);
    const real area2 = n.norm();
    if (!(area2 > real(1e-6) * std::max(e1.squaredNorm(), e2.squaredNorm()))) return false;
    n /= area2;
    return true;
}

/// Barycentric weights of the point q (in the triangle's plane) in (x0, x1, x2).
Vec3 barycentric(const Vec3& x0, const Vec3& x1, const Vec3& x2, const Vec3& q) {
    const Vec3 e1 = x1 - x0, e2 = x2 - x0, d = q - x0;
    const real d11 = e1.dot(e1), d12 = e1.dot(e2), d22 = e2.dot(e2), dq1 = d.dot(e1), dq2 = d.dot(e2);
    const real det = d11 * d22 - d12 * d12;
    const real b1 = (d22 * dq1 - d12 * dq2) / det, b2 = (d11 * dq2 - d12 * dq1) / det;
    return {1 - b1 - b2, b1, b2};
}

/// Particles of `list` (sorted by their fat boxes' min x) against the surface's
/// triangles whose boxes overlap theirs, skipping a triangle's own corners.
void sweepTriangles(const ParticleSystem& ps, std::uint32_t surfaceSlot, std::span<const std::uint32_t> list,
                    std::vector<ParticleTrianglePair>& out) {
    const ParticleSurface& surface = ps.surfaces.atSlot(surfaceSlot);
    std::vector<Aabb> boxes(surface.triangles.size());
    std::vector<std::pair<real, std::uint32_t>> order(surface.triangles.size());
    for (std::uint32_t t = 0; t < surface.triangles.size(); ++t) {
        Aabb& box = boxes[t];
        for (const std::uint32_t i : surface.triangles[t]) {
            box.min = box.min.cwiseMin(ps.fatBox[i].min);
            box.max = box.max.cwiseMax(ps.fatBox[i].max);
        }
        box.min -= Vec3::Constant(surface.thickness);
        box.max += Vec3::Constant(surface.thickness);
        order[t] = {box.min.x(), t};
    }
    std::sort(order.begin(), order.end());
    std::size_t start = 0;
    for (const std::uint32_t i : list) {
        const Aabb& box = ps.fatBox[i];
        while (start < order.size() && boxes[order[start].second].max.x() < box.min.x() && order[start].first <= box.min.x())
            ++start;
        for (std::size_t k = start; k < order.size() && order[k].first <= box.max.x(); ++k) {
            const std::uint32_t t = order[k].second;
            const auto& corners = surface.triangles[t];
            if (corners[0] == i || corners[1] == i || corners[2] == i || !boxes[t].overlaps(box)) continue;
            out.push_back({i, surfaceSlot, t});
        }
    }
}

} // namespace

void findSurfaceCandidates(const ParticleSystem& ps, const std::vector<BroadPhaseProxy>& proxies,
                           const std::vector<ProxyPair>& pairs, ParticleCandidates& out) {
    out.triangles.clear();
    if (ps.surfaces.size() == 0) return;
    const auto membersOf = [&](std::uint32_t proxy) {
        const std::uint32_t k = proxy - out.firstProxy;
        return std::span<const std::uint32_t>(out.members.data() + out.memberStart[k], out.memberStart[k + 1] - out.memberStart[k]);
    };
    const auto proxyCount = static_cast<std::uint32_t>(out.memberStart.size() - 1);
    std::vector<std::uint32_t> list;
    for (std::uint32_t s = 0; s < ps.surfaces.slotCount(); ++s) {
        if (!ps.surfaces.isAlive(s)) continue;
        // The surface's group proxy (addParticleProxies made one per non-zero group).
        std::uint32_t own = ~std::uint32_t(0);
        for (std::uint32_t k = 0; k < proxyCount && own == ~std::uint32_t(0); ++k)
            if (proxies[out.firstProxy + k].group == ps.surfaces.atSlot(s).group) own = out.firstProxy + k;
        if (own == ~std::uint32_t(0)) continue;
        const std::span<const std::uint32_t> members = membersOf(own);
        list.assign(members.begin(), members.end());
        for (const ProxyPair& pair : pairs) {
            if (pair.a < out.firstProxy || pair.b < out.firstProxy) continue; // a collider's
            if (pair.a == own || pair.b == own) {
                const std::span<const std::uint32_t> other = membersOf(pair.a == own ? pair.b : pair.a);
                list.insert(list.end(), other.begin(), other.end());
            }
        }
        std::sort(list.begin(), list.end(), [&](std::uint32_t a, std::uint32_t b) {
            return ps.fatBox[a].min.x() != ps.fatBox[b].min.x() ? ps.fatBox[a].min.x() < ps.fatBox[b].min.x() : a < b;
        });
        sweepTriangles(ps, s, list, out.triangles);
    }
    // In slot order, so the projection order never depends on the sweep.
    std::sort(out.triangles.begin(), out.triangles.end(), [](const ParticleTrianglePair& x, const ParticleTrianglePair& y) {
        if (x.surface != y.surface) return x.surface < y.surface;
        return x.particle != y.particle ? x.particle < y.particle : x.triangle < y.triangle;
    });
}

void makeSurfaceContacts(const ParticleSystem& ps, const ParticleCandidates& candidates, std::vector<SurfaceContact>& out) {
    out.clear();
    for (const ParticleTrianglePair& pair : candidates.triangles) {
        const ParticleSurface& surface = ps.surfaces.atSlot(pair.surface);
        const std::array<std::uint32_t, 3>& t = surface.triangles[pair.triangle];
        const std::uint32_t q = pair.particle;
        if (!ps.moves(q) && !ps.moves(t[0]) && !ps.moves(t[1]) && !ps.moves(t[2])) continue;
        Vec3 n;
        if (!triangleNormal(ps.x[t[0]], ps.x[t[1]], ps.x[t[2]], n)) continue;
        const real d = (ps.x[q] - ps.x[t[0]]).dot(n);
        const real gap = surface.thickness + (ps.group[q] == surface.group ? 0 : ps.radius[q]);
        real cornerTravel = 0;
        for (const std::uint32_t i : t) cornerTravel = std::max(cornerTravel, (ps.p[i] - ps.x[i]).norm());
        const real travel = (ps.p[q] - ps.x[q]).norm() + cornerTravel;
        if (std::abs(d) > gap + travel) continue; // cannot come within h of the plane
        // Over the triangle, or near enough to slide over it in the step.
        const Vec3 b = barycentric(ps.x[t[0]], ps.x[t[1]], ps.x[t[2]], ps.x[q] - n * d);
        if (b.minCoeff() < real(-0.5)) continue;
        SurfaceContact c;
        c.particle = q;
        c.corners = t;
        c.side = d >= 0 ? real(1) : real(-1);
        c.gap = gap;
        c.staticFriction = std::sqrt(ps.staticFriction[q] * ps.staticFriction[t[0]]);
        c.kineticFriction = std::sqrt(ps.kineticFriction[q] * ps.kineticFriction[t[0]]);
        out.push_back(c);
    }
}

void projectSurfaceContacts(ParticleSystem& ps, const std::vector<SurfaceContact>& contacts) {
    const auto weight = [&](std::uint32_t i) { return ps.moves(i) ? ps.w[i] : real(0); };
    for (const SurfaceContact& c : contacts) {
        const auto& t = c.corners;
        Vec3 n;
        if (!triangleNormal(ps.p[t[0]], ps.p[t[1]], ps.p[t[2]], n)) continue;
        n *= c.side; // the side q belongs on
        const real value = (ps.p[c.particle] - ps.p[t[0]]).dot(n) - c.gap;
        if (value >= 0) continue;
        Vec3 b = barycentric(ps.p[t[0]], ps.p[t[1]], ps.p[t[2]], ps.p[c.particle] - n * (value + c.gap));
        if (b.minCoeff() < real(-0.05)) continue; // beside the triangle: a neighbour's business
        b = b.cwiseMax(real(0));
        b /= b.sum();
        const real wq = weight(c.particle);
        const Vec3 wc(weight(t[0]), weight(t[1]), weight(t[2]));
        const real weights = wq + wc.dot(b.cwiseProduct(b)); // sum of w |grad C|^2
        if (!(weights > 0)) continue;
        const real dlambda = -value / weights;
        ps.p[c.particle] += n * (wq * dlambda);
        for (int k = 0; k < 3; ++k) ps.p[t[k]] -= n * (wc[k] * b[k] * dlambda);
        // Friction on the relative tangential motion of q and the triangle's point
        // under it (Macklin 2014), shared as the normal push was.
        Vec3 under = Vec3::Zero();
        for (int k = 0; k < 3; ++k) under += (ps.p[t[k]] - ps.x[t[k]]) * b[k];
        const Vec3 f = frictionCorrection(ps.p[c.particle] - ps.x[c.particle] - under, n, -value, c.staticFriction,
                                          c.kineticFriction);
        ps.p[c.particle] -= f * (wq / weights);
        for (int k = 0; k < 3; ++k) ps.p[t[k]] += f * (wc[k] * b[k] / weights);
    }
}

} // namespace jounce::detail
