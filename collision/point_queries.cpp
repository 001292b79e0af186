// SPDX-License-Identifier: MIT
// Signed distance to each shape, and the swept particle test built on it.

#include <jounce/collision/point_queries.hpp>

#include "common/hot_inline.hpp"

#include <jounce/collision/convex_hull.hpp>
#include <jounce/collision/gjk.hpp>
#include <jounce/collision/triangle_mesh.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

namespace jounce {
namespace {

PointProximity toSphere(const Vec3& q, const Vec3& centre, real radius) {
    const Vec3 d = q - centre;
    const real length = d.norm();
    const Vec3 n = length > 0 ? Vec3(d / length) : Vec3::UnitY();
    return {length - radius, centre + n * radius, n};
}

PointProximity toBox(const Vec3& q, const Vec3& h) {
    const Vec3 clamped = q.cwiseMax(-h).cwiseMin(h);
    const Vec3 d = q - clamped;
    const real length = d.norm();
    // Outside by a denormal, the length underflows to 0: on the face, as inside.
    if (length > 0) return {length, clamped, d / length};
    int axis = 0;
    real best = h[0] - std::abs(q[0]);
    for (int k = 1; k < 3; ++k)
        if (h[k] - std::abs(q[k]) < best) {
            best = h[k] - std::abs(q[k]);
            axis = k;
        }
    Vec3 n = Vec3::Zero();
    n[axis] = q[axis] < 0 ? -1 : 1;
    Vec3 onFace = q;
    onFace[axis] = n[axis] * h[axis];
    return {-best, onFace, n};
}

PointProximity toHull(const Vec3& q, const HullData& hull) {
    // Inside: the nearest face plane is the nearest surface (the hull is convex).
    std::size_t face = 0;
    real most = -std::numeric_limits<real>::infinity();
    for (std::size_t f = 0; f < hull.faces.size(); ++f) {
        const real s = hull.faces[f].normal.dot(q) - hull.faces[f].offset;
        if (s > most) {
            most = s;
            face = f;
        }
    }
    if (most <= 0) return {most, q - hull.faces[face].normal * most, hull.faces[face].normal};
    // Outside: the closest point may be on an edge or corner; GJK finds it.
    const auto point = [&](const Vec3&) { return q; };
    const auto hullSupport = [&](const Vec3& d) {
        std::size_t best = 0;
        for (std::size_t i = 1; i < hull.vertices.size(); ++i)
            if (hull.vertices[i].dot(d) > hull.vertices[best].dot(d)) best = i;
        return hull.vertices[best];
    };
    const GjkResult g = gjkDistance(point, hullSupport, Vec3(hull.centroid - q));
    if (!(g.distance > 0)) return {0, q, hull.faces[face].normal};
    return {g.distance, g.pointB, (q - g.pointB) / g.distance};
}

PointProximity toMesh(const Vec3& q, const MeshData& mesh) {
    Vec3 closest;
    const std::uint32_t t = mesh.nearest(q, closest);
    const auto c = mesh.corners(t);
    Vec3 bary;
    closestPointOnTriangle(q, c[0], c[1], c[2], bary);
    // The sign comes from the pseudo-normal of the feature the closest point is on,
    // which is correct at edges and corners too (Baerentzen & Aanaes 2005).
    Vec3 pseudo = mesh.normal(t);
    constexpr real eps = real(1e-9);
    const int inside = (bary[0] > eps) + (bary[1] > eps) + (bary[2] > eps);
    if (inside == 2) {
        for (int k = 0; k < 3; ++k)
            if (!(bary[(k + 2) % 3] > eps)) pseudo = mesh.edgePseudoNormal(t, k);
    } else if (inside == 1) {
        for (int k = 0; k < 3; ++k)
            if (bary[k] > eps) pseudo = mesh.vertexPseudoNormal(mesh.triangles()[t][static_cast<std::size_t>(k)]);
    }
    const Vec3 d = q - closest;
    const real length = d.norm();
    if (length == 0) return {0, closest, mesh.normal(t)};
    const real sign = d.dot(pseudo) < 0 ? -1 : 1;
    return {sign * length, closest, sign * d / length};
}

/// Across the axis (radial) and along it (axial), like a box in those two coordinates.
PointProximity toCylinder(const Vec3& q, const Cylinder& c) {
    const real across = std::hypot(q.x(), q.z());
    // The unit direction across the axis toward q (+x on the axis itself).
    const Vec3 out = across > 0 ? Vec3(q.x() / across, 0, q.z() / across) : Vec3(Vec3::UnitX());
    const Vec3 up(0, q.y() < 0 ? -1 : 1, 0);
    const real side = across - c.radius, cap = std::abs(q.y()) - c.halfHeight; // > 0 outside each
    if (side <= 0 && cap <= 0) {
        // Inside: the nearer of the side and the cap.
        if (side >= cap) return {side, Vec3(out * c.radius + Vec3(0, q.y(), 0)), out};
        return {cap, Vec3(q.x(), up.y() * c.halfHeight, q.z()), up};
    }
    // Outside: the distance in the (across, along) plane, and the normal from those two
    // components (not from q minus the closest point, which round-off turns anywhere
    // when q lies on the surface).
    const Vec3 closest = out * std::min(across, c.radius) + up * std::min(std::abs(q.y()), c.halfHeight);
    const real s = std::max(side, real(0)), k = std::max(cap, real(0));
    const real distance = std::hypot(s, k);
    if (!(distance > 0)) return {0, closest, side > cap ? out : up};
    return {distance, closest, Vec3((out * s + up * k) / distance)};
}

} // namespace

namespace {

/// The signed distance, closest point and normal in the shape's own frame.
PointProximity localProximity(const Shape& shape, const Vec3& q) {
    return std::visit(
        [&](const auto& s) -> PointProximity {
            using S = std::decay_t<decltype(s)>;
            if constexpr (std::is_same_v<S, Sphere>) return toSphere(q, Vec3::Zero(), s.radius);
            else if constexpr (std::is_same_v<S, Box>) return toBox(q, s.halfExtents);
            else if constexpr (std::is_same_v<S, Capsule>)
                return toSphere(q, Vec3(0, std::clamp(q.y(), -s.halfHeight, s.halfHeight), 0), s.radius);
            else if constexpr (std::is_same_v<S, ConvexHull>) return toHull(q, *s.hull);
            else if constexpr (std::is_same_v<S, TriangleMesh>) return toMesh(q, *s.mesh);
            else if constexpr (std::is_same_v<S, Cylinder>) return toCylinder(q, s);
            else {
                const real d = s.normal.dot(q) - s.offset;
                return {d, q - s.normal * d, s.normal};
            }
        },
        shape);
}

} // namespace

PointProximity signedDistance(const Shape& shape, const Transform& pose, const Vec3& point) {
    const PointProximity local = localProximity(shape, pose.toLocal(point));
    return {local.distance, pose.toWorld(local.point), pose.directionToWorld(local.normal)};
}

namespace {

/// Whether the signed distance to the shape is a convex function of the point outside
/// it (every convex shape; a triangle mesh's is not).
bool convexShape(const Shape& shape) { return !std::holds_alternative<TriangleMesh>(shape); }

/// Whether the shape is a sphere or a capsule: a distance from a core point (the centre,
/// or the nearest point of the capsule's segment) less a radius, so the distance and the
/// normal come from one square root.
bool roundShape(const Shape& shape) { return std::holds_alternative<Sphere>(shape) || std::holds_alternative<Capsule>(shape); }

/// A round shape's core point near q, q's offset from it and its length.
struct RoundCore {
    Vec3 centre = Vec3::Zero();  // zeroed so g++ -O2 -g sees no maybe-uninitialized read
    Vec3 offset = Vec3::Zero();
    real length = 0;
    real radius = 0;
};

JOUNCE_HOT_INLINE RoundCore roundCore(const Shape& shape, const Vec3& q) {
    RoundCore c;
    if (const auto* s = std::get_if<Sphere>(&shape)) {
        c.centre = Vec3::Zero();
        c.radius = s->radius;
    } else {
        const auto& capsule = std::get<Capsule>(shape);
        c.centre = Vec3(0, std::clamp(q.y(), -capsule.halfHeight, capsule.halfHeight), 0);
        c.radius = capsule.radius;
    }
    c.offset = q - c.centre;
    c.length = c.offset.norm();
    return c;
}

/// toSphere's answer from a core already measured: the same bits.
JOUNCE_HOT_INLINE PointProximity roundProximity(const RoundCore& c) {
    const Vec3 n = c.length > 0 ? Vec3(c.offset / c.length) : Vec3::UnitY();
    return {c.length - c.radius, c.centre + n * c.radius, n};
}

/// The signed distance and the world normal at `point`, without the closest point (the
/// swept test's iterates need only these).
template <class Pose> PointProximity distanceAndNormal(const Shape& shape, const Pose& pose, const Vec3& point) {
    const PointProximity local = localProximity(shape, pose.toLocal(point));
    return {local.distance, Vec3::Zero(), pose.directionToWorld(local.normal)};
}

/// The swept test along d = p - x (|d| = length) from a start already measured
/// (sweptParticle after its first query).
template <class Pose>
bool sweepFrom(const Shape& shape, const Pose& pose, const Vec3& x, const Vec3& d, real length, real radius,
               const PointProximity& start, SweptHit& hit) {
    if (start.distance < radius) {
        hit = {0, start.point + start.normal * radius, start.normal, true};
        return true;
    }
    if (length == 0 || start.distance - radius > length) return false; // cannot reach it in this move
    // "Touching" is 1e-9 m, or the round-off of the coordinates involved if that is
    // larger (float builds).
    const real scale = x.cwiseAbs().maxCoeff() + length + radius + 1;
    const real touching = std::max(real(1e-9), 16 * std::numeric_limits<real>::epsilon() * scale);
    const bool convex = convexShape(shape);
    real t = 0;
    PointProximity here = start;
    for (int iteration = 0; iteration < 128; ++iteration) {
        const real clearance = here.distance - radius;
        if (clearance <= touching) {
            hit = {t, x + t * d, here.normal, false};
            return true;
        }
        if (convex) {
            // Outside a convex shape f(t) = distance(x + t d) - radius is convex in t with
            // f'(t) = n . d, so Newton's step t += f / -f' never passes the first root
            // (f lies above its tangent), and a path not closing now never closes.
            // One step lands on a face; a sphere converges quadratically.
            const real closing = -here.normal.dot(d);
            if (!(closing > 0)) return false;
            t += clearance / closing;
        } else {
            t += clearance / length; // sphere tracing: a step of the clearance cannot pass a surface
        }
        if (t > 1) return false;
        here = distanceAndNormal(shape, pose, x + t * d);
    }
    return false; // grazing: still clear after 128 steps
}

template <class Pose>
bool contactOnPath(const Shape& shape, const Pose& pose, const Vec3& x, const Vec3& p, real radius, real margin, SweptHit& hit) {
    const Vec3 q = pose.toLocal(x);
    const Vec3 d(p.x() - x.x(), p.y() - x.y(), p.z() - x.z()); // p - x, inline (see PoseMatrix::toLocal)
    const real length = d.norm();
    // Far: outside, out of this move's reach and beyond the margin. Decided in the
    // shape's frame (the closest point is never placed in the world): most pairs, such
    // as every particle of a cloth against the ground far below, end here. A sphere or
    // capsule decides on its distance alone, and its normal reuses that square root.
    const bool rounded = roundShape(shape);
    RoundCore core;
    PointProximity local;
    const real distance = rounded ? (core = roundCore(shape, q)).length - core.radius : (local = localProximity(shape, q)).distance;
    if (!(distance < radius) && (length == 0 || distance - radius > length) && !(distance < radius + length + margin))
        return false;
    if (rounded) local = roundProximity(core);
    const PointProximity start{local.distance, pose.toWorld(local.point), pose.directionToWorld(local.normal)};
    if (sweepFrom(shape, pose, x, d, length, radius, start, hit)) return true;
    // Its path misses, but it is near: the tangent plane at the closest point holds it
    // where constraints would pull it in (Müller 2007 sec. 3.5, the static case).
    if (!(start.distance < radius + length + margin)) return false;
    hit = {1, start.point + start.normal * radius, start.normal, false};
    return true;
}

} // namespace

bool sweptParticle(const Shape& shape, const Transform& pose, const Vec3& x, const Vec3& p, real radius, SweptHit& hit,
                   PointProximity& start) {
    start = signedDistance(shape, pose, x);
    const Vec3 d = p - x;
    return sweepFrom(shape, pose, x, d, d.norm(), radius, start, hit);
}

bool sweptParticle(const Shape& shape, const Transform& pose, const Vec3& x, const Vec3& p, real radius, SweptHit& hit) {
    PointProximity start;
    return sweptParticle(shape, pose, x, p, radius, hit, start);
}

bool particleContact(const Shape& shape, const Transform& pose, const Vec3& x, const Vec3& p, real radius, real margin,
                     SweptHit& hit) {
    return contactOnPath(shape, pose, x, p, radius, margin, hit);
}

bool particleContact(const Shape& shape, const PoseMatrix& pose, const Vec3& x, const Vec3& p, real radius, real margin,
                     SweptHit& hit) {
    return contactOnPath(shape, pose, x, p, radius, margin, hit);
}

} // namespace jounce
