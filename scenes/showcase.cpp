// SPDX-License-Identifier: MIT
// The demo's first scene: what the engine does, in one yard. A character to walk about
// (the arrow keys; the action jumps), a pyramid of crates to knock over, a ragdoll
// falling onto a ramp, a ray-cast car parked on its springs, a cloth hanging from a
// bar and a rope swinging down from a post.

#include "scenes/builtin.hpp"
#include "scenes/particle_scenes.hpp"

#include <cmath>
#include <numbers>

namespace jounce::scenes {
namespace {

const Colour showcaseCrate{0.75f, 0.55f, 0.3f};
const Colour showcaseStone{0.62f, 0.6f, 0.55f};

class Showcase final : public Scene {
public:
    Showcase() : hero_(world_, heroDesc()) {
        addStaticBox(Vec3(0, real(-0.5), 0), Vec3(20, real(0.5), 20), Quat::Identity(), {0.45f, 0.47f, 0.42f}, real(0.6));
        visuals_.push_back({hero_.body(), Primitive::Capsule, Vec3::Zero(), {0.2f, 0.5f, 0.9f}});
        // A pyramid of 0.5 m crates, five high, straight ahead of the character.
        for (int level = 0; level < 5; ++level)
            for (int i = 0; i < 5 - level; ++i) {
                BodyDesc d;
                d.position = Vec3(real(-1.0) + real(0.5) * static_cast<real>(i) + real(0.25) * static_cast<real>(level),
                                  real(0.25) + real(0.5) * static_cast<real>(level), 0);
                d.colliders.push_back(makeCollider(Box{Vec3::Constant(real(0.25))}, 80, {.friction = real(0.5)})); // 10 kg
                addBody(d, {BodyId{}, Primitive::Box, Vec3::Constant(real(0.25)), showcaseCrate});
            }
        // A ramp to the right and a ragdoll dropped onto it.
        addStaticBox(Vec3(6, real(0.6), 0), Vec3(2, real(0.15), real(1.5)), Quat(Eigen::AngleAxis<real>(real(0.35), Vec3::UnitZ())), showcaseStone, real(0.6));
        RagdollDesc person = humanoidRagdoll();
        person.pose = Transform{Vec3(real(5.5), 3, real(-0.8)), Quat(Eigen::AngleAxis<real>(real(1.2), Vec3::UnitX()))};
        person.angularDamping = real(0.5);
        const Ragdoll ragdoll = buildRagdoll(world_, person);
        for (std::size_t k = 0; k < ragdoll.bodies.size(); ++k)
            visuals_.push_back({ragdoll.bodies[k], Primitive::Capsule, Vec3::Zero(), {0.85f, 0.7f, 0.55f}});
        buildCar(Vec3(real(-4.5), real(1.0), real(2.5)));
        // A bar with a cloth hanging from it, and a post with a rope.
        addStaticBox(Vec3(0, real(3.2), -5), Vec3(real(1.6), real(0.05), real(0.05)), Quat::Identity(), showcaseStone, real(0.6));
        ClothDesc c;
        c.corner = Vec3(real(-1.5), real(3.1), -5);
        c.sideU = Vec3(3, 0, 0);
        c.sideV = Vec3(0, real(-2.2), 0);
        c.nu = 16;
        c.nv = 12;
        c.mass = real(0.4);
        for (int u = 0; u < c.nu; u += 3) c.pinned.push_back({u, 0});
        c.pinned.push_back({c.nu - 1, 0});
        cloth_ = buildCloth(world_, c);
        addStaticBox(Vec3(-5, real(2), -4), Vec3(real(0.1), 2, real(0.1)), Quat::Identity(), showcaseStone, real(0.6));
        RopeDesc r;
        r.from = Vec3(-5, real(3.9), real(-3.85));
        r.to = Vec3(real(-2.5), real(3.9), real(-3.85));
        r.segments = 30;
        r.mass = real(0.6);
        buildRope(world_, r);
        showParticles = true;
    }
    const char* name() const override { return "showcase"; }
    const char* description() const override {
        return "What Jounce does, in one yard: a character (arrow keys walk, the action jumps), a pyramid to knock over, a "
               "ragdoll, a ray-cast car, a cloth and a rope.";
    }
    Vec3 cameraTarget() const override { return Vec3(0, real(1.5), 0); }
    real cameraDistance() const override { return 17; }
    real cameraYaw() const override { return real(0.35); }

    std::vector<std::string> actions() const override { return {"Jump"}; }
    void act(std::size_t) override {
        if (hero_.onGround()) hero_.jump(5);
    }
    /// throttle: walk forward (+) or back; steer: turn left (+) or right.
    void control(real throttle, real steer) override {
        throttle_ = throttle;
        steer_ = steer;
    }
    void update(real h) override {
        heading_ += steer_ * 2 * h;
        const Vec3 forward(-std::sin(heading_), 0, -std::cos(heading_));
        hero_.update(world_, h, forward * (throttle_ * 4));
        car_->update(world_, h, {.brake = 1}); // parked
    }
    void draw(DrawList& out) const override {
        Scene::draw(out);
        drawParticleMesh(world_, cloth_.particles, cloth_.triangles, {0.8f, 0.2f, 0.25f}, true, out);
        drawCarWheels(world_, *car_, out);
    }

    const Character& hero() const { return hero_; }

private:
    Character hero_;
    std::unique_ptr<Vehicle> car_;
    Cloth cloth_;
    real heading_ = 0, throttle_ = 0, steer_ = 0;

    static CharacterDesc heroDesc() {
        CharacterDesc d;
        d.position = Vec3(0, 0, 6);
        return d;
    }
    void buildCar(const Vec3& at) { car_ = std::make_unique<Vehicle>(world_, carWheels(addCarChassis(*this, at))); }
};

} // namespace

std::unique_ptr<Scene> makeShowcase() { return std::make_unique<Showcase>(); }

} // namespace jounce::scenes
