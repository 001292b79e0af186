// SPDX-License-Identifier: MIT
// Convex hulls in the narrow phase, GJK distance, and the separating axis test
// between polytopes, checked against analytic answers and brute force.

#include "collision/polytope.hpp"
#include "helpers.hpp"

#include <jounce/collision/convex_hull.hpp>
#include <jounce/collision/gjk.hpp>
#include <jounce/collision/narrow_phase.hpp>
#include <jounce/collision/point_queries.hpp>
#include <jounce/collision/ray_cast.hpp>
#include <jounce/collision/triangle_mesh.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>
#include <random>

using namespace jounce;
using testing::at;
using testing::turn;
using testing::tol;

namespace {

ConvexHull cubeHull(const Vec3& half) {
    std::vector<Vec3> corners;
    for (int i = 0; i < 8; ++i)
        corners.emplace_back(i & 1 ? half.x() : -half.x(), i & 2 ? half.y() : -half.y(), i & 4 ? half.z() : -half.z());
    return makeConvexHull(corners);
}

real deepest(const Manifold& m) {
    real d = -std::numeric_limits<real>::infinity();
    for (int k = 0; k < m.count; ++k) d = std::max(d, m.points[static_cast<std::size_t>(k)].depth);
    return d;
}

/// Random hull: 4-12 points on an ellipsoid, turned and moved.
std::vector<Vec3> randomCloud(std::mt19937& rng) {
    std::uniform_real_distribution<double> u(-1, 1), size(0.3, 1.2);
    std::uniform_int_distribution<int> count(4, 12);
    const Vec3 radii(static_cast<real>(size(rng)), static_cast<real>(size(rng)), static_cast<real>(size(rng)));
    std::vector<Vec3> points;
    const int n = count(rng);
    while (static_cast<int>(points.size()) < n) {
        Vec3 d(static_cast<real>(u(rng)), static_cast<real>(u(rng)), static_cast<real>(u(rng)));
        if (d.norm() < real(0.1)) continue;
        points.push_back(d.normalized().cwiseProduct(radii));
    }
    return points;
}

Quat randomTurn(std::mt19937& rng) {
    std::normal_distribution<double> g(0, 1);
    Quat q(static_cast<real>(g(rng)), static_cast<real>(g(rng)), static_cast<real>(g(rng)), static_cast<real>(g(rng)));
    return q.normalized();
}

} // namespace

TEST_CASE("a cube hull collides like the box it is", "[collision]") {
    const Vec3 half(0.5, 0.5, 0.5);
    const ConvexHull hull = cubeHull(half);
    const Box box{half};
    SECTION("resting face on face: 4 points, normal up, same depth as box-box") {
        const Transform lower = at(Vec3::Zero()), upper = at(Vec3(0.1, 0.98, -0.05), turn(0.3, Vec3::UnitY()));
        Manifold fromHulls, fromBoxes;
        REQUIRE(collide(hull, upper, hull, lower, 0, fromHulls));
        REQUIRE(collide(box, upper, box, lower, 0, fromBoxes));
        CHECK(fromHulls.count == 4);
        CHECK(fromHulls.count == fromBoxes.count);
        CHECK((fromHulls.normal - Vec3::UnitY()).norm() < tol(1e-12, 1e-6));
        CHECK(deepest(fromHulls) == Approx(0.02).margin(tol(1e-12, 1e-6)));
        CHECK(deepest(fromHulls) == Approx(deepest(fromBoxes)).margin(tol(1e-12, 1e-6)));
    }
    SECTION("box against hull matches box against box") {
        const Transform a = at(Vec3(0.3, 0.9, 0.2), turn(0.7, Vec3(1, 2, 3))), b = at(Vec3::Zero(), turn(0.2, Vec3(0, 1, 1)));
        Manifold mixed, boxes;
        REQUIRE(collide(box, a, hull, b, 0.01, mixed));
        REQUIRE(collide(box, a, box, b, 0.01, boxes));
        CHECK((mixed.normal - boxes.normal).norm() < tol(1e-9, 1e-4));
        CHECK(deepest(mixed) == Approx(deepest(boxes)).margin(tol(1e-9, 1e-4)));
    }
    SECTION("separated beyond the margin: no contact") {
        Manifold m;
        CHECK_FALSE(collide(hull, at(Vec3(0, 1.2, 0)), hull, at(Vec3::Zero()), 0.1, m));
        CHECK(collide(hull, at(Vec3(0, 1.05, 0)), hull, at(Vec3::Zero()), 0.1, m));
        CHECK(deepest(m) == Approx(-0.05).margin(tol(1e-12, 1e-6)));
    }
}

TEST_CASE("hull against hull: edge across edge", "[collision]") {
    // Two cubes turned 45 degrees about crossing axes meet edge to edge.
    const ConvexHull hull = cubeHull(Vec3::Constant(0.5));
    const real reach = std::sqrt(real(0.5)); // half a face diagonal
    const Transform lower = at(Vec3::Zero(), turn(std::numbers::pi_v<real> / 4, Vec3::UnitZ()));
    const Transform upper = at(Vec3(0, 2 * reach - real(0.01), 0), turn(std::numbers::pi_v<real> / 4, Vec3::UnitX()));
    Manifold m;
    REQUIRE(collide(hull, upper, hull, lower, 0, m));
    CHECK(m.count == 1);
    CHECK((m.normal - Vec3::UnitY()).norm() < tol(1e-9, 1e-5));
    CHECK(m.points[0].depth == Approx(0.01).margin(tol(1e-9, 1e-5)));
    CHECK(m.points[0].point.norm() == Approx(reach - 0.005).margin(tol(1e-9, 1e-5)));
}

TEST_CASE("sphere against hull: face, corner and centre inside", "[collision]") {
    const ConvexHull hull = cubeHull(Vec3::Constant(0.5));
    const Sphere ball{0.25};
    Manifold m;
    SECTION("over a face") {
        REQUIRE(collide(ball, at(Vec3(0.1, 0.7, -0.2)), hull, at(Vec3::Zero()), 0, m));
        CHECK(m.count == 1);
        CHECK((m.normal - Vec3::UnitY()).norm() < tol(1e-9, 1e-5));
        CHECK(m.points[0].depth == Approx(0.05).margin(tol(1e-9, 1e-5)));
        CHECK((m.points[0].point - Vec3(0.1, 0.475, -0.2)).norm() < tol(1e-9, 1e-5));
    }
    SECTION("beyond a corner: the normal points from the corner to the centre") {
        const Vec3 corner(0.5, 0.5, 0.5), centre = corner + Vec3(1, 1, 1).normalized() * real(0.2);
        REQUIRE(collide(ball, at(centre), hull, at(Vec3::Zero()), 0, m));
        CHECK((m.normal - Vec3(1, 1, 1).normalized()).norm() < tol(1e-7, 1e-4));
        CHECK(m.points[0].depth == Approx(0.05).margin(tol(1e-7, 1e-4)));
    }
    SECTION("centre inside: pushed out through the nearest face") {
        REQUIRE(collide(ball, at(Vec3(0.1, 0.0, 0.45)), hull, at(Vec3::Zero()), 0, m));
        CHECK((m.normal - Vec3::UnitZ()).norm() < tol(1e-12, 1e-6));
        CHECK(m.points[0].depth == Approx(0.30).margin(tol(1e-12, 1e-6)));
    }
    SECTION("swapping the order flips the normal and keeps the depth") {
        Manifold back;
        const Transform p = at(Vec3(0.3, 0.62, 0.1));
        REQUIRE(collide(ball, p, hull, at(Vec3::Zero()), 0, m));
        REQUIRE(collide(hull, at(Vec3::Zero()), ball, p, 0, back));
        CHECK((back.normal + m.normal).norm() < tol(1e-12, 1e-6));
        CHECK(back.points[0].depth == Approx(m.points[0].depth).margin(tol(1e-12, 1e-6)));
    }
}

TEST_CASE("capsule against hull: lying flat rests on two points, upright on one", "[collision]") {
    const ConvexHull hull = cubeHull(Vec3(2, 0.5, 2));
    const Capsule capsule{0.2, 0.5};
    Manifold m;
    // Lying along x (local y turned onto x), 0.03 into the top face.
    REQUIRE(collide(capsule, at(Vec3(0.3, 0.67, 0), turn(std::numbers::pi_v<real> / 2, Vec3::UnitZ())), hull,
                    at(Vec3::Zero()), 0, m));
    CHECK(m.count == 2);
    CHECK((m.normal - Vec3::UnitY()).norm() < tol(1e-12, 1e-6));
    for (int k = 0; k < m.count; ++k) CHECK(m.points[static_cast<std::size_t>(k)].depth == Approx(0.03).margin(tol(1e-9, 1e-5)));
    // Upright: one point under the lower end.
    REQUIRE(collide(capsule, at(Vec3(0.3, 1.17, 0)), hull, at(Vec3::Zero()), 0, m));
    CHECK(m.count == 1);
    CHECK(m.points[0].depth == Approx(0.03).margin(tol(1e-9, 1e-5)));
    // Crossing the hull's corner region with the segment inside: SAT on the core.
    REQUIRE(collide(capsule, at(Vec3(0, 0.3, 0)), hull, at(Vec3::Zero()), 0, m));
    CHECK((m.normal - Vec3::UnitY()).norm() < tol(1e-12, 1e-6));
    CHECK(deepest(m) == Approx(0.2 + 0.5 - (0.3 - 0.5)).margin(tol(1e-9, 1e-5)));
}

TEST_CASE("hull against a half-space: every vertex below, reduced to 4", "[collision]") {
    const HalfSpace ground{};
    // A tetrahedron standing on a vertex 0.02 below the plane.
    const std::vector<Vec3> tetra{{0, -1, 0}, {1, 1, 0}, {-1, 1, 1}, {-1, 1, -1}};
    Manifold m;
    REQUIRE(collide(makeConvexHull(tetra), at(Vec3(0, 0.98, 0)), ground, at(Vec3::Zero()), 0, m));
    CHECK(m.count == 1);
    CHECK(m.points[0].depth == Approx(0.02).margin(tol(1e-12, 1e-6)));
    // A hull with 8 points on its bottom face keeps 4 of them.
    std::vector<Vec3> prism;
    for (int k = 0; k < 8; ++k) {
        const real a = std::numbers::pi_v<real> * static_cast<real>(k) / 4;
        prism.emplace_back(std::cos(a), -0.5, std::sin(a));
        prism.emplace_back(std::cos(a), 0.5, std::sin(a));
    }
    REQUIRE(collide(makeConvexHull(prism), at(Vec3(0, 0.49, 0)), ground, at(Vec3::Zero()), 0, m));
    CHECK(m.count == 4);
    for (int k = 0; k < m.count; ++k) CHECK(m.points[static_cast<std::size_t>(k)].depth == Approx(0.01).margin(tol(1e-12, 1e-6)));
}

TEST_CASE("GJK distance: closed forms", "[collision]") {
    const auto sphereAt = [](const Vec3& c, real r) {
        return [=](const Vec3& d) -> Vec3 { return c + d.normalized() * r; };
    };
    const GjkResult spheres = gjkDistance(sphereAt(Vec3::Zero(), 1), sphereAt(Vec3(3, 4, 0), 2));
    CHECK_FALSE(spheres.overlap);
    CHECK(spheres.distance == Approx(2).epsilon(tol(1e-6, 1e-4))); // smooth shapes converge linearly
    // Two unit cubes, one moved by (3, 2.5, 0): their corners (0.5, 0.5) and (2.5, 2) are 2.5 apart.
    const auto cube = [](const Vec3& c) {
        return [=](const Vec3& d) -> Vec3 { return c + support(Box{Vec3::Constant(0.5)}, d); };
    };
    const GjkResult cubes = gjkDistance(cube(Vec3::Zero()), cube(Vec3(3, 2.5, 0)));
    CHECK(cubes.distance == Approx(2.5).epsilon(tol(1e-12, 1e-6)));
    CHECK((cubes.pointA - Vec3(0.5, 0.5, cubes.pointA.z())).norm() < tol(1e-12, 1e-6));
    CHECK(gjkDistance(cube(Vec3::Zero()), cube(Vec3(0.9, 0.2, 0.1))).overlap);
}

TEST_CASE("10^4 random hull pairs: SAT depth and GJK distance agree with brute force", "[collision]") {
    // Brute force: the Minkowski difference A - B is the hull of every a - b. The sets
    // overlap when the origin is inside it; the penetration depth is then the distance
    // from the origin to its nearest face plane, and otherwise the distance is the
    // distance from the origin to its nearest face.
    std::mt19937 rng(20261121);
    std::uniform_real_distribution<double> offset(-1.7, 1.7);
    int overlapping = 0, apart = 0, unbuilt = 0;
    real worstDepth = 0, worstDistance = 0;
    // A fifth of the trials under the sanitizers (~10x slower; the fuzz target hull runs there too).
    const int trials = 10000 / testing::sanitizedStepDivisor;
    for (int trial = 0; trial < trials; ++trial) {
        const ConvexHull a = makeConvexHull(randomCloud(rng)), b = makeConvexHull(randomCloud(rng));
        const Transform pa = at(Vec3::Zero(), randomTurn(rng));
        const Transform pb = at(Vec3(static_cast<real>(offset(rng)), static_cast<real>(offset(rng)) / 2, static_cast<real>(offset(rng)) / 2), randomTurn(rng));
        detail::WorldPolytope wa, wb;
        wa.place(*a.hull, pa);
        wb.place(*b.hull, pb);
        std::vector<Vec3> difference;
        for (const Vec3& u : wa.vertices)
            for (const Vec3& v : wb.vertices) difference.push_back(u - v);
        // The reference hull. In float, quickhull fails on a few of these 72-point
        // clouds (a face turned inward, found when buildConvexHull began checking its
        // result) and now says so instead of returning it: those trials are skipped
        // and counted (docs/collision.md, limits). In double it never fails here.
        HullData m;
        try {
            m = buildConvexHull(difference);
        } catch (const Error& e) {
            if (testing::isDouble) FAIL("trial " << trial << ": " << e.what());
            ++unbuilt;
            continue;
        }
        real toPlane = std::numeric_limits<real>::infinity(), toFace = std::numeric_limits<real>::infinity();
        bool inside = true;
        for (const HullFace& f : m.faces) {
            inside = inside && f.offset > 0;
            toPlane = std::min(toPlane, f.offset);
            for (std::size_t k = 1; k + 1 < f.vertices.size(); ++k) {
                Vec3 bary;
                const Vec3 q = closestPointOnTriangle(Vec3::Zero(), m.vertices[f.vertices[0]], m.vertices[f.vertices[k]],
                                                      m.vertices[f.vertices[k + 1]], bary);
                toFace = std::min(toFace, q.norm());
            }
        }
        const detail::SatResult sat = detail::separatingAxisTest(wa, wb);
        const GjkResult g = gjkDistance([&](const Vec3& d) { return pa.toWorld(support(Shape(a), pa.directionToLocal(d))); },
                                        [&](const Vec3& d) { return pb.toWorld(support(Shape(b), pb.directionToLocal(d))); });
        if (inside && toPlane > real(1e-6)) {
            ++overlapping;
            const real error = std::abs(-sat.separation() - toPlane) / toPlane;
            worstDepth = std::max(worstDepth, error);
            CHECK(g.overlap);
            if (error > tol(1e-6, 1e-3)) FAIL("trial " << trial << ": SAT depth " << -sat.separation() << " vs " << toPlane);
        } else if (!inside && toFace > real(1e-6)) {
            ++apart;
            const real error = std::abs(g.distance - toFace) / toFace;
            worstDistance = std::max(worstDistance, error);
            CHECK_FALSE(g.overlap);
            if (error > tol(1e-6, 1e-3)) FAIL("trial " << trial << ": GJK distance " << g.distance << " vs " << toFace);
            CHECK(sat.separation() > 0);
            // SAT bounds the distance from below (to round-off: float coordinates near 1 m).
            CHECK(sat.separation() <= toFace * (1 + tol(1e-9, 1e-4)) + tol(1e-12, 1e-5));
        }
    }
    INFO("overlapping " << overlapping << ", apart " << apart << ", worst relative errors " << worstDepth << ", " << worstDistance
                        << ", reference hulls not built " << unbuilt);
    CHECK(unbuilt <= trials / 500); // float only: 0.2 % of the trials at most
    CHECK(overlapping > trials / 5);
    CHECK(apart > trials / 5);
}

TEST_CASE("ray casts and signed distance on a hull match the box it is", "[collision]") {
    const Vec3 half(0.5, 1, 1.5);
    const ConvexHull hull = cubeHull(half);
    const Box box{half};
    const Transform pose = at(Vec3(1, 2, 3), turn(0.4, Vec3(1, 1, 0)));
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> u(-4, 4);
    for (int trial = 0; trial < 500; ++trial) {
        const Vec3 from = pose.position + Vec3(static_cast<real>(u(rng)), static_cast<real>(u(rng)), static_cast<real>(u(rng)));
        const Vec3 to = pose.position + Vec3(static_cast<real>(u(rng)), static_cast<real>(u(rng)), static_cast<real>(u(rng))) / 4;
        ShapeRayHit h1, h2;
        const bool hitHull = rayCast(hull, pose, from, to, h1), hitBox = rayCast(box, pose, from, to, h2);
        REQUIRE(hitHull == hitBox);
        if (hitHull) {
            CHECK(h1.fraction == Approx(h2.fraction).margin(tol(1e-12, 1e-5)));
            CHECK((h1.normal - h2.normal).norm() < tol(1e-9, 1e-4));
        }
        const PointProximity d1 = signedDistance(hull, pose, from), d2 = signedDistance(box, pose, from);
        CHECK(d1.distance == Approx(d2.distance).margin(tol(1e-9, 1e-4)));
        CHECK((d1.point - d2.point).norm() < tol(1e-7, 1e-3));
    }
    // A ray starting inside enters no surface.
    ShapeRayHit h;
    CHECK_FALSE(rayCast(hull, pose, pose.position, pose.position + Vec3(5, 0, 0), h));
}

TEST_CASE("hull shapes: bounds, mass and support from the hull", "[collision]") {
    const Vec3 half(0.5, 1, 1.5);
    const ConvexHull hull = cubeHull(half);
    const Transform pose = at(Vec3(1, 2, 3), turn(0.4, Vec3(1, 1, 0)));
    const Aabb a = computeAabb(hull, pose), b = computeAabb(Box{half}, pose);
    CHECK((a.min - b.min).norm() < tol(1e-12, 1e-5));
    CHECK((a.max - b.max).norm() < tol(1e-12, 1e-5));
    const MassProperties mp = computeMassProperties(hull, 500), box = solidBox(half, 500);
    CHECK(mp.mass == Approx(box.mass));
    CHECK((mp.inertia - box.inertia).norm() < tol(1e-9, 1e-3) * box.inertia.norm());
    CHECK(computeVolume(hull) == Approx(6));
    CHECK(support(hull, Vec3(1, -1, 1)) == Vec3(0.5, -1, 1.5));
    REQUIRE_THROWS_AS(validateShape(ConvexHull{}, "shape"), Error);
}
