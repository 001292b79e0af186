// SPDX-License-Identifier: MIT
// Scaled shapes (scaled(shape, scale)): each kind against its closed form, a hull's mass
// against the box it equals, a mirrored mesh keeping its fronts outside, a heightfield's
// ray hits, a half-space's plane, a scaled hull resting at its scaled height, and bad
// scales refused with the field named.

#include "expect_error.hpp"
#include "helpers.hpp"

#include <jounce/jounce.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

using namespace jounce;
using testing::tol;

namespace {

std::vector<Vec3> cubeCorners(real half) {
    std::vector<Vec3> c;
    for (int i = 0; i < 8; ++i) c.emplace_back(i & 1 ? half : -half, i & 2 ? half : -half, i & 4 ? half : -half);
    return c;
}

/// A closed cube of side 1 centred at the origin, as 12 outward-facing triangles.
TriangleMesh closedCube() {
    const std::vector<Vec3> v = cubeCorners(real(0.5));
    // Corner i has x from bit 0, y from bit 1, z from bit 2.
    const std::vector<std::array<std::uint32_t, 3>> t{{0, 2, 3}, {0, 3, 1}, {4, 5, 7}, {4, 7, 6}, {0, 1, 5}, {0, 5, 4},
                                                      {2, 6, 7}, {2, 7, 3}, {0, 4, 6}, {0, 6, 2}, {1, 3, 7}, {1, 7, 5}};
    return makeTriangleMesh(v, t);
}

} // namespace

TEST_CASE("scaled shapes keep their kind with the sizes the scale gives", "[collision]") {
    const Vec3 s(2, 3, real(0.5));
    CHECK(std::get<Box>(scaled(Box{Vec3(1, 1, 1)}, s)).halfExtents == s);
    CHECK(std::get<Box>(scaled(Box{Vec3(1, 2, 3)}, Vec3(-1, 1, -2))).halfExtents == Vec3(1, 2, 6)); // a mirror is a box still
    CHECK(std::get<Sphere>(scaled(Sphere{real(0.5)}, Vec3::Constant(3))).radius == Approx(real(1.5)));
    const Capsule c = std::get<Capsule>(scaled(Capsule{real(0.2), real(0.5)}, Vec3::Constant(2)));
    CHECK(c.radius == Approx(real(0.4)));
    CHECK(c.halfHeight == Approx(1));
    const Cylinder y = std::get<Cylinder>(scaled(Cylinder{real(0.3), real(0.4)}, Vec3(2, 5, -2)));
    CHECK(y.radius == Approx(real(0.6)));
    CHECK(y.halfHeight == Approx(2));
    // A plane 1 m above the origin with normal (1, 1, 0)/sqrt 2, stretched 2x along x: the
    // point (sqrt 2, 0, 0) on it goes to (2 sqrt 2, 0, 0), and (0, sqrt 2, 0) stays.
    const real r2 = std::sqrt(real(2));
    const HalfSpace h = std::get<HalfSpace>(scaled(HalfSpace{Vec3(1, 1, 0) / r2, 1}, Vec3(2, 1, 1)));
    CHECK(h.normal.norm() == Approx(1));
    CHECK(h.normal.dot(Vec3(2 * r2, 0, 0)) == Approx(h.offset));
    CHECK(h.normal.dot(Vec3(0, r2, 0)) == Approx(h.offset));
}

TEST_CASE("a scaled hull has the mass properties of the box it became, and rests at its scaled height",
          "[collision][scene]") {
    // The unit cube's hull scaled by (1, 2, 3) is the box of half extents (0.5, 1, 1.5).
    const Shape hull = scaled(makeConvexHull(cubeCorners(real(0.5))), Vec3(1, 2, 3));
    const MassProperties a = computeMassProperties(hull, 700), b = solidBox(Vec3(real(0.5), 1, real(1.5)), 700);
    CHECK(a.mass == Approx(b.mass));
    CHECK((a.inertia - b.inertia).cwiseAbs().maxCoeff() < tol(1e-9, 1e-3) * b.inertia.norm());
    CHECK(computeVolume(hull) == Approx(6));
    // Dropped on the ground it comes to rest with its bottom on the floor: centre 1 m up.
    World w;
    testing::addGround(w);
    BodyDesc d;
    d.position = Vec3(0, real(1.2), 0);
    d.colliders.push_back(makeCollider(hull, 700));
    const BodyId id = w.createBody(d);
    for (int i = 0; i < 120; ++i) w.step(real(1) / 60);
    CHECK(w.body(id).position.y() == Approx(1).margin(real(0.01)));
    CHECK(w.body(id).linearVelocity.norm() < real(0.01));
}

TEST_CASE("a mirrored mesh keeps its fronts outside, a scaled closed mesh its volume times the factors", "[collision]") {
    const TriangleMesh cube = closedCube();
    const Shape stretched = scaled(cube, Vec3(2, 1, 1)), mirrored = scaled(cube, Vec3(-2, 1, 1));
    CHECK(computeVolume(stretched) == Approx(2));
    CHECK(computeVolume(mirrored) == Approx(2)); // positive: the triangles were turned round
    // Rays from outside meet the front faces of both (one-sided: a back face is never hit).
    for (const Shape& s : {stretched, mirrored}) {
        ShapeRayHit hit;
        REQUIRE(rayCast(s, Transform{}, Vec3(5, 0, 0), Vec3(-5, 0, 0), hit));
        CHECK(hit.point.x() == Approx(1));
        CHECK(hit.normal.x() == Approx(1));
        REQUIRE(rayCast(s, Transform{}, Vec3(0, 5, 0), Vec3(0, -5, 0), hit));
        CHECK(hit.point.y() == Approx(real(0.5)));
    }
}

TEST_CASE("a scaled heightfield's ground is where its spacing and heights say", "[collision]") {
    std::vector<real> heights(5 * 5);
    for (int z = 0; z < 5; ++z)
        for (int x = 0; x < 5; ++x) heights[static_cast<std::size_t>(z * 5 + x)] = real(0.25) * static_cast<real>(x);
    const TriangleMesh field = makeHeightfield({5, 5, 1, 1, Vec3(-2, 0, -2), heights, {}});
    const Shape big = scaled(field, Vec3(2, 4, 3)); // cells 2 x 3 m, heights x4
    const HeightfieldGrid* g = std::get<TriangleMesh>(big).mesh->heightfield();
    REQUIRE(g != nullptr);
    CHECK(g->spacingX == 2);
    CHECK(g->spacingZ == 3);
    ShapeRayHit hit;
    // Sample x = 3 (height 0.75, now 3 m) sits at x = -4 + 2 * 3 = 2.
    REQUIRE(rayCast(big, Transform{}, Vec3(2, 10, real(0.5)), Vec3(2, -10, real(0.5)), hit));
    CHECK(hit.point.y() == Approx(3));
    testing::expectError([&] { scaled(field, Vec3(-1, 1, 1)); }, "scale");
}

TEST_CASE("bad scales are refused naming the scale, and with a handler give an empty shape", "[collision]") {
    const real nan = std::numeric_limits<real>::quiet_NaN();
    testing::expectError([] { scaled(Sphere{1}, Vec3(1, 2, 1)); }, "scale");
    testing::expectError([] { scaled(Capsule{1, 1}, Vec3(2, 1, 2)); }, "scale");
    testing::expectError([] { scaled(Cylinder{1, 1}, Vec3(2, 1, 1)); }, "scale");
    testing::expectError([] { scaled(Box{Vec3::Ones()}, Vec3(1, 0, 1)); }, "scale");
    testing::expectError([&] { scaled(Box{Vec3::Ones()}, Vec3(1, nan, 1)); }, "scale");
    testing::expectError([] { scaled(Box{Vec3::Ones()}, Vec3(1e30, 1, 1)); }, "scaled.Box.halfExtents");
    testing::expectError([] { scaled(Sphere{-1}, Vec3::Ones()); }, "shape.Sphere.radius");
    // A hull or mesh stretched past maxCoordinate is refused by its scale, not built from
    // overflowing products.
    testing::expectError([] { scaled(makeConvexHull(cubeCorners(real(0.5))), Vec3(1, real(1e30), 1)); }, "scale");
    testing::expectError([] { scaled(closedCube(), Vec3::Constant(real(1e10))); }, "scale");
    // Extreme factors on a plane neither overflow nor underflow its normal.
    const HalfSpace thin = std::get<HalfSpace>(scaled(HalfSpace{Vec3::UnitX(), 0}, Vec3(real(1e-20), 1, 1)));
    CHECK(thin.normal == Vec3::UnitX());
    CHECK(std::get<HalfSpace>(scaled(HalfSpace{Vec3::UnitY(), 1}, Vec3::Constant(real(1e25)))).normal == Vec3::UnitY());
    std::string reported;
    const Shape empty = scaled(Sphere{1}, Vec3(1, 2, 1), [&](const Error& e) { reported = e.field(); });
    CHECK(reported == "scale");
    REQUIRE(std::holds_alternative<ConvexHull>(empty));
    CHECK(std::get<ConvexHull>(empty).hull == nullptr);
    testing::expectError([&] { validateShape(empty, "shape"); }, "shape.ConvexHull.hull");
}
