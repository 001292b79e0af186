// SPDX-License-Identifier: MIT
// A gantry crane built from joints (docs/joints.md, "6-DOF joints"): a trolley on a
// slider along the gantry's beam, driven by its motor; a hook hanging from the trolley
// on a 6-DOF joint whose vertical travel is the hoist (limited, driven by a winch motor
// that brakes when let go), whose swing is limited about two axes and whose twist is
// free with a little friction; a crate on a rope (a distance joint) from the hook. The
// arrow keys drive the trolley (left/right) and the winch (up/down); the action lets the
// crate go, or picks up the nearest crate under the hook.

#include "scenes/builtin.hpp"

#include <algorithm>
#include <cmath>

namespace jounce::scenes {
namespace {

constexpr real beamHeight = 9;         ///< the trolley's rail [m]
constexpr real trolleySpeed = 3;       ///< [m/s], full stick
constexpr real winchSpeed = real(1.5); ///< [m/s], full stick
constexpr real ropeLength = real(1.2); ///< hook to crate [m]
constexpr real crateHalf = real(0.4);
constexpr real swingLimit = real(0.6); ///< the hook's swing about each horizontal axis [rad]

class Crane final : public Scene {
public:
    Crane() {
        BodyDesc ground;
        ground.type = BodyType::Static;
        ground.position = Vec3(0, -real(0.5), 0);
        ground.colliders.push_back(makeCollider(Box{Vec3(20, real(0.5), 20)}, 1000, {.friction = real(0.8)}));
        addBody(ground, {BodyId{}, Primitive::Box, Vec3(20, real(0.5), 20), {0.45f, 0.45f, 0.42f}});
        // The gantry: a beam on two legs (static; the trolley runs under the beam).
        addStatic(Vec3(0, beamHeight + real(0.45), 0), Vec3(9, real(0.2), real(0.3)));
        for (const real x : {real(-8.7), real(8.7)}) addStatic(Vec3(x, (beamHeight + real(0.25)) / 2, 0), Vec3(real(0.3), (beamHeight + real(0.25)) / 2, real(0.3)));
        buildTrolleyAndHook();
        // Crates to lift: one on the rope, a stack to pick from.
        crate_ = addCrate(hookPosition() - Vec3(0, real(0.25) + ropeLength + crateHalf, 0)); // the rope just taut
        hangCrate(crate_);
        for (int level = 0; level < 3; ++level)
            for (int i = 0; i < 3 - level; ++i)
                addCrate(Vec3(real(-5) + real(0.85) * static_cast<real>(i) + real(0.42) * static_cast<real>(level),
                              crateHalf + 2 * crateHalf * static_cast<real>(level), 0));
    }
    const char* name() const override { return "crane"; }
    const char* description() const override {
        return "A gantry crane: a trolley on a slider, a hook on a 6-DOF joint (hoist travel with a winch motor, "
               "limited swing, free twist), a crate on a rope. Arrow keys: left/right trolley, up/down winch.";
    }
    Vec3 cameraTarget() const override { return Vec3(0, 4, 0); }
    real cameraDistance() const override { return 22; }

    std::vector<std::string> actions() const override { return {"Let go of the crate / pick up the nearest"}; }
    void act(std::size_t) override {
        if (!rope_.isNull()) {
            world_.destroyJoint(rope_);
            rope_ = JointId{};
            return;
        }
        // The nearest crate within reach of the hook (its rope's length and a little).
        const Vec3 hook = hookPosition();
        real best = ropeLength + real(1.5);
        BodyId pick{};
        for (const BodyId c : crates_) {
            const real d = (world_.body(c).position - hook).norm();
            if (d < best) {
                best = d;
                pick = c;
            }
        }
        if (!pick.isNull()) hangCrate(pick);
    }

    /// throttle: the winch (+ raises the hook); steer: the trolley (+ toward +x).
    void control(real throttle, real steer) override {
        JointMotion trolley = world_.joint(rail_).desc.motion;
        trolley.motorSpeed = steer * trolleySpeed;
        world_.setJointMotion(rail_, trolley);
        JointMotion hoist = world_.joint(hook_).desc.dofMotion[TranslationX];
        hoist.motorSpeed = -throttle * winchSpeed; // the hoist's axis points down
        world_.setJointDofMotion(hook_, TranslationX, hoist);
    }

    BodyId trolley() const { return trolley_; }
    BodyId hook() const { return hookBody_; }
    JointId hookJoint() const { return hook_; }
    JointId rope() const { return rope_; }

private:
    BodyId trolley_{}, hookBody_{}, crate_{};
    JointId rail_{}, hook_{}, rope_{};
    std::vector<BodyId> crates_;

    void addStatic(const Vec3& at, const Vec3& half) {
        BodyDesc d;
        d.type = BodyType::Static;
        d.position = at;
        d.colliders.push_back(makeCollider(Box{half}, 1000));
        addBody(d, {BodyId{}, Primitive::Box, half, {0.85f, 0.65f, 0.1f}});
    }

    /// A solid box of `mass` [kg] (its density from its volume).
    BodyId addSolid(const Vec3& at, const Vec3& half, real mass, const Colour& colour) {
        BodyDesc d;
        d.position = at;
        d.colliders.push_back(makeCollider(Box{half}, mass / (8 * half.prod())));
        return addBody(d, {BodyId{}, Primitive::Box, half, colour});
    }

    BodyId addCrate(const Vec3& at) {
        BodyDesc d;
        d.position = at;
        d.colliders.push_back(makeCollider(Box{Vec3::Constant(crateHalf)}, 150, {.friction = real(0.6)}));
        const BodyId c = addBody(d, {BodyId{}, Primitive::Box, Vec3::Constant(crateHalf), {0.7f, 0.5f, 0.28f}});
        crates_.push_back(c);
        return c;
    }

    Vec3 hookPosition() const { return world_.body(hookBody_).position; }

    void hangCrate(BodyId crate) {
        JointDesc rope;
        rope.type = JointType::Distance;
        rope.a = {crate, Vec3(0, crateHalf, 0)};
        rope.b = {hookBody_, Vec3(0, -real(0.25), 0)};
        rope.motion.limited = true;
        rope.motion.upper = ropeLength;
        rope.collide = true;
        rope_ = world_.createJoint(rope);
    }

    void buildTrolleyAndHook() {
        // The trolley: 300 kg on a slider along the beam (x), its motor the drive.
        trolley_ = addSolid(Vec3(0, beamHeight, 0), Vec3(real(0.5), real(0.2), real(0.4)), 300, {0.2f, 0.3f, 0.6f});
        JointDesc rail;
        rail.type = JointType::Slider;
        rail.a = {trolley_, Vec3::Zero()};
        rail.b = {BodyId{}, Vec3(0, beamHeight, 0)};
        rail.axisA = rail.axisB = Vec3::UnitX();
        rail.motion.limited = true;
        rail.motion.lower = -7;
        rail.motion.upper = 7;
        rail.motion.motor = true;
        rail.motion.maxMotorForce = 6000; // a brake when the stick is let go
        rail_ = world_.createJoint(rail);
        // The hook: 60 kg, 3 m below, on a 6-DOF joint whose frame's x points down (the
        // hoist's travel), y along the beam, z across it.
        hookBody_ = addSolid(Vec3(0, beamHeight - 3, 0), Vec3(real(0.2), real(0.25), real(0.2)), 60, {0.9f, 0.75f, 0.1f});
        JointDesc j;
        j.type = JointType::SixDof;
        j.a = {hookBody_, Vec3(0, real(0.25), 0)};
        j.b = {trolley_, Vec3::Zero()};
        j.axisA = j.axisB = -Vec3::UnitY();
        j.normalA = j.normalB = Vec3::UnitX();
        j.dofLocked = {false, true, true, false, false, false};
        JointMotion& hoist = j.dofMotion[TranslationX];
        hoist.limited = true;
        hoist.lower = 1;
        hoist.upper = 7;
        hoist.motor = true;
        hoist.maxMotorForce = 20000; // 15 times the hook and its crate (60 + 77 kg); at 0 speed: the brake
        j.dofMotion[RotationX].friction = 20; // twist: free, damped
        for (const SixDofAxis swing : {RotationY, RotationZ}) {
            JointMotion& m = j.dofMotion[swing];
            m.limited = true;
            m.lower = -swingLimit;
            m.upper = swingLimit;
            m.friction = 30; // the hook's pivot is stiff: its swings die out
        }
        hook_ = world_.createJoint(j);
    }
};

} // namespace

std::unique_ptr<Scene> makeCrane() { return std::make_unique<Crane>(); }

} // namespace jounce::scenes
