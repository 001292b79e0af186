// SPDX-License-Identifier: MIT
#pragma once
// The grid of a heightfield as a triangle mesh's index (heightfield.cpp): its
// triangles, and the triangles a box, a segment or a point may touch, found by
// arithmetic on the cells instead of a tree.

#include <jounce/collision/heightfield.hpp>
#include <jounce/collision/triangle_mesh.hpp>

#include <cstdint>
#include <vector>

namespace jounce::detail {

/// The grid's samples as vertices and its cells (row-major, holes left out) as two
/// triangles each; fills grid.firstTriangle.
void heightfieldTriangles(HeightfieldGrid& grid, std::vector<Vec3>& vertices,
                          std::vector<std::array<std::uint32_t, 3>>& triangles);

/// Triangles whose boxes overlap `box`, in index order (MeshData::overlapping).
void gridOverlapping(const MeshData& mesh, const HeightfieldGrid& grid, const Aabb& box, std::vector<std::uint32_t>& out);

/// Triangles of every cell the segment a-b passes over whose height range it meets,
/// in index order (MeshData::alongSegment; a superset of those it crosses).
void gridAlongSegment(const MeshData& mesh, const HeightfieldGrid& grid, const Vec3& a, const Vec3& b,
                      std::vector<std::uint32_t>& out);

/// A triangle of the solid cell nearest to `point` across the grid: a first bound
/// for MeshData::nearest.
std::uint32_t gridNearCandidate(const HeightfieldGrid& grid, const Vec3& point);

} // namespace jounce::detail
