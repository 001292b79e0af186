// SPDX-License-Identifier: MIT
// The wheel joint (JointType::Wheel): a 1000 kg car on four of them sags m g / (4 k) on
// its springs, drives at its motors' speed, climbs a 10 degree slope; the joint's fields
// survive snapshots and scene files; bad input names its field.

#include "expect_error.hpp"
#include "helpers.hpp"

#include "scenes/scene.hpp"

#include <jounce/io/scene_file.hpp>
#include <jounce/world/world.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numbers>

using namespace jounce;
using testing::expectError;

namespace {

constexpr real carStep = real(1) / 60;
constexpr real chassisMass = 920, wheelMass = 20; // 1000 kg in all
constexpr real wheelRadius = real(0.4);
constexpr real stiffness = 50000; // each spring [N/m]

/// A car driving along +x on a floor turned by `tilt` about z (a slope climbing +x):
/// a 4 x 0.5 x 2 m chassis, four wheels (capsules of radius 0.4 lying along the axle,
/// 20 kg each) on wheel joints 1.5 m ahead and behind, 1.2 m to each side, 0.45 m below
/// the chassis' centre; each suspension 50 kN/m, damped at ratio 0.5.
struct Car {
    World w;
    BodyId ground, chassis;
    std::array<BodyId, 4> wheels;
    std::array<JointId, 4> joints;

    explicit Car(real tilt = 0, const Vec3& at = Vec3(0, 1, 0)) {
        const Quat slope(Eigen::AngleAxis<real>(tilt, Vec3::UnitZ()));
        BodyDesc g;
        g.type = BodyType::Static;
        g.orientation = slope;
        g.position = slope * Vec3(0, real(-0.5), 0);
        g.colliders.push_back(makeCollider(Box{Vec3(200, real(0.5), 20)}, 1000, {.friction = 1}));
        ground = w.createBody(g);
        BodyDesc c;
        c.position = slope * at;
        c.orientation = slope;
        c.massFromColliders = false;
        c.mass = chassisMass;
        c.inertia = solidBox(Vec3(2, real(0.25), 1), 1).inertia * (chassisMass / solidBox(Vec3(2, real(0.25), 1), 1).mass);
        c.colliders.push_back(makeCollider(Box{Vec3(2, real(0.25), 1)}, 1000));
        chassis = w.createBody(c);
        for (int k = 0; k < 4; ++k) {
            const Vec3 mount(k < 2 ? real(1.5) : real(-1.5), real(-0.45), k % 2 == 0 ? real(1.2) : real(-1.2));
            BodyDesc d;
            d.position = slope * (at + mount);
            d.orientation = slope * Quat(Eigen::AngleAxis<real>(std::numbers::pi_v<real> / 2, Vec3::UnitX())); // its y along z
            d.massFromColliders = false;
            d.mass = wheelMass;
            const MassProperties unit = solidCapsule(wheelRadius, real(0.1), 1);
            d.inertia = unit.inertia * (wheelMass / unit.mass);
            d.colliders.push_back(makeCollider(Capsule{wheelRadius, real(0.1)}, 1000, {.friction = 1}));
            wheels[static_cast<std::size_t>(k)] = w.createBody(d);
            JointDesc j;
            j.type = JointType::Wheel;
            j.a = {wheels[static_cast<std::size_t>(k)], Vec3::Zero()};
            j.b = {chassis, mount};
            j.axisA = Vec3::UnitY();     // the capsule's axis
            j.axisB = Vec3::UnitZ();     // across the car
            j.suspensionAxis = Vec3::UnitY();
            j.suspension.limited = true; // 0.3 m of travel up, 0.1 m down
            j.suspension.lower = real(-0.1);
            j.suspension.upper = real(0.3);
            j.suspension.springStiffness = stiffness;
            j.suspension.springDamping = real(0.5) * 2 * std::sqrt(stiffness * chassisMass / 4);
            joints[static_cast<std::size_t>(k)] = w.createJoint(j);
        }
    }
    /// Every wheel driven toward `speed` along +x [m/s] with at most `torque` [N m] each.
    void drive(real speed, real torque) {
        for (const JointId j : joints) {
            JointMotion m;
            m.motor = true;
            m.motorSpeed = -speed / wheelRadius; // rolling toward +x turns a wheel about -z
            m.maxMotorForce = torque;
            w.setJointMotion(j, m);
        }
    }
    real travel() const { // the mean compression, each anchor above where it was built [m]
        real sum = 0;
        for (const JointId j : joints) sum += w.jointTranslation(j);
        return sum / 4;
    }
};

} // namespace

TEST_CASE("a 1000 kg car on four wheel joints sags m g / (4 k) on its springs", "[contact][scene]") {
    Car car;
    for (int i = 0; i < 240; ++i) car.w.step(carStep);
    const real expected = chassisMass * real(9.81) / (4 * stiffness); // each spring carries a quarter of the chassis
    INFO("sag " << car.travel() << " m, m g / (4 k) = " << expected << " m");
    CHECK(car.travel() == Approx(expected).epsilon(0.05));
    // Level, at rest, each wheel on the ground and under its mount.
    CHECK(std::abs(car.w.body(car.chassis).linearVelocity.norm()) < real(0.01));
    for (std::size_t k = 0; k < 4; ++k) {
        const BodyState wheel = car.w.body(car.wheels[k]);
        CHECK(wheel.position.y() == Approx(wheelRadius).margin(real(0.01)));
        CHECK(std::abs(car.w.jointTranslation(car.joints[k]) - car.travel()) < real(0.002));
    }
}

TEST_CASE("a car driven by its wheel joints' motors runs at the motors' speed and climbs a 10 degree slope", "[contact][scene]") {
    SECTION("on the flat") {
        Car car;
        for (int i = 0; i < 60; ++i) car.w.step(carStep);
        car.drive(5, 400);
        for (int i = 0; i < 300; ++i) car.w.step(carStep);
        const BodyState chassis = car.w.body(car.chassis);
        INFO("speed " << chassis.linearVelocity.transpose() << " m/s");
        CHECK(chassis.linearVelocity.x() == Approx(5).epsilon(0.02));
        // Rolling without slip: the wheels' spin times their centres' height (the soft
        // contacts let each carry its 250 kg 6 mm into the floor, a 0.394 m rolling radius).
        const BodyState wheel = car.w.body(car.wheels[0]);
        CHECK(chassis.linearVelocity.x() == Approx(-wheel.angularVelocity.z() * wheel.position.y()).epsilon(0.005));
        CHECK(std::abs(chassis.linearVelocity.z()) < real(0.1)); // straight within about a degree
        // Each wheel turns at the motor's speed about its axle.
        for (std::size_t k = 0; k < 4; ++k)
            CHECK(car.w.body(car.wheels[k]).angularVelocity.z() == Approx(-5 / wheelRadius).epsilon(0.02));
    }
    SECTION("up a 10 degree slope") {
        const real tilt = 10 * std::numbers::pi_v<real> / 180;
        Car car(tilt);
        // Held by its motors at no speed it stays (m g sin 10 deg = 1.7 kN: 170 N m a wheel).
        car.drive(0, 400);
        for (int i = 0; i < 60; ++i) car.w.step(carStep);
        const Vec3 up(std::cos(tilt), std::sin(tilt), 0); // along the slope, climbing
        const Vec3 start = car.w.body(car.chassis).position;
        for (int i = 0; i < 60; ++i) car.w.step(carStep);
        CHECK(std::abs((car.w.body(car.chassis).position - start).dot(up)) < real(0.05));
        car.drive(3, 400);
        for (int i = 0; i < 300; ++i) car.w.step(carStep);
        const BodyState chassis = car.w.body(car.chassis);
        INFO("climbed " << (chassis.position - start).dot(up) << " m, at " << chassis.linearVelocity.dot(up) << " m/s");
        CHECK(chassis.linearVelocity.dot(up) == Approx(3).epsilon(0.03));
        CHECK((chassis.position - start).dot(up) > 12);
    }
}

TEST_CASE("a wheel joint's suspension and axle survive a snapshot and a scene file, stepping bit-identically", "[contact][scene]") {
    Car car;
    car.drive(2, 300);
    for (int i = 0; i < 30; ++i) car.w.step(carStep);
    CHECK(testing::stepsAsItsSnapshot(car.w, 30, carStep));
    LoadedScene loaded = loadScene(exportScene(car.w));
    REQUIRE(loaded.objects.joints.size() == 4);
    const Joint& j = loaded.world.joint(loaded.objects.joints[0]);
    CHECK(j.desc.type == JointType::Wheel);
    CHECK(j.desc.suspension.springStiffness == stiffness);
    CHECK(j.desc.suspension.upper == real(0.3));
    CHECK(j.desc.suspensionAxis == Vec3::UnitY());
    CHECK(j.desc.motion.motor);
    CHECK(loaded.world.jointTranslation(loaded.objects.joints[0]) == Approx(car.w.jointTranslation(car.joints[0])).margin(1e-9));
}

TEST_CASE("a wheel joint refuses a bad suspension naming the field, and changes nothing", "[contact]") {
    Car car;
    const JointDesc good = car.w.joint(car.joints[0]).desc;
    const std::size_t joints = car.w.jointIds().size();
    const auto refused = [&](const JointDesc& d, const std::string& field) {
        expectError([&] { car.w.createJoint(d); }, field);
        CHECK(car.w.jointIds().size() == joints);
    };
    JointDesc d = good;
    d.suspensionAxis = Vec3::UnitZ(); // along the axle
    refused(d, "createJoint.suspensionAxis");
    d = good;
    d.suspensionAxis = Vec3(std::numeric_limits<real>::quiet_NaN(), 1, 0);
    refused(d, "createJoint.suspensionAxis");
    d = good;
    d.suspension.lower = 1; // above upper
    refused(d, "createJoint.suspension.lower");
    d = good;
    d.suspension.springStiffness = -1;
    refused(d, "createJoint.suspension.springStiffness");
    d = good;
    d.suspension.springHertz = 2; // and a stiffness
    refused(d, "createJoint.suspension.springStiffness");
    d = good;
    d.type = JointType::Hinge; // a suspension on anything but a wheel
    refused(d, "createJoint.suspension");
    d.suspension = JointMotion{};
    d.suspensionAxis = Vec3::UnitX();
    refused(d, "createJoint.suspensionAxis");
    // setJointSuspension: validated, wheels only.
    const JointMotion before = car.w.joint(car.joints[0]).desc.suspension;
    JointMotion bad = before;
    bad.springDamping = -1;
    expectError([&] { car.w.setJointSuspension(car.joints[0], bad); }, "setJointSuspension.suspension.springDamping");
    CHECK(car.w.joint(car.joints[0]).desc.suspension.springDamping == before.springDamping);
    JointDesc hinge;
    hinge.type = JointType::Hinge;
    hinge.a = {car.chassis, Vec3::Zero()};
    hinge.b = {BodyId{}, car.w.body(car.chassis).position};
    const JointId h = car.w.createJoint(hinge);
    expectError([&] { car.w.setJointSuspension(h, before); }, "setJointSuspension.id");
}

TEST_CASE("the car scene drives forward on the arrow keys, turns left when steered left, and stays on its wheels", "[contact][scene]") {
    const std::unique_ptr<scenes::Scene> scene = scenes::makeScene("car");
    World& w = scene->world();
    BodyId chassis{};
    for (const BodyId id : w.bodyIds())
        if (w.body(id).isDynamic() && 1 / w.body(id).inverseMass == 900) chassis = id;
    REQUIRE(!chassis.isNull());
    for (int i = 0; i < 60; ++i) w.step(carStep);
    const Vec3 start = w.body(chassis).position;
    scene->control(1, 0); // full throttle
    for (int i = 0; i < 120; ++i) w.step(carStep);
    const BodyState straight = w.body(chassis);
    INFO("after 2 s at full throttle: moved " << (straight.position - start).transpose() << " m, at "
                                               << straight.linearVelocity.transpose() << " m/s");
    CHECK(straight.position.x() - start.x() > 5); // 600 N m on each rear wheel: 3 m/s^2, 6 m in 2 s
    CHECK(std::abs(straight.position.z() - start.z()) < real(0.5));
    scene->control(1, 1); // and steering left (facing +x with +y up, its left is -z)
    for (int i = 0; i < 60; ++i) w.step(carStep);
    const BodyState turning = w.body(chassis);
    INFO("turning at " << turning.angularVelocity.transpose() << " rad/s");
    CHECK(turning.angularVelocity.y() > real(0.3)); // yawing left (counter-clockwise seen from above)
    CHECK((turning.orientation * Vec3::UnitY()).y() > real(0.9)); // on its wheels
}
