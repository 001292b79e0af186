// SPDX-License-Identifier: MIT
// Capsule against box. The signed distance from a point to a box is a convex
// function, so along the capsule's segment it has one minimum, found by golden-section
// search; the capsule touches the box like a sphere of its radius centred there. When
// the capsule lies flat along the box (both ends within `flatTolerance` of the
// minimum), both ends become contacts so it rests without rocking.

#include <jounce/collision/narrow_phase.hpp>

#include <cmath>

namespace jounce {
namespace {

constexpr real flatTolerance = real(1e-3); // [m]
/// Contacts whose normals agree this well (cosine) are taken to touch the same face.
constexpr real sameFace = real(0.9);

/// Signed distance from local point c to a box centred at the origin (< 0 inside).
real boxDistance(const Vec3& c, const Vec3& half) {
    const Vec3 q = c.cwiseAbs() - half;
    return q.cwiseMax(0).norm() + std::min(q.maxCoeff(), real(0));
}

/// Minimises convex f on [0, 1] by golden-section search to 1e-10 in s.
template <typename F> real minimiseOnUnit(F f) {
    const real ratio = (std::sqrt(real(5)) - 1) / 2;
    real lo = 0, hi = 1;
    real x1 = hi - ratio * (hi - lo), x2 = lo + ratio * (hi - lo);
    real f1 = f(x1), f2 = f(x2);
    for (int k = 0; k < 60 && hi - lo > real(1e-10); ++k) {
        if (f1 <= f2) {
            hi = x2;
            x2 = x1;
            f2 = f1;
            x1 = hi - ratio * (hi - lo);
            f1 = f(x1);
        } else {
            lo = x1;
            x1 = x2;
            f1 = f2;
            x2 = lo + ratio * (hi - lo);
            f2 = f(x2);
        }
    }
    const real mid = (lo + hi) / 2;
    // The minimum may sit on an end of the segment.
    const real f0 = f(real(0)), fe = f(real(1)), fm = f(mid);
    if (f0 <= fm && f0 <= fe) return 0;
    if (fe <= fm) return 1;
    return mid;
}

} // namespace

bool collideCapsuleBox(const Capsule& a, const Transform& pa, const Box& b, const Transform& pb, real margin,
                       Manifold& out) {
    out.count = 0;
    const Vec3 p = pb.toLocal(pa.toWorld(Vec3(0, -a.halfHeight, 0)));
    const Vec3 q = pb.toLocal(pa.toWorld(Vec3(0, a.halfHeight, 0)));
    auto distanceAt = [&](real s) { return boxDistance(p + s * (q - p), b.halfExtents); };
    const real s = minimiseOnUnit(distanceAt);
    const real least = distanceAt(s);
    if (least - a.radius > margin) return false;

    auto sphereAt = [&](real t, std::uint32_t end, Manifold& m) {
        const Transform centre{pb.toWorld(p + t * (q - p)), Quat::Identity()};
        if (!collideSphereBox(Sphere{a.radius}, centre, b, pb, margin, m)) return false;
        m.points[0].feature |= end << 12;
        return true;
    };
    const bool flat = a.halfHeight > 0 && distanceAt(0) - least <= flatTolerance && distanceAt(1) - least <= flatTolerance;
    if (!flat) {
        if (!sphereAt(s, s <= 0 ? 1u : (s >= 1 ? 2u : 3u), out)) return false;
        // The segment's other ends too, where they are within the margin of the same face
        // (their normal the closest point's): held at one point, a capsule turns about it
        // within the step and drives its far end into the box unseen (a ragdoll's chest
        // lying across a stair's tread sank 3.8 cm in one step).
        for (std::uint32_t end = 0; end < 2; ++end) {
            if (s == real(end)) continue;
            Manifold m;
            if (sphereAt(real(end), end + 1, m) && m.normal.dot(out.normal) >= sameFace)
                out.add(m.points[0].point, m.points[0].depth, m.points[0].feature);
        }
        return true;
    }
    Manifold ends[2];
    for (std::uint32_t end = 0; end < 2; ++end) {
        if (!sphereAt(real(end), end + 1, ends[end])) continue;
        if (out.count == 0) out.normal = ends[end].normal;
        out.add(ends[end].points[0].point, ends[end].points[0].depth, ends[end].points[0].feature);
    }
    return out.count > 0;
}

} // namespace jounce
