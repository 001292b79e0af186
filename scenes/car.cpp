// SPDX-License-Identifier: MIT
// A car built from joints (docs/joints.md, "Wheel joints"): a 900 kg chassis, four
// wheels on wheel joints (a sprung suspension along the chassis' up axis, the wheel free
// to spin about its axle), the front two on steering knuckles that turn on hinges whose
// springs hold the steering angle, the rear two driven by their motors. The arrow keys
// drive it over bumpy ground and into a stack of crates.

#include "scenes/builtin.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace jounce::scenes {
namespace {

constexpr real wheelRadius = real(0.4);
constexpr real topSpeed = 12;      ///< [m/s], full throttle
constexpr real steerMost = real(0.45); ///< [rad], full lock
/// The chassis' collision category: its wheels pass through it (a wheel joined to the
/// chassis skips it anyway; a front wheel is joined to its knuckle).
constexpr std::uint32_t chassisBit = 2;

/// Gentle bumps: a 60 m square grid of 1 m cells, heights a sum of two waves.
BodyDesc bumpyGround() {
    std::vector<Vec3> vertices;
    constexpr int cells = 60;
    for (int i = 0; i <= cells; ++i)
        for (int k = 0; k <= cells; ++k) {
            const real x = static_cast<real>(i - cells / 2), z = static_cast<real>(k - cells / 2);
            const real far = std::clamp((std::abs(x) + std::abs(z) - 17) / 8, real(0), real(1)); // flat where it starts and the crates stand
            vertices.emplace_back(x, far * real(0.12) * (std::sin(real(0.9) * x) + std::cos(real(0.7) * z + real(0.4) * x)), z);
        }
    const std::vector<std::array<std::uint32_t, 3>> triangles = gridTriangles(cells);
    BodyDesc d;
    d.type = BodyType::Static;
    ColliderDesc c = makeCollider(makeTriangleMesh(vertices, triangles), 1000); // (GCC 12 warns of the variant's shared_ptr assigned into a default one)
    c.material.friction = 1;
    d.colliders.push_back(c);
    return d;
}

class Car final : public Scene {
public:
    Car() {
        addBody(bumpyGround(), {BodyId{}, Primitive::Triangles, Vec3::Zero(), {0.3f, 0.42f, 0.25f}});
        buildCar(Vec3(0, real(1.1), 0));
        // Crates to drive into.
        for (int level = 0; level < 4; ++level)
            for (int i = 0; i < 4 - level; ++i) {
                BodyDesc d;
                d.position = Vec3(14, real(0.4) + real(0.8) * static_cast<real>(level), real(-1.2) + real(0.8) * static_cast<real>(i) + real(0.4) * static_cast<real>(level));
                d.colliders.push_back(makeCollider(Box{Vec3::Constant(real(0.4))}, 200, {.friction = real(0.6)}));
                addBody(d, {BodyId{}, Primitive::Box, Vec3::Constant(real(0.4)), {0.75f, 0.55f, 0.3f}});
            }
    }
    const char* name() const override { return "car"; }
    const char* description() const override {
        return "A car on four wheel joints (sprung suspension, driven rear wheels, steering knuckles on hinges). "
               "Arrow keys: up/down drive, left/right steer.";
    }
    Vec3 cameraTarget() const override { return world_.body(chassis_).position; }
    real cameraDistance() const override { return 14; }

    void control(real throttle, real steer) override {
        for (std::size_t k = 2; k < 4; ++k) { // the rear wheels drive
            JointMotion m;
            m.motor = true;
            m.motorSpeed = -throttle * topSpeed / wheelRadius; // forward (+x) turns a wheel about -z
            m.maxMotorForce = throttle != 0 ? real(600) : real(60); // under the grip (2.3 kN a wheel); let go: engine braking
            world_.setJointMotion(wheels_[k], m);
        }
        for (const JointId knuckle : knuckles_) {
            JointMotion m = world_.joint(knuckle).desc.motion;
            m.springTarget = steer * steerMost;
            world_.setJointMotion(knuckle, m);
        }
    }

private:
    BodyId chassis_{};
    std::array<JointId, 4> wheels_{};
    std::array<JointId, 2> knuckles_{};

    void buildCar(const Vec3& at) {
        BodyDesc c;
        c.position = at;
        c.colliders.push_back(makeCollider(Box{Vec3(2, real(0.25), real(0.9))}, 1000));
        c.colliders.back().filter.category = chassisBit; // the front wheels reach under it (they hang on knuckles, not on it)
        c.massFromColliders = false;
        c.mass = 900;
        const MassProperties box = solidBox(Vec3(2, real(0.25), real(0.9)), 1);
        c.inertia = box.inertia * (c.mass / box.mass);
        chassis_ = addBody(c, {BodyId{}, Primitive::Box, Vec3(2, real(0.25), real(0.9)), {0.8f, 0.15f, 0.15f}});
        for (std::size_t k = 0; k < 4; ++k) {
            const bool front = k < 2;
            const Vec3 mount(front ? real(1.4) : real(-1.4), real(-0.45), k % 2 == 0 ? real(1.15) : real(-1.15));
            BodyId holder = chassis_;
            Vec3 held = mount;
            if (front) {
                // A steering knuckle: a small body turning about the chassis' up axis on
                // a hinge whose spring holds the steering angle.
                BodyDesc n;
                n.position = at + mount;
                n.colliders.push_back(makeCollider(Box{Vec3::Constant(real(0.08))}, 1000));
                n.massFromColliders = false;
                n.mass = 15;
                n.inertia = Mat3::Identity() * real(0.1);
                const BodyId knuckle = addBody(n, {BodyId{}, Primitive::Box, Vec3::Constant(real(0.08)), {0.3f, 0.3f, 0.3f}});
                JointDesc steer;
                steer.type = JointType::Hinge;
                steer.a = {knuckle, Vec3::Zero()};
                steer.b = {chassis_, mount};
                steer.axisA = steer.axisB = Vec3::UnitY();
                steer.motion.limited = true;
                steer.motion.lower = -steerMost;
                steer.motion.upper = steerMost;
                // Stiff against the wheel's own yaw inertia it carries (about 1 kg m^2: a
                // frequency, taken on the knuckle's 0.1, let the front wheels shimmy).
                steer.motion.springStiffness = 6000;
                steer.motion.springDamping = 150;
                knuckles_[k] = world_.createJoint(steer);
                holder = knuckle;
                held = Vec3::Zero();
            }
            BodyDesc w;
            w.position = at + mount;
            w.orientation = Quat(Eigen::AngleAxis<real>(std::numbers::pi_v<real> / 2, Vec3::UnitX())); // its y across the car
            w.colliders.push_back(makeCollider(Capsule{wheelRadius, real(0.1)}, 1000, {.friction = 1}));
            w.colliders.back().filter.mask = ~chassisBit;
            w.massFromColliders = false;
            w.mass = 20;
            const MassProperties unit = solidCapsule(wheelRadius, real(0.1), 1);
            w.inertia = unit.inertia * (w.mass / unit.mass);
            const BodyId wheel = addBody(w, {BodyId{}, Primitive::Capsule, Vec3(wheelRadius, real(0.1), 0), {0.12f, 0.12f, 0.12f}});
            JointDesc j;
            j.type = JointType::Wheel;
            j.a = {wheel, Vec3::Zero()};
            j.b = {holder, held};
            j.axisA = Vec3::UnitY();
            j.axisB = Vec3::UnitZ();
            j.suspensionAxis = Vec3::UnitY();
            j.suspension.limited = true;
            j.suspension.lower = real(-0.15);
            j.suspension.upper = real(0.25);
            j.suspension.springStiffness = 40000;
            j.suspension.springDamping = 3500;
            wheels_[k] = world_.createJoint(j);
        }
    }
};

} // namespace

std::unique_ptr<Scene> makeCar() { return std::make_unique<Car>(); }

} // namespace jounce::scenes
