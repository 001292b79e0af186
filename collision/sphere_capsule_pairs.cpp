// SPDX-License-Identifier: MIT
// Pairs of round shapes: sphere-sphere, sphere-capsule, capsule-capsule. A capsule is
// a segment swept by a sphere, so each pair reduces to the closest points of points
// and segments, then to sphere-sphere.

#include <jounce/collision/narrow_phase.hpp>

#include <algorithm>
#include <cmath>

namespace jounce {
namespace {

/// The contact of two spheres (centres ca, cb, radii ra, rb). Coincident centres have
/// no direction; +y is used so the answer is still a valid, deterministic push.
bool sphereContact(const Vec3& ca, real ra, const Vec3& cb, real rb, real margin, std::uint32_t feature,
                   Manifold& out, bool setNormal = true) {
    const Vec3 d = ca - cb;
    const real distance = d.norm();
    const real separation = distance - ra - rb;
    if (separation > margin) return false;
    const Vec3 n = distance > 0 ? Vec3(d / distance) : Vec3::UnitY();
    if (setNormal) out.normal = n;
    // Midway between the surface points cb + n rb and ca - n ra.
    out.add(cb + n * (rb + separation / 2), -separation, feature);
    return true;
}

struct Segment {
    Vec3 p, q;
};

Segment capsuleSegment(const Capsule& c, const Transform& pose) {
    const Vec3 half = pose.directionToWorld(Vec3(0, c.halfHeight, 0));
    return {pose.position - half, pose.position + half};
}

/// 0: the p end cap, 1: the side, 2: the q end cap (for feature ids).
std::uint32_t region(real s) { return s <= 0 ? 0u : (s >= 1 ? 2u : 1u); }

real clamp01(real x) { return std::clamp(x, real(0), real(1)); }

} // namespace

SegmentParameters closestSegmentParameters(const Vec3& p1, const Vec3& q1, const Vec3& p2, const Vec3& q2) {
    const Vec3 d1 = q1 - p1, d2 = q2 - p2, r = p1 - p2;
    const real a = d1.squaredNorm(), e = d2.squaredNorm(), f = d2.dot(r);
    constexpr real tiny = std::numeric_limits<real>::epsilon() * std::numeric_limits<real>::epsilon();
    if (a <= tiny && e <= tiny) return {0, 0};
    if (a <= tiny) return {0, clamp01(f / e)};
    const real c = d1.dot(r);
    if (e <= tiny) return {clamp01(-c / a), 0};
    const real b = d1.dot(d2);
    const real denom = a * e - b * b; // >= 0; 0 when parallel
    real s = denom > 0 ? clamp01((b * f - c * e) / denom) : 0;
    real t = (b * s + f) / e;
    if (t < 0) {
        t = 0;
        s = clamp01(-c / a);
    } else if (t > 1) {
        t = 1;
        s = clamp01((b - c) / a);
    }
    return {s, t};
}

bool collideSpheres(const Sphere& a, const Transform& pa, const Sphere& b, const Transform& pb, real margin,
                    Manifold& out) {
    out.count = 0;
    return sphereContact(pa.position, a.radius, pb.position, b.radius, margin, 0, out);
}

bool collideSphereCapsule(const Sphere& a, const Transform& pa, const Capsule& b, const Transform& pb, real margin,
                          Manifold& out) {
    out.count = 0;
    const Segment sb = capsuleSegment(b, pb);
    const Vec3 axis = sb.q - sb.p;
    const real length2 = axis.squaredNorm();
    const real t = length2 > 0 ? clamp01((pa.position - sb.p).dot(axis) / length2) : 0;
    return sphereContact(pa.position, a.radius, sb.p + t * axis, b.radius, margin, region(t), out);
}

bool collideCapsules(const Capsule& a, const Transform& pa, const Capsule& b, const Transform& pb, real margin,
                     Manifold& out) {
    out.count = 0;
    const Segment sa = capsuleSegment(a, pa), sb = capsuleSegment(b, pb);
    const Vec3 da = sa.q - sa.p, db = sb.q - sb.p;
    const real la = da.norm(), lb = db.norm();
    // Nearly parallel capsules side by side touch along a line: two contacts, at the
    // ends of the stretch where their segments overlap, let them rest without rocking.
    if (la > 0 && lb > 0 && da.cross(db).norm() <= real(1e-3) * la * lb) {
        const Vec3 axis = da / la;
        real lo = std::max(real(0), std::min((sb.p - sa.p).dot(axis), (sb.q - sa.p).dot(axis)));
        real hi = std::min(la, std::max((sb.p - sa.p).dot(axis), (sb.q - sa.p).dot(axis)));
        if (hi > lo) {
            bool any = false;
            for (int end = 0; end < 2; ++end) {
                const Vec3 onA = sa.p + axis * (end == 0 ? lo : hi);
                const real t = clamp01((onA - sb.p).dot(db) / (lb * lb));
                const Vec3 onB = sb.p + t * db;
                Manifold one;
                if (!sphereContact(onA, a.radius, onB, b.radius, margin, 0, one)) continue;
                if (!any) out.normal = one.normal;
                out.add(one.points[0].point, one.points[0].depth, 0x100u | static_cast<std::uint32_t>(end));
                any = true;
            }
            return any;
        }
    }
    const SegmentParameters st = closestSegmentParameters(sa.p, sa.q, sb.p, sb.q);
    return sphereContact(sa.p + st.s * da, a.radius, sb.p + st.t * db, b.radius, margin,
                         region(st.s) | (region(st.t) << 4), out);
}

} // namespace jounce
