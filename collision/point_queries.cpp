// Signed distance to each shape, and the swept particle test built on it.

#include <jounce/collision/point_queries.hpp>

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
    if (clamped != q) {
        const Vec3 d = q - clamped;
        const real length = d.norm();
        return {length, clamped, d / length};
    }
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

} // namespace

PointProximity signedDistance(const Shape& shape, const Transform& pose, const Vec3& point) {
    const Vec3 q = pose.toLocal(point);
    PointProximity local = std::visit(
        [&](const auto& s) -> PointProximity {
            using S = std::decay_t<decltype(s)>;
            if constexpr (std::is_same_v<S, Sphere>) return toSphere(q, Vec3::Zero(), s.radius);
            else if constexpr (std::is_same_v<S, Box>) return toBox(q, s.halfExtents);
            else if constexpr (std::is_same_v<S, Capsule>)
                return toSphere(q, Vec3(0, std::clamp(q.y(), -s.halfHeight, s.halfHeight), 0), s.radius);
            else {
                const real d = s.normal.dot(q) - s.offset;
                return {d, q - s.normal * d, s.normal};
            }
        },
        shape);
    return {local.distance, pose.toWorld(local.point), pose.directionToWorld(local.normal)};
}

bool sweptParticle(const Shape& shape, const Transform& pose, const Vec3& x, const Vec3& p, real radius, SweptHit& hit) {
    const PointProximity start = signedDistance(shape, pose, x);
    if (start.distance < radius) {
        hit = {0, start.point + start.normal * radius, start.normal, true};
        return true;
    }
    const Vec3 d = p - x;
    const real length = d.norm();
    if (length == 0) return false;
    // Sphere tracing: a step of the clearance can never pass through a convex surface.
    // "Touching" is 1e-9 m, or the round-off of the coordinates involved if that is
    // larger (float builds).
    const real scale = x.cwiseAbs().maxCoeff() + length + radius + 1;
    const real touching = std::max(real(1e-9), 16 * std::numeric_limits<real>::epsilon() * scale);
    real t = 0;
    PointProximity here = start;
    for (int iteration = 0; iteration < 128; ++iteration) {
        const real clearance = here.distance - radius;
        if (clearance <= touching) {
            hit = {t, x + t * d, here.normal, false};
            return true;
        }
        t += clearance / length;
        if (t > 1) return false;
        here = signedDistance(shape, pose, x + t * d);
    }
    return false; // grazing: still clear after 128 steps
}

} // namespace jounce
