// SPDX-License-Identifier: MIT
// Every public entry point rejects bad input with jounce::Error naming the field,
// and leaves the world bit-for-bit as it was.

#include "fp_traps.hpp"
#include "helpers.hpp"
#include "common/validate.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <limits>
#include <type_traits>

using namespace jounce;

namespace {

const real kNaN = std::numeric_limits<real>::quiet_NaN();
const real kInf = std::numeric_limits<real>::infinity();

struct Fixture {
    World world;
    BodyId box, anchorBody, stale;
    ForceGeneratorId spring, staleGenerator;
    Fixture() {
        box = world.createBody(testing::boxDesc(Vec3(real(0.5), 1, real(1.5)), 200, Vec3(0, 3, 0)));
        BodyDesc s;
        s.type = BodyType::Static;
        anchorBody = world.createBody(s);
        stale = world.createBody({});
        world.destroyBody(stale);
        spring = world.createForceGenerator(Spring{{box, Vec3::Zero()}, {BodyId{}, Vec3(0, 5, 0)}, 10, 1, 0});
        staleGenerator = world.createForceGenerator(Drag{box, 1, 0});
        world.destroyForceGenerator(staleGenerator);
        world.applyForce(box, Vec3(1, 2, 3)); // pending user force is state too
        world.step(real(1) / 60);
        world.applyForce(box, Vec3(1, 2, 3));
    }
};

/// Runs `call`, requires a jounce::Error whose field() contains `field`, and requires
/// the world's state hash unchanged.
void requireRejected(Fixture& f, const std::string& field, const std::function<void(World&)>& call) {
    CAPTURE(field);
    const std::uint64_t before = testing::stateHash(f.world);
    bool threw = false;
    try {
        call(f.world);
    } catch (const Error& e) {
        threw = true;
        CAPTURE(e.what());
        CHECK(e.field().find(field) != std::string::npos);
        CHECK(std::string(e.what()).find(e.value()) != std::string::npos);
    }
    CHECK(threw);
    CHECK(testing::stateHash(f.world) == before);
}

} // namespace

TEST_CASE("createBody rejects bad descriptions", "[physics]") {
    Fixture f;
    auto withDesc = [&](const std::string& field, const std::function<void(BodyDesc&)>& edit) {
        requireRejected(f, field, [&](World& w) {
            BodyDesc d;
            edit(d);
            w.createBody(d);
        });
    };
    withDesc("BodyDesc.mass", [](BodyDesc& d) { d.mass = 0; });
    withDesc("BodyDesc.mass", [](BodyDesc& d) { d.mass = -1; });
    withDesc("BodyDesc.mass", [](BodyDesc& d) { d.mass = kNaN; });
    withDesc("BodyDesc.mass", [](BodyDesc& d) { d.mass = kInf; });
    withDesc("BodyDesc.position", [](BodyDesc& d) { d.position.x() = kNaN; });
    withDesc("BodyDesc.position", [](BodyDesc& d) { d.position.z() = -kInf; });
    withDesc("BodyDesc.linearVelocity", [](BodyDesc& d) { d.linearVelocity.y() = kInf; });
    withDesc("BodyDesc.angularVelocity", [](BodyDesc& d) { d.angularVelocity.y() = kNaN; });
    withDesc("BodyDesc.orientation", [](BodyDesc& d) { d.orientation = Quat(0, 0, 0, 0); });
    withDesc("BodyDesc.orientation", [](BodyDesc& d) { d.orientation = Quat(2, 0, 0, 0); });
    withDesc("BodyDesc.orientation", [](BodyDesc& d) { d.orientation = Quat(kNaN, 0, 0, 0); });
    withDesc("BodyDesc.inertia", [](BodyDesc& d) { d.inertia = Mat3::Zero(); });
    withDesc("BodyDesc.inertia", [](BodyDesc& d) { d.inertia = -Mat3::Identity(); });
    withDesc("BodyDesc.inertia", [](BodyDesc& d) { d.inertia(0, 1) = 1; });
    withDesc("BodyDesc.inertia", [](BodyDesc& d) { d.inertia = Vec3(1, 1, 5).asDiagonal(); });
    withDesc("BodyDesc.linearDamping", [](BodyDesc& d) { d.linearDamping = real(-0.5); });
    withDesc("BodyDesc.linearDamping", [](BodyDesc& d) { d.linearDamping = real(1e7); }); // above maxRate, 1e6 1/s
    withDesc("BodyDesc.angularDamping", [](BodyDesc& d) { d.angularDamping = -1; });
    withDesc("BodyDesc.gravityScale", [](BodyDesc& d) { d.gravityScale = kNaN; });
    withDesc("BodyDesc.type", [](BodyDesc& d) { d.type = static_cast<BodyType>(7); });
    withDesc("BodyDesc.linearVelocity", [](BodyDesc& d) {
        d.type = BodyType::Static;
        d.linearVelocity = Vec3(1, 0, 0);
    });
    SECTION("mass and inertia are not checked for bodies that do not use them") {
        BodyDesc d;
        d.type = BodyType::Static;
        d.mass = -5;
        CHECK_NOTHROW(f.world.createBody(d));
    }
}

TEST_CASE("body setters reject bad values and stale handles", "[physics]") {
    Fixture f;
    const BodyId box = f.box;
    const BodyId stale = f.stale;
    requireRejected(f, "setPosition.position", [&](World& w) { w.setPosition(box, Vec3(kNaN, 0, 0)); });
    requireRejected(f, "setPosition.id", [&](World& w) { w.setPosition(stale, Vec3::Zero()); });
    requireRejected(f, "setOrientation.orientation", [&](World& w) { w.setOrientation(box, Quat(0, 0, 0, 0)); });
    requireRejected(f, "setOrientation.orientation", [&](World& w) { w.setOrientation(box, Quat(1, 1, 0, 0)); });
    requireRejected(f, "setOrientation.id", [&](World& w) { w.setOrientation(BodyId{}, Quat::Identity()); });
    requireRejected(f, "setLinearVelocity.velocity", [&](World& w) { w.setLinearVelocity(box, Vec3(0, kInf, 0)); });
    requireRejected(f, "setLinearVelocity.velocity", [&](World& w) { w.setLinearVelocity(f.anchorBody, Vec3(1, 0, 0)); });
    requireRejected(f, "setLinearVelocity.id", [&](World& w) { w.setLinearVelocity(stale, Vec3::Zero()); });
    requireRejected(f, "setAngularVelocity.velocity", [&](World& w) { w.setAngularVelocity(box, Vec3(0, 0, kNaN)); });
    requireRejected(f, "setAngularVelocity.id", [&](World& w) { w.setAngularVelocity(stale, Vec3::Zero()); });
    requireRejected(f, "setDamping.linear", [&](World& w) { w.setDamping(box, kNaN, 0); });
    requireRejected(f, "setDamping.angular", [&](World& w) { w.setDamping(box, 0, -2); });
    requireRejected(f, "setDamping.angular", [&](World& w) { w.setDamping(box, 0, kInf); });
    requireRejected(f, "setDamping.id", [&](World& w) { w.setDamping(stale, 0, 0); });
    requireRejected(f, "setGravityScale.scale", [&](World& w) { w.setGravityScale(box, kInf); });
    requireRejected(f, "setGravityScale.id", [&](World& w) { w.setGravityScale(stale, 1); });
    requireRejected(f, "setMassProperties.mass", [&](World& w) { w.setMassProperties(box, 0, Mat3::Identity()); });
    requireRejected(f, "setMassProperties.mass", [&](World& w) { w.setMassProperties(box, -3, Mat3::Identity()); });
    requireRejected(f, "setMassProperties.inertia", [&](World& w) { w.setMassProperties(box, 1, Mat3::Zero()); });
    requireRejected(f, "setMassProperties.id", [&](World& w) { w.setMassProperties(f.anchorBody, 1, Mat3::Identity()); });
    requireRejected(f, "setAwake.id", [&](World& w) { w.setAwake(stale, true); });
    requireRejected(f, "setUserData.id", [&](World& w) { w.setUserData(stale, 1); });
    requireRejected(f, "destroyBody.id", [&](World& w) { w.destroyBody(stale); });
    requireRejected(f, "body.id", [&](World& w) { (void)w.body(stale); });
}

TEST_CASE("forces, torques and impulses reject non-finite input", "[physics]") {
    Fixture f;
    const BodyId box = f.box;
    requireRejected(f, "applyForce.force", [&](World& w) { w.applyForce(box, Vec3(kNaN, 0, 0)); });
    requireRejected(f, "applyForce.id", [&](World& w) { w.applyForce(f.stale, Vec3::Zero()); });
    requireRejected(f, "applyForceAtPoint.force", [&](World& w) { w.applyForceAtPoint(box, Vec3(kInf, 0, 0), Vec3::Zero()); });
    requireRejected(f, "applyForceAtPoint.point", [&](World& w) { w.applyForceAtPoint(box, Vec3::Zero(), Vec3(0, kNaN, 0)); });
    requireRejected(f, "applyTorque.torque", [&](World& w) { w.applyTorque(box, Vec3(0, 0, -kInf)); });
    requireRejected(f, "applyTorque.id", [&](World& w) { w.applyTorque(BodyId{}, Vec3::Zero()); });
    requireRejected(f, "applyImpulse.impulse", [&](World& w) { w.applyImpulse(box, Vec3(kNaN, 0, 0), Vec3::Zero()); });
    requireRejected(f, "applyImpulse.point", [&](World& w) { w.applyImpulse(box, Vec3::Zero(), Vec3(kInf, 0, 0)); });
    requireRejected(f, "applyImpulse.id", [&](World& w) { w.applyImpulse(f.stale, Vec3::Zero(), Vec3::Zero()); });
}

TEST_CASE("force generators are validated when added or replaced", "[physics]") {
    Fixture f;
    const BodyId box = f.box, stale = f.stale;
    auto add = [&](const std::string& field, const ForceGenerator& g) {
        requireRejected(f, field, [&](World& w) { w.createForceGenerator(g); });
        requireRejected(f, field, [&](World& w) { w.setForceGenerator(f.spring, g); });
    };
    add("Spring.a.body", Spring{{stale, Vec3::Zero()}, {BodyId{}, Vec3::Zero()}, 1, 1, 0});
    add("Spring.a.body", Spring{{BodyId{}, Vec3::Zero()}, {BodyId{}, Vec3::Zero()}, 1, 1, 0});
    add("Spring.b.body", Spring{{box, Vec3::Zero()}, {box, Vec3::Zero()}, 1, 1, 0});
    add("Spring.stiffness", Spring{{box, Vec3::Zero()}, {BodyId{}, Vec3::Zero()}, -1, 1, 0});
    add("Spring.restLength", Spring{{box, Vec3::Zero()}, {BodyId{}, Vec3::Zero()}, 1, kNaN, 0});
    add("Spring.damping", Spring{{box, Vec3::Zero()}, {BodyId{}, Vec3::Zero()}, 1, 1, -2});
    add("Spring.b.point", Spring{{box, Vec3::Zero()}, {BodyId{}, Vec3(kInf, 0, 0)}, 1, 1, 0});
    add("Bungee.stiffness", Bungee{{box, Vec3::Zero()}, {BodyId{}, Vec3::Zero()}, kInf, 1, 0});
    add("GravityForce.acceleration", GravityForce{box, Vec3(kNaN, 0, 0)});
    add("GravityForce.body", GravityForce{stale, Vec3::Zero()});
    Buoyancy b;
    b.body = box;
    b.maxDepth = 0;
    add("Buoyancy.maxDepth", b);
    b.maxDepth = 1;
    b.volume = -1;
    add("Buoyancy.volume", b);
    b.volume = 1;
    b.liquidDensity = 0;
    add("Buoyancy.liquidDensity", b);
    Aero a = aeroSurface(box, Mat3::Identity(), Vec3::Zero(), Vec3::Zero());
    a.control = 2;
    add("Aero.control", a);
    a.control = 0;
    a.tensorMax(1, 1) = kNaN;
    add("Aero.tensor", a);
    add("Drag.k1", Drag{box, -1, 0});
    add("Drag.k2", Drag{box, 0, kNaN});
    add("FakeSpring.stiffness", FakeSpring{box, Vec3::Zero(), 0, 1});
    add("FakeSpring.damping", FakeSpring{box, Vec3::Zero(), 1, -1});
    add("FakeSpring.anchor", FakeSpring{box, Vec3(0, kNaN, 0), 1, 1});
    requireRejected(f, "setForceGenerator.id", [&](World& w) { w.setForceGenerator(f.staleGenerator, Drag{box, 1, 0}); });
    requireRejected(f, "destroyForceGenerator.id", [&](World& w) { w.destroyForceGenerator(f.staleGenerator); });
    requireRejected(f, "forceGenerator.id", [&](World& w) { (void)w.forceGenerator(ForceGeneratorId{}); });
}

TEST_CASE("step rejects absurd time steps and substep counts", "[physics]") {
    Fixture f;
    for (real dt : {real(0), real(-1) / 60, kNaN, kInf, -kInf, real(1e-9), real(10), real(1e6)})
        requireRejected(f, "step.dt", [&](World& w) { w.step(dt); });
    for (int n : {0, -1, 1025, 1 << 30}) requireRejected(f, "step.substeps", [&](World& w) { w.step(real(1) / 60, n); });
}

TEST_CASE("settings are validated", "[physics]") {
    Fixture f;
    auto with = [&](const std::string& field, const std::function<void(WorldSettings&)>& edit) {
        requireRejected(f, field, [&](World& w) {
            WorldSettings s = w.settings();
            edit(s);
            w.setSettings(s);
        });
    };
    with("WorldSettings.gravity", [](WorldSettings& s) { s.gravity.y() = kNaN; });
    with("WorldSettings.minTimeStep", [](WorldSettings& s) { s.minTimeStep = 0; });
    with("WorldSettings.maxTimeStep", [](WorldSettings& s) { s.maxTimeStep = kInf; });
    with("WorldSettings.maxTimeStep", [](WorldSettings& s) { s.maxTimeStep = real(1e-7); });
    with("WorldSettings.maxSubsteps", [](WorldSettings& s) { s.maxSubsteps = 0; });
    with("WorldSettings.gyroscopic", [](WorldSettings& s) { s.gyroscopic = static_cast<GyroscopicMode>(9); });
    with("WorldSettings.resolver.restitutionThreshold", [](WorldSettings& s) { s.resolver.restitutionThreshold = kNaN; });
    with("WorldSettings.resolver.maxProjectionAngle", [](WorldSettings& s) { s.resolver.maxProjectionAngle = -1; });
    with("WorldSettings.resolver.penetrationTolerance", [](WorldSettings& s) { s.resolver.penetrationTolerance = kInf; });
    with("WorldSettings.resolver.sequentialIterations", [](WorldSettings& s) { s.resolver.sequentialIterations = -3; });
    with("WorldSettings.resolver.velocitySolver", [](WorldSettings& s) { s.resolver.velocitySolver = static_cast<VelocitySolver>(7); });
    with("WorldSettings.resolver.positionSolver", [](WorldSettings& s) { s.resolver.positionSolver = static_cast<PositionSolver>(9); });
    with("WorldSettings.resolver.projectionRelaxation", [](WorldSettings& s) { s.resolver.projectionRelaxation = real(1.5); });
    with("WorldSettings.resolver.allowedPenetration", [](WorldSettings& s) { s.resolver.allowedPenetration = kNaN; });
    with("WorldSettings.resolver.sequentialPositionIterations", [](WorldSettings& s) { s.resolver.sequentialPositionIterations = -1; });
    with("WorldSettings.resolver.shockIterations", [](WorldSettings& s) { s.resolver.shockIterations = -1; });
    with("WorldSettings.resolver.sequentialTolerance", [](WorldSettings& s) { s.resolver.sequentialTolerance = -kInf; });
    with("WorldSettings.resolver.slidingSpeed", [](WorldSettings& s) { s.resolver.slidingSpeed = kNaN; });
    with("WorldSettings.sleep.sleepThreshold", [](WorldSettings& s) { s.sleep.sleepThreshold = 0; });
    with("WorldSettings.sleep.motionBias", [](WorldSettings& s) { s.sleep.motionBias = 2; });
    with("WorldSettings.sleep.motionCap", [](WorldSettings& s) { s.sleep.motionCap = real(0.5); });
    with("WorldSettings.sleep.motionCap", [](WorldSettings& s) { s.sleep.motionCap = kNaN; });
    // Values that passed once and made a later step fail or do nothing.
    with("WorldSettings.collisionMargin", [](WorldSettings& s) { s.collisionMargin = 0; });
    with("WorldSettings.collisionMargin", [](WorldSettings& s) { s.collisionMargin = real(-0.01); });
    with("WorldSettings.aabbMargin", [](WorldSettings& s) { s.aabbMargin = real(-0.1); });
    with("WorldSettings.contactCache.distance", [](WorldSettings& s) { s.contactCache.distance = kNaN; });
    with("WorldSettings.contactCache.distance", [](WorldSettings& s) { s.contactCache.distance = real(-0.001); });
    with("WorldSettings.contactCache.distance", [](WorldSettings& s) { s.contactCache.distance = real(1e30); });
    with("WorldSettings.contactCache.angle", [](WorldSettings& s) { s.contactCache.angle = -kInf; });
    with("WorldSettings.contactCache.angle", [](WorldSettings& s) { s.contactCache.angle = 4; });
    with("WorldSettings.resolver.positionIterationsPerContact", [](WorldSettings& s) { s.resolver.positionIterationsPerContact = 0; });
    with("WorldSettings.resolver.velocityIterationsPerContact", [](WorldSettings& s) { s.resolver.velocityIterationsPerContact = 0; });
    with("WorldSettings.resolver.sequentialIterations", [](WorldSettings& s) { s.resolver.sequentialIterations = 0; });
    with("WorldSettings.resolver.sequentialPositionIterations", [](WorldSettings& s) { s.resolver.sequentialPositionIterations = 0; });
    with("WorldSettings.resolver.projectionRelaxation", [](WorldSettings& s) { s.resolver.projectionRelaxation = 0; });
    with("WorldSettings.maxTimeStep", [](WorldSettings& s) { s.minTimeStep = real(0.1); s.maxTimeStep = real(0.05); });
    // Finite but absurd: a snapshot or scene file brings settings in too, and a 1e30
    // gravity or margin overflows the first square taken of it (fuzz finding 10).
    with("WorldSettings.gravity", [](WorldSettings& s) { s.gravity.x() = real(1e30); });
    with("WorldSettings.maxTimeStep", [](WorldSettings& s) { s.maxTimeStep = 10; });
    with("WorldSettings.maxSubsteps", [](WorldSettings& s) { s.maxSubsteps = 1 << 30; });
    with("WorldSettings.collisionMargin", [](WorldSettings& s) { s.collisionMargin = real(1e30); });
    with("WorldSettings.aabbMargin", [](WorldSettings& s) { s.aabbMargin = real(1e30); });
    with("WorldSettings.resolver.restitutionThreshold", [](WorldSettings& s) { s.resolver.restitutionThreshold = real(1e30); });
    with("WorldSettings.resolver.allowedPenetration", [](WorldSettings& s) { s.resolver.allowedPenetration = real(1e30); });
    with("WorldSettings.particles.contactMargin", [](WorldSettings& s) { s.particles.contactMargin = real(1e30); });
    with("WorldSettings.particles.restitutionThreshold", [](WorldSettings& s) { s.particles.restitutionThreshold = real(1e30); });
    with("WorldSettings.resolver.sequentialTolerance", [](WorldSettings& s) { s.resolver.sequentialTolerance = real(1e30); });
    with("WorldSettings.resolver.maxProjectionAngle", [](WorldSettings& s) { s.resolver.maxProjectionAngle = real(1e30); });
    with("WorldSettings.particles.damping", [](WorldSettings& s) { s.particles.damping = real(1e30); });
    with("WorldSettings.sleep.sleepThreshold", [](WorldSettings& s) { s.sleep.sleepThreshold = real(1e30); });
    // Millimetre units are fine.
    WorldSettings millimetres;
    millimetres.gravity = Vec3(0, real(-9810), 0);
    CHECK_NOTHROW(World(millimetres));
    WorldSettings bad;
    bad.gravity = Vec3(kInf, 0, 0);
    CHECK_THROWS_AS(World(bad), Error);
}

TEST_CASE("a zero collision margin is rejected naming the setting, the world unchanged", "[physics]") {
    // It used to pass, and then every step with a fast body threw an error naming
    // timeOfImpact.target, a parameter of the continuous collision no game sets.
    Fixture f;
    const WorldSettings before = f.world.settings();
    WorldSettings s = before;
    s.collisionMargin = 0;
    requireRejected(f, "WorldSettings.collisionMargin", [&](World& w) { w.setSettings(s); });
    CHECK(f.world.settings().collisionMargin == before.collisionMargin);
    try {
        f.world.setSettings(s);
        FAIL("setSettings accepted collisionMargin = 0");
    } catch (const Error& e) {
        CHECK(e.field() == "WorldSettings.collisionMargin");
        CHECK(e.value() == "0");
    }
    // The constructor validates the same way.
    CHECK_THROWS_AS(World(s), Error);
    try {
        World w(s);
    } catch (const Error& e) {
        CHECK(e.field() == "WorldSettings.collisionMargin");
    }
    // The world still steps a fast body with its own (valid) margin.
    f.world.setLinearVelocity(f.box, Vec3(0, -200, 0));
    CHECK_NOTHROW(f.world.step(real(1) / 60));
}

TEST_CASE("masses and inertias stay in range, given or added up from colliders", "[physics]") {
    Fixture f;
    const auto boxCollider = [](real half, real density) {
        ColliderDesc c = makeCollider(Box{Vec3::Constant(half)}, density);
        return c;
    };
    // Two colliders, each valid alone, that are not together. In double: 80 m boxes of
    // 1e6 kg/m^3, 5.12e11 kg each, add up past maxMass (1e12 kg). A float cannot invert
    // the inertia of such a box (its cap is 8.7e11 kg m^2), so there: 10 m boxes of
    // 1e9 kg, 100 m apart, whose inertia about their common centre (5e12) is past it.
    const bool wide = std::is_same_v<real, double>;
    BodyDesc two;
    two.massFromColliders = true;
    two.colliders = {boxCollider(wide ? 40 : 5, 1e6), boxCollider(wide ? 40 : 5, 1e6)};
    two.colliders[1].local.position = Vec3(100, 0, 0);
    requireRejected(f, "BodyDesc.colliders", [&](World& w) { w.createBody(two); });
    const ColliderDesc second = two.colliders[1];
    two.colliders.pop_back();
    const BodyId heavy = f.world.createBody(two);
    requireRejected(f, "createCollider.desc", [&](World& w) { w.createCollider(heavy, second); });
    // A collider's mass alone: density times volume below minMass.
    requireRejected(f, "createCollider.desc.density", [&](World& w) { w.createCollider(f.box, boxCollider(real(1e-4), 1)); });
    // A capsule needle: 2.5e-9 kg (in range) with an axial moment of 5e-31 kg m^2.
    ColliderDesc needle = makeCollider(Capsule{real(2e-11), real(1e6)}, real(1e6));
    BodyDesc n;
    n.colliders = {needle};
    n.massFromColliders = true;
    requireRejected(f, "BodyDesc.colliders[0].shape", [&](World& w) { w.createBody(n); });
    // Given inertia: moments below minMoment, and above what a float can invert.
    requireRejected(f, "setMassProperties.inertia", [&](World& w) { w.setMassProperties(f.box, 1, Mat3::Identity() * real(1e-30)); });
    const real beyondInverse = 2 * std::cbrt(std::numeric_limits<real>::max()); // 1e103, or 1.4e13 in float
    requireRejected(f, "setMassProperties.inertia", [&](World& w) { w.setMassProperties(f.box, 1, Mat3::Identity() * beyondInverse); });
    requireRejected(f, "setMassProperties.mass", [&](World& w) { w.setMassProperties(f.box, real(2e12), Mat3::Identity()); });
    requireRejected(f, "setMassProperties.mass", [&](World& w) { w.setMassProperties(f.box, real(1e-10), Mat3::Identity()); });
    // The smallest accepted moments invert exactly: 1e-20 kg m^2 has a determinant of
    // 1e-60, below a float's smallest number; I / 2^k is inverted instead.
    f.world.setMassProperties(f.box, detail::minMass, Mat3::Identity() * real(1e-20));
    const Mat3 inverse = f.world.body(f.box).inverseInertia;
    CHECK(isFinite(inverse));
    CHECK((inverse * real(1e-20) - Mat3::Identity()).cwiseAbs().maxCoeff() < testing::tol(1e-12, 1e-5));
}

TEST_CASE("the lightest body under the largest force stays finite, bigger loads are refused", "[physics]") {
    // A 1e-300 kg body under 1e15 N overflowed within the step (it was restored and the
    // step threw). Masses are bounded now (minMass, maxMass): the extreme a game may
    // ask for, 1e15 N on a microgram, is a 1e24 m/s^2 acceleration that the step caps
    // at maxSpeed, in float and double.
    Fixture f;
    BodyDesc d;
    d.mass = detail::minMass;
    d.inertia = Mat3::Identity() * real(1e-20);
    const BodyId feather = f.world.createBody(d);
    const real huge = detail::maxLoad;
    f.world.applyForce(feather, Vec3(huge, 0, 0));
    f.world.applyTorque(feather, Vec3(0, huge, 0));
    f.world.step(real(1) / 60);
    const BodyState b = f.world.body(feather);
    CHECK((isFinite(b.position) && isFinite(b.linearVelocity) && isFinite(b.angularVelocity) &&
           isFinite(b.orientation.coeffs())));
    CHECK(b.linearVelocity.norm() <= detail::maxSpeed * (1 + testing::tol(1e-12, 1e-6)));
    CHECK(b.linearVelocity.x() > detail::maxSpeed / 2);
    CHECK(b.angularVelocity.norm() <= detail::maxSpeed * (1 + testing::tol(1e-12, 1e-6)));
    // Forces beyond maxLoad, and impulses that would change a velocity by more than
    // maxSpeed, are refused when applied.
    requireRejected(f, "applyForce.force", [&](World& w) { w.applyForce(feather, Vec3(2 * huge, 0, 0)); });
    requireRejected(f, "applyImpulse.impulse", [&](World& w) { w.applyImpulse(feather, Vec3(1, 0, 0), Vec3::Zero()); });
}

