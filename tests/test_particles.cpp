// SPDX-License-Identifier: MIT
// The particle layer (issue 5): XPBD chains against their closed forms, PBD's
// stiffness correction, substeps, a pendulum's period, collisions with shapes and
// between particles, and bad input.

#include "expect_error.hpp"
#include "helpers.hpp"

#include <jounce/world/world.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <numbers>

using namespace jounce;
using testing::addParticle;
using testing::tol;

namespace {

/// `sleep` false for tests of the solver's dynamics: a slow swing or a small settling
/// stretch is below Millington's sleep threshold (v.v < 0.3) and would stop early.
World worldWith(const ParticleSettings& particles, const Vec3& gravity = Vec3(0, real(-9.81), 0), bool sleep = true) {
    WorldSettings s;
    s.gravity = gravity;
    s.particles = particles;
    s.sleep.enabled = sleep;
    return World(s);
}

struct Chain {
    std::vector<ParticleId> particles; ///< the pinned anchor first
    std::vector<DistanceConstraintId> links;
};

/// A pinned anchor at y = 0 and `masses.size()` particles hanging straight below it,
/// `link` apart at rest, joined by distance constraints of compliance `alpha`.
Chain hangingChain(World& w, const std::vector<real>& masses, real link, real alpha) {
    Chain c;
    c.particles.push_back(addParticle(w, Vec3::Zero(), 1, true));
    for (std::size_t i = 0; i < masses.size(); ++i) {
        c.particles.push_back(addParticle(w, Vec3(0, -link * static_cast<real>(i + 1), 0), masses[i]));
        c.links.push_back(w.createDistanceConstraint({c.particles[i], c.particles[i + 1], link, alpha}));
    }
    return c;
}

real chainLength(const World& w, const Chain& c) {
    return w.particle(c.particles.front()).position.y() - w.particle(c.particles.back()).position.y();
}

} // namespace

TEST_CASE("XPBD chain: the stretch is the closed form alpha g sum(m below), whatever the iteration count",
          "[particles]") {
    // Ten 1 kg particles on links of 0.1 m with compliance 1e-4 m/N: link k from the
    // top carries the 11 - k particles below it, so the total stretch is
    // alpha m g (10 + 9 + ... + 1) = 55 alpha m g.
    const real alpha = real(1e-4), g = real(9.81), link = real(0.1);
    const real expected = 55 * alpha * g;
    real stretch[2] = {0, 0};
    const int iterations[2] = {1, 5};
    for (int run = 0; run < 2; ++run) {
        ParticleSettings ps;
        ps.substeps = 20;
        ps.iterations = iterations[run];
        ps.damping = 2; // settle the bounce; damping does not move the equilibrium
        World w = worldWith(ps, Vec3(0, real(-9.81), 0), false);
        const Chain c = hangingChain(w, std::vector<real>(10, 1), link, alpha);
        for (int i = 0; i < 600; ++i) w.step(real(1) / 60);
        stretch[run] = chainLength(w, c) - 10 * link;
        INFO("iterations " << iterations[run] << ": stretch " << stretch[run] << " m, closed form " << expected);
        CHECK(std::abs(stretch[run] - expected) < real(0.02) * expected);
        // Each link's force, lambda / h^2, is the weight below it.
        for (std::size_t k = 0; k < c.links.size(); ++k) {
            const real weight = static_cast<real>(10 - k) * g;
            INFO("link " << k << ": tension " << w.distanceTension(c.links[k]) << " N, weight below " << weight);
            CHECK(std::abs(w.distanceTension(c.links[k]) - weight) < real(0.01) * weight);
        }
    }
    CHECK(std::abs(stretch[0] - stretch[1]) < real(0.01) * stretch[1]);
}

TEST_CASE("PBD stiffness correction: n iterations with k' leave (1 - k) of the error", "[particles]") {
    for (const int n : {1, 5, 50}) {
        ParticleSettings ps;
        ps.solver = ParticleSolver::PBD;
        ps.substeps = 1;
        ps.iterations = n;
        ps.pbdStiffness = real(0.3);
        World w = worldWith(ps, Vec3::Zero());
        const ParticleId a = addParticle(w, Vec3::Zero(), 1, true);
        const ParticleId b = addParticle(w, Vec3(real(1.5), 0, 0), 1);
        w.createDistanceConstraint({a, b, 1, 0});
        const real e0 = real(0.5);
        w.step(real(1) / 60);
        const real error = (w.particle(b).position - w.particle(a).position).norm() - 1;
        INFO("n = " << n << ": error " << error << ", expected " << (1 - real(0.3)) * e0);
        CHECK(std::abs(error - (1 - real(0.3)) * e0) < tol(1e-9, 1e-5));
    }
}

TEST_CASE("XPBD chain with a 1:100 mass ratio and zero compliance stretches under 1%", "[particles]") {
    // Light and heavy particles alternate; the last one is heavy. Swung sideways, so
    // the links also carry the swing's pull.
    const auto worstStrain = [](bool direct, bool lines) {
        ParticleSettings ps;
        ps.substeps = 20;
        ps.directChains = direct;
        ps.solveLines = lines;
        World w = worldWith(ps, Vec3(0, real(-9.81), 0), false);
        std::vector<real> masses;
        for (int i = 0; i < 10; ++i) masses.push_back(i % 2 == 0 ? real(1) : real(100));
        const Chain c = hangingChain(w, masses, real(0.1), 0);
        for (std::size_t i = 1; i < c.particles.size(); ++i)
            w.setParticleVelocity(c.particles[i], Vec3(real(0.5) * static_cast<real>(i), 0, 0));
        real worst = 0;
        for (int i = 0; i < 300; ++i) {
            w.step(real(1) / 60);
            for (const DistanceConstraintId id : c.links) {
                const DistanceConstraint& d = w.distanceConstraint(id);
                const real length = (w.particles().x[d.a] - w.particles().x[d.b]).norm();
                worst = std::max(worst, std::abs(length - d.restLength) / d.restLength);
            }
        }
        return worst;
    };
    const real direct = worstStrain(true, false), line = worstStrain(false, true), gaussSeidel = worstStrain(false, false);
    INFO("worst strain: direct chain solve " << direct << ", solved as a line " << line << ", Gauss-Seidel " << gaussSeidel);
    CHECK(direct < real(0.01));
    // A straight chain is also a line (solveLines): the same linearised system, solved
    // by elimination along the chain instead of a sparse factorisation.
    CHECK(line < real(0.01));
    // Gauss-Seidel alone cannot carry the heavy particles' weight up the light links
    // in one iteration per substep: this is why chains are solved directly.
    CHECK(gaussSeidel > 10 * direct);
}

TEST_CASE("pendulum of 1 m at 5 degrees: period within 0.1% of the corrected small-angle value", "[particles]") {
    ParticleSettings ps;
    ps.substeps = 50;
    World w = worldWith(ps, Vec3(0, real(-9.81), 0), false);
    const real g = real(9.81), length = 1, theta0 = 5 * std::numbers::pi_v<real> / 180;
    const ParticleId anchor = addParticle(w, Vec3::Zero(), 1, true);
    const ParticleId bob = addParticle(w, Vec3(length * std::sin(theta0), -length * std::cos(theta0), 0), 1);
    w.createDistanceConstraint({anchor, bob, length, 0});
    // T = 2 pi sqrt(L/g) (1 + theta0^2/16 + 11 theta0^4/3072).
    const real expected = 2 * std::numbers::pi_v<real> * std::sqrt(length / g) *
                          (1 + theta0 * theta0 / 16 + 11 * std::pow(theta0, real(4)) / 3072);
    const auto energy = [&] {
        const Particle p = w.particle(bob);
        return real(0.5) * p.velocity.squaredNorm() + g * p.position.y();
    };
    const real e0 = energy() - g * -length; // relative to the lowest point
    // Times of the upward zero crossings of x (linear interpolation between steps; the
    // motion is nearly linear there). 60 Hz x 50 substeps: h = 1/3000 s, coarse enough
    // for float builds to resolve each substep's move.
    const real h = real(1) / 60;
    std::vector<real> crossings;
    real previousX = w.particle(bob).position.x();
    for (int i = 1; i <= 600; ++i) {
        w.step(h);
        const real x = w.particle(bob).position.x();
        if (previousX < 0 && x >= 0) crossings.push_back(h * (static_cast<real>(i) - x / (x - previousX)));
        previousX = x;
    }
    REQUIRE(crossings.size() >= 5);
    const real period = (crossings.back() - crossings.front()) / static_cast<real>(crossings.size() - 1);
    const real e1 = energy() - g * -length;
    INFO("period " << period << " s, expected " << expected << "; energy " << e0 << " -> " << e1);
    // Float builds: a substep moves the bob 1e-4 m against float's 6e-8 relative
    // spacing at 1 m, and the rounding shifts the phase (1.4 % measured).
    CHECK(std::abs(period - expected) < testing::tol(0.001, 0.02) * expected);
    CHECK(e1 > real(0.95) * e0);
}

TEST_CASE("BDF2 is exact for a projectile where Euler is first order", "[particles]") {
    // x(t) = x0 + v0 t + g t^2 / 2 is quadratic, which BDF2 integrates exactly (its
    // history is started as if the particle had always fallen); symplectic Euler is
    // off by g t h / 2 at time t.
    // One small step of 1/60 s: float builds resolve each step's move (0.1 m against
    // float's 6e-8 relative spacing), which 600 steps of 1/600 s from 10 m do not.
    const Vec3 g(0, real(-9.81), 0), x0(0, 1, 0), v0(3, 4, -1);
    const auto runFor = [&](ParticleIntegrator integrator) {
        ParticleSettings ps;
        ps.integrator = integrator;
        ps.substeps = 1;
        World w = worldWith(ps, g, false);
        const ParticleId id = addParticle(w, x0, 1);
        w.setParticleVelocity(id, v0);
        for (int i = 0; i < 60; ++i) w.step(real(1) / 60);
        const real t = 1;
        return (w.particle(id).position - (x0 + v0 * t + g * (t * t / 2))).norm();
    };
    const real bdf2 = runFor(ParticleIntegrator::BDF2), euler = runFor(ParticleIntegrator::Euler);
    INFO("error after 1 s: BDF2 " << bdf2 << " m, Euler " << euler << " m");
    CHECK(bdf2 < testing::tol(1e-9, 2e-5));
    CHECK(euler == Approx(9.81 / 2 / 60).epsilon(0.02)); // g t h / 2 with h = 1/60 s
}

TEST_CASE("BDF2 keeps a spring's oscillation where implicit Euler damps it away", "[particles]") {
    // One particle of 1 kg on a compliant link (k = 1/alpha = 100 N/m, omega = 10 rad/s)
    // to a pinned one, no gravity, released 0.1 m from rest length, one small step of
    // 1/60 s (omega h = 1/6) and one iteration: XPBD then solves each step exactly, so
    // the integrator alone decides. Implicit Euler keeps 1 / sqrt(1 + (omega h)^2) of
    // the amplitude per step (0.60 after a period); BDF2 loses O((omega h)^4) per step.
    const real k = 100, omega = 10, amplitude = real(0.1);
    const auto runFor = [&](ParticleIntegrator integrator, real& period) {
        ParticleSettings ps;
        ps.integrator = integrator;
        ps.substeps = 1;
        ps.iterations = 1;
        World w = worldWith(ps, Vec3::Zero(), false);
        const ParticleId anchor = addParticle(w, Vec3::Zero(), 1, true);
        const ParticleId bob = addParticle(w, Vec3(1 + amplitude, 0, 0), 1);
        w.createDistanceConstraint({anchor, bob, 1, 1 / k});
        const real h = real(1) / 60;
        const int perPeriod = static_cast<int>(std::round(2 * std::numbers::pi / omega / h)); // 38 steps
        real previous = amplitude, peak = 0;
        std::vector<real> crossings;
        for (int i = 1; i <= 3 * perPeriod; ++i) {
            w.step(h);
            const real x = w.particle(bob).position.x() - 1;
            if (previous < 0 && x >= 0) crossings.push_back(h * (static_cast<real>(i) - x / (x - previous)));
            previous = x;
            if (i > 2 * perPeriod) peak = std::max(peak, std::abs(x));
        }
        period = crossings.size() >= 2 ? (crossings.back() - crossings.front()) / static_cast<real>(crossings.size() - 1) : 0;
        return peak / amplitude;
    };
    real bdf2Period = 0, eulerPeriod = 0;
    const real bdf2 = runFor(ParticleIntegrator::BDF2, bdf2Period), euler = runFor(ParticleIntegrator::Euler, eulerPeriod);
    // BDF2's own period: the phase of the principal root r of
    // (3/2 - i omega h) r^2 - 2 r + 1/2 = 0 (0.63398 s against the exact 0.62832 s).
    const std::complex<double> z(0, 1.0 / 6);
    const std::complex<double> root = (2.0 + std::sqrt(4.0 - 4.0 * (1.5 - z) * 0.5)) / (2.0 * (1.5 - z));
    const double bdf2Expected = 2 * std::numbers::pi / (std::arg(root) * 60);
    const double eulerExpected = std::pow(1 + 1.0 / 36, -76.0 / 2); // the third period's first peak
    INFO("amplitude kept over the third period: BDF2 " << bdf2 << " (|r|^76 = " << std::pow(std::abs(root), 76)
                                                       << "), Euler " << euler << " (" << eulerExpected << "); period BDF2 "
                                                       << bdf2Period << " s (" << bdf2Expected << ")");
    CHECK(bdf2 > real(0.95));
    CHECK(euler == Approx(eulerExpected).epsilon(0.05));
    CHECK(bdf2Period == Approx(bdf2Expected).epsilon(testing::tol(0.001, 0.01)));
}

TEST_CASE("particles rest on shapes, bounce with their restitution and never pass a 1 mm wall", "[particles][collision]") {
    SECTION("a particle dropped on the ground rests at its radius") {
        World w;
        BodyDesc ground;
        ground.type = BodyType::Static;
        ground.colliders.push_back(ColliderDesc{HalfSpace{Vec3::UnitY(), 0}, Transform{}, 1000, Material{0.5, 0}, CollisionFilter{}});
        w.createBody(ground);
        const ParticleId p = addParticle(w, Vec3(0, 1, 0), 1, false, 0);
        for (int i = 0; i < 120; ++i) w.step(real(1) / 60);
        CHECK(std::abs(w.particle(p).position.y() - real(0.05)) < real(1e-3));
        CHECK(w.particle(p).velocity.norm() < real(1e-2));
    }
    SECTION("restitution 0.5 rebounds to a quarter of the drop height") {
        World w;
        BodyDesc ground;
        ground.type = BodyType::Static;
        ground.colliders.push_back(ColliderDesc{HalfSpace{Vec3::UnitY(), 0}, Transform{}, 1000, Material{0.5, real(0.5)}, CollisionFilter{}});
        w.createBody(ground);
        ParticleDesc d;
        d.position = Vec3(0, real(1.05), 0);
        d.restitution = real(0.5);
        const ParticleId p = w.createParticle(d);
        real apex = 0;
        bool bounced = false;
        for (int i = 0; i < 120; ++i) {
            w.step(real(1) / 60);
            const Particle q = w.particle(p);
            bounced = bounced || q.velocity.y() > 0;
            if (bounced) apex = std::max(apex, q.position.y() - real(0.05));
        }
        INFO("rebound to " << apex << " m of 1 m");
        CHECK(std::abs(apex - real(0.25)) < real(0.03));
    }
    SECTION("a particle at 100 m/s never passes a 1 mm static wall") {
        World w;
        BodyDesc wall;
        wall.type = BodyType::Static;
        wall.colliders.push_back(ColliderDesc{Box{Vec3(real(0.0005), 2, 2)}, Transform{}, 1000, Material{0, 0}, CollisionFilter{}});
        w.createBody(wall);
        std::vector<ParticleId> shots;
        for (int k = 0; k < 16; ++k) {
            ParticleDesc d;
            // From 1 m away, at heights and angles that differ, all toward the wall.
            const real angle = real(0.08) * static_cast<real>(k - 8);
            d.position = Vec3(-1, real(0.1) * static_cast<real>(k - 8), real(0.05) * static_cast<real>(k));
            d.velocity = Vec3(100 * std::cos(angle), 100 * std::sin(angle), 0);
            d.radius = real(0.01);
            d.group = 1; // they do not hit each other
            shots.push_back(w.createParticle(d));
        }
        for (int i = 0; i < 60; ++i) {
            w.step(real(1) / 60);
            for (const ParticleId id : shots) REQUIRE(w.particle(id).position.x() < 0);
        }
    }
    SECTION("a particle that starts inside a box is pushed out in 2 steps without gaining speed") {
        World w = worldWith(ParticleSettings{}, Vec3::Zero());
        BodyDesc box;
        box.type = BodyType::Static;
        box.colliders.push_back(ColliderDesc{Box{Vec3(1, 1, 1)}, Transform{}, 1000, Material{0.5, 0}, CollisionFilter{}});
        w.createBody(box);
        const ParticleId p = addParticle(w, Vec3(real(0.7), real(0.2), 0), 1, false, 0);
        w.step(real(1) / 60);
        w.step(real(1) / 60);
        const Particle q = w.particle(p);
        INFO("at " << q.position.transpose() << ", speed " << q.velocity.norm());
        CHECK(q.position.x() >= 1 + real(0.05) - real(1e-6));
        // Pushed out, not thrown out: the push moves the particle, it is not a velocity.
        CHECK(q.velocity.norm() < real(1e-6));
    }
}

TEST_CASE("two particles colliding head-on keep their momentum", "[particles]") {
    World w = worldWith(ParticleSettings{}, Vec3::Zero());
    ParticleDesc d;
    d.radius = real(0.1);
    d.staticFriction = d.kineticFriction = 0;
    d.position = Vec3(-1, 0, 0);
    d.velocity = Vec3(2, 0, 0);
    d.mass = 1;
    const ParticleId a = w.createParticle(d);
    d.position = Vec3(1, 0, 0);
    d.velocity = Vec3(-1, 0, 0);
    d.mass = 3;
    const ParticleId b = w.createParticle(d);
    const Vec3 before = 1 * w.particle(a).velocity + 3 * w.particle(b).velocity;
    for (int i = 0; i < 120; ++i) w.step(real(1) / 60);
    const Vec3 after = 1 * w.particle(a).velocity + 3 * w.particle(b).velocity;
    CHECK((after - before).norm() < tol(1e-9, 1e-4));
    // They met (restitution 0: they move on together) and do not overlap.
    CHECK((w.particle(a).position - w.particle(b).position).norm() >= real(0.2) - real(1e-6));
    CHECK(std::abs(w.particle(a).velocity.x() - w.particle(b).velocity.x()) < real(1e-6));
}

TEST_CASE("bad particle input is rejected with the field named and nothing stored", "[particles]") {
    World w;
    const ParticleId a = addParticle(w, Vec3::Zero(), 1);
    const ParticleId b = addParticle(w, Vec3(1, 0, 0), 1);
    const auto count = w.particleCount();
    const auto expectError = [&](auto call, const char* field) {
        testing::expectError(call, field);
        CHECK(w.particleCount() == count);
        CHECK(w.distanceConstraintIds().empty());
        CHECK(w.particleAttachmentIds().empty());
    };
    ParticleDesc d;
    d.radius = 0;
    expectError([&] { w.createParticle(d); }, "ParticleDesc.radius");
    d.radius = real(-0.1);
    expectError([&] { w.createParticle(d); }, "ParticleDesc.radius");
    d = ParticleDesc{};
    d.position = Vec3(std::nan(""), 0, 0);
    expectError([&] { w.createParticle(d); }, "ParticleDesc.position");
    d = ParticleDesc{};
    d.mass = 0;
    expectError([&] { w.createParticle(d); }, "ParticleDesc.mass");
    d.mass = -1;
    expectError([&] { w.createParticle(d); }, "ParticleDesc.mass");
    d = ParticleDesc{};
    d.restitution = 2;
    expectError([&] { w.createParticle(d); }, "ParticleDesc.restitution");

    ParticleId stale = addParticle(w, Vec3(5, 0, 0), 1);
    w.destroyParticle(stale);
    expectError([&] { w.createDistanceConstraint({a, stale, 1, 0}); }, "DistanceConstraintDesc.b");
    expectError([&] { w.createDistanceConstraint({a, a, 1, 0}); }, "DistanceConstraintDesc.b");
    expectError([&] { w.createDistanceConstraint({a, b, 0, 0}); }, "DistanceConstraintDesc.restLength");
    const real nan = std::numeric_limits<real>::quiet_NaN();
    expectError([&] { w.createDistanceConstraint({a, b, nan, 0}); }, "DistanceConstraintDesc.restLength");
    expectError([&] { w.createDistanceConstraint({a, b, 1, -1}); }, "DistanceConstraintDesc.compliance");
    expectError([&] { w.createParticleAttachment({stale, {}, 0, 0}); }, "ParticleAttachmentDesc.particle");
    expectError([&] { w.createParticleAttachment({a, {BodyId{3, 1}, Vec3::Zero()}, 0, 0}); },
                "ParticleAttachmentDesc.target.body");
    expectError([&] { w.createParticleAttachment({a, {BodyId{}, Vec3(0, std::nan(""), 0)}, 0, 0}); },
                "ParticleAttachmentDesc.target.point");
    expectError([&] { w.setParticlePosition(stale, Vec3::Zero()); }, "setParticlePosition.id");
    expectError([&] { w.setParticlePosition(a, Vec3(0, 0, std::nan(""))); }, "setParticlePosition.position");
    expectError([&] { w.applyParticleForce(a, Vec3(INFINITY, 0, 0)); }, "applyParticleForce.force");
    expectError([&] { w.particle(stale); }, "particle.id");
    expectError([&] { w.setDistanceCompliance(DistanceConstraintId{0, 7}, 0); }, "setDistanceCompliance.id");

    WorldSettings s = w.settings();
    s.particles.substeps = 0;
    expectError([&] { w.setSettings(s); }, "WorldSettings.particles.substeps");
    s = w.settings();
    s.particles.rigidSweeps = 0;
    expectError([&] { w.setSettings(s); }, "WorldSettings.particles.rigidSweeps");
    s.particles.rigidSweeps = 101;
    expectError([&] { w.setSettings(s); }, "WorldSettings.particles.rigidSweeps");
    s = w.settings();
    s.particles.pbdStiffness = 0;
    expectError([&] { w.setSettings(s); }, "WorldSettings.particles.pbdStiffness");
    s = w.settings();
    s.particles.integrator = static_cast<ParticleIntegrator>(7);
    expectError([&] { w.setSettings(s); }, "WorldSettings.particles.integrator");
    CHECK(w.settings().particles.substeps == ParticleSettings{}.substeps);
    CHECK(w.settings().particles.rigidSweeps == ParticleSettings{}.rigidSweeps);
    CHECK(w.settings().particles.integrator == ParticleIntegrator::Euler);
}

TEST_CASE("64 x 64 hanging cloth: 30 substeps of 1 iteration stretch it 3x less than 30 iterations of 1 substep",
          "[particles]") {
    // Small steps (Macklin 2019): the same 30 sweeps, spent as substeps, converge the
    // stiff stretch constraints much further than as iterations of one big step. Point
    // Gauss-Seidel: solved a column at a time (solveLines), the cloth's hanging columns
    // would be exact in one sweep whatever the split.
    const auto worstStrain = [](int substeps, int iterations) {
        ParticleSettings ps;
        ps.substeps = substeps;
        ps.iterations = iterations;
        ps.solveLines = false;
        World w = worldWith(ps);
        ClothDesc d;
        d.corner = Vec3(-1, 3, 0); // hangs in the x-y plane from its top row
        d.sideU = Vec3(2, 0, 0);
        d.sideV = Vec3(0, -2, 0);
        d.nu = d.nv = 64;
        d.mass = real(0.5);
        for (int u = 0; u < 64; ++u) d.pinned.push_back({u, 0});
        const Cloth cloth = buildCloth(w, d);
        real worst = 0;
        const int steps = 60 / testing::sanitizedStepDivisor;
        for (int i = 0; i < steps; ++i) {
            w.step(real(1) / 60);
            if (i < steps / 2) continue; // after the first fall
            for (const DistanceConstraintId id : cloth.stretch) {
                const DistanceConstraint& c = w.distanceConstraint(id);
                const real length = (w.particles().x[c.a] - w.particles().x[c.b]).norm();
                worst = std::max(worst, (length - c.restLength) / c.restLength);
            }
        }
        return worst;
    };
    const real small = worstStrain(30, 1), big = worstStrain(1, 30);
    INFO("worst edge strain: 30 substeps x 1 iteration " << small << ", 1 substep x 30 iterations " << big);
    CHECK(small * 3 <= big);
}

TEST_CASE("a particle cluster on a ramp: holds below the friction angle, slides with a = g (sin - mu cos) above",
          "[particles]") {
    // Four particles linked by six distance constraints (a small rigid tetrahedron),
    // mu_s = mu_k = 0.35 against a frictional ramp of mu 0.35 (pairs combine as
    // sqrt(mu_a mu_b)). Macklin 2014's position friction, per substep.
    const real mu = real(0.35), g = real(9.81);
    for (const real degrees : {real(11.25), real(22.5), real(33.75)}) {
        World w = worldWith(ParticleSettings{});
        const real angle = degrees * std::numbers::pi_v<real> / 180;
        const Quat tilt(Eigen::AngleAxis<real>(-angle, Vec3::UnitZ())); // rises toward -x
        BodyDesc ramp;
        ramp.type = BodyType::Static;
        ramp.orientation = tilt;
        ramp.colliders.push_back(ColliderDesc{Box{Vec3(20, real(0.5), 2)}, Transform{}, 1000, Material{mu, 0}, CollisionFilter{}});
        w.createBody(ramp);
        const Vec3 up = tilt * Vec3::UnitY(), down = tilt * Vec3::UnitX(), side = Vec3::UnitZ();
        const real r = real(0.05);
        const Vec3 base = up * (real(0.5) + r) - down * 5;
        const std::array<Vec3, 4> corners{base, base + down * real(0.2), base + side * real(0.2),
                                          base + (down + side) * real(0.1) + up * real(0.16)};
        std::vector<ParticleId> ids;
        for (const Vec3& c : corners) {
            ParticleDesc p;
            p.position = c;
            p.radius = r;
            p.mass = real(0.25);
            p.staticFriction = p.kineticFriction = mu;
            p.group = 1;
            ids.push_back(w.createParticle(p));
        }
        for (std::size_t a = 0; a < 4; ++a)
            for (std::size_t b = a + 1; b < 4; ++b) w.createDistanceConstraint({ids[a], ids[b], -1, 0});
        const auto along = [&] {
            real s = 0;
            for (const ParticleId id : ids) s += w.particle(id).position.dot(down) / 4;
            return s;
        };
        // Settle for a second, then measure over the next 2 s (s = s0 + v0 t + a t^2 / 2).
        for (int i = 0; i < 60; ++i) w.step(real(1) / 60);
        const real s0 = along();
        std::vector<real> samples;
        for (int i = 1; i <= 120; ++i) {
            w.step(real(1) / 60);
            samples.push_back(along() - s0);
        }
        const real expected = g * (std::sin(angle) - mu * std::cos(angle));
        if (expected <= 0) {
            INFO(degrees << " degrees: moved " << samples.back() << " m in 2 s");
            CHECK(std::abs(samples.back()) < real(0.01));
            continue;
        }
        // Acceleration from the second difference over the two seconds.
        const real t1 = 1, t2 = 2;
        const real v1 = samples[59] / t1, v2 = samples[119] / t2; // mean speeds from the start of the window
        const real measured = 2 * (v2 - v1) / (t2 - t1);
        INFO(degrees << " degrees: a = " << measured << ", expected " << expected);
        CHECK(std::abs(measured - expected) < real(0.1) * expected);
    }
}

TEST_CASE("two-way coupling: a particle hitting a free box keeps the total momentum", "[particles]") {
    // A 5 kg particle at 4 m/s into a free 10 kg box, no gravity, restitution 0: they
    // leave together at 20 / 15 m/s.
    {
        World w = worldWith(ParticleSettings{}, Vec3::Zero());
        BodyDesc box;
        box.colliders.push_back(ColliderDesc{Box{Vec3::Constant(real(0.5))}, Transform{}, 10, Material{real(0.3), 0}, CollisionFilter{}});
        const BodyId b = w.createBody(box); // 10 kg
        ParticleDesc d;
        d.position = Vec3(-2, real(0.1), real(0.05));
        d.velocity = Vec3(4, 0, 0);
        d.mass = 5;
        d.radius = real(0.2);
        const ParticleId p = w.createParticle(d);
        const auto momentum = [&] { return Vec3(5 * w.particle(p).velocity + 10 * w.body(b).linearVelocity); };
        const Vec3 before = momentum();
        for (int i = 0; i < 60; ++i) w.step(real(1) / 60);
        const Vec3 after = momentum();
        INFO("momentum " << before.transpose() << " -> " << after.transpose() << "; box at " << w.body(b).linearVelocity.transpose());
        CHECK((after - before).norm() < real(0.05) * before.norm());
        // Float builds move the box in float small steps: the split is within 0.15 there.
        CHECK(std::abs(w.body(b).linearVelocity.x() - real(20) / 15) < tol(0.05, 0.15));
        CHECK(std::abs(w.particle(p).velocity.x() - real(20) / 15) < tol(0.05, 0.15));
    }
}

TEST_CASE("a grain sliding on a box stops after v / (mu g), on a static box and on a dynamic one alike", "[particles]") {
    // 2 m/s, mu 0.3: it stops after 0.680 s and 0.680 m (v^2 / (2 mu g)). On a dynamic
    // 6 x 1 x 6 m box of 36 t the grain slid on frictionless (4 m in 2 s) until the projection
    // gave contacts with dynamic bodies the friction it gives static ones.
    for (const bool dynamicBox : {false, true}) {
        CAPTURE(dynamicBox);
        World w = worldWith(ParticleSettings{}, Vec3(0, real(-9.81), 0), false);
        testing::addGround(w, 1);
        BodyDesc box;
        box.position = Vec3(0, real(0.5), 0);
        box.type = dynamicBox ? BodyType::Dynamic : BodyType::Static;
        box.colliders.push_back(ColliderDesc{Box{Vec3(3, real(0.5), 3)}, Transform{}, 1000, Material{real(0.3), 0}, CollisionFilter{}});
        w.createBody(box);
        ParticleDesc d;
        d.position = Vec3(-2, real(1.05), 0);
        d.mass = real(0.5);
        d.radius = real(0.05);
        d.staticFriction = d.kineticFriction = real(0.3);
        const ParticleId p = w.createParticle(d);
        for (int i = 0; i < 30; ++i) w.step(real(1) / 60); // settle
        w.setParticleVelocity(p, Vec3(2, 0, 0));
        const real start = w.particle(p).position.x();
        int stoppedAt = -1;
        for (int i = 1; i <= 120; ++i) {
            w.step(real(1) / 60);
            if (stoppedAt < 0 && w.particle(p).velocity.norm() < real(0.01)) stoppedAt = i;
        }
        const real mug = real(0.3) * real(9.81);
        CHECK(static_cast<real>(stoppedAt) / 60 == Approx(2 / mug).margin(real(1) / 30));
        CHECK(w.particle(p).position.x() - start == Approx(2 * 2 / (2 * mug)).epsilon(0.02));
    }
}

TEST_CASE("friction between a particle and a dynamic body: a grain on a sliding box is carried to the common speed",
          "[particles]") {
    // A 10 kg box slides at 1 m/s on frictionless ground with a 0.5 kg grain on top
    // (friction 0.5 each, so 0.5 between them): friction speeds the grain up at mu g and
    // slows the box at mu g m / M until they move together at 10 / 10.5 m/s (momentum),
    // after 0.19 s. Without friction the grain stays where it is and the box slides on.
    const auto slide = [](real friction, real& grainSpeed, real& boxSpeed, real& grainHeight) {
        World w = worldWith(ParticleSettings{});
        testing::addGround(w, 0);
        BodyDesc box;
        box.position = Vec3(0, real(0.5), 0);
        box.colliders.push_back(ColliderDesc{Box{Vec3::Constant(real(0.5))}, Transform{}, 10, Material{real(0.5), 0}, CollisionFilter{}});
        const BodyId b = w.createBody(box); // 10 kg
        ParticleDesc d;
        d.position = Vec3(0, real(1.05), 0);
        d.mass = real(0.5);
        d.radius = real(0.05);
        d.staticFriction = d.kineticFriction = friction;
        const ParticleId p = w.createParticle(d);
        for (int i = 0; i < 30; ++i) w.step(real(1) / 60); // settle
        w.setLinearVelocity(b, Vec3(1, 0, 0));
        for (int i = 0; i < 60; ++i) w.step(real(1) / 60);
        grainSpeed = w.particle(p).velocity.x();
        boxSpeed = w.body(b).linearVelocity.x();
        grainHeight = w.particle(p).position.y();
    };
    real grain = 0, box = 0, height = 0;
    slide(real(0.5), grain, box, height);
    CHECK(height > 1); // carried on the box
    INFO("with friction: grain " << grain << ", box " << box << " m/s");
    CHECK(grain == Approx(real(10) / real(10.5)).epsilon(0.03));
    CHECK(box == Approx(real(10) / real(10.5)).epsilon(0.03));
    CHECK(real(0.5) * grain + 10 * box == Approx(10).epsilon(0.02)); // momentum kept
    slide(0, grain, box, height);
    INFO("without: grain " << grain << ", box " << box << " m/s");
    // Left behind: it falls off the box's end (whose edge, sliding out from under it,
    // gives it a few cm/s backwards).
    CHECK(std::abs(grain) < real(0.03));
    CHECK(box == Approx(1).epsilon(0.01));
}

TEST_CASE("a particle attached inside a body does not collide with it, and the two rest", "[particles]") {
    // A 0.1 kg particle held by a rigid zero-length attachment at the centre of a 0.2 m
    // ball resting on the ground. The ball's surface used to push the particle out every
    // substep against the attachment: here they settled with the particle held off the
    // centre; in the reliability table's tangle of constraints the fight kept both
    // moving. An attached pair makes no contact now (as two jointed bodies do not).
    World w = worldWith(ParticleSettings{});
    testing::addGround(w);
    BodyDesc ball;
    ball.position = Vec3(0, real(0.2), 0);
    ball.colliders.push_back(makeCollider(Sphere{real(0.2)}, 500));
    ball.massFromColliders = true;
    const BodyId b = w.createBody(ball);
    const ParticleId p = addParticle(w, ball.position, real(0.1));
    w.createParticleAttachment({p, {b, Vec3::Zero()}, 0, 0});
    real fastest = 0;
    for (int i = 0; i < 240; ++i) {
        w.step(real(1) / 60);
        if (i >= 60) fastest = std::max({fastest, w.particle(p).velocity.norm(), w.body(b).linearVelocity.norm()});
    }
    INFO("fastest after the first second " << fastest << " m/s; particle " << (w.particle(p).position - w.body(b).position).norm()
                                            << " m off the ball's centre");
    CHECK(fastest < real(0.01));
    CHECK((w.particle(p).position - w.body(b).position).norm() < real(1e-3));
    CHECK(std::abs(w.body(b).position.y() - real(0.2)) < real(0.01));
}
