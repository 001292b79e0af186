// SPDX-License-Identifier: MIT
#pragma once
// Internal: the general pair path for shapes with curved faces that the separating axis
// test cannot handle exactly (cylinders, against everything convex). GJK finds the
// distance while apart; the expanding polytope algorithm (EPA: van den Bergen 2001,
// "Proximity Queries and Penetration Depth Computation on 3D Game Objects"; Ericson 9.5)
// finds the penetration depth and normal when they overlap. The manifold then comes
// from the two supporting features along that normal (a cap's polygon, a side's
// segment, a polytope's face) clipped against each other, the way Jolt builds its
// manifolds between two faces: a barrel standing on a floor rests on its rim, not on
// the one point EPA found.

#include "collision/polytope.hpp"

#include <jounce/collision/gjk.hpp>
#include <jounce/collision/manifold.hpp>
#include <jounce/collision/shapes.hpp>

#include <vector>

namespace jounce::detail {

/// A convex shape placed in one frame, as the general path sees it: a core (the shape
/// without its rounding radius) with a support mapping and supporting features.
struct PlacedConvex {
    enum class Kind { Segment, Cylinder, Polytope };
    Kind kind = Kind::Segment;
    Vec3 p = Vec3::Zero(), q = Vec3::Zero(); ///< Segment: the core from p to q (a point when equal)
    real radius = 0;                         ///< Segment: the rounding (a sphere's or capsule's radius)
    Transform pose;                          ///< Cylinder: its frame
    Cylinder cylinder;                       ///< Cylinder
    const WorldPolytope* polytope = nullptr; ///< Polytope: a box, hull or triangle, placed

    /// The core's point farthest along d (any non-zero d).
    Vec3 support(const Vec3& d) const;
    /// A point inside the core (its centre).
    Vec3 centre() const;
    /// The core's supporting feature along the unit direction d: one point, a segment
    /// (two points) or a convex polygon (three or more, in order around it).
    void feature(const Vec3& d, std::vector<Vec3>& out) const;
};

/// Places a sphere, capsule, cylinder, box or hull (false for a half-space or a mesh);
/// a box or hull is placed into `storage`, which must outlive `out`.
bool placeConvex(const Shape& shape, const Transform& pose, WorldPolytope& storage, PlacedConvex& out);

/// The expanding polytope algorithm from GJK's final simplex (which holds the origin):
/// the smallest translation of A that separates the cores, as `normal` (unit, from B
/// toward A) and `depth`, and the deepest points of each core. `found` is false when
/// the cores only touch (a flat Minkowski difference) or the polytope degenerates.
struct Penetration {
    bool found = false;
    Vec3 normal = Vec3::UnitY();
    real depth = 0;
    Vec3 pointA = Vec3::Zero(), pointB = Vec3::Zero();
};
Penetration expandPolytope(const PlacedConvex& a, const PlacedConvex& b, const gjk_detail::Simplex& start);

/// The separation of A's and B's surfaces along `normal` (from B toward A), rounding
/// included, and their closest points; GJK while apart, EPA when the cores overlap.
struct ConvexSeparation {
    Vec3 normal = Vec3::UnitY();
    real separation = 0; ///< > 0 apart, < 0 overlapping
    Vec3 pointA = Vec3::Zero(), pointB = Vec3::Zero(); ///< on the surfaces
};
ConvexSeparation separateConvex(const PlacedConvex& a, const PlacedConvex& b);

/// How far [m] the clipped points may fall short of the deepest pair before that pair is
/// added to them: above what a resting cap's fixed square misses (0.3 r sin(tilt), 20
/// micrometres at a hundredth of a degree for r = 0.4 m), below what a test of the depth
/// resolves.
inline constexpr real shortfallTolerance = real(5e-5);

/// The manifold along a known normal and separation: the supporting features clipped
/// against each other, points within `margin`, at most four; the single closest point
/// pair when a feature is a point or nothing survives the clipping, and beside the
/// clipped points when they fall short of it (unless `mayAddDeepest` is false: a mesh
/// triangle's face contact whose deepest point lies over another triangle).
void featureManifold(const PlacedConvex& a, const PlacedConvex& b, const ConvexSeparation& s, real margin,
                     Manifold& out, bool mayAddDeepest);

/// Both steps: false when the shapes are farther apart than `margin`.
bool collideConvex(const PlacedConvex& a, const PlacedConvex& b, real margin, Manifold& out);

} // namespace jounce::detail
