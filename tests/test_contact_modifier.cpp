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
    w.setContactModifier([](ContactModification& c) { c.surfaceVelocity.x() = std::numeric_limits<real>::infinity(); });
    testing::expectError([&] { w.step(hookStep); }, "contactModifier.surfaceVelocity");
    CHECK(testing::stateHash(w) == hash);
    w.setContactModifier(nullptr);
    w.step(hookStep); // and steps on without it
    CHECK(std::isfinite(w.body(w.bodyIds().back()).position.y()));
}

TEST_CASE("a conveyor belt (surface velocity): a box dropped on it speeds up at mu g to the belt's speed", "[contact][scene]") {
    // A box at rest on a belt moving at u slips at a = mu g until it moves with the belt
    // (t = u / (mu g)), then rides at u: after T, x = u T - u^2 / (2 mu g).
    const real u = 2, mu = real(0.5), g = real(9.81);
    const auto run = [&](const char* solver, auto configure) {
        INFO(solver);
        World w;
        configure(w);
        const BodyId belt = staticBox(w, Vec3(0, -real(0.5), 0), Vec3(20, real(0.5), 2), Quat::Identity(), mu);
        BodyDesc d;
        d.position = Vec3(0, real(0.25), 0);
        d.canSleep = false;
        d.colliders.push_back(makeCollider(Box{Vec3::Constant(real(0.25))}, 1000, {.friction = mu}));
        const BodyId box = w.createBody(d);
        w.setContactModifier([&](ContactModification& c) {
            // The belt's surface moves at +u x; the velocity is A's relative to B's.
            c.surfaceVelocity = Vec3(u, 0, 0) * (c.bodyB == belt ? 1 : -1);
        });
        const real T = 2;
        for (int i = 0; i < 120; ++i) w.step(hookStep);
        const real expected = u * T - u * u / (2 * mu * g);
        INFO("moved " << w.body(box).position.x() << " m, expected " << expected);
        CHECK(w.body(box).position.x() == Approx(expected).margin(real(0.03)));
        CHECK(w.body(box).linearVelocity.x() == Approx(u).margin(real(0.01)));
        CHECK(std::abs(w.body(box).linearVelocity.z()) < real(1e-6));
        CHECK(w.body(box).angularVelocity.norm() < real(0.01)); // carried flat, not tipped
        w.setContactModifier(nullptr); // the belt stops: nothing of its speed stays in the kept contacts
        for (int i = 0; i < 60; ++i) w.step(hookStep);
        CHECK(std::abs(w.body(box).linearVelocity.x()) < real(0.01));
    };
    run("soft step", [](World&) {});
    run("resolver, worst first", [](World& w) { testing::useResolver(w); });
    run("resolver, sequential impulses", [](World& w) {
        WorldSettings s = w.settings();
        s.resolver.solver = ContactSolver::Resolver;
        s.resolver.velocitySolver = VelocitySolver::SequentialImpulses;
        w.setSettings(s);
    });
}

TEST_CASE("combine rules: a pair uses the later of its two rules, for friction on a slope and restitution in a bounce", "[contact][scene]") {
    SECTION("friction: a 0.1 box on a 0.9 slope slides at g (sin a - mu cos a) with mu from the rule") {
        const real a = real(0.3), g = real(9.81);
        const Quat tilt(Eigen::AngleAxis<real>(a, Vec3::UnitZ()));
        const auto slide = [&](CombineRule boxRule, CombineRule slopeRule) {
            World w;
            BodyDesc slope;
            slope.type = BodyType::Static;
            slope.orientation = tilt;
            slope.colliders.push_back(makeCollider(Box{Vec3(20, real(0.5), 4)}, 1000, {.friction = real(0.9), .frictionCombine = slopeRule}));
            w.createBody(slope);
            BodyDesc d;
            d.position = tilt * Vec3(0, real(0.75), 0);
            d.orientation = tilt;
            d.canSleep = false;
            d.colliders.push_back(makeCollider(Box{Vec3::Constant(real(0.25))}, 1000, {.friction = real(0.1), .frictionCombine = boxRule}));
            const BodyId box = w.createBody(d);
            for (int i = 0; i < 30; ++i) w.step(hookStep);
            const Vec3 from = w.body(box).position;
            const real v0 = w.body(box).linearVelocity.norm();
            for (int i = 0; i < 60; ++i) w.step(hookStep);
            return std::pair{(w.body(box).position - from).norm(), v0};
        };
        const auto expectMu = [&](CombineRule boxRule, CombineRule slopeRule, real mu) {
            const auto [slid, v0] = slide(boxRule, slopeRule);
            const real accel = std::max(real(0), g * (std::sin(a) - mu * std::cos(a)));
            INFO("rules " << int(boxRule) << ", " << int(slopeRule) << ": slid " << slid << " m from " << v0 << " m/s");
            CHECK(slid == Approx(v0 + accel / 2).margin(real(0.02)));
        };
        expectMu(CombineRule::Default, CombineRule::Default, real(0.3));   // sqrt(0.1 0.9)
        expectMu(CombineRule::Min, CombineRule::Default, real(0.1));       // ice: the named rule wins over Default
        expectMu(CombineRule::Default, CombineRule::Multiply, real(0.09));
        expectMu(CombineRule::Min, CombineRule::Max, real(0.9));           // Max comes later: it sticks
        expectMu(CombineRule::Average, CombineRule::Min, real(0.1));       // Min comes later than Average
    }
    SECTION("restitution: a 0.8 ball on a 0.2 floor bounces to e^2 h with e from the rule") {
        const auto apexOf = [](CombineRule ballRule) {
            World w;
            BodyDesc floor;
            floor.type = BodyType::Static;
            floor.position = Vec3(0, -real(0.5), 0);
            floor.colliders.push_back(makeCollider(Box{Vec3(5, real(0.5), 5)}, 1000, {.restitution = real(0.2)}));
            w.createBody(floor);
            BodyDesc d;
            d.position = Vec3(0, real(2.25), 0);
            d.canSleep = false;
            d.colliders.push_back(makeCollider(Sphere{real(0.25)}, 1000, {.restitution = real(0.8), .restitutionCombine = ballRule}));
            const BodyId ball = w.createBody(d);
            real apex = 0;
            bool bounced = false;
            for (int i = 0; i < 480; ++i) { // 2 s: down in 0.64 s, up to the apex within another 0.6
                w.step(real(1) / 240);
                if (w.body(ball).linearVelocity.y() > 0) bounced = true;
                if (bounced) apex = std::max(apex, w.body(ball).position.y() - real(0.25));
            }
            return apex;
        };
        const real h = 2;
        for (const auto& [rule, e] : {std::pair{CombineRule::Default, real(0.8)}, std::pair{CombineRule::Min, real(0.2)},
                                      std::pair{CombineRule::Average, real(0.5)}, std::pair{CombineRule::Multiply, real(0.16)}}) {
            INFO("rule " << int(rule));
            CHECK(apexOf(rule) == Approx(e * e * h).margin(real(0.04)));
        }
    }
    SECTION("a rule that is not one is refused, naming the field") {
        World w;
        BodyDesc d;
        d.colliders.push_back(makeCollider(Sphere{real(0.25)}, 1000, {.frictionCombine = static_cast<CombineRule>(9)}));
        testing::expectError([&] { w.createBody(d); }, "BodyDesc.colliders[0].material.frictionCombine");
        CHECK(w.bodyIds().empty());
    }
}
