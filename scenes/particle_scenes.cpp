// Particle scenes: the benchmark rope, cloth and sand pile, and a hanging cloth.

#include "scenes/particle_scenes.hpp"
#include "scenes/builtin.hpp"

namespace jounce::scenes {
namespace {

void groundPlane(Scene& scene) {
    BodyDesc d;
    d.type = BodyType::Static;
    d.position = Vec3(0, real(-0.5), 0);
    ColliderDesc c;
    c.shape = Box{Vec3(50, real(0.5), 50)};
    c.material.friction = real(0.6);
    d.colliders.push_back(c);
    scene.addBody(d, {BodyId{}, Primitive::Box, Vec3(50, real(0.5), 50), {0.35f, 0.37f, 0.4f}});
}

} // namespace

Rope buildBenchRope(Scene& scene) {
    groundPlane(scene);
    RopeDesc d;
    d.from = Vec3(0, 3, 0);
    d.to = Vec3(2, 3, 0);
    d.segments = 99;
    d.mass = 1;
    d.radius = real(0.01);
    return buildRope(scene.world(), d);
}

Cloth buildCloth64(Scene& scene) {
    groundPlane(scene);
    BodyDesc ball;
    ball.type = BodyType::Static;
    ball.position = Vec3(0, real(0.5), 0);
    ColliderDesc c;
    c.shape = Sphere{real(0.5)};
    c.material.friction = real(0.5);
    ball.colliders.push_back(c);
    scene.addBody(ball, {BodyId{}, Primitive::Sphere, Vec3(real(0.5), 0, 0), {0.55f, 0.4f, 0.35f}});
    ClothDesc d;
    d.corner = Vec3(-1, 2, -1);
    d.sideU = Vec3(2, 0, 0);
    d.sideV = Vec3(0, 0, 2);
    d.nu = d.nv = 64;
    d.mass = real(0.5);
    d.radius = real(0.015);
    return buildCloth(scene.world(), d);
}

std::vector<ParticleId> buildSandpile(Scene& scene, int side, real staticFriction, real kineticFriction) {
    groundPlane(scene);
    std::vector<ParticleId> grains;
    const real spacing = real(0.11), half = spacing * static_cast<real>(side - 1) / 2;
    for (int y = 0; y < side; ++y)
        for (int z = 0; z < side; ++z)
            for (int x = 0; x < side; ++x) {
                ParticleDesc p;
                // A perfect lattice of spheres stands like a crystal; real grains are
                // not stacked exactly, so each is offset by up to 5 mm (a fixed hash:
                // the same every run).
                const std::uint32_t k = static_cast<std::uint32_t>(x + side * (z + side * y)) * 2654435761u;
                const Vec3 jitter(real((k >> 8) % 1001) / 1000 - real(0.5), 0, real((k >> 18) % 1001) / 1000 - real(0.5));
                p.position = Vec3(spacing * static_cast<real>(x) - half, real(0.5) + spacing * static_cast<real>(y),
                                  spacing * static_cast<real>(z) - half) + jitter * real(0.01);
                p.radius = real(0.05);
                p.mass = real(0.5);
                p.staticFriction = staticFriction;
                p.kineticFriction = kineticFriction;
                grains.push_back(scene.world().createParticle(p));
            }
    return grains;
}

void drawCloth(const World& world, const Cloth& cloth, Colour colour, DrawList& out) {
    auto corners = std::make_shared<std::vector<Vec3>>();
    corners->reserve(cloth.triangles.size() * 6);
    const ParticleSystem& ps = world.particles();
    for (const auto& t : cloth.triangles) {
        const Vec3 a = ps.x[cloth.particles[t[0]].index], b = ps.x[cloth.particles[t[1]].index],
                   c = ps.x[cloth.particles[t[2]].index];
        corners->insert(corners->end(), {a, b, c, a, c, b}); // front and back
    }
    out.items.push_back({Primitive::Triangles, Transform{}, Vec3::Ones(), colour, corners});
}

namespace {

class RopeScene final : public Scene {
public:
    RopeScene() { buildBenchRope(*this); }
    const char* name() const override { return "rope"; }
    const char* description() const override {
        return "A 2 m rope of 100 particles pinned at one end, let go from horizontal (XPBD, one direct chain solve).";
    }
    Vec3 cameraTarget() const override { return Vec3(0, real(1.8), 0); }
    real cameraDistance() const override { return 7; }
};

class Cloth64Scene final : public Scene {
public:
    Cloth64Scene() {
        cloth_ = buildCloth64(*this);
        showParticles = false;
    }
    const char* name() const override { return "cloth64"; }
    const char* description() const override {
        return "A 64 x 64 cloth dropped onto a sphere (stretch, shear and bending distance constraints).";
    }
    Vec3 cameraTarget() const override { return Vec3(0, real(0.8), 0); }
    real cameraDistance() const override { return 5; }
    void draw(DrawList& out) const override {
        Scene::draw(out);
        drawCloth(world_, cloth_, {0.3f, 0.55f, 0.85f}, out);
    }

private:
    Cloth cloth_;
};

class Sandpile final : public Scene {
public:
    Sandpile() { buildSandpile(*this); }
    const char* name() const override { return "sandpile"; }
    const char* description() const override {
        return "4096 grains (radius 5 cm, mu_s 1.0, mu_k 0.5) poured from a block onto the ground.";
    }
    Vec3 cameraTarget() const override { return Vec3(0, real(0.6), 0); }
    real cameraDistance() const override { return 6; }
};

class HangingCloth final : public Scene {
public:
    HangingCloth() {
        groundPlane(*this);
        ClothDesc d;
        d.corner = Vec3(-1, 3, 0);
        d.sideU = Vec3(2, 0, 0);
        d.sideV = Vec3(0, 0, 2);
        d.nu = d.nv = 24;
        d.pinned = {{0, 0}, {23, 0}};
        cloth_ = buildCloth(world_, d);
        showParticles = false;
    }
    const char* name() const override { return "cloth"; }
    const char* description() const override {
        return "A 24 x 24 cloth hanging by two corners, released flat.";
    }
    Vec3 cameraTarget() const override { return Vec3(0, 2, 0); }
    real cameraDistance() const override { return 6; }
    void draw(DrawList& out) const override {
        Scene::draw(out);
        drawCloth(world_, cloth_, {0.85f, 0.35f, 0.3f}, out);
    }

private:
    Cloth cloth_;
};

} // namespace

std::unique_ptr<Scene> makeRope() { return std::make_unique<RopeScene>(); }
std::unique_ptr<Scene> makeCloth64() { return std::make_unique<Cloth64Scene>(); }
std::unique_ptr<Scene> makeSandpile() { return std::make_unique<Sandpile>(); }
std::unique_ptr<Scene> makeHangingCloth() { return std::make_unique<HangingCloth>(); }

} // namespace jounce::scenes
