// SPDX-License-Identifier: MIT
#pragma once
/// \file heightfield.hpp
/// Heightfield terrain: a regular grid of heights, with holes, made into a static
/// TriangleMesh whose grid is its index. Because it *is* a triangle mesh, every pair the
/// mesh already has (boxes, spheres, capsules, hulls, particles, deformables), the ray
/// and shape casts, the character and the vehicle meet terrain through the same
/// triangle code with the same internal-edge rules, so a box slides over a cell's
/// diagonal without a bump. What differs is the index: a box or a segment finds its
/// cells by arithmetic on the grid (O(cells touched)), where a free mesh asks an R-tree.
///
/// Layout (Jolt's HeightFieldShape and PhysX's convention): sample (x, z), for x in
/// [0, columns) and z in [0, rows), sits at origin + (x spacingX, heights[z columns + x],
/// z spacingZ) in the shape's frame, so +y is up and the surface faces +y. Cell (x, z)
/// spans samples x..x+1, z..z+1 and is cut along the diagonal from (x+1, z) to (x, z+1)
/// into two triangles; a hole removes both.

#include <jounce/collision/shapes.hpp>

#include <cstdint>
#include <limits>
#include <span>
#include <vector>

namespace jounce {

/// What makeHeightfield reads. The spans are copied; they need live only for the call.
struct HeightfieldDesc {
    std::uint32_t columns = 0;          ///< samples along x, >= 2
    std::uint32_t rows = 0;             ///< samples along z, >= 2
    real spacingX = 1;                  ///< [m] between samples along x, > 0
    real spacingZ = 1;                  ///< [m] between samples along z, > 0
    Vec3 origin = Vec3::Zero();         ///< [m] where sample (0, 0) at height 0 sits (shape frame)
    std::span<const real> heights;      ///< [m] rows x columns, row-major: heights[z * columns + x]
    std::span<const std::uint8_t> holes; ///< empty, or (rows-1) x (columns-1) cells, non-zero = no ground there
};

/// The grid a heightfield mesh was made from (MeshData::heightfield()), kept to find
/// cells and to write the terrain back out as a grid (snapshots, scene files).
struct HeightfieldGrid {
    static constexpr std::uint32_t noTriangle = std::numeric_limits<std::uint32_t>::max();

    std::uint32_t columns = 0, rows = 0;
    real spacingX = 1, spacingZ = 1;
    Vec3 origin = Vec3::Zero();
    std::vector<real> heights;               ///< rows x columns
    std::vector<std::uint8_t> holes;         ///< (rows-1) x (columns-1), 0 or 1; empty if none
    std::vector<std::uint32_t> firstTriangle; ///< per cell: its two triangles' first index, or noTriangle

    std::uint32_t cellColumns() const { return columns - 1; }
    std::uint32_t cellRows() const { return rows - 1; }
    bool hole(std::uint32_t cx, std::uint32_t cz) const { return !holes.empty() && holes[cz * cellColumns() + cx] != 0; }
    real height(std::uint32_t x, std::uint32_t z) const { return heights[std::size_t(z) * columns + x]; }
};

/// Builds the terrain. Throws jounce::Error naming the field (makeHeightfield.columns,
/// .rows, .spacingX, .spacingZ, .origin, .heights[i], .holes) for sizes below 2, more
/// than 2^22 cells (2048 x 2048), spans of the wrong length, non-finite or out-of-range numbers, a
/// grid of nothing but holes, or spacing so fine beside the heights that a cell's
/// triangles are round-off slivers.
TriangleMesh makeHeightfield(const HeightfieldDesc& desc);
/// Without exceptions: the error goes to `onError` and the shape comes back empty.
TriangleMesh makeHeightfield(const HeightfieldDesc& desc, const ErrorHandler& onError);

} // namespace jounce
