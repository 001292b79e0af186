// SPDX-License-Identifier: MIT
// Ray casts against each shape, in the shape's frame: sphere (quadratic), box (slabs),
// capsule (infinite cylinder, then the two end spheres), cylinder (infinite cylinder,
// then the two cap discs), half-space (plane).

#include <jounce/collision/ray_cast.hpp>

#include <jounce/collision/convex_hull.hpp>
#include <jounce/collision/triangle_mesh.hpp>

#include <cmath>
#include <limits>
#include <type_traits>

namespace jounce {
namespace {

/// First entry of the ray p + t d (t in [0, 1]) into a sphere at c of radius r,
/// when p starts outside it.
bool raySphere(const Vec3& p, const Vec3& d, const Vec3& c, real r, real& t) {
    const Vec3 m = p - c;
    const real cc = m.squaredNorm() - r * r;
    if (cc <= 0) return false; // starts inside
    const real a = d.squaredNorm(), b = m.dot(d);
    if (b >= 0) return false;  // moving away
    const real disc = b * b - a * cc;
    if (disc < 0) return false;
    t = (-b - std::sqrt(disc)) / a;
    return t <= 1;
}

bool rayBox(const Vec3& p, const Vec3& d, const Vec3& h, real& t, Vec3& normal) {
    real enter = -std::numeric_limits<real>::infinity(), leave = std::numeric_limits<real>::infinity();
    int axis = -1;
    for (int k = 0; k < 3; ++k) {
        if (d[k] == 0) {
            if (std::abs(p[k]) > h[k]) return false;
            continue;
        }
        real t0 = (-h[k] - p[k]) / d[k], t1 = (h[k] - p[k]) / d[k];
        if (t0 > t1) std::swap(t0, t1);
        if (t0 > enter) {
            enter = t0;
            axis = k;
        }
        leave = std::min(leave, t1);
        if (enter > leave) return false;
    }
    if (axis < 0 || enter < 0 || enter > 1) return false; // starts inside, or too far
    t = enter;
    normal = Vec3::Zero();
    normal[axis] = d[axis] > 0 ? -1 : 1;
    return true;
}

/// Entry into the infinite cylinder x^2 + z^2 = r^2 about y, kept where |y| <= hh and
/// t in [0, 1]: the straight part of a capsule or the side of a cylinder. Leaves `best`
/// (infinity when there is no entry) and `normal` alone otherwise.
void raySide(const Vec3& p, const Vec3& d, real r, real hh, real& best, Vec3& normal) {
    const real a = d.x() * d.x() + d.z() * d.z();
    if (!(a > 0)) return;
    const real b = p.x() * d.x() + p.z() * d.z();
    const real cc = p.x() * p.x() + p.z() * p.z() - r * r;
    const real disc = b * b - a * cc;
    if (disc < 0) return;
    const real ts = (-b - std::sqrt(disc)) / a;
    const real y = p.y() + ts * d.y();
    if (ts >= 0 && ts <= 1 && std::abs(y) <= hh && ts < best) {
        best = ts;
        const Vec3 x = p + ts * d;
        normal = Vec3(x.x(), 0, x.z()) / r;
    }
}

bool rayCapsule(const Vec3& p, const Vec3& d, const Capsule& c, real& t, Vec3& normal) {
    const real hh = c.halfHeight, r = c.radius;
    // Starting inside: distance from p to the segment below r.
    const real py = std::clamp(p.y(), -hh, hh);
    if ((p - Vec3(0, py, 0)).squaredNorm() <= r * r) return false;
    real best = std::numeric_limits<real>::infinity();
    raySide(p, d, r, hh, best, normal);
    for (real end : {-hh, hh}) {
        real te;
        if (raySphere(p, d, Vec3(0, end, 0), r, te) && te < best) {
            best = te;
            normal = (p + te * d - Vec3(0, end, 0)) / r;
        }
    }
    if (!(best <= 1)) return false;
    t = best;
    return true;
}

bool rayCylinder(const Vec3& p, const Vec3& d, const Cylinder& c, real& t, Vec3& normal) {
    const real hh = c.halfHeight, r = c.radius;
    if (std::abs(p.y()) <= hh && p.x() * p.x() + p.z() * p.z() <= r * r) return false; // starts inside
    real best = std::numeric_limits<real>::infinity();
    raySide(p, d, r, hh, best, normal);
    // Caps: the plane y = +-hh from outside it, entered within the rim.
    if (d.y() != 0) {
        const real end = p.y() > 0 ? hh : -hh;
        if (std::abs(p.y()) > hh && (end > 0) == (d.y() < 0)) {
            const real tc = (end - p.y()) / d.y();
            const Vec3 x = p + tc * d;
            if (tc >= 0 && tc < best && x.x() * x.x() + x.z() * x.z() <= r * r) {
                best = tc;
                normal = Vec3(0, end > 0 ? 1 : -1, 0);
            }
        }
    }
    if (!(best <= 1)) return false;
    t = best;
    return true;
}

/// Cyrus-Beck: the segment clipped by every face plane of a convex hull.
bool rayHull(const Vec3& p, const Vec3& d, const HullData& hull, real& t, Vec3& normal) {
    real enter = -1, leave = 1;
    for (const HullFace& f : hull.faces) {
        const real start = f.normal.dot(p) - f.offset; // > 0 outside this face
        const real rate = f.normal.dot(d);
        if (rate == 0) {
            if (start > 0) return false;
            continue;
        }
        const real at = -start / rate;
        if (rate < 0) {
            if (at > enter) {
                enter = at;
                normal = f.normal;
            }
        } else {
            leave = std::min(leave, at);
        }
        if (enter > leave) return false;
    }
    if (enter < 0) return false; // started inside: no surface entered
    t = enter;
    return true;
}

/// One-sided triangles: the closest front face entered.
bool rayMesh(const Vec3& p, const Vec3& d, const MeshData& mesh, real& t, Vec3& normal) {
    std::vector<std::uint32_t> candidates;
    mesh.alongSegment(p, p + d, candidates);
    bool found = false;
    t = 1;
    for (std::uint32_t i : candidates) {
        const Vec3& n = mesh.normal(i);
        if (n.dot(d) >= 0) continue; // parallel, or leaving through the back
        const auto c = mesh.corners(i);
        real at = 1;
        if (!rayTriangle(p, p + d, c[0], c[1], c[2], at) || at > t || (found && at == t)) continue;
        t = at;
        normal = n;
        found = true;
    }
    return found;
}

} // namespace

bool rayCast(const Shape& shape, const Transform& pose, const Vec3& from, const Vec3& to, ShapeRayHit& hit) {
    const Vec3 p = pose.toLocal(from);
    const Vec3 d = pose.directionToLocal(to - from);
    if (d.squaredNorm() == 0) return false;
    real t = 0;
    Vec3 n = Vec3::UnitY();
    const bool found = std::visit(
        [&](const auto& s) {
            using S = std::decay_t<decltype(s)>;
            if constexpr (std::is_same_v<S, Sphere>) {
                if (!raySphere(p, d, Vec3::Zero(), s.radius, t)) return false;
                n = (p + t * d) / s.radius;
                return true;
            } else if constexpr (std::is_same_v<S, Box>) {
                return rayBox(p, d, s.halfExtents, t, n);
            } else if constexpr (std::is_same_v<S, Capsule>) {
                return rayCapsule(p, d, s, t, n);
            } else if constexpr (std::is_same_v<S, ConvexHull>) {
                return rayHull(p, d, *s.hull, t, n);
            } else if constexpr (std::is_same_v<S, TriangleMesh>) {
                return rayMesh(p, d, *s.mesh, t, n);
            } else if constexpr (std::is_same_v<S, Cylinder>) {
                return rayCylinder(p, d, s, t, n);
            } else {
                const real start = s.normal.dot(p) - s.offset; // > 0 outside
                const real rate = s.normal.dot(d);
                if (start <= 0 || rate >= 0) return false;
                t = -start / rate;
                n = s.normal;
                return t <= 1;
            }
        },
        shape);
    if (!found) return false;
    hit.fraction = t;
    hit.point = from + t * (to - from);
    hit.normal = pose.directionToWorld(n);
    // A ray from very far (3.5e30 m towards a 0.2 m capsule: fuzz_narrow_phase) has lost
    // every digit of its position near the shape, and the normal computed from the hit
    // point can come out zero. Facing the ray is the one normal that is still right.
    const real length = hit.normal.norm();
    hit.normal = length > 0 && std::isfinite(length) ? Vec3(hit.normal / length) : Vec3(-(to - from).normalized());
    if (!isFinite(hit.normal)) hit.normal = Vec3::UnitY();
    return true;
}

bool rayTriangle(const Vec3& from, const Vec3& to, const Vec3& a, const Vec3& b, const Vec3& c, real& fraction) {
    // Moller & Trumbore 1997: solve from + t d = a + u e1 + v e2 by Cramer's rule.
    const Vec3 d = to - from, e1 = b - a, e2 = c - a;
    const Vec3 h = d.cross(e2);
    const real det = e1.dot(h);
    if (det == 0 || !std::isfinite(det)) return false; // parallel to the plane, or degenerate
    const Vec3 s = from - a;
    const real u = s.dot(h) / det;
    if (u < 0 || u > 1) return false;
    const Vec3 q = s.cross(e1);
    const real v = d.dot(q) / det;
    if (v < 0 || u + v > 1) return false;
    const real t = e2.dot(q) / det;
    if (t < 0 || t > 1) return false;
    fraction = t;
    return true;
}

bool rayEllipsoid(const Vec3& centre, const Mat3& axes, const Vec3& radii, const Vec3& from, const Vec3& to,
                  real& fraction) {
    // In the frame where the ellipsoid is the unit sphere, x' = diag(1/r) E^T (x - c):
    // the map is affine, so the fraction along the ray is the same in both frames.
    const Vec3 p = (axes.transpose() * (from - centre)).cwiseQuotient(radii);
    const Vec3 d = (axes.transpose() * (to - from)).cwiseQuotient(radii);
    if (d.squaredNorm() == 0) return false;
    return raySphere(p, d, Vec3::Zero(), 1, fraction);
}

bool rayHitsAabb(const Aabb& box, const Vec3& from, const Vec3& to) {
    const Vec3 d = to - from;
    real enter = 0, leave = 1;
    for (int k = 0; k < 3; ++k) {
        if (d[k] == 0) {
            if (from[k] < box.min[k] || from[k] > box.max[k]) return false;
            continue;
        }
        real t0 = (box.min[k] - from[k]) / d[k], t1 = (box.max[k] - from[k]) / d[k];
        if (t0 > t1) std::swap(t0, t1);
        enter = std::max(enter, t0);
        leave = std::min(leave, t1);
        if (enter > leave) return false;
    }
    return true;
}

} // namespace jounce
