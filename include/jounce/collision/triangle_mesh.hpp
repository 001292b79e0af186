// SPDX-License-Identifier: MIT
#pragma once
/// \file triangle_mesh.hpp
/// Static triangle meshes for level geometry and terrain. The triangles are indexed by
/// a Boost.Geometry R-tree (bulk-loaded once), so a shape touching the mesh tests only
/// the few triangles under its bounding box.
///
/// Internal edges. Where two triangles meet at a flat or concave edge, that edge is not
/// a real corner of the surface: a box sliding across it must see only the face normal,
/// never a normal from the edge (the "bump at the seam" of naive mesh collision). Each
/// triangle records which of its edges are active (convex, or on the mesh's boundary);
/// the narrow phase accepts a normal from an edge or corner only if the edge is active,
/// and otherwise uses the triangle's face normal (the idea of Bullet's internal-edge
/// utility and Jolt's active edges; Gregorius, "Robust contact creation for physics
/// simulations", GDC 2015, discusses the seam problem).

#include <jounce/collision/shapes.hpp>

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace jounce {

struct HeightfieldGrid; // heightfield.hpp

class MeshData {
public:
    /// Validates and indexes the mesh (see makeTriangleMesh).
    MeshData(std::span<const Vec3> vertices, std::span<const std::array<std::uint32_t, 3>> triangles);
    /// The triangles of a validated heightfield grid (see makeHeightfield), the grid
    /// its index in place of the R-tree.
    explicit MeshData(HeightfieldGrid grid);
    ~MeshData();
    MeshData(const MeshData&) = delete;
    MeshData& operator=(const MeshData&) = delete;

    const std::vector<Vec3>& vertices() const { return vertices_; }
    const std::vector<std::array<std::uint32_t, 3>>& triangles() const { return triangles_; }
    std::size_t triangleCount() const { return triangles_.size(); }

    /// The corners of triangle t, counter-clockwise seen from its front.
    std::array<Vec3, 3> corners(std::uint32_t t) const;
    /// Unit front normal of triangle t.
    const Vec3& normal(std::uint32_t t) const { return normals_[t]; }
    /// Whether edge k of triangle t (from corner k to corner k+1) is a real edge of the
    /// surface: on the boundary, shared by more than two triangles, or convex.
    bool edgeActive(std::uint32_t t, int k) const { return (activeEdges_[t] >> k) & 1u; }
    /// Pseudo-normals for signed distance (Baerentzen & Aanaes 2005): the sum of the
    /// two face normals for an edge, the angle-weighted sum for a vertex.
    const Vec3& edgePseudoNormal(std::uint32_t t, int k) const { return edgeNormals_[t][static_cast<std::size_t>(k)]; }
    const Vec3& vertexPseudoNormal(std::uint32_t v) const { return vertexNormals_[v]; }

    /// Bounding box of every vertex, mesh frame.
    const Aabb& bounds() const { return bounds_; }
    /// Whether every edge has exactly two triangles (the mesh encloses a volume).
    bool closed() const { return closed_; }

    /// Triangles whose boxes overlap `box` (mesh frame), sorted by index.
    void overlapping(const Aabb& box, std::vector<std::uint32_t>& out) const;
    /// Triangles whose boxes the segment a-b crosses (mesh frame), sorted by index.
    void alongSegment(const Vec3& a, const Vec3& b, std::vector<std::uint32_t>& out) const;
    /// The triangle nearest to `point` and the closest point on it (mesh frame).
    std::uint32_t nearest(const Vec3& point, Vec3& closest) const;

    /// The grid a heightfield's mesh was made from; null for a mesh of free triangles.
    const HeightfieldGrid* heightfield() const { return grid_.get(); }

private:
    struct Index;
    void build();             ///< validation, normals, adjacency, pseudo-normals
    void buildTree();         ///< the R-tree of a free mesh
    std::unique_ptr<const HeightfieldGrid> grid_;
    std::vector<Vec3> vertices_;
    std::vector<std::array<std::uint32_t, 3>> triangles_;
    std::vector<Vec3> normals_;
    std::vector<std::uint8_t> activeEdges_;
    std::vector<std::array<Vec3, 3>> edgeNormals_;
    std::vector<Vec3> vertexNormals_;
    Aabb bounds_;
    bool closed_ = false;
    std::unique_ptr<Index> index_;
};

/// Closest point to p on triangle abc (Ericson, Real-Time Collision Detection 5.1.5),
/// with its barycentric coordinates (u, v, w) for a, b, c.
Vec3 closestPointOnTriangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c, Vec3& barycentric);

} // namespace jounce
