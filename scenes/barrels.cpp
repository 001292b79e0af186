// SPDX-License-Identifier: MIT
// Cylinders and scaled shapes (docs/collision.md): barrels roll down a ramp into ten
// bowling pins, drums stand stacked on their caps, a coin rolls away on its edge,
// and three boulders are one rock hull scaled three ways. The action rolls another barrel.

#include "scenes/builtin.hpp"

#include <cmath>
#include <numbers>

namespace jounce::scenes {
namespace {

constexpr real pi = std::numbers::pi_v<real>;
constexpr real rampAngle = real(0.3);
const Colour barrelColour{0.6f, 0.35f, 0.18f}, pinColour{0.92f, 0.92f, 0.88f}, drumColour{0.3f, 0.45f, 0.75f},
    coinColour{0.9f, 0.75f, 0.25f};

class Barrels final : public Scene {
public:
    Barrels() {
        BodyDesc ground;
        ground.type = BodyType::Static;
        ground.colliders.push_back(makeCollider(HalfSpace{}, 1000, {.friction = real(0.6)}));
        addBody(ground, {BodyId{}, Primitive::Plane, Vec3(30, 0, 30), {0.35f, 0.37f, 0.4f}});
        // A ramp down toward -x, its top edge 3 m up.
        const Quat tilt(Eigen::AngleAxis<real>(rampAngle, Vec3::UnitZ()));
        addStaticBox(Vec3(6, real(1.4), 0), Vec3(5, real(0.2), real(2.5)), tilt, {0.5f, 0.5f, 0.45f}, real(0.8));
        for (int k = 0; k < 3; ++k) rollBarrel(real(k) - 1);
        // Ten pins in a triangle at the ramp's foot.
        for (int row = 0; row < 4; ++row)
            for (int k = 0; k <= row; ++k)
                addCylinder(Cylinder{real(0.12), real(0.38)}, Vec3(real(-2) - real(0.36) * real(row), real(0.38), real(0.42) * (real(k) - real(row) / 2)),
                            Quat::Identity(), 150, pinColour);
        // Four drums stacked on their caps.
        for (int k = 0; k < 4; ++k)
            addCylinder(Cylinder{real(0.35), real(0.45)}, Vec3(-3, real(0.45) + real(0.9) * real(k), -5), Quat::Identity(), 300, drumColour);
        // A coin on its edge, leaning a little, rolling forward: it rights itself as it rolls.
        const Quat upright(Eigen::AngleAxis<real>(pi / 2, Vec3::UnitX()));
        const Quat lean(Eigen::AngleAxis<real>(real(0.15), Vec3::UnitX()));
        const BodyId coin = addCylinder(Cylinder{real(0.3), real(0.03)}, Vec3(2, real(0.31), 5), lean * upright, 2000, coinColour);
        world_.setLinearVelocity(coin, Vec3(real(1.8), 0, 0));
        world_.setAngularVelocity(coin, Vec3(0, 0, real(-1.8) / real(0.3))); // rolling: v = -w_z r
        // One rock, three boulders: scaled(shape, scale) makes a stretched copy of a shape.
        const std::vector<Vec3> rock{{0.5, 0, 0}, {-0.4, 0.1, 0.3}, {0, 0.5, -0.1}, {0.1, -0.4, 0.4}, {-0.2, -0.3, -0.4}, {0.3, 0.2, 0.45}};
        const ConvexHull hull = makeConvexHull(rock);
        const Vec3 scales[] = {{1, 1, 1}, {2, 1, 1}, {real(1.5), real(0.6), real(1.5)}};
        for (int k = 0; k < 3; ++k) {
            BodyDesc d;
            d.position = Vec3(real(-6) + real(2.5) * real(k), real(1.5), 4);
            d.colliders.push_back(makeCollider(scaled(hull, scales[k]), 1500, {.friction = real(0.7)}));
            addBody(d, {BodyId{}, Primitive::Triangles, Vec3::Ones(), {0.55f, 0.55f, 0.5f}});
        }
    }
    const char* name() const override { return "barrels"; }
    const char* description() const override {
        return "Cylinders: barrels roll down a ramp into ten pins, drums stand stacked on their caps, a coin rolls on its "
               "edge; three boulders are one rock hull scaled three ways. The action rolls another barrel.";
    }
    Vec3 cameraTarget() const override { return Vec3(1, 1, 0); }
    real cameraDistance() const override { return 15; }
    real cameraYaw() const override { return real(0.5); }

    std::vector<std::string> actions() const override { return {"Roll a barrel"}; }
    void act(std::size_t) override { rollBarrel(0); }

private:
    int rolled_ = 0;

    BodyId addCylinder(const Cylinder& c, const Vec3& at, const Quat& q, real density, const Colour& colour) {
        BodyDesc d;
        d.position = at;
        d.orientation = q;
        d.colliders.push_back(makeCollider(c, density, {.friction = real(0.6)}));
        return addBody(d, {BodyId{}, Primitive::Cylinder, Vec3(c.radius, c.halfHeight, 0), colour});
    }

    /// A barrel lying across the ramp near its top, axis along z, offset `z` sideways.
    void rollBarrel(real z) {
        const Quat tilt(Eigen::AngleAxis<real>(rampAngle, Vec3::UnitZ()));
        const Vec3 up = tilt * Vec3::UnitY(), down = tilt * Vec3(-1, 0, 0);
        const real r = real(0.4);
        const Vec3 onTop = Vec3(6, real(1.4), 0) + up * real(0.2) + down * real(-3.5 + 0.9 * (rolled_ % 3));
        const Quat sideways = Quat(Eigen::AngleAxis<real>(pi / 2, Vec3::UnitX()));
        addCylinder(Cylinder{r, real(0.55)}, onTop + up * (r + real(0.01)) + Vec3(0, 0, z * real(1.3)), sideways, 250, barrelColour);
        ++rolled_;
    }
};

} // namespace

std::unique_ptr<Scene> makeBarrels() { return std::make_unique<Barrels>(); }

} // namespace jounce::scenes
