// SPDX-License-Identifier: MIT
// Shape queries that need no pair: validation, bounding boxes, mass, support points.

#include <jounce/collision/shapes.hpp>

#include <jounce/collision/convex_hull.hpp>
#include <jounce/collision/triangle_mesh.hpp>

#include "common/guard.hpp"
#include "common/validate.hpp"

#include <cmath>
#include <limits>
#include <numbers>
#include <type_traits>

namespace jounce {
namespace {

template <class... F> struct Overloaded : F... {
    using F::operator()...;
};
// C++20 deduces this aggregate's arguments by itself, but clang before 17 does not
// implement that yet (P1816); the guide lets clang 14 (the fuzz build) compile it.
template <class... F> Overloaded(F...) -> Overloaded<F...>;

constexpr real infinity = std::numeric_limits<real>::infinity();

/// Box around `local` (shape frame) placed by `pose`: exact for the 8 corners.
Aabb placeBox(const Aabb& local, const Transform& pose) {
    const Vec3 centre = (local.min + local.max) / 2, half = (local.max - local.min) / 2;
    const Vec3 e = pose.orientation.toRotationMatrix().cwiseAbs() * half;
    const Vec3 c = pose.toWorld(centre);
    return {c - e, c + e};
}

Vec3 farthestVertex(const std::vector<Vec3>& vertices, const Vec3& d) {
    // The first of equally far vertices, so ties are deterministic.
    std::size_t best = 0;
    real top = vertices[0].dot(d);
    for (std::size_t i = 1; i < vertices.size(); ++i) {
        const real s = vertices[i].dot(d);
        if (s > top) {
            top = s;
            best = i;
        }
    }
    return vertices[best];
}

} // namespace

Vec3 cylinderSupport(const Cylinder& c, const Vec3& d) {
    // The rim point toward d's part across the axis, on the cap d's axial part points
    // to (ties: the + cap, and +x when d is along the axis, so answers are deterministic).
    const real y = d.y() < 0 ? -c.halfHeight : c.halfHeight;
    // Scaled by the larger component first: a denormal part across the axis made
    // r / |d_xz| infinite and 0 times that NaN (fuzz_narrow_phase, a time of impact).
    const real largest = std::max(std::abs(d.x()), std::abs(d.z()));
    if (!(largest > 0)) return {c.radius, y, 0};
    const real x = d.x() / largest, z = d.z() / largest, across = std::hypot(x, z);
    return {x / across * c.radius, y, z / across * c.radius};
}

ConvexHull makeConvexHull(std::span<const Vec3> points) {
    return {std::make_shared<const HullData>(buildConvexHull(points))};
}

TriangleMesh makeTriangleMesh(std::span<const Vec3> vertices, std::span<const std::array<std::uint32_t, 3>> triangles) {
    return {std::make_shared<const MeshData>(vertices, triangles)};
}

ConvexHull makeConvexHull(std::span<const Vec3> points, const ErrorHandler& onError) {
    return detail::guarded(onError, [&] { return makeConvexHull(points); });
}

TriangleMesh makeTriangleMesh(std::span<const Vec3> vertices, std::span<const std::array<std::uint32_t, 3>> triangles,
                              const ErrorHandler& onError) {
    return detail::guarded(onError, [&] { return makeTriangleMesh(vertices, triangles); });
}

bool isStaticOnly(const Shape& shape) {
    return std::holds_alternative<HalfSpace>(shape) || std::holds_alternative<TriangleMesh>(shape);
}

void validateShape(const Shape& shape, const char* field) {
    const std::string f = field;
    std::visit(Overloaded{
                   [&](const Sphere& s) { detail::requireSize(s.radius, (f + ".Sphere.radius").c_str()); },
                   [&](const Box& b) {
                       for (int k = 0; k < 3; ++k)
                           detail::requireSize(b.halfExtents[k], (f + ".Box.halfExtents").c_str());
                   },
                   [&](const Capsule& c) {
                       detail::requireSize(c.radius, (f + ".Capsule.radius").c_str());
                       detail::requireInRange(c.halfHeight, 0, detail::maxCoordinate, (f + ".Capsule.halfHeight").c_str());
                   },
                   [&](const HalfSpace& h) {
                       detail::requireFinite(h.normal, (f + ".HalfSpace.normal").c_str());
                       constexpr real tolerance = std::is_same_v<real, double> ? real(1e-6) : real(1e-3);
                       if (std::abs(h.normal.norm() - 1) > tolerance)
                           throw Error(f + ".HalfSpace.normal", toText(h.normal), "must be unit length");
                       detail::requireFinite(h.offset, (f + ".HalfSpace.offset").c_str());
                   },
                   [&](const ConvexHull& h) {
                       if (!h.hull) throw Error(f + ".ConvexHull.hull", "null", "build it with makeConvexHull");
                   },
                   [&](const TriangleMesh& m) {
                       if (!m.mesh) throw Error(f + ".TriangleMesh.mesh", "null", "build it with makeTriangleMesh");
                   },
                   [&](const Cylinder& c) {
                       detail::requireSize(c.radius, (f + ".Cylinder.radius").c_str());
                       detail::requireSize(c.halfHeight, (f + ".Cylinder.halfHeight").c_str());
                   },
               },
               shape);
}

Aabb computeAabb(const Shape& shape, const Transform& pose) {
    return std::visit(
        Overloaded{
            [&](const Sphere& s) { return Aabb{pose.position.array() - s.radius, pose.position.array() + s.radius}; },
            [&](const Box& b) {
                // Extent along world axis i: sum_j |R_ij| h_j.
                const Vec3 e = pose.orientation.toRotationMatrix().cwiseAbs() * b.halfExtents;
                return Aabb{pose.position - e, pose.position + e};
            },
            [&](const Capsule& c) {
                const Vec3 axis = pose.directionToWorld(Vec3(0, c.halfHeight, 0)).cwiseAbs();
                return Aabb{pose.position.array() - axis.array() - c.radius,
                            pose.position.array() + axis.array() + c.radius};
            },
            [&](const HalfSpace& h) {
                // The solid reaches infinity along every axis except where the normal is
                // exactly that axis: then it stops at the plane.
                const Vec3 n = pose.directionToWorld(h.normal);
                const real d = h.offset + n.dot(pose.position);
                Aabb box{Vec3::Constant(-infinity), Vec3::Constant(infinity)};
                for (int k = 0; k < 3; ++k) {
                    if (n[k] == 1) box.max[k] = d;
                    if (n[k] == -1) box.min[k] = -d;
                }
                return box;
            },
            [&](const ConvexHull& h) {
                Aabb box;
                for (const Vec3& v : h.hull->vertices) {
                    const Vec3 w = pose.toWorld(v);
                    box = box.merged(Aabb{w, w});
                }
                return box;
            },
            [&](const TriangleMesh& m) { return placeBox(m.mesh->bounds(), pose); },
            [&](const Cylinder& c) {
                // The two rim circles: along world axis i a circle of radius r about the
                // axis a reaches r sqrt(1 - a_i^2); the caps' centres add |a_i| h.
                const Vec3 a = pose.directionToWorld(Vec3::UnitY());
                const Vec3 e = a.cwiseAbs() * c.halfHeight +
                               c.radius * (Vec3::Ones() - a.cwiseProduct(a)).cwiseMax(Vec3::Zero()).cwiseSqrt();
                return Aabb{pose.position - e, pose.position + e};
            },
        },
        shape);
}

real computeVolume(const Shape& shape) {
    constexpr real pi = std::numbers::pi_v<real>;
    return std::visit(Overloaded{
                          [](const Sphere& s) { return 4 * pi * s.radius * s.radius * s.radius / 3; },
                          [](const Box& b) { return 8 * b.halfExtents.prod(); },
                          [](const Capsule& c) {
                              return pi * c.radius * c.radius * (2 * c.halfHeight + 4 * c.radius / 3);
                          },
                          [](const HalfSpace&) { return infinity; },
                          [](const ConvexHull& h) { return hullVolume(*h.hull); },
                          [](const TriangleMesh& m) {
                              return m.mesh->closed() ? closedMeshMassProperties(m.mesh->vertices(), m.mesh->triangles(), 1).mass
                                                      : infinity;
                          },
                          [](const Cylinder& c) { return 2 * pi * c.radius * c.radius * c.halfHeight; },
                      },
                      shape);
}

MassProperties computeMassProperties(const Shape& shape, real density) {
    return std::visit(Overloaded{
                          [&](const Sphere& s) { return solidSphere(s.radius, density); },
                          [&](const Box& b) { return solidBox(b.halfExtents, density); },
                          [&](const Capsule& c) { return solidCapsule(c.radius, c.halfHeight, density); },
                          [&](const HalfSpace&) -> MassProperties {
                              throw Error("shape", "HalfSpace", "a half-space has no finite mass; use it on static bodies");
                          },
                          [&](const ConvexHull& h) { return hullMassProperties(*h.hull, density); },
                          [&](const TriangleMesh& m) -> MassProperties {
                              if (!m.mesh->closed())
                                  throw Error("shape", "TriangleMesh", "an open mesh encloses no volume; use it on static bodies");
                              return closedMeshMassProperties(m.mesh->vertices(), m.mesh->triangles(), density);
                          },
                          [&](const Cylinder& c) { return solidCylinder(c.radius, c.halfHeight, density); },
                      },
                      shape);
}

Vec3 support(const Shape& shape, const Vec3& d) {
    return std::visit(Overloaded{
                          [&](const Sphere& s) -> Vec3 {
                              const real n = d.norm();
                              return n > 0 ? Vec3(d * (s.radius / n)) : Vec3(s.radius, 0, 0);
                          },
                          [&](const Box& b) -> Vec3 {
                              // Ties (d_i == 0) pick the + side, so the answer is deterministic.
                              return Vec3(d.x() < 0 ? -b.halfExtents.x() : b.halfExtents.x(),
                                          d.y() < 0 ? -b.halfExtents.y() : b.halfExtents.y(),
                                          d.z() < 0 ? -b.halfExtents.z() : b.halfExtents.z());
                          },
                          [&](const Capsule& c) -> Vec3 {
                              const Vec3 end(0, d.y() < 0 ? -c.halfHeight : c.halfHeight, 0);
                              const real n = d.norm();
                              return n > 0 ? Vec3(end + d * (c.radius / n)) : Vec3(end + Vec3(c.radius, 0, 0));
                          },
                          [&](const HalfSpace&) -> Vec3 {
                              throw Error("shape", "HalfSpace", "a half-space has no support point (it is unbounded)");
                          },
                          [&](const ConvexHull& h) { return farthestVertex(h.hull->vertices, d); },
                          [&](const TriangleMesh& m) { return farthestVertex(m.mesh->vertices(), d); },
                          [&](const Cylinder& c) { return cylinderSupport(c, d); },
                      },
                      shape);
}

} // namespace jounce
