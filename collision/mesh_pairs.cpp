// SPDX-License-Identifier: MIT
// Convex shapes against a static triangle mesh, in the mesh's frame:
//  1. the R-tree gives the triangles under the shape's box (grown by the margin);
//  2. each triangle is tested as a one-sided, two-faced polytope: shapes whose centre
//     lies behind a triangle's plane are ignored by it (the triangle's front is the
//     surface, its back is the inside of the level);
//  3. a normal from a triangle's edge or corner is used only if that edge is active
//     (convex or on the boundary); an internal edge (between coplanar or concave
//     neighbours) never makes a normal. Polytopes then take the face contact clipped to
//     the triangle, rounded shapes leave the contact to the neighbour that owns it;
//  4. manifolds with the same normal (coplanar triangles) are merged and reduced to 4
//     points, so a box on a flat floor of many triangles gets one manifold.

#include "collision/convex_pairs.hpp"
#include "collision/polytope.hpp"

#include <jounce/collision/gjk.hpp>
#include <jounce/collision/narrow_phase.hpp>
#include <jounce/collision/triangle_mesh.hpp>

#include <algorithm>
#include <limits>
#include <cmath>

namespace jounce {
namespace {

using detail::Candidate;
using detail::WorldPolytope;

/// Front face (0, 1, 2), back face (0, 2, 1), three edges: the topology every triangle
/// shares. Its vertices are placeholders; placeTriangle fills in the corners.
const HullData& triangleTopology() {
    static const HullData topology = [] {
        HullData h;
        h.vertices = {Vec3::Zero(), Vec3::UnitX(), Vec3::UnitY()};
        h.faces = {HullFace{Vec3::UnitZ(), 0, {0, 1, 2}}, HullFace{-Vec3::UnitZ(), 0, {0, 2, 1}}};
        finishHullTopology(h);
        return h;
    }();
    return topology;
}

void placeTriangle(const std::array<Vec3, 3>& c, const Vec3& n, WorldPolytope& out) {
    out.hull = &triangleTopology();
    out.vertices.assign(c.begin(), c.end());
    out.normals = {n, -n};
    out.offsets = {n.dot(c[0]), -n.dot(c[0])};
    out.centroid = (c[0] + c[1] + c[2]) / 3;
}

/// Which feature of the triangle a barycentric point is on: 3 face, 0-2 edge k (from
/// corner k to k+1), 4 + i corner i.
int featureOf(const Vec3& bary) {
    // A point on an edge has one coordinate zero up to rounding: 1e-17 in double, but
    // 1e-8 in float, which read as "inside" made a sphere beside a heightfield's flat
    // diagonal take the edge's tilted normal as the face's.
    constexpr real eps = std::max(real(1e-9), 64 * std::numeric_limits<real>::epsilon());
    const bool in0 = bary[0] > eps, in1 = bary[1] > eps, in2 = bary[2] > eps;
    if (in0 && in1 && in2) return 3;
    if (in0 && in1) return 0;
    if (in1 && in2) return 1;
    if (in2 && in0) return 2;
    return in0 ? 4 : in1 ? 5 : 6;
}

/// Whether a normal coming from `feature` of triangle t may be used.
bool featureActive(const MeshData& mesh, std::uint32_t t, int feature) {
    if (feature == 3) return true;
    if (feature < 3) return mesh.edgeActive(t, feature);
    const int corner = feature - 4; // edges corner -> corner+1 and corner-1 -> corner
    return mesh.edgeActive(t, corner) || mesh.edgeActive(t, (corner + 2) % 3);
}

bool parallel(const Vec3& a, const Vec3& b) { return a.dot(b) >= 1 - real(1e-9); }

/// Sphere or capsule (core segment p-q) against triangle t.
bool roundedTriangle(const Vec3& p, const Vec3& q, real radius, const MeshData& mesh, std::uint32_t t, real margin,
                     Manifold& out) {
    out.count = 0;
    const auto c = mesh.corners(t);
    const Vec3& n = mesh.normal(t);
    const real offset = n.dot(c[0]);
    const auto segmentSupport = [&](const Vec3& d) -> Vec3 { return d.dot(q - p) > 0 ? q : p; };
    const auto triangleSupport = [&](const Vec3& d) -> Vec3 {
        const real d0 = d.dot(c[0]), d1 = d.dot(c[1]), d2 = d.dot(c[2]);
        return d0 >= d1 && d0 >= d2 ? c[0] : d1 >= d2 ? c[1] : c[2];
    };
    const GjkResult g = gjkDistance(segmentSupport, triangleSupport, n);
    const real tiny = std::sqrt(std::numeric_limits<real>::epsilon()) * (1 + c[0].cwiseAbs().maxCoeff());
    Vec3 normal = n;
    real separation;
    Vec3 core;
    std::uint32_t feature = 3;
    if (!g.overlap && g.distance > tiny) {
        if (g.distance - radius > margin) return false;
        normal = (g.pointA - g.pointB) / g.distance;
        Vec3 bary;
        closestPointOnTriangle(g.pointB, c[0], c[1], c[2], bary);
        const int region = featureOf(bary);
        if (!parallel(normal, n)) {
            // From an edge or corner: only a real (active) one may push, and only from
            // the front. Otherwise the neighbouring triangle owns this contact.
            if (!featureActive(mesh, t, region) || normal.dot(n) < -real(1e-6)) return false;
            feature = static_cast<std::uint32_t>(region);
        } else {
            normal = n;
        }
        separation = g.distance - radius;
        core = g.pointA;
    } else {
        // The core touches or crosses the triangle: push out along the face normal.
        core = n.dot(p) <= n.dot(q) ? p : q;
        separation = n.dot(core) - offset - radius;
    }
    if (separation > margin) return false;
    out.normal = normal;
    // A capsule lying flat: both ends clipped to the triangle's prism.
    if (p != q && feature == 3 && std::abs((q - p).normalized().dot(n)) < real(0.05)) {
        Vec3 a = p, b = q;
        bool inside = true;
        for (int k = 0; k < 3 && inside; ++k) {
            const Vec3& u = c[static_cast<std::size_t>(k)];
            const Vec3 side = (c[static_cast<std::size_t>((k + 1) % 3)] - u).cross(n).normalized();
            const real da = side.dot(a - u), db = side.dot(b - u);
            if (da > 0 && db > 0) inside = false;
            else if (da > 0) a += (b - a) * (da / (da - db));
            else if (db > 0) b += (a - b) * (db / (db - da));
        }
        if (inside) {
            int end = 0;
            for (const Vec3& x : {a, b}) {
                const real s = n.dot(x) - offset - radius;
                if (s <= margin) out.add(x - n * (radius + s / 2), -s, detail::packFeature(6, 3, static_cast<std::uint32_t>(end), 0));
                ++end;
            }
            if (out.count > 0) return true;
        }
    }
    out.add(core - normal * (radius + separation / 2), -separation, detail::packFeature(7, feature, 0, 0));
    return true;
}

// A triangle's face must lose to another axis by this much [m] before that axis is
// used: resting contacts then keep the face normal.
constexpr real faceTolerance = real(0.005);

/// Box or hull (placed in the mesh frame) against triangle t.
bool polytopeTriangle(const WorldPolytope& shape, const MeshData& mesh, std::uint32_t t, real margin, Manifold& out,
                      WorldPolytope& tri) {
    out.count = 0;
    const auto c = mesh.corners(t);
    const Vec3& n = mesh.normal(t);
    placeTriangle(c, n, tri);
    const real faceSeparation = shape.minAlong(n) - tri.offsets[0];
    if (faceSeparation > margin) return false;

    // The shape's faces.
    int bestFace = -1;
    real best = -std::numeric_limits<real>::infinity();
    // One-sided: an axis that would push the shape toward the triangle's back (a face
    // of the shape facing the way the triangle does, so its contact normal -nf points
    // down through it) still separates, but is never the contact's. A thin box spinning
    // on a two-triangle floor got its top face from one triangle and was pinned between
    // two opposite normals until it passed through.
    // Axes along the triangle's plane (a box's side against a ledge's edge) stay usable
    // whichever way rounding tips them: only those more than 0.06 degrees under it are out.
    const auto frontFacing = [&](const Vec3& towardShape) { return towardShape.dot(n) > -real(1e-3); };
    for (std::size_t f = 0; f < shape.normals.size(); ++f) {
        const real s = tri.minAlong(shape.normals[f]) - shape.offsets[f];
        if (s > margin) return false;
        if (s > best && frontFacing(-shape.normals[f])) {
            best = s;
            bestFace = static_cast<int>(f);
        }
    }
    // Triangle edges against the shape's edges.
    int bestEdge = -1, bestShapeEdge = -1;
    real bestEdgeSeparation = -std::numeric_limits<real>::infinity();
    Vec3 bestAxis = n;
    for (int k = 0; k < 3; ++k) {
        const Vec3& u = c[static_cast<std::size_t>(k)];
        const Vec3 e = c[static_cast<std::size_t>((k + 1) % 3)] - u;
        for (std::size_t j = 0; j < shape.hull->edges.size(); ++j) {
            const HullEdge& se = shape.hull->edges[j];
            Vec3 l = e.cross(shape.vertices[se.b] - shape.vertices[se.a]);
            const real length = l.norm();
            if (length <= real(1e-6) * e.norm() * (shape.vertices[se.b] - shape.vertices[se.a]).norm()) continue;
            l /= length;
            if (l.dot(shape.centroid - tri.centroid) < 0) l = -l; // from the triangle toward the shape
            const real s = shape.minAlong(l) + tri.minAlong(-l); // shape's low end minus triangle's high end
            if (s > margin) return false;
            if (s > bestEdgeSeparation && frontFacing(l)) {
                bestEdgeSeparation = s;
                bestEdge = k;
                bestShapeEdge = static_cast<int>(j);
                bestAxis = l;
            }
        }
    }

    // Another axis beats the face clearly: use it if the triangle feature it comes
    // from is a real edge; otherwise keep the face (the internal-edge rule).
    if (bestEdge >= 0 && bestEdgeSeparation > faceSeparation + faceTolerance && bestEdgeSeparation >= best &&
        mesh.edgeActive(t, bestEdge)) {
        const HullEdge& se = shape.hull->edges[static_cast<std::size_t>(bestShapeEdge)];
        const Vec3& p1 = c[static_cast<std::size_t>(bestEdge)];
        const Vec3& q1 = c[static_cast<std::size_t>((bestEdge + 1) % 3)];
        const SegmentParameters st = closestSegmentParameters(p1, q1, shape.vertices[se.a], shape.vertices[se.b]);
        const Vec3 onTri = p1 + st.s * (q1 - p1);
        const Vec3 onShape = shape.vertices[se.a] + st.t * (shape.vertices[se.b] - shape.vertices[se.a]);
        out.normal = bestAxis;
        out.add((onTri + onShape) / 2, -bestEdgeSeparation,
                detail::packFeature(8, static_cast<std::uint32_t>(bestEdge), static_cast<std::uint32_t>(bestShapeEdge), 0));
        return true;
    }
    if (bestFace >= 0 && best > faceSeparation + faceTolerance) {
        // The triangle's corners nearest the shape's face say which feature touches.
        const Vec3& nf = shape.normals[static_cast<std::size_t>(bestFace)];
        const real low = tri.minAlong(nf);
        const real tolerance = real(1e-6) * (1 + std::abs(low));
        int touching = 0, corner = -1, count = 0;
        for (int k = 0; k < 3; ++k)
            if (nf.dot(c[static_cast<std::size_t>(k)]) <= low + tolerance) {
                touching |= 1 << k;
                corner = k;
                ++count;
            }
        int feature = 3;
        if (count == 1) feature = 4 + corner;
        else if (count == 2) feature = touching == 3 ? 0 : touching == 6 ? 1 : 2;
        if (featureActive(mesh, t, feature))
            return detail::clipFaceContact(shape, bestFace, tri, true, margin, out);
    }
    return detail::clipFaceContact(tri, 0, shape, false, margin, out);
}

/// A cylinder (placed in the mesh frame) against triangle t: the general convex path
/// (GJK, EPA, clipped features) with the same internal-edge rule as the polytopes: a
/// normal that is not the face's is used only if it beats the face by faceTolerance and
/// the edge or corner it comes from is active; otherwise the face's contact is taken.
bool convexTriangle(const detail::PlacedConvex& shape, const MeshData& mesh, std::uint32_t t, real margin, Manifold& out,
                    WorldPolytope& tri) {
    out.count = 0;
    const auto c = mesh.corners(t);
    const Vec3& n = mesh.normal(t);
    placeTriangle(c, n, tri);
    const Vec3 lowest = shape.support(-n);
    const real faceSeparation = n.dot(lowest) - tri.offsets[0];
    if (faceSeparation > margin) return false;
    detail::PlacedConvex triangle;
    triangle.kind = detail::PlacedConvex::Kind::Polytope;
    triangle.polytope = &tri;
    detail::ConvexSeparation s = detail::separateConvex(shape, triangle);
    if (s.separation > margin) return false;
    bool useFace = parallel(s.normal, n) || s.separation <= faceSeparation + faceTolerance;
    if (!useFace) {
        Vec3 bary;
        closestPointOnTriangle(s.pointB, c[0], c[1], c[2], bary);
        useFace = !featureActive(mesh, t, featureOf(bary)) || s.normal.dot(n) < -real(1e-6);
    }
    bool overTriangle = true;
    if (useFace) {
        s.normal = n;
        s.separation = faceSeparation;
        s.pointA = lowest;
        s.pointB = lowest - n * faceSeparation;
        // The lowest point stands for this triangle only if it lies over it; otherwise
        // its neighbour reports it.
        Vec3 bary;
        closestPointOnTriangle(s.pointB, c[0], c[1], c[2], bary);
        overTriangle = featureOf(bary) == 3;
    }
    detail::featureManifold(shape, triangle, s, margin, out, overTriangle);
    return out.count > 0;
}

} // namespace

int collideMesh(const Shape& a, const Transform& pa, const TriangleMesh& b, const Transform& pb, real margin,
                std::vector<Manifold>& out) {
    const MeshData& mesh = *b.mesh;
    const Transform local = pb.inverse() * pa; // the shape in the mesh's frame
    std::vector<std::uint32_t> triangles;
    mesh.overlapping(computeAabb(a, local).fattened(margin), triangles);
    if (triangles.empty()) return 0;

    WorldPolytope polytope, tri;
    const bool isPolytope = detail::placePolytope(a, local, polytope);
    detail::PlacedConvex cylinder;
    const bool isCylinder = std::holds_alternative<Cylinder>(a) && detail::placeConvex(a, local, polytope, cylinder);
    Vec3 p = local.position, q = local.position;
    real radius = 0;
    if (const auto* s = std::get_if<Sphere>(&a)) radius = s->radius;
    if (const auto* c = std::get_if<Capsule>(&a)) {
        radius = c->radius;
        const Vec3 half = local.directionToWorld(Vec3(0, c->halfHeight, 0));
        p = local.position - half;
        q = local.position + half;
    }

    // Per-triangle manifolds, grouped by normal in order of first appearance.
    struct Group {
        Vec3 normal;
        std::vector<Candidate> points;
    };
    std::vector<Group> groups;
    // One-sided: a triangle whose plane the shape's centre is behind is skipped. The
    // centre is the hull's centroid, not its frame's origin: a hull built from points
    // that are not centred (a wedge whose origin is on its base) sank through the
    // floor as soon as its origin dipped under the triangles.
    const Vec3 centre = isPolytope ? polytope.centroid : local.position;
    for (std::uint32_t t : triangles) {
        const Vec3& n = mesh.normal(t);
        if (n.dot(centre) < n.dot(mesh.vertices()[mesh.triangles()[t][0]])) continue; // behind: one-sided
        Manifold m;
        const bool hit = isPolytope   ? polytopeTriangle(polytope, mesh, t, margin, m, tri)
                         : isCylinder ? convexTriangle(cylinder, mesh, t, margin, m, tri)
                                      : roundedTriangle(p, q, radius, mesh, t, margin, m);
        if (!hit) continue;
        auto group = std::find_if(groups.begin(), groups.end(), [&](const Group& g) { return parallel(g.normal, m.normal); });
        if (group == groups.end()) {
            groups.push_back({m.normal, {}});
            group = std::prev(groups.end());
        }
        for (int k = 0; k < m.count; ++k) {
            const ContactPoint& c = m.points[static_cast<std::size_t>(k)];
            // A point on the edge two triangles share is clipped out of both: keep one.
            const bool seen = std::any_of(group->points.begin(), group->points.end(), [&](const Candidate& p) {
                return (p.point - c.point).squaredNorm() <= real(1e-12) && std::abs(p.depth - c.depth) <= real(1e-6);
            });
            if (!seen) group->points.push_back({c.point, c.depth, c.feature ^ (t * 2654435761u)}); // distinct per triangle
        }
    }
    for (Group& g : groups) {
        detail::reduceToFour(g.points, g.normal);
        Manifold m;
        m.normal = pb.directionToWorld(g.normal);
        for (const Candidate& c : g.points) m.add(pb.toWorld(c.point), c.depth, c.feature);
        out.push_back(m);
    }
    return static_cast<int>(groups.size());
}

} // namespace jounce
