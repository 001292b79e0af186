// The 'contacts' view: kinematic bodies on scripted paths (moved through their
// velocities, so they pass through each other: nothing resolves contacts yet) over a
// ground plane and a static block, with every manifold the narrow phase reports drawn
// live: red points, yellow normals pointing from B toward A.

#include "scenes/builtin.hpp"

#include <cmath>

namespace jounce::scenes {
namespace {

class Contacts final : public Scene {
public:
    Contacts() {
        showContacts = true;
        BodyDesc ground;
        ground.type = BodyType::Static;
        ground.colliders.push_back({HalfSpace{}, Transform{}, 1000, {}, {}});
        addBody(ground, {BodyId{}, Primitive::Plane, Vec3::Zero(), {0.35f, 0.37f, 0.4f}});
        BodyDesc block;
        block.type = BodyType::Static;
        block.position = Vec3(0, real(0.5), 0);
        block.colliders.push_back({Box{Vec3(1, real(0.5), 1)}, Transform{}, 1000, {}, {}});
        addBody(block, {BodyId{}, Primitive::Box, Vec3::Zero(), {0.55f, 0.55f, 0.6f}});

        box_ = addMover(Box{Vec3(real(0.5), real(0.5), real(0.5))}, {0.9f, 0.5f, 0.2f});
        capsule_ = addMover(Capsule{real(0.3), real(0.8)}, {0.3f, 0.7f, 0.9f});
        sphere_ = addMover(Sphere{real(0.6)}, {0.5f, 0.85f, 0.4f});
        place(0);
    }
    const char* name() const override { return "contacts"; }
    const char* description() const override {
        return "Kinematic box, capsule and sphere on scripted paths; every contact manifold drawn live. "
               "Drag a body with the left mouse button.";
    }
    Vec3 cameraTarget() const override { return Vec3(0, 1, 0); }
    real cameraDistance() const override { return 9; }

    void update(real h) override {
        time_ += h;
        place(time_ + h); // velocities that carry each body to its path point at the end of the step
    }

private:
    BodyId addMover(const Shape& shape, Colour colour) {
        BodyDesc d;
        d.type = BodyType::Kinematic;
        d.canSleep = false;
        d.colliders.push_back({shape, Transform{}, 1000, {}, {}});
        return addBody(d, {BodyId{}, Primitive::Box, Vec3::Zero(), colour});
    }

    /// Scripted poses at time t; velocities are set so one step of h lands on them.
    struct Pose {
        Vec3 position;
        Vec3 angularVelocity;
    };
    static Pose boxPath(real t) { return {Vec3(real(0.6) * std::sin(t), real(1.45) + real(0.1) * std::sin(3 * t), 0), Vec3(real(0.3), real(0.7), 0)}; }
    static Pose capsulePath(real t) { return {Vec3(3 * std::cos(real(0.5) * t), real(0.35), real(2.2)), Vec3(0, 0, real(0.9))}; }
    static Pose spherePath(real t) { return {Vec3(real(1.9) * std::cos(real(0.8) * t), real(0.55), real(1.9) * std::sin(real(0.8) * t)), Vec3::Zero()}; }

    void moveAlong(BodyId id, const Pose& target) {
        if (id == grabbed()) return; // the mouse has it
        const real h = timeStep();
        const Body& b = world_.body(id);
        if (world_.stepCount() == 0 && time_ == 0) world_.setPosition(id, target.position);
        world_.setLinearVelocity(id, (target.position - b.position) / h);
        world_.setAngularVelocity(id, target.angularVelocity);
    }
    void place(real t) {
        moveAlong(box_, boxPath(t));
        moveAlong(capsule_, capsulePath(t));
        moveAlong(sphere_, spherePath(t));
    }

    BodyId box_, capsule_, sphere_;
    real time_ = 0;
};

} // namespace

std::unique_ptr<Scene> makeContacts() { return std::make_unique<Contacts>(); }

} // namespace jounce::scenes
