// SPDX-License-Identifier: MIT
// Scenes for the contact resolver's figures: an incline with angle and friction
// sliders, two boxes, a heavy box on a light one, and a row of spheres (the cradle).

#include "scenes/rigid_scenes.hpp"
#include "scenes/bench_scenes.hpp"
#include "scenes/builtin.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace jounce::scenes {
namespace {

constexpr real density = 1000;

ColliderDesc collider(const Shape& shape, real friction, real restitution, real colliderDensity = density) {
    return makeCollider(shape, colliderDensity, {friction, restitution});
}

BodyId addStatic(Scene& scene, const Vec3& centre, const Quat& orientation, const Vec3& half, real friction,
                 real restitution = 0) {
    BodyDesc d;
    d.type = BodyType::Static;
    d.position = centre;
    d.orientation = orientation;
    d.colliders.push_back(collider(Box{half}, friction, restitution));
    return scene.addBody(d, {BodyId{}, Primitive::Box, half, {0.35f, 0.37f, 0.4f}});
}

BodyId addBox(Scene& scene, const Vec3& centre, const Quat& orientation, const Vec3& half, real boxDensity,
              real friction, Colour colour) {
    BodyDesc d;
    d.position = centre;
    d.orientation = orientation;
    d.colliders.push_back(collider(Box{half}, friction, 0, boxDensity));
    return scene.addBody(d, {BodyId{}, Primitive::Box, half, colour});
}

} // namespace

void addGroundSlab(Scene& scene, real friction, real restitution) {
    addStatic(scene, Vec3(0, real(-0.5), 0), Quat::Identity(), Vec3(50, real(0.5), 50), friction, restitution);
}

BodyId buildIncline(Scene& scene, real angleDegrees, real friction) {
    const real angle = angleDegrees * std::numbers::pi_v<real> / 180;
    const Quat tilt(Eigen::AngleAxis<real>(-angle, Vec3::UnitZ())); // rises toward -x
    const Vec3 rampCentre(0, 4, 0);
    const Vec3 rampHalf(8, real(0.5), 3);
    addStatic(scene, rampCentre, tilt, rampHalf, friction);
    // The box sits on the ramp's top face, 3 m up the slope, turned with the ramp.
    const Vec3 alongDownhill = tilt * Vec3::UnitX(), up = tilt * Vec3::UnitY();
    const Vec3 at = rampCentre + up * (rampHalf.y() + real(0.5)) - alongDownhill * 3;
    return addBox(scene, at, tilt, Vec3::Constant(real(0.5)), density, friction, {0.85f, 0.55f, 0.25f});
}

std::array<BodyId, 2> buildTwoBoxes(Scene& scene) {
    addGroundSlab(scene, real(0.5));
    const BodyId lower = addBox(scene, Vec3(0, real(0.5), 0), Quat::Identity(), Vec3::Constant(real(0.5)), density,
                                real(0.5), {0.8f, 0.5f, 0.3f});
    const BodyId upper = addBox(scene, Vec3(real(0.2), real(2.5), real(0.1)), Quat(Eigen::AngleAxis<real>(real(0.3), Vec3::UnitY())),
                                Vec3::Constant(real(0.5)), density, real(0.5), {0.3f, 0.5f, 0.8f});
    return {lower, upper};
}

std::array<BodyId, 2> buildMassRatio(Scene& scene, real lowerMass, real upperMass) {
    addGroundSlab(scene, real(0.5));
    const BodyId lower = addBox(scene, Vec3(0, real(0.5), 0), Quat::Identity(), Vec3::Constant(real(0.5)), lowerMass,
                                real(0.5), {0.8f, 0.7f, 0.3f});
    const BodyId upper = addBox(scene, Vec3(0, real(1.5), 0), Quat::Identity(), Vec3::Constant(real(0.5)), upperMass,
                                real(0.5), {0.5f, 0.3f, 0.3f});
    return {lower, upper};
}

std::vector<BodyId> buildCradle(Scene& scene, int count, real restitution, real speed) {
    addGroundSlab(scene, 0);
    std::vector<BodyId> balls;
    for (int i = 0; i < count; ++i) {
        BodyDesc d;
        d.position = Vec3(static_cast<real>(i), real(0.5), 0);
        if (i == 0) d.linearVelocity = Vec3(speed, 0, 0);
        d.colliders.push_back(collider(Sphere{real(0.5)}, 0, restitution));
        balls.push_back(scene.addBody(d, {BodyId{}, Primitive::Sphere, Vec3::Constant(real(0.5)), {0.75f, 0.75f, 0.8f}}));
    }
    return balls;
}

namespace {

class Incline final : public Scene {
public:
    Incline() { rebuild(); }
    const char* name() const override { return "incline"; }
    const char* description() const override {
        return "A box on a ramp: with friction mu it holds below atan(mu) (26.6 degrees for 0.5) and slides "
               "above with acceleration g (sin a - mu cos a). Sliders set the angle and mu.";
    }
    Vec3 cameraTarget() const override { return Vec3(0, 4, 0); }
    real cameraDistance() const override { return 16; }
    std::vector<Parameter> parameters() const override {
        return {{"angle [deg]", angle_, 0, 60}, {"friction", friction_, 0, real(1.5)}};
    }
    void setParameter(std::size_t index, real value) override {
        const std::vector<Parameter> p = parameters();
        if (index >= p.size() || !std::isfinite(value)) return;
        (index == 0 ? angle_ : friction_) = std::clamp(value, p[index].min, p[index].max);
        rebuild();
    }

private:
    void rebuild() {
        for (const BodyId id : world_.bodyIds()) removeBody(id);
        buildIncline(*this, angle_, friction_);
    }
    real angle_ = 20, friction_ = real(0.5);
};

class TwoBoxes final : public Scene {
public:
    TwoBoxes() { buildTwoBoxes(*this); }
    const char* name() const override { return "two-boxes"; }
    const char* description() const override {
        return "A box dropped onto another: the scene docs/debugging.md steps through in gdb.";
    }
    Vec3 cameraTarget() const override { return Vec3(0, 1, 0); }
    real cameraDistance() const override { return 7; }
};

class Cradle final : public Scene {
public:
    Cradle() { buildCradle(*this, 5, 1, 2); }
    const char* name() const override { return "cradle"; }
    const char* description() const override {
        return "Five touching spheres with restitution 1 on a frictionless floor; the first one hits the row at 2 m/s.";
    }
    Vec3 cameraTarget() const override { return Vec3(3, real(0.5), 0); }
    real cameraDistance() const override { return 10; }
};

} // namespace

std::unique_ptr<Scene> makeIncline() { return std::make_unique<Incline>(); }
std::unique_ptr<Scene> makeTwoBoxes() { return std::make_unique<TwoBoxes>(); }
std::unique_ptr<Scene> makeCradle() { return std::make_unique<Cradle>(); }

} // namespace jounce::scenes

namespace jounce::scenes {

std::vector<BodyId> buildBoxRagdoll(Scene& scene, const Vec3& pelvis) {
    // Boxes for the parts (half extents) and ball joints at the shoulders, hips, neck
    // and knees; limbs overlap their parent at the joint and skip its collisions.
    struct Part {
        Vec3 centre, half;
        int parent;      ///< index into parts, -1 for the root
        Vec3 joint;      ///< world point of the joint to the parent (at build time)
    };
    const Vec3 p = pelvis;
    const std::vector<Part> parts{
        {p + Vec3(0, real(0.35), 0), Vec3(real(0.2), real(0.35), real(0.12)), -1, Vec3::Zero()},          // torso
        {p + Vec3(0, real(0.85), 0), Vec3::Constant(real(0.12)), 0, p + Vec3(0, real(0.72), 0)},            // head
        {p + Vec3(real(-0.38), real(0.55), 0), Vec3(real(0.16), real(0.06), real(0.06)), 0, p + Vec3(real(-0.22), real(0.6), 0)}, // left arm
        {p + Vec3(real(0.38), real(0.55), 0), Vec3(real(0.16), real(0.06), real(0.06)), 0, p + Vec3(real(0.22), real(0.6), 0)},   // right arm
        {p + Vec3(real(-0.1), real(-0.25), 0), Vec3(real(0.07), real(0.22), real(0.07)), 0, p + Vec3(real(-0.1), real(-0.02), 0)}, // left thigh
        {p + Vec3(real(0.1), real(-0.25), 0), Vec3(real(0.07), real(0.22), real(0.07)), 0, p + Vec3(real(0.1), real(-0.02), 0)},   // right thigh
        {p + Vec3(real(-0.1), real(-0.7), 0), Vec3(real(0.06), real(0.22), real(0.06)), 4, p + Vec3(real(-0.1), real(-0.47), 0)},  // left shin
        {p + Vec3(real(0.1), real(-0.7), 0), Vec3(real(0.06), real(0.22), real(0.06)), 5, p + Vec3(real(0.1), real(-0.47), 0)},    // right shin
    };
    std::vector<BodyId> ids;
    for (const Part& part : parts) {
        const BodyId id = addBox(scene, part.centre, Quat::Identity(), part.half, density, real(0.6), {0.85f, 0.7f, 0.55f});
        if (part.parent >= 0) {
            const BodyId parent = ids[static_cast<std::size_t>(part.parent)];
            JointDesc j;
            j.type = JointType::Ball;
            j.a = {id, scene.world().body(id).transform().toLocal(part.joint)};
            j.b = {parent, scene.world().body(parent).transform().toLocal(part.joint)};
            scene.world().createJoint(j);
        }
        ids.push_back(id);
    }
    return ids;
}

std::vector<BodyId> buildStairs(Scene& scene, int steps) {
    addGroundSlab(scene, real(0.6));
    std::vector<BodyId> treads;
    for (int i = 0; i < steps; ++i) {
        const real rise = real(0.4) * static_cast<real>(i + 1);
        treads.push_back(addStatic(scene, Vec3(-real(0.8) * static_cast<real>(i), rise / 2, 0), Quat::Identity(),
                                   Vec3(real(0.4), rise / 2, 2), real(0.6)));
    }
    return treads;
}

namespace {

class Ragdolls final : public Scene {
public:
    Ragdolls() {
        buildStairs(*this, 8);
        // Five people with human-like limits (jounce::humanoidRagdoll), each turned a
        // different way, dropped in a pile onto the top of the stairs.
        for (int i = 0; i < 5; ++i) {
            const real k = static_cast<real>(i);
            RagdollDesc d = humanoidRagdoll();
            d.pose.orientation = Quat(Eigen::AngleAxis<real>(real(1.1) * k + real(0.4), Vec3(std::sin(k), real(0.5), std::cos(k)).normalized()));
            const Vec3 pelvis(real(-5.6) + real(0.25) * k, real(4.6) + real(1.3) * k, real(-0.8) + real(0.4) * k);
            d.pose.position = pelvis - d.pose.orientation * Vec3(0, real(0.95), 0);
            const Ragdoll r = buildRagdoll(world_, d);
            const Colour skin = i % 2 == 0 ? Colour{0.85f, 0.7f, 0.55f} : Colour{0.55f, 0.65f, 0.85f};
            for (const BodyId id : r.bodies) {
                const Capsule c = std::get<Capsule>(world_.collider(world_.colliderIdsOf(id)[0]).shape);
                visuals_.push_back({id, Primitive::Capsule, Vec3(c.radius, c.halfHeight, 0), skin});
            }
        }
    }
    const char* name() const override { return "ragdolls"; }
    const char* description() const override {
        return "Five ragdolls (capsules on swing-twist and limited hinge joints) tumbling down stairs in a pile.";
    }
    Vec3 cameraTarget() const override { return Vec3(-2, 2, 0); }
    real cameraDistance() const override { return 12; }
};

} // namespace

std::unique_ptr<Scene> makeRagdolls() { return std::make_unique<Ragdolls>(); }

} // namespace jounce::scenes

namespace jounce::scenes {

void ShockWave::detonate(const Vec3& centre) {
    centre_ = centre;
    radius_ = 0;
    active_ = true;
    hit_.clear();
}

Vec3 ShockWave::impulseOn(const Vec3& at, real mass) const {
    const Vec3 d = at - centre_;
    const real distance = d.norm();
    if (!(distance < reach) || !(distance > real(1e-6))) return Vec3::Zero();
    // A velocity change that falls off linearly to zero at the reach, times the mass:
    // every body the wave passes at the same distance flies off at the same speed.
    return d / distance * (mass * peakSpeed * (1 - distance / reach));
}

void ShockWave::advance(World& world, real h) {
    if (!active_) return;
    const real from = radius_;
    radius_ += speed * h;
    for (const BodyId id : world.bodyIds()) {
        const BodyState b = world.body(id);
        if (!b.isDynamic()) continue;
        const real distance = (b.centerOfMass - centre_).norm();
        // The front reaches a body once: when it passes the body's centre.
        if (distance < from || distance >= radius_) continue;
        const Vec3 j = impulseOn(b.centerOfMass, real(1) / b.inverseMass);
        if (j.isZero()) continue;
        world.applyImpulse(id, j, b.centerOfMass); // a push, no spin
        hit_.push_back(id);
    }
    if (radius_ >= reach) active_ = false;
}

namespace {

class ExplosionScene final : public Scene {
public:
    ExplosionScene() { buildBenchScene(*this, "pyramid10"); }
    const char* name() const override { return "explosion"; }
    const char* description() const override {
        return "A pyramid of 55 boxes and a charge in front of it: the shock wave's front travels at 30 m/s "
               "and gives each box it passes a kick away from the centre, falling off to nothing at 8 m.";
    }
    Vec3 cameraTarget() const override { return Vec3(0, 3, 0); }
    real cameraDistance() const override { return 22; }
    std::vector<std::string> actions() const override { return {"Detonate"}; }
    void act(std::size_t) override { wave_.detonate(Vec3(0, real(0.5), real(2.5))); }
    void update(real h) override { wave_.advance(world_, h); }

private:
    ShockWave wave_;
};

} // namespace

std::unique_ptr<Scene> makeExplosion() { return std::make_unique<ExplosionScene>(); }

} // namespace jounce::scenes

namespace jounce::scenes {

BodyId fireRound(Scene& scene, const Vec3& from, const Vec3& velocity, real mass, real radius) {
    BodyDesc d;
    d.position = from;
    d.linearVelocity = velocity;
    d.canSleep = false;
    const real volume = 4 * std::numbers::pi_v<real> / 3 * radius * radius * radius;
    d.colliders.push_back(collider(Sphere{radius}, real(0.4), real(0.1), mass / volume));
    return scene.addBody(d, {BodyId{}, Primitive::Sphere, Vec3::Constant(radius), {0.2f, 0.2f, 0.25f}});
}

std::vector<BodyId> splitBox(Scene& scene, BodyId block) {
    // Millington's fracture demo cuts the block at a random point; here the cut is at
    // the middle of every axis (eight equal pieces), so the result is deterministic.
    // Each piece keeps the block's velocity at its own centre (v + w x r) and its spin.
    World& w = scene.world();
    const BodyState b = w.body(block);
    const Collider& c = w.collider(w.colliderIdsOf(block).front());
    const Vec3 half = std::get<Box>(c.shape).halfExtents / 2;
    const ColliderDesc piece = collider(Box{half}, c.material.friction, c.material.restitution, c.density);
    scene.removeBody(block);
    std::vector<BodyId> pieces;
    for (int i = 0; i < 8; ++i) {
        const Vec3 offset((i & 1 ? 1 : -1) * half.x(), (i & 2 ? 1 : -1) * half.y(), (i & 4 ? 1 : -1) * half.z());
        BodyDesc d;
        d.position = b.transform().toWorld(offset);
        d.orientation = b.orientation;
        d.linearVelocity = b.linearVelocity + b.angularVelocity.cross(b.orientation * offset);
        d.angularVelocity = b.angularVelocity;
        d.colliders.push_back(piece);
        pieces.push_back(scene.addBody(d, {BodyId{}, Primitive::Box, half, {0.75f, 0.5f, 0.35f}}));
    }
    return pieces;
}

namespace {

/// Millington's 'bigballistic': his four rounds (ballistic.cpp) fired at boxes that
/// are rigid bodies now, so the rounds knock them over.
class BigBallistic final : public Scene {
public:
    BigBallistic() {
        addGroundSlab(*this, real(0.6));
        for (int i = 0; i < 5; ++i)
            for (int k = 0; k <= i % 3; ++k)
                addBox(*this, Vec3(real(-4) + 2 * static_cast<real>(i), real(0.5) + static_cast<real>(k), 20), Quat::Identity(),
                       Vec3::Constant(real(0.5)), 400, real(0.6), {0.85f, 0.6f, 0.3f});
    }
    const char* name() const override { return "bigballistic"; }
    const char* description() const override {
        return "Millington's shooting gallery: pistol, artillery, fireball and laser rounds against stacked boxes.";
    }
    Vec3 cameraTarget() const override { return Vec3(0, 2, 12); }
    real cameraDistance() const override { return 26; }
    real cameraYaw() const override { return real(1.2); }
    std::vector<std::string> actions() const override { return {"Pistol", "Artillery", "Fireball", "Laser"}; }
    void act(std::size_t action) override {
        // Masses and muzzle speeds of ballistic.cpp (Millington ch. 3), under the world's
        // gravity here, so each is aimed up just enough to reach the boxes 20 m away.
        const real masses[] = {2, 200, 1, real(0.1)};
        const Vec3 velocities[] = {Vec3(0, real(2.5), 35), Vec3(0, 2, 40), Vec3(0, real(4.5), 10), Vec3(0, real(0.4), 100)};
        const real radii[] = {real(0.15), real(0.4), real(0.3), real(0.1)};
        if (action >= 4) return;
        const real x = real(-4) + 2 * static_cast<real>(shots_++ % 5);
        rounds_.push_back(fireRound(*this, Vec3(x, real(0.8), 0), velocities[action], masses[action], radii[action]));
        // Keep the last 20 rounds.
        if (rounds_.size() > 20) {
            if (world_.contains(rounds_.front())) removeBody(rounds_.front());
            rounds_.erase(rounds_.begin());
        }
    }

private:
    std::vector<BodyId> rounds_;
    int shots_ = 0;
};

/// Millington's fracture demo: a block that breaks into pieces when a hit on it needs
/// an impulse above a threshold.
class Fracture final : public Scene {
public:
    Fracture() { build(); }
    const char* name() const override { return "fracture"; }
    const char* description() const override {
        return "A block that splits into eight when a hit on it takes more than 2000 N s; fire a heavy ball at it.";
    }
    Vec3 cameraTarget() const override { return Vec3(0, 1, 0); }
    real cameraDistance() const override { return 12; }
    std::vector<std::string> actions() const override { return {"Fire ball", "Rebuild"}; }
    void act(std::size_t action) override {
        if (action == 0) fireRound(*this, Vec3(-6, 1, 0), Vec3(25, 1, 0), 200, real(0.4));
        if (action == 1) build();
    }
    void update(real) override {
        // After a step: any contact on the block that took more than the threshold?
        if (!world_.contains(block_)) return;
        for (const Contact& c : world_.resolvedContacts()) {
            const bool onBlock = c.body[0] == block_.index || c.body[1] == block_.index;
            if (onBlock && c.accumulatedImpulse.x() + c.bounceImpulse.x() > threshold) {
                splitBox(*this, block_);
                return;
            }
        }
    }
    static constexpr real threshold = 2000; ///< [N s]

private:
    void build() {
        for (const BodyId id : world_.bodyIds()) removeBody(id);
        addGroundSlab(*this, real(0.6));
        block_ = addBox(*this, Vec3(0, 1, 0), Quat::Identity(), Vec3(1, 1, 1), 500, real(0.6), {0.75f, 0.5f, 0.35f});
    }
    BodyId block_{};
};

} // namespace

std::unique_ptr<Scene> makeBigBallistic() { return std::make_unique<BigBallistic>(); }
std::unique_ptr<Scene> makeFracture() { return std::make_unique<Fracture>(); }

} // namespace jounce::scenes

namespace jounce::scenes {

Bridge buildBridge(Scene& scene, int planks, real deck) {
    // Millington's bridge (ch. 7) hangs particles from fixed points by cables and links
    // them with cables; here the particles are planks. Every plank hangs from the world
    // directly, so each one is a single link away from something fixed: the resolver's
    // bottom-up order settles the hangers first and the side links after them.
    const Vec3 half(real(0.25), real(0.05), real(0.8));
    const real gap = real(0.05), pitch = 2 * half.x() + gap, hanger = 3;
    const real side = real(0.7); // z of the side links and hangers on each plank
    World& world = scene.world();
    Bridge bridge;
    bridge.deck = deck;
    bridge.hangerLength = hanger;

    const auto centreX = [&](int i) { return (static_cast<real>(i) - static_cast<real>(planks - 1) / 2) * pitch; };
    const real bankEdge = centreX(planks - 1) + half.x() + gap;
    addGroundSlab(scene, real(0.6));
    const real bankHalfY = (deck + half.y()) / 2;
    for (const real s : {real(-1), real(1)})
        addStatic(scene, Vec3(s * (bankEdge + 1), bankHalfY, 0), Quat::Identity(), Vec3(1, bankHalfY, real(1.5)), real(0.6));

    const auto cable = [&](const Attachment& a, const Attachment& b, real length) {
        JointDesc j;
        j.type = JointType::Cable;
        j.a = a;
        j.b = b;
        j.length = length;
        world.createJoint(j);
    };
    for (int i = 0; i < planks; ++i) {
        const real x = centreX(i);
        const BodyId plank = addBox(scene, Vec3(x, deck, 0), Quat::Identity(), half, 600, real(0.6), {0.6f, 0.42f, 0.25f});
        for (const real z : {-side, side}) {
            // Hanger: from the plank's top face to a fixed point straight above it.
            cable({plank, Vec3(0, half.y(), z)}, {BodyId{}, Vec3(x, deck + half.y() + hanger, z)}, hanger);
            // Side link to the plank (or bank) on the left, just taut at rest.
            const Attachment left = i == 0 ? Attachment{BodyId{}, Vec3(-bankEdge, deck, z)}
                                           : Attachment{bridge.planks.back(), Vec3(half.x(), 0, z)};
            cable({plank, Vec3(-half.x(), 0, z)}, left, gap);
            if (i == planks - 1) cable({plank, Vec3(half.x(), 0, z)}, {BodyId{}, Vec3(bankEdge, deck, z)}, gap);
        }
        bridge.planks.push_back(plank);
    }
    return bridge;
}

namespace {

class BridgeScene final : public Scene {
public:
    BridgeScene() {
        bridge_ = buildBridge(*this, 12, 2);
        act(0);
    }
    const char* name() const override { return "bridge"; }
    const char* description() const override {
        return "Twelve planks hanging on cables between two banks (Millington's bridge); drop crates on it.";
    }
    Vec3 cameraTarget() const override { return Vec3(0, 2, 0); }
    real cameraDistance() const override { return 14; }
    std::vector<std::string> actions() const override { return {"Drop a crate"}; }
    void act(std::size_t action) override {
        if (action != 0) return;
        // Crates of 0.6 m (216 kg, four and a half planks' weight) along the deck.
        const real x = real(-2.4) + real(1.1) * static_cast<real>(crates_++ % 5);
        addBox(*this, Vec3(x, bridge_.deck + 2, 0), Quat::Identity(), Vec3::Constant(real(0.3)), 1000, real(0.6),
               {0.8f, 0.6f, 0.3f});
    }

private:
    Bridge bridge_;
    int crates_ = 0;
};

} // namespace

std::unique_ptr<Scene> makeBridge() { return std::make_unique<BridgeScene>(); }

namespace {

/// A hinge joining `body` at `local` (its origin frame) to the world at `world`, about
/// `axis` (world; the body starts unturned), with `motion`.
JointId hingeToWorld(Scene& scene, BodyId body, const Vec3& local, const Vec3& world, const Vec3& axis, const JointMotion& motion) {
    JointDesc j;
    j.type = JointType::Hinge;
    j.a = {body, local};
    j.b = {BodyId{}, world};
    j.axisA = j.axisB = axis;
    j.span = real(0.3);
    j.motion = motion;
    return scene.world().createJoint(j);
}

/// A hinge's motion, its motor set to `speed` (0: off).
JointMotion withMotor(JointMotion m, real speed, real torque) {
    m.motor = speed != 0;
    m.motorSpeed = speed;
    m.maxMotorForce = torque;
    return m;
}

class HingesScene final : public Scene {
public:
    HingesScene() {
        addGroundSlab(*this, real(0.6));
        constexpr real pi = std::numbers::pi_v<real>;
        // A door 1 m wide and 2 m tall, hinged at its left edge in a frame at x = -4:
        // it opens to 100 degrees either way, and friction keeps it where it is pushed.
        door_ = addBox(*this, Vec3(real(-3.5), real(1.02), 0), Quat::Identity(), Vec3(real(0.5), 1, real(0.03)), 500, real(0.4),
                       {0.55f, 0.35f, 0.2f});
        doorMotion_.limited = true;
        doorMotion_.lower = -100 * pi / 180;
        doorMotion_.upper = 100 * pi / 180;
        doorMotion_.friction = 4;
        doorHinge_ = hingeToWorld(*this, door_, Vec3(real(-0.5), 0, 0), Vec3(-4, real(1.02), 0), Vec3::UnitY(), doorMotion_);
        // A drawbridge 3 m long, hinged at its bank end about z, between 0 (down) and
        // 80 degrees (up); a motor raises and lowers it.
        bridge_ = addBox(*this, Vec3(real(1.5), real(0.6), 0), Quat::Identity(), Vec3(real(1.5), real(0.08), real(1.2)), 400,
                         real(0.8), {0.45f, 0.3f, 0.15f});
        bridgeMotion_.limited = true;
        bridgeMotion_.lower = 0;
        bridgeMotion_.upper = 80 * pi / 180;
        bridgeHinge_ = hingeToWorld(*this, bridge_, Vec3(real(-1.5), 0, 0), Vec3(0, real(0.6), 0), Vec3::UnitZ(), bridgeMotion_);
        // A tail of ten links hanging from a beam, each hinge kept within 25 degrees and
        // sprung back to straight: it swings as one springy whole.
        BodyId above{};
        for (int i = 0; i < 10; ++i) {
            const real y = real(4.8) - real(0.3) * static_cast<real>(i);
            const BodyId link = addBox(*this, Vec3(5, y, 0), Quat::Identity(), Vec3(real(0.06), real(0.14), real(0.1)), 800,
                                       real(0.5), {0.3f, 0.5f, 0.7f});
            JointMotion m;
            m.limited = true;
            m.lower = -25 * pi / 180;
            m.upper = 25 * pi / 180;
            m.springHertz = 2;
            m.springDampingRatio = real(0.2);
            JointDesc j;
            j.type = JointType::Hinge;
            j.a = {link, Vec3(0, real(0.15), 0)};
            j.b = above.isNull() ? Attachment{BodyId{}, Vec3(5, y + real(0.15), 0)} : Attachment{above, Vec3(0, real(-0.15), 0)};
            j.axisA = j.axisB = Vec3::UnitZ();
            j.span = real(0.08);
            j.motion = m;
            world().createJoint(j);
            above = link;
        }
        tailEnd_ = above;
        world().setLinearVelocity(tailEnd_, Vec3(3, 0, 0));
    }
    const char* name() const override { return "hinges"; }
    const char* description() const override {
        return "Hinges with limits, motors, springs and friction: a door, a drawbridge, a springy tail.";
    }
    Vec3 cameraTarget() const override { return Vec3(0, 2, 0); }
    real cameraDistance() const override { return 13; }
    std::vector<std::string> actions() const override {
        return {"Swing the door open / shut", "Raise / lower the drawbridge", "Flick the tail"};
    }
    void act(std::size_t action) override {
        if (action == 0) {
            // The motor pushes the door toward the other side, then lets friction hold it.
            doorOpen_ = !doorOpen_;
            world().setJointMotion(doorHinge_, withMotor(doorMotion_, doorOpen_ ? real(1.5) : real(-1.5), 60));
        } else if (action == 1) {
            bridgeUp_ = !bridgeUp_;
            world().setJointMotion(bridgeHinge_, withMotor(bridgeMotion_, bridgeUp_ ? real(0.4) : real(-0.4), 40000));
        } else if (action == 2) {
            world().setLinearVelocity(tailEnd_, Vec3(0, 0, 4));
        }
    }

private:
    BodyId door_, bridge_, tailEnd_;
    JointId doorHinge_, bridgeHinge_;
    JointMotion doorMotion_, bridgeMotion_;
    bool doorOpen_ = false, bridgeUp_ = false;
};

} // namespace

std::unique_ptr<Scene> makeHinges() { return std::make_unique<HingesScene>(); }

} // namespace jounce::scenes
