// SPDX-License-Identifier: MIT
// The simplex step of GJK: the point of a simplex closest to the origin, and the
// smallest face of the simplex that holds it.

#include <jounce/collision/gjk.hpp>
#include <jounce/collision/triangle_mesh.hpp>

#include <algorithm>
#include <cmath>

namespace jounce::gjk_detail {
namespace {

/// Keeps the listed vertices with their weights, in the order given.
void keep(Simplex& s, std::initializer_list<std::pair<int, real>> kept) {
    Simplex out;
    for (const auto& [index, weight] : kept) {
        out.v[static_cast<std::size_t>(out.n)] = s.v[static_cast<std::size_t>(index)];
        out.lambda[static_cast<std::size_t>(out.n++)] = weight;
    }
    s = out;
}

real distanceSquared(const Simplex& s) {
    Vec3 p = Vec3::Zero();
    for (int i = 0; i < s.n; ++i) p += s.lambda[static_cast<std::size_t>(i)] * s.v[static_cast<std::size_t>(i)].w;
    return p.squaredNorm();
}

void reduceSegment(Simplex& s, int i, int j) {
    const Vec3& a = s.v[static_cast<std::size_t>(i)].w;
    const Vec3 ab = s.v[static_cast<std::size_t>(j)].w - a;
    const real length2 = ab.squaredNorm();
    const real t = length2 > 0 ? -a.dot(ab) / length2 : 0;
    if (t <= 0) keep(s, {{i, 1}});
    else if (t >= 1) keep(s, {{j, 1}});
    else keep(s, {{i, 1 - t}, {j, t}});
}

void reduceTriangle(Simplex& s, int i, int j, int k) {
    const Vec3& a = s.v[static_cast<std::size_t>(i)].w;
    const Vec3& b = s.v[static_cast<std::size_t>(j)].w;
    const Vec3& c = s.v[static_cast<std::size_t>(k)].w;
    const real area2 = (b - a).cross(c - a).squaredNorm();
    const real scale = std::max({(b - a).squaredNorm(), (c - a).squaredNorm(), (c - b).squaredNorm()});
    if (!(area2 > 1e-12 * scale * scale)) {
        // A sliver: the closest point lies on one of its edges.
        Simplex best;
        real bestD = std::numeric_limits<real>::infinity();
        for (const auto& [p, q] : {std::pair{i, j}, std::pair{j, k}, std::pair{i, k}}) {
            Simplex t = s;
            reduceSegment(t, p, q);
            const real d = distanceSquared(t);
            if (d < bestD) {
                bestD = d;
                best = t;
            }
        }
        s = best;
        return;
    }
    Vec3 bary;
    closestPointOnTriangle(Vec3::Zero(), a, b, c, bary);
    Simplex out;
    const std::array<int, 3> index{i, j, k};
    for (std::size_t m = 0; m < 3; ++m) {
        if (bary[static_cast<int>(m)] <= 0) continue;
        out.v[static_cast<std::size_t>(out.n)] = s.v[static_cast<std::size_t>(index[m])];
        out.lambda[static_cast<std::size_t>(out.n++)] = bary[static_cast<int>(m)];
    }
    s = out;
}

/// Whether the origin and vertex `opposite` lie on different sides of plane abc.
bool originOutside(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& opposite) {
    const Vec3 n = (b - a).cross(c - a);
    const real origin = -a.dot(n), other = (opposite - a).dot(n);
    return origin * other < 0;
}

bool reduceTetrahedron(Simplex& s) {
    const auto w = [&](int i) -> const Vec3& { return s.v[static_cast<std::size_t>(i)].w; };
    constexpr std::array<std::array<int, 4>, 4> faces{{{0, 1, 2, 3}, {0, 1, 3, 2}, {0, 2, 3, 1}, {1, 2, 3, 0}}};
    // The nearest of the faces that pass `use`.
    const auto nearestFace = [&](auto use) {
        Simplex best;
        real bestD = std::numeric_limits<real>::infinity();
        for (const auto& f : faces) {
            if (!use(f)) continue;
            Simplex t = s;
            reduceTriangle(t, f[0], f[1], f[2]);
            const real d = distanceSquared(t);
            if (d < bestD) {
                bestD = d;
                best = t;
            }
        }
        return best;
    };
    // A nearly flat tetrahedron (the new point almost in the old triangle's plane) has
    // no trustworthy inside: the origin's side of each face is round-off. Then the
    // nearest of its faces stands.
    const Vec3 n = (w(1) - w(0)).cross(w(2) - w(0));
    const real edge = std::max({(w(1) - w(0)).norm(), (w(2) - w(0)).norm(), (w(3) - w(0)).norm()});
    const real flat = 64 * std::numeric_limits<real>::epsilon() * n.norm() * edge;
    if (!(std::abs(n.dot(w(3) - w(0))) > flat)) {
        s = nearestFace([](const std::array<int, 4>&) { return true; });
        return false;
    }
    const auto outside = [&](const std::array<int, 4>& f) { return originOutside(w(f[0]), w(f[1]), w(f[2]), w(f[3])); };
    if (std::any_of(faces.begin(), faces.end(), outside)) {
        s = nearestFace(outside);
        return false;
    }
    return true; // inside every face: the sets overlap
}

} // namespace

bool reduce(Simplex& s) {
    switch (s.n) {
    case 1:
        s.lambda[0] = 1;
        return false;
    case 2:
        reduceSegment(s, 0, 1);
        return false;
    case 3:
        reduceTriangle(s, 0, 1, 2);
        return false;
    default:
        return reduceTetrahedron(s);
    }
}

} // namespace jounce::gjk_detail
