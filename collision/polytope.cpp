// SPDX-License-Identifier: MIT
// Polytope against polytope: the separating axis test over face normals and
// Minkowski-face edge pairs, then a clipped face manifold or one edge-edge contact.

#include "collision/polytope.hpp"

#include <jounce/collision/narrow_phase.hpp>

#include <algorithm>
#include <array>
#include <cmath>

namespace jounce::detail {

void WorldPolytope::place(const HullData& h, const Transform& pose, const Vec3& scale) {
    hull = &h;
    const Mat3 r = pose.orientation.toRotationMatrix();
    vertices.resize(h.vertices.size());
    for (std::size_t i = 0; i < h.vertices.size(); ++i)
        vertices[i] = r * h.vertices[i].cwiseProduct(scale) + pose.position;
    normals.resize(h.faces.size());
    offsets.resize(h.faces.size());
    for (std::size_t f = 0; f < h.faces.size(); ++f) {
        // A scaled face keeps its plane only if the scale is uniform or the normal is
        // an axis; boxes satisfy the second, hulls use scale 1.
        normals[f] = r * h.faces[f].normal;
        offsets[f] = normals[f].dot(vertices[h.faces[f].vertices[0]]);
    }
    centroid = r * h.centroid.cwiseProduct(scale) + pose.position;
}

real WorldPolytope::minAlong(const Vec3& axis) const {
    real m = std::numeric_limits<real>::infinity();
    for (const Vec3& v : vertices) m = std::min(m, axis.dot(v));
    return m;
}

const HullData& unitCubeHull() {
    static const HullData cube = [] {
        std::vector<Vec3> corners;
        for (int i = 0; i < 8; ++i) corners.emplace_back(i & 1 ? 1 : -1, i & 2 ? 1 : -1, i & 4 ? 1 : -1);
        return buildConvexHull(corners);
    }();
    return cube;
}

bool placePolytope(const Shape& shape, const Transform& pose, WorldPolytope& out) {
    if (const auto* box = std::get_if<Box>(&shape)) {
        out.place(unitCubeHull(), pose, box->halfExtents);
        return true;
    }
    if (const auto* hull = std::get_if<ConvexHull>(&shape)) {
        out.place(*hull->hull, pose);
        return true;
    }
    return false;
}

FaceQuery queryFaces(const WorldPolytope& a, const WorldPolytope& b) {
    FaceQuery best;
    for (std::size_t f = 0; f < a.normals.size(); ++f) {
        const real s = b.minAlong(a.normals[f]) - a.offsets[f];
        if (s > best.separation) best = {static_cast<int>(f), s};
    }
    return best;
}

namespace {

/// Whether the arcs a-b and c-d on the Gauss map cross (Gregorius 2013): then the
/// edges with those face normals make a face of the Minkowski difference. c and d are
/// B's normals already negated.
bool isMinkowskiFace(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
    const Vec3 bxa = b.cross(a), dxc = d.cross(c);
    const real cba = c.dot(bxa), dba = d.dot(bxa), adc = a.dot(dxc), bdc = b.dot(dxc);
    return cba * dba < 0 && adc * bdc < 0 && cba * bdc > 0;
}

} // namespace

EdgeQuery queryEdges(const WorldPolytope& a, const WorldPolytope& b) {
    EdgeQuery best;
    for (std::size_t i = 0; i < a.hull->edges.size(); ++i) {
        const HullEdge& ea = a.hull->edges[i];
        const Vec3& pa = a.vertices[ea.a];
        const Vec3 da = a.vertices[ea.b] - pa;
        for (std::size_t j = 0; j < b.hull->edges.size(); ++j) {
            const HullEdge& eb = b.hull->edges[j];
            if (!isMinkowskiFace(a.normals[ea.faceLeft], a.normals[ea.faceRight], -b.normals[eb.faceLeft],
                                 -b.normals[eb.faceRight]))
                continue;
            const Vec3& pb = b.vertices[eb.a];
            const Vec3 db = b.vertices[eb.b] - pb;
            Vec3 axis = da.cross(db);
            const real length = axis.norm();
            if (length <= real(1e-6) * da.norm() * db.norm()) continue; // parallel: faces cover it
            axis /= length;
            if (axis.dot(pa - a.centroid) < 0) axis = -axis; // out of A
            const real s = axis.dot(pb - pa);
            if (s > best.separation) best = {static_cast<int>(i), static_cast<int>(j), s, axis};
        }
    }
    return best;
}

SatResult separatingAxisTest(const WorldPolytope& a, const WorldPolytope& b) {
    SatResult r;
    r.faceA = queryFaces(a, b);
    r.faceB = queryFaces(b, a);
    r.edge = queryEdges(a, b);
    return r;
}

void reduceToFour(std::vector<Candidate>& set, const Vec3& normal, real depthTies) {
    if (set.size() <= 4) return;
    auto best = [&](auto score) {
        std::size_t arg = 0;
        real top = -std::numeric_limits<real>::infinity();
        for (std::size_t k = 0; k < set.size(); ++k) {
            const real s = score(set[k]);
            if (s > top) {
                top = s;
                arg = k;
            }
        }
        return arg;
    };
    std::size_t i0 = best([](const Candidate& p) { return p.depth; });
    for (std::size_t k = 0; k < i0; ++k) // the first of the nearly deepest, if asked
        if (set[k].depth >= set[i0].depth - depthTies) {
            i0 = k;
            break;
        }
    const Vec3 a = set[i0].point;
    const std::size_t i1 = best([&](const Candidate& p) { return (p.point - a).squaredNorm(); });
    const Vec3 b = set[i1].point;
    auto area = [&](const Candidate& p) { return (b - a).cross(p.point - a).dot(normal); };
    const std::size_t i2 = best([&](const Candidate& p) { return area(p); });
    const std::size_t i3 = best([&](const Candidate& p) { return -area(p); });
    std::vector<Candidate> kept;
    for (std::size_t k : {i0, i1, i2, i3}) {
        bool seen = false;
        for (const Candidate& c : kept) seen = seen || c.feature == set[k].feature;
        if (!seen) kept.push_back(set[k]);
    }
    set = std::move(kept);
}

void clipPolygon(std::vector<ClipPoint>& polygon, const Vec3& n, real offset, std::uint32_t planeId,
                 std::vector<ClipPoint>& scratch) {
    scratch.clear();
    for (std::size_t k = 0; k < polygon.size(); ++k) {
        const ClipPoint& p = polygon[k];
        const ClipPoint& q = polygon[(k + 1) % polygon.size()];
        const real dp = n.dot(p.x) - offset, dq = n.dot(q.x) - offset;
        if (dp <= 0) scratch.push_back(p);
        if ((dp <= 0) != (dq <= 0)) {
            const real t = dp / (dp - dq);
            // A new corner: named by the clipping plane and the edge it cut.
            scratch.push_back({p.x + t * (q.x - p.x), 0x80u | (planeId & 0x7u) << 4 | (static_cast<std::uint32_t>(k) & 0xfu)});
        }
    }
    polygon.swap(scratch);
}

bool clipFaceContact(const WorldPolytope& ref, int refFace, const WorldPolytope& inc, bool referenceIsA, real margin,
                     Manifold& out) {
    out.count = 0;
    const auto rf = static_cast<std::size_t>(refFace);
    const Vec3 nRef = ref.normals[rf];
    std::size_t incFace = 0;
    real most = std::numeric_limits<real>::infinity();
    for (std::size_t f = 0; f < inc.normals.size(); ++f) {
        const real alignment = inc.normals[f].dot(nRef);
        if (alignment < most) {
            most = alignment;
            incFace = f;
        }
    }
    std::vector<ClipPoint> polygon, scratch;
    for (std::uint32_t v : inc.hull->faces[incFace].vertices) polygon.push_back({inc.vertices[v], v & 0x7fu});
    const auto& loop = ref.hull->faces[rf].vertices;
    for (std::size_t k = 0; k < loop.size() && !polygon.empty(); ++k) {
        const Vec3& p = ref.vertices[loop[k]];
        const Vec3& q = ref.vertices[loop[(k + 1) % loop.size()]];
        const Vec3 side = (q - p).cross(nRef).normalized(); // outward: the loop is counter-clockwise
        clipPolygon(polygon, side, side.dot(p), static_cast<std::uint32_t>(k), scratch);
    }
    std::vector<Candidate> candidates;
    for (const ClipPoint& c : polygon) {
        const real s = nRef.dot(c.x) - ref.offsets[rf];
        if (s > margin) continue;
        const std::uint32_t feature = packFeature(referenceIsA ? 1 : 2, static_cast<std::uint32_t>(refFace),
                                                  static_cast<std::uint32_t>(incFace), c.id);
        candidates.push_back({c.x - nRef * (s / 2), -s, feature});
    }
    const Vec3 normal = referenceIsA ? Vec3(-nRef) : nRef;
    reduceToFour(candidates, normal);
    out.normal = normal;
    for (const Candidate& c : candidates) out.add(c.point, c.depth, c.feature);
    return out.count > 0;
}

namespace {

// A face must lose to an edge by this much [m] before the edge is used, and B's face
// to A's: it keeps the choice stable frame to frame when two axes nearly tie (the
// constants of box_box.cpp).
constexpr real edgeTolerance = real(0.005);
constexpr real faceTolerance = real(0.0005);

bool edgeContact(const WorldPolytope& a, const WorldPolytope& b, const EdgeQuery& q, Manifold& out) {
    const HullEdge& ea = a.hull->edges[static_cast<std::size_t>(q.edgeA)];
    const HullEdge& eb = b.hull->edges[static_cast<std::size_t>(q.edgeB)];
    const Vec3 &p1 = a.vertices[ea.a], &q1 = a.vertices[ea.b], &p2 = b.vertices[eb.a], &q2 = b.vertices[eb.b];
    const SegmentParameters st = closestSegmentParameters(p1, q1, p2, q2);
    const Vec3 onA = p1 + st.s * (q1 - p1), onB = p2 + st.t * (q2 - p2);
    out.count = 0;
    out.normal = -q.axis; // the axis runs from A toward B
    out.add((onA + onB) / 2, -q.separation,
            packFeature(3, static_cast<std::uint32_t>(q.edgeA), static_cast<std::uint32_t>(q.edgeB), 0));
    return true;
}

} // namespace

bool polytopeContact(const WorldPolytope& a, const WorldPolytope& b, real margin, Manifold& out) {
    out.count = 0;
    const FaceQuery fa = queryFaces(a, b);
    if (fa.separation > margin) return false;
    const FaceQuery fb = queryFaces(b, a);
    if (fb.separation > margin) return false;
    const EdgeQuery e = queryEdges(a, b);
    if (e.separation > margin) return false;
    const real face = std::max(fa.separation, fb.separation);
    if (e.edgeA >= 0 && e.separation > face + edgeTolerance) return edgeContact(a, b, e, out);
    if (fb.separation > fa.separation + faceTolerance) return clipFaceContact(b, fb.face, a, false, margin, out);
    return clipFaceContact(a, fa.face, b, true, margin, out);
}

} // namespace jounce::detail
