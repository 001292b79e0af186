#pragma once
/// \file ray_cast.hpp
/// Ray casts against single shapes. A ray goes from `from` to `to`; a hit reports
/// the fraction t in [0, 1] of the way (point = from + t (to - from)), the point and
/// the surface normal there (unit, pointing out of the shape). A ray that starts
/// inside a shape does not hit it (the convention of Box2D and Bullet: a ray cast
/// finds surfaces it enters). A zero-length ray hits nothing.

#include <jounce/collision/shapes.hpp>

namespace jounce {

struct ShapeRayHit {
    real fraction = 1;
    Vec3 point = Vec3::Zero();
    Vec3 normal = Vec3::UnitY();
};

/// Whether the segment from -> to enters `shape` placed at `pose`; fills `hit`.
bool rayCast(const Shape& shape, const Transform& pose, const Vec3& from, const Vec3& to, ShapeRayHit& hit);

/// Slab test: the entry fraction of the segment into the box, if it enters within
/// [0, 1] (or starts inside, entry 0). For broad-phase culling.
bool rayHitsAabb(const Aabb& box, const Vec3& from, const Vec3& to);

} // namespace jounce
