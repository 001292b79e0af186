// SPDX-License-Identifier: MIT
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

#include <jounce/collision/mass_properties.hpp>
#include <jounce/common/math.hpp>

#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace jounce {

struct HullFace {
    Vec3 normal = Vec3::UnitY();          ///< unit, outward
    real offset = 0;                      ///< plane: normal . x = offset
    std::vector<std::uint32_t> vertices;  ///< counter-clockwise seen from outside
};

/// An edge between two faces, for the separating axis test between polyhedra.
struct HullEdge {
    std::uint32_t a = 0, b = 0;           ///< vertex indices
    std::uint32_t faceLeft = 0;           ///< the face that runs a -> b counter-clockwise
    std::uint32_t faceRight = 0;          ///< the face that runs b -> a
};

struct HullData {
    std::vector<Vec3> vertices;           ///< only the hull's corners, in input order
    std::vector<HullFace> faces;
    std::vector<HullEdge> edges;          ///< each edge once, sorted by (a, b)
    Vec3 centroid = Vec3::Zero();         ///< mean of the corners: a point strictly inside
    real tolerance = 0;                   ///< the distance below which points counted as on a face
};

/// Fills `edges` and `centroid` from `vertices` and `faces` (the hull builder calls it;
/// it is public so hand-made polytopes such as a box can use the same SAT code).
void finishHullTopology(HullData& hull);

/// Builds the hull of `points` (any order, duplicates allowed). Deterministic: the
/// same points in the same order give the same hull.
HullData buildConvexHull(std::span<const Vec3> points);

/// Volume, centroid and inertia about the centroid at uniform density, by summing the
/// signed tetrahedra from a point inside to each face triangle (covariance method).
MassProperties hullMassProperties(const HullData& hull, real density);
real hullVolume(const HullData& hull);

/// The same for any closed, consistently wound triangle mesh (outward normals).
MassProperties closedMeshMassProperties(std::span<const Vec3> vertices,
                                        std::span<const std::array<std::uint32_t, 3>> triangles, real density);

} // namespace jounce
