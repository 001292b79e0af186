// SPDX-License-Identifier: MIT
// Triangle mesh data: validation, adjacency (which edges are internal), pseudo-normals
// for signed distance, and the R-tree over triangle boxes.

#include <jounce/collision/triangle_mesh.hpp>

#include "heightfield_index.hpp"
#include <jounce/collision/heightfield.hpp>

#include <jounce/common/error.hpp>

#include <boost/geometry.hpp>
#include <boost/geometry/index/rtree.hpp>
#include <boost/iterator/function_output_iterator.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace jounce {
namespace bg = boost::geometry;
namespace bgi = boost::geometry::index;

namespace {

using Point = bg::model::point<real, 3, bg::cs::cartesian>;
using RBox = bg::model::box<Point>;
using Segment = bg::model::segment<Point>;
using Value = std::pair<RBox, std::uint32_t>;

Point toPoint(const Vec3& v) { return Point(v.x(), v.y(), v.z()); }
RBox toBox(const Aabb& a) { return RBox(toPoint(a.min), toPoint(a.max)); }

std::string triangleText(const std::array<std::uint32_t, 3>& t) {
    return "{" + std::to_string(t[0]) + ", " + std::to_string(t[1]) + ", " + std::to_string(t[2]) + "}";
}

/// The interior angle of triangle (a, b, c) at corner a.
real cornerAngle(const Vec3& a, const Vec3& b, const Vec3& c) {
    const Vec3 u = (b - a).normalized(), v = (c - a).normalized();
    return std::atan2(u.cross(v).norm(), u.dot(v));
}

} // namespace

struct MeshData::Index {
    bgi::rtree<Value, bgi::quadratic<16>> rtree;
};

MeshData::~MeshData() = default;

MeshData::MeshData(std::span<const Vec3> vertices, std::span<const std::array<std::uint32_t, 3>> triangles)
    : vertices_(vertices.begin(), vertices.end()), triangles_(triangles.begin(), triangles.end()) {
    build();
    buildTree();
}

MeshData::MeshData(HeightfieldGrid grid) {
    detail::heightfieldTriangles(grid, vertices_, triangles_);
    grid_ = std::make_unique<const HeightfieldGrid>(std::move(grid));
    build();
}

void MeshData::build() {
    if (vertices_.empty()) throw Error("makeTriangleMesh.vertices", "0 vertices", "a mesh needs vertices");
    if (triangles_.empty()) throw Error("makeTriangleMesh.triangles", "0 triangles", "a mesh needs triangles");
    real extent = 0;
    for (std::size_t i = 0; i < vertices_.size(); ++i) {
        if (!isFinite(vertices_[i]))
            throw Error("makeTriangleMesh.vertices[" + std::to_string(i) + "]", toText(vertices_[i]), "must be finite");
        extent = std::max(extent, vertices_[i].cwiseAbs().maxCoeff());
        bounds_ = bounds_.merged(Aabb{vertices_[i], vertices_[i]});
    }
    // A triangle whose doubled area is below this is a sliver of round-off.
    const real minArea = 64 * std::numeric_limits<real>::epsilon() * std::max(extent * extent, real(1e-30));
    for (std::size_t t = 0; t < triangles_.size(); ++t) {
        const auto& tri = triangles_[t];
        const std::string field = "makeTriangleMesh.triangles[" + std::to_string(t) + "]";
        for (std::uint32_t v : tri)
            if (v >= vertices_.size())
                throw Error(field, triangleText(tri), "index past the " + std::to_string(vertices_.size()) + " vertices");
        const Vec3 n = (vertices_[tri[1]] - vertices_[tri[0]]).cross(vertices_[tri[2]] - vertices_[tri[0]]);
        // A heightfield's cells were checked whole (resolvable spacing); a free mesh's
        // triangles here, against the round-off of its largest coordinate.
        if (!(n.norm() > (grid_ ? real(0) : minArea))) throw Error(field, triangleText(tri), "degenerate: zero area");
        normals_.push_back(n.normalized());
    }

    // Adjacency: every undirected edge and the (triangle, edge) pairs that use it.
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<std::pair<std::uint32_t, int>>> users;
    for (std::uint32_t t = 0; t < triangles_.size(); ++t)
        for (int k = 0; k < 3; ++k) {
            const std::uint32_t u = triangles_[t][static_cast<std::size_t>(k)], v = triangles_[t][static_cast<std::size_t>((k + 1) % 3)];
            users[{std::min(u, v), std::max(u, v)}].emplace_back(t, k);
        }
    activeEdges_.assign(triangles_.size(), 0);
    edgeNormals_.assign(triangles_.size(), {normals_[0], normals_[0], normals_[0]});
    closed_ = true;
    for (const auto& [edge, list] : users) {
        if (list.size() != 2) closed_ = false;
        for (const auto& [t, k] : list) {
            bool active = list.size() != 2;
            Vec3 pseudo = normals_[t];
            if (list.size() == 2) {
                const auto& [t2, k2] = list[0].first == t && list[0].second == k ? list[1] : list[0];
                const auto& a = triangles_[t];
                const auto& b = triangles_[t2];
                const bool consistent = a[static_cast<std::size_t>(k)] == b[static_cast<std::size_t>((k2 + 1) % 3)];
                // The neighbour's far corner below this triangle's plane: a convex edge.
                const Vec3& from = vertices_[a[static_cast<std::size_t>(k)]];
                const Vec3 far = vertices_[b[static_cast<std::size_t>((k2 + 2) % 3)]] - from;
                const real bend = normals_[t].dot(far) / far.norm();
                active = !consistent || bend < real(-1e-5);
                pseudo = normals_[t] + normals_[t2];
                if (!consistent) closed_ = false;
            }
            if (active) activeEdges_[t] |= static_cast<std::uint8_t>(1u << k);
            edgeNormals_[t][static_cast<std::size_t>(k)] = pseudo.normalized();
        }
    }
    vertexNormals_.assign(vertices_.size(), Vec3::Zero());
    for (std::uint32_t t = 0; t < triangles_.size(); ++t) {
        const auto c = corners(t);
        for (int k = 0; k < 3; ++k)
            vertexNormals_[triangles_[t][static_cast<std::size_t>(k)]] +=
                cornerAngle(c[static_cast<std::size_t>(k)], c[static_cast<std::size_t>((k + 1) % 3)], c[static_cast<std::size_t>((k + 2) % 3)]) * normals_[t];
    }
    for (Vec3& n : vertexNormals_)
        if (n.norm() > 0) n.normalize();

}

void MeshData::buildTree() {
    index_ = std::make_unique<Index>();
    std::vector<Value> values;
    values.reserve(triangles_.size());
    for (std::uint32_t t = 0; t < triangles_.size(); ++t) {
        const auto c = corners(t);
        values.emplace_back(toBox(Aabb{c[0].cwiseMin(c[1]).cwiseMin(c[2]), c[0].cwiseMax(c[1]).cwiseMax(c[2])}), t);
    }
    index_->rtree = decltype(index_->rtree)(values.begin(), values.end()); // packing (STR) bulk load
}

std::array<Vec3, 3> MeshData::corners(std::uint32_t t) const {
    const auto& tri = triangles_[t];
    return {vertices_[tri[0]], vertices_[tri[1]], vertices_[tri[2]]};
}

void MeshData::overlapping(const Aabb& box, std::vector<std::uint32_t>& out) const {
    out.clear();
    if (grid_) return detail::gridOverlapping(*this, *grid_, box, out);
    index_->rtree.query(bgi::intersects(toBox(box)),
                        boost::make_function_output_iterator([&](const Value& v) { out.push_back(v.second); }));
    std::sort(out.begin(), out.end());
}

void MeshData::alongSegment(const Vec3& a, const Vec3& b, std::vector<std::uint32_t>& out) const {
    out.clear();
    if (grid_) return detail::gridAlongSegment(*this, *grid_, a, b, out);
    index_->rtree.query(bgi::intersects(Segment(toPoint(a), toPoint(b))),
                        boost::make_function_output_iterator([&](const Value& v) { out.push_back(v.second); }));
    std::sort(out.begin(), out.end());
}

std::uint32_t MeshData::nearest(const Vec3& point, Vec3& closest) const {
    // The few nearest boxes give an upper bound on the distance; every triangle within
    // that bound is then checked exactly. Ties go to the lower index.
    std::uint32_t best = 0;
    real bestDistance = std::numeric_limits<real>::infinity();
    auto consider = [&](std::uint32_t t) {
        const auto c = corners(t);
        Vec3 barycentric;
        const Vec3 q = closestPointOnTriangle(point, c[0], c[1], c[2], barycentric);
        const real d = (q - point).norm();
        if (d < bestDistance || (d == bestDistance && t < best)) {
            bestDistance = d;
            best = t;
            closest = q;
        }
    };
    if (grid_)
        consider(detail::gridNearCandidate(*grid_, point));
    else
        index_->rtree.query(bgi::nearest(toPoint(point), 4),
                            boost::make_function_output_iterator([&](const Value& v) { consider(v.second); }));
    std::vector<std::uint32_t> near;
    overlapping(Aabb{point.array() - bestDistance, point.array() + bestDistance}, near);
    for (std::uint32_t t : near) consider(t);
    return best;
}

Vec3 closestPointOnTriangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c, Vec3& bary) {
    // Voronoi regions of the corners, then edges, then the face (Ericson 5.1.5).
    const Vec3 ab = b - a, ac = c - a, ap = p - a;
    const real d1 = ab.dot(ap), d2 = ac.dot(ap);
    if (d1 <= 0 && d2 <= 0) {
        bary = Vec3(1, 0, 0);
        return a;
    }
    const Vec3 bp = p - b;
    const real d3 = ab.dot(bp), d4 = ac.dot(bp);
    if (d3 >= 0 && d4 <= d3) {
        bary = Vec3(0, 1, 0);
        return b;
    }
    const real vc = d1 * d4 - d3 * d2;
    if (vc <= 0 && d1 >= 0 && d3 <= 0) {
        const real v = d1 / (d1 - d3);
        bary = Vec3(1 - v, v, 0);
        return a + v * ab;
    }
    const Vec3 cp = p - c;
    const real d5 = ab.dot(cp), d6 = ac.dot(cp);
    if (d6 >= 0 && d5 <= d6) {
        bary = Vec3(0, 0, 1);
        return c;
    }
    const real vb = d5 * d2 - d1 * d6;
    if (vb <= 0 && d2 >= 0 && d6 <= 0) {
        const real w = d2 / (d2 - d6);
        bary = Vec3(1 - w, 0, w);
        return a + w * ac;
    }
    const real va = d3 * d6 - d5 * d4;
    if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) {
        const real w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        bary = Vec3(0, 1 - w, w);
        return b + w * (c - b);
    }
    const real denom = 1 / (va + vb + vc);
    const real v = vb * denom, w = vc * denom;
    bary = Vec3(1 - v - w, v, w);
    return a + ab * v + ac * w;
}

} // namespace jounce
