// SPDX-License-Identifier: MIT
// Heightfield terrain: the grid validated, made into a triangle mesh (two triangles a
// cell, holes left out), and the grid used as that mesh's index: the cells under a
// box, along a segment, or nearest a point come from dividing by the spacing.

#include <jounce/collision/heightfield.hpp>

#include "common/guard.hpp"
#include "common/validate.hpp"
#include "heightfield_index.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace jounce {
namespace {

/// Cells [first, last] of `count` whose span [i, i+1] (cell units) meets [lo, hi],
/// widened by a hair so a box that touches a cell's edge after rounding keeps it (the
/// triangles' own boxes decide). False when none.
bool cellRange(real lo, real hi, std::uint32_t count, std::uint32_t& first, std::uint32_t& last) {
    constexpr real hair = real(1e-4);
    if (!(lo <= hi) || hi < -hair || lo > real(count) + hair) return false;
    const real n = real(count - 1);
    first = static_cast<std::uint32_t>(std::clamp(std::floor(lo - hair), real(0), n));
    last = static_cast<std::uint32_t>(std::clamp(std::floor(hi + hair), real(0), n));
    return true;
}

Aabb triangleBox(const MeshData& mesh, std::uint32_t t) {
    const auto c = mesh.corners(t);
    return {c[0].cwiseMin(c[1]).cwiseMin(c[2]), c[0].cwiseMax(c[1]).cwiseMax(c[2])};
}

/// The lowest and highest sample of cell (cx, cz).
std::pair<real, real> cellHeights(const HeightfieldGrid& g, std::uint32_t cx, std::uint32_t cz) {
    const real a = g.height(cx, cz), b = g.height(cx + 1, cz), c = g.height(cx, cz + 1), d = g.height(cx + 1, cz + 1);
    return {std::min({a, b, c, d}) + g.origin.y(), std::max({a, b, c, d}) + g.origin.y()};
}

void validate(const HeightfieldDesc& d) {
    using detail::maxCoordinate;
    if (d.columns < 2) throw Error("makeHeightfield.columns", std::to_string(d.columns), "needs at least 2 samples");
    if (d.rows < 2) throw Error("makeHeightfield.rows", std::to_string(d.rows), "needs at least 2 samples");
    const std::uint64_t cells = std::uint64_t(d.columns - 1) * (d.rows - 1);
    // Building holds about 600 bytes a cell at its peak (the mesh's adjacency map): 2^22
    // cells (2048 x 2048) take 2.5 GB while they are built.
    constexpr std::uint64_t maxCells = std::uint64_t(1) << 22;
    if (cells > maxCells)
        throw Error("makeHeightfield.columns", std::to_string(d.columns) + " x " + std::to_string(d.rows) + " rows",
                    "more than 2^22 cells");
    detail::requireSize(d.spacingX, "makeHeightfield.spacingX");
    detail::requireSize(d.spacingZ, "makeHeightfield.spacingZ");
    detail::requirePoint(d.origin, "makeHeightfield.origin");
    const std::uint64_t samples = std::uint64_t(d.columns) * d.rows;
    if (d.heights.size() != samples)
        throw Error("makeHeightfield.heights", std::to_string(d.heights.size()) + " values",
                    "needs rows x columns = " + std::to_string(samples));
    real top = 0;
    for (std::size_t i = 0; i < d.heights.size(); ++i) {
        detail::requireInRange(d.heights[i], -maxCoordinate, maxCoordinate,
                               ("makeHeightfield.heights[" + std::to_string(i) + "]").c_str());
        top = std::max(top, std::abs(d.heights[i] + d.origin.y()));
    }
    const Vec3 far = d.origin + Vec3(d.spacingX * real(d.columns - 1), 0, d.spacingZ * real(d.rows - 1));
    if (!(far.cwiseAbs().maxCoeff() <= maxCoordinate))
        throw Error("makeHeightfield.spacingX", toText(d.spacingX) + ", spacingZ " + toText(d.spacingZ),
                    "the far corner " + toText(far) + " is past maxCoordinate");
    // Samples must stay apart after rounding at the grid's largest coordinate, or a cell's
    // triangles are slivers (a float grid 4 km across still takes 1 m cells).
    const real extent = std::max({top, d.origin.cwiseAbs().maxCoeff(), far.cwiseAbs().maxCoeff()});
    const real resolvable = 64 * std::numeric_limits<real>::epsilon() * extent;
    if (!(d.spacingX > resolvable && d.spacingZ > resolvable))
        throw Error("makeHeightfield.spacingX", toText(d.spacingX) + ", spacingZ " + toText(d.spacingZ),
                    "cells this small beside coordinates of " + toText(extent) + " are round-off slivers");
    if (!d.holes.empty()) {
        if (d.holes.size() != cells)
            throw Error("makeHeightfield.holes", std::to_string(d.holes.size()) + " values",
                        "needs none or (rows-1) x (columns-1) = " + std::to_string(cells));
        if (std::all_of(d.holes.begin(), d.holes.end(), [](std::uint8_t h) { return h != 0; }))
            throw Error("makeHeightfield.holes", "every cell a hole", "a heightfield needs one solid cell");
    }
}

} // namespace

TriangleMesh makeHeightfield(const HeightfieldDesc& desc) {
    validate(desc);
    HeightfieldGrid grid;
    grid.columns = desc.columns;
    grid.rows = desc.rows;
    grid.spacingX = desc.spacingX;
    grid.spacingZ = desc.spacingZ;
    grid.origin = desc.origin;
    grid.heights.assign(desc.heights.begin(), desc.heights.end());
    for (const std::uint8_t h : desc.holes) grid.holes.push_back(h != 0 ? 1 : 0);
    return {std::make_shared<const MeshData>(std::move(grid))};
}

TriangleMesh makeHeightfield(const HeightfieldDesc& desc, const ErrorHandler& onError) {
    return detail::guarded(onError, [&] { return makeHeightfield(desc); });
}

namespace detail {

void heightfieldTriangles(HeightfieldGrid& g, std::vector<Vec3>& vertices, std::vector<std::array<std::uint32_t, 3>>& triangles) {
    vertices.clear();
    vertices.reserve(std::size_t(g.columns) * g.rows);
    for (std::uint32_t z = 0; z < g.rows; ++z)
        for (std::uint32_t x = 0; x < g.columns; ++x)
            vertices.push_back(g.origin + Vec3(g.spacingX * real(x), g.height(x, z), g.spacingZ * real(z)));
    triangles.clear();
    g.firstTriangle.assign(std::size_t(g.cellColumns()) * g.cellRows(), HeightfieldGrid::noTriangle);
    for (std::uint32_t cz = 0; cz < g.cellRows(); ++cz)
        for (std::uint32_t cx = 0; cx < g.cellColumns(); ++cx) {
            if (g.hole(cx, cz)) continue;
            const std::uint32_t p00 = cz * g.columns + cx, p10 = p00 + 1, p01 = p00 + g.columns, p11 = p01 + 1;
            g.firstTriangle[std::size_t(cz) * g.cellColumns() + cx] = static_cast<std::uint32_t>(triangles.size());
            // Counter-clockwise seen from +y: (x, z), (x, z+1), (x+1, z) has normal +y.
            triangles.push_back({p00, p01, p10});
            triangles.push_back({p10, p01, p11});
        }
}

void gridOverlapping(const MeshData& mesh, const HeightfieldGrid& g, const Aabb& box, std::vector<std::uint32_t>& out) {
    std::uint32_t x0, x1, z0, z1;
    if (!cellRange((box.min.x() - g.origin.x()) / g.spacingX, (box.max.x() - g.origin.x()) / g.spacingX, g.cellColumns(), x0, x1) ||
        !cellRange((box.min.z() - g.origin.z()) / g.spacingZ, (box.max.z() - g.origin.z()) / g.spacingZ, g.cellRows(), z0, z1))
        return;
    // Row-major cells hold ascending triangle indices, so the list comes out sorted.
    for (std::uint32_t cz = z0; cz <= z1; ++cz)
        for (std::uint32_t cx = x0; cx <= x1; ++cx) {
            const std::uint32_t first = g.firstTriangle[std::size_t(cz) * g.cellColumns() + cx];
            if (first == HeightfieldGrid::noTriangle) continue;
            const auto [low, high] = cellHeights(g, cx, cz);
            if (high < box.min.y() || low > box.max.y()) continue;
            for (std::uint32_t t = first; t < first + 2; ++t)
                if (triangleBox(mesh, t).overlaps(box)) out.push_back(t);
        }
}

void gridAlongSegment(const MeshData&, const HeightfieldGrid& g, const Vec3& a, const Vec3& b, std::vector<std::uint32_t>& out) {
    // In cell units; each column of cells the segment's x-range covers gets the part of
    // the segment over it, whose z-range names the cells and whose y-range is tested
    // against each cell's heights (a conservative rasterization, every cell it touches).
    constexpr real hair = real(1e-4);
    const real ax = (a.x() - g.origin.x()) / g.spacingX, bx = (b.x() - g.origin.x()) / g.spacingX;
    const real az = (a.z() - g.origin.z()) / g.spacingZ, bz = (b.z() - g.origin.z()) / g.spacingZ;
    std::uint32_t x0, x1;
    if (!cellRange(std::min(ax, bx), std::max(ax, bx), g.cellColumns(), x0, x1)) return;
    const real run = bx - ax;
    for (std::uint32_t cx = x0; cx <= x1; ++cx) {
        real t0 = 0, t1 = 1;
        if (std::abs(run) > hair) {
            t0 = (real(cx) - hair - ax) / run;
            t1 = (real(cx + 1) + hair - ax) / run;
            if (t0 > t1) std::swap(t0, t1);
            t0 = std::max(t0, real(0));
            t1 = std::min(t1, real(1));
            if (t0 > t1) continue;
        }
        const real za = az + t0 * (bz - az), zb = az + t1 * (bz - az);
        const real ya = a.y() + t0 * (b.y() - a.y()), yb = a.y() + t1 * (b.y() - a.y());
        std::uint32_t z0, z1;
        if (!cellRange(std::min(za, zb), std::max(za, zb), g.cellRows(), z0, z1)) continue;
        for (std::uint32_t cz = z0; cz <= z1; ++cz) {
            const std::uint32_t first = g.firstTriangle[std::size_t(cz) * g.cellColumns() + cx];
            if (first == HeightfieldGrid::noTriangle) continue;
            const auto [low, high] = cellHeights(g, cx, cz);
            if (high < std::min(ya, yb) || low > std::max(ya, yb)) continue;
            out.push_back(first);
            out.push_back(first + 1);
        }
    }
    std::sort(out.begin(), out.end());
}

std::uint32_t gridNearCandidate(const HeightfieldGrid& g, const Vec3& point) {
    const auto clampCell = [](real u, std::uint32_t count) {
        // NaN goes to cell 0 (a cast of NaN is undefined); the caller's checks find nothing near it.
        return static_cast<std::int64_t>(std::isnan(u) ? real(0) : std::clamp(std::floor(u), real(0), real(count - 1)));
    };
    const std::int64_t cx = clampCell((point.x() - g.origin.x()) / g.spacingX, g.cellColumns());
    const std::int64_t cz = clampCell((point.z() - g.origin.z()) / g.spacingZ, g.cellRows());
    const std::int64_t columns = g.cellColumns(), rows = g.cellRows();
    const auto solid = [&](std::int64_t x, std::int64_t z) {
        return x >= 0 && z >= 0 && x < columns && z < rows && g.firstTriangle[std::size_t(z * columns + x)] != HeightfieldGrid::noTriangle;
    };
    // Rings of growing distance around the point's cell, walked along their perimeter
    // (8r cells, so a lake of holes costs its area, not its area times its width); the
    // first solid cell's triangle is a bound the caller then improves on.
    if (solid(cx, cz)) return g.firstTriangle[std::size_t(cz * columns + cx)];
    for (std::int64_t r = 1; r <= std::max(columns, rows); ++r) {
        for (std::int64_t x = cx - r; x <= cx + r; ++x) // the top and bottom rows of the ring
            for (const std::int64_t z : {cz - r, cz + r})
                if (solid(x, z)) return g.firstTriangle[std::size_t(z * columns + x)];
        for (std::int64_t z = cz - r + 1; z <= cz + r - 1; ++z) // its sides
            for (const std::int64_t x : {cx - r, cx + r})
                if (solid(x, z)) return g.firstTriangle[std::size_t(z * columns + x)];
    }
    return 0; // unreachable: validation keeps one solid cell
}

} // namespace detail
} // namespace jounce
