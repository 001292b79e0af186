// SPDX-License-Identifier: MIT
// A kinematic body moved to a target pose over a step (World::moveKinematic): it lands
// on each target exactly, moving meanwhile at the velocities that take it there; a crate
// riding a platform driven round a circle and turning is carried with it, awake; bad
// input names its field and changes nothing; a snapshot mid-path steps the same.

#include "expect_error.hpp"
#include "helpers.hpp"

#include <jounce/world/world.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <numbers>

using namespace jounce;
using testing::expectError;

namespace {

constexpr real kinematicStep = real(1) / 60;

/// A 4 x 0.4 x 4 m kinematic platform, its top at y = 0.2 when at `at`.
BodyId platformAt(World& w, const Vec3& at) {
    BodyDesc d;
    d.type = BodyType::Kinematic;
    d.position = at;
    d.colliders.push_back(makeCollider(Box{Vec3(2, real(0.2), 2)}, 1000, {.friction = 1}));
    return w.createBody(d);
}

/// The platform's pose at time t: round a circle of radius 3 m at 0.5 rad/s, turning
/// about its own vertical axis as it goes (as a carousel's seat).
Transform pathAt(real t) {
    const real angle = real(0.5) * t;
    return {Vec3(3 * std::cos(angle), 0, 3 * std::sin(angle)), Quat(Eigen::AngleAxis<real>(-angle, Vec3::UnitY()))};
}

} // namespace

TEST_CASE("a kinematic body moved to its targets lands on each exactly, at the velocities that take it there", "[physics]") {
    World w;
    const BodyId platform = platformAt(w, pathAt(0).position);
    real worstVelocity = 0;
    for (int i = 1; i <= 240; ++i) {
        const Transform target = pathAt(kinematicStep * static_cast<real>(i));
        const Vec3 before = w.body(platform).position;
        w.moveKinematic(platform, target);
        w.step(kinematicStep);
        const BodyState b = w.body(platform);
        REQUIRE(b.position == target.position); // the origin: exactly there
        REQUIRE(b.orientation.coeffs() == target.orientation.coeffs());
        // Its velocity was the one that made the move: (target - before) / dt.
        worstVelocity = std::max(worstVelocity, (b.linearVelocity - (target.position - before) / kinematicStep).norm());
    }
    INFO("velocity off the move by up to " << worstVelocity << " m/s");
    CHECK(worstVelocity < real(1e-9) * 1000);
    CHECK(w.body(platform).angularVelocity.y() == Approx(-0.5).epsilon(testing::isDouble ? 1e-6 : 1e-4));
    // In a step of four substeps it lands on its target exactly too.
    w.moveKinematic(platform, pathAt(kinematicStep * 241));
    w.step(kinematicStep, 4);
    CHECK(w.body(platform).position == pathAt(kinematicStep * 241).position);
    // A velocity set by hand after moveKinematic drops the pending target.
    w.moveKinematic(platform, pathAt(kinematicStep * 300));
    w.setLinearVelocity(platform, Vec3::Zero());
    w.setAngularVelocity(platform, Vec3::Zero());
    const Vec3 still = w.body(platform).position;
    w.step(kinematicStep);
    CHECK(w.body(platform).position == still);
    w.moveKinematic(platform, pathAt(kinematicStep * 242));
    w.step(kinematicStep);
    // Not called again, it goes on at its last velocity (as any kinematic body).
    const Vec3 last = w.body(platform).position, speed = w.body(platform).linearVelocity;
    w.step(kinematicStep);
    CHECK((w.body(platform).position - (last + speed * kinematicStep)).norm() < real(1e-9));
}

TEST_CASE("a crate riding a kinematic platform driven round a circle is carried with it, awake", "[physics][contact][scene]") {
    World w;
    const BodyId platform = platformAt(w, pathAt(0).position);
    BodyDesc c;
    c.position = pathAt(0).position + Vec3(0, real(0.45), 0);
    c.colliders.push_back(makeCollider(Box{Vec3::Constant(real(0.25))}, 500, {.friction = 1}));
    const BodyId crate = w.createBody(c);
    for (int i = 0; i < 60; ++i) w.step(kinematicStep); // settle on the still platform
    // The platform starts at 1.5 m/s at once: the crate slides until friction (mu g)
    // has brought it up to speed, v^2 / (2 mu g) = 0.115 m, in 0.15 s. Then it rides:
    // where it sits on the platform, in the platform's frame, stays put.
    Vec3 seat = Vec3::Zero();
    real worstSlip = 0;
    for (int i = 1; i <= 60 * 6; ++i) {
        w.moveKinematic(platform, pathAt(kinematicStep * static_cast<real>(i)));
        w.step(kinematicStep);
        REQUIRE(w.body(crate).awake);
        const Vec3 at = w.body(platform).transform().toLocal(w.body(crate).position);
        if (i == 30) seat = at;
        if (i > 30) worstSlip = std::max(worstSlip, (at - seat).norm());
    }
    INFO("after catching up, the crate moved on the platform by up to " << worstSlip << " m; it is at "
         << w.body(crate).position.transpose());
    // Carried 9 m round the circle (3 rad of a 3 m radius in 6 s) and turned with it:
    // the centripetal pull, 0.75 m/s^2, is far under its grip.
    CHECK(worstSlip < real(0.005));
}

TEST_CASE("moveKinematic refuses what it cannot do, naming the field, and the world stays as it was", "[physics]") {
    World w;
    const BodyId platform = platformAt(w, Vec3::Zero());
    BodyDesc d;
    d.position = Vec3(0, 2, 0);
    d.colliders.push_back(makeCollider(Sphere{real(0.2)}, 1000));
    const BodyId ball = w.createBody(d);
    w.step(kinematicStep);
    const auto hash = testing::stateHash(w);
    const real nan = std::numeric_limits<real>::quiet_NaN();
    expectError([&] { w.moveKinematic(ball, Transform{}); }, "moveKinematic.id");
    expectError([&] { w.moveKinematic(platform, Transform{Vec3(nan, 0, 0), Quat::Identity()}); }, "moveKinematic.target.position");
    expectError([&] { w.moveKinematic(platform, Transform{Vec3(real(2e6), 0, 0), Quat::Identity()}); }, "moveKinematic.target.position");
    expectError([&] { w.moveKinematic(platform, Transform{Vec3::Zero(), Quat(0, 0, 0, 0)}); }, "moveKinematic.target.orientation");
    CHECK(testing::stateHash(w) == hash);
    // A target it cannot reach within maxSpeed in this dt: the step refuses it.
    w.moveKinematic(platform, Transform{Vec3(real(9e5), 0, 0), Quat::Identity()});
    const auto aimed = testing::stateHash(w);
    expectError([&] { w.step(real(1e-3)); }, "step.dt");
    CHECK(testing::stateHash(w) == aimed);
    w.moveKinematic(platform, Transform{});
    const BodyId stale = ball;
    w.destroyBody(ball);
    expectError([&] { w.moveKinematic(stale, Transform{}); }, "moveKinematic.id");
}

TEST_CASE("a kinematic target survives a snapshot: the copy lands where the original does", "[physics][scene]") {
    World w;
    const BodyId platform = platformAt(w, pathAt(0).position);
    for (int i = 1; i <= 10; ++i) {
        w.moveKinematic(platform, pathAt(kinematicStep * static_cast<real>(i)));
        w.step(kinematicStep);
    }
    w.moveKinematic(platform, pathAt(kinematicStep * 11)); // pending when saved
    World copy;
    copy.restoreState(w.saveState());
    w.step(kinematicStep);
    copy.step(kinematicStep);
    CHECK(testing::stateHash(copy) == testing::stateHash(w));
    CHECK(copy.body(platform).position == pathAt(kinematicStep * 11).position);
}
