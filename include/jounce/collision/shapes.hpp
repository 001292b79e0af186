// SPDX-License-Identifier: MIT
#pragma once
/// \file shapes.hpp
/// Collision shapes (issue 3, first step): the convex primitives and the half-space,
/// each with its bounding box, mass properties and support function. Shapes are
/// plain values in their own frame; a body places them with a Transform.
/// Conventions: capsules and cylinders have their axis along local y; a half-space is the solid
/// side {x : n . x <= offset} of a plane with unit outward normal n.

#include <jounce/collision/mass_properties.hpp>
#include <jounce/common/error.hpp>
#include <jounce/common/math.hpp>

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <variant>

namespace jounce {

struct Sphere {
    real radius = real(0.5); ///< [m] > 0
};

struct Box {
    Vec3 halfExtents = Vec3::Constant(real(0.5)); ///< [m], each > 0
};

/// A segment from (0, -halfHeight, 0) to (0, halfHeight, 0) swept by a sphere.
struct Capsule {
    real radius = real(0.5);     ///< [m] > 0
    real halfHeight = real(0.5); ///< half the straight part [m] >= 0
};

/// A solid right circular cylinder: a disc of `radius` swept from y = -halfHeight to
/// +halfHeight (its axis along local y, like a capsule's), with sharp rims. Barrels,
/// wheels, pillars, coins. Pairs with it go through GJK and EPA on its exact support
/// function, and its flat caps and straight sides give manifolds of several points.
struct Cylinder {
    real radius = real(0.5);     ///< [m] > 0
    real halfHeight = real(0.5); ///< half the length along the axis [m] > 0
};

/// Infinite solid below a plane: level ground, walls. Static bodies only.
struct HalfSpace {
    Vec3 normal = Vec3::UnitY(); ///< unit, pointing out of the solid
    real offset = 0;             ///< plane: n . x = offset [m]
};

struct HullData;  // convex_hull.hpp
class MeshData;   // triangle_mesh.hpp

/// A convex polyhedron: the hull of a point cloud, in the shape's frame (the points are
/// used as given, so a hull need not be centred). Build it with makeConvexHull; the
/// data is immutable and shared, so copying the shape is cheap.
struct ConvexHull {
    std::shared_ptr<const HullData> hull;
};

/// Static level geometry: triangles indexed by an R-tree, one-sided (a triangle's front
/// is where its corners run counter-clockwise). Edges between coplanar or concave
/// neighbours are marked internal so nothing catches on them. Static bodies only.
struct TriangleMesh {
    std::shared_ptr<const MeshData> mesh;
};

// Cylinder comes last: snapshots and scene files store the alternative's index.
using Shape = std::variant<Sphere, Box, Capsule, HalfSpace, ConvexHull, TriangleMesh, Cylinder>;

/// Builds a hull shape from a point cloud (quickhull; see convex_hull.hpp for what
/// counts as degenerate input and how it is reported).
ConvexHull makeConvexHull(std::span<const Vec3> points);

/// Builds a mesh shape; throws jounce::Error naming the first bad vertex, index or
/// degenerate (zero-area) triangle.
TriangleMesh makeTriangleMesh(std::span<const Vec3> vertices, std::span<const std::array<std::uint32_t, 3>> triangles);

/// Without exceptions (error.hpp): the error goes to `onError` and the shape comes back
/// empty (a null `hull` / `mesh` pointer, which every call taking a shape rejects).
ConvexHull makeConvexHull(std::span<const Vec3> points, const ErrorHandler& onError);
TriangleMesh makeTriangleMesh(std::span<const Vec3> vertices, std::span<const std::array<std::uint32_t, 3>> triangles,
                              const ErrorHandler& onError);

/// `shape` stretched by `scale` along its own axes, as a shape of the same kind (exact,
/// so everything meets it as that kind): a box freely; a cylinder with equal x and z
/// factors; a sphere or capsule by one factor; a hull or mesh rebuilt from its scaled
/// points (new data: instances at different scales do not share it), a mirror keeping
/// the mesh's fronts outside; a heightfield by positive factors; a half-space's plane.
/// Throws jounce::Error naming "scale" for non-finite or zero factors or a scale the
/// kind cannot take, or the shape's field for a bad shape.
Shape scaled(const Shape& shape, const Vec3& scale);
/// Without exceptions: the error goes to `onError` and an empty shape (a null hull,
/// which every call taking a shape rejects) comes back.
Shape scaled(const Shape& shape, const Vec3& scale, const ErrorHandler& onError);

/// Whether a shape may belong to a moving body (half-spaces and meshes may not).
bool isStaticOnly(const Shape& shape);

/// Axis-aligned bounding box. An empty box has min > max.
struct Aabb {
    Vec3 min = Vec3::Constant(std::numeric_limits<real>::infinity());
    Vec3 max = Vec3::Constant(-std::numeric_limits<real>::infinity());

    bool overlaps(const Aabb& o) const {
        return (min.array() <= o.max.array()).all() && (o.min.array() <= max.array()).all();
    }
    bool contains(const Aabb& o) const {
        return (min.array() <= o.min.array()).all() && (o.max.array() <= max.array()).all();
    }
    Aabb fattened(real margin) const { return {min.array() - margin, max.array() + margin}; }
    Aabb merged(const Aabb& o) const { return {min.cwiseMin(o.min), max.cwiseMax(o.max)}; }
};

/// Throws jounce::Error naming `field` for zero, negative or non-finite sizes, or a
/// half-space normal that is not unit length (to 1e-6; 1e-3 in float builds).
void validateShape(const Shape& shape, const char* field);

/// Tight world box of `shape` placed by `pose`. A half-space's box is infinite on the
/// sides the plane leaves open (axis-aligned planes give a finite face).
Aabb computeAabb(const Shape& shape, const Transform& pose);

/// Mass properties at uniform `density`, in the shape's frame. Half-spaces and open
/// meshes have no finite mass: asking for one throws jounce::Error. A closed mesh
/// gives the mass of the solid it encloses.
MassProperties computeMassProperties(const Shape& shape, real density);

/// The support point of a cylinder in its own frame (what `support` returns for one).
Vec3 cylinderSupport(const Cylinder& c, const Vec3& direction);

/// Volume [m^3] (infinite for a half-space).
real computeVolume(const Shape& shape);

/// The point of the shape farthest along `direction` (shape frame; any non-zero
/// length). For a half-space the question has no finite answer and throws; for a mesh
/// (not convex) it is the farthest vertex, i.e. the support of the mesh's hull.
Vec3 support(const Shape& shape, const Vec3& direction);

} // namespace jounce
