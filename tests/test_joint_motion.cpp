// SPDX-License-Identifier: MIT
// A hinge's motion (JointMotion: limits, motor, spring, friction), rows of the soft
// step (contact/soft_angles.cpp). Figures: the limit held within a degree under a load
// swung into it, a motor's speed and its stall at the torque balance, a spring's period
// 1 / f and no overshoot at critical damping, friction's holding torque; bad input.

#include "expect_error.hpp"
#include "helpers.hpp"

#include "scenes/scene.hpp"

#include <jounce/io/scene_file.hpp>
#include <jounce/world/world.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <numbers>

using namespace jounce;
using testing::expectError;
using testing::limitedTo;

namespace {

constexpr real pi = std::numbers::pi_v<real>;
constexpr real degree = pi / 180;
constexpr real h = real(1) / 60;

/// A 1 m arm along +x from a pivot at (0, 2, 0): a light rod (1 kg) with a 10 kg weight
/// at its far end, its mass and inertia given (no colliders: nothing to hit). Its centre
/// of mass lies 0.955 m out.
BodyId armAt(World& w, real weight = 10, real damping = 0) {
    BodyDesc d;
    const real rod = 1;
    const real mass = rod + weight;
    const real out = (rod * real(0.5) + weight * 1) / mass; // centre of mass from the pivot
    d.position = Vec3(out, 2, 0);
    d.mass = mass;
    // About the centre: the rod's m L^2 / 12 and both parts' offsets (parallel axes);
    // the weight a 0.1 m ball (2/5 m r^2).
    const real about = rod / 12 + rod * (out - real(0.5)) * (out - real(0.5)) + weight * (1 - out) * (1 - out) +
                       weight * real(0.004);
    d.inertia = Vec3(weight * real(0.004) + real(0.001), about, about).asDiagonal();
    d.massFromColliders = false;
    d.canSleep = false;
    d.linearDamping = d.angularDamping = damping;
    return w.createBody(d);
}

/// A hinge about z through the pivot (0, 2, 0), joining `arm` (its centre `out` from
/// the pivot) to the world.
JointId hingeArm(World& w, BodyId arm, const JointMotion& motion) {
    JointDesc j;
    j.type = JointType::Hinge;
    const real out = w.body(arm).position.x();
    j.a = {arm, Vec3(-out, 0, 0)};
    j.b = {BodyId{}, Vec3(0, 2, 0)};
    j.axisA = j.axisB = Vec3::UnitZ();
    j.span = real(0.1);
    j.motion = motion;
    return w.createJoint(j);
}


World weightless() {
    WorldSettings s;
    s.gravity.setZero();
    return World(s);
}

/// A 2 kg bar at (0, 2, 0) of diagonal inertia `inertia`, turned `turn` about z, no
/// colliders, awake for good: what the springs below swing about its centre.
BodyId barAt(World& w, const Vec3& inertia, real turn) {
    BodyDesc d;
    d.position = Vec3(0, 2, 0);
    d.mass = 2;
    d.inertia = inertia.asDiagonal();
    d.massFromColliders = false;
    d.canSleep = false;
    d.orientation = Quat(Eigen::AngleAxis<real>(turn, Vec3::UnitZ()));
    return w.createBody(d);
}

/// The period of an oscillation sampled every step (h), from its downward zero
/// crossings, interpolated (0 when there are fewer than two).
real periodOf(const std::vector<real>& x) {
    std::vector<real> crossings;
    for (std::size_t i = 1; i < x.size(); ++i)
        if (x[i - 1] > 0 && x[i] <= 0) crossings.push_back(h * (static_cast<real>(i) + x[i - 1] / (x[i - 1] - x[i])));
    if (crossings.size() < 2) return 0;
    return (crossings.back() - crossings.front()) / static_cast<real>(crossings.size() - 1);
}

} // namespace

TEST_CASE("a hinge limit at +-45 degrees holds a 10 kg arm within a degree, falling and flung into it", "[physics][contact]") {
    // Flung at 5 rad/s (the weight at 5 m/s); at 10 rad/s it goes 1.4 degrees past
    // (docs/joints.md).
    const JointMotion limits = limitedTo(-45 * degree, 45 * degree);
    // Falling from level under gravity onto the lower limit; flung up into the upper.
    for (const real spin : {real(0), real(5)}) {
        World w;
        const BodyId arm = armAt(w);
        const JointId hinge = hingeArm(w, arm, limits);
        if (spin != 0) {
            const real out = w.body(arm).position.x();
            w.setAngularVelocity(arm, Vec3(0, 0, spin));
            w.setLinearVelocity(arm, Vec3(0, out * spin, 0));
        }
        real lowest = 0, highest = 0;
        for (int i = 0; i < 180; ++i) {
            w.step(h);
            lowest = std::min(lowest, w.jointAngle(hinge));
            highest = std::max(highest, w.jointAngle(hinge));
        }
        const real end = w.jointAngle(hinge);
        INFO("spin " << spin << " rad/s: angle in [" << lowest / degree << ", " << highest / degree << "] degrees, ends at "
                     << end / degree << ", torque " << w.jointTorque(hinge) << " N m");
        CHECK(lowest > -46 * degree);
        CHECK(highest < 46 * degree);
        // Both come to rest on the lower limit, the limit carrying the weight: m g d.
        CHECK(end == Approx(-45 * degree).margin(degree));
        const real lever = w.body(arm).position.x();
        CHECK(w.jointTorque(hinge) == Approx(11 * real(9.81) * lever).epsilon(0.02));
        if (spin != 0) CHECK(highest > 44 * degree); // it did reach the upper limit
    }
}

TEST_CASE("a hinge motor reaches its speed with torque to spare and stalls at the torque balance without", "[physics][contact]") {
    SECTION("2 rad/s about a vertical axis reached within 2 %") {
        WorldSettings s;
        s.gravity.setZero();
        World w(s);
        const BodyId arm = armAt(w);
        JointMotion m;
        m.motor = true;
        m.motorSpeed = 2;
        m.maxMotorForce = 500;
        hingeArm(w, arm, m);
        real worst = 0;
        for (int i = 0; i < 120; ++i) {
            w.step(h);
            if (i >= 30) worst = std::max(worst, std::abs(w.body(arm).angularVelocity.z() - 2));
        }
        INFO("spin after 0.5 s off 2 rad/s by up to " << worst << " rad/s");
        CHECK(worst < real(0.04));
    }
    SECTION("lifting the arm with less torque than m g d holds it where m g x = the torque") {
        // An undriven arm would hang straight down; the motor, asking 2 rad/s up with
        // 60 N m (less than the level arm's 103 N m), pushes its full torque and holds
        // the arm where gravity's lever x from the pivot balances it: m g x = 60 N m.
        World w;
        const BodyId arm = armAt(w, 10, 3); // damping settles the swing about the balance
        JointMotion m;
        m.motor = true;
        m.motorSpeed = 2;
        m.maxMotorForce = 60;
        const JointId hinge = hingeArm(w, arm, m);
        for (int i = 0; i < 60 * 8; ++i) w.step(h);
        const real lever = w.body(arm).position.x();
        const real expected = 60 / (11 * real(9.81));
        INFO("centre of mass " << lever << " m out (expected " << expected << " m), angle " << w.jointAngle(hinge) / degree
                               << " degrees, motor torque " << w.jointTorque(hinge) << " N m");
        CHECK(lever == Approx(expected).epsilon(0.02));
        CHECK(w.jointTorque(hinge) == Approx(60).epsilon(0.01));
        CHECK(std::abs(w.body(arm).angularVelocity.z()) < real(0.01)); // stalled
    }
}

TEST_CASE("a hinge spring swings with period 1 / f, and critically damped it does not overshoot", "[physics][contact]") {
    // A bar turning about a vertical axis through its centre of mass, no gravity: the
    // spring's stiffness is I (2 pi f)^2 for the bar's inertia I about the axis.
    const auto run = [](real dampingRatio, std::vector<real>& angles) {
        World w = weightless();
        const BodyId bar = barAt(w, Vec3(real(0.01), real(0.2), real(0.2)), real(0.5)); // 0.5 rad from the spring's angle
        JointDesc j;
        j.type = JointType::Hinge;
        j.a = {bar, Vec3::Zero()};
        j.b = {BodyId{}, Vec3(0, 2, 0)};
        j.normalA = Vec3::UnitX();
        j.normalB = Vec3::UnitX(); // the angle's zero is the world's pose: the bar starts at 0.5 rad
        j.span = real(0.1);
        j.motion.springHertz = 1;
        j.motion.springDampingRatio = dampingRatio;
        const JointId hinge = w.createJoint(j);
        REQUIRE(w.jointAngle(hinge) == Approx(0.5).margin(1e-6));
        angles.clear();
        for (int i = 0; i < 60 * 4; ++i) {
            w.step(h);
            angles.push_back(w.jointAngle(hinge));
        }
    };
    std::vector<real> angles;
    run(0, angles);
    const real period = periodOf(angles);
    INFO("period " << period << " s (1 s expected)");
    CHECK(period == Approx(1).epsilon(0.02));
    run(1, angles);
    const real lowest = *std::min_element(angles.begin(), angles.end());
    INFO("critically damped: lowest angle " << lowest << " rad, last " << angles.back() << " rad");
    CHECK(lowest > -real(0.005)); // no overshoot past the spring's angle
    CHECK(angles.back() < real(0.01)); // and it got there
}

TEST_CASE("a hinge's spring taken away carries nothing on: the arm it held falls and the hinge reports no torque", "[physics][contact]") {
    World w;
    const BodyId arm = armAt(w);
    JointMotion spring;
    spring.springStiffness = 2000; // holds the level arm's 103 N m within 3 degrees
    spring.springDamping = 200;
    const JointId hinge = hingeArm(w, arm, spring);
    for (int i = 0; i < 120; ++i) w.step(h);
    INFO("held at " << w.jointAngle(hinge) / degree << " degrees by " << w.jointTorque(hinge) << " N m");
    REQUIRE(std::abs(w.jointTorque(hinge)) > 90);
    w.setJointMotion(hinge, limitedTo(-pi / 2, pi / 2)); // limits only, far from where it is
    w.step(h);
    INFO("the step after: " << w.jointTorque(hinge) << " N m, falling at " << w.body(arm).angularVelocity.z() << " rad/s");
    CHECK(w.jointTorque(hinge) == 0);
    CHECK(w.body(arm).angularVelocity.z() < real(-0.1)); // falling: nothing holds it up
}

TEST_CASE("hinge friction holds an arm it can hold and slows one it cannot", "[physics][contact]") {
    // The level arm needs m g d = 11 kg * 9.81 * 0.955 m = 103 N m.
    for (const real friction : {real(150), real(50)}) {
        World w;
        const BodyId arm = armAt(w);
        JointMotion m;
        m.friction = friction;
        const JointId hinge = hingeArm(w, arm, m);
        for (int i = 0; i < 60; ++i) w.step(h);
        const real angle = w.jointAngle(hinge);
        INFO("friction " << friction << " N m: angle after 1 s " << angle / degree << " degrees");
        if (friction > 103) CHECK(std::abs(angle) < real(0.2) * degree);
        else CHECK(angle < -20 * degree);
    }
}

TEST_CASE("setJointMotion turns a motor on and wakes the arm, and bad motions are rejected with nothing changed", "[physics][contact]") {
    World w;
    const BodyId arm = armAt(w);
    const JointId hinge = hingeArm(w, arm, {});
    BodyDesc ballDesc;
    ballDesc.position = Vec3(5, 2, 0);
    const BodyId ball = w.createBody(ballDesc);
    JointDesc ballJoint;
    ballJoint.a = {ball, Vec3::Zero()};
    ballJoint.b = {BodyId{}, Vec3(5, 3, 0)};
    const JointId other = w.createJoint(ballJoint);
    const std::uint64_t before = testing::stateHash(w);
    const auto rejects = [&](const std::string& field, auto change) {
        JointMotion m;
        change(m);
        expectError([&] { w.setJointMotion(hinge, m); }, field);
        // createJoint checks the same, with its own name.
        JointDesc d;
        d.type = JointType::Hinge;
        d.a = {arm, Vec3::Zero()};
        d.motion = m;
        expectError([&] { w.createJoint(d); }, "createJoint" + field.substr(std::string("setJointMotion").size()));
        CHECK(testing::stateHash(w) == before);
    };
    const real nan = std::numeric_limits<real>::quiet_NaN(), inf = std::numeric_limits<real>::infinity();
    rejects("setJointMotion.motion.lower", [](JointMotion& m) { m.limited = true; m.lower = 1; m.upper = -1; });
    rejects("setJointMotion.motion.upper", [&](JointMotion& m) { m.upper = nan; });
    rejects("setJointMotion.motion.lower", [](JointMotion& m) { m.lower = -4; });
    rejects("setJointMotion.motion.springHertz", [&](JointMotion& m) { m.springHertz = nan; });
    rejects("setJointMotion.motion.springDampingRatio", [](JointMotion& m) { m.springDampingRatio = -1; });
    rejects("setJointMotion.motion.maxMotorForce", [](JointMotion& m) { m.maxMotorForce = -5; });
    rejects("setJointMotion.motion.maxMotorForce", [&](JointMotion& m) { m.maxMotorForce = inf; });
    rejects("setJointMotion.motion.motorSpeed", [&](JointMotion& m) { m.motorSpeed = inf; });
    rejects("setJointMotion.motion.friction", [&](JointMotion& m) { m.friction = nan; });
    rejects("setJointMotion.motion.springTarget", [](JointMotion& m) { m.springTarget = 7; });
    JointMotion motor;
    motor.motor = true;
    expectError([&] { w.setJointMotion(other, motor); }, "setJointMotion.id");
    JointDesc ballWithMotion = ballJoint;
    ballWithMotion.motion = motor;
    expectError([&] { w.createJoint(ballWithMotion); }, "createJoint.motion");
    JointDesc along;
    along.type = JointType::Hinge;
    along.a = {arm, Vec3::Zero()};
    along.normalA = Vec3::UnitZ(); // along the axis: no angle to measure from
    along.normalB = Vec3::UnitX();
    expectError([&] { w.createJoint(along); }, "createJoint.normalA");
    along.normalA = Vec3::UnitX();
    along.normalB = Vec3::Zero(); // one given, not the other
    expectError([&] { w.createJoint(along); }, "createJoint.normalB");
    CHECK(testing::stateHash(w) == before);
    w.destroyJoint(other);
    expectError([&] { w.setJointMotion(other, motor); }, "setJointMotion.id");
    // A good motion takes effect and wakes the arm.
    w.setAwake(arm, false);
    motor.motorSpeed = 1;
    motor.maxMotorForce = 1000;
    w.setJointMotion(hinge, motor);
    CHECK(w.body(arm).awake);
    CHECK(w.joint(hinge).desc.motion.motorSpeed == 1);
    for (int i = 0; i < 30; ++i) w.step(h);
    CHECK(w.body(arm).angularVelocity.z() == Approx(1).margin(0.05));
}

TEST_CASE("a hinge's motion and angle zero survive a snapshot and a scene file, stepping bit-identically", "[physics][contact][scene]") {
    World w;
    const BodyId arm = armAt(w);
    JointMotion m;
    m.limited = true;
    m.lower = -30 * degree;
    m.upper = 60 * degree;
    m.motor = true;
    m.motorSpeed = -1;
    m.maxMotorForce = 40;
    m.springHertz = real(0.5);
    m.springDampingRatio = real(0.3);
    m.friction = 2;
    const JointId hinge = hingeArm(w, arm, m);
    for (int i = 0; i < 20; ++i) w.step(h);
    World copy;
    copy.restoreState(w.saveState());
    for (int i = 0; i < 60; ++i) {
        w.step(h);
        copy.step(h);
    }
    CHECK(testing::stateHash(copy) == testing::stateHash(w));
    // A scene file keeps the motion and where the angle is 0 (the normals createJoint took).
    LoadedScene loaded = loadScene(exportScene(w));
    REQUIRE(loaded.objects.joints.size() == 1);
    const Joint& j = loaded.world.joint(loaded.objects.joints[0]);
    CHECK(j.desc.motion.upper == m.upper);
    CHECK(j.desc.motion.springHertz == m.springHertz);
    CHECK(loaded.world.jointAngle(loaded.objects.joints[0]) == Approx(w.jointAngle(hinge)).margin(1e-6));
}

TEST_CASE("the hinges scene: the door swings to its limit, the drawbridge rises to 80 degrees, the tail stays in its limits", "[physics][contact][scene]") {
    const std::unique_ptr<scenes::Scene> scene = scenes::makeScene("hinges");
    World& w = scene->world();
    std::vector<JointId> hinges = w.jointIds();
    REQUIRE(hinges.size() == 12);
    const JointId door = hinges[0], bridge = hinges[1];
    for (int i = 0; i < 60; ++i) scene->step();
    // Resting: the drawbridge on its lower limit (0), the door closed.
    CHECK(std::abs(w.jointAngle(bridge)) < degree);
    CHECK(std::abs(w.jointAngle(door)) < degree);
    scene->act(0);
    scene->act(1);
    real doorMost = 0, bridgeMost = 0, tailMost = 0;
    for (int i = 0; i < 60 * 6; ++i) {
        scene->step();
        doorMost = std::max(doorMost, w.jointAngle(door));
        bridgeMost = std::max(bridgeMost, w.jointAngle(bridge));
        for (std::size_t k = 2; k < hinges.size(); ++k) tailMost = std::max(tailMost, std::abs(w.jointAngle(hinges[k])));
    }
    INFO("door " << w.jointAngle(door) / degree << " degrees (most " << doorMost / degree << "), drawbridge "
                 << w.jointAngle(bridge) / degree << " (most " << bridgeMost / degree << "), tail most " << tailMost / degree);
    CHECK(w.jointAngle(door) == Approx(100 * degree).margin(degree));
    CHECK(doorMost < 101 * degree);
    CHECK(w.jointAngle(bridge) == Approx(80 * degree).margin(degree));
    CHECK(bridgeMost < 81 * degree);
    CHECK(tailMost < 26 * degree);
}

namespace {

/// A 1 kg box (0.2 m) on a slider along x through the world point (0, 2, 0): its
/// anchor `anchor` (body frame) rides the axis. Gravity as `s` says.
struct SliderRig {
    World w;
    BodyId box;
    JointId slider;
    SliderRig(const WorldSettings& s, const JointMotion& motion, real start, const Vec3& anchor = Vec3::Zero())
        : w(s) {
        BodyDesc d;
        d.position = Vec3(start, 2, 0) - anchor;
        d.mass = 1;
        d.inertia = Mat3::Identity() * (real(0.2) * real(0.2) / 6);
        d.massFromColliders = false;
        d.canSleep = false;
        box = w.createBody(d);
        JointDesc j;
        j.type = JointType::Slider;
        j.a = {box, anchor};
        j.b = {BodyId{}, Vec3(0, 2, 0)};
        j.axisA = j.axisB = Vec3::UnitX();
        j.motion = motion;
        slider = w.createJoint(j);
    }
};

real turnOf(const Quat& q) { return 2 * std::acos(std::min(real(1), std::abs(q.w()))); }

} // namespace

TEST_CASE("a slider's spring: 1 kg on 10 N/m swings with period 2 pi sqrt(m/k), critically damped without overshoot", "[physics][contact]") {
    // k = m (2 pi f)^2: 10 N/m on 1 kg is f = sqrt(10) / (2 pi) Hz.
    const real k = 10, m = 1;
    const auto run = [&](real dampingRatio, std::vector<real>& offsets) {
        JointMotion spring;
        spring.springHertz = std::sqrt(k / m) / (2 * pi);
        spring.springDampingRatio = dampingRatio;
        SliderRig rig(WorldSettings{}, spring, real(0.2)); // gravity across the axis: the contacts carry it
        REQUIRE(rig.w.jointTranslation(rig.slider) == Approx(0.2).margin(1e-9));
        offsets.clear();
        real worstAcross = 0, worstTurn = 0;
        for (int i = 0; i < 60 * 6; ++i) {
            rig.w.step(h);
            offsets.push_back(rig.w.jointTranslation(rig.slider));
            const BodyState b = rig.w.body(rig.box);
            worstAcross = std::max(worstAcross, std::hypot(b.position.y() - 2, b.position.z()));
            worstTurn = std::max(worstTurn, turnOf(b.orientation));
        }
        INFO("off the axis by up to " << worstAcross << " m, turned up to " << worstTurn << " rad");
        CHECK(worstAcross < real(0.005));
        CHECK(worstTurn < real(0.002));
    };
    std::vector<real> offsets;
    run(0, offsets);
    const real period = periodOf(offsets);
    const real expected = 2 * pi * std::sqrt(m / k);
    INFO("period " << period << " s, expected " << expected << " s");
    CHECK(period == Approx(expected).epsilon(0.02));
    run(1, offsets);
    const real lowest = *std::min_element(offsets.begin(), offsets.end());
    INFO("critically damped: lowest " << lowest << " m, last " << offsets.back() << " m");
    CHECK(lowest > -real(0.001));
    CHECK(std::abs(offsets.back()) < real(0.002));
}

TEST_CASE("a slider's spring given as a stiffness: 1 kg on 10 N/m swings with period 2 pi sqrt(m/k), c = 2 sqrt(k m) without overshoot", "[physics][contact]") {
    // Jolt's StiffnessAndDamping mode: k and c themselves, whatever the masses.
    const real k = 10, m = 1;
    const auto run = [&](real damping) {
        JointMotion spring;
        spring.springStiffness = k;
        spring.springDamping = damping;
        SliderRig rig(WorldSettings{}, spring, real(0.2));
        std::vector<real> offsets;
        for (int i = 0; i < 60 * 6; ++i) {
            rig.w.step(h);
            offsets.push_back(rig.w.jointTranslation(rig.slider));
        }
        return offsets;
    };
    const real period = periodOf(run(0));
    const real expected = 2 * pi * std::sqrt(m / k);
    INFO("period " << period << " s, expected " << expected << " s");
    CHECK(period == Approx(expected).epsilon(0.02));
    const std::vector<real> critical = run(2 * std::sqrt(k * m));
    const real lowest = *std::min_element(critical.begin(), critical.end());
    INFO("critically damped: lowest " << lowest << " m, last " << critical.back() << " m");
    CHECK(lowest > -real(0.001));
    CHECK(std::abs(critical.back()) < real(0.002));
    // Both forms at once is an error naming the field.
    JointMotion both;
    both.springStiffness = k;
    both.springHertz = 1;
    SliderRig rig(WorldSettings{}, JointMotion{}, 0);
    testing::expectError([&] { rig.w.setJointMotion(rig.slider, both); }, "setJointMotion.motion.springStiffness");
    both.springHertz = 0;
    both.springStiffness = -1;
    testing::expectError([&] { rig.w.setJointMotion(rig.slider, both); }, "setJointMotion.motion.springStiffness");
    both.springStiffness = 1;
    both.springDamping = std::numeric_limits<real>::quiet_NaN();
    testing::expectError([&] { rig.w.setJointMotion(rig.slider, both); }, "setJointMotion.motion.springDamping");
    // A damping its form does not use: c without k, or a ratio beside k.
    both = JointMotion{};
    both.springDamping = 1;
    testing::expectError([&] { rig.w.setJointMotion(rig.slider, both); }, "setJointMotion.motion.springDamping");
    both.springStiffness = 1;
    both.springDampingRatio = 1;
    testing::expectError([&] { rig.w.setJointMotion(rig.slider, both); }, "setJointMotion.motion.springDampingRatio");
}

TEST_CASE("a slider's motor drives it at its speed into its limit, which holds, and its lock holds a load off the axis", "[physics][contact]") {
    JointMotion m;
    m.limited = true;
    m.lower = real(-0.3);
    m.upper = real(0.5);
    m.motor = true;
    m.motorSpeed = 1;
    m.maxMotorForce = 50;
    // The anchor 0.3 m off the box's centre across the axis: its weight turns it about x
    // unless the orientation lock holds it.
    SliderRig rig(WorldSettings{}, m, 0, Vec3(0, 0, real(0.3)));
    real most = 0, worstTurn = 0, speedAt = 0;
    for (int i = 0; i < 90; ++i) {
        rig.w.step(h);
        if (i == 20) speedAt = rig.w.body(rig.box).linearVelocity.x();
        most = std::max(most, rig.w.jointTranslation(rig.slider));
        worstTurn = std::max(worstTurn, turnOf(rig.w.body(rig.box).orientation));
    }
    INFO("speed " << speedAt << " m/s, furthest " << most << " m, ends at " << rig.w.jointTranslation(rig.slider)
                  << " m, turned up to " << worstTurn << " rad, force " << rig.w.jointTorque(rig.slider) << " N");
    CHECK(speedAt == Approx(1).epsilon(0.02));
    CHECK(most < real(0.51));
    CHECK(rig.w.jointTranslation(rig.slider) == Approx(0.5).margin(0.01));
    // The lock is soft as joints are (60 Hz on the box's own inertia): 0.67 degrees
    // under the 2.9 N m its weight puts about the anchor.
    CHECK(worstTurn < real(0.015));
    // At rest on the limit the motor pushes with all it has and the limit takes it: 0 net.
    CHECK(std::abs(rig.w.jointTorque(rig.slider)) < 1);
    // Bad input: a slider's limits are lengths (within maxCoordinate), not angles.
    JointMotion far = m;
    far.upper = real(2e6);
    expectError([&] { rig.w.setJointMotion(rig.slider, far); }, "setJointMotion.motion.upper");
    expectError([&] { static_cast<void>(rig.w.jointAngle(rig.slider)); }, "jointAngle.id");
    // A scene file keeps it a slider, with its motion.
    LoadedScene loaded = loadScene(exportScene(rig.w));
    REQUIRE(loaded.objects.joints.size() == 1);
    CHECK(loaded.world.joint(loaded.objects.joints[0]).desc.type == JointType::Slider);
    CHECK(loaded.world.jointTranslation(loaded.objects.joints[0]) == Approx(rig.w.jointTranslation(rig.slider)).margin(1e-6));
}

TEST_CASE("a chain of 20 limited hinge links holds a 100:1 end load, hanging and swung from 30 degrees", "[physics][contact][scene]") {
    // 1 kg links 0.2 m long on hinges about z kept within +-60 degrees, a 100 kg block
    // at the end: the links' points are solved as one system and the limits as rows.
    const auto build = [](World& w, real tilt) {
        const Vec3 anchor(0, 6, 0);
        const Quat turn(Eigen::AngleAxis<real>(tilt, Vec3::UnitZ()));
        const Vec3 down = turn * Vec3(0, -1, 0);
        const JointMotion limits = limitedTo(-60 * degree, 60 * degree);
        BodyId above{};
        const auto link = [&](real along, const Vec3& half, real mass) {
            BodyDesc d;
            d.position = anchor + down * along;
            d.orientation = turn;
            d.canSleep = false;
            ColliderDesc c = testing::boxCollider(half);
            c.density = mass / (8 * half.x() * half.y() * half.z());
            d.colliders.push_back(c);
            const BodyId b = w.createBody(d);
            JointDesc j;
            j.type = JointType::Hinge;
            j.a = {b, Vec3(0, half.y(), 0)};
            j.b = above.isNull() ? Attachment{BodyId{}, anchor} : Attachment{above, Vec3(0, real(-0.1), 0)};
            j.axisA = j.axisB = Vec3::UnitZ();
            j.span = real(0.05);
            j.motion = limits;
            w.createJoint(j);
            above = b;
            return b;
        };
        for (int i = 0; i < 20; ++i) link(real(0.2) * (real(i) + real(0.5)), Vec3(real(0.02), real(0.1), real(0.02)), 1);
        return link(real(4.2), Vec3::Constant(real(0.2)), 100);
    };
    const int steps = 600 / testing::sanitizedStepDivisor;
    {
        World w;
        const BodyId load = build(w, 0);
        for (int i = 0; i < steps; ++i) w.step(h);
        const real stretch = (w.body(load).centerOfMass - Vec3(0, 6, 0)).norm() - real(4.2);
        INFO("stretch " << stretch << " m, worst gap " << testing::worstJointGap(w) << " m");
        CHECK(stretch < real(0.01));
        CHECK(testing::worstJointGap(w) < real(0.001));
    }
    {
        World w;
        build(w, 30 * degree);
        real worst = 0, widest = 0;
        for (int i = 0; i < steps; ++i) {
            w.step(h);
            worst = std::max(worst, testing::worstJointGap(w));
            for (const JointId id : w.jointIds()) widest = std::max(widest, std::abs(w.jointAngle(id)));
        }
        INFO("swung: worst gap " << worst << " m, widest hinge " << widest / degree << " degrees");
        CHECK(worst < real(0.05));
        CHECK(widest < 62 * degree);
    }
}

namespace {

/// A 1 kg rod 1 m long hanging from (0, 3, 0) on a swing-twist joint whose twist axes
/// run down the rod, with a cone of `cone` and `motion` on the twist; spun as `spin`.
struct ShoulderRig {
    World w;
    BodyId rod;
    JointId joint;
    ShoulderRig(real cone, const JointMotion& motion, const Vec3& spin) {
        BodyDesc d;
        d.position = Vec3(0, real(2.5), 0);
        d.mass = 1;
        d.inertia = Vec3(real(1) / 12, real(0.001), real(1) / 12).asDiagonal();
        d.massFromColliders = false;
        d.canSleep = false;
        d.angularVelocity = spin;
        d.linearVelocity = spin.cross(Vec3(0, real(-0.5), 0)); // turning about the joint
        rod = w.createBody(d);
        JointDesc j;
        j.type = JointType::SwingTwist;
        j.a = {rod, Vec3(0, real(0.5), 0)};
        j.b = {BodyId{}, Vec3(0, 3, 0)};
        j.axisA = j.axisB = -Vec3::UnitY();
        j.swingLimit = cone;
        j.motion = motion;
        joint = w.createJoint(j);
    }
    real swing() const { return std::acos(std::clamp((w.body(rod).orientation * Vec3::UnitY()).y(), real(-1), real(1))); }
};

} // namespace

TEST_CASE("a swing-twist joint's swing drive holds a rod out where k theta = m g d cos theta, and swings a bar with period 1 / f",
          "[physics][contact]") {
    {
        // The 1 kg rod 1 m long hanging from its top, driven toward the horizontal (+x)
        // by a stiffness of 50 N m/rad: it rests where the drive's torque k theta carries
        // the weight's moment m g d cos theta (d = 0.5 m), theta below the horizontal.
        ShoulderRig rig(std::numbers::pi_v<real>, JointMotion{}, Vec3::Zero());
        JointMotion drive;
        drive.springStiffness = 50;
        drive.springDamping = 5;
        rig.w.setJointSwingDrive(rig.joint, drive, Vec3::UnitX());
        for (int i = 0; i < 60 * 5; ++i) rig.w.step(h);
        const Vec3 down = rig.w.body(rig.rod).orientation * -Vec3::UnitY();
        const real droop = std::atan2(-down.y(), std::hypot(down.x(), down.z()));
        real expected = 0;
        for (int k = 0; k < 50; ++k) expected = real(9.81) * real(0.5) * std::cos(expected) / 50;
        INFO("droops " << droop << " rad below the horizontal, expected " << expected << "; toward " << down.transpose());
        CHECK(droop == Approx(expected).epsilon(0.02));
        CHECK(std::abs(down.z()) < real(1e-3)); // in the plane of its target
    }
    // A bar turning about its centre (its anchor), no gravity, 0.3 rad from its target,
    // sprung at 1 Hz: the period is 1 s (the spring's stiffness I (2 pi f)^2 on the bar's
    // own inertia); critically damped it does not overshoot.
    const auto swingOf = [](real ratio) {
        World w = weightless();
        const BodyId bar = barAt(w, Vec3(real(0.2), real(0.01), real(0.2)), real(0.3));
        JointDesc j;
        j.type = JointType::SwingTwist;
        j.a = {bar, Vec3::Zero()};
        j.b = {BodyId{}, Vec3(0, 2, 0)};
        j.axisA = Vec3::UnitY();
        j.axisB = Vec3::UnitY();
        j.swingTarget = Vec3::UnitY(); // the world's up: the bar starts 0.3 rad from it
        j.swingDrive.springHertz = 1;
        j.swingDrive.springDampingRatio = ratio;
        w.createJoint(j);
        std::vector<real> angles;
        for (int i = 0; i < 60 * 4; ++i) {
            w.step(h);
            const Vec3 up = w.body(bar).orientation * Vec3::UnitY();
            angles.push_back(std::atan2(-up.x(), up.y())); // its turn about z from the target
        }
        return angles;
    };
    const std::vector<real> free = swingOf(0);
    INFO("period " << periodOf(free) << " s (1 s expected), first " << free.front());
    CHECK(periodOf(free) == Approx(1).epsilon(0.02));
    const std::vector<real> damped = swingOf(1);
    const real lowest = *std::min_element(damped.begin(), damped.end());
    INFO("critically damped: lowest " << lowest << " rad, last " << damped.back());
    CHECK(lowest > -real(0.005));
    CHECK(std::abs(damped.back()) < real(0.01));
}

TEST_CASE("a swing drive is refused on other joints and beyond its spring, naming the field, with nothing changed", "[physics][contact]") {
    ShoulderRig rig(std::numbers::pi_v<real>, JointMotion{}, Vec3::Zero());
    const auto hash = testing::stateHash(rig.w);
    JointDesc d = rig.w.joint(rig.joint).desc;
    d.swingDrive.motor = true; // a swing drive is a spring
    expectError([&] { rig.w.createJoint(d); }, "createJoint.swingDrive");
    d.swingDrive = JointMotion{};
    d.swingDrive.springHertz = std::numeric_limits<real>::quiet_NaN();
    expectError([&] { rig.w.createJoint(d); }, "createJoint.swingDrive.springHertz");
    d.swingDrive = JointMotion{};
    d.swingTarget = Vec3(std::numeric_limits<real>::infinity(), 0, 0);
    expectError([&] { rig.w.createJoint(d); }, "createJoint.swingTarget");
    d.swingTarget = Vec3::Zero();
    d.type = JointType::Ball;
    d.swingLimit = std::numbers::pi_v<real>;
    d.swingDrive.springStiffness = 10;
    expectError([&] { rig.w.createJoint(d); }, "createJoint.swingDrive");
    d.swingDrive = JointMotion{};
    d.swingTarget = Vec3::UnitX();
    expectError([&] { rig.w.createJoint(d); }, "createJoint.swingTarget");
    JointMotion bad;
    bad.springStiffness = -1;
    expectError([&] { rig.w.setJointSwingDrive(rig.joint, bad, Vec3::Zero()); }, "setJointSwingDrive.swingDrive.springStiffness");
    expectError([&] { rig.w.setJointSwingDrive(rig.joint, JointMotion{}, Vec3(real(2e6), 0, 0)); }, "setJointSwingDrive.swingTarget");
    CHECK(rig.w.jointIds().size() == 1);
    CHECK(testing::stateHash(rig.w) == hash);
    // Set, it survives a snapshot and a scene file.
    JointMotion drive;
    drive.springHertz = 2;
    drive.springDampingRatio = real(0.3);
    rig.w.setJointSwingDrive(rig.joint, drive, Vec3(1, -1, 0));
    for (int i = 0; i < 10; ++i) rig.w.step(h);
    CHECK(testing::stepsAsItsSnapshot(rig.w, 30, h));
    LoadedScene loaded = loadScene(exportScene(rig.w));
    REQUIRE(loaded.objects.joints.size() == 1);
    const JointDesc& kept = loaded.world.joint(loaded.objects.joints[0]).desc;
    CHECK(kept.swingDrive == drive);
    CHECK(kept.swingTarget == Vec3(1, -1, 0));
}

TEST_CASE("a swing-twist joint keeps its cone and its twist limits, swung and spun hard", "[physics][contact]") {
    const JointMotion twist = limitedTo(-20 * degree, 20 * degree);
    {
        // Swung at 6 rad/s about z (the rod would rise past horizontal) into a 30 degree cone.
        ShoulderRig rig(30 * degree, twist, Vec3(0, 0, 6));
        real widest = 0;
        for (int i = 0; i < 120; ++i) {
            rig.w.step(h);
            widest = std::max(widest, rig.swing());
        }
        INFO("widest swing " << widest / degree << " degrees, gap " << testing::worstJointGap(rig.w) << " m");
        CHECK(widest < 31 * degree);
        CHECK(widest > 29 * degree); // it did reach the cone
        CHECK(testing::worstJointGap(rig.w) < real(0.001));
    }
    {
        // Spun about its own length at 10 rad/s, and swung a little: the twist stays in +-20 degrees.
        ShoulderRig rig(30 * degree, twist, Vec3(real(1), 10, 0));
        real most = 0;
        for (int i = 0; i < 120; ++i) {
            rig.w.step(h);
            most = std::max(most, std::abs(rig.w.jointAngle(rig.joint)));
        }
        INFO("largest twist " << most / degree << " degrees");
        CHECK(most < 21 * degree);
        CHECK(most > 19 * degree);
    }
    // Bad input: the cone on a ball joint, a cone of 0 or NaN.
    ShoulderRig rig(30 * degree, twist, Vec3::Zero());
    JointDesc d = rig.w.joint(rig.joint).desc;
    d.swingLimit = 0;
    expectError([&] { rig.w.createJoint(d); }, "createJoint.swingLimit");
    d.swingLimit = std::numeric_limits<real>::quiet_NaN();
    expectError([&] { rig.w.createJoint(d); }, "createJoint.swingLimit");
    d.type = JointType::Ball;
    d.swingLimit = 1;
    expectError([&] { rig.w.createJoint(d); }, "createJoint.swingLimit");
    CHECK(rig.w.jointIds().size() == 1);
}
