// SPDX-License-Identifier: MIT
// The expanding polytope algorithm (van den Bergen 2001; Ericson 9.5): the penetration
// depth of two overlapping convex cores. The Minkowski difference M = A - B holds the
// origin; a polytope inside M that also holds it grows toward M's boundary: take the
// face nearest the origin, ask M for its support point along that face's normal, and
// if that point lies beyond the face, cut away every face it sees and close the hole
// with faces to it. When the support point no longer lies beyond the nearest face, that
// face is (to tolerance) the part of M's boundary nearest the origin: its distance is
// the depth, its normal the direction A must move back along.

#include "collision/convex_pairs.hpp"

#include <jounce/collision/triangle_mesh.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numbers>
#include <type_traits>

namespace jounce::detail {
namespace {

using gjk_detail::Vertex;

struct Face {
    std::array<int, 3> v; // counter-clockwise seen from outside
    Vec3 normal;          // unit, outward
    real distance;        // of its plane from the origin
    bool alive = true;
};

struct Edge {
    int from, to;
};

class Polytope {
public:
    Polytope(const PlacedConvex& a, const PlacedConvex& b) : a_(a), b_(b) {}

    Vertex support(const Vec3& d) const {
        const Vec3 pa = a_.support(d), pb = b_.support(Vec3(-d));
        return {pa - pb, pa, pb};
    }

    /// Grows GJK's simplex (whose origin may lie on a point, edge or face of it when the
    /// cores only just touch) into a tetrahedron; false when M is flat there.
    bool start(const gjk_detail::Simplex& s, real tolerance) {
        for (int i = 0; i < s.n; ++i) vertices_.push_back(s.v[static_cast<std::size_t>(i)]);
        if (vertices_.size() == 1) {
            for (int k = 0; k < 6; ++k) {
                const Vec3 d = Vec3::Unit(k / 2) * (k % 2 == 0 ? 1 : -1);
                const Vertex w = support(d);
                if ((w.w - vertices_[0].w).norm() > tolerance) {
                    vertices_.push_back(w);
                    break;
                }
            }
        }
        if (vertices_.size() == 2) {
            // Around the segment, six directions 60 degrees apart, for a point off its line.
            const Vec3 e = (vertices_[1].w - vertices_[0].w).normalized();
            Eigen::Index smallest = 0;
            e.cwiseAbs().minCoeff(&smallest);
            const Vec3 least = Vec3::Unit(smallest); // the axis least along the segment
            const Vec3 u = e.cross(least).normalized(), v = e.cross(u);
            for (int k = 0; k < 6; ++k) {
                const real angle = static_cast<real>(k) * std::numbers::pi_v<real> / 3;
                const Vertex w = support(Vec3(std::cos(angle) * u + std::sin(angle) * v));
                if ((w.w - vertices_[0].w).cross(e).norm() > tolerance) {
                    vertices_.push_back(w);
                    break;
                }
            }
        }
        if (vertices_.size() == 3) {
            const Vec3 m = (vertices_[1].w - vertices_[0].w).cross(vertices_[2].w - vertices_[0].w);
            if (!(m.norm() > 0)) return false;
            const Vec3 n = m.normalized();
            Vertex w = support(n);
            if (std::abs(n.dot(w.w - vertices_[0].w)) <= tolerance) w = support(Vec3(-n));
            if (std::abs(n.dot(w.w - vertices_[0].w)) <= tolerance) return false;
            vertices_.push_back(w);
        }
        if (vertices_.size() != 4) return false;
        interior_ = (vertices_[0].w + vertices_[1].w + vertices_[2].w + vertices_[3].w) / 4;
        for (const std::array<int, 3>& f : {std::array<int, 3>{0, 1, 2}, {0, 3, 1}, {0, 2, 3}, {1, 3, 2}})
            if (!addFace(f[0], f[1], f[2])) return false;
        return true;
    }

    std::size_t faceCount() const { return faces_.size(); }

    /// The live face nearest the origin (the first of equals); faceCount() if none.
    std::size_t nearest() const {
        std::size_t best = faces_.size();
        for (std::size_t f = 0; f < faces_.size(); ++f)
            if (faces_[f].alive && (best == faces_.size() || faces_[f].distance < faces_[best].distance)) best = f;
        return best;
    }

    /// Adds w, removes the faces it sees and closes the hole; false if that failed.
    bool expand(const Vertex& w, real tolerance) {
        const int added = static_cast<int>(vertices_.size());
        vertices_.push_back(w);
        horizon_.clear();
        for (Face& f : faces_) {
            if (!f.alive || f.normal.dot(w.w - vertices_[static_cast<std::size_t>(f.v[0])].w) <= tolerance) continue;
            f.alive = false;
            for (int k = 0; k < 3; ++k) {
                const Edge e{f.v[static_cast<std::size_t>(k)], f.v[static_cast<std::size_t>((k + 1) % 3)]};
                // An edge shared by two removed faces is inside the hole, not on its rim.
                const auto twin = std::find_if(horizon_.begin(), horizon_.end(),
                                               [&](const Edge& h) { return h.from == e.to && h.to == e.from; });
                if (twin != horizon_.end()) horizon_.erase(twin);
                else horizon_.push_back(e);
            }
        }
        if (horizon_.empty()) return false;
        for (const Edge& e : horizon_)
            if (!addFace(e.from, e.to, added)) return false;
        return faces_.size() < 512;
    }

    const Face& face(std::size_t f) const { return faces_[f]; }
    const Vertex& vertex(int i) const { return vertices_[static_cast<std::size_t>(i)]; }

private:
    bool addFace(int i, int j, int k) {
        const Vec3 &a = vertices_[static_cast<std::size_t>(i)].w, &b = vertices_[static_cast<std::size_t>(j)].w,
                   &c = vertices_[static_cast<std::size_t>(k)].w;
        Vec3 n = (b - a).cross(c - a);
        const real length = n.norm();
        if (!(length > 0)) return false;
        n /= length;
        // Outward is away from a point inside the first tetrahedron (the polytope only
        // grows, so it stays inside): a winding flipped by round-off is put right, and
        // the horizon's edge pairs stay consistent.
        if (n.dot(interior_ - a) > 0) {
            n = -n;
            std::swap(i, j);
        }
        faces_.push_back({{i, j, k}, n, n.dot(a)});
        return true;
    }

    const PlacedConvex& a_;
    const PlacedConvex& b_;
    std::vector<Vertex> vertices_;
    std::vector<Face> faces_;
    std::vector<Edge> horizon_;
    Vec3 interior_ = Vec3::Zero();
};

} // namespace

Penetration expandPolytope(const PlacedConvex& a, const PlacedConvex& b, const gjk_detail::Simplex& start) {
    // Tolerance, relative to the sizes involved: sqrt(epsilon) in double (1.5e-8 m at 1 m),
    // 2e-5 in float (sqrt(epsilon) would leave 0.35 mm). Flat faces converge at once,
    // curved ones (a cylinder's side) in a few more expansions.
    real scale = 1;
    for (int i = 0; i < start.n; ++i) scale = std::max(scale, start.v[static_cast<std::size_t>(i)].w.cwiseAbs().maxCoeff());
    scale = std::max({scale, (a.centre() - b.centre()).cwiseAbs().maxCoeff()});
    const real tolerance = (std::is_same_v<real, double> ? std::sqrt(std::numeric_limits<real>::epsilon()) : real(2e-5)) * scale;

    Polytope polytope(a, b);
    Penetration result;
    if (!polytope.start(start, tolerance)) return result;
    std::size_t best = polytope.nearest();
    if (best == polytope.faceCount()) return result;
    // GJK's containment test can be fooled by a nearly flat tetrahedron (three support
    // points on a cylinder's rim a hundredth of a millimetre apart): a start that does not
    // hold the origin has a face behind it, and no depth can come from it.
    if (polytope.face(best).distance < -tolerance) return result;
    // The nearest face's distance only grows as the polytope grows toward M's boundary.
    // On a curved rim, round-off can cut a face wrongly and leave the nearest one behind
    // the origin: stop there and keep the last face that was still right (a copy: the
    // faces' array grows).
    Face f = polytope.face(best);
    for (int iteration = 0; iteration < 64; ++iteration) {
        const Vertex w = polytope.support(f.normal);
        if (f.normal.dot(w.w) - f.distance <= tolerance) break; // M ends at this face
        if (!polytope.expand(w, tolerance)) break;
        best = polytope.nearest();
        if (best == polytope.faceCount() || polytope.face(best).distance < f.distance - tolerance) break;
        f = polytope.face(best);
    }
    if (!std::isfinite(f.distance)) return result;
    // The origin's projection on the face, in barycentric weights of its three vertices,
    // gives the deepest points on each core.
    const Vertex &u = polytope.vertex(f.v[0]), &v = polytope.vertex(f.v[1]), &w = polytope.vertex(f.v[2]);
    Vec3 bary;
    closestPointOnTriangle(Vec3(f.normal * f.distance), u.w, v.w, w.w, bary);
    result.found = true;
    result.normal = -f.normal; // A moves back along -n: from B toward A
    result.depth = f.distance;
    result.pointA = bary[0] * u.a + bary[1] * v.a + bary[2] * w.a;
    result.pointB = bary[0] * u.b + bary[1] * v.b + bary[2] * w.b;
    return result;
}

} // namespace jounce::detail
