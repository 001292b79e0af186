// SPDX-License-Identifier: MIT
// Quickhull in 3D (Barber, Dobkin & Huhdanpaa, "The Quickhull Algorithm for Convex
// Hulls", 1996), on a triangle mesh with a directed-edge map, then a merge of coplanar
// triangles into polygons.

#include <jounce/collision/convex_hull.hpp>

#include <jounce/common/error.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <stdexcept>
#include <string>

namespace jounce {
namespace {

struct Triangle {
    std::array<std::uint32_t, 3> v;
    Vec3 normal;
    real offset = 0;
    std::vector<std::uint32_t> outside; ///< points above this face, to be processed
    bool alive = true;
    real distance(const Vec3& p) const { return normal.dot(p) - offset; }
};

class Builder {
public:
    Builder(std::span<const Vec3> points) : p_(points.begin(), points.end()) {}

    HullData build() {
        validate();
        initialSimplex();
        expand();
        return mergeAndCompact();
    }

private:
    void validate() {
        if (p_.size() < 4)
            throw Error("buildConvexHull.points", std::to_string(p_.size()) + " points", "a hull needs at least 4 points");
        real extent = 0;
        for (std::size_t i = 0; i < p_.size(); ++i) {
            if (!isFinite(p_[i]))
                throw Error("buildConvexHull.points[" + std::to_string(i) + "]", toText(p_[i]), "must be finite");
            extent = std::max(extent, p_[i].cwiseAbs().maxCoeff());
        }
        // Distances below this are round-off (qhull's and Bullet's rule of thumb).
        tolerance_ = 3 * std::numeric_limits<real>::epsilon() * 3 * std::max(extent, real(1e-30)) * 16;
    }

    Triangle makeTriangle(std::uint32_t a, std::uint32_t b, std::uint32_t c) const {
        Triangle t;
        t.v = {a, b, c};
        t.normal = (p_[b] - p_[a]).cross(p_[c] - p_[a]).normalized();
        t.offset = t.normal.dot(p_[a]);
        return t;
    }

    void initialSimplex() {
        // The two farthest apart of the six axis-extreme points...
        std::array<std::uint32_t, 6> extreme{};
        for (std::uint32_t i = 0; i < p_.size(); ++i)
            for (int k = 0; k < 3; ++k) {
                if (p_[i][k] < p_[extreme[2 * k]][k]) extreme[2 * k] = i;
                if (p_[i][k] > p_[extreme[2 * k + 1]][k]) extreme[2 * k + 1] = i;
            }
        std::uint32_t a = 0, b = 0;
        real best = -1;
        for (std::uint32_t i : extreme)
            for (std::uint32_t j : extreme)
                if ((p_[i] - p_[j]).squaredNorm() > best) {
                    best = (p_[i] - p_[j]).squaredNorm();
                    a = i;
                    b = j;
                }
        if (std::sqrt(best) <= tolerance_)
            throw Error("buildConvexHull.points", "all equal to " + toText(p_[0]), "need 4 distinct points, not coincident ones");
        // ...the point farthest from their line...
        const Vec3 axis = (p_[b] - p_[a]).normalized();
        std::uint32_t c = a;
        best = -1;
        for (std::uint32_t i = 0; i < p_.size(); ++i) {
            const Vec3 r = p_[i] - p_[a];
            const real d = (r - axis * axis.dot(r)).squaredNorm();
            if (d > best) {
                best = d;
                c = i;
            }
        }
        if (std::sqrt(best) <= tolerance_)
            throw Error("buildConvexHull.points", std::to_string(p_.size()) + " points", "all collinear: a hull needs volume");
        // ...and the point farthest from their plane.
        const Vec3 n = (p_[b] - p_[a]).cross(p_[c] - p_[a]).normalized();
        std::uint32_t d = a;
        best = -1;
        for (std::uint32_t i = 0; i < p_.size(); ++i) {
            const real h = std::abs(n.dot(p_[i] - p_[a]));
            if (h > best) {
                best = h;
                d = i;
            }
        }
        if (best <= tolerance_)
            throw Error("buildConvexHull.points", std::to_string(p_.size()) + " points", "all coplanar: a hull needs volume");
        // Orient the tetrahedron so every face points away from the fourth corner.
        if (n.dot(p_[d] - p_[a]) > 0) std::swap(b, c);
        addTriangle(makeTriangle(a, b, c));
        addTriangle(makeTriangle(a, d, b));
        addTriangle(makeTriangle(b, d, c));
        addTriangle(makeTriangle(c, d, a));
        for (std::uint32_t i = 0; i < p_.size(); ++i)
            if (i != a && i != b && i != c && i != d) assign(i, 0, faces_.size());
    }

    void addTriangle(Triangle t) {
        const auto index = static_cast<std::uint32_t>(faces_.size());
        for (int k = 0; k < 3; ++k) edges_[{t.v[k], t.v[(k + 1) % 3]}] = index;
        faces_.push_back(std::move(t));
    }

    /// Gives point i to the first live face in [first, last) it lies above.
    void assign(std::uint32_t i, std::size_t first, std::size_t last) {
        for (std::size_t f = first; f < last; ++f) {
            if (!faces_[f].alive) continue;
            if (faces_[f].distance(p_[i]) > tolerance_) {
                faces_[f].outside.push_back(i);
                return;
            }
        }
    }

    void expand() {
        for (std::size_t f = 0; f < faces_.size(); ++f) {
            while (faces_[f].alive && !faces_[f].outside.empty()) addPoint(f);
        }
    }

    /// Adds the point farthest above face f: removes the faces it sees and fans new ones
    /// from it to the horizon.
    void addPoint(std::size_t f) {
        const auto& out = faces_[f].outside;
        const std::uint32_t eye = *std::max_element(out.begin(), out.end(), [&](std::uint32_t i, std::uint32_t j) {
            return faces_[f].distance(p_[i]) < faces_[f].distance(p_[j]);
        });
        // Visible faces: a flood fill from f across edges, in a fixed order.
        std::vector<std::uint32_t> visible{static_cast<std::uint32_t>(f)};
        std::vector<char> seen(faces_.size(), 0);
        seen[f] = 1;
        std::vector<std::pair<std::uint32_t, std::uint32_t>> horizon;
        for (std::size_t k = 0; k < visible.size(); ++k) {
            const Triangle& t = faces_[visible[k]];
            for (int e = 0; e < 3; ++e) {
                const std::uint32_t u = t.v[e], v = t.v[(e + 1) % 3];
                const std::uint32_t other = edges_.at({v, u});
                if (seen[other]) continue;
                if (faces_[other].distance(p_[eye]) > tolerance_) {
                    seen[other] = 1;
                    visible.push_back(other);
                } else {
                    horizon.emplace_back(u, v);
                }
            }
        }
        // Horizon edges whose neighbour turned out visible later are not horizon.
        std::erase_if(horizon, [&](const auto& e) { return seen[edges_.at({e.second, e.first})] != 0; });

        std::vector<std::uint32_t> orphans;
        for (std::uint32_t v : visible) {
            Triangle& t = faces_[v];
            t.alive = false;
            for (std::uint32_t i : t.outside)
                if (i != eye) orphans.push_back(i);
            t.outside.clear();
            for (int e = 0; e < 3; ++e) edges_.erase({t.v[e], t.v[(e + 1) % 3]});
        }
        const std::size_t first = faces_.size();
        for (const auto& [u, v] : horizon) addTriangle(makeTriangle(u, v, eye));
        std::sort(orphans.begin(), orphans.end());
        for (std::uint32_t i : orphans) assign(i, first, faces_.size());
    }

    /// Merges coplanar neighbouring triangles into polygons and keeps only used vertices.
    HullData mergeAndCompact() {
        std::vector<std::uint32_t> live;
        for (std::uint32_t f = 0; f < faces_.size(); ++f)
            if (faces_[f].alive) live.push_back(f);
        // Union-find over live triangles; neighbours join when each one's corners lie on
        // the other's plane.
        std::vector<std::uint32_t> parent(faces_.size());
        std::iota(parent.begin(), parent.end(), 0u);
        auto find = [&](std::uint32_t x) {
            while (parent[x] != x) x = parent[x] = parent[parent[x]];
            return x;
        };
        const real planar = tolerance_ * 4;
        for (std::uint32_t f : live) {
            const Triangle& t = faces_[f];
            for (int e = 0; e < 3; ++e) {
                const std::uint32_t g = edges_.at({t.v[(e + 1) % 3], t.v[e]});
                const Triangle& n = faces_[g];
                bool coplanar = t.normal.dot(n.normal) > 0;
                for (std::uint32_t v : n.v) coplanar = coplanar && std::abs(t.distance(p_[v])) <= planar;
                for (std::uint32_t v : t.v) coplanar = coplanar && std::abs(n.distance(p_[v])) <= planar;
                if (coplanar) parent[find(std::max(f, g))] = find(std::min(f, g));
            }
        }
        HullData hull;
        hull.tolerance = tolerance_;
        std::map<std::uint32_t, std::uint32_t> groupFace; // root triangle -> output face
        std::vector<std::vector<std::uint32_t>> groups;
        for (std::uint32_t f : live) {
            const std::uint32_t root = find(f);
            auto [it, added] = groupFace.emplace(root, static_cast<std::uint32_t>(groups.size()));
            if (added) groups.emplace_back();
            groups[it->second].push_back(f);
        }
        std::map<std::uint32_t, std::uint32_t> remap; // input index -> hull vertex index
        std::vector<std::uint32_t> used;
        for (const auto& group : groups) {
            // Boundary: directed edges whose twin lies in another group; chain them.
            std::map<std::uint32_t, std::uint32_t> next;
            Vec3 normal = Vec3::Zero();
            for (std::uint32_t f : group) {
                const Triangle& t = faces_[f];
                normal += (p_[t.v[1]] - p_[t.v[0]]).cross(p_[t.v[2]] - p_[t.v[0]]);
                for (int e = 0; e < 3; ++e) {
                    const std::uint32_t u = t.v[e], v = t.v[(e + 1) % 3];
                    if (find(edges_.at({v, u})) != find(f)) next[u] = v;
                }
            }
            HullFace face;
            face.normal = normal.normalized();
            std::vector<std::uint32_t> loop;
            const std::uint32_t start = next.begin()->first;
            for (std::uint32_t v = start; loop.size() <= next.size();) {
                loop.push_back(v);
                v = next.at(v);
                if (v == start) break;
            }
            // Drop corners that sit on a straight edge of the polygon.
            std::vector<std::uint32_t> corners;
            for (std::size_t k = 0; k < loop.size(); ++k) {
                const Vec3& a = p_[loop[(k + loop.size() - 1) % loop.size()]];
                const Vec3& b = p_[loop[k]];
                const Vec3& c = p_[loop[(k + 1) % loop.size()]];
                if ((b - a).cross(c - b).norm() > planar * (c - a).norm()) corners.push_back(loop[k]);
            }
            face.offset = -std::numeric_limits<real>::infinity();
            for (std::uint32_t v : corners) {
                face.offset = std::max(face.offset, face.normal.dot(p_[v]));
                if (remap.emplace(v, 0).second) used.push_back(v);
                face.vertices.push_back(v);
            }
            hull.faces.push_back(std::move(face));
        }
        std::sort(used.begin(), used.end());
        for (std::uint32_t i = 0; i < used.size(); ++i) {
            remap[used[i]] = i;
            hull.vertices.push_back(p_[used[i]]);
        }
        for (HullFace& face : hull.faces)
            for (std::uint32_t& v : face.vertices) v = remap.at(v);
        finishHullTopology(hull);
        return hull;
    }

    std::vector<Vec3> p_;
    std::vector<Triangle> faces_;
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> edges_; ///< directed edge -> face
    real tolerance_ = 0;
};

/// Whether the builder's output is a polytope the narrow phase can use: every face a
/// polygon with a unit normal and a finite plane, every index in range, and the
/// faces closing up (V - E + F = 2).
bool wellFormed(const HullData& h) {
    const std::size_t nv = h.vertices.size();
    bool ok = nv >= 4 && h.faces.size() >= 4;
    for (const HullFace& f : h.faces) {
        ok = ok && f.vertices.size() >= 3 && f.normal.allFinite() && std::isfinite(f.offset) &&
             std::abs(f.normal.norm() - 1) < real(1e-3);
        for (const std::uint32_t v : f.vertices) ok = ok && v < nv;
    }
    return ok && nv + h.faces.size() == h.edges.size() + 2;
}

/// Where a well-formed hull is still wrong: the first input point left outside a face,
/// face corner off its face's plane, or face facing inward, beyond what round-off
/// explains; empty when the hull is good. Quickhull drops a point once it is within
/// tolerance of the faces it sees, and merging coplanar triangles accepts a spread of a
/// few tolerances, so small slivers are expected (fuzz_hull found points 2700
/// tolerances outside on ordinary clouds). The bounds here catch gross errors only:
/// sqrt(epsilon) of the cloud's extent outside, cbrt(epsilon) off a plane (merging is
/// pairwise and sliver normals are inexact). Clouds mixing a 1e10 m spread with unit
/// features broke these (docs/fuzzing.md, finding 6).
std::string hullDefect(const HullData& h, std::span<const Vec3> points) {
    real extent = 0;
    for (const Vec3& p : points) extent = std::max(extent, p.cwiseAbs().maxCoeff());
    const real slack = 16 * h.tolerance;
    // In float, quickhull on ordinary clouds leaves points far more tolerances out (2.4 mm
    // on a 1 m cloud of 10 random points; 1.5 cm on a 72-point Minkowski difference
    // about 3 m across, test_convex_pairs.cpp): there the check flags only gross
    // failures, 2 % of the extent (docs/collision.md, limits).
    const real epsilon = std::numeric_limits<real>::epsilon();
    const real outside = std::max(slack, (sizeof(real) == 4 ? real(0.02) : std::sqrt(epsilon)) * extent);
    const real warped = std::max(slack, std::cbrt(epsilon) * extent);
    for (std::size_t f = 0; f < h.faces.size(); ++f) {
        const HullFace& face = h.faces[f];
        if (!(face.normal.dot(h.centroid) - face.offset < 0))
            return "face " + std::to_string(f) + " faces inward (the corners' centroid is " +
                   toText(face.normal.dot(h.centroid) - face.offset) + " outside it)";
        for (const std::uint32_t v : face.vertices)
            if (std::abs(face.normal.dot(h.vertices[v]) - face.offset) > warped)
                return "face " + std::to_string(f) + " is warped (a corner " +
                       toText(std::abs(face.normal.dot(h.vertices[v]) - face.offset)) + " off its plane)";
        for (std::size_t i = 0; i < points.size(); ++i)
            if (face.normal.dot(points[i]) - face.offset > outside)
                return "point " + std::to_string(i) + " is " + toText(face.normal.dot(points[i]) - face.offset) +
                       " outside face " + std::to_string(f);
    }
    const real volume = hullVolume(h);
    if (!std::isfinite(volume) || !(volume > 0)) return "the hull's volume is " + toText(volume);
    return {};
}

} // namespace

HullData buildConvexHull(std::span<const Vec3> points) {
    // Clouds within round-off of flat or of a line, but not caught as such by the
    // checks up front, can leave quickhull with sliver faces it cannot close up
    // (fuzz/fuzz_hull.cpp found empty faces, zero normals and broken edge loops):
    // they are reported like the other degenerate clouds, never returned.
    const auto degenerate = [&] {
        return Error("buildConvexHull.points", std::to_string(points.size()) + " points",
                     "too close to flat or collinear for a hull at this precision");
    };
    HullData hull;
    try {
        hull = Builder(points).build();
    } catch (const std::out_of_range&) { // an edge loop that does not close
        throw degenerate();
    }
    if (!wellFormed(hull)) throw degenerate();
    // Checked, not trusted: a hull that leaves input points outside would make contacts
    // miss. Such clouds (features many orders of magnitude below the spread) are
    // reported, never returned.
    if (const std::string defect = hullDefect(hull, points); !defect.empty())
        throw Error("buildConvexHull.points", std::to_string(points.size()) + " points",
                    "mix scales too far apart for a hull at this precision: " + defect);
    return hull;
}

void finishHullTopology(HullData& hull) {
    hull.centroid = Vec3::Zero();
    for (const Vec3& v : hull.vertices) hull.centroid += v;
    hull.centroid /= static_cast<real>(hull.vertices.size());
    // Each face runs its edges counter-clockwise; the face on an edge's other side runs
    // it backwards. Key every undirected edge by (min, max) to pair the two faces.
    std::map<std::pair<std::uint32_t, std::uint32_t>, HullEdge> edges;
    for (std::uint32_t f = 0; f < hull.faces.size(); ++f) {
        const auto& loop = hull.faces[f].vertices;
        for (std::size_t k = 0; k < loop.size(); ++k) {
            const std::uint32_t u = loop[k], v = loop[(k + 1) % loop.size()];
            HullEdge& e = edges[{std::min(u, v), std::max(u, v)}];
            e.a = std::min(u, v);
            e.b = std::max(u, v);
            (u < v ? e.faceLeft : e.faceRight) = f;
        }
    }
    hull.edges.clear();
    for (const auto& [key, e] : edges) hull.edges.push_back(e);
}

MassProperties closedMeshMassProperties(std::span<const Vec3> vertices,
                                        std::span<const std::array<std::uint32_t, 3>> triangles, real density) {
    // Reference point inside (or anywhere: signed volumes cancel outside): the mean of
    // the vertices. Each triangle (a, b, c) with the reference makes a tetrahedron with
    // edge matrix A = [a-r, b-r, c-r]: volume det(A)/6, covariance det(A) A C0 A^T with
    // the canonical C0 = [2 1 1; 1 2 1; 1 1 2] / 120 (Blow & Binstock, "Calculating the
    // inertia tensor of a polyhedron", or Tonon 2004).
    Vec3 r = Vec3::Zero();
    for (const Vec3& v : vertices) r += v;
    r /= static_cast<real>(vertices.size());
    Mat3 c0;
    c0 << 2, 1, 1, 1, 2, 1, 1, 1, 2;
    c0 /= 120;
    real volume = 0;
    Vec3 moment = Vec3::Zero();
    Mat3 covariance = Mat3::Zero();
    for (const auto& t : triangles) {
        Mat3 a;
        for (int k = 0; k < 3; ++k) a.col(k) = vertices[t[static_cast<std::size_t>(k)]] - r;
        const real det = a.determinant();
        volume += det / 6;
        moment += det / 6 * (a.col(0) + a.col(1) + a.col(2)) / 4;
        covariance += det * a * c0 * a.transpose();
    }
    MassProperties mp;
    mp.mass = density * volume;
    const Vec3 centroid = moment / volume; // relative to r
    // Covariance about the centroid, then I = trace(C) E - C.
    const Mat3 c = density * covariance - mp.mass * centroid * centroid.transpose();
    mp.inertia = c.trace() * Mat3::Identity() - c;
    mp.centroid = r + centroid;
    return mp;
}

MassProperties hullMassProperties(const HullData& hull, real density) {
    std::vector<std::array<std::uint32_t, 3>> fan; // each face as a fan of triangles
    for (const HullFace& f : hull.faces)
        for (std::size_t k = 1; k + 1 < f.vertices.size(); ++k) fan.push_back({f.vertices[0], f.vertices[k], f.vertices[k + 1]});
    return closedMeshMassProperties(hull.vertices, fan, density);
}

real hullVolume(const HullData& hull) { return hullMassProperties(hull, 1).mass; }

} // namespace jounce
