// SPDX-License-Identifier: MIT
// The distance joint (JointType::Distance): a rod-like one (lower = upper) swings with the
// pendulum's period, a rope-like one (lower 0) is slack until taut, a spring given as a
// stiffness bobs with 2 pi sqrt(m/k) about its sag m g / k, a motor winches a load up at
// its speed; bad input names its field; scene files and snapshots keep it.

#include "expect_error.hpp"
#include "helpers.hpp"

#include <jounce/io/scene_file.hpp>
#include <jounce/world/world.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <vector>

using namespace jounce;
using testing::expectError;

namespace {

constexpr real distanceStep = real(1) / 60;

/// A 1 kg ball (radius 0.1, no collisions needed) at `at`, on a distance joint to the
/// world point (0, 3, 0).
struct Hanging {
    World w;
    BodyId ball;
    JointId joint;
    Hanging(const Vec3& at, const JointMotion& motion) {
        BodyDesc d;
        d.position = at;
        d.mass = 1;
        d.inertia = Mat3::Identity() * real(0.004);
        d.massFromColliders = false;
        d.canSleep = false;
        ball = w.createBody(d);
        JointDesc j;
        j.type = JointType::Distance;
        j.a = {ball, Vec3::Zero()};
        j.b = {BodyId{}, Vec3(0, 3, 0)};
        j.motion = motion;
        joint = w.createJoint(j);
    }
};

} // namespace

TEST_CASE("a distance joint held at 1 m swings with the pendulum's period and keeps its length", "[contact][physics]") {
    JointMotion rod;
    rod.limited = true;
    rod.lower = rod.upper = 1;
    const real angle = real(0.1);
    Hanging h(Vec3(std::sin(angle), 3 - std::cos(angle), 0), rod);
    std::vector<real> x;
    real worst = 0;
    for (int i = 0; i < 60 * 10; ++i) {
        h.w.step(distanceStep);
        x.push_back(h.w.body(h.ball).position.x());
        worst = std::max(worst, std::abs(h.w.jointTranslation(h.joint) - 1));
    }
    // Small swings: T = 2 pi sqrt(L / g) (1 + theta^2 / 16).
    const real expected = 2 * std::numbers::pi_v<real> * std::sqrt(1 / real(9.81)) * (1 + angle * angle / 16);
    INFO("period " << testing::periodOf(x, distanceStep) << " s, expected " << expected << " s; length off by " << worst << " m at most");
    CHECK(testing::periodOf(x, distanceStep) == Approx(expected).epsilon(0.01));
    CHECK(worst < real(0.002));
}

TEST_CASE("a rope-like distance joint is slack below its length and catches the ball at it", "[contact][physics]") {
    JointMotion rope;
    rope.limited = true;
    rope.lower = 0;
    rope.upper = 2;
    Hanging h(Vec3(real(0.5), real(2.8), 0), rope); // 0.54 m from the anchor: slack
    // Falling freely until the rope is taut: 1.39 m below, after sqrt(2 * 1.39 / g) = 0.53 s.
    for (int i = 0; i < 20; ++i) {
        h.w.step(distanceStep);
        CHECK(h.w.body(h.ball).linearVelocity.x() == Approx(0).margin(1e-9)); // nothing pulls it sideways yet
    }
    real longest = 0;
    for (int i = 0; i < 240; ++i) {
        h.w.step(distanceStep);
        longest = std::max(longest, h.w.jointTranslation(h.joint));
    }
    INFO("longest " << longest << " m");
    CHECK(longest < real(2.01));
    CHECK(h.w.jointTranslation(h.joint) > real(1.95)); // it hangs on the taut rope, swinging
}

TEST_CASE("a distance joint's spring of 100 N/m bobs a 1 kg ball with 2 pi sqrt(m/k) about its sag m g / k", "[contact][physics]") {
    const real k = 100, m = 1;
    const auto run = [&](real damping, std::vector<real>& lengths) {
        JointMotion spring;
        spring.springStiffness = k;
        spring.springDamping = damping;
        spring.springTarget = 1;
        Hanging h(Vec3(0, 2, 0), spring); // at its rest length, let go
        lengths.clear();
        for (int i = 0; i < 60 * 5; ++i) {
            h.w.step(distanceStep);
            lengths.push_back(h.w.jointTranslation(h.joint));
        }
    };
    std::vector<real> lengths;
    run(0, lengths);
    const real expected = 2 * std::numbers::pi_v<real> * std::sqrt(m / k);
    INFO("period " << testing::periodOf(lengths, distanceStep) << " s, expected " << expected);
    CHECK(testing::periodOf(lengths, distanceStep) == Approx(expected).epsilon(0.02));
    run(2 * std::sqrt(k * m), lengths); // critically damped: settles at the sag, no overshoot
    const real sag = m * real(9.81) / k;
    INFO("settled at " << lengths.back() << " m, 1 + m g / k = " << 1 + sag << "; longest " << *std::max_element(lengths.begin(), lengths.end()));
    CHECK(lengths.back() == Approx(1 + sag).epsilon(0.01));
    CHECK(*std::max_element(lengths.begin(), lengths.end()) < 1 + sag * real(1.01));
}

TEST_CASE("a distance joint's motor winches a 1 kg load up at its speed, and stalls under too little force", "[contact][physics]") {
    JointMotion winch;
    winch.limited = true;
    winch.lower = real(0.2);
    winch.upper = 2;
    winch.motor = true;
    winch.motorSpeed = real(-0.5); // shortening [m/s]
    winch.maxMotorForce = 30;      // above m g = 9.81 N
    Hanging h(Vec3(0, 1, 0), winch);
    for (int i = 0; i < 60; ++i) h.w.step(distanceStep);
    INFO("rising at " << h.w.body(h.ball).linearVelocity.y() << " m/s");
    CHECK(h.w.body(h.ball).linearVelocity.y() == Approx(0.5).epsilon(0.02));
    for (int i = 0; i < 240; ++i) h.w.step(distanceStep);
    CHECK(h.w.jointTranslation(h.joint) == Approx(0.2).margin(0.005)); // up to its shortest, held there
    winch.maxMotorForce = 5; // below m g: it pays out
    h.w.setJointMotion(h.joint, winch);
    for (int i = 0; i < 30; ++i) h.w.step(distanceStep);
    CHECK(h.w.body(h.ball).linearVelocity.y() < 0);
}

TEST_CASE("a distance joint refuses bad lengths naming the field, and survives a snapshot and a scene file", "[contact][physics]") {
    JointMotion m;
    m.limited = true;
    m.lower = real(0.5);
    m.upper = real(1.5);
    m.springStiffness = 50;
    m.springTarget = 1;
    Hanging h(Vec3(1, 3, 0), m);
    JointDesc d = h.w.joint(h.joint).desc;
    const std::size_t joints = h.w.jointIds().size();
    const auto refused = [&](const JointDesc& bad, const std::string& field) {
        expectError([&] { h.w.createJoint(bad); }, field);
        CHECK(h.w.jointIds().size() == joints);
    };
    JointDesc bad = d;
    bad.motion.lower = -1;
    refused(bad, "createJoint.motion.lower");
    bad = d;
    bad.motion.lower = 2; // above upper
    refused(bad, "createJoint.motion.lower");
    bad = d;
    bad.motion.springTarget = -1;
    refused(bad, "createJoint.motion.springTarget");
    bad = d;
    bad.motion.upper = std::numeric_limits<real>::infinity();
    refused(bad, "createJoint.motion.upper");
    bad = d;
    bad.normalA = Vec3::UnitX();
    refused(bad, "createJoint.normalA");
    for (int i = 0; i < 30; ++i) h.w.step(distanceStep);
    CHECK(testing::stepsAsItsSnapshot(h.w, 30, distanceStep));
    LoadedScene loaded = loadScene(exportScene(h.w));
    REQUIRE(loaded.objects.joints.size() == 1);
    const Joint& j = loaded.world.joint(loaded.objects.joints[0]);
    CHECK(j.desc.type == JointType::Distance);
    CHECK(j.desc.motion.springStiffness == 50);
    CHECK(j.desc.motion.upper == real(1.5));
}
