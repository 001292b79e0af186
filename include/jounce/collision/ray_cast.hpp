// SPDX-License-Identifier: MIT
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

/// Whether the segment from -> to crosses the triangle a, b, c from either side
/// (Moller & Trumbore 1997); `fraction` is where, in [0, 1]. Degenerate triangles
/// are never hit.
bool rayTriangle(const Vec3& from, const Vec3& to, const Vec3& a, const Vec3& b, const Vec3& c, real& fraction);

/// Whether the segment from -> to enters the ellipsoid at `centre` with semi-axes
/// radii[k] along the columns of `axes` (a rotation); a segment that starts inside does
/// not hit it. `fraction` is where it enters, in [0, 1].
bool rayEllipsoid(const Vec3& centre, const Mat3& axes, const Vec3& radii, const Vec3& from, const Vec3& to,
                  real& fraction);

/// Slab test: the entry fraction of the segment into the box, if it enters within
/// [0, 1] (or starts inside, entry 0). For broad-phase culling.
bool rayHitsAabb(const Aabb& box, const Vec3& from, const Vec3& to);

} // namespace jounce
