// SPDX-License-Identifier: MIT
// Rolling resistance (Material::rollingResistance): a ball rolling on a level floor slows
// at (5/7) c_rr g, a capsule lying on its side at c_rr g / (1 + I / (m r^2)) with its own
// axial moment, under both solvers; without it they roll on; a box has none; bad values
// name the field.

#include "expect_error.hpp"
#include "helpers.hpp"

#include <jounce/jounce.hpp>

#include <catch2/catch.hpp>

#include <cmath>

using namespace jounce;

namespace {

constexpr real rollStep = real(1) / 60;

struct Roller {
    World world;
    BodyId body{};
};

/// A level floor and `shape` resting on it at x = 0, rolling toward +x at v0 (spinning
/// to match: w = v0 / r about -z... the rolling axis).
/// cRR on the floor's material and on the roller's (`onRoller`, by default the same).
void setUp(Roller& r, const Shape& shape, real radius, const Quat& turn, real cRR, bool resolver, real onRoller = -1) {
    if (resolver) testing::useResolver(r.world);
    BodyDesc floor;
    floor.type = BodyType::Static;
    floor.position = Vec3(0, -real(0.5), 0);
    floor.colliders.push_back(makeCollider(Box{Vec3(60, real(0.5), 4)}, 1000, {.friction = real(0.8), .rollingResistance = cRR}));
    r.world.createBody(floor);
    BodyDesc d;
    d.position = Vec3(0, radius, 0);
    d.orientation = turn;
    const real v0 = 3;
    d.linearVelocity = Vec3(v0, 0, 0);
    d.angularVelocity = Vec3(0, 0, -v0 / radius); // rolling without slipping toward +x
    d.canSleep = false;
    d.colliders.push_back(makeCollider(shape, 1000, {.friction = real(0.8), .rollingResistance = onRoller < 0 ? cRR : onRoller}));
    r.body = r.world.createBody(d);
}

} // namespace

TEST_CASE("rolling resistance: a ball slows at (5/7) c g and a capsule at c g / (1 + I / m r^2)", "[contact][scene]") {
    const real g = real(9.81), c = real(0.05), v0 = 3, t = 2;
    for (const bool resolver : {false, true}) {
        INFO((resolver ? "resolver" : "soft step"));
        SECTION(std::string("a solid ball, ") + (resolver ? "resolver" : "soft step")) {
            Roller r;
            setUp(r, Sphere{real(0.3)}, real(0.3), Quat::Identity(), c, resolver);
            for (int i = 0; i < 120; ++i) r.world.step(rollStep);
            const real expected = v0 - real(5) / 7 * c * g * t;
            INFO("speed " << r.world.body(r.body).linearVelocity.x() << ", expected " << expected);
            CHECK(r.world.body(r.body).linearVelocity.x() == Approx(expected).epsilon(0.02));
            CHECK(r.world.body(r.body).position.x() == Approx(v0 * t - real(5) / 14 * c * g * t * t).epsilon(0.02));
            // Rolling, not sliding: the contact point moves by at most the one step's slip the
            // resistance leaves for friction to take up (c r m g h / I r = 2 cm/s here).
            const BodyState b = r.world.body(r.body);
            CHECK(std::abs(b.linearVelocity.x() + b.angularVelocity.z() * real(0.3)) < real(0.03));
        }
        SECTION(std::string("the coefficient on the floor alone or on the ball alone, ") + (resolver ? "resolver" : "soft step")) {
            // Turf slows every ball on it; a ball with its own slows on a bare floor: the
            // pair takes the larger coefficient and the roller's radius.
            for (const bool onFloor : {true, false}) {
                Roller r;
                setUp(r, Sphere{real(0.3)}, real(0.3), Quat::Identity(), onFloor ? c : 0, resolver, onFloor ? 0 : c);
                for (int i = 0; i < 120; ++i) r.world.step(rollStep);
                const real expected = v0 - real(5) / 7 * c * g * t;
                INFO((onFloor ? "on the floor" : "on the ball") << ": speed " << r.world.body(r.body).linearVelocity.x() << ", expected " << expected);
                CHECK(r.world.body(r.body).linearVelocity.x() == Approx(expected).epsilon(0.02));
            }
        }
        SECTION(std::string("a capsule on its side, ") + (resolver ? "resolver" : "soft step")) {
            Roller r;
            const Quat sideways(Eigen::AngleAxis<real>(std::numbers::pi_v<real> / 2, Vec3::UnitX())); // axis along z
            setUp(r, Capsule{real(0.2), real(0.4)}, real(0.2), sideways, c, resolver);
            const BodyState b0 = r.world.body(r.body);
            const real axial = b0.inertia(1, 1), ratio = axial / (b0.mass * real(0.04)); // I / (m r^2) about its axis (local y)
            for (int i = 0; i < 120; ++i) r.world.step(rollStep);
            const real expected = v0 - c * g / (1 + ratio) * t;
            INFO("I / m r^2 = " << ratio << ", speed " << r.world.body(r.body).linearVelocity.x() << ", expected " << expected);
            CHECK(r.world.body(r.body).linearVelocity.x() == Approx(expected).epsilon(0.02));
        }
    }
}

TEST_CASE("rolling resistance: none by default, none for a sliding box, bad values refused", "[contact]") {
    Roller free;
    setUp(free, Sphere{real(0.3)}, real(0.3), Quat::Identity(), 0, false);
    for (int i = 0; i < 120; ++i) free.world.step(rollStep);
    CHECK(free.world.body(free.body).linearVelocity.x() == Approx(3).margin(real(5e-3))); // rolls on (0.7 m/s slower with c 0.05)
    // A box does not roll: its rolling radius is 0, so a coefficient changes nothing.
    const auto slide = [](real cRR) {
        World w;
        BodyDesc floor;
        floor.type = BodyType::Static;
        floor.position = Vec3(0, -real(0.5), 0);
        floor.colliders.push_back(makeCollider(Box{Vec3(60, real(0.5), 4)}, 1000, {.friction = real(0.3), .rollingResistance = cRR}));
        w.createBody(floor);
        BodyDesc d;
        d.position = Vec3(0, real(0.25), 0);
        d.linearVelocity = Vec3(4, 0, 0);
        d.colliders.push_back(makeCollider(Box{Vec3::Constant(real(0.25))}, 500, {.friction = real(0.3), .rollingResistance = cRR}));
        const BodyId id = w.createBody(d);
        for (int i = 0; i < 30; ++i) w.step(rollStep);
        return w.body(id).position.x();
    };
    CHECK(slide(0) == slide(real(0.5)));
    World w;
    BodyDesc d;
    d.colliders.push_back(makeCollider(Sphere{real(0.25)}, 1000, {.rollingResistance = -1}));
    testing::expectError([&] { w.createBody(d); }, "BodyDesc.colliders[0].material.rollingResistance");
    CHECK(w.bodyIds().empty());
}
