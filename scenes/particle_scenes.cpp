// SPDX-License-Identifier: MIT
// Particle scenes: the benchmark rope, cloth64, balloon, softcube, sandpile and mixed
// (../shared/BENCH_SCENES.md), and the demo's hanging cloth, flag, rope bridge and blob.

#include "scenes/particle_scenes.hpp"
#include "scenes/bench_scenes.hpp"
#include "scenes/builtin.hpp"
#include "scenes/rigid_scenes.hpp"

#include <cmath>

namespace jounce::scenes {
namespace {

void groundPlane(Scene& scene) { addGroundSlab(scene, real(0.6)); }

/// A static body of one shape (friction `friction`), drawn as `primitive` of `size`.
BodyId addStaticShape(Scene& scene, const Vec3& at, const Shape& shape, real friction, Primitive primitive, const Vec3& size,
                      Colour colour) {
    BodyDesc body;
    body.type = BodyType::Static;
    body.position = at;
    ColliderDesc c;
    c.shape = shape;
    c.material.friction = friction;
    body.colliders.push_back(c);
    return scene.addBody(body, {BodyId{}, primitive, size, colour});
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
    addStaticShape(scene, Vec3(0, real(0.5), 0), Sphere{real(0.5)}, real(0.5), Primitive::Sphere, Vec3(real(0.5), 0, 0),
                   {0.55f, 0.4f, 0.35f});
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
    GranularDesc d;
    d.bottomCentre = Vec3(0, real(0.5), 0);
    d.nx = d.ny = d.nz = side;
    d.staticFriction = staticFriction;
    d.kineticFriction = kineticFriction;
    return buildGranularBlock(scene.world(), d);
}

Balloon buildBenchBalloon(Scene& scene, BodyId* box) {
    groundPlane(scene);
    BalloonDesc d;
    d.centre = Vec3(0, real(0.55), 0);
    d.radius = real(0.5);
    d.subdivisions = 3;
    d.mass = real(0.5);
    const Balloon balloon = buildBalloon(scene.world(), d);
    BodyDesc b;
    b.position = Vec3(0, real(1.05) + 1 + real(0.2), 0); // its bottom 1 m above the balloon's top
    ColliderDesc c;
    c.shape = Box{Vec3::Constant(real(0.2))};
    c.density = real(10) / real(0.064);
    c.material.friction = real(0.5);
    b.colliders.push_back(c);
    const BodyId id = scene.addBody(b, {BodyId{}, Primitive::Box, Vec3::Constant(real(0.2)), {0.75f, 0.5f, 0.25f}});
    if (box != nullptr) *box = id;
    return balloon;
}

SoftBody buildBenchSoftCube(Scene& scene) {
    groundPlane(scene);
    SoftBoxDesc d;
    d.centre = Vec3(0, real(1.5), 0); // its bottom 1 m above the ground
    d.halfExtents = Vec3::Constant(real(0.5));
    d.cells = 9;                      // 10 x 10 x 10 vertices
    d.mass = 5;
    return buildSoftBox(scene.world(), d);
}

MixedParts buildMixed(Scene& scene) {
    MixedParts parts;
    parts.pyramid = buildBenchScene(scene, "pyramid10").dynamic;
    ClothDesc c;
    c.corner = Vec3(-4, 11, -4);
    c.sideU = Vec3(8, 0, 0);
    c.sideV = Vec3(0, 0, 8);
    c.nu = c.nv = 32;
    c.mass = 10;                       // 10 g a particle, as heavy as a grain
    c.radius = real(0.12);             // half the spacing: no holes for a box corner
    parts.cloth = buildCloth(scene.world(), c);
    GranularDesc g;
    g.bottomCentre = Vec3(real(-2.5), 12, 0);
    g.nx = g.ny = g.nz = 10;
    g.radius = real(0.05);
    // Light grains (foam beads, 10 g): much heavier grains on 10 g cloth particles
    // squeeze the particles between grains and boxes faster than 2 iterations undo.
    g.grainMass = real(0.01);
    parts.sand = buildGranularBlock(scene.world(), g);
    return parts;
}

void drawParticleMesh(const World& world, const std::vector<ParticleId>& particles,
                      const std::vector<std::array<std::uint32_t, 3>>& triangles, Colour colour, bool bothSides,
                      DrawList& out) {
    auto corners = std::make_shared<std::vector<Vec3>>();
    corners->reserve(triangles.size() * (bothSides ? 6 : 3));
    std::vector<Vec3> at;
    at.reserve(particles.size());
    for (const ParticleId id : particles) at.push_back(world.particle(id).position);
    for (const auto& t : triangles) {
        const Vec3 a = at[t[0]], b = at[t[1]], c = at[t[2]];
        corners->insert(corners->end(), {a, b, c});
        if (bothSides) corners->insert(corners->end(), {a, c, b});
    }
    out.items.push_back({Primitive::Triangles, Transform{}, Vec3::Ones(), colour, corners});
}

namespace {

/// A scene that draws particle triangle meshes (cloth, balloons, soft bodies' skins)
/// instead of their particles.
class MeshScene : public Scene {
public:
    void draw(DrawList& out) const override {
        Scene::draw(out);
        for (const Mesh& m : meshes_) drawParticleMesh(world_, m.particles, m.triangles, m.colour, m.bothSides, out);
    }

protected:
    struct Mesh {
        std::vector<ParticleId> particles;
        std::vector<std::array<std::uint32_t, 3>> triangles;
        Colour colour{};
        bool bothSides = true; ///< cloth: both faces; closed skins: the outside only
    };
    void addMesh(const std::vector<ParticleId>& particles, const std::vector<std::array<std::uint32_t, 3>>& triangles,
                 Colour colour, bool bothSides) {
        meshes_.push_back({particles, triangles, colour, bothSides});
        showParticles = false;
    }
    std::vector<Mesh> meshes_;
};

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

class Cloth64Scene final : public MeshScene {
public:
    Cloth64Scene() {
        const Cloth cloth = buildCloth64(*this);
        addMesh(cloth.particles, cloth.triangles, {0.3f, 0.55f, 0.85f}, true);
    }
    const char* name() const override { return "cloth64"; }
    const char* description() const override {
        return "A 64 x 64 cloth dropped onto a sphere (stretch, shear and bending distance constraints).";
    }
    Vec3 cameraTarget() const override { return Vec3(0, real(0.8), 0); }
    real cameraDistance() const override { return 5; }
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

class HangingCloth final : public MeshScene {
public:
    HangingCloth() {
        groundPlane(*this);
        ClothDesc d;
        d.corner = Vec3(-1, 3, 0);
        d.sideU = Vec3(2, 0, 0);
        d.sideV = Vec3(0, 0, 2);
        d.nu = d.nv = 24;
        d.pinned = {{0, 0}, {23, 0}};
        d.bending = ClothDesc::Bending::Dihedral;
        d.bendCompliance = real(0.05);
        d.hierarchyLevels = 2; // hierarchical PBD: it does not sag between the corners
        const Cloth cloth = buildCloth(world_, d);
        addMesh(cloth.particles, cloth.triangles, {0.85f, 0.35f, 0.3f}, true);
    }
    const char* name() const override { return "cloth"; }
    const char* description() const override {
        return "A 24 x 24 cloth with dihedral bending and two levels of hierarchical PBD, hanging by two "
               "corners, released flat.";
    }
    Vec3 cameraTarget() const override { return Vec3(0, 2, 0); }
    real cameraDistance() const override { return 6; }
};

/// Cloth draping over a rigid box and a sphere (issue 5's demo list): two 32 x 32
/// cloths with soft bending dropped from half a metre.
class DrapeScene final : public MeshScene {
public:
    DrapeScene() {
        groundPlane(*this);
        const Vec3 half(real(0.35), real(0.4), real(0.35));
        addStaticShape(*this, Vec3(real(-0.9), real(0.4), 0), Box{half}, real(0.5), Primitive::Box, half, {0.55f, 0.4f, 0.35f});
        addStaticShape(*this, Vec3(real(0.9), real(0.4), 0), Sphere{real(0.4)}, real(0.5), Primitive::Sphere,
                       Vec3(real(0.4), 0, 0), {0.55f, 0.4f, 0.35f});
        for (const real x : {real(-0.9), real(0.9)}) {
            ClothDesc d;
            d.corner = Vec3(x - real(0.7), real(1.3), real(-0.7));
            d.sideU = Vec3(real(1.4), 0, 0);
            d.sideV = Vec3(0, 0, real(1.4));
            d.nu = d.nv = 32;
            d.mass = real(0.3);
            d.radius = real(0.02);
            d.bendCompliance = real(0.05); // skip-one links, soft: it falls in folds
            const Cloth cloth = buildCloth(world_, d);
            addMesh(cloth.particles, cloth.triangles, x < 0 ? Colour{0.3f, 0.55f, 0.85f} : Colour{0.85f, 0.35f, 0.3f}, true);
        }
    }
    const char* name() const override { return "drape"; }
    const char* description() const override {
        return "Two 32 x 32 cloths draping over a box and a sphere.";
    }
    Vec3 cameraTarget() const override { return Vec3(real(-0.6), real(0.4), 0); }
    real cameraDistance() const override { return real(4.5); }
};

/// Self-collision: a long strip dropped upright folds onto itself on the ground (its
/// surface keeps the layers apart), and grains poured onto a coarse trampoline stay
/// on it although they are smaller than its holes.
class FoldsScene final : public MeshScene {
public:
    FoldsScene() {
        groundPlane(*this);
        ClothDesc strip;
        strip.nu = 10;
        strip.nv = 50;
        strip.corner = Vec3(real(1.4), real(0.03), real(0.9));
        strip.sideU = Vec3(real(0.5), 0, 0);
        strip.sideV = Vec3(0, real(2.5), real(0.15));
        strip.mass = real(0.5);
        strip.radius = real(0.015);
        strip.bending = ClothDesc::Bending::None; // limp: it buckles into folds as it lands
        strip.surfaceThickness = real(0.012);
        const Cloth folding = buildCloth(world_, strip);
        addMesh(folding.particles, folding.triangles, {0.3f, 0.55f, 0.85f}, true);

        ClothDesc net;
        net.nu = net.nv = 13;
        net.corner = Vec3(real(1.2), real(0.8), real(-0.6));
        net.sideU = Vec3(real(1.2), 0, 0);
        net.sideV = Vec3(0, 0, real(1.2));
        net.mass = real(0.5);
        net.radius = real(0.01); // holes of 0.08 m between particles
        net.surfaceThickness = real(0.005);
        for (int k = 0; k < net.nu; ++k) net.pinned.insert(net.pinned.end(), {{k, 0}, {k, net.nv - 1}, {0, k}, {net.nu - 1, k}});
        const Cloth trampoline = buildCloth(world_, net);
        addMesh(trampoline.particles, trampoline.triangles, {0.85f, 0.6f, 0.25f}, true);
        GranularDesc g;
        g.bottomCentre = Vec3(real(1.8), real(1.6), 0);
        g.nx = g.nz = 6;
        g.ny = 4;
        g.radius = real(0.025); // smaller than the holes
        g.spacing = real(0.055);
        g.grainMass = real(0.005);
        buildGranularBlock(world_, g);
        showParticles = true; // the grains
    }
    const char* name() const override { return "folds"; }
    const char* description() const override {
        return "Particle surfaces: an upright strip folds onto itself without passing through, and grains "
               "smaller than a trampoline's holes stay on it.";
    }
    Vec3 cameraTarget() const override { return Vec3(real(1.5), real(0.4), real(0.4)); }
    real cameraDistance() const override { return 4; }
};

class BalloonScene final : public MeshScene {
public:
    BalloonScene() {
        const Balloon balloon = buildBenchBalloon(*this, nullptr);
        volume_ = balloon.volume;
        addMesh(balloon.particles, balloon.triangles, {0.9f, 0.3f, 0.35f}, false);
    }
    const char* name() const override { return "balloon"; }
    const char* description() const override {
        return "A balloon of 642 particles (pressure 1.0: it keeps its volume) squashed by a 10 kg box dropped from 1 m.";
    }
    std::vector<Parameter> parameters() const override {
        return {{"pressure", world_.particleVolume(volume_).pressure, real(0.5), 2}};
    }
    void setParameter(std::size_t, real value) override { world_.setVolumePressure(volume_, value); }
    Vec3 cameraTarget() const override { return Vec3(0, real(0.8), 0); }
    real cameraDistance() const override { return 4; }

private:
    ParticleVolumeId volume_;
};

class SoftCubeScene final : public MeshScene {
public:
    SoftCubeScene() {
        const SoftBody cube = buildBenchSoftCube(*this);
        addMesh(cube.particles, cube.surface, {0.35f, 0.7f, 0.4f}, false);
    }
    const char* name() const override { return "softcube"; }
    const char* description() const override {
        return "A 1 m cube of 10 x 10 x 10 particles cut into 4374 tets (volume and edge constraints), dropped from 1 m.";
    }
    Vec3 cameraTarget() const override { return Vec3(0, real(0.8), 0); }
    real cameraDistance() const override { return 5; }
};

class MixedScene final : public MeshScene {
public:
    MixedScene() {
        const MixedParts parts = buildMixed(*this);
        addMesh(parts.cloth.particles, parts.cloth.triangles, {0.8f, 0.75f, 0.3f}, true);
        showParticles = true; // the sand
    }
    const char* name() const override { return "mixed"; }
    const char* description() const override {
        return "pyramid10, a 32 x 32 cloth dropped over it and 1000 grains of sand poured on one side.";
    }
    Vec3 cameraTarget() const override { return Vec3(0, 5, 0); }
    real cameraDistance() const override { return 22; }
};

class FlagScene final : public MeshScene {
public:
    FlagScene() {
        groundPlane(*this);
        addStaticShape(*this, Vec3(real(-0.05), real(1.5), 0), Capsule{real(0.04), real(1.5)}, real(0.5), Primitive::Capsule,
                       Vec3(real(0.04), real(1.5), 0), {0.5f, 0.5f, 0.55f});
        ClothDesc d;
        d.corner = Vec3(0, 3, 0);
        d.sideU = Vec3(real(1.8), 0, 0);
        d.sideV = Vec3(0, real(-1.2), 0);
        d.nu = 27;
        d.nv = 18;
        d.mass = real(0.3);
        d.bending = ClothDesc::Bending::Dihedral;
        d.bendCompliance = real(0.1);
        for (int v = 0; v < d.nv; ++v) d.pinned.push_back({0, v}); // sewn to the pole
        flag_ = buildCloth(world_, d);
        addMesh(flag_.particles, flag_.triangles, {0.85f, 0.2f, 0.2f}, true);
    }
    const char* name() const override { return "flag"; }
    const char* description() const override {
        return "A flag on a pole in a gusty wind: the pressure and lift of the air on each triangle.";
    }
    void update(real h) override {
        time_ += h;
        // A steady 6 m/s breeze along +x with slow gusts and a turning sideways part.
        const real gust = 1 + real(0.35) * std::sin(real(1.3) * time_) + real(0.15) * std::sin(real(4.1) * time_);
        aero_.wind = Vec3(wind_ * gust, 0, real(0.8) * std::sin(real(0.7) * time_));
        applyAerodynamics(world_, flag_.particles, flag_.triangles, aero_);
    }
    std::vector<Parameter> parameters() const override { return {{"wind [m/s]", wind_, 0, 20}}; }
    void setParameter(std::size_t, real value) override { wind_ = value; }
    Vec3 cameraTarget() const override { return Vec3(1, real(2.2), 0); }
    real cameraDistance() const override { return 5; }

private:
    Cloth flag_;
    AeroDesc aero_;
    real wind_ = 6, time_ = 0;
};

class RopeBridgeScene final : public MeshScene {
public:
    RopeBridgeScene() {
        groundPlane(*this);
        ClothDesc d;
        d.corner = Vec3(-3, 2, real(-0.5));
        d.sideU = Vec3(6, 0, 0);
        d.sideV = Vec3(0, 0, 1);
        d.nu = 31;
        d.nv = 6;
        d.mass = 4;
        d.radius = real(0.1);
        d.shearCompliance = real(1e-3);
        for (int v = 0; v < d.nv; ++v) {
            d.pinned.push_back({0, v});
            d.pinned.push_back({d.nu - 1, v});
        }
        const Cloth deck = buildCloth(world_, d);
        // Its ends 5% closer than its length, hung as a circular arc of that chord (the
        // constraints stay at rest length): it sags as a rope bridge does, from the start.
        const real length = 6, chord = real(0.95) * length;
        real radius = length; // 2 R sin(L / 2R) = chord, by bisection on R
        for (real lo = length / 6, hi = 100 * length, k = 0; k < 100; ++k) {
            radius = (lo + hi) / 2;
            (2 * radius * std::sin(length / (2 * radius)) < chord ? lo : hi) = radius;
        }
        const real halfAngle = length / (2 * radius);
        for (int u = 0; u < d.nu; ++u)
            for (int v = 0; v < d.nv; ++v) {
                const real angle = (static_cast<real>(u) / static_cast<real>(d.nu - 1) - real(0.5)) * 2 * halfAngle;
                Vec3 at = world_.particle(deck.at(u, v)).position;
                at.x() = radius * std::sin(angle);
                at.y() = 2 - radius * (std::cos(angle) - std::cos(halfAngle));
                world_.setParticlePosition(deck.at(u, v), at);
            }
        for (const real x : {real(-3.05), real(3.05)}) // the banks
            for (const real z : {real(-0.75), real(0.75)})
                addStaticShape(*this, Vec3(x, 1, z), Box{Vec3(real(0.1), 1, real(0.1))}, real(0.5), Primitive::Box,
                               Vec3(real(0.1), 1, real(0.1)), {0.45f, 0.35f, 0.25f});
        addMesh(deck.particles, deck.triangles, {0.65f, 0.5f, 0.3f}, true);
    }
    const char* name() const override { return "ropebridge"; }
    const char* description() const override {
        return "A sagging particle bridge 6 m long, pinned at both banks: throw boxes on it.";
    }
    std::vector<std::string> actions() const override { return {"Throw a box"}; }
    void act(std::size_t) override {
        BodyDesc b;
        const real side = thrown_ % 2 == 0 ? real(-1) : real(1);
        b.position = Vec3(side * real(1.5), 4, 0);
        b.linearVelocity = Vec3(-side * real(1.5), -1, 0);
        b.angularVelocity = Vec3(1, 0, 2);
        ColliderDesc c;
        c.shape = Box{Vec3::Constant(real(0.2))};
        c.density = 300;
        c.material.friction = real(0.6);
        b.colliders.push_back(c);
        addBody(b, {BodyId{}, Primitive::Box, Vec3::Constant(real(0.2)), {0.3f, 0.45f, 0.75f}});
        ++thrown_;
    }
    Vec3 cameraTarget() const override { return Vec3(0, real(1.5), 0); }
    real cameraDistance() const override { return 8; }

private:
    int thrown_ = 0;
};

class BlobScene final : public Scene {
public:
    BlobScene() {
        groundPlane(*this);
        // Two of Millington's platforms, one above the other, tilted down in turn.
        PlatformDesc upper;
        upper.from = Vec3(-3, 3, 0);
        upper.to = Vec3(1, real(2.4), 0);
        buildPlatform(world_, upper);
        PlatformDesc lower;
        lower.from = Vec3(3, real(1.4), 0);
        lower.to = Vec3(-1, real(0.8), 0);
        buildPlatform(world_, lower);
        BlobDesc blob;
        blob.centre = Vec3(real(-2.5), real(3.8), 0);
        buildBlob(world_, blob);
    }
    const char* name() const override { return "blob"; }
    const char* description() const override {
        return "Millington's blob and platforms, position-based: a shape-matched blob rolls down two platforms of rods on cables.";
    }
    Vec3 cameraTarget() const override { return Vec3(0, real(1.8), 0); }
    real cameraDistance() const override { return 8; }
};

} // namespace

std::unique_ptr<Scene> makeRope() { return std::make_unique<RopeScene>(); }
std::unique_ptr<Scene> makeCloth64() { return std::make_unique<Cloth64Scene>(); }
std::unique_ptr<Scene> makeSandpile() { return std::make_unique<Sandpile>(); }
std::unique_ptr<Scene> makeHangingCloth() { return std::make_unique<HangingCloth>(); }
std::unique_ptr<Scene> makeBalloon() { return std::make_unique<BalloonScene>(); }
std::unique_ptr<Scene> makeSoftCube() { return std::make_unique<SoftCubeScene>(); }
std::unique_ptr<Scene> makeMixed() { return std::make_unique<MixedScene>(); }
std::unique_ptr<Scene> makeFlag() { return std::make_unique<FlagScene>(); }
std::unique_ptr<Scene> makeRopeBridge() { return std::make_unique<RopeBridgeScene>(); }
std::unique_ptr<Scene> makeBlob() { return std::make_unique<BlobScene>(); }
std::unique_ptr<Scene> makeFolds() { return std::make_unique<FoldsScene>(); }
std::unique_ptr<Scene> makeDrape() { return std::make_unique<DrapeScene>(); }

} // namespace jounce::scenes
