// SPDX-License-Identifier: MIT
// A level for the character mover (docs/character.md): stairs, a walkable ramp beside one
// too steep to climb, a bumpy triangle-mesh hill, a platform sliding to and fro, a
// turntable, and stacks of light crates to knock over. The arrow keys walk (up/down)
// and turn (left/right); the action jumps.

#include "scenes/builtin.hpp"

#include <cmath>
#include <numbers>

namespace jounce::scenes {
namespace {

constexpr real walkSpeed = 4;       ///< [m/s], full stick
constexpr real turnRate = 2;        ///< [rad/s], full stick
constexpr real jumpSpeed = real(5); ///< [m/s]: 1.27 m high
const Colour stone{0.62f, 0.6f, 0.55f};
const Colour crate{0.75f, 0.55f, 0.3f};

/// A bumpy 8 m square hill of 0.5 m cells (heights a sum of waves, 0 at its rim).
BodyDesc hill(const Vec3& at) {
    std::vector<Vec3> vertices;
    constexpr int cells = 16;
    for (int i = 0; i <= cells; ++i)
        for (int k = 0; k <= cells; ++k) {
            const real u = static_cast<real>(i) / cells, v = static_cast<real>(k) / cells;
            const real rim = std::sin(std::numbers::pi_v<real> * u) * std::sin(std::numbers::pi_v<real> * v);
            const real height = rim * (real(1.2) + real(0.15) * std::sin(real(9) * u) * std::cos(real(7) * v));
            vertices.emplace_back(8 * u - 4, height, 8 * v - 4);
        }
    const std::vector<std::array<std::uint32_t, 3>> triangles = gridTriangles(cells);
    BodyDesc d;
    d.type = BodyType::Static;
    d.position = at;
    // (made by makeCollider: assigning a mesh into a default ColliderDesc's shape trips
    // GCC 12's maybe-uninitialized warning on the variant's shared_ptr)
    d.colliders.push_back(makeCollider(makeTriangleMesh(vertices, triangles), 1000, {.friction = real(0.8)}));
    return d;
}

class CharacterLevel final : public Scene {
public:
    CharacterLevel() : hero_(world_, heroDesc()) {
        BodyDesc ground;
        ground.type = BodyType::Static;
        ground.position = Vec3(0, -real(0.5), 0);
        ground.colliders.push_back(makeCollider(Box{Vec3(20, real(0.5), 20)}, 1000, {.friction = real(0.6)}));
        addBody(ground, {BodyId{}, Primitive::Box, Vec3(20, real(0.5), 20), {0.45f, 0.47f, 0.42f}});
        visuals_.push_back({hero_.body(), Primitive::Capsule, Vec3::Zero(), {0.2f, 0.5f, 0.9f}});
        // Stairs of 0.2 m up toward -z behind the crates, to a landing 1.2 m high.
        for (int i = 0; i < 6; ++i) {
            const real h = real(0.1) * static_cast<real>(i + 1);
            addStatic(Vec3(0, h, real(-6.2) - real(0.4) * static_cast<real>(i) - 1), Vec3(real(1.5), h, 1), Quat::Identity());
        }
        // Ramps to the right: 25 degrees (walkable) and 55 (too steep), rising toward -z.
        addRamp(Vec3(5, 0, 2), 25);
        addRamp(Vec3(8, 0, 2), 55);
        // The hill to the left.
        addBody(hill(Vec3(-8, 0, -1)), {BodyId{}, Primitive::Triangles, Vec3::Zero(), {0.3f, 0.45f, 0.25f}});
        // A platform sliding along x and a turntable, both kinematic.
        platform_ = addMover(Vec3(-8, real(0.3), 7), Vec3(real(1.2), real(0.1), real(1.2)));
        turntable_ = addMover(Vec3(8, real(0.15), 8), Vec3(2, real(0.15), 2));
        world_.setAngularVelocity(turntable_, Vec3(0, real(0.6), 0));
        // Crates to knock over: a tower in the way and a wall to the side.
        for (int level = 0; level < 4; ++level)
            for (int i = 0; i < 2; ++i) addCrate(Vec3(real(-0.3) + real(0.6) * static_cast<real>(i), real(0.3) + real(0.6) * static_cast<real>(level), 0));
        for (int level = 0; level < 3; ++level)
            for (int i = 0; i < 4; ++i) addCrate(Vec3(-3, real(0.3) + real(0.6) * static_cast<real>(level), real(2.2) + real(0.6) * static_cast<real>(i)));
    }
    const char* name() const override { return "character"; }
    const char* description() const override {
        return "A character mover in a level: stairs, a walkable and a too-steep ramp, a triangle-mesh hill, a sliding "
               "platform, a turntable, crates to knock over. Arrow keys: walk and turn; action: jump.";
    }
    Vec3 cameraTarget() const override { return Vec3(0, 1, 0); }
    real cameraDistance() const override { return 18; }
    real cameraYaw() const override { return 0; }

    std::vector<std::string> actions() const override { return {"Jump"}; }
    void act(std::size_t) override {
        if (hero_.onGround()) hero_.jump(jumpSpeed);
    }
    /// throttle: walk forward (+) or back; steer: turn left (+) or right.
    void control(real throttle, real steer) override {
        throttle_ = throttle;
        steer_ = steer;
    }
    void update(real h) override {
        time_ += h;
        // The platform's next pose: to and fro 3 m along x over 6 s.
        const real x = -8 + 3 * std::sin(std::numbers::pi_v<real> * time_ / 3);
        world_.moveKinematic(platform_, Transform{Vec3(x, real(0.3), 7), Quat::Identity()});
        heading_ += steer_ * turnRate * h;
        const Vec3 forward(-std::sin(heading_), 0, -std::cos(heading_)); // heading 0 walks toward -z
        hero_.update(world_, h, forward * (throttle_ * walkSpeed));
    }

    const Character& hero() const { return hero_; }

private:
    Character hero_;
    BodyId platform_{}, turntable_{};
    real time_ = 0, heading_ = 0, throttle_ = 0, steer_ = 0;

    static CharacterDesc heroDesc() {
        CharacterDesc d;
        d.position = Vec3(0, 0, 5);
        return d;
    }
    void addStatic(const Vec3& at, const Vec3& half, const Quat& q) { addStaticBox(at, half, q, stone, real(0.6)); }
    /// A 6 m long ramp at `degrees`, its low edge at `foot`, rising toward -z.
    void addRamp(const Vec3& foot, real degrees) {
        const real a = degrees * std::numbers::pi_v<real> / 180;
        const Quat q(Eigen::AngleAxis<real>(a, Vec3::UnitX()));
        const Vec3 half(1, real(0.25), 3);
        addStatic(foot + q * Vec3(0, -real(0.25), -3), half, q);
    }
    BodyId addMover(const Vec3& at, const Vec3& half) {
        BodyDesc d;
        d.type = BodyType::Kinematic;
        d.position = at;
        d.canSleep = false;
        d.colliders.push_back(makeCollider(Box{half}, 1000, {.friction = real(0.8)}));
        return addBody(d, {BodyId{}, Primitive::Box, half, {0.85f, 0.65f, 0.1f}});
    }
    void addCrate(const Vec3& at) {
        BodyDesc d;
        d.position = at;
        d.colliders.push_back(makeCollider(Box{Vec3::Constant(real(0.3))}, 100, {.friction = real(0.5)})); // 21.6 kg
        addBody(d, {BodyId{}, Primitive::Box, Vec3::Constant(real(0.3)), crate});
    }
};

} // namespace

std::unique_ptr<Scene> makeCharacterLevel() { return std::make_unique<CharacterLevel>(); }

} // namespace jounce::scenes
