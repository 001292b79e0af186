// SPDX-License-Identifier: MIT
// Box against box: the separating axis test over the 15 candidate axes (3 face
// normals of each box, 9 edge-edge cross products), then
//  - a face axis: clip the incident face of the other box against the side planes of
//    the reference face (Sutherland-Hodgman) and keep the clipped points below the
//    reference face, reduced to at most 4 (Gottschalk's OBB test; the clipping of
//    Box2D's polygon manifold and Catto's GDC 2007 "Contact Manifolds", in 3D);
//  - an edge axis: one contact between the closest points of the two supporting edges.
// Face axes win over edge axes unless an edge separates clearly more, so a box resting
// on another gets a stable face manifold rather than a flickering edge contact.

#include <jounce/collision/narrow_phase.hpp>

#include <jounce/collision/gjk.hpp>

#include <algorithm>
#include <cmath>

namespace jounce {
namespace {

/// A box in world terms: centre, unit axes (rotation columns), half extents.
struct Obb {
    Vec3 centre;
    Mat3 axes;
    Vec3 half;
    Vec3 axis(int k) const { return axes.col(k); }
};

Obb toObb(const Box& b, const Transform& pose) {
    return {pose.position, pose.orientation.toRotationMatrix(), b.halfExtents};
}

/// Which box is the reference, and along which axis the least overlap lies.
enum class AxisKind { FaceA, FaceB, Edge };
struct BestAxis {
    AxisKind kind = AxisKind::FaceA;
    int i = 0, j = 0;       ///< face index, or the edge pair (A axis i, B axis j)
    real separation = -std::numeric_limits<real>::infinity();
    Vec3 l = Vec3::Zero(); ///< unit, pointing from A toward B
};

// A face must lose to an edge by this much [m] before the edge is used, and B's face
// to A's: it keeps the choice stable frame to frame when two axes are nearly equal.
constexpr real edgeTolerance = real(0.005);
constexpr real faceTolerance = real(0.0005);

struct Sat {
    BestAxis faceA, faceB, edge;
    bool separated = false;
};

/// The 15 axes, measured in A's frame (Gottschalk's OBB test; Ericson, Real-Time
/// Collision Detection 4.4.1): with R = A^T B (B's axes in A's frame) and t = A^T d
/// (B's centre), a box's projected radius on an axis is a dot product with |R|'s rows
/// or columns instead of three dot products with world axes per box. The separation
/// along unit axis L, turned to point from A toward B, is
///     |t . L| - r_A(L) - r_B(L);
/// only a new best axis is taken back into the world.
Sat testAxes(const Obb& a, const Obb& b, real margin) {
    Sat sat;
    const Mat3 r = a.axes.transpose() * b.axes;
    const Mat3 absR = r.cwiseAbs();
    const Vec3 t = a.axes.transpose() * (b.centre - a.centre);
    // `world` gives the axis in world terms, pointing from A toward B.
    auto consider = [&](BestAxis& best, AxisKind kind, int i, int j, real s, auto world) {
        if (s > margin) sat.separated = true;
        if (s > best.separation) best = {kind, i, j, s, world()};
    };
    const auto towardB = [](const Vec3& l, real along) { return along < 0 ? Vec3(-l) : l; };
    for (int i = 0; i < 3 && !sat.separated; ++i) {
        const real s = std::abs(t[i]) - a.half[i] - b.half.dot(absR.row(i).transpose());
        consider(sat.faceA, AxisKind::FaceA, i, 0, s, [&] { return towardB(a.axis(i), t[i]); });
    }
    for (int j = 0; j < 3 && !sat.separated; ++j) {
        const real along = t.dot(r.col(j));
        const real s = std::abs(along) - a.half.dot(absR.col(j)) - b.half[j];
        consider(sat.faceB, AxisKind::FaceB, j, 0, s, [&] { return towardB(b.axis(j), along); });
    }
    for (int i = 0; i < 3 && !sat.separated; ++i) {
        for (int j = 0; j < 3 && !sat.separated; ++j) {
            const Vec3 c = Vec3::Unit(i).cross(r.col(j)); // A's axis i x B's axis j, in A's frame
            const real length = c.norm();
            if (length < real(1e-6)) continue; // parallel edges: a face axis covers them
            const real along = t.dot(c);
            const real radiusB = b.half.dot((r.transpose() * c).cwiseAbs());
            const real s = (std::abs(along) - a.half.dot(c.cwiseAbs()) - radiusB) / length;
            consider(sat.edge, AxisKind::Edge, i, j, s, [&] { return towardB(Vec3(a.axes * c / length), along); });
        }
    }
    return sat;
}

BestAxis chooseAxis(const Sat& sat) {
    BestAxis face = sat.faceB.separation > sat.faceA.separation + faceTolerance ? sat.faceB : sat.faceA;
    return sat.edge.separation > face.separation + edgeTolerance ? sat.edge : face;
}

struct ClipVertex {
    Vec3 x;
    std::uint32_t id; ///< incident vertex index (0-3), or 8 + 4 * plane + edge for clipped points
};

/// A convex polygon of at most 8 vertices: a quad clipped by 4 planes gains at most
/// one vertex per plane. Fixed storage: the narrow phase allocates nothing.
struct Polygon {
    std::array<ClipVertex, 8> v;
    std::size_t n = 0;
};

/// Keeps the part of `polygon` with n . x <= offset (Sutherland-Hodgman, one plane).
Polygon clip(const Polygon& polygon, const Vec3& n, real offset, std::uint32_t plane) {
    Polygon out;
    for (std::size_t k = 0; k < polygon.n; ++k) {
        const ClipVertex& p = polygon.v[k];
        const ClipVertex& q = polygon.v[(k + 1) % polygon.n];
        const real dp = n.dot(p.x) - offset, dq = n.dot(q.x) - offset;
        if (dp <= 0 && out.n < out.v.size()) out.v[out.n++] = p;
        if ((dp <= 0) != (dq <= 0) && out.n < out.v.size()) {
            const real t = dp / (dp - dq);
            out.v[out.n++] = {p.x + t * (q.x - p.x), 8 + 4 * plane + static_cast<std::uint32_t>(k)};
        }
    }
    return out;
}

/// The 4 corners of face `face` (0..5: +x, -x, +y, -y, +z, -z) of box b, in order.
std::array<Vec3, 4> faceCorners(const Obb& b, int face) {
    const int k = face / 2;
    const real sign = face % 2 == 0 ? 1 : -1;
    const int u = (k + 1) % 3, v = (k + 2) % 3;
    const Vec3 c = b.centre + sign * b.half[k] * b.axis(k);
    const Vec3 du = b.half[u] * b.axis(u), dv = b.half[v] * b.axis(v);
    return {c + du + dv, c - du + dv, c - du - dv, c + du - dv};
}

/// Picks at most 4 of the points: the deepest, the farthest from it, then the two
/// that span the largest triangles on either side of that diagonal.
struct Candidate {
    Vec3 point;
    real depth;
    std::uint32_t feature;
};
struct Candidates {
    std::array<Candidate, 8> c;
    std::size_t n = 0;
};
void reduceToFour(Candidates& set, const Vec3& normal) {
    if (set.n <= 4) return;
    auto best = [&](auto score) {
        std::size_t arg = 0;
        real top = -std::numeric_limits<real>::infinity();
        for (std::size_t k = 0; k < set.n; ++k) {
            const real s = score(set.c[k]);
            if (s > top) {
                top = s;
                arg = k;
            }
        }
        return arg;
    };
    const std::size_t i0 = best([](const Candidate& p) { return p.depth; });
    const Vec3 a = set.c[i0].point;
    const std::size_t i1 = best([&](const Candidate& p) { return (p.point - a).squaredNorm(); });
    const Vec3 b = set.c[i1].point;
    auto area = [&](const Candidate& p) { return (b - a).cross(p.point - a).dot(normal); };
    const std::size_t i2 = best([&](const Candidate& p) { return area(p); });
    const std::size_t i3 = best([&](const Candidate& p) { return -area(p); });
    Candidates kept;
    for (std::size_t k : {i0, i1, i2, i3}) {
        bool seen = false;
        for (std::size_t m = 0; m < kept.n; ++m) seen = seen || kept.c[m].feature == set.c[k].feature;
        if (!seen) kept.c[kept.n++] = set.c[k];
    }
    set = kept;
}

bool faceContact(const Obb& a, const Obb& b, const BestAxis& axis, real margin, Manifold& out) {
    const bool referenceIsA = axis.kind == AxisKind::FaceA;
    const Obb& ref = referenceIsA ? a : b;
    const Obb& inc = referenceIsA ? b : a;
    // Reference normal points from the reference box toward the incident one.
    const Vec3 nRef = referenceIsA ? axis.l : Vec3(-axis.l);
    const int k = axis.i;
    const int refFace = 2 * k + (ref.axis(k).dot(nRef) > 0 ? 0 : 1);

    // Incident face: the face of the other box most anti-parallel to nRef.
    int incFace = 0;
    real most = std::numeric_limits<real>::infinity();
    for (int f = 0; f < 6; ++f) {
        const real alignment = (f % 2 == 0 ? 1 : -1) * inc.axis(f / 2).dot(nRef);
        if (alignment < most) {
            most = alignment;
            incFace = f;
        }
    }
    const auto corners = faceCorners(inc, incFace);
    Polygon polygon;
    for (std::uint32_t v = 0; v < 4; ++v) polygon.v[polygon.n++] = {corners[v], v};

    // Side planes of the reference face.
    std::uint32_t plane = 0;
    for (int side : {(k + 1) % 3, (k + 2) % 3}) {
        const Vec3 u = ref.axis(side);
        const real centre = u.dot(ref.centre);
        polygon = clip(polygon, u, centre + ref.half[side], plane++);
        polygon = clip(polygon, -u, -centre + ref.half[side], plane++);
        if (polygon.n == 0) return false;
    }

    const real faceOffset = nRef.dot(ref.centre) + ref.half[k];
    Candidates candidates;
    for (std::size_t k = 0; k < polygon.n; ++k) {
        const ClipVertex& v = polygon.v[k];
        const real s = nRef.dot(v.x) - faceOffset; // < 0: below the reference face
        if (s > margin) continue;
        const std::uint32_t feature = (referenceIsA ? 0u : 1u << 31) | (std::uint32_t(refFace) << 24) |
                                      (std::uint32_t(incFace) << 16) | v.id;
        candidates.c[candidates.n++] = {v.x - nRef * (s / 2), -s, feature};
    }
    if (candidates.n == 0) return false;
    out.normal = referenceIsA ? Vec3(-nRef) : nRef; // from B toward A
    reduceToFour(candidates, out.normal);
    for (std::size_t k = 0; k < candidates.n; ++k) out.add(candidates.c[k].point, candidates.c[k].depth, candidates.c[k].feature);
    return true;
}

/// The edge of `box` parallel to axis k that lies farthest along `toward`.
struct Edge {
    Vec3 p, q;
    std::uint32_t id;
};
Edge supportEdge(const Obb& box, int k, const Vec3& toward) {
    Vec3 centre = box.centre;
    std::uint32_t id = std::uint32_t(k) << 2;
    std::uint32_t bit = 0;
    for (int m = 0; m < 3; ++m) {
        if (m == k) continue;
        const bool positive = box.axis(m).dot(toward) >= 0;
        centre += (positive ? 1 : -1) * box.half[m] * box.axis(m);
        id |= std::uint32_t(positive) << bit++;
    }
    const Vec3 half = box.half[k] * box.axis(k);
    return {centre - half, centre + half, id};
}

bool edgeContact(const Obb& a, const Obb& b, const BestAxis& axis, Manifold& out) {
    const Edge ea = supportEdge(a, axis.i, axis.l);
    const Edge eb = supportEdge(b, axis.j, -axis.l);
    const SegmentParameters st = closestSegmentParameters(ea.p, ea.q, eb.p, eb.q);
    const Vec3 pa = ea.p + st.s * (ea.q - ea.p);
    const Vec3 pb = eb.p + st.t * (eb.q - eb.p);
    out.normal = -axis.l;
    out.add((pa + pb) / 2, (pa - pb).dot(axis.l), (1u << 30) | (ea.id << 8) | eb.id);
    return true;
}

/// Boxes apart whose nearest features lie off the chosen face (corner to corner, or
/// a face axis separating them while the faces do not face each other): clipping
/// finds no points, yet the gap may be within the margin (speculative contacts). One
/// contact between the closest points, from GJK.
bool closestPointContact(const Obb& a, const Obb& b, real margin, Manifold& out) {
    const auto supportOf = [](const Obb& box) {
        return [&box](const Vec3& d) {
            Vec3 p = box.centre;
            for (int k = 0; k < 3; ++k) p += (box.axis(k).dot(d) >= 0 ? 1 : -1) * box.half[k] * box.axis(k);
            return p;
        };
    };
    const GjkResult g = gjkDistance(supportOf(a), supportOf(b), Vec3(b.centre - a.centre));
    if (g.overlap || g.distance > margin || !(g.distance > 0)) return false;
    out.normal = (g.pointA - g.pointB) / g.distance; // from B toward A
    out.add((g.pointA + g.pointB) / 2, -g.distance, 3u << 30);
    return true;
}

} // namespace

bool collideBoxes(const Box& ba, const Transform& pa, const Box& bb, const Transform& pb, real margin, Manifold& out) {
    out.count = 0;
    const Obb a = toObb(ba, pa), b = toObb(bb, pb);
    const Sat sat = testAxes(a, b, margin);
    if (sat.separated) return false;
    const BestAxis axis = chooseAxis(sat);
    if (axis.kind == AxisKind::Edge) return edgeContact(a, b, axis, out);
    if (faceContact(a, b, axis, margin, out)) return true;
    out.count = 0;
    return closestPointContact(a, b, margin, out);
}

} // namespace jounce
