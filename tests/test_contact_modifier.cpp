// SPDX-License-Identifier: MIT
// Contact hooks (World::setContactModifier): a one-way platform a ball jumps up through
// and then lands on; friction set to 0 on an incline, where the box then slides at
// g (sin a - 0 cos a); restitution set to 1 on a dead floor, where the ball bounces back
// to its height; bad values from the hook make the step throw with the world restored.

#include "expect_error.hpp"
#include "helpers.hpp"

#include <jounce/world/world.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <numbers>

using namespace jounce;

namespace {

constexpr real hookStep = real(1) / 60;

BodyId staticBox(World& w, const Vec3& at, const Vec3& half, const Quat& turn = Quat::Identity(), real friction = real(0.5),
                 real restitution = 0) {
    BodyDesc d;
    d.type = BodyType::Static;
    d.position = at;
    d.orientation = turn;
    d.colliders.push_back(makeCollider(Box{half}, 1000, {.friction = friction, .restitution = restitution}));
    return w.createBody(d);
}

BodyId ballAt(World& w, const Vec3& at, real restitution = 0) {
    BodyDesc d;
    d.position = at;
    d.canSleep = false;
    d.colliders.push_back(makeCollider(Sphere{real(0.25)}, 1000, {.friction = real(0.5), .restitution = restitution}));
    return w.createBody(d);
}

} // namespace

TEST_CASE("a contact modifier makes a one-way platform: a ball jumps up through it and lands on it", "[contact][scene]") {
    World w;
    staticBox(w, Vec3(0, -real(0.5), 0), Vec3(5, real(0.5), 5));                   // the ground
    const BodyId platform = staticBox(w, Vec3(0, 2, 0), Vec3(2, real(0.1), 2));     // top at y = 2.1
    const BodyId ball = ballAt(w, Vec3(0, real(0.25), 0));
    // Off while the ball is below the platform's top: the normal from the platform toward
    // the ball points down, or the ball's centre is under the top surface.
    w.setContactModifier([&](ContactModification& c) {
        const bool platformIsB = c.bodyB == platform, platformIsA = c.bodyA == platform;
        if (!platformIsA && !platformIsB) return;
        const Vec3 up = platformIsB ? c.normal : Vec3(-c.normal); // from the platform toward the other body
        const BodyId other = platformIsB ? c.bodyA : c.bodyB;
        if (up.y() < real(0.7) || w.body(other).position.y() < real(2.1)) c.enabled = false;
    });
    w.setLinearVelocity(ball, Vec3(0, 9, 0)); // up to 0.25 + 81 / (2 g) = 4.38 m
    real highest = 0;
    for (int i = 0; i < 60 * 3; ++i) {
        w.step(hookStep);
        highest = std::max(highest, w.body(ball).position.y());
    }
    INFO("rose to " << highest << " m, rests at " << w.body(ball).position.y() << " m");
    CHECK(highest > 4); // through the platform
    CHECK(w.body(ball).position.y() == Approx(2.1 + 0.25).margin(0.01)); // and landed on it
    // A bullet (always swept for continuous collision) passes too: the sweep lets the
    // pairs the modifier turned off pass as the solver does.
    BodyDesc fast;
    fast.position = Vec3(1, real(0.25), 1);
    fast.linearVelocity = Vec3(0, 9, 0);
    fast.bullet = true;
    fast.canSleep = false;
    fast.colliders.push_back(makeCollider(Sphere{real(0.25)}, 1000, {.friction = real(0.5)}));
    const BodyId bullet = w.createBody(fast);
    real bulletTop = 0;
    for (int i = 0; i < 60 * 3; ++i) {
        w.step(hookStep);
        bulletTop = std::max(bulletTop, w.body(bullet).position.y());
    }
    INFO("the bullet rose to " << bulletTop << " m, rests at " << w.body(bullet).position.y() << " m");
    CHECK(bulletTop > 4);
    CHECK(w.body(bullet).position.y() == Approx(2.1 + 0.25).margin(0.01));
    // The modifier may read the world, not change it: a setter called from it throws
    // (and the step with it, the world restored).
    const auto before = testing::stateHash(w);
    w.setContactModifier([&](ContactModification& c) { w.setLinearVelocity(c.bodyA, Vec3::Zero()); });
    testing::expectError([&] { w.step(hookStep); }, "setLinearVelocity.id");
    CHECK(testing::stateHash(w) == before);
    w.setContactModifier([&](ContactModification&) { w.step(hookStep); });
    testing::expectError([&] { w.step(hookStep); }, "step");
    CHECK(testing::stateHash(w) == before);
    // Without the hook, the same jump stops under the platform.
    World v;
    staticBox(v, Vec3(0, -real(0.5), 0), Vec3(5, real(0.5), 5));
    staticBox(v, Vec3(0, 2, 0), Vec3(2, real(0.1), 2));
    const BodyId blocked = ballAt(v, Vec3(0, real(0.25), 0));
    v.setLinearVelocity(blocked, Vec3(0, 9, 0));
    real top = 0;
    for (int i = 0; i < 60; ++i) {
        v.step(hookStep);
        top = std::max(top, v.body(blocked).position.y());
    }
    CHECK(top < real(1.9) - real(0.24));
}

TEST_CASE("a contact modifier's friction and restitution: a box slides at g sin a, a dead ball bounces back", "[contact][scene]") {
    SECTION("friction 0 on a 30 degree incline of friction 1: s = g sin(a) t^2 / 2") {
        const real a = std::numbers::pi_v<real> / 6;
        const Quat tilt(Eigen::AngleAxis<real>(a, Vec3::UnitZ()));
        World w;
        staticBox(w, Vec3::Zero(), Vec3(20, real(0.5), 4), tilt, 1);
        BodyDesc d;
        d.position = tilt * Vec3(0, real(0.5) + real(0.25), 0);
        d.orientation = tilt;
        d.canSleep = false;
        d.colliders.push_back(makeCollider(Box{Vec3::Constant(real(0.25))}, 1000, {.friction = 1}));
        const BodyId box = w.createBody(d);
        w.setContactModifier([](ContactModification& c) { c.friction = 0; });
        for (int i = 0; i < 30; ++i) w.step(hookStep); // settled on the slope and sliding
        const Vec3 from = w.body(box).position;
        const real v0 = w.body(box).linearVelocity.norm();
        const real t = 1;
        for (int i = 0; i < 60; ++i) w.step(hookStep);
        const real slid = (w.body(box).position - from).norm();
        const real expected = v0 * t + real(9.81) * std::sin(a) * t * t / 2;
        INFO("slid " << slid << " m in 1 s from " << v0 << " m/s, expected " << expected);
        CHECK(slid == Approx(expected).epsilon(0.02));
    }
    SECTION("restitution 1 on a floor and ball of restitution 0: it comes back to its height") {
        World w;
        staticBox(w, Vec3(0, -real(0.5), 0), Vec3(5, real(0.5), 5));
        const BodyId ball = ballAt(w, Vec3(0, 2, 0));
        w.setContactModifier([](ContactModification& c) { c.restitution = 1; });
        real apex = 0;
        bool bounced = false;
        for (int i = 0; i < 60 * 2; ++i) {
            w.step(hookStep);
            if (w.body(ball).linearVelocity.y() > 0) bounced = true;
            if (bounced) apex = std::max(apex, w.body(ball).position.y());
        }
        INFO("back up to " << apex << " m of 2");
        CHECK(apex == Approx(2).epsilon(0.02));
    }
}

TEST_CASE("a contact modifier's bad values make the step throw naming the field, with the world as it was", "[contact]") {
    World w;
    staticBox(w, Vec3(0, -real(0.5), 0), Vec3(5, real(0.5), 5));
    ballAt(w, Vec3(0, real(0.26), 0));
    w.step(hookStep);
    const auto hash = testing::stateHash(w);
    w.setContactModifier([](ContactModification& c) { c.friction = std::numeric_limits<real>::quiet_NaN(); });
    testing::expectError([&] { w.step(hookStep); }, "contactModifier.friction");
    CHECK(testing::stateHash(w) == hash);
    w.setContactModifier([](ContactModification& c) { c.restitution = 2; });
    testing::expectError([&] { w.step(hookStep); }, "contactModifier.restitution");
    CHECK(testing::stateHash(w) == hash);
    w.setContactModifier(nullptr);
    w.step(hookStep); // and steps on without it
    CHECK(std::isfinite(w.body(w.bodyIds().back()).position.y()));
}
