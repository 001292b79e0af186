// SPDX-License-Identifier: MIT
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

#include "physics/world/stages.hpp"

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

/// Where particle i can be in this world substep: from x along v h, grown by what
/// gravity adds and the collision margin (what constraints may add on the way). Much
/// tighter than its broad-phase box, which carries its radius and a fat margin: a
/// resting cloth's particles then overlap no triangle but their own.
Aabb motionBox(const ParticleSystem& ps, std::uint32_t i, real slack, real h) {
    const Vec3 to = ps.x[i] + ps.v[i] * h;
    Aabb box;
    box.min = ps.x[i].cwiseMin(to) - Vec3::Constant(slack);
    box.max = ps.x[i].cwiseMax(to) + Vec3::Constant(slack);
    return box;
}

/// Particles of `list` against the surface's triangles whose boxes overlap theirs
/// (sort and sweep along `axis`), skipping a triangle's own corners.
void sweepTriangles(const ParticleSystem& ps, std::uint32_t surfaceSlot, std::vector<std::uint32_t>& list, int axis,
                    real slack, real h, std::vector<ParticleTrianglePair>& out) {
    const ParticleSurface& surface = ps.surfaces.atSlot(surfaceSlot);
    std::vector<Aabb> points(list.size());
    std::vector<std::pair<real, std::uint32_t>> pointOrder(list.size());
    for (std::uint32_t k = 0; k < list.size(); ++k) {
        points[k] = motionBox(ps, list[k], slack, h);
        if (ps.group[list[k]] != surface.group) { // another's particle keeps its radius off the surface too
            points[k].min -= Vec3::Constant(ps.radius[list[k]]);
            points[k].max += Vec3::Constant(ps.radius[list[k]]);
        }
        pointOrder[k] = {points[k].min[axis], k};
    }
    std::vector<Aabb> boxes(surface.triangles.size());
    std::vector<std::pair<real, std::uint32_t>> order(surface.triangles.size());
    for (std::uint32_t t = 0; t < surface.triangles.size(); ++t) {
        Aabb& box = boxes[t];
        for (const std::uint32_t i : surface.triangles[t]) {
            const Aabb corner = motionBox(ps, i, slack, h);
            box.min = box.min.cwiseMin(corner.min);
            box.max = box.max.cwiseMax(corner.max);
        }
        box.min -= Vec3::Constant(surface.thickness);
        box.max += Vec3::Constant(surface.thickness);
        order[t] = {box.min[axis], t};
    }
    std::sort(pointOrder.begin(), pointOrder.end());
    std::sort(order.begin(), order.end());
    std::size_t start = 0;
    for (const auto& [lo, k] : pointOrder) {
        const Aabb& box = points[k];
        const std::uint32_t i = list[k];
        while (start < order.size() && boxes[order[start].second].max[axis] < lo && order[start].first <= lo) ++start;
        for (std::size_t m = start; m < order.size() && order[m].first <= box.max[axis]; ++m) {
            const std::uint32_t t = order[m].second;
            const auto& corners = surface.triangles[t];
            if (corners[0] == i || corners[1] == i || corners[2] == i || !boxes[t].overlaps(box)) continue;
            out.push_back({i, surfaceSlot, t});
        }
    }
}

} // namespace

void findSurfaceCandidates(const ParticleSystem& ps, const std::vector<BroadPhaseProxy>& proxies,
                           const std::vector<ProxyPair>& pairs, const WorldSettings& settings, real h,
                           ParticleCandidates& out) {
    out.triangles.clear();
    if (ps.surfaces.size() == 0) return;
    const auto membersOf = [&](std::uint32_t proxy) {
        const std::uint32_t k = proxy - out.firstProxy;
        return std::span<const std::uint32_t>(out.members.data() + out.memberStart[k], out.memberStart[k + 1] - out.memberStart[k]);
    };
    const auto proxyCount = static_cast<std::uint32_t>(out.memberStart.size() - 1);
    const real slack = settings.gravity.norm() * h * h + settings.collisionMargin;
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
            if (pair.a < out.firstProxy || pair.b >= out.endProxy) continue; // a collider's or a deformable's
            if (pair.a == own || pair.b == own) {
                const std::span<const std::uint32_t> other = membersOf(pair.a == own ? pair.b : pair.a);
                list.insert(list.end(), other.begin(), other.end());
            }
        }
        // Sweep along the surface's longest side: a strip lying along z sorts well on z.
        const Vec3 extent = proxies[own].box.max - proxies[own].box.min;
        int axis = 0;
        extent.maxCoeff(&axis);
        sweepTriangles(ps, s, list, axis, slack, h, out.triangles);
    }
    // In slot order, so the projection order never depends on the sweep.
    std::sort(out.triangles.begin(), out.triangles.end(), [](const ParticleTrianglePair& x, const ParticleTrianglePair& y) {
        if (x.surface != y.surface) return x.surface < y.surface;
        return x.particle != y.particle ? x.particle < y.particle : x.triangle < y.triangle;
    });
}

namespace {

/// A triangle at the start of a small step, ready for plane and barycentric tests.
struct TriangleFrame {
    Vec3 origin, n, e1, e2;
    real d11 = 0, d12 = 0, d22 = 0, inverseDet = 0;
    bool valid = false;
};

TriangleFrame frameOf(const Vec3& x0, const Vec3& x1, const Vec3& x2) {
    TriangleFrame f;
    f.origin = x0;
    f.e1 = x1 - x0;
    f.e2 = x2 - x0;
    f.valid = triangleNormal(x0, x1, x2, f.n);
    f.d11 = f.e1.dot(f.e1);
    f.d12 = f.e1.dot(f.e2);
    f.d22 = f.e2.dot(f.e2);
    f.inverseDet = f.valid ? 1 / (f.d11 * f.d22 - f.d12 * f.d12) : 0;
    return f;
}

/// The smallest barycentric weight of the point r (in the plane) in the frame's triangle.
real smallestWeight(const TriangleFrame& f, const Vec3& r) {
    const Vec3 d = r - f.origin;
    const real dq1 = d.dot(f.e1), dq2 = d.dot(f.e2);
    const real b1 = (f.d22 * dq1 - f.d12 * dq2) * f.inverseDet, b2 = (f.d11 * dq2 - f.d12 * dq1) * f.inverseDet;
    return std::min({1 - b1 - b2, b1, b2});
}

} // namespace

void makeSurfaceContacts(const ParticleSystem& ps, const ParticleCandidates& candidates, std::vector<SurfaceContact>& out) {
    out.clear();
    // Every triangle's frame once (candidates share triangles) and each particle's
    // travel in the small step.
    std::vector<std::size_t> firstFrame(ps.surfaces.slotCount() + 1, 0);
    for (std::size_t s = 0; s < ps.surfaces.slotCount(); ++s)
        firstFrame[s + 1] = firstFrame[s] + (ps.surfaces.isAlive(s) ? ps.surfaces.atSlot(s).triangles.size() : 0);
    std::vector<TriangleFrame> frames(firstFrame.back());
    std::vector<real> cornerTravel(firstFrame.back());
    for (std::size_t s = 0; s < ps.surfaces.slotCount(); ++s) {
        if (!ps.surfaces.isAlive(s)) continue;
        const auto& triangles = ps.surfaces.atSlot(s).triangles;
        for (std::size_t t = 0; t < triangles.size(); ++t) {
            const auto& c = triangles[t];
            frames[firstFrame[s] + t] = frameOf(ps.x[c[0]], ps.x[c[1]], ps.x[c[2]]);
            real travel = 0;
            for (const std::uint32_t i : c) travel = std::max(travel, (ps.p[i] - ps.x[i]).norm());
            cornerTravel[firstFrame[s] + t] = travel;
        }
    }
    for (const ParticleTrianglePair& pair : candidates.triangles) {
        const ParticleSurface& surface = ps.surfaces.atSlot(pair.surface);
        const std::array<std::uint32_t, 3>& t = surface.triangles[pair.triangle];
        const std::uint32_t q = pair.particle;
        if (!ps.moves(q) && !ps.moves(t[0]) && !ps.moves(t[1]) && !ps.moves(t[2])) continue;
        const std::size_t k = firstFrame[pair.surface] + pair.triangle;
        const TriangleFrame& f = frames[k];
        if (!f.valid) continue;
        const real d = (ps.x[q] - f.origin).dot(f.n);
        const real gap = surface.thickness + (ps.group[q] == surface.group ? 0 : ps.radius[q]);
        const real travel = (ps.p[q] - ps.x[q]).norm() + cornerTravel[k];
        if (std::abs(d) > gap + travel) continue; // cannot come within h of the plane
        // Over the triangle, or near enough to slide over it in the step.
        if (smallestWeight(f, ps.x[q] - f.n * d) < real(-0.5)) continue;
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
