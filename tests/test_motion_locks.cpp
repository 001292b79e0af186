// SPDX-License-Identifier: MIT
// Motion locks (MotionLocks, World::setMotionLocks): a box that may not turn takes a
// head-on hit as a point mass does (the 1D elastic collision's velocities); boxes
// locked to a plane stay in it bit for bit under both solvers; a capsule locked upright
// stands on a slope its unlocked twin falls over on; a locked axis survives snapshots
// and scene files; bad calls name the field.

#include "expect_error.hpp"
#include "helpers.hpp"

#include <jounce/jounce.hpp>

#include <catch2/catch.hpp>

#include <cmath>

using namespace jounce;

namespace {

constexpr real lockStep = real(1) / 60;

MotionLocks planar() { // 2.5D: in the z = const plane, turning about z only
    MotionLocks l;
    l.linearZ = l.angularX = l.angularY = true;
    return l;
}

MotionLocks noRotation() {
    MotionLocks l;
    l.angularX = l.angularY = l.angularZ = true;
    return l;
}

void useSolver(World& w, bool resolver) {
    if (resolver) testing::useResolver(w);
}

} // namespace

TEST_CASE("a box that may not turn takes an off-centre hit as a point mass: v' = 2 m_b v / (m_a + m_b)", "[physics][scene]") {
    for (const bool resolver : {false, true}) {
        INFO((resolver ? "resolver" : "soft step"));
        World w = testing::worldWithoutGravity();
        useSolver(w, resolver);
        BodyDesc box;
        box.colliders.push_back(makeCollider(Box{Vec3(0.5, 0.5, 0.5)}, 8)); // 8 kg
        box.locks = noRotation();
        box.canSleep = false;
        const BodyId a = w.createBody(box);
        BodyDesc ball;
        ball.position = Vec3(-2, 0, real(0.35)); // 35 cm off the box's centre
        ball.linearVelocity = Vec3(3, 0, 0);
        ball.canSleep = false;
        ball.colliders.push_back(makeCollider(Sphere{real(0.2)}, 2 / (real(4) / 3 * real(3.14159265358979) * real(0.008)),
                                              {.restitution = 1}));
        const BodyId b = w.createBody(ball);
        box.colliders[0].material.restitution = 1;
        const real ma = w.body(a).mass, mb = w.body(b).mass;
        for (int i = 0; i < 60; ++i) w.step(lockStep);
        const BodyState sa = w.body(a), sb = w.body(b);
        INFO("box " << sa.linearVelocity.transpose() << ", ball " << sb.linearVelocity.transpose());
        CHECK(sa.angularVelocity.norm() == 0);
        CHECK(sa.orientation.coeffs() == Quat::Identity().coeffs());
        // Momentum is kept whatever the bounce; with e = 1 the 1D elastic answer.
        CHECK((ma * sa.linearVelocity + mb * sb.linearVelocity - mb * Vec3(3, 0, 0)).norm() <= testing::tol(1e-9, 1e-4));
        CHECK(sa.linearVelocity.x() == Approx(2 * mb * 3 / (ma + mb)).epsilon(0.03));
        CHECK(sb.linearVelocity.x() == Approx((mb - ma) * 3 / (ma + mb)).epsilon(0.05));
    }
}

TEST_CASE("boxes locked to a plane tumble down a pile and stay in it bit for bit", "[physics][scene]") {
    for (const bool resolver : {false, true}) {
        INFO((resolver ? "resolver" : "soft step"));
        World w;
        useSolver(w, resolver);
        testing::addGround(w);
        BodyDesc ramp;
        ramp.type = BodyType::Static;
        ramp.position = Vec3(0, 1, 0);
        ramp.orientation = Quat(Eigen::AngleAxis<real>(real(0.4), Vec3(1, 0, 1).normalized()));
        ramp.colliders.push_back(makeCollider(Box{Vec3(2, 0.2, 2)}, 1000));
        w.createBody(ramp);
        std::vector<BodyId> boxes;
        std::vector<real> planes;
        testing::Lcg rng(5);
        for (int k = 0; k < 12; ++k) {
            BodyDesc d;
            d.position = Vec3(rng.uniform() * 2, 3 + real(0.6) * real(k), rng.uniform());
            d.orientation = Quat(Eigen::AngleAxis<real>(rng.uniform() * 3, Vec3::UnitZ()));
            d.angularVelocity = Vec3(rng.uniform(), rng.uniform(), rng.uniform()) * 4; // the locked parts are dropped
            d.locks = planar();
            d.colliders.push_back(makeCollider(Box{Vec3(0.25, 0.2, 0.3)}, 400, {.restitution = real(0.6)})); // bounces: the resolver's gap correction too
            boxes.push_back(w.createBody(d));
            planes.push_back(w.body(boxes.back()).position.z());
        }
        bool inPlane = true, turnsAboutZ = true;
        real slid = 0;
        for (int i = 0; i < 240; ++i) {
            w.step(lockStep);
            for (std::size_t k = 0; k < boxes.size(); ++k) {
                const BodyState s = w.body(boxes[k]);
                inPlane = inPlane && s.position.z() == planes[k] && s.linearVelocity.z() == 0;
                turnsAboutZ = turnsAboutZ && s.orientation.x() == 0 && s.orientation.y() == 0 && s.angularVelocity.x() == 0 &&
                              s.angularVelocity.y() == 0;
                slid = std::max(slid, std::abs(s.position.x()));
            }
        }
        CHECK(inPlane);
        CHECK(turnsAboutZ);
        CHECK(slid > 1); // they did tumble off the ramp
        for (const BodyId id : boxes) CHECK(w.body(id).position.y() > 0); // nothing through the floor
    }
}

TEST_CASE("a capsule locked upright stands on a slope its unlocked twin falls over on", "[physics][scene]") {
    const auto tilt = [](bool locked) {
        World w;
        BodyDesc slope;
        slope.type = BodyType::Static;
        slope.orientation = Quat(Eigen::AngleAxis<real>(real(0.35), Vec3::UnitZ()));
        slope.colliders.push_back(makeCollider(Box{Vec3(6, 0.5, 6)}, 1000, {.friction = real(0.9)}));
        w.createBody(slope);
        BodyDesc d;
        d.position = Vec3(0, real(1.6), 0);
        d.canSleep = false;
        if (locked) d.locks.angularX = d.locks.angularZ = true;
        d.colliders.push_back(makeCollider(Capsule{real(0.3), real(0.6)}, 800, {.friction = real(0.9)}));
        const BodyId id = w.createBody(d);
        for (int i = 0; i < 180; ++i) w.step(lockStep);
        return (w.body(id).orientation * Vec3::UnitY()).y(); // 1: upright
    };
    CHECK(tilt(true) == 1);
    CHECK(tilt(false) < real(0.5));
}

TEST_CASE("motion locks: setMotionLocks, snapshots and scene files, bad calls", "[physics]") {
    World w;
    testing::addGround(w);
    BodyDesc d;
    d.position = Vec3(0, 2, 0);
    d.linearVelocity = Vec3(1, 0, 2);
    d.angularVelocity = Vec3(1, 2, 3);
    d.colliders.push_back(makeCollider(Box{Vec3::Constant(real(0.3))}, 500));
    const BodyId id = w.createBody(d);
    w.setMotionLocks(id, planar());
    CHECK(w.body(id).locks == planar());
    CHECK(w.body(id).linearVelocity == Vec3(1, 0, 0));
    CHECK(w.body(id).angularVelocity == Vec3(0, 0, 3));
    w.setAngularVelocity(id, Vec3(5, 5, 5));
    CHECK(w.body(id).angularVelocity == Vec3(0, 0, 5));
    for (int i = 0; i < 20; ++i) w.step(lockStep);
    CHECK(testing::stepsAsItsSnapshot(w, 30, lockStep));
    LoadedScene loaded = loadScene(exportScene(w));
    REQUIRE(loaded.world.bodyIds().size() == 2);
    CHECK(loaded.world.body(loaded.world.bodyIds()[1]).locks == planar());
    const auto hash = testing::stateHash(w);
    testing::expectError([&] { w.setMotionLocks(w.bodyIds()[0], planar()); }, "setMotionLocks.id"); // the static ground
    testing::expectError([&] { w.setMotionLocks(BodyId{}, planar()); }, "setMotionLocks.id");
    CHECK(testing::stateHash(w) == hash);
    // A static body's locks are dropped at creation (they mean nothing there).
    BodyDesc wall;
    wall.type = BodyType::Static;
    wall.locks = planar();
    wall.colliders.push_back(makeCollider(Box{}, 1000));
    CHECK(w.body(w.createBody(wall)).locks == MotionLocks{});
}

TEST_CASE("a body locked to a plane on a slider keeps its orientation (the lock solved about its free axis)", "[physics][contact]") {
    // Locked to turn about z only, the slider's orientation lock against the world has a
    // singular response (I^-1 of rank 1): it is solved about z instead of given up.
    World w = testing::worldWithoutGravity();
    BodyDesc d;
    d.position = Vec3(0, 2, 0);
    d.colliders.push_back(makeCollider(Box{Vec3(0.3, 0.2, 0.2)}, 500));
    d.angularVelocity = Vec3(0, 0, 2);
    d.linearVelocity = Vec3(1, 0, 0);
    d.locks = planar();
    d.canSleep = false;
    const BodyId box = w.createBody(d);
    JointDesc j;
    j.type = JointType::Slider;
    j.a = {box, Vec3::Zero()};
    j.b = {BodyId{}, Vec3(0, 2, 0)};
    j.axisA = j.axisB = Vec3::UnitX();
    w.createJoint(j);
    for (int i = 0; i < 60; ++i) w.step(lockStep);
    const BodyState s = w.body(box);
    const real turned = 2 * std::acos(std::min(real(1), std::abs(s.orientation.w())));
    INFO("turned " << turned << " rad, at " << s.position.transpose());
    CHECK(turned < real(0.01));
    CHECK(s.position.x() > real(0.9)); // slid along its axis
}

TEST_CASE("a combined friction stays within maxRate whatever the rule", "[physics]") {
    CHECK(combineFriction(2000, CombineRule::Multiply, 1000, CombineRule::Default) == real(1e6));
    CHECK(combineFriction(real(0.5), CombineRule::Multiply, real(0.4), CombineRule::Default) == Approx(0.2));
}
