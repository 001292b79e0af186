// SPDX-License-Identifier: MIT
// Force generators: the signs the book gets wrong, and the fake stiff spring's
// closed form in all three damping regimes.

#include "helpers.hpp"

#include <catch2/catch.hpp>

#include <cmath>

using namespace jounce;
using testing::tol;

TEST_CASE("a compressed spring pushes and a stretched one pulls", "[physics]") {
    const Vec3 zero = Vec3::Zero();
    // A at x = 1, B at the origin, rest length 2: compressed, so A is pushed to +x.
    CHECK(springForce(Vec3(1, 0, 0), zero, zero, zero, 10, 2, 0).isApprox(Vec3(10, 0, 0)));
    // Rest length 0.5: stretched, so A is pulled to -x.
    CHECK(springForce(Vec3(1, 0, 0), zero, zero, zero, 10, real(0.5), 0).isApprox(Vec3(-5, 0, 0)));
    // At rest length: nothing. Coincident ends: no direction, no force (and no NaN).
    CHECK(springForce(Vec3(2, 0, 0), zero, zero, zero, 10, 2, 0).norm() < tol(1e-12, 1e-5));
    CHECK(springForce(zero, zero, zero, zero, 10, 2, 0) == zero);
    // The dashpot resists the ends separating.
    CHECK(springForce(Vec3(1, 0, 0), zero, Vec3(3, 0, 0), zero, 0, 1, 2).isApprox(Vec3(-6, 0, 0)));

    SECTION("in a world, two bodies on a compressed spring fly apart") {
        World world = testing::worldWithoutGravity();
        BodyDesc d;
        d.position = Vec3(real(-0.5), 0, 0);
        const BodyId a = world.createBody(d);
        d.position = Vec3(real(0.5), 0, 0);
        const BodyId b = world.createBody(d);
        world.createForceGenerator(Spring{{a, Vec3::Zero()}, {b, Vec3::Zero()}, 100, 3, 0});
        world.step(real(0.01));
        CHECK(world.body(a).linearVelocity.x() < 0);
        CHECK(world.body(b).linearVelocity.x() > 0);
        // Internal forces conserve momentum.
        CHECK(std::abs(world.body(a).linearVelocity.x() + world.body(b).linearVelocity.x()) < tol(1e-12, 1e-6));
    }
}

TEST_CASE("a bungee never pushes, a stretched one pulls", "[physics]") {
    const Vec3 zero = Vec3::Zero();
    CHECK(bungeeForce(Vec3(1, 0, 0), zero, zero, zero, 10, 2, 0) == zero);      // slack
    CHECK(bungeeForce(Vec3(2, 0, 0), zero, zero, zero, 10, 2, 0) == zero);      // exactly taut
    CHECK(bungeeForce(Vec3(3, 0, 0), zero, zero, zero, 10, 2, 0).isApprox(Vec3(-10, 0, 0)));
    // Stretched but snapping back fast: the dashpot may not turn the pull into a push.
    CHECK(bungeeForce(Vec3(real(2.1), 0, 0), zero, Vec3(-50, 0, 0), zero, 10, 2, 5) == zero);

    SECTION("a ball falls freely until the cord is taut") {
        World world;
        BodyDesc d;
        d.position = Vec3(0, 10, 0);
        const BodyId ball = world.createBody(d);
        world.createForceGenerator(Bungee{{ball, Vec3::Zero()}, {BodyId{}, Vec3(0, 10, 0)}, 200, 3, 0});
        real lowest = 10;
        for (int i = 0; i < 600; ++i) {
            const real y = world.body(ball).position.y();
            const real vy = world.body(ball).linearVelocity.y();
            world.step(real(1) / 240);
            // While slack, only gravity acts.
            if (y > 7) CHECK(world.body(ball).linearVelocity.y() == Approx(vy - real(9.81) / 240).margin(tol(1e-9, 1e-4)));
            lowest = std::min(lowest, world.body(ball).position.y());
        }
        CHECK(lowest < 7);                 // it stretched the cord
        CHECK(world.body(ball).position.y() <= 10); // and never was pushed above the anchor
    }
}

TEST_CASE("buoyancy: a half-submerged body is pushed up by half its displaced weight", "[physics]") {
    Buoyancy b;
    b.maxDepth = real(0.5);
    b.volume = 2;
    b.waterHeight = 0;
    b.liquidDensity = 1000;
    const Vec3 g(0, real(-9.81), 0);
    const real full = 1000 * 2 * real(9.81);
    CHECK(buoyancyForce(0, b, g).isApprox(Vec3(0, full / 2, 0)));           // half in
    CHECK(buoyancyForce(real(-0.25), b, g).isApprox(Vec3(0, full * real(0.75), 0)));
    CHECK(buoyancyForce(-1, b, g).isApprox(Vec3(0, full, 0)));              // deep: all of it
    CHECK(buoyancyForce(1, b, g) == Vec3::Zero());                          // out of the water
    for (real y = -1; y <= 1; y += real(0.125)) CHECK(buoyancyForce(y, b, g).y() >= 0);

    SECTION("a half-density box floats half submerged") {
        // Sleep off: the box bobs about its level at 4.4 rad/s, decaying as e^-2t, and
        // would fall asleep a few millimetres out once its speed drops below the sleep
        // threshold (about 0.2 m/s).
        WorldSettings settings;
        settings.sleep.enabled = false;
        World world(settings);
        BodyDesc d = testing::boxDesc(Vec3::Constant(real(0.5)), 500, Vec3(0, 2, 0));
        const BodyId box = world.createBody(d);
        Buoyancy by;
        by.body = box;
        by.maxDepth = real(0.5);
        by.volume = 1;
        world.createForceGenerator(by);
        world.createForceGenerator(Drag{box, 2000, 0});
        for (int i = 0; i < 1200; ++i) world.step(real(1) / 60);
        CHECK(world.body(box).position.y() == Approx(0).margin(tol(1e-3, 1e-3)));
    }
}

TEST_CASE("drag and aerodynamic surfaces", "[physics]") {
    CHECK(dragForce(Vec3(0, 0, 2), 1, real(0.5)).isApprox(Vec3(0, 0, -4)));
    CHECK(dragForce(Vec3::Zero(), 1, 1) == Vec3::Zero());

    World world = testing::worldWithoutGravity();
    BodyDesc d;
    d.orientation = Quat(Eigen::AngleAxis<real>(real(std::numbers::pi / 2), Vec3::UnitY()));
    const BodyId wing = world.createBody(d);
    Mat3 lift = Mat3::Zero();
    lift(1, 2) = -2; // body-frame air along -z gives +y force (body frame)
    Aero a = aeroSurface(wing, lift, Vec3::Zero(), Vec3(-10, 0, 0));
    a.tensorMax = 2 * lift;
    a.tensorMin = Mat3::Zero();
    const ForceGeneratorId id = world.createForceGenerator(a);
    const Vec3 airBody = d.orientation.conjugate() * Vec3(-10, 0, 0);
    const Vec3 expected = d.orientation * (lift * airBody);
    world.step(real(0.01));
    CHECK((world.body(wing).linearVelocity - real(0.01) * expected).norm() < tol(1e-9, 1e-5));

    a.control = 1;
    CHECK(aeroTensor(a).isApprox(2 * lift));
    a.control = -1;
    CHECK(aeroTensor(a).isZero());
    a.control = real(0.5);
    CHECK(aeroTensor(a).isApprox(real(1.5) * lift));
    world.setForceGenerator(id, a);
    CHECK(std::get<Aero>(world.forceGenerator(id)).control == real(0.5));
}

namespace {

/// Textbook solutions of m x'' + c x' + k x = 0 written out per regime, independent
/// of the engine's unified form.
real oscillator(real x0, real v0, real k, real c, real m, real t) {
    const real gamma = c / (2 * m), w0sq = k / m;
    const real disc = gamma * gamma - w0sq;
    if (disc < 0) {
        const real wd = std::sqrt(-disc);
        return std::exp(-gamma * t) * (x0 * std::cos(wd * t) + (v0 + gamma * x0) / wd * std::sin(wd * t));
    }
    if (disc == 0) return std::exp(-gamma * t) * (x0 + (v0 + gamma * x0) * t);
    const real r1 = -gamma + std::sqrt(disc), r2 = -gamma - std::sqrt(disc);
    const real c1 = (v0 - r2 * x0) / (r1 - r2), c2 = (r1 * x0 - v0) / (r1 - r2);
    return c1 * std::exp(r1 * t) + c2 * std::exp(r2 * t);
}

} // namespace

TEST_CASE("the damped oscillator closed form matches each regime and is continuous at critical", "[physics]") {
    const real m = 2, k = 200; // critical damping c = 2 sqrt(k m) = 40
    for (real c : {real(0), real(4), real(40), real(200)}) {
        for (real t : {real(1) / 60, real(0.1), real(1)}) {
            const Vec3 x = dampedOscillatorPosition(Vec3(1, 0, real(-0.5)), Vec3(0, 2, 1), k, c, m, t);
            CHECK(x.x() == Approx(oscillator(1, 0, k, c, m, t)).margin(tol(1e-12, 1e-5)));
            CHECK(x.y() == Approx(oscillator(0, 2, k, c, m, t)).margin(tol(1e-12, 1e-5)));
            CHECK(x.z() == Approx(oscillator(real(-0.5), 1, k, c, m, t)).margin(tol(1e-12, 1e-5)));
        }
    }
    // Either side of critical the unified form stays continuous (no 0/0, no jump).
    const real t = real(0.05);
    const real at = dampedOscillatorPosition(Vec3(1, 0, 0), Vec3(1, 0, 0), k, 40, m, t).x();
    for (real eps : {real(1e-9), real(1e-6), real(1e-4)}) {
        for (real sign : {real(-1), real(1)}) {
            const real near = dampedOscillatorPosition(Vec3(1, 0, 0), Vec3(1, 0, 0), k, 40 * (1 + sign * eps), m, t).x();
            CHECK(std::isfinite(near));
            CHECK(std::abs(near - at) < 10 * eps + tol(1e-14, 1e-6));
        }
    }
}

TEST_CASE("the fake stiff spring puts the body where the closed form says after each step", "[physics]") {
    const real m = 2, k = 200, h = real(1) / 60;
    for (real c : {real(4), real(40), real(200)}) { // under-, critically, over-damped
        CAPTURE(c);
        World world = testing::worldWithoutGravity();
        WorldSettings settings = world.settings();
        settings.sleep.enabled = false; // the closed form keeps oscillating below the sleep threshold
        // The book's once-per-step integration, which the fake spring's force is solved
        // for (the soft step's substeps move the body with it only to first order).
        settings.resolver.solver = ContactSolver::Resolver;
        world.setSettings(settings);
        BodyDesc d;
        d.mass = m;
        d.inertia = Mat3::Identity();
        d.position = Vec3(2, 2, 3);
        d.linearVelocity = Vec3(0, 1, 0);
        const BodyId id = world.createBody(d);
        const Vec3 anchor(1, 2, 3);
        world.createForceGenerator(FakeSpring{id, anchor, k, c});
        real firstDistance = (d.position - anchor).norm();
        for (int n = 0; n < 600; ++n) {
            const BodyState before = world.body(id);
            Vec3 expected;
            for (int axis = 0; axis < 3; ++axis)
                expected[axis] = anchor[axis] + oscillator(before.position[axis] - anchor[axis],
                                                           before.linearVelocity[axis], k, c, m, h);
            world.step(h);
            REQUIRE((world.body(id).position - expected).norm() < tol(1e-9, 1e-4));
        }
        CHECK(world.body(id).position.allFinite());
        CHECK((world.body(id).position - anchor).norm() < firstDistance / 100);
    }

    SECTION("it stays stable where an explicit spring of the same k would not") {
        // k = 20000 N/m on 1 kg at 60 Hz: omega h = 2.36 > 2, the explicit stability limit.
        World world = testing::worldWithoutGravity();
        BodyDesc d;
        d.position = Vec3(1, 0, 0);
        const BodyId id = world.createBody(d);
        world.createForceGenerator(FakeSpring{id, Vec3::Zero(), 20000, 0});
        real largest = 0;
        for (int n = 0; n < 600; ++n) {
            world.step(real(1) / 60);
            largest = std::max(largest, world.body(id).position.norm());
        }
        CHECK(largest < real(1.5)); // bounded: no blow-up
    }
}
