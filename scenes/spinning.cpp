// SPDX-License-Identifier: MIT
// The intermediate-axis theorem ("Dzhanibekov effect"): three identical boxes with
// half extents (0.25, 0.5, 1.0) m, so I_x > I_y > I_z, spun at 4 rad/s about x (major),
// y (intermediate) and z (minor), each with a 1% nudge about another axis. Spins about
// the major and minor axes stay put; the intermediate one flips every few seconds.
// Gravity is off. This needs the gyroscopic term (GyroscopicMode).

#include "scenes/builtin.hpp"

namespace jounce::scenes {
namespace {

const Vec3 halfExtents(real(0.25), real(0.5), real(1.0));

class Spinning final : public Scene {
public:
    Spinning() {
        WorldSettings s = world_.settings();
        s.gravity = Vec3::Zero();
        world_.setSettings(s);
        const Colour colours[] = {{0.3f, 0.6f, 0.9f}, {0.9f, 0.35f, 0.3f}, {0.4f, 0.8f, 0.4f}};
        for (int axis = 0; axis < 3; ++axis) {
            BodyDesc d;
            d.position = Vec3(real(4 * (axis - 1)), 3, 0);
            const MassProperties mp = solidBox(halfExtents, 500);
            d.mass = mp.mass;
            d.inertia = mp.inertia;
            d.canSleep = false;
            boxes_[axis] = addBody(d, {BodyId{}, Primitive::Box, halfExtents, colours[axis]});
        }
        spin();
    }

    const char* name() const override { return "spinning"; }
    const char* description() const override {
        return "Torque-free boxes spun about the major (blue), intermediate (red) and minor (green) axes";
    }
    Vec3 cameraTarget() const override { return Vec3(0, 3, 0); }
    real cameraDistance() const override { return 14; }
    std::vector<std::string> actions() const override { return {"Reset spins"}; }
    void act(std::size_t) override { spin(); }

    /// Body handles: [0] spun about x (major), [1] about y (intermediate), [2] about z (minor).
    static constexpr real rate = 4;
    static constexpr real nudge = real(0.01);

private:
    void spin() {
        for (int axis = 0; axis < 3; ++axis) {
            world_.setOrientation(boxes_[axis], Quat::Identity());
            Vec3 w = Vec3::Zero();
            w[axis] = rate;
            w[(axis + 1) % 3] = rate * nudge;
            world_.setAngularVelocity(boxes_[axis], w);
        }
    }

    BodyId boxes_[3];
};

} // namespace

std::unique_ptr<Scene> makeSpinning() { return std::make_unique<Spinning>(); }

} // namespace jounce::scenes
