// SPDX-License-Identifier: MIT
// Joints, cables and rods (joint.hpp): contact generators resolved by the contact
// resolver. Figures: a pendulum's period, lengths and drifts held, hinge freedom.

#include "expect_error.hpp"
#include "helpers.hpp"

#include <jounce/world/world.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <numbers>

using namespace jounce;
using testing::boxCollider;
using testing::expectError;

namespace {

ColliderDesc sphereCollider(real r) { return ColliderDesc{Sphere{r}, Transform{}, 1000, Material{0, 0}, CollisionFilter{}}; }
BodyId ballAt(World& w, const Vec3& at, real r = real(0.1)) {
    BodyDesc d;
    d.position = at;
    d.canSleep = false;
    d.colliders.push_back(sphereCollider(r));
    return w.createBody(d);
}

BodyId boxAt(World& w, const Vec3& at, const Vec3& half) {
    BodyDesc d;
    d.position = at;
    d.canSleep = false;
    d.colliders.push_back(boxCollider(half));
    return w.createBody(d);
}

real anchorGap(const World& w, const Joint& j, int k) {
    const Vec3 a = w.body(j.desc.a.body).transform().toWorld(j.pointsA[static_cast<std::size_t>(k)]);
    const Vec3 b = j.desc.b.body.isNull() ? j.pointsB[static_cast<std::size_t>(k)]
                                          : w.body(j.desc.b.body).transform().toWorld(j.pointsB[static_cast<std::size_t>(k)]);
    return (a - b).norm();
}

} // namespace

TEST_CASE("a pendulum on a rod swings with period 2 pi sqrt(L / g)", "[physics][contact]") {
    World w;
    const real length = 1, amplitude = real(0.1);
    const Vec3 pivot(0, 3, 0);
    const BodyId bob = ballAt(w, pivot + length * Vec3(std::sin(amplitude), -std::cos(amplitude), 0));
    JointDesc rod;
    rod.type = JointType::Rod;
    rod.a = {bob, Vec3::Zero()};
    rod.b = {BodyId{}, pivot};
    rod.length = length;
    w.createJoint(rod);
    const real h = real(1) / 240;
    // Times the bob crosses x = 0 going the same way (every full period).
    std::vector<real> crossings;
    real previousX = w.body(bob).position.x(), worstLength = 0;
    for (int i = 1; i <= 240 * 10; ++i) {
        w.step(h);
        const real x = w.body(bob).position.x();
        if (previousX > 0 && x <= 0) crossings.push_back(static_cast<real>(i) * h - h * x / (x - previousX));
        previousX = x;
        worstLength = std::max(worstLength, std::abs((w.body(bob).position - pivot).norm() - length));
    }
    REQUIRE(crossings.size() >= 4);
    const real period = (crossings.back() - crossings.front()) / static_cast<real>(crossings.size() - 1);
    // Small-amplitude period with the first finite-amplitude term (1 + theta^2 / 16).
    const real expected = 2 * std::numbers::pi_v<real> * std::sqrt(length / real(9.81)) * (1 + amplitude * amplitude / 16);
    INFO("period " << period << " s, expected " << expected << " s; rod length error up to " << worstLength << " m");
    CHECK(period == Approx(expected).epsilon(0.01));
    CHECK(worstLength < real(0.002));
}

TEST_CASE("a cable catches a falling ball at its length and holds it there", "[physics][contact]") {
    World w;
    const Vec3 anchor(0, 5, 0);
    const BodyId ball = ballAt(w, anchor + Vec3(real(0.3), 0, 0));
    JointDesc cable;
    cable.type = JointType::Cable;
    cable.a = {ball, Vec3::Zero()};
    cable.b = {BodyId{}, anchor};
    cable.length = 2;
    w.createJoint(cable);
    real longest = 0;
    for (int i = 0; i < 600; ++i) {
        w.step(real(1) / 60);
        longest = std::max(longest, (w.body(ball).position - anchor).norm());
    }
    INFO("longest " << longest << " m");
    CHECK(longest < real(2.01));
    CHECK((w.body(ball).position - anchor).norm() == Approx(2).margin(0.005));
    CHECK(w.body(ball).position.y() < anchor.y() - real(1.9)); // hanging below the anchor
}

TEST_CASE("a ball joint keeps a swinging box's corner on its anchor", "[physics][contact]") {
    World w;
    const BodyId box = boxAt(w, Vec3(real(0.5), real(2.5), real(0.5)), Vec3::Constant(real(0.5)));
    JointDesc ball;
    ball.type = JointType::Ball;
    ball.a = {box, Vec3(real(-0.5), real(0.5), real(-0.5))};
    ball.b = {BodyId{}, Vec3(0, 3, 0)};
    const JointId id = w.createJoint(ball);
    real worst = 0;
    for (int i = 0; i < 300; ++i) {
        w.step(real(1) / 60);
        worst = std::max(worst, anchorGap(w, w.joint(id), 0));
    }
    INFO("worst gap " << worst << " m");
    CHECK(worst < real(0.01));
    CHECK(w.body(box).position.y() < real(2.4)); // it swung down
}

TEST_CASE("a hinge lets a door turn about its axis and nothing else", "[physics][contact]") {
    World w;
    // A door 1 m wide, hinged at its left edge about the vertical axis.
    const BodyId door = boxAt(w, Vec3(real(0.5), 1, 0), Vec3(real(0.5), 1, real(0.05)));
    JointDesc hinge;
    hinge.type = JointType::Hinge;
    hinge.a = {door, Vec3(real(-0.5), 0, 0)};
    hinge.b = {BodyId{}, Vec3(0, 1, 0)};
    hinge.axisA = Vec3::UnitY();
    hinge.axisB = Vec3::UnitY();
    hinge.span = real(0.8);
    const JointId id = w.createJoint(hinge);
    // Turning about the hinge line at 1 rad/s: the centre, 0.5 m out, moves at 0.5 m/s.
    w.setAngularVelocity(door, Vec3(0, 1, 0));
    w.setLinearVelocity(door, Vec3(0, 1, 0).cross(Vec3(real(0.5), 0, 0)));
    real worst = 0;
    for (int i = 0; i < 180; ++i) {
        w.step(real(1) / 60);
        worst = std::max({worst, anchorGap(w, w.joint(id), 0), anchorGap(w, w.joint(id), 1)});
    }
    const BodyState b = w.body(door);
    INFO("worst gap " << worst << " m, up axis " << (b.orientation * Vec3::UnitY()).transpose());
    CHECK(worst < real(0.01));
    CHECK((b.orientation * Vec3::UnitY()).y() > real(0.999)); // still upright: no sag about other axes
    CHECK(b.angularVelocity.y() == Approx(1).margin(0.05));   // still turning about the hinge, losing little
}

TEST_CASE("a fixed joint holds a box out from a wall", "[physics][contact]") {
    World w;
    const BodyId box = boxAt(w, Vec3(1, 2, 0), Vec3::Constant(real(0.5)));
    JointDesc fixed;
    fixed.type = JointType::Fixed;
    fixed.a = {box, Vec3(real(-0.5), 0, 0)};
    fixed.b = {BodyId{}, Vec3(real(0.5), 2, 0)};
    w.createJoint(fixed);
    for (int i = 0; i < 180; ++i) w.step(real(1) / 60);
    const BodyState b = w.body(box);
    const real turned = 2 * std::acos(std::min(real(1), std::abs(b.orientation.w())));
    INFO("moved " << (b.position - Vec3(1, 2, 0)).transpose() << ", turned " << turned << " rad");
    CHECK((b.position - Vec3(1, 2, 0)).norm() < real(0.01));
    CHECK(turned < real(0.02));
}

TEST_CASE("joined bodies skip each other's collisions unless told to collide", "[physics][contact][collision]") {
    for (const bool collide : {false, true}) {
        WorldSettings s;
        s.gravity.setZero();
        World w(s);
        const BodyId a = boxAt(w, Vec3(0, 0, 0), Vec3::Constant(real(0.5)));
        const BodyId b = boxAt(w, Vec3(real(0.8), 0, 0), Vec3::Constant(real(0.5)));
        JointDesc ball;
        ball.a = {a, Vec3(real(0.4), 0, 0)};
        ball.b = {b, Vec3(real(-0.4), 0, 0)};
        ball.collide = collide;
        w.createJoint(ball);
        w.step(real(1) / 60);
        INFO("collide " << collide);
        CHECK(w.contacts().size() == (collide ? 1u : 0u));
        // Either way the joint puts both in one island.
        CHECK(w.islands().bodyIsland[a.index] == w.islands().bodyIsland[b.index]);
    }
}

TEST_CASE("bad joint descriptions are rejected with the field named and the world unchanged", "[physics][contact]") {
    World w;
    const BodyId box = boxAt(w, Vec3(0, 2, 0), Vec3::Constant(real(0.5)));
    BodyDesc ground;
    ground.type = BodyType::Static;
    const BodyId wall = w.createBody(ground);
    const BodyId gone = boxAt(w, Vec3(3, 2, 0), Vec3::Constant(real(0.5)));
    w.destroyBody(gone);
    const auto rejects = [&](const std::string& field, auto change) {
        JointDesc d;
        d.a = {box, Vec3::Zero()};
        d.b = {BodyId{}, Vec3(0, 3, 0)};
        change(d);
        try {
            w.createJoint(d);
            FAIL("accepted a bad " << field);
        } catch (const Error& e) {
            CHECK(e.field() == field);
        }
        CHECK(w.jointIds().empty());
    };
    rejects("createJoint.a.body", [&](JointDesc& d) { d.a.body = gone; });
    rejects("createJoint.b.body", [&](JointDesc& d) { d.b.body = gone; });
    rejects("createJoint.b.body", [&](JointDesc& d) { d.b.body = box; });
    rejects("createJoint.a.point", [&](JointDesc& d) { d.a.point.x() = std::numeric_limits<real>::quiet_NaN(); });
    rejects("createJoint.tolerance", [&](JointDesc& d) { d.tolerance = -1; });
    rejects("createJoint.length", [&](JointDesc& d) { d.type = JointType::Rod; d.length = 0; });
    rejects("createJoint.axisA", [&](JointDesc& d) { d.type = JointType::Hinge; d.axisA = Vec3::Zero(); });
    rejects("createJoint.restitution", [&](JointDesc& d) { d.restitution = 2; });
    rejects("createJoint.a.body", [&](JointDesc& d) { d.a.body = wall; });
    rejects("createJoint.type", [&](JointDesc& d) { d.type = static_cast<JointType>(42); });
    // A removed joint's handle goes stale.
    JointDesc good;
    good.a = {box, Vec3::Zero()};
    good.b = {BodyId{}, Vec3(0, 2, 0)};
    const JointId id = w.createJoint(good);
    w.destroyJoint(id);
    CHECK_THROWS_AS(w.joint(id), Error);
    CHECK_THROWS_AS(w.destroyJoint(id), Error);
}

TEST_CASE("a joint carries the hanging weight m g and breaks once the load passes its breakForce", "[physics][contact]") {
    // A 0.2 m ball hanging from the world by a ball joint. Its force at rest is m g;
    // then a downward pull that grows by m g / 100 a step breaks it when m g + F passes
    // 1.5 m g, at F = m g / 2 (step 50), and from then on the ball falls freely.
    World w;
    const BodyId ball = ballAt(w, Vec3(0, 2, 0), real(0.2));
    const real m = 1 / w.body(ball).inverseMass, g = real(9.81);
    JointDesc d;
    d.type = JointType::Ball;
    d.a = {ball, Vec3(0, real(0.2), 0)};
    d.b = {BodyId{}, Vec3(0, real(2.2), 0)};
    d.breakForce = real(1.5) * m * g;
    const JointId joint = w.createJoint(d);
    const real h = real(1) / 60;
    for (int i = 0; i < 120; ++i) w.step(h);
    CHECK(w.jointForce(joint) == Approx(m * g).epsilon(0.02));
    CHECK(w.jointEvents().broken.empty());

    int brokeAt = -1;
    real pull = 0;
    for (int i = 1; i <= 200 && brokeAt < 0; ++i) {
        pull = m * g / 100 * static_cast<real>(i);
        w.applyForce(ball, Vec3(0, -pull, 0));
        w.step(h);
        if (!w.jointEvents().broken.empty()) brokeAt = i;
    }
    REQUIRE(brokeAt >= 0);
    CHECK(std::abs(brokeAt - 51) <= 1); // the first step with m g + F > 1.5 m g
    const JointBreakEvent& e = w.jointEvents().broken.front();
    CHECK(e.joint == joint);
    CHECK(e.desc.a.body == ball);
    CHECK(e.force > d.breakForce);
    CHECK(e.force == Approx(m * g + pull).epsilon(0.05));
    CHECK_FALSE(w.contains(joint));
    CHECK(w.jointIds().empty());

    // Free fall from here: v changes by g h per step (no joint pulls any more).
    const real v0 = w.body(ball).linearVelocity.y();
    for (int i = 0; i < 10; ++i) w.step(h);
    CHECK(w.body(ball).linearVelocity.y() == Approx(v0 - 10 * g * h).epsilon(1e-3));
    w.step(h);
    CHECK(w.jointEvents().broken.empty()); // events last one step
}

TEST_CASE("a chain breaks at its weakest link only, and unbreakable joints never break", "[physics][contact]") {
    // Three balls in a chain hanging from the world; the middle link is the weak one.
    // Loaded past it, only that link goes: the top ball stays up, the bottom one falls.
    World w;
    std::vector<BodyId> balls;
    for (int i = 0; i < 3; ++i) balls.push_back(ballAt(w, Vec3(0, real(3) - real(0.5) * i, 0)));
    const real m = 1 / w.body(balls[0]).inverseMass, g = real(9.81);
    std::vector<JointId> links;
    for (int i = 0; i < 3; ++i) {
        JointDesc d;
        d.type = JointType::Rod;
        d.length = real(0.5);
        d.a = {balls[static_cast<std::size_t>(i)], Vec3::Zero()};
        d.b = i == 0 ? Attachment{BodyId{}, Vec3(0, real(3.5), 0)} : Attachment{balls[static_cast<std::size_t>(i) - 1], Vec3::Zero()};
        if (i == 2) d.breakForce = 3 * m * g; // carries m g + the pull; the others are unbreakable
        links.push_back(w.createJoint(d));
    }
    const real h = real(1) / 60;
    for (int i = 0; i < 60; ++i) w.step(h);
    CHECK(w.jointForce(links[0]) == Approx(3 * m * g).epsilon(0.03));
    CHECK(w.jointForce(links[1]) == Approx(2 * m * g).epsilon(0.03));
    CHECK(w.jointForce(links[2]) == Approx(m * g).epsilon(0.03));
    int broken = 0;
    for (int i = 0; i < 60; ++i) {
        w.applyForce(balls[2], Vec3(0, -3 * m * g, 0));
        w.step(h);
        broken += static_cast<int>(w.jointEvents().broken.size());
    }
    CHECK(broken == 1);
    CHECK(w.contains(links[0]));
    CHECK(w.contains(links[1]));
    CHECK_FALSE(w.contains(links[2]));
    CHECK(w.body(balls[1]).position.y() == Approx(2.5).margin(0.02));
    CHECK(w.body(balls[2]).position.y() < 1);
}

TEST_CASE("breakForce is validated", "[physics][contact]") {
    World w;
    const BodyId ball = ballAt(w, Vec3(0, 2, 0));
    for (const real bad : {real(0), real(-1), std::numeric_limits<real>::quiet_NaN(), -std::numeric_limits<real>::infinity()}) {
        JointDesc d;
        d.a = {ball, Vec3::Zero()};
        d.b = {BodyId{}, Vec3(0, 2, 0)};
        d.breakForce = bad;
        try {
            w.createJoint(d);
            FAIL("accepted breakForce " << bad);
        } catch (const Error& e) {
            CHECK(e.field() == "createJoint.breakForce");
        }
    }
    CHECK(w.jointIds().empty());
}

TEST_CASE("a fixed joint carries its beam's moment m g L / 2 and breaks once it passes its breakTorque", "[physics][contact]") {
    // A 1 m beam of 1000 kg/m^3 (0.2 x 0.2 m: 40 kg) welded by its end to the world: the
    // weld carries the moment m g L / 2 = 196 N m about its anchor.
    const real mass = 40, g = real(9.81), moment = mass * g * real(0.5);
    const auto weld = [&](World& w, real breakTorque) {
        const BodyId beam = boxAt(w, Vec3(real(0.5), 2, 0), Vec3(real(0.5), real(0.1), real(0.1)));
        JointDesc d;
        d.type = JointType::Fixed;
        d.a = {beam, Vec3(real(-0.5), 0, 0)};
        d.b = {BodyId{}, Vec3(0, 2, 0)};
        d.breakTorque = breakTorque;
        return w.createJoint(d);
    };
    World held;
    const JointId j = weld(held, real(1.2) * moment);
    for (int i = 0; i < 60; ++i) held.step(real(1) / 60);
    REQUIRE(held.jointIds().size() == 1);
    INFO("carries " << held.joint(j).totalTorque << " N m, m g L / 2 = " << moment);
    CHECK(held.joint(j).totalTorque == Approx(moment).epsilon(0.03));
    World broken;
    const JointId k = weld(broken, real(0.8) * moment);
    bool broke = false;
    for (int i = 0; i < 60 && !broke; ++i) {
        broken.step(real(1) / 60);
        for (const JointBreakEvent& e : broken.jointEvents().broken) {
            CHECK(e.joint == k);
            CHECK(e.torque > real(0.8) * moment);
            broke = true;
        }
    }
    CHECK(broke);
    CHECK(broken.jointIds().empty());
}

TEST_CASE("a hinge's limit carries an arm's moment, and the hinge breaks by torque past its breakTorque", "[physics][contact]") {
    // A 1 m, 10 kg arm held level by a hinge's lower limit at 0: the limit carries m g L / 2.
    const auto arm = [](World& w, real breakTorque) {
        const BodyId a = boxAt(w, Vec3(real(0.5), 2, 0), Vec3(real(0.5), real(0.05), real(0.05)));
        JointDesc d;
        d.type = JointType::Hinge;
        d.a = {a, Vec3(real(-0.5), 0, 0)};
        d.b = {BodyId{}, Vec3(0, 2, 0)};
        d.axisA = d.axisB = Vec3::UnitZ();
        d.motion.limited = true; // it may rise, not fall
        d.motion.lower = 0;
        d.motion.upper = 1;
        d.breakTorque = breakTorque;
        return w.createJoint(d);
    };
    const real moment = 10 * real(9.81) * real(0.5);
    World held;
    const JointId j = arm(held, 2 * moment);
    for (int i = 0; i < 60; ++i) held.step(real(1) / 60);
    INFO("carries " << held.joint(j).totalTorque << " N m, the limit " << held.jointTorque(j) << ", m g L / 2 = " << moment);
    CHECK(held.joint(j).totalTorque == Approx(moment).epsilon(0.03));
    World broken;
    arm(broken, real(0.8) * moment);
    for (int i = 0; i < 30; ++i) broken.step(real(1) / 60);
    CHECK(broken.jointIds().empty());
    // Validated like breakForce.
    World w;
    const BodyId ball = ballAt(w, Vec3(0, 2, 0));
    for (const real bad : {real(0), real(-1), std::numeric_limits<real>::quiet_NaN()}) {
        JointDesc d;
        d.a = {ball, Vec3::Zero()};
        d.b = {BodyId{}, Vec3(0, 2, 0)};
        d.breakTorque = bad;
        expectError([&] { w.createJoint(d); }, "createJoint.breakTorque");
    }
    CHECK(w.jointIds().empty());
}
