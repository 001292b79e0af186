// SPDX-License-Identifier: MIT
// Signed distances, swept particles, and the world's overlap and closest-point queries.

#include "helpers.hpp"

#include <catch2/catch.hpp>

#include <cstring>
#include <random>

using namespace jounce;
using testing::tol;

namespace {

/// Turned boxes, capsules, cylinders, a hull and a half-space: the convex shapes without
/// a closed-form swept test here.
std::vector<Shape> convexTestShapes() {
    const auto v = [](double a, double b, double c) { return Vec3(real(a), real(b), real(c)); };
    const std::vector<Vec3> corners = {v(-0.4, -0.3, -0.2), v(0.5, -0.3, -0.1), v(0.0, 0.4, -0.3),
                                       v(0.1, -0.2, 0.5),   v(-0.3, 0.3, 0.3),  v(0.4, 0.3, 0.2)};
    return {Box{Vec3(real(0.4), real(0.25), real(0.3))}, Capsule{real(0.3), real(0.35)}, Cylinder{real(0.35), real(0.3)},
            makeConvexHull(corners), HalfSpace{Vec3(1, 3, 2).normalized(), real(0.1)}};
}

/// Every kind of shape the particle layer queries: the convex test shapes, a sphere and a
/// two-triangle mesh with a raised corner (sphere tracing, not Newton's method).
std::vector<Shape> particleQueryShapes() {
    std::vector<Shape> shapes = convexTestShapes();
    shapes.push_back(Sphere{real(0.4)});
    const std::vector<Vec3> ground = {Vec3(-1, 0, -1), Vec3(1, 0, -1), Vec3(1, real(0.2), 1), Vec3(-1, 0, 1)};
    const std::vector<std::array<std::uint32_t, 3>> twoTriangles = {{0, 2, 1}, {0, 3, 2}};
    shapes.push_back(makeTriangleMesh(ground, twoTriangles));
    return shapes;
}

} // namespace

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

TEST_CASE("a swept particle meets a sphere and a turned box where the ray meets their inflated surfaces", "[collision]") {
    // Newton's steps on the distance along the path (point_queries.cpp) against the
    // closed forms: the centre's ray x + t d meets the sphere of radius R + r where
    // |x + t d - c|^2 = (R + r)^2, and a box's face where its plane offset by r is
    // crossed; grazing paths (the slow case of plain sphere tracing) included.
    std::mt19937 rng(11);
    std::uniform_real_distribution<real> u(-1, 1);
    const real R = real(0.5), r = real(0.02);
    const Vec3 centre(real(0.3), real(0.5), real(-0.2));
    int hits = 0, grazing = 0;
    for (int i = 0; i < 4000; ++i) {
        // A path whose closest approach to the centre is spread around R + r: grazing
        // paths (the slow case of plain sphere tracing), hits and misses.
        const Vec3 dir = Vec3(u(rng), u(rng), u(rng)).normalized();
        const Vec3 side = dir.cross(Vec3(u(rng), u(rng), u(rng))).normalized();
        const Vec3 foot = centre + side * ((R + r) * (1 + real(0.1) * u(rng)));
        const Vec3 x = foot - dir * (real(0.6) + real(0.4) * std::abs(u(rng)));
        const Vec3 p = foot + dir * real(0.3) * u(rng);
        SweptHit hit;
        PointProximity start;
        const bool touched = sweptParticle(Sphere{R}, Transform{centre, Quat::Identity()}, x, p, r, hit, start);
        REQUIRE(start.distance == Approx((x - centre).norm() - R).margin(tol(1e-12, 1e-5)));
        const Vec3 d = p - x, m = x - centre;
        const real a = d.squaredNorm(), b = m.dot(d), c = m.squaredNorm() - (R + r) * (R + r);
        const real disc = b * b - a * c;
        const real t = (-b - std::sqrt(std::max(disc, real(0)))) / a;
        const real missBy = std::sqrt(std::max(m.squaredNorm() - b * b / a, real(0))) - (R + r); // closest approach
        // On the rim itself either answer is right; near it the path closes slowly, so
        // the 1e-9 m at which Newton's steps stop is a larger share of the path.
        if (std::abs(missBy) < tol(1e-4, 1e-3)) continue;
        const bool expected = disc > 0 && t >= 0 && t <= 1;
        REQUIRE(touched == expected);
        if (!touched) continue;
        ++hits;
        if (missBy > -real(0.02) * (R + r)) ++grazing;
        REQUIRE(hit.fraction == Approx(t).margin(tol(1e-6, 1e-3)));
        REQUIRE((hit.position - (x + t * d)).norm() < tol(1e-6, 1e-3));
        REQUIRE(hit.normal.isApprox((x + t * d - centre).normalized(), tol(1e-6, 1e-3)));
    }
    CHECK(hits > 500);
    CHECK(grazing > 10);
    // A turned box: paths from above its top face to below its top plane.
    const Quat turn(Eigen::AngleAxis<real>(real(0.3), Vec3(1, 0, 1).normalized()));
    const Transform pose{Vec3(0, 1, 0), turn};
    const Vec3 up = turn * Vec3::UnitY(), h(real(0.8), real(0.2), real(0.8));
    for (int i = 0; i < 1000; ++i) {
        const Vec3 across = turn * Vec3(real(0.5) * u(rng), 0, real(0.5) * u(rng));
        const Vec3 x = pose.position + across + up * (h.y() + r + real(0.3) * std::abs(u(rng)) + real(1e-3));
        const Vec3 p = pose.position + across * real(1.1) + up * (h.y() + r - real(0.05) * std::abs(u(rng)) - real(1e-3));
        SweptHit hit;
        REQUIRE(sweptParticle(Box{h}, pose, x, p, r, hit));
        const real t = ((x - pose.position).dot(up) - (h.y() + r)) / (x - p).dot(up);
        REQUIRE(hit.fraction == Approx(t).margin(tol(1e-9, 1e-4)));
        REQUIRE(hit.normal.isApprox(up, tol(1e-9, 1e-4)));
    }
}

TEST_CASE("a swept particle meets every convex shape where a fine march along its path first touches", "[collision]") {
    // Newton's steps against a brute force for the shapes without a closed form here:
    // turned boxes (edges and corners too), capsules, cylinders (rims), hulls and a
    // half-space. The march samples the clearance at 256 points and bisects the first
    // sign change; paths whose smallest sampled clearance is near 0 are left out (the
    // march may step over a shallow dip there, and either answer is right on the rim).
    std::mt19937 rng(12);
    std::uniform_real_distribution<real> u(-1, 1);
    const std::vector<Shape> shapes = convexTestShapes();
    const real r = real(0.03);
    for (const Shape& shape : shapes) {
        int hits = 0, misses = 0;
        for (int i = 0; i < 300; ++i) {
            Quat q(u(rng), u(rng), u(rng), u(rng));
            q.normalize();
            const Transform pose{Vec3(u(rng), u(rng), u(rng)) * real(0.1), q};
            const Vec3 x = Vec3(u(rng), u(rng), u(rng)).normalized() * real(1.2);
            const Vec3 p = Vec3(u(rng), u(rng), u(rng)) * real(0.5) - x * real(0.3) * std::abs(u(rng));
            const auto clearance = [&](real t) { return signedDistance(shape, pose, x + t * (p - x)).distance - r; };
            if (!(clearance(0) > 0)) continue;
            constexpr int samples = 256;
            real lowest = clearance(0), first = -1;
            for (int k = 1; k <= samples && first < 0; ++k) {
                const real t = real(k) / samples, c = clearance(t);
                lowest = std::min(lowest, c);
                if (c <= 0) {
                    real lo = real(k - 1) / samples, hi = t;
                    for (int b = 0; b < 60; ++b) (clearance((lo + hi) / 2) > 0 ? lo : hi) = (lo + hi) / 2;
                    first = hi;
                }
            }
            // The clearance changes by at most |p - x| per unit of t, so a dip between two
            // samples goes at most |p - x| / (2 samples) below the lower one.
            if (first < 0 && lowest < (p - x).norm() / samples) continue;
            if (first > 1 - tol(1e-6, 1e-3)) continue; // touches at the very end: either answer
            SweptHit hit;
            const bool touched = sweptParticle(shape, pose, x, p, r, hit);
            REQUIRE(touched == (first >= 0));
            if (!touched) {
                ++misses;
                continue;
            }
            ++hits;
            REQUIRE(!hit.startedInside);
            REQUIRE(hit.fraction <= first + tol(1e-7, 1e-3)); // never past the first touch
            REQUIRE(std::abs(clearance(hit.fraction)) < tol(1e-6, 1e-3));
            REQUIRE(std::abs(hit.normal.norm() - 1) < tol(1e-9, 1e-4));
        }
        CHECK(hits > 30);
        CHECK(misses > 10);
    }
}

TEST_CASE("particleContact gives sweptParticle's hit or the near fallback bit for bit on every shape", "[collision]") {
    // The particle layer's query skips the closest point of far pairs: every answer must
    // still be what the swept test followed by the margin test gives (the same bits),
    // for starts inside, near, far, still and moving, on each kind of shape.
    std::mt19937 rng(31);
    std::uniform_real_distribution<real> u(-1, 1);
    const std::vector<Shape> shapes = particleQueryShapes();
    const real r = real(0.03), margin = real(0.01);
    for (const Shape& shape : shapes) {
        int swept = 0, nearOnly = 0, none = 0;
        for (int i = 0; i < 2000; ++i) {
            Quat q(u(rng), u(rng), u(rng), u(rng));
            q.normalize();
            const Transform pose{Vec3(u(rng), u(rng), u(rng)) * real(0.1), q};
            const Vec3 x = Vec3(u(rng), u(rng), u(rng)) * real(0.8);
            const Vec3 p = i % 7 == 0 ? x : Vec3(x + Vec3(u(rng), u(rng), u(rng)) * real(0.1));
            SweptHit expected;
            PointProximity start;
            bool contact = sweptParticle(shape, pose, x, p, r, expected, start);
            const bool near = !contact && start.distance < r + (p - x).norm() + margin;
            if (near) {
                expected.position = start.point + start.normal * r;
                expected.normal = start.normal;
            }
            contact = contact || near;
            SweptHit got;
            CAPTURE(i);
            REQUIRE(particleContact(shape, pose, x, p, r, margin, got) == contact);
            (contact ? (near ? nearOnly : swept) : none) += 1;
            if (!contact) continue;
            REQUIRE(std::memcmp(&got.fraction, &expected.fraction, sizeof(real)) == 0); // bits: +0 and -0 differ
            REQUIRE(std::memcmp(got.position.data(), expected.position.data(), sizeof(Vec3)) == 0);
            REQUIRE(std::memcmp(got.normal.data(), expected.normal.data(), sizeof(Vec3)) == 0);
            REQUIRE(got.startedInside == expected.startedInside);
        }
        // Each path is taken (a query that said "none" everywhere would fail here).
        CHECK(swept > 20);
        CHECK(nearOnly > 20);
        CHECK(none > 20);
    }
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

TEST_CASE("particleContact with the pose as a matrix: the quaternion's bits unrotated, its answer rotated", "[collision]") {
    // The particle layer turns points with PoseMatrix (9 products a turn instead of 18):
    // with an identity orientation both forms do exact arithmetic on the same numbers
    // (up to the sign of a zero coordinate, which random points never have), and a
    // turned pose changes only the round-off.
    std::mt19937 rng(57);
    std::uniform_real_distribution<real> u(-1, 1);
    const std::vector<Shape> shapes = particleQueryShapes();
    const real r = real(0.03), margin = real(0.01);
    for (const Shape& shape : shapes) {
        int contacts = 0;
        for (int i = 0; i < 2000; ++i) {
            const bool turned = i % 2 == 1;
            Quat q = turned ? Quat(u(rng), u(rng), u(rng), u(rng)) : Quat::Identity();
            q.normalize();
            const Transform pose{Vec3(u(rng), u(rng), u(rng)) * real(0.1), q};
            const Vec3 x = Vec3(u(rng), u(rng), u(rng)) * real(0.8);
            const Vec3 p = i % 7 == 0 ? x : Vec3(x + Vec3(u(rng), u(rng), u(rng)) * real(0.1));
            SweptHit expected, got;
            const bool contact = particleContact(shape, pose, x, p, r, margin, expected);
            const bool matrixContact = particleContact(shape, PoseMatrix(pose), x, p, r, margin, got);
            CAPTURE(i);
            if (!turned) {
                REQUIRE(matrixContact == contact);
                if (!contact) continue;
                ++contacts;
                REQUIRE(std::memcmp(&got.fraction, &expected.fraction, sizeof(real)) == 0);
                REQUIRE(std::memcmp(got.position.data(), expected.position.data(), sizeof(Vec3)) == 0);
                REQUIRE(std::memcmp(got.normal.data(), expected.normal.data(), sizeof(Vec3)) == 0);
                REQUIRE(got.startedInside == expected.startedInside);
            } else if (contact && matrixContact && got.startedInside == expected.startedInside) {
                // (A start within round-off of a decision may go either way.)
                ++contacts;
                REQUIRE((got.position - expected.position).norm() < tol(1e-9, real(2e-4)));
                REQUIRE((got.normal - expected.normal).norm() < tol(1e-9, real(2e-3)));
            }
        }
        CHECK(contacts > 100);
    }
}
