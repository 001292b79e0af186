// SPDX-License-Identifier: MIT
// Convex hulls against every convex shape.
//  - box or hull against hull: the separating axis test between polytopes
//    (collision/polytope.cpp), a box being the unit cube's hull scaled;
//  - sphere or capsule against hull: GJK between the core (centre point or segment)
//    and the hull gives the distance, and the radius is subtracted; when the core
//    itself is inside, the SAT over the hull's faces (and, for a segment, the
//    segment-edge cross products) gives the exact depth;
//  - hull against half-space: every vertex within the margin of the plane.

#include "collision/polytope.hpp"

#include <jounce/collision/gjk.hpp>
#include <jounce/collision/narrow_phase.hpp>

#include <algorithm>
#include <cmath>

namespace jounce {
namespace {

using detail::Candidate;
using detail::WorldPolytope;

Vec3 supportOf(const WorldPolytope& p, const Vec3& d) {
    std::size_t best = 0;
    real top = p.vertices[0].dot(d);
    for (std::size_t i = 1; i < p.vertices.size(); ++i) {
        const real s = p.vertices[i].dot(d);
        if (s > top) {
            top = s;
            best = i;
        }
    }
    return p.vertices[best];
}

/// The face of `p` whose normal is closest to `n`.
std::size_t mostAligned(const WorldPolytope& p, const Vec3& n) {
    std::size_t best = 0;
    for (std::size_t f = 1; f < p.normals.size(); ++f)
        if (p.normals[f].dot(n) > p.normals[best].dot(n)) best = f;
    return best;
}

/// Segment p-q (a point when p == q) with `radius` against polytope B; A is the
/// rounded shape. Fills the manifold with the normal from B toward A.
bool roundedAgainstPolytope(const Vec3& p, const Vec3& q, real radius, const WorldPolytope& b, real margin,
                            Manifold& out) {
    out.count = 0;
    const auto segmentSupport = [&](const Vec3& d) -> Vec3 { return d.dot(q - p) > 0 ? q : p; };
    const auto hullSupport = [&](const Vec3& d) { return supportOf(b, d); };
    const GjkResult g = gjkDistance(segmentSupport, hullSupport, Vec3(b.centroid - p));
    const bool isPoint = p == q;

    Vec3 normal = Vec3::UnitY();
    real coreSeparation; // of the core from the hull along `normal`
    std::uint32_t featureBase = 0;
    // GJK's distance is only as good as its last simplex: below sqrt(epsilon) of the
    // scale (1.5e-8 m in double, 3e-4 m in float) the core counts as touching and the
    // exact SAT below takes over.
    const real tiny = std::sqrt(std::numeric_limits<real>::epsilon()) * (1 + b.vertices[0].cwiseAbs().maxCoeff());
    if (!g.overlap && g.distance > tiny) {
        if (g.distance - radius > margin) return false;
        normal = (g.pointA - g.pointB) / g.distance;
        coreSeparation = g.distance;
        featureBase = static_cast<std::uint32_t>(mostAligned(b, normal));
    } else {
        // The core is inside: the least-penetrated axis among the hull's faces and, for
        // a segment, the cross products of the segment with the hull's edges.
        coreSeparation = -std::numeric_limits<real>::infinity();
        for (std::size_t f = 0; f < b.normals.size(); ++f) {
            const real s = std::min(b.normals[f].dot(p), b.normals[f].dot(q)) - b.offsets[f];
            if (s > coreSeparation) {
                coreSeparation = s;
                normal = b.normals[f];
                featureBase = static_cast<std::uint32_t>(f);
            }
        }
        if (!isPoint) {
            const Vec3 axis = q - p;
            for (std::size_t e = 0; e < b.hull->edges.size(); ++e) {
                const HullEdge& edge = b.hull->edges[e];
                Vec3 l = axis.cross(b.vertices[edge.b] - b.vertices[edge.a]);
                if (l.norm() <= real(1e-6) * axis.norm()) continue;
                l.normalize();
                if (l.dot(b.vertices[edge.a] - b.centroid) < 0) l = -l; // out of the hull
                const real s = std::min(l.dot(p), l.dot(q)) - (-b.minAlong(-l));
                if (s > coreSeparation + real(1e-9)) {
                    coreSeparation = s;
                    normal = l;
                    featureBase = 0x80u | static_cast<std::uint32_t>(e);
                }
            }
        }
    }
    out.normal = normal;
    if (!isPoint) {
        // A capsule lying flat on a face: both ends, clipped to the face, so it rests on
        // two points instead of rocking on one.
        const std::size_t f = mostAligned(b, normal);
        const Vec3 axis = (q - p).normalized();
        if (b.normals[f].dot(normal) > real(0.9999) && std::abs(axis.dot(normal)) < real(0.05)) {
            std::vector<detail::ClipPoint> seg{{p, 0}, {q, 1}}, scratch;
            const auto& loop = b.hull->faces[f].vertices;
            const Vec3 n = b.normals[f];
            for (std::size_t k = 0; k < loop.size() && seg.size() == 2; ++k) {
                const Vec3& u = b.vertices[loop[k]];
                const Vec3& v = b.vertices[loop[(k + 1) % loop.size()]];
                const Vec3 side = (v - u).cross(n).normalized();
                const real du = side.dot(seg[0].x) - side.dot(u), dv = side.dot(seg[1].x) - side.dot(u);
                if (du > 0 && dv > 0) seg.clear();
                else if (du > 0) seg[0].x += (seg[1].x - seg[0].x) * (du / (du - dv));
                else if (dv > 0) seg[1].x += (seg[0].x - seg[1].x) * (dv / (dv - du));
            }
            if (seg.size() == 2) {
                out.normal = n;
                for (const auto& c : seg) {
                    const real s = n.dot(c.x) - b.offsets[f] - radius;
                    if (s <= margin) out.add(c.x - n * (radius + s / 2), -s, detail::packFeature(4, static_cast<std::uint32_t>(f), c.id, 0));
                }
                if (out.count > 0) return true;
                out.normal = normal;
            }
        }
    }
    const real separation = coreSeparation - radius;
    if (separation > margin) return false;
    // The core's deepest point along the normal, then midway to the hull's surface.
    const Vec3 core = g.overlap || g.distance <= tiny ? (normal.dot(q - p) < 0 ? q : p) : g.pointA;
    out.add(core - normal * (radius + separation / 2), -separation, detail::packFeature(5, featureBase, 0, 0));
    return true;
}

} // namespace

bool collideSphereHull(const Sphere& a, const Transform& pa, const ConvexHull& b, const Transform& pb, real margin,
                       Manifold& out) {
    WorldPolytope hull;
    hull.place(*b.hull, pb);
    return roundedAgainstPolytope(pa.position, pa.position, a.radius, hull, margin, out);
}

bool collideCapsuleHull(const Capsule& a, const Transform& pa, const ConvexHull& b, const Transform& pb, real margin,
                        Manifold& out) {
    WorldPolytope hull;
    hull.place(*b.hull, pb);
    const Vec3 half = pa.directionToWorld(Vec3(0, a.halfHeight, 0));
    return roundedAgainstPolytope(pa.position - half, pa.position + half, a.radius, hull, margin, out);
}

bool collideBoxHull(const Box& a, const Transform& pa, const ConvexHull& b, const Transform& pb, real margin,
                    Manifold& out) {
    WorldPolytope box, hull;
    box.place(detail::unitCubeHull(), pa, a.halfExtents);
    hull.place(*b.hull, pb);
    return detail::polytopeContact(box, hull, margin, out);
}

bool collideHulls(const ConvexHull& a, const Transform& pa, const ConvexHull& b, const Transform& pb, real margin,
                  Manifold& out) {
    WorldPolytope ha, hb;
    ha.place(*a.hull, pa);
    hb.place(*b.hull, pb);
    return detail::polytopeContact(ha, hb, margin, out);
}

bool collideHullHalfSpace(const ConvexHull& a, const Transform& pa, const HalfSpace& b, const Transform& pb,
                          real margin, Manifold& out) {
    out.count = 0;
    const Vec3 n = pb.directionToWorld(b.normal);
    const real offset = b.offset + n.dot(pb.position);
    std::vector<Candidate> candidates;
    for (std::size_t i = 0; i < a.hull->vertices.size(); ++i) {
        const Vec3 v = pa.toWorld(a.hull->vertices[i]);
        const real s = n.dot(v) - offset;
        if (s <= margin) candidates.push_back({v - n * (s / 2), -s, static_cast<std::uint32_t>(i)});
    }
    detail::reduceToFour(candidates, n);
    out.normal = n;
    for (const Candidate& c : candidates) out.add(c.point, c.depth, c.feature);
    return out.count > 0;
}

} // namespace jounce
