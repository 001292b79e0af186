// SPDX-License-Identifier: MIT
// Springs side by side (Millington ch. 6): a box on a damped anchored spring, a ball
// on a bungee dropped from above its anchor (free fall until the cord is taut), a
// box on a fake stiff spring far too stiff for explicit integration at 60 Hz
// (k = 20000 N/m on 1 kg: omega h = 2.4 > 2), and a box bobbing in water.

#include "scenes/builtin.hpp"

namespace jounce::scenes {
namespace {

class Springs final : public Scene {
public:
    Springs() {
        addGround(30);
        addSpring(Vec3(-6, 8, 0));
        addBungee(Vec3(-2, 8, 0));
        addFakeSpring(Vec3(2, 8, 0));
        addBuoyantBox(Vec3(6, 0, 0));
    }
    const char* name() const override { return "springs"; }
    const char* description() const override {
        return "Spring, bungee, fake stiff spring and buoyancy side by side";
    }
    Vec3 cameraTarget() const override { return Vec3(0, 4, 0); }
    real cameraDistance() const override { return 20; }
    real cameraYaw() const override { return real(0.15); } // the four side by side

private:
    BodyId addBox(const Vec3& at, real mass, const Vec3& half, Colour colour) {
        BodyDesc d;
        d.position = at;
        const MassProperties mp = solidBox(half, mass / (8 * half.x() * half.y() * half.z()));
        d.mass = mp.mass;
        d.inertia = mp.inertia;
        return addBody(d, {BodyId{}, Primitive::Box, half, colour});
    }

    void addSpring(const Vec3& anchor) {
        const BodyId box = addBox(anchor - Vec3(0, 2, 0), 2, Vec3::Constant(real(0.3)), {0.9f, 0.8f, 0.3f});
        Spring s;
        s.a = {box, Vec3(real(0.1), real(0.3), 0)}; // off-centre, so the box also rocks
        s.b = {BodyId{}, anchor};
        s.stiffness = 60;
        s.restLength = 2;
        s.damping = real(0.5);
        world_.createForceGenerator(s);
    }

    void addBungee(const Vec3& anchor) {
        BodyDesc d;
        d.position = anchor + Vec3(real(0.5), 0, 0);
        const MassProperties mp = solidSphere(real(0.3), 500);
        d.mass = mp.mass;
        d.inertia = mp.inertia;
        const BodyId ball = addBody(d, {BodyId{}, Primitive::Sphere, Vec3(real(0.3), 0, 0), {0.9f, 0.4f, 0.2f}});
        Bungee b;
        b.a = {ball, Vec3::Zero()};
        b.b = {BodyId{}, anchor};
        b.stiffness = 400;
        b.restLength = 3;
        b.damping = 2;
        world_.createForceGenerator(b);
    }

    void addFakeSpring(const Vec3& anchor) {
        const BodyId box = addBox(anchor + Vec3(real(1.5), -1, 0), 1, Vec3::Constant(real(0.25)), {0.4f, 0.9f, 0.9f});
        FakeSpring f;
        f.body = box;
        f.anchor = anchor - Vec3(0, 2, 0);
        f.stiffness = 20000;
        f.damping = 20;
        world_.createForceGenerator(f);
    }

    void addBuoyantBox(const Vec3& surfaceCentre) {
        BodyDesc water;
        water.type = BodyType::Static;
        water.position = surfaceCentre + Vec3(0, real(1.5), 0);
        addBody(water, {BodyId{}, Primitive::Plane, Vec3(real(1.5), 0, real(1.5)), {0.2f, 0.4f, 0.9f}});
        // A 0.6 m cube of density 500 floats half submerged; dropped from 1 m above.
        const real half = real(0.3);
        const BodyId box = addBox(water.position + Vec3(0, 1, 0), 500 * 8 * half * half * half,
                                  Vec3::Constant(half), {0.6f, 0.45f, 0.3f});
        Buoyancy b;
        b.body = box;
        b.maxDepth = half;
        b.volume = 8 * half * half * half;
        b.waterHeight = water.position.y();
        world_.createForceGenerator(b);
        world_.createForceGenerator(Drag{box, 5, 0});
    }
};

} // namespace

std::unique_ptr<Scene> makeSprings() { return std::make_unique<Springs>(); }

} // namespace jounce::scenes
