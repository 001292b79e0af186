// SPDX-License-Identifier: MIT
#pragma once
/// \file narrow_phase.hpp
/// The narrow phase: contact manifolds between two placed shapes (conventions in
/// manifold.hpp). `collide` dispatches on the shape types; the pair functions are
/// public so a learner (or a test) can call one directly. Each pair function takes
/// its shapes in the order of its name; `collide` handles either order by swapping
/// and flipping, so collide(a, b) and collide(b, a) give the same points and depths
/// with opposite normals.

#include <jounce/collision/manifold.hpp>
#include <jounce/collision/shapes.hpp>

#include <vector>

namespace jounce {

/// Fills `out` with the contacts of `a` at `pa` and `b` at `pb` whose separation is
/// at most `margin` (>= 0); returns whether there are any. Two static-only shapes
/// (half-spaces, meshes) have no contacts. A shape on a mesh can touch several
/// triangles with different normals: `collide` then gives the manifold holding the
/// deepest point, `collideAll` gives them all.
bool collide(const Shape& a, const Transform& pa, const Shape& b, const Transform& pb, real margin, Manifold& out);

/// Appends every manifold of the pair to `out` (one for convex pairs; for a mesh, one
/// per group of touched triangles sharing a normal); returns how many it appended.
int collideAll(const Shape& a, const Transform& pa, const Shape& b, const Transform& pb, real margin,
               std::vector<Manifold>& out);

bool collideSpheres(const Sphere& a, const Transform& pa, const Sphere& b, const Transform& pb, real margin, Manifold& out);
bool collideSphereCapsule(const Sphere& a, const Transform& pa, const Capsule& b, const Transform& pb, real margin, Manifold& out);
bool collideCapsules(const Capsule& a, const Transform& pa, const Capsule& b, const Transform& pb, real margin, Manifold& out);
bool collideSphereBox(const Sphere& a, const Transform& pa, const Box& b, const Transform& pb, real margin, Manifold& out);
bool collideCapsuleBox(const Capsule& a, const Transform& pa, const Box& b, const Transform& pb, real margin, Manifold& out);
bool collideBoxes(const Box& a, const Transform& pa, const Box& b, const Transform& pb, real margin, Manifold& out);
bool collideSphereHalfSpace(const Sphere& a, const Transform& pa, const HalfSpace& b, const Transform& pb, real margin, Manifold& out);
bool collideCapsuleHalfSpace(const Capsule& a, const Transform& pa, const HalfSpace& b, const Transform& pb, real margin, Manifold& out);
bool collideBoxHalfSpace(const Box& a, const Transform& pa, const HalfSpace& b, const Transform& pb, real margin, Manifold& out);
bool collideSphereHull(const Sphere& a, const Transform& pa, const ConvexHull& b, const Transform& pb, real margin, Manifold& out);
bool collideCapsuleHull(const Capsule& a, const Transform& pa, const ConvexHull& b, const Transform& pb, real margin, Manifold& out);
bool collideBoxHull(const Box& a, const Transform& pa, const ConvexHull& b, const Transform& pb, real margin, Manifold& out);
bool collideHulls(const ConvexHull& a, const Transform& pa, const ConvexHull& b, const Transform& pb, real margin, Manifold& out);
bool collideHullHalfSpace(const ConvexHull& a, const Transform& pa, const HalfSpace& b, const Transform& pb, real margin, Manifold& out);
/// A sphere, capsule, box, hull or cylinder against a cylinder (GJK, EPA and clipped
/// supporting features; collision/convex_pairs.hpp).
bool collideCylinder(const Shape& a, const Transform& pa, const Cylinder& b, const Transform& pb, real margin, Manifold& out);
bool collideCylinderHalfSpace(const Cylinder& a, const Transform& pa, const HalfSpace& b, const Transform& pb, real margin, Manifold& out);

/// A convex shape (sphere, capsule, box or hull) against a mesh: appends one manifold
/// per group of touched triangles that share a normal (coplanar triangles merge, so a
/// box on a flat floor gets one manifold of at most 4 points). Normals point from the
/// mesh toward the shape; internal edges never produce a normal (triangle_mesh.hpp).
int collideMesh(const Shape& a, const Transform& pa, const TriangleMesh& b, const Transform& pb, real margin,
                std::vector<Manifold>& out);

/// Closest points between segments p1-q1 and p2-q2 (Ericson, Real-Time Collision
/// Detection 5.1.9): parameters s, t in [0, 1] of the points on each.
struct SegmentParameters {
    real s = 0;
    real t = 0;
};
SegmentParameters closestSegmentParameters(const Vec3& p1, const Vec3& q1, const Vec3& p2, const Vec3& q2);

} // namespace jounce
