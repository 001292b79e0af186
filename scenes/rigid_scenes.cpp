// Scenes for the contact resolver's figures: an incline with angle and friction
// sliders, two boxes, a heavy box on a light one, and a row of spheres (the cradle).

#include "scenes/rigid_scenes.hpp"
#include "scenes/builtin.hpp"

#include <cmath>
#include <numbers>

namespace jounce::scenes {
namespace {

constexpr real density = 1000;

ColliderDesc collider(const Shape& shape, real friction, real restitution, real colliderDensity = density) {
    ColliderDesc c;
    c.shape = shape;
    c.density = colliderDensity;
    c.material.friction = friction;
    c.material.restitution = restitution;
    return c;
}

BodyId addStatic(Scene& scene, const Vec3& centre, const Quat& orientation, const Vec3& half, real friction,
                 real restitution = 0) {
    BodyDesc d;
    d.type = BodyType::Static;
    d.position = centre;
    d.orientation = orientation;
    d.colliders.push_back(collider(Box{half}, friction, restitution));
    return scene.addBody(d, {BodyId{}, Primitive::Box, half, {0.35f, 0.37f, 0.4f}});
}

BodyId addBox(Scene& scene, const Vec3& centre, const Quat& orientation, const Vec3& half, real boxDensity,
              real friction, Colour colour) {
    BodyDesc d;
    d.position = centre;
    d.orientation = orientation;
    d.colliders.push_back(collider(Box{half}, friction, 0, boxDensity));
    return scene.addBody(d, {BodyId{}, Primitive::Box, half, colour});
}

void addGround(Scene& scene, real friction, real restitution = 0) {
    addStatic(scene, Vec3(0, real(-0.5), 0), Quat::Identity(), Vec3(50, real(0.5), 50), friction, restitution);
}

} // namespace

BodyId buildIncline(Scene& scene, real angleDegrees, real friction) {
    const real angle = angleDegrees * std::numbers::pi_v<real> / 180;
    const Quat tilt(Eigen::AngleAxis<real>(-angle, Vec3::UnitZ())); // rises toward -x
    const Vec3 rampCentre(0, 4, 0);
    const Vec3 rampHalf(8, real(0.5), 3);
    addStatic(scene, rampCentre, tilt, rampHalf, friction);
    // The box sits on the ramp's top face, 3 m up the slope, turned with the ramp.
    const Vec3 alongDownhill = tilt * Vec3::UnitX(), up = tilt * Vec3::UnitY();
    const Vec3 at = rampCentre + up * (rampHalf.y() + real(0.5)) - alongDownhill * 3;
    return addBox(scene, at, tilt, Vec3::Constant(real(0.5)), density, friction, {0.85f, 0.55f, 0.25f});
}

std::array<BodyId, 2> buildTwoBoxes(Scene& scene) {
    addGround(scene, real(0.5));
    const BodyId lower = addBox(scene, Vec3(0, real(0.5), 0), Quat::Identity(), Vec3::Constant(real(0.5)), density,
                                real(0.5), {0.8f, 0.5f, 0.3f});
    const BodyId upper = addBox(scene, Vec3(real(0.2), real(2.5), real(0.1)), Quat(Eigen::AngleAxis<real>(real(0.3), Vec3::UnitY())),
                                Vec3::Constant(real(0.5)), density, real(0.5), {0.3f, 0.5f, 0.8f});
    return {lower, upper};
}

std::array<BodyId, 2> buildMassRatio(Scene& scene, real lowerMass, real upperMass) {
    addGround(scene, real(0.5));
    const BodyId lower = addBox(scene, Vec3(0, real(0.5), 0), Quat::Identity(), Vec3::Constant(real(0.5)), lowerMass,
                                real(0.5), {0.8f, 0.7f, 0.3f});
    const BodyId upper = addBox(scene, Vec3(0, real(1.5), 0), Quat::Identity(), Vec3::Constant(real(0.5)), upperMass,
                                real(0.5), {0.5f, 0.3f, 0.3f});
    return {lower, upper};
}

std::vector<BodyId> buildCradle(Scene& scene, int count, real restitution, real speed) {
    addGround(scene, 0);
    std::vector<BodyId> balls;
    for (int i = 0; i < count; ++i) {
        BodyDesc d;
        d.position = Vec3(static_cast<real>(i), real(0.5), 0);
        if (i == 0) d.linearVelocity = Vec3(speed, 0, 0);
        d.colliders.push_back(collider(Sphere{real(0.5)}, 0, restitution));
        balls.push_back(scene.addBody(d, {BodyId{}, Primitive::Sphere, Vec3::Constant(real(0.5)), {0.75f, 0.75f, 0.8f}}));
    }
    return balls;
}

namespace {

class Incline final : public Scene {
public:
    Incline() { rebuild(); }
    const char* name() const override { return "incline"; }
    const char* description() const override {
        return "A box on a ramp (friction 0.5): it holds below atan(0.5) = 26.6 degrees and slides above, "
               "with acceleration g (sin a - mu cos a). Actions tilt the ramp.";
    }
    Vec3 cameraTarget() const override { return Vec3(0, 4, 0); }
    real cameraDistance() const override { return 16; }
    std::vector<std::string> actions() const override {
        return {"20 degrees", "35 degrees", "friction 0.2", "friction 0.5", "friction 0.8"};
    }
    void act(std::size_t action) override {
        const real angles[] = {20, 35};
        const real frictions[] = {real(0.2), real(0.5), real(0.8)};
        if (action < 2) angle_ = angles[action];
        else if (action < 5) friction_ = frictions[action - 2];
        rebuild();
    }

private:
    void rebuild() {
        for (const BodyId id : world_.bodyIds()) removeBody(id);
        buildIncline(*this, angle_, friction_);
    }
    real angle_ = 20, friction_ = real(0.5);
};

class TwoBoxes final : public Scene {
public:
    TwoBoxes() { buildTwoBoxes(*this); }
    const char* name() const override { return "two-boxes"; }
    const char* description() const override {
        return "A box dropped onto another: the scene docs/debugging.md steps through in gdb.";
    }
    Vec3 cameraTarget() const override { return Vec3(0, 1, 0); }
    real cameraDistance() const override { return 7; }
};

class Cradle final : public Scene {
public:
    Cradle() { buildCradle(*this, 5, 1, 2); }
    const char* name() const override { return "cradle"; }
    const char* description() const override {
        return "Five touching spheres with restitution 1 on a frictionless floor; the first one hits the row at 2 m/s.";
    }
    Vec3 cameraTarget() const override { return Vec3(3, real(0.5), 0); }
    real cameraDistance() const override { return 10; }
};

} // namespace

std::unique_ptr<Scene> makeIncline() { return std::make_unique<Incline>(); }
std::unique_ptr<Scene> makeTwoBoxes() { return std::make_unique<TwoBoxes>(); }
std::unique_ptr<Scene> makeCradle() { return std::make_unique<Cradle>(); }

} // namespace jounce::scenes
