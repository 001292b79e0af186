// SPDX-License-Identifier: MIT
#pragma once
/// \file gjk.hpp
/// The Gilbert-Johnson-Keerthi distance algorithm (Gilbert, Johnson & Keerthi 1988;
/// van den Bergen, "Collision Detection in Interactive 3D Environments" ch. 4; Ericson,
/// Real-Time Collision Detection 9.5). Two convex sets A and B are given only by their
/// support mappings s(d) = the point farthest along d. GJK walks a simplex (1 to 4
/// points) inside the Minkowski difference A - B toward the origin: the distance
/// between the sets is the distance from the origin to A - B, and the origin lies in
/// A - B exactly when the sets overlap.
///
/// The narrow phase uses it for the distance from a sphere's centre or a capsule's
/// segment to a hull or a triangle (the "core" shapes; the radius is added after), and
/// the tests check it against brute force. Penetration depth of polytopes comes from
/// the separating axis test instead of EPA: for polytopes SAT is exact and gives the
/// reference face for clipping at the same time (docs/collision.md).

#include <jounce/common/math.hpp>

#include <array>
#include <limits>
#include <type_traits>

namespace jounce {

struct GjkResult {
    bool overlap = false; ///< the origin is in A - B (distance 0): the sets intersect
    real distance = 0;    ///< between the sets, when apart
    Vec3 pointA = Vec3::Zero(); ///< closest point on A (when apart)
    Vec3 pointB = Vec3::Zero(); ///< closest point on B
    int iterations = 0;
};

namespace gjk_detail {

/// A vertex of the simplex: w = a - b with the support points that made it.
struct Vertex {
    Vec3 w, a, b;
};

struct Simplex {
    std::array<Vertex, 4> v{};
    std::array<real, 4> lambda{}; ///< barycentric weights of the closest point
    int n = 0;
};

/// Replaces the simplex by the smallest face holding the point of it closest to the
/// origin, with that point's barycentric weights; returns whether the origin is
/// inside a tetrahedron (overlap). Ericson 9.5.2; the triangle case is his 5.1.5.
bool reduce(Simplex& s);

} // namespace gjk_detail

/// Distance between the convex sets with support mappings `supportA(d)` and
/// `supportB(d)` (world space, any non-zero d). `relativeTolerance` stops the walk when
/// the lower and upper bounds on the distance agree to that fraction. `finalSimplex`, if
/// given, receives the last simplex (on overlap, the one holding the origin: where the
/// expanding polytope algorithm starts).
template <typename SupportA, typename SupportB>
GjkResult gjkDistance(const SupportA& supportA, const SupportB& supportB, Vec3 direction = Vec3::UnitX(),
                      real relativeTolerance = std::is_same_v<real, double> ? real(1e-10) : real(1e-5),
                      gjk_detail::Simplex* finalSimplex = nullptr) {
    using gjk_detail::Vertex;
    gjk_detail::Simplex s;
    const Vec3 a0 = supportA(direction), b0 = supportB(Vec3(-direction));
    s.v[0] = {a0 - b0, a0, b0};
    s.lambda[0] = 1;
    s.n = 1;
    Vec3 v = s.v[0].w;
    GjkResult result;
    const real tiny = std::numeric_limits<real>::min() * 16;
    for (result.iterations = 0; result.iterations < 64; ++result.iterations) {
        const real vv = v.squaredNorm();
        if (vv <= tiny) {
            result.overlap = true;
            break;
        }
        const Vec3 a = supportA(Vec3(-v)), b = supportB(v);
        const Vertex w{a - b, a, b};
        // No progress toward the origin along -v: v is the closest point (to tolerance).
        if (vv - v.dot(w.w) <= relativeTolerance * vv) break;
        bool repeated = false;
        for (int i = 0; i < s.n; ++i) repeated = repeated || s.v[static_cast<std::size_t>(i)].w == w.w;
        if (repeated) break;
        const gjk_detail::Simplex previous = s;
        s.v[static_cast<std::size_t>(s.n++)] = w;
        if (gjk_detail::reduce(s)) {
            result.overlap = true;
            break;
        }
        Vec3 next = Vec3::Zero();
        for (int i = 0; i < s.n; ++i) next += s.lambda[static_cast<std::size_t>(i)] * s.v[static_cast<std::size_t>(i)].w;
        if (next.squaredNorm() >= vv) {
            // Round-off (a nearly flat simplex): no longer getting closer, so the last
            // simplex was as close as this precision allows.
            s = previous;
            break;
        }
        v = next;
    }
    result.pointA = Vec3::Zero();
    result.pointB = Vec3::Zero();
    for (int i = 0; i < s.n; ++i) {
        result.pointA += s.lambda[static_cast<std::size_t>(i)] * s.v[static_cast<std::size_t>(i)].a;
        result.pointB += s.lambda[static_cast<std::size_t>(i)] * s.v[static_cast<std::size_t>(i)].b;
    }
    result.distance = result.overlap ? 0 : (result.pointA - result.pointB).norm();
    if (finalSimplex != nullptr) *finalSimplex = s;
    return result;
}

} // namespace jounce
