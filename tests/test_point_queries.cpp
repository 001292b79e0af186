// SPDX-License-Identifier: MIT
// Signed distances, swept particles, and the world's overlap and closest-point queries.

#include "helpers.hpp"

#include <catch2/catch.hpp>

#include <random>

using namespace jounce;
using testing::tol;

TEST_CASE("signed distance: the point is its surface point plus distance along the normal", "[collision]") {
    std::mt19937 rng(3);
    std::uniform_real_distribution<real> u(-2, 2);
    const Shape shapes[] = {Sphere{real(0.8)}, Box{Vec3(real(0.5), 1, real(0.3))}, Capsule{real(0.4), real(0.9)},
                            HalfSpace{Vec3(1, 2, 2).normalized(), real(0.2)}};
    for (const Shape& shape : shapes) {
        for (int i = 0; i < 2000; ++i) {
            Quat q(u(rng), u(rng), u(rng), u(rng));
            q.normalize();
            const Transform pose{Vec3(u(rng), u(rng), u(rng)) * real(0.2), q};
            const Vec3 x(u(rng), u(rng), u(rng));
            const PointProximity d = signedDistance(shape, pose, x);
            REQUIRE(std::abs(d.normal.norm() - 1) < tol(1e-12, 1e-5));
            REQUIRE((d.point + d.normal * d.distance - x).norm() < tol(1e-9, 1e-4));
            // The surface point is on the surface.
            REQUIRE(std::abs(signedDistance(shape, pose, d.point).distance) < tol(1e-9, 1e-4));
            // The sign agrees with the narrow phase's view of a vanishing sphere at x.
            Manifold m;
            const bool inside = collide(Sphere{real(1e-9)}, Transform{x, Quat::Identity()}, shape, pose, 0, m) &&
                                m.points[0].depth > real(2e-9);
            const bool agree = inside == (d.distance < 0) || std::abs(d.distance) < tol(1e-8, 1e-4);
            REQUIRE(agree);
        }
    }
}

TEST_CASE("a fast particle never passes a 1 mm wall", "[collision]") {
    const Shape wall = Box{Vec3(5, 5, real(0.0005))};
    const Transform at{Vec3(0, 0, 1), Quat::Identity()};
    std::mt19937 rng(4);
    std::uniform_real_distribution<real> u(-1, 1);
    for (int i = 0; i < 1000; ++i) {
        const Vec3 x(u(rng), u(rng), real(0.5) * u(rng));                       // in front of the wall
        const Vec3 v = Vec3(u(rng), u(rng), real(3) + u(rng)).normalized() * 100; // 100 m/s, toward it
        const Vec3 p = x + v / 60;
        SweptHit hit;
        const bool touched = sweptParticle(wall, at, x, p, real(0.01), hit);
        const bool crosses = p.z() > 1 - real(0.0005) - real(0.01) && (std::abs(x.x() + (p.x() - x.x()) * ((1 - x.z()) / (p.z() - x.z()))) < 5);
        if (!crosses) continue;
        REQUIRE(touched);
        REQUIRE(!hit.startedInside);
        REQUIRE(hit.position.z() <= 1 - real(0.0005) - real(0.01) + tol(1e-6, 1e-4));
        REQUIRE(hit.normal.isApprox(-Vec3::UnitZ(), tol(1e-9, 1e-4)));
    }
}

TEST_CASE("a particle starting inside is pushed to the nearest surface", "[collision]") {
    SweptHit hit;
    REQUIRE(sweptParticle(Box{Vec3::Ones()}, Transform{}, Vec3(real(0.9), 0, 0), Vec3(real(0.9), 1, 0), real(0.05), hit));
    CHECK(hit.startedInside);
    CHECK(hit.fraction == 0);
    CHECK(hit.position.isApprox(Vec3(real(1.05), 0, 0), tol(1e-12, 1e-5)));
    CHECK(hit.normal.isApprox(Vec3::UnitX()));
    CHECK_FALSE(sweptParticle(Sphere{1}, Transform{}, Vec3(0, 3, 0), Vec3(0, 5, 0), real(0.1), hit)); // moving away
    CHECK_FALSE(sweptParticle(Sphere{1}, Transform{}, Vec3(-3, real(1.2), 0), Vec3(3, real(1.2), 0), real(0.1), hit)); // passes by
    REQUIRE(sweptParticle(Sphere{1}, Transform{}, Vec3(-3, 0, 0), Vec3(3, 0, 0), real(0.1), hit));
    CHECK(hit.position.x() == Approx(-1.1));
}

TEST_CASE("world overlap and closest-point queries", "[physics][collision]") {
    World world;
    BodyDesc ground;
    ground.type = BodyType::Static;
    ground.colliders.push_back({HalfSpace{}, Transform{}, 1000, {}, {}});
    world.createBody(ground);
    BodyDesc ball;
    ball.type = BodyType::Kinematic;
    ball.position = Vec3(0, 2, 0);
    ball.colliders.push_back({Sphere{real(0.5)}, Transform{}, 1000, {}, {2, 0xffffffffu}});
    const BodyId b = world.createBody(ball);
    CHECK(world.overlap(Sphere{real(0.2)}, Transform{Vec3(0, real(2.6), 0), Quat::Identity()}).size() == 1);
    CHECK(world.overlap(Box{Vec3(real(0.5), real(0.85), real(0.5))}, Transform{Vec3(0, real(0.75), 0), Quat::Identity()}).size() == 2);
    CHECK(world.overlap(Box{Vec3(real(0.5), real(0.85), real(0.5))}, Transform{Vec3(0, real(0.75), 0), Quat::Identity()}, 1).size() == 1);
    const auto near = world.closestPoint(Vec3(0, real(2.8), 0), 1);
    REQUIRE(near);
    CHECK(near->body == b);
    CHECK(near->proximity.distance == Approx(0.3));
    CHECK_FALSE(world.closestPoint(Vec3(0, 10, 0), 1));
    CHECK_THROWS_AS(world.overlap(Sphere{0}, Transform{}), Error);
    CHECK_THROWS_AS(world.closestPoint(Vec3::Zero(), -1), Error);
}
