// SPDX-License-Identifier: MIT
// Cylinders against every shape, through the general convex path (convex_pairs.hpp):
// GJK while apart, EPA when overlapping, then the supporting features clipped against
// each other. A cylinder's supporting feature along a direction is its cap (a regular
// square inscribed in the rim) when the direction is within 45 degrees of its axis,
// otherwise the segment of its side that faces that way; every clipped point is kept
// only if it lies within the margin of the other surface, so a tilted feature gives the
// points where it really touches. A cylinder against a half-space is exact: the rim
// points below the plane.

#include "collision/convex_pairs.hpp"

#include <jounce/collision/narrow_phase.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <type_traits>

namespace jounce {
namespace detail {
namespace {

constexpr int capSides = 4;

/// The rim square of the cap at height y (four points: an octagon reduced to four
/// switched between its even and odd corners as a resting stack rocked by micrometres,
/// and the stack wobbled by millimetres for seconds), its first corner toward the local direction
/// (dx, dz) when that is clear of the axis by more than a degree, else toward +x (a
/// cylinder standing almost level keeps the same corners from step to step).
void capPolygon(const PlacedConvex& c, const Vec3& local, real y, std::vector<Vec3>& out) {
    const real across = std::hypot(local.x(), local.z());
    const real start = across > real(0.0175) * std::abs(local.y()) ? std::atan2(local.z(), local.x()) : 0;
    for (int k = 0; k < capSides; ++k) {
        const real angle = start + static_cast<real>(k) * 2 * std::numbers::pi_v<real> / capSides;
        out.push_back(c.pose.toWorld(Vec3(c.cylinder.radius * std::cos(angle), y, c.cylinder.radius * std::sin(angle))));
    }
}

/// The unit normal of a convex polygon, turned to point along `toward`.
Vec3 polygonNormal(const std::vector<Vec3>& poly, const Vec3& toward) {
    Vec3 n = Vec3::Zero(); // Newell's method: robust for any convex polygon
    for (std::size_t k = 0; k < poly.size(); ++k) {
        const Vec3& u = poly[k];
        const Vec3& v = poly[(k + 1) % poly.size()];
        n += Vec3((u.y() - v.y()) * (u.z() + v.z()), (u.z() - v.z()) * (u.x() + v.x()), (u.x() - v.x()) * (u.y() + v.y()));
    }
    const real length = n.norm();
    if (!(length > 0)) return toward;
    n /= length;
    return n.dot(toward) < 0 ? Vec3(-n) : n;
}

} // namespace

Vec3 PlacedConvex::support(const Vec3& d) const {
    switch (kind) {
    case Kind::Segment: return d.dot(q - p) > 0 ? q : p;
    case Kind::Cylinder: return pose.toWorld(cylinderSupport(cylinder, pose.directionToLocal(d)));
    case Kind::Polytope: break;
    }
    std::size_t best = 0;
    real top = polytope->vertices[0].dot(d);
    for (std::size_t i = 1; i < polytope->vertices.size(); ++i) {
        const real s = polytope->vertices[i].dot(d);
        if (s > top) {
            top = s;
            best = i;
        }
    }
    return polytope->vertices[best];
}

Vec3 PlacedConvex::centre() const {
    switch (kind) {
    case Kind::Segment: return (p + q) / 2;
    case Kind::Cylinder: return pose.position;
    case Kind::Polytope: break;
    }
    return polytope->centroid;
}

void PlacedConvex::feature(const Vec3& d, std::vector<Vec3>& out) const {
    out.clear();
    switch (kind) {
    case Kind::Segment:
        out.push_back(p);
        // Both ends when the segment lies across d (a capsule lying on a face).
        if (q != p && std::abs((q - p).normalized().dot(d)) < real(0.05)) out.push_back(q);
        else if (d.dot(q - p) > 0) out[0] = q;
        return;
    case Kind::Cylinder: {
        const Vec3 local = pose.directionToLocal(d);
        const real h = cylinder.halfHeight;
        if (std::abs(local.y()) >= std::sqrt(real(0.5))) {
            capPolygon(*this, local, local.y() < 0 ? -h : h, out);
        } else {
            // The side's line facing d: from the bottom rim to the top one (through the
            // support's rim point).
            const Vec3 r = cylinderSupport(cylinder, Vec3(local.x(), 0, local.z()));
            out.push_back(pose.toWorld(Vec3(r.x(), -h, r.z())));
            out.push_back(pose.toWorld(Vec3(r.x(), h, r.z())));
        }
        return;
    }
    case Kind::Polytope: {
        // The face whose normal is nearest d.
        std::size_t best = 0;
        for (std::size_t f = 1; f < polytope->normals.size(); ++f)
            if (polytope->normals[f].dot(d) > polytope->normals[best].dot(d)) best = f;
        for (const std::uint32_t v : polytope->hull->faces[best].vertices) out.push_back(polytope->vertices[v]);
        return;
    }
    }
}

bool placeConvex(const Shape& shape, const Transform& pose, WorldPolytope& storage, PlacedConvex& out) {
    out = PlacedConvex{};
    if (const auto* s = std::get_if<Sphere>(&shape)) {
        out.p = out.q = pose.position;
        out.radius = s->radius;
        return true;
    }
    if (const auto* c = std::get_if<Capsule>(&shape)) {
        const Vec3 half = pose.directionToWorld(Vec3(0, c->halfHeight, 0));
        out.p = pose.position - half;
        out.q = pose.position + half;
        out.radius = c->radius;
        return true;
    }
    if (const auto* c = std::get_if<Cylinder>(&shape)) {
        out.kind = PlacedConvex::Kind::Cylinder;
        out.pose = pose;
        out.cylinder = *c;
        return true;
    }
    if (placePolytope(shape, pose, storage)) {
        out.kind = PlacedConvex::Kind::Polytope;
        out.polytope = &storage;
        return true;
    }
    return false;
}

namespace {

/// Whether GJK's final tetrahedron is too flat for its containment test to be trusted:
/// its volume under a millionth of its longest edge cubed.
bool flatSimplex(const gjk_detail::Simplex& s) {
    if (s.n != 4) return false;
    const Vec3& w0 = s.v[0].w;
    const real volume = std::abs((s.v[1].w - w0).dot((s.v[2].w - w0).cross(s.v[3].w - w0)));
    real edge = 0;
    for (std::size_t i = 0; i < 4; ++i)
        for (std::size_t j = i + 1; j < 4; ++j) edge = std::max(edge, (s.v[i].w - s.v[j].w).norm());
    return volume <= real(1e-6) * edge * edge * edge;
}

} // namespace

ConvexSeparation separateConvex(const PlacedConvex& a, const PlacedConvex& b) {
    const auto supportA = [&](const Vec3& d) { return a.support(d); };
    const auto supportB = [&](const Vec3& d) { return b.support(d); };
    const real gjkTolerance = std::is_same_v<real, double> ? real(1e-10) : real(1e-5);
    gjk_detail::Simplex simplex;
    const Vec3 towardA = a.centre() - b.centre();
    GjkResult g = gjkDistance(supportA, supportB, towardA.squaredNorm() > 0 ? towardA : Vec3(Vec3::UnitY()), gjkTolerance,
                              &simplex);
    // Below this GJK's distance is only as good as its last simplex and EPA decides; it
    // scales with the pair's size (their centres' distance), not with where they are.
    const real tiny = std::sqrt(std::numeric_limits<real>::epsilon()) * (1 + towardA.norm());
    ConvexSeparation s;
    Vec3 onA, onB;
    if (!g.overlap && g.distance > tiny) {
        s.normal = (g.pointA - g.pointB) / g.distance;
        s.separation = g.distance;
        onA = g.pointA;
        onB = g.pointB;
    } else {
        // GJK's containment test can be fooled by a flat tetrahedron (three support points
        // on a cylinder's rim a micrometre apart): such an overlap is asked again from
        // another direction before EPA believes it (a box and a cylinder 7.6 cm apart
        // were called touching).
        if (g.overlap && flatSimplex(simplex)) {
            const Vec3 retry = towardA.cross(Vec3::UnitY()) + towardA.cross(Vec3::UnitX()) * real(0.5);
            g = gjkDistance(supportA, supportB, retry.squaredNorm() > 0 ? retry : Vec3(Vec3::UnitX()), gjkTolerance, &simplex);
        }
        const Penetration e = expandPolytope(a, b, simplex);
        if (!g.overlap && g.distance > tiny) {
            s.normal = (g.pointA - g.pointB) / g.distance;
            s.separation = g.distance;
            onA = g.pointA;
            onB = g.pointB;
            s.separation -= a.radius + b.radius;
            s.pointA = onA - s.normal * a.radius;
            s.pointB = onB + s.normal * b.radius;
            return s;
        }
        // The supports along EPA's normal bound the distance from below: a gap there
        // means the cores are apart after all (GJK said overlap on a flat simplex), and
        // that gap is the separation the contact uses.
        const Vec3 lowA = e.found ? a.support(Vec3(-e.normal)) : Vec3::Zero();
        const Vec3 highB = e.found ? b.support(e.normal) : Vec3::Zero();
        if (e.found && e.normal.dot(lowA - highB) > 0) {
            s.normal = e.normal;
            s.separation = e.normal.dot(lowA - highB);
            onA = e.pointA + s.normal * s.normal.dot(lowA - e.pointA); // EPA's point, on A's low plane
            onB = onA - s.normal * s.separation;
        } else if (e.found) {
            // Overlapping: only the support gap above can prove them apart.
            s.normal = e.normal;
            s.separation = -std::max(e.depth, real(0));
            onA = e.pointA;
            onB = e.pointB;
        } else if (!g.overlap && g.distance > 0) {
            // Apart by less than GJK resolves well, and EPA had no tetrahedron around the
            // origin to start from: GJK's answer is still the best there is.
            s.normal = (g.pointA - g.pointB) / g.distance;
            s.separation = g.distance;
            onA = g.pointA;
            onB = g.pointB;
        } else {
            // The cores only touch (M is flat there): part them along the line of centres.
            s.normal = towardA.squaredNorm() > 0 ? Vec3(towardA.normalized()) : Vec3(Vec3::UnitY());
            onA = a.support(-s.normal);
            onB = b.support(s.normal);
            s.separation = s.normal.dot(onA - onB);
        }
    }
    s.separation -= a.radius + b.radius;
    s.pointA = onA - s.normal * a.radius;
    s.pointB = onB + s.normal * b.radius;
    return s;
}

void featureManifold(const PlacedConvex& a, const PlacedConvex& b, const ConvexSeparation& s, real margin,
                     Manifold& out, bool mayAddDeepest) {
    const Vec3& n = s.normal; // from B toward A
    out.count = 0;
    out.normal = n;
    std::vector<Vec3> fa, fb;
    a.feature(-n, fa);
    b.feature(n, fb);
    // The surfaces: a rounded core's feature moved out by its radius.
    for (Vec3& x : fa) x -= n * a.radius;
    for (Vec3& x : fb) x += n * b.radius;

    std::vector<Candidate> candidates;
    if (fa.size() > 1 && fb.size() > 1) {
        // The reference is a polygon (its sides cut the other feature): between two, the
        // one facing the normal more squarely (so a mesh triangle's face contact is cut to
        // that triangle, and two triangles never report the same point), B's on a tie;
        // between two segments, B's.
        bool referenceIsA = fa.size() >= 3 && fb.size() < 3;
        if (fa.size() >= 3 && fb.size() >= 3)
            referenceIsA = std::abs(polygonNormal(fa, n).dot(n)) > std::abs(polygonNormal(fb, n).dot(n)) + real(1e-6);
        const std::vector<Vec3>& ref = referenceIsA ? fa : fb;
        const std::vector<Vec3>& inc = referenceIsA ? fb : fa;
        std::vector<ClipPoint> points, scratch;
        for (std::size_t k = 0; k < inc.size(); ++k) points.push_back({inc[k], static_cast<std::uint32_t>(k)});
        // The plane of the reference surface, and the side planes (containing n) that
        // bound it across the normal.
        Vec3 m;
        if (ref.size() >= 3) {
            m = polygonNormal(ref, n);
            Vec3 centroid = Vec3::Zero();
            for (const Vec3& r : ref) centroid += r;
            centroid /= static_cast<real>(ref.size());
            for (std::size_t k = 0; k < ref.size() && !points.empty(); ++k) {
                const Vec3& u = ref[k];
                Vec3 side = (ref[(k + 1) % ref.size()] - u).cross(n);
                if (!(side.norm() > 0)) continue;
                side.normalize();
                if (side.dot(centroid - u) > 0) side = -side;
                if (points.size() == 2) {
                    // A segment: cut its ends back to the plane.
                    const real d0 = side.dot(points[0].x - u), d1 = side.dot(points[1].x - u);
                    if (d0 > 0 && d1 > 0) points.clear();
                    else if (d0 > 0) points[0] = {points[0].x + (points[1].x - points[0].x) * (d0 / (d0 - d1)), 0x80u | static_cast<std::uint32_t>(k)};
                    else if (d1 > 0) points[1] = {points[1].x + (points[0].x - points[1].x) * (d1 / (d1 - d0)), 0x90u | static_cast<std::uint32_t>(k)};
                } else {
                    clipPolygon(points, side, side.dot(u), static_cast<std::uint32_t>(k), scratch);
                }
            }
        } else {
            // Two segments: the incident one cut to the reference's extent along it (planes
            // containing n), its depth measured to the plane through the reference's line
            // that is nearest to facing n (the line may lean across the normal).
            const Vec3 line = ref[1] - ref[0];
            Vec3 along = line - n * n.dot(line);
            m = n;
            if (along.norm() > 0 && line.norm() > 0) {
                along.normalize();
                const Vec3 u = line.normalized();
                m = (n - u * u.dot(n)).normalized();
                // Crossed lines (seen along the normal, more than 3 degrees apart) touch
                // at one point: the deepest pair below, not the incident one's ends.
                const Vec3 incidentLine = points[1].x - points[0].x;
                const Vec3 incidentAlong = incidentLine - n * n.dot(incidentLine);
                if (incidentAlong.norm() > 0 && incidentAlong.normalized().cross(along).norm() > real(0.05)) points.clear();
                const std::array<std::pair<Vec3, real>, 2> planes{{{along, along.dot(ref[1])}, {-along, -along.dot(ref[0])}}};
                for (std::size_t k = 0; k < 2 && !points.empty(); ++k) {
                    const real d0 = planes[k].first.dot(points[0].x) - planes[k].second;
                    const real d1 = planes[k].first.dot(points[1].x) - planes[k].second;
                    if (d0 > 0 && d1 > 0) points.clear();
                    else if (d0 > 0) points[0] = {points[0].x + (points[1].x - points[0].x) * (d0 / (d0 - d1)), 0xa0u | static_cast<std::uint32_t>(k)};
                    else if (d1 > 0) points[1] = {points[1].x + (points[0].x - points[1].x) * (d1 / (d1 - d0)), 0xb0u | static_cast<std::uint32_t>(k)};
                }
            }
        }
        // Depth: along n from each incident point to the reference's plane.
        const real mn = m.dot(n);
        if (mn > real(0.2)) {
            for (const ClipPoint& c : points) {
                const real t = m.dot(ref[0] - c.x) / mn; // the reference surface is at c.x + t n
                const real depth = referenceIsA ? -t : t;
                if (depth < -margin) continue;
                candidates.push_back({c.x + n * (t / 2), depth, packFeature(9, c.id, referenceIsA ? 1u : 0u, 0)});
            }
        }
    }
    // The deepest pair itself when the clipped points fall short of it (a feature leaning
    // across the normal touches deepest at its end, which the clipping may cut off), so
    // the manifold is never shallower than the shapes' true overlap.
    real deepestClipped = -std::numeric_limits<real>::infinity();
    for (const Candidate& c : candidates) deepestClipped = std::max(deepestClipped, c.depth);
    if (mayAddDeepest && (candidates.empty() || -s.separation > deepestClipped + shortfallTolerance))
        candidates.push_back({(s.pointA + s.pointB) / 2, -s.separation, packFeature(10, 0, 0, 0)});
    reduceToFour(candidates, n, shortfallTolerance);
    for (const Candidate& c : candidates) out.add(c.point, c.depth, c.feature);
}

bool collideConvex(const PlacedConvex& a, const PlacedConvex& b, real margin, Manifold& out) {
    out.count = 0;
    const ConvexSeparation s = separateConvex(a, b);
    if (!(s.separation <= margin)) return false;
    featureManifold(a, b, s, margin, out, true);
    return out.count > 0;
}

} // namespace detail

bool collideCylinder(const Shape& a, const Transform& pa, const Cylinder& b, const Transform& pb, real margin,
                     Manifold& out) {
    detail::WorldPolytope storage;
    detail::PlacedConvex ca, cb;
    out.count = 0;
    if (!detail::placeConvex(a, pa, storage, ca)) return false;
    detail::WorldPolytope unused;
    detail::placeConvex(Shape(b), pb, unused, cb);
    return detail::collideConvex(ca, cb, margin, out);
}

bool collideCylinderHalfSpace(const Cylinder& a, const Transform& pa, const HalfSpace& b, const Transform& pb,
                              real margin, Manifold& out) {
    out.count = 0;
    const Vec3 n = pb.directionToWorld(b.normal);
    const real offset = b.offset + n.dot(pb.position);
    // The rim points: the deepest one (the support along -n) and, when a cap or the
    // side lies nearly flat, the cap's square or the other end of the side's line.
    detail::PlacedConvex c;
    c.kind = detail::PlacedConvex::Kind::Cylinder;
    c.pose = pa;
    c.cylinder = a;
    std::vector<Vec3> feature;
    c.feature(-n, feature);
    const Vec3 deepest = c.support(-n);
    if (n.dot(deepest) - offset > margin) return false;
    out.normal = n;
    std::vector<detail::Candidate> candidates;
    real lowest = std::numeric_limits<real>::infinity();
    for (std::size_t k = 0; k < feature.size(); ++k) {
        const real s = n.dot(feature[k]) - offset;
        lowest = std::min(lowest, s);
        if (s > margin) continue;
        candidates.push_back({feature[k] - n * (s / 2), -s, detail::packFeature(11, static_cast<std::uint32_t>(k), 0, 0)});
    }
    // The deepest rim point only where the feature's corners miss it by more than
    // shortfallTolerance (a level cap's fixed square would otherwise gain a point that
    // wanders with the tilt's noise, and the contacts' ids with it).
    const real s = n.dot(deepest) - offset;
    if (s < lowest - detail::shortfallTolerance)
        candidates.push_back({deepest - n * (s / 2), -s, detail::packFeature(11, 0xff, 0, 0)});
    detail::reduceToFour(candidates, n, detail::shortfallTolerance);
    for (const detail::Candidate& k : candidates) out.add(k.point, k.depth, k.feature);
    return out.count > 0;
}

} // namespace jounce
