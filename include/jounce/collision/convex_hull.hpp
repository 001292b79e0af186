#pragma once
/// \file convex_hull.hpp
/// Convex hulls built from point clouds with quickhull (Barber, Dobkin & Huhdanpaa
/// 1996): start from a tetrahedron of extreme points, then repeatedly take the point
/// farthest outside some face, remove every face it sees and fan new faces from it to
/// the horizon. Coplanar triangles are merged into polygons at the end, so a box's hull
/// has 6 quads, which is what contact clipping wants.
///
/// Bad input is reported, never crashed on: fewer than 4 distinct points, all points
/// collinear or coplanar (no volume), or a non-finite coordinate throws jounce::Error
/// naming the problem. Points closer than the tolerance to a face count as on it.

#include <jounce/physics/mass_properties.hpp>
#include <jounce/physics/math.hpp>

#include <cstdint>
#include <span>
#include <vector>

namespace jounce {

struct HullFace {
    Vec3 normal = Vec3::UnitY();          ///< unit, outward
    real offset = 0;                      ///< plane: normal . x = offset
    std::vector<std::uint32_t> vertices;  ///< counter-clockwise seen from outside
};

struct HullData {
    std::vector<Vec3> vertices;           ///< only the hull's corners, in input order
    std::vector<HullFace> faces;
    real tolerance = 0;                   ///< the distance below which points counted as on a face
};

/// Builds the hull of `points` (any order, duplicates allowed). Deterministic: the
/// same points in the same order give the same hull.
HullData buildConvexHull(std::span<const Vec3> points);

/// Volume, centroid and inertia about the centroid at uniform density, by summing the
/// signed tetrahedra from a point inside to each face triangle (covariance method).
MassProperties hullMassProperties(const HullData& hull, real density);
real hullVolume(const HullData& hull);

} // namespace jounce
