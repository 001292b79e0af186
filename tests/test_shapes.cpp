// SPDX-License-Identifier: MIT
// Shapes: validation, bounding boxes, volumes and support points.

#include "helpers.hpp"

#include <catch2/catch.hpp>

#include <numbers>
#include <random>

using namespace jounce;
using testing::tol;

namespace {

Transform randomPose(std::mt19937& rng) {
    std::uniform_real_distribution<real> u(-1, 1);
    Quat q(u(rng), u(rng), u(rng), u(rng));
    q.normalize();
    return {Vec3(5 * u(rng), 5 * u(rng), 5 * u(rng)), q};
}

Vec3 randomDirection(std::mt19937& rng) {
    std::normal_distribution<real> n(0, 1);
    return Vec3(n(rng), n(rng), n(rng)).normalized();
}

} // namespace

TEST_CASE("the AABB is exactly the world support extent along each axis", "[collision]") {
    std::mt19937 rng(7);
    const Shape shapes[] = {Sphere{real(0.7)}, Box{Vec3(real(0.2), real(1.5), real(0.6))}, Capsule{real(0.3), real(1.1)},
                            Capsule{real(0.4), 0}};
    for (const Shape& shape : shapes) {
        for (int i = 0; i < 200; ++i) {
            const Transform pose = randomPose(rng);
            const Aabb box = computeAabb(shape, pose);
            for (int k = 0; k < 3; ++k) {
                const Vec3 axis = Vec3::Unit(k);
                const real hi = pose.toWorld(support(shape, pose.directionToLocal(axis)))[k];
                const real lo = pose.toWorld(support(shape, pose.directionToLocal(-axis)))[k];
                REQUIRE(box.max[k] == Approx(hi).margin(tol(1e-12, 1e-5)));
                REQUIRE(box.min[k] == Approx(lo).margin(tol(1e-12, 1e-5)));
            }
        }
    }
}

TEST_CASE("support points are the farthest points of the shape", "[collision]") {
    std::mt19937 rng(11);
    const Box box{Vec3(1, 2, 3)};
    const Capsule capsule{real(0.5), 2};
    for (int i = 0; i < 500; ++i) {
        const Vec3 d = randomDirection(rng);
        // Box: the best of the 8 corners.
        real best = -std::numeric_limits<real>::max();
        for (int c = 0; c < 8; ++c) {
            const Vec3 corner((c & 1 ? 1 : -1) * 1, (c & 2 ? 1 : -1) * 2, (c & 4 ? 1 : -1) * 3);
            best = std::max(best, corner.dot(d));
        }
        REQUIRE(support(box, d).dot(d) == Approx(best).margin(tol(1e-12, 1e-5)));
        // Capsule: an end cap centre plus the radius along d.
        const real capsuleBest = std::max(Vec3(0, 2, 0).dot(d), Vec3(0, -2, 0).dot(d)) + real(0.5);
        REQUIRE(support(capsule, d).dot(d) == Approx(capsuleBest).margin(tol(1e-12, 1e-5)));
        REQUIRE(support(Sphere{2}, 3 * d).isApprox(2 * d, tol(1e-12, 1e-5)));
    }
}

TEST_CASE("volumes and mass properties of shapes match the solid formulas", "[collision]") {
    const real pi = std::numbers::pi_v<real>;
    CHECK(computeVolume(Sphere{1}) == Approx(4 * pi / 3));
    CHECK(computeVolume(Box{Vec3(1, 2, 3)}) == Approx(48));
    CHECK(computeVolume(Capsule{1, 1}) == Approx(2 * pi + 4 * pi / 3));
    const MassProperties mp = computeMassProperties(Capsule{real(0.3), real(0.8)}, 700);
    CHECK(mp.mass == Approx(700 * computeVolume(Capsule{real(0.3), real(0.8)})));
    CHECK(mp.inertia.isApprox(solidCapsule(real(0.3), real(0.8), 700).inertia));
    CHECK_THROWS_AS(computeMassProperties(HalfSpace{}, 1000), Error);
}

TEST_CASE("half-spaces are bounded only across their plane", "[collision]") {
    const Aabb ground = computeAabb(HalfSpace{Vec3::UnitY(), real(0.5)}, Transform{Vec3(0, 1, 0), Quat::Identity()});
    CHECK(ground.max.y() == Approx(1.5));
    CHECK(std::isinf(ground.min.y()));
    CHECK(std::isinf(ground.max.x()));
    const Aabb tilted = computeAabb(HalfSpace{Vec3(1, 1, 0).normalized(), 0}, Transform{});
    CHECK(std::isinf(tilted.max.y()));
    CHECK_THROWS_AS(support(HalfSpace{}, Vec3::UnitY()), Error);
    CHECK(computeAabb(Sphere{1}, Transform{}).overlaps(ground));
}

TEST_CASE("shapes with zero, negative or non-finite sizes are rejected", "[collision]") {
    const real nan = std::numeric_limits<real>::quiet_NaN();
    auto rejected = [](const Shape& s, const std::string& field) {
        CAPTURE(field);
        try {
            validateShape(s, "shape");
            FAIL("accepted");
        } catch (const Error& e) {
            CHECK(e.field() == field);
        }
    };
    rejected(Sphere{0}, "shape.Sphere.radius");
    rejected(Sphere{-1}, "shape.Sphere.radius");
    rejected(Sphere{nan}, "shape.Sphere.radius");
    rejected(Box{Vec3(1, 0, 1)}, "shape.Box.halfExtents");
    rejected(Box{Vec3(1, -1, 1)}, "shape.Box.halfExtents");
    rejected(Box{Vec3(1, 1, std::numeric_limits<real>::infinity())}, "shape.Box.halfExtents");
    rejected(Capsule{0, 1}, "shape.Capsule.radius");
    rejected(Capsule{1, -1}, "shape.Capsule.halfHeight");
    rejected(HalfSpace{Vec3(0, 2, 0), 0}, "shape.HalfSpace.normal");
    rejected(HalfSpace{Vec3::Zero(), 0}, "shape.HalfSpace.normal");
    rejected(HalfSpace{Vec3::UnitY(), nan}, "shape.HalfSpace.offset");
    CHECK_NOTHROW(validateShape(Capsule{1, 0}, "shape")); // a capsule of no length is a sphere
}
