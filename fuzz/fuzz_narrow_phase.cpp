// SPDX-License-Identifier: MIT
// Fuzz target: every narrow-phase pair on raw numbers (docs/fuzzing.md).
//
// Input: byte 0 picks the two shape kinds (7 x 7 pairs, so one target covers every
// pair the dispatch knows, both orders), byte 1 picks the extra queries; then each
// shape's sizes, the two poses and the margin as raw reals. Shapes go through the
// public validated constructors (validateShape, makeConvexHull, makeTriangleMesh), so
// NaN, infinities and zero or negative sizes are flagged with jounce::Error. What is
// accepted must give finite contacts with unit normals, and so must GJK, the ray cast
// and the time of impact.

#include "fuzz/fuzz_input.hpp"

#include <jounce/collision/convex_hull.hpp>
#include <jounce/collision/gjk.hpp>
#include <jounce/collision/narrow_phase.hpp>
#include <jounce/collision/ray_cast.hpp>
#include <jounce/collision/time_of_impact.hpp>
#include <jounce/collision/triangle_mesh.hpp>

#include <vector>

using namespace jounce;
using fuzz::Input;

namespace {

constexpr int shapeKinds = std::variant_size_v<Shape>;

/// A half-space normal from raw numbers: normalised, as a caller would, so that the
/// fuzzer reaches the pair code instead of the unit-length check every time.
HalfSpace halfSpaceFrom(Input& in) {
    Vec3 n = in.vec3();
    const real offset = in.number();
    const real length = n.norm();
    if (std::isfinite(length) && length > 0) n /= length;
    return {n, offset};
}

/// 4 to 19 raw points; makeConvexHull flags degenerate clouds.
ConvexHull hullFrom(Input& in) {
    std::vector<Vec3> points(4 + in.byte() % 16);
    for (Vec3& p : points) p = in.vec3();
    return makeConvexHull(points);
}

/// 3 to 10 raw vertices and 1 to 8 triangles whose indices may be out of range (one
/// past the last vertex), so the index check is fuzzed too.
TriangleMesh meshFrom(Input& in) {
    std::vector<Vec3> vertices(3 + in.byte() % 8);
    std::vector<std::array<std::uint32_t, 3>> triangles(1 + in.byte() % 8);
    for (Vec3& v : vertices) v = in.vec3();
    const auto range = static_cast<std::uint32_t>(vertices.size() + 1);
    for (auto& t : triangles)
        for (std::uint32_t& i : t) i = in.byte() % range;
    return makeTriangleMesh(vertices, triangles);
}

Shape shapeFrom(int kind, Input& in) {
    switch (kind) {
    case 0: return Sphere{in.number()};
    case 1: return Box{in.vec3()};
    case 2: {
        const real radius = in.number();
        return Capsule{radius, in.number()};
    }
    case 3: return halfSpaceFrom(in);
    case 4: return hullFrom(in);
    case 5: return meshFrom(in);
    default: {
        const real radius = in.number();
        return Cylinder{radius, in.number()};
    }
    }
}

/// The decoded shape, for replaying a crash with JOUNCE_FUZZ_VERBOSE=1.
void showShape(const char* name, const Shape& shape) {
    if (!fuzz::verbose()) return;
    std::fprintf(stderr, "%s: kind %zu\n", name, shape.index());
    if (const auto* s = std::get_if<Sphere>(&shape)) fuzz::show("radius", s->radius);
    if (const auto* b = std::get_if<Box>(&shape)) fuzz::show("halfExtents", b->halfExtents);
    if (const auto* c = std::get_if<Capsule>(&shape)) {
        fuzz::show("radius", c->radius);
        fuzz::show("halfHeight", c->halfHeight);
    }
    if (const auto* c = std::get_if<Cylinder>(&shape)) {
        fuzz::show("radius", c->radius);
        fuzz::show("halfHeight", c->halfHeight);
    }
    if (const auto* h = std::get_if<HalfSpace>(&shape)) {
        fuzz::show("normal", h->normal);
        fuzz::show("offset", h->offset);
    }
    if (const auto* h = std::get_if<ConvexHull>(&shape))
        for (const Vec3& v : h->hull->vertices) fuzz::show("hull vertex", v);
    if (const auto* m = std::get_if<TriangleMesh>(&shape)) {
        for (const Vec3& v : m->mesh->vertices()) fuzz::show("mesh vertex", v);
        for (const auto& t : m->mesh->triangles()) std::fprintf(stderr, "  triangle %u %u %u\n", t[0], t[1], t[2]);
    }
}

/// A pose from raw numbers, or false for one no caller can make (non-finite position,
/// quaternion that does not normalise).
bool poseFrom(Input& in, Transform& pose) {
    pose.position = in.vec3();
    const real w = in.number(), x = in.number(), y = in.number(), z = in.number();
    return pose.position.allFinite() && fuzz::unitQuaternion(w, x, y, z, pose.orientation);
}

void checkManifold(const Manifold& m, const char* where) {
    if (m.count < 0 || m.count > Manifold::maxPoints) fuzz::finding("contact count out of range", where);
    if (m.count == 0) return;
    fuzz::requireUnit(m.normal, where);
    for (int i = 0; i < m.count; ++i) {
        const ContactPoint& p = m.points[static_cast<std::size_t>(i)];
        fuzz::requireFinite(p.point, where);
        fuzz::requireFinite(p.depth, where);
    }
}

bool convex(const Shape& s) { return !isStaticOnly(s); }

/// GJK between two convex shapes through their support functions.
void checkGjk(const Shape& a, const Transform& pa, const Shape& b, const Transform& pb, bool check) {
    const auto supportOf = [](const Shape& s, const Transform& p) {
        return [&s, &p](const Vec3& d) { return p.toWorld(support(s, p.orientation.conjugate() * d)); };
    };
    const GjkResult r = gjkDistance(supportOf(a, pa), supportOf(b, pb));
    if (!check) return;
    fuzz::requireFinite(r.distance, "gjk distance");
    fuzz::requireFinite(r.pointA, "gjk pointA");
    fuzz::requireFinite(r.pointB, "gjk pointB");
}

void checkRay(const Shape& shape, const Transform& pose, Input& in) {
    const Vec3 from = in.vec3(), to = in.vec3();
    if (!from.allFinite() || !to.allFinite()) return;
    fuzz::show("ray from", from);
    fuzz::show("ray to", to);
    ShapeRayHit hit;
    if (!rayCast(shape, pose, from, to, hit) || !in.inDomain()) return;
    // A ray from far away loses the hit point's precision, but not its normal (a ray
    // from 3.5e30 m gave a capsule's normal zero: docs/fuzzing.md, finding 7, fixed).
    if (!(hit.fraction >= 0 && hit.fraction <= 1)) fuzz::finding("ray fraction outside [0, 1]", "rayCast");
    fuzz::requireFinite(hit.point, "rayCast point");
    fuzz::requireUnit(hit.normal, "rayCast normal");
}

/// Time of impact with raw sweeps; only convex shapes turn (static ones never do).
void checkTimeOfImpact(const Shape& a, const Transform& pa, const Shape& b, const Transform& pb, Input& in) {
    Sweep sa{pa, in.vec3(), in.vec3(), convex(a) ? in.vec3() : Vec3::Zero()};
    Sweep sb{pb, in.vec3(), in.vec3(), convex(b) ? in.vec3() : Vec3::Zero()};
    const real target = in.number();
    const int iterations = 1 + in.byte() % 40;
    for (const Vec3& v : {sa.centre, sa.linear, sa.angular, sb.centre, sb.linear, sb.angular}) fuzz::show("sweep", v);
    fuzz::show("target", target);
    const TimeOfImpact t = timeOfImpact(a, sa, b, sb, target, iterations);
    fuzz::show("fraction", t.fraction);
    fuzz::show("distance", t.distance);
    if (!in.inDomain()) return;
    if (!(t.fraction >= 0 && t.fraction <= 1)) fuzz::finding("time of impact outside [0, 1]", "timeOfImpact");
    if (std::isnan(t.distance)) fuzz::finding("NaN distance", "timeOfImpact");
}

void run(Input& in) {
    const std::uint8_t pair = in.byte(), extras = in.byte();
    const Shape a = shapeFrom(pair % shapeKinds, in);
    const Shape b = shapeFrom(pair / shapeKinds % shapeKinds, in);
    validateShape(a, "a");
    validateShape(b, "b");
    showShape("a", a);
    showShape("b", b);
    Transform pa, pb;
    if (!poseFrom(in, pa) || !poseFrom(in, pb)) return;
    const real margin = in.number();
    fuzz::show("pa.position", pa.position);
    fuzz::show("pa.orientation", pa.orientation);
    fuzz::show("pb.position", pb.position);
    fuzz::show("pb.orientation", pb.orientation);
    fuzz::show("margin", margin);
    if (!std::isfinite(margin) || margin < 0) return;

    // Outside the fuzzer's domain (huge sizes or coordinates) the queries still run
    // under the sanitizers, but overflow there is expected and not checked.
    Manifold m;
    const bool found = collide(a, pa, b, pb, margin, m);
    std::vector<Manifold> all;
    collideAll(a, pa, b, pb, margin, all);
    if (in.inDomain()) {
        if (found) checkManifold(m, "collide");
        for (const Manifold& each : all) checkManifold(each, "collideAll");
    }
    if ((extras & 1) && convex(a) && convex(b)) checkGjk(a, pa, b, pb, in.inDomain());
    if (extras & 2) checkRay(a, pa, in);
    if (extras & 4) checkTimeOfImpact(a, pa, b, pb, in);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return fuzz::runFlagged(data, size, run);
}
