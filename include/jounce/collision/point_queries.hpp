// SPDX-License-Identifier: MIT
#pragma once
/// \file point_queries.hpp
/// Point queries against single shapes, for the particle layer and for games:
/// the signed distance from a point to a shape's surface with the closest surface
/// point and normal, and the swept test of a particle (a small sphere) moving from x
/// to p (Mueller et al. 2007, "Position Based Dynamics", section 3.5: continuous
/// collision along the ray x -> p, and the static closest-point constraint when the
/// start is already inside).

#include <jounce/collision/shapes.hpp>

namespace jounce {

struct PointProximity {
    real distance = 0;          ///< signed: > 0 outside, < 0 inside [m]
    Vec3 point = Vec3::Zero();  ///< closest point on the surface
    Vec3 normal = Vec3::UnitY(); ///< outward unit normal there
};

/// Exact for every shape. A point at a sphere's or capsule's centre, or equally deep
/// under several box faces, gets a deterministic choice (+y; the lowest axis).
PointProximity signedDistance(const Shape& shape, const Transform& pose, const Vec3& point);

struct SweptHit {
    real fraction = 1;            ///< where along x -> p the particle first touches
    Vec3 position = Vec3::Zero(); ///< particle centre there (x + fraction (p - x))
    Vec3 normal = Vec3::UnitY();  ///< surface normal at the touching point
    bool startedInside = false;   ///< x already overlapped: `position` is x pushed out
};

/// Whether a particle of `radius` moving from x to p touches the shape. When it starts
/// overlapping, the static fallback gives the nearest non-overlapping position (the
/// closest surface point plus radius along the normal) with fraction 0. Found by Newton's
/// method on the signed distance along the path for convex shapes (it cannot step past
/// the first touch: the distance is convex there), by sphere tracing for triangle
/// meshes. A step that lands within 1e-9 m of the surface (or within round-off in float
/// builds) counts as touching; a path that only grazes the surface may step past its
/// closest approach and count as a miss (the particle layer's near test then holds it).
bool sweptParticle(const Shape& shape, const Transform& pose, const Vec3& x, const Vec3& p, real radius, SweptHit& hit);
/// The same, also giving the signed distance at x (`start`), which a caller that also
/// wants the nearest point when the path misses need not compute again.
bool sweptParticle(const Shape& shape, const Transform& pose, const Vec3& x, const Vec3& p, real radius, SweptHit& hit,
                   PointProximity& start);

/// The contact the particle layer gives a particle of `radius` moving from x to p
/// (physics/particles/particle_collisions.cpp): sweptParticle's hit, or, when the path
/// misses but x lies within radius + |p - x| + margin of the surface, the closest
/// surface point pushed out by the radius with its normal (hit.startedInside false,
/// hit.fraction 1), which holds the particle where constraints would pull it in. False:
/// no contact. Far pairs are rejected on the distance alone (no closest point placed).
bool particleContact(const Shape& shape, const Transform& pose, const Vec3& x, const Vec3& p, real radius, real margin,
                     SweptHit& hit);

/// A pose with its rotation as a matrix: turning a point costs 9 products and 6 sums
/// against a quaternion's 18 and 12, worth it where one pose turns many points (the
/// particle layer turns every particle near a shape several times a small step). An
/// identity orientation gives the identity matrix, and then the same bits as Transform
/// (up to the sign of a coordinate that is exactly zero).
struct PoseMatrix {
    Mat3 rotation = Mat3::Identity(); ///< column k: the shape's axis k in the world
    Vec3 position = Vec3::Zero();

    PoseMatrix() = default;
    explicit PoseMatrix(const Transform& t) : rotation(t.orientation.toRotationMatrix()), position(t.position) {}
    Vec3 directionToWorld(const Vec3& l) const {
        const Mat3& r = rotation;
        return {r(0, 0) * l.x() + r(0, 1) * l.y() + r(0, 2) * l.z(), r(1, 0) * l.x() + r(1, 1) * l.y() + r(1, 2) * l.z(),
                r(2, 0) * l.x() + r(2, 1) * l.y() + r(2, 2) * l.z()};
    }
    Vec3 toWorld(const Vec3& local) const {
        const Vec3 t = directionToWorld(local);
        return {t.x() + position.x(), t.y() + position.y(), t.z() + position.z()};
    }
    Vec3 toLocal(const Vec3& world) const {
        const Mat3& r = rotation;
        // Written out: GCC keeps Eigen's small vector difference out of line here, and
        // reading its result back stalls on the stores.
        const real dx = world.x() - position.x(), dy = world.y() - position.y(), dz = world.z() - position.z();
        return {r(0, 0) * dx + r(1, 0) * dy + r(2, 0) * dz, r(0, 1) * dx + r(1, 1) * dy + r(2, 1) * dz,
                r(0, 2) * dx + r(1, 2) * dy + r(2, 2) * dz};
    }
};

/// particleContact with the pose's rotation as a matrix (the particle layer's form).
bool particleContact(const Shape& shape, const PoseMatrix& pose, const Vec3& x, const Vec3& p, real radius, real margin,
                     SweptHit& hit);

} // namespace jounce
