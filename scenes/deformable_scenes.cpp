// SPDX-License-Identifier: MIT
// Scenes of ARAP deformables (issue 6; Choi 2017's figures): bars of three stiffnesses
// sagging side by side (Fig. 1), a bar twisted and dragged by handles (Fig. 2), and a
// creature collapsed to a point that recovers its shape (Fig. 3).

#include "scenes/builtin.hpp"
#include "scenes/rigid_scenes.hpp"
#include "scenes/scene.hpp"

#include <jounce/deformable/deformable_builders.hpp>
#include <jounce/collision/mass_properties.hpp>

#include <cmath>
#include <numbers>

namespace jounce::scenes {
namespace {

class ArapBarsScene final : public Scene {
public:
    ArapBarsScene() {
        addGroundSlab(*this, real(0.6));
        const real k = real(3e8);
        for (int i = 0; i < 3; ++i) {
            ArapBarDesc b;
            b.start = Vec3(-1, real(1.5), real(0.6) * static_cast<real>(i - 1));
            b.stiffness = k * static_cast<real>(1 << i); // k, 2k, 4k
            b.damping = 1;
            clampArapBar(world_, buildArapBar(world_, b));
        }
    }
    const char* name() const override { return "arap_bars"; }
    const char* description() const override {
        return "Choi 2017 Fig. 1: bars of 20 oriented particles clamped at one end, stiffness k, 2k and 4k, "
               "sagging under gravity (the sag halves with each doubling).";
    }
    Vec3 cameraTarget() const override { return Vec3(0, real(1.2), 0); }
    real cameraDistance() const override { return 5; }
};

/// The bench bar: one clamped bar of 20 particles and 19 edges (the paper's 0.51 ms figure).
class ArapBarScene final : public Scene {
public:
    ArapBarScene() {
        addGroundSlab(*this, real(0.6));
        ArapBarDesc b;
        b.start = Vec3(-1, real(1.5), 0);
        b.damping = 1;
        clampArapBar(world_, buildArapBar(world_, b));
    }
    const char* name() const override { return "arap_bar"; }
    const char* description() const override {
        return "One bar of 20 oriented particles and 19 edges clamped at one end by 25 handles (Choi 2017's "
               "timing model).";
    }
    Vec3 cameraTarget() const override { return Vec3(0, real(1.2), 0); }
    real cameraDistance() const override { return 4; }
};

class ArapTwistScene final : public Scene {
public:
    ArapTwistScene() {
        addGroundSlab(*this, real(0.6));
        ArapBarDesc b;
        b.start = Vec3(-1, real(1.5), 0);
        b.damping = 1;
        bar_ = buildArapBar(world_, b);
        clampArapBar(world_, bar_);
        DeformableHandleDesc pull;
        pull.vertex = bar_.endCentre;
        end_ = world_.deformable(bar_.id).restVertices[bar_.endCentre];
        pull.target = end_;
        pull_ = world_.createDeformableHandle(bar_.id, pull);
        DeformableHandleDesc twist;
        twist.kind = DeformableHandleDesc::Kind::Direction;
        twist.vertex = bar_.endCentre;
        twist.restDirection = Vec3::UnitY();
        twist.target = Vec3::UnitY();
        twist_ = world_.createDeformableHandle(bar_.id, twist);
    }
    void update(real h) override {
        // The end circles in the y-z plane while it turns up to a full twist and back.
        time_ += h;
        const real angle = std::numbers::pi_v<real> * std::sin(real(0.5) * time_);
        world_.setDeformableHandleTarget(bar_.id, pull_, end_ + real(0.4) * Vec3(0, std::sin(time_), std::cos(time_) - 1));
        world_.setDeformableHandleTarget(bar_.id, twist_, Vec3(0, std::cos(angle), std::sin(angle)));
    }
    const char* name() const override { return "arap_twist"; }
    const char* description() const override {
        return "Choi 2017 Fig. 2: a bar of 20 oriented particles, one end clamped, the other dragged in a circle "
               "and twisted by a position and a direction handle.";
    }
    Vec3 cameraTarget() const override { return Vec3(0, real(1.4), 0); }
    real cameraDistance() const override { return 4; }

private:
    ArapBar bar_;
    DeformableHandleId pull_, twist_;
    Vec3 end_ = Vec3::Zero();
    real time_ = 0;
};

class ArapCreatureScene final : public Scene {
public:
    ArapCreatureScene() {
        WorldSettings s = world_.settings();
        s.gravity = Vec3::Zero(); // floating: Fig. 3 shows the shape coming back, nothing else
        world_.setSettings(s);
        addGroundSlab(*this, real(0.6));
        SampledGraphDesc g;
        g.damping = 1;
        g.stiffness = 1e8;
        creature_ = buildArapCreature(world_, Vec3(0, real(0.5), 0), g);
        collapse();
    }
    std::vector<std::string> actions() const override { return {"Collapse to a point"}; }
    void act(std::size_t) override { collapse(); }
    const char* name() const override { return "arap_creature"; }
    const char* description() const override {
        return "Choi 2017 Fig. 3: a creature of 100 oriented particles (k-nearest edges) put at one point with "
               "random orientations returns to its shape.";
    }
    Vec3 cameraTarget() const override { return Vec3(0, real(0.8), 0); }
    real cameraDistance() const override { return 3; }

private:
    void collapse() {
        const Deformable& d = world_.deformable(creature_);
        for (std::size_t i = 0; i < d.size(); ++i) {
            seed_ = seed_ * 6364136223846793005ull + 1442695040888963407ull;
            const auto part = [this](int shift) { return static_cast<real>((seed_ >> shift) & 0xffff) / 32768 - 1; };
            world_.setDeformableParticlePose(creature_, i, Vec3(0, real(0.8), 0),
                                             Quat(part(0), part(16), part(32), part(48) + real(0.001)).normalized());
        }
    }
    DeformableId creature_;
    std::uint64_t seed_ = 1;
};

/// Fig. 4: the creature falls on the floor and on a pile of rigid boxes.
class ArapFallScene final : public Scene {
public:
    ArapFallScene() {
        addGroundSlab(*this, real(0.6));
        const Vec3 half(real(0.25), real(0.15), real(0.25));
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3 - i; ++j) {
                BodyDesc box;
                box.position = Vec3(real(0.8) + real(0.52) * static_cast<real>(j) + real(0.26) * static_cast<real>(i),
                                    half.y() * (2 * static_cast<real>(i) + 1), 0);
                box.mass = 20;
                ColliderDesc c;
                c.shape = Box{half};
                box.colliders.push_back(c);
                box.inertia = solidBox(half, 20 / (8 * half.prod())).inertia;
                addBody(box, {BodyId{}, Primitive::Box, half, {0.6f, 0.6f, 0.65f}});
            }
        SampledGraphDesc g;
        g.damping = real(0.5);
        buildArapCreature(world_, Vec3(-real(0.6), real(1.2), 0), g);
        SampledGraphDesc h = g;
        buildArapCreature(world_, Vec3(real(1.2), real(1.8), 0), h);
    }
    const char* name() const override { return "arap_fall"; }
    const char* description() const override {
        return "Choi 2017 Fig. 4: creatures of 100 oriented particles falling on the floor and on a pile of boxes "
               "(ellipsoids against shapes at their support points, with friction).";
    }
    Vec3 cameraTarget() const override { return Vec3(real(0.5), real(0.6), 0); }
    real cameraDistance() const override { return 5; }
};

} // namespace

std::unique_ptr<Scene> makeArapFall() { return std::make_unique<ArapFallScene>(); }
std::unique_ptr<Scene> makeArapBars() { return std::make_unique<ArapBarsScene>(); }
std::unique_ptr<Scene> makeArapBar() { return std::make_unique<ArapBarScene>(); }
std::unique_ptr<Scene> makeArapTwist() { return std::make_unique<ArapTwistScene>(); }
std::unique_ptr<Scene> makeArapCreature() { return std::make_unique<ArapCreatureScene>(); }

} // namespace jounce::scenes
