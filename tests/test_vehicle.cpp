// SPDX-License-Identifier: MIT
// The ray-cast vehicle (physics/vehicle/, docs/vehicle.md): suspension sag, driving,
// braking distance, turning, a rollover, bad input.

#include "expect_error.hpp"
#include "helpers.hpp"
#include "scenes/scene.hpp"

#include <jounce/jounce.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>

using namespace jounce;

namespace {

constexpr real carFrame = real(1) / 60;
constexpr real carMass = 1000;

/// A 1000 kg box chassis (1.8 x 0.6 x 4 m) facing +z, on four wheels at its corners.
struct Car {
    World w;
    BodyId chassis{};
    Vehicle vehicle;
    static BodyId makeChassis(World& w, const Vec3& at) {
        BodyDesc ground; // 200 m square, its top at y = 0
        ground.type = BodyType::Static;
        ground.position = Vec3(0, real(-0.5), 0);
        ground.colliders.push_back(makeCollider(Box{Vec3(100, real(0.5), 100)}, 1000));
        w.createBody(ground);
        BodyDesc d;
        d.position = at;
        const Vec3 half(real(0.9), real(0.3), 2);
        d.colliders.push_back(makeCollider(Box{half}, carMass / (8 * half.prod())));
        return w.createBody(d);
    }
    static VehicleDesc describe(BodyId chassis, real friction, bool allDriven) {
        VehicleDesc v;
        v.chassis = chassis;
        for (const real x : {real(-0.8), real(0.8)})
            for (const real z : {real(-1.5), real(1.5)}) {
                WheelDesc wheel;
                wheel.mount = Vec3(x, real(-0.3), z);
                wheel.friction = friction;
                wheel.steered = z > 0;
                wheel.driven = allDriven || z < 0;
                v.wheels.push_back(wheel);
            }
        return v;
    }
    explicit Car(real friction = 1, bool allDriven = true)
        : chassis(makeChassis(w, Vec3(0, real(1.1), 0))), vehicle(w, describe(chassis, friction, allDriven)) {}
    void drive(real seconds, const VehicleInput& in) {
        for (int i = 0; i < static_cast<int>(std::lround(seconds / carFrame)); ++i) {
            vehicle.update(w, carFrame, in);
            w.step(carFrame);
        }
    }
};

} // namespace

TEST_CASE("vehicle: at rest each spring carries a quarter of the weight, sagging m g / (4 k)", "[physics][scene]") {
    Car car;
    car.drive(3, {.brake = 1}); // parked
    const real sag = carMass * real(9.81) / (4 * 30000);
    for (const WheelState& s : car.vehicle.wheels()) {
        REQUIRE(s.touching);
        CHECK(s.load == Approx(carMass * real(9.81) / 4).epsilon(0.001));
        CHECK(real(0.4) - s.length == Approx(sag).epsilon(0.001));
    }
    const Vec3 parked = car.w.body(car.chassis).position;
    car.drive(1, {.brake = 1});
    CHECK((car.w.body(car.chassis).position - parked).norm() < real(1e-4));
}

TEST_CASE("vehicle: full throttle accelerates at the engine's torque over radius and mass", "[physics][scene]") {
    Car car;
    car.drive(2, {.brake = 1});
    car.drive(1, {.throttle = 1});
    // 2000 N m over 0.35 m on 1000 kg: 5.71 m/s^2, within the tyres' grip (g).
    CHECK(car.w.body(car.chassis).linearVelocity.z() == Approx(2000 / real(0.35) / carMass).epsilon(0.02));
    CHECK(std::abs(car.w.body(car.chassis).linearVelocity.x()) < real(0.01));
}

TEST_CASE("vehicle: braking from 20 m/s stops within 10 % of v^2 / (2 mu g)", "[physics][scene]") {
    for (const real mu : {real(0.5), real(0.8)}) {
        Car car(mu);
        car.vehicle = Vehicle(car.w, [&] {
            VehicleDesc d = Car::describe(car.chassis, mu, true);
            d.brakeTorque = 20000; // enough to lock every wheel
            return d;
        }());
        car.drive(2, {.brake = 1});
        car.w.setLinearVelocity(car.chassis, Vec3(0, 0, 20));
        const real start = car.w.body(car.chassis).position.z();
        for (int i = 0; i < 600 && car.w.body(car.chassis).linearVelocity.z() > real(0.01); ++i) car.drive(carFrame, {.brake = 1});
        const real distance = car.w.body(car.chassis).position.z() - start;
        CAPTURE(mu);
        CHECK(distance == Approx(400 / (2 * mu * real(9.81))).epsilon(0.02)); // the bar is 10 %
    }
}

TEST_CASE("vehicle: steering left turns it left, and a hard turn at speed rolls it over without blowing up", "[physics][scene]") {
    Car car;
    car.drive(2, {.brake = 1});
    car.w.setLinearVelocity(car.chassis, Vec3(0, 0, 10));
    car.drive(1, {.steer = 1});
    const BodyState b = car.w.body(car.chassis);
    CHECK(b.linearVelocity.x() > 1); // facing +z, left is +x
    CHECK(b.angularVelocity.y() > real(0.5));

    Car fast(real(2.5)); // very sticky tyres: a hard turn at 25 m/s tips it
    fast.drive(2, {.brake = 1});
    fast.w.setLinearVelocity(fast.chassis, Vec3(0, 0, 25));
    real fastest = 0, spin = 0, tilt = 0;
    for (int i = 0; i < 300; ++i) {
        fast.drive(carFrame, {.steer = 1});
        const BodyState s = fast.w.body(fast.chassis);
        fastest = std::max(fastest, s.linearVelocity.norm());
        spin = std::max(spin, s.angularVelocity.norm());
        tilt = std::max(tilt, std::acos(std::clamp((s.orientation * Vec3::UnitY()).y(), real(-1), real(1))));
    }
    const BodyState end = fast.w.body(fast.chassis);
    CHECK(end.position.allFinite());
    CHECK(tilt > real(1.2));          // it went over (more than about 70 degrees)
    CHECK(fastest < real(25.5));      // nothing gained speed
    CHECK(spin < 15);                 // 11.5 rad/s at most, measured
    CHECK(end.linearVelocity.norm() < real(0.1)); // and it came to rest
}

TEST_CASE("vehicle: the energy of a rolling car never grows", "[physics][scene]") {
    Car fast(real(2.5));
    fast.drive(2, {.brake = 1});
    fast.w.setLinearVelocity(fast.chassis, Vec3(0, 0, 25));
    const auto energy = [&] {
        const BodyState b = fast.w.body(fast.chassis);
        const Mat3 r = b.orientation.toRotationMatrix();
        const Vec3 w = b.angularVelocity;
        return b.mass * (b.linearVelocity.squaredNorm() / 2 + real(9.81) * b.centerOfMass.y()) + w.dot(r * b.inertia * r.transpose() * w) / 2;
    };
    const real start = energy();
    real most = start;
    for (int i = 0; i < 300; ++i) {
        fast.drive(carFrame, {.steer = 1});
        most = std::max(most, energy());
    }
    CHECK(most < start * real(1.01));
}

TEST_CASE("vehicle: braked on a 15 degree slope it holds, throttle and brake together still drive, a feather-light plate under a wheel", "[physics][scene]") {
    SECTION("parked on a slope") {
        World w;
        const Quat slope(Eigen::AngleAxis<real>(real(15) * std::numbers::pi_v<real> / 180, Vec3::UnitX()));
        BodyDesc ground;
        ground.type = BodyType::Static;
        ground.orientation = slope;
        ground.position = slope * Vec3(0, real(-0.5), 0);
        ground.colliders.push_back(makeCollider(Box{Vec3(30, real(0.5), 30)}, 1000));
        w.createBody(ground);
        BodyDesc d;
        d.orientation = slope;
        d.position = slope * Vec3(0, real(0.98), 0);
        const Vec3 half(real(0.9), real(0.3), 2);
        d.colliders.push_back(makeCollider(Box{half}, carMass / (8 * half.prod())));
        const BodyId chassis = w.createBody(d);
        VehicleDesc v = Car::describe(chassis, 1, true);
        v.brakeTorque = 20000;
        Vehicle car(w, v);
        for (int i = 0; i < 120; ++i) {
            car.update(w, carFrame, {.brake = 1});
            w.step(carFrame);
        }
        const Vec3 parked = w.body(chassis).position;
        for (int i = 0; i < 300; ++i) {
            car.update(w, carFrame, {.brake = 1});
            w.step(carFrame);
        }
        CHECK((w.body(chassis).position - parked).norm() < real(0.005)); // (before gravity entered the tyres: 13 cm)
    }
    SECTION("throttle with a touch of brake") {
        Car car;
        car.drive(2, {.brake = 1});
        car.drive(1, {.throttle = 1, .brake = real(0.01)});
        CHECK(car.w.body(car.chassis).linearVelocity.z() > 4);
    }
    SECTION("a 10 g plate under a wheel") {
        Car car;
        BodyDesc plate;
        plate.position = Vec3(real(0.8), real(0.01), real(1.5));
        plate.colliders.push_back(makeCollider(Box{Vec3(real(0.3), real(0.01), real(0.3))}, real(0.01) / real(0.0036)));
        const BodyId p = car.w.createBody(plate);
        car.drive(2, {.brake = 1});
        car.drive(1, {.throttle = 1});
        CHECK(car.w.body(p).position.allFinite());
        CHECK(car.w.body(car.chassis).position.allFinite());
        CHECK(car.w.body(car.chassis).linearVelocity.z() > 3);
    }
}

TEST_CASE("vehicle: bad input names its field and changes nothing", "[physics]") {
    Car car;
    const auto bad = [&](auto edit, const char* field) {
        VehicleDesc d = Car::describe(car.chassis, 1, true);
        edit(d);
        testing::expectError([&] { Vehicle v(car.w, d); }, field);
    };
    const real nan = std::numeric_limits<real>::quiet_NaN();
    bad([](VehicleDesc& d) { d.chassis = BodyId{}; }, "VehicleDesc.chassis");
    bad([](VehicleDesc& d) { d.wheels.clear(); }, "VehicleDesc.wheels");
    bad([&](VehicleDesc& d) { d.wheels[2].mount.x() = nan; }, "VehicleDesc.wheels[2].mount");
    bad([](VehicleDesc& d) { d.wheels[1].down = Vec3::Zero(); }, "VehicleDesc.wheels[1].down");
    bad([](VehicleDesc& d) { d.wheels[1].axle = d.wheels[1].down; }, "VehicleDesc.wheels[1].axle");
    bad([](VehicleDesc& d) { d.wheels[0].radius = 0; }, "VehicleDesc.wheels[0].radius");
    bad([](VehicleDesc& d) { d.wheels[0].restLength = -1; }, "VehicleDesc.wheels[0].restLength");
    bad([](VehicleDesc& d) { d.wheels[3].stiffness = 0; }, "VehicleDesc.wheels[3].stiffness");
    bad([&](VehicleDesc& d) { d.wheels[3].damping = nan; }, "VehicleDesc.wheels[3].damping");
    bad([](VehicleDesc& d) { d.wheels[3].friction = -1; }, "VehicleDesc.wheels[3].friction");
    bad([](VehicleDesc& d) { d.engineTorque = -1; }, "VehicleDesc.engineTorque");
    bad([&](VehicleDesc& d) { d.brakeTorque = nan; }, "VehicleDesc.brakeTorque");
    bad([](VehicleDesc& d) { d.maxSteer = 2; }, "VehicleDesc.maxSteer");
    bad([](VehicleDesc& d) { d.wheels.resize(17); }, "VehicleDesc.wheels");
    bad([](VehicleDesc& d) { d.wheels[0].stiffness = real(1e16); }, "VehicleDesc.wheels[0].stiffness");
    bad([](VehicleDesc& d) { d.wheels[0].friction = 101; }, "VehicleDesc.wheels[0].friction");
    bad([](VehicleDesc& d) { d.engineTorque = real(1e16); }, "VehicleDesc.engineTorque");
    testing::expectError([&] { (void)car.vehicle.wheelPose(car.w, 4); }, "wheelPose.wheel");
    std::vector<std::string> reported;
    car.w.setErrorHandler([&](const Error& e) { reported.push_back(e.field()); });
    Vehicle refused(car.w, [&] {
        VehicleDesc d = Car::describe(car.chassis, 1, true);
        d.wheels[1].radius = -1;
        return d;
    }());
    CHECK(!refused.valid());
    car.vehicle.update(car.w, 0, {});
    CHECK(reported == std::vector<std::string>{"VehicleDesc.wheels[1].radius", "update.dt"});
    car.w.setErrorHandler({});
    BodyDesc fixed;
    fixed.type = BodyType::Static;
    const BodyId wall = car.w.createBody(fixed);
    bad([&](VehicleDesc& d) { d.chassis = wall; }, "VehicleDesc.chassis");

    car.drive(1, {});
    const std::uint64_t hash = testing::stateHash(car.w);
    testing::expectError([&] { car.vehicle.update(car.w, 0, {}); }, "update.dt");
    testing::expectError([&] { car.vehicle.update(car.w, carFrame, {.throttle = 2}); }, "update.input.throttle");
    testing::expectError([&] { car.vehicle.update(car.w, carFrame, {.brake = -1}); }, "update.input.brake");
    testing::expectError([&] { car.vehicle.update(car.w, carFrame, {.steer = nan}); }, "update.input.steer");
    CHECK(testing::stateHash(car.w) == hash);
    car.w.destroyBody(car.chassis);
    testing::expectError([&] { car.vehicle.update(car.w, carFrame, {}); }, "update.world");
}

TEST_CASE("vehicle: the raycar scene drives ahead, turns and brakes to a stop", "[physics][scene]") {
    const std::unique_ptr<scenes::Scene> scene = scenes::makeScene("raycar");
    World& w = scene->world();
    BodyId chassis{};
    for (const BodyId id : w.bodyIds())
        if (w.body(id).isDynamic() && w.body(id).mass > 1000) chassis = id; // the 1200 kg car among 150 kg crates
    REQUIRE(!chassis.isNull());
    for (int i = 0; i < 60; ++i) scene->step();
    const Vec3 start = w.body(chassis).position;
    scene->control(1, 0);
    for (int i = 0; i < 120; ++i) scene->step();
    CHECK(w.body(chassis).position.z() - start.z() > 5); // rear-wheel drive, 2400 N m
    CHECK(std::abs(w.body(chassis).position.x() - start.x()) < real(0.1));
    scene->control(0, 1);
    for (int i = 0; i < 30; ++i) scene->step();
    CHECK(w.body(chassis).angularVelocity.y() > real(0.2)); // turning left
    real slowest = 100;
    for (int i = 0; i < 240; ++i) { // down held: brakes to a stop, then reverses
        scene->control(-1, 0);
        scene->step();
        slowest = std::min(slowest, w.body(chassis).linearVelocity.norm());
    }
    const BodyState b = w.body(chassis);
    CHECK(slowest < real(0.6));
    CHECK(b.linearVelocity.dot(b.orientation * Vec3::UnitZ()) < -1); // backing up
    CHECK((b.orientation * Vec3::UnitY()).y() > real(0.9)); // upright
    scenes::DrawList list;
    scene->draw(list);
    CHECK(std::count_if(list.items.begin(), list.items.end(), [](const scenes::DrawItem& d) { return d.shape == scenes::Primitive::Cylinder; }) == 4);
}
