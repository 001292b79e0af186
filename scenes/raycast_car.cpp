// SPDX-License-Identifier: MIT
// A ray-cast vehicle (docs/vehicle.md) on an open lot: a ramp to jump, a speed bump, a
// wall of crates to drive through. The arrow keys drive: up throttles, down brakes (and
// reverses once stopped), left and right steer; the action rights the car.

#include "scenes/builtin.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace jounce::scenes {
namespace {

const Colour tarmac{0.32f, 0.33f, 0.35f};
const Colour concrete{0.7f, 0.68f, 0.62f};

} // namespace

BodyId addCarChassis(Scene& scene, const Vec3& at) {
    // The body, 400 kg, and a floor pan of 800 kg along its bottom: the centre of mass
    // 0.2 m below the body's middle, as a car's engine and frame put it (a box of even
    // density rolls over in a hard turn at 10 m/s).
    BodyDesc d;
    d.position = at;
    const Vec3 half(real(0.9), real(0.35), 2), pan(real(0.85), real(0.05), real(1.9));
    d.colliders.push_back(makeCollider(Box{half}, 400 / (8 * half.prod()), {.friction = real(0.5)}));
    ColliderDesc floorPan = makeCollider(Box{pan}, 800 / (8 * pan.prod()), {.friction = real(0.5)});
    floorPan.local.position = Vec3(0, real(-0.28), 0);
    d.colliders.push_back(floorPan);
    d.canSleep = false;
    return scene.addBody(d, {BodyId{}, Primitive::Box, half, {0.8f, 0.15f, 0.12f}});
}

VehicleDesc carWheels(BodyId chassis) {
    VehicleDesc v;
    v.chassis = chassis;
    v.engineTorque = 2400;
    for (const real x : {real(-0.85), real(0.85)})
        for (const real z : {real(-1.4), real(1.4)}) {
            WheelDesc w;
            w.mount = Vec3(x, real(-0.3), z);
            w.stiffness = 36000;
            w.damping = 3500;
            w.friction = real(1.1);
            w.steered = z > 0;
            w.driven = z < 0; // rear-wheel drive
            v.wheels.push_back(w);
        }
    return v;
}

void drawCarWheels(const World& world, const Vehicle& car, DrawList& out) {
    // Each wheel as a cylinder along its axle (the pose's x; a cylinder's axis is y).
    const Quat yToX = Quat::FromTwoVectors(Vec3::UnitY(), Vec3::UnitX());
    for (std::size_t k = 0; k < car.wheels().size(); ++k) {
        Transform pose = car.wheelPose(world, k);
        pose.orientation = pose.orientation * yToX;
        out.items.push_back({Primitive::Cylinder, pose, Vec3(car.desc().wheels[k].radius, real(0.12), 0), {0.1f, 0.1f, 0.1f}, {}});
    }
}

VehicleInput carInput(const World& world, BodyId chassis, real throttle, real steer) {
    const BodyState b = world.body(chassis);
    const real forward = b.linearVelocity.dot(b.orientation * Vec3::UnitZ());
    VehicleInput input;
    // Less lock at speed, as driving games do: full at rest, a third at 30 m/s.
    input.steer = steer * std::clamp(1 - std::abs(forward) / 45, real(1) / 3, real(1));
    if (throttle >= 0) input.throttle = throttle;
    else if (forward > real(0.5)) input.brake = -throttle;
    else input.throttle = throttle;
    return input;
}

void rightCar(World& world, BodyId chassis, real height) {
    const Vec3 at = world.body(chassis).position;
    world.setPosition(chassis, Vec3(at.x(), height, at.z()));
    world.setOrientation(chassis, Quat::Identity());
    world.setLinearVelocity(chassis, Vec3::Zero());
    world.setAngularVelocity(chassis, Vec3::Zero());
}

namespace {

class RaycastCar final : public Scene {
public:
    RaycastCar() : chassis_(addChassis()), car_(world_, carWheels(chassis_)) {
        for (int level = 0; level < 3; ++level)
            for (int i = 0; i < 5 - level; ++i) {
                BodyDesc d;
                d.position = Vec3(real(-1.6) + real(0.8) * static_cast<real>(i) + real(0.4) * static_cast<real>(level),
                                  real(0.4) + real(0.8) * static_cast<real>(level), 30);
                d.colliders.push_back(makeCollider(Box{Vec3::Constant(real(0.4))}, 150, {.friction = real(0.6)}));
                addBody(d, {BodyId{}, Primitive::Box, Vec3::Constant(real(0.4)), {0.75f, 0.55f, 0.3f}});
            }
    }
    const char* name() const override { return "raycar"; }
    const char* description() const override {
        return "A ray-cast vehicle: wheels as rays with springs, tyre friction within mu times the load, engine, brakes "
               "and steering. Arrow keys drive (down brakes, then reverses); the action rights the car.";
    }
    Vec3 cameraTarget() const override { return world_.body(chassis_).position; }
    real cameraDistance() const override { return 16; }
    real cameraYaw() const override { return std::numbers::pi_v<real>; }

    std::vector<std::string> actions() const override { return {"Right the car"}; }
    void act(std::size_t) override { rightCar(world_, chassis_, real(1.5)); }
    void control(real throttle, real steer) override { input_ = carInput(world_, chassis_, throttle, steer); }
    void update(real h) override { car_.update(world_, h, input_); }
    void draw(DrawList& out) const override {
        Scene::draw(out);
        drawCarWheels(world_, car_, out);
    }

    const Vehicle& vehicle() const { return car_; }

private:
    BodyId chassis_{};
    Vehicle car_;
    VehicleInput input_;

    BodyId addChassis() {
        BodyDesc ground;
        ground.type = BodyType::Static;
        ground.position = Vec3(0, real(-0.5), 0);
        ground.colliders.push_back(makeCollider(Box{Vec3(60, real(0.5), 60)}, 1000, {.friction = real(0.9)}));
        addBody(ground, {BodyId{}, Primitive::Box, Vec3(60, real(0.5), 60), tarmac});
        // A ramp 10 m out to the left, a bump across the way ahead, crates beyond it.
        addStatic(Vec3(-10, real(0.4), 12), Vec3(3, real(0.15), 4), Quat(Eigen::AngleAxis<real>(real(-0.2), Vec3::UnitX())));
        addStatic(Vec3(0, 0, 22), Vec3(6, real(0.08), real(0.5)), Quat::Identity()); // 8 cm high
        return addCarChassis(*this, Vec3(0, real(1.1), 0));
    }
    void addStatic(const Vec3& at, const Vec3& half, const Quat& q) { addStaticBox(at, half, q, concrete, real(0.9)); }
};

} // namespace

std::unique_ptr<Scene> makeRaycastCar() { return std::make_unique<RaycastCar>(); }

} // namespace jounce::scenes
