// SPDX-License-Identifier: MIT
// Ray casts against every shape, compared with analytic hits.

#include "fp_traps.hpp"
#include "helpers.hpp"

#include <catch2/catch.hpp>

#include <numbers>
#include <optional>
#include <random>
#include <type_traits>

using namespace jounce;
using testing::eps;
using testing::tol;

TEST_CASE("ray casts hit each shape where the analytic answer says", "[collision]") {
    ShapeRayHit hit;
    // Sphere of radius 1 at (0, 0, 5), ray along +z from the origin, 10 m long.
    REQUIRE(rayCast(Sphere{1}, Transform{Vec3(0, 0, 5), Quat::Identity()}, Vec3::Zero(), Vec3(0, 0, 10), hit));
    CHECK(hit.fraction == Approx(0.4));
    CHECK(hit.normal.isApprox(-Vec3::UnitZ(), eps));
    // Off-centre by 0.6: enters at z = 5 - 0.8.
    REQUIRE(rayCast(Sphere{1}, Transform{Vec3(0, 0, 5), Quat::Identity()}, Vec3(real(0.6), 0, 0), Vec3(real(0.6), 0, 10), hit));
    CHECK(hit.point.z() == Approx(4.2));
    CHECK(hit.normal.isApprox(Vec3(real(0.6), 0, real(-0.8)), eps));

    // Box turned 90 degrees about y: its x half extent (2) now lies along z.
    const Transform turned{Vec3(0, 0, 10), Quat(Eigen::AngleAxis<real>(std::numbers::pi_v<real> / 2, Vec3::UnitY()))};
    REQUIRE(rayCast(Box{Vec3(2, 1, real(0.5))}, turned, Vec3::Zero(), Vec3(0, 0, 20), hit));
    CHECK(hit.point.z() == Approx(8));
    CHECK(hit.normal.isApprox(-Vec3::UnitZ(), eps));
    CHECK_FALSE(rayCast(Box{Vec3(2, 1, real(0.5))}, turned, Vec3(0, real(1.5), 0), Vec3(0, real(1.5), 20), hit));

    // Capsule along y (radius 0.5, half height 1) at the origin: side, cap and miss.
    const Capsule cap{real(0.5), 1};
    REQUIRE(rayCast(cap, Transform{}, Vec3(-5, real(0.3), 0), Vec3(5, real(0.3), 0), hit));
    CHECK(hit.point.x() == Approx(-0.5));
    CHECK(hit.normal.isApprox(-Vec3::UnitX(), eps));
    REQUIRE(rayCast(cap, Transform{}, Vec3(0, 5, 0), Vec3(0, -5, 0), hit));
    CHECK(hit.point.y() == Approx(1.5));
    CHECK(hit.normal.isApprox(Vec3::UnitY(), eps));
    CHECK_FALSE(rayCast(cap, Transform{}, Vec3(-5, 0, real(0.6)), Vec3(5, 0, real(0.6)), hit));

    // Half-space y <= 0: from above, downward at 45 degrees.
    REQUIRE(rayCast(HalfSpace{}, Transform{}, Vec3(0, 2, 0), Vec3(4, -2, 0), hit));
    CHECK(hit.fraction == Approx(0.5));
    CHECK(hit.point.isApprox(Vec3(2, 0, 0), eps));
    CHECK_FALSE(rayCast(HalfSpace{}, Transform{}, Vec3(0, 2, 0), Vec3(4, 3, 0), hit)); // going up
}

TEST_CASE("rays starting inside a shape, too short or of zero length do not hit it", "[collision]") {
    ShapeRayHit hit;
    for (const Shape& s : {Shape{Sphere{1}}, Shape{Box{Vec3::Ones()}}, Shape{Capsule{1, 1}}, Shape{HalfSpace{}}}) {
        CHECK_FALSE(rayCast(s, Transform{}, Vec3(0, real(-0.5), 0), Vec3(10, 0, 0), hit));
        CHECK_FALSE(rayCast(s, Transform{}, Vec3(0, 20, 0), Vec3(0, 15, 0), hit));
        CHECK_FALSE(rayCast(s, Transform{}, Vec3(0, 20, 0), Vec3(0, 20, 0), hit));
    }
}

TEST_CASE("a ray from very far away still gets a unit normal (fuzz finding 7)", "[collision]") {
    // fuzz_narrow_phase: from 3.5e30 m, the hit point near this capsule has lost every
    // digit, and the normal computed from it came out zero. It now faces the ray.
    const Capsule capsule{real(0.3), real(0.5)};
    const Transform pose{Vec3(real(0.1), real(0.6), real(0.05)), Quat(real(0.99503719020998926), real(0.099503719020998929), 0, 0).normalized()};
    const Vec3 from(real(3.4860391506276309e30), real(3.5295369653413445e30), real(3.5295369653413445e30));
    const Vec3 to(real(0.02), 0, 3);
    // 1e30 m is far beyond what the world takes (maxCoordinate); rayCast on raw input
    // promises a finite answer or a miss, not that a float can square the input: in
    // float builds its squares overflow on purpose here.
    std::optional<testing::FpTrapsOff> floatSquaresOverflow;
    if constexpr (!std::is_same_v<real, double>) floatSquaresOverflow.emplace();
    ShapeRayHit hit;
    if (rayCast(capsule, pose, from, to, hit)) {
        CHECK(hit.normal.allFinite());
        CHECK(std::abs(hit.normal.norm() - 1) < 1e-4);
        CHECK(hit.fraction >= 0);
        CHECK(hit.fraction <= 1);
    }
    // Every bounded shape, shot at from 1e30 m along a few directions through its centre.
    for (const Shape& s : {Shape{Sphere{real(0.3)}}, Shape{Box{Vec3(real(0.2), real(0.4), real(0.3))}}, Shape{capsule}})
        for (const Vec3& direction : {Vec3(1, 1, 1), Vec3(1, 0, 0), Vec3(real(0.3), -1, real(0.2))}) {
            const Vec3 far = direction.normalized() * real(1e30);
            if (!rayCast(s, pose, pose.position + far, pose.position - far * real(1e-30), hit)) continue;
            CHECK(hit.normal.allFinite());
            CHECK(std::abs(hit.normal.norm() - 1) < 1e-4);
        }
}

TEST_CASE("random rays agree with a marched reference", "[collision]") {
    std::mt19937 rng(17);
    std::uniform_real_distribution<real> u(-1, 1);
    const Shape shapes[] = {Sphere{real(0.8)}, Box{Vec3(real(0.4), real(0.9), real(0.6))}, Capsule{real(0.5), real(0.7)}};
    int hits = 0;
    for (const Shape& shape : shapes) {
        for (int trial = 0; trial < 300; ++trial) {
            Quat q(u(rng), u(rng), u(rng), u(rng));
            q.normalize();
            const Transform pose{Vec3(u(rng), u(rng), u(rng)) * real(0.3), q};
            const Vec3 from = Vec3(u(rng), u(rng), u(rng)).normalized() * 3;
            const Vec3 to = -from + Vec3(u(rng), u(rng), u(rng));
            ShapeRayHit hit;
            const bool found = rayCast(shape, pose, from, to, hit);
            // Reference: march along the ray to the first point inside the shape, where
            // "inside" means the narrow phase finds a vanishing sphere there overlapping.
            auto inside = [&](real t) {
                Manifold m;
                return collide(Sphere{real(1e-9)}, Transform{from + t * (to - from), Quat::Identity()}, shape, pose, 0, m) &&
                       m.points[0].depth > 0;
            };
            real first = -1;
            const int n = 4000;
            for (int k = 0; k <= n; ++k)
                if (inside(real(k) / n)) {
                    first = real(k) / n;
                    break;
                }
            REQUIRE(found == (first >= 0));
            if (!found) continue;
            ++hits;
            REQUIRE(hit.fraction <= first + real(1e-9));
            REQUIRE(hit.fraction >= first - real(1.0) / n - real(1e-9));
        }
    }
    CHECK(hits > 300);
}

TEST_CASE("world ray casts return the nearest hit and all hits in order", "[physics][collision]") {
    World world;
    BodyDesc wall;
    wall.type = BodyType::Static;
    wall.position = Vec3(0, 0, 10);
    wall.colliders.push_back({Box{Vec3(5, 5, real(0.5))}, Transform{}, 1000, {}, {}});
    const BodyId far = world.createBody(wall);
    BodyDesc ball;
    ball.type = BodyType::Kinematic;
    ball.position = Vec3(0, 0, 5);
    ball.colliders.push_back({Sphere{1}, Transform{}, 1000, {}, {2, 0xffffffffu}});
    const BodyId near = world.createBody(ball);
    const auto closest = world.rayCastClosest(Vec3::Zero(), Vec3(0, 0, 20));
    REQUIRE(closest);
    CHECK(closest->body == near);
    CHECK(closest->point.z() == Approx(4));
    const auto all = world.rayCastAll(Vec3::Zero(), Vec3(0, 0, 20));
    REQUIRE(all.size() == 2);
    CHECK(all[1].body == far);
    CHECK(all[1].point.z() == Approx(9.5));
    // A mask without the ball's category sees only the wall.
    const auto masked = world.rayCastClosest(Vec3::Zero(), Vec3(0, 0, 20), 1);
    REQUIRE(masked);
    CHECK(masked->body == far);
    CHECK_FALSE(world.rayCastClosest(Vec3(0, 20, 0), Vec3(0, 30, 0)));
    CHECK_THROWS_AS(world.rayCastAll(Vec3(std::numeric_limits<real>::quiet_NaN(), 0, 0), Vec3::Zero()), Error);
}

TEST_CASE("segment against a triangle (either side) and an ellipsoid", "[collision]") {
    const Vec3 a(0, 0, 0), b(1, 0, 0), c(0, 1, 0); // in z = 0
    real f = -1;
    REQUIRE(rayTriangle(Vec3(real(0.2), real(0.2), 2), Vec3(real(0.2), real(0.2), -2), a, b, c, f));
    CHECK(f == Approx(0.5));
    REQUIRE(rayTriangle(Vec3(real(0.2), real(0.2), -1), Vec3(real(0.2), real(0.2), 3), a, b, c, f)); // from behind
    CHECK(f == Approx(0.25));
    CHECK_FALSE(rayTriangle(Vec3(real(0.6), real(0.6), 1), Vec3(real(0.6), real(0.6), -1), a, b, c, f)); // past the hypotenuse
    CHECK_FALSE(rayTriangle(Vec3(real(0.2), real(0.2), 2), Vec3(real(0.2), real(0.2), 1), a, b, c, f));  // stops short
    CHECK_FALSE(rayTriangle(Vec3(real(0.2), real(0.2), 1), Vec3(real(0.2), real(0.2), -1), a, b, b, f));  // degenerate

    // An ellipsoid with semi-axes 2, 1, 0.5 turned 90 degrees about z (its long axis along y).
    const Mat3 axes = Eigen::AngleAxis<real>(std::numbers::pi_v<real> / 2, Vec3::UnitZ()).toRotationMatrix();
    const Vec3 radii(2, 1, real(0.5)), centre(1, 1, 1);
    REQUIRE(rayEllipsoid(centre, axes, radii, Vec3(1, 10, 1), Vec3(1, -10, 1), f)); // along y: enters at y = 3
    CHECK(f == Approx(real(7) / 20));
    REQUIRE(rayEllipsoid(centre, axes, radii, Vec3(10, 1, 1), Vec3(-10, 1, 1), f)); // along x: enters at x = 2
    CHECK(f == Approx(real(8) / 20));
    REQUIRE(rayEllipsoid(centre, axes, radii, Vec3(1, 1, 5), Vec3(1, 1, -5), f));   // along z: enters at z = 1.5
    CHECK(f == Approx(real(3.5) / 10));
    CHECK_FALSE(rayEllipsoid(centre, axes, radii, Vec3(real(2.1), 1, 5), Vec3(real(2.1), 1, -5), f)); // beside it
    CHECK_FALSE(rayEllipsoid(centre, axes, radii, centre, Vec3(1, 10, 1), f)); // starts inside
}
