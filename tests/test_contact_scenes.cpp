// SPDX-License-Identifier: MIT
// Scene-level figures of the contact resolver (issue 4), at the default settings:
// stacks stand, friction holds and lets go where Coulomb says, heavy on light stays
// apart, and waking touches only the island that was hit.

#include "helpers.hpp"
#include "scene_helpers.hpp"
#include "scenes/bench_scenes.hpp"
#include "scenes/rigid_scenes.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <numbers>

using namespace jounce;
using testing::boxCollider;
using testing::TestScene;

namespace {


real horizontal(const Vec3& d) { return std::hypot(d.x(), d.z()); }

} // namespace

TEST_CASE("column of 10 boxes with sleep off: the resolver's top box drifts and drops less than 1 cm in 10 s",
          "[contact][scene]") {
    TestScene scene(false);
    testing::useResolver(scene.world());
    const scenes::BenchLayout layout = scenes::buildBenchScene(scene, "column");
    const Vec3 start = scene.world().body(layout.top).position;
    for (int i = 0; i < 600; ++i) scene.step();
    const Vec3 moved = scene.world().body(layout.top).position - start;
    INFO("top box moved " << moved.transpose() << " m");
    CHECK(horizontal(moved) < real(0.01));
    CHECK(std::abs(moved.y()) < real(0.01));
}

TEST_CASE("column of 10 boxes, soft step: each contact sinks as a spring under its load, then nothing moves",
          "[contact][scene]") {
    // A soft contact is a spring k = m_eff w^2 (Catto's soft step; contact/soft_constraint.hpp):
    // resting, a point carrying force F overlaps F / (m_eff w^2). Between two 1 m cubes
    // of mass m each corner point has m_eff = m / 8 (the normal's lever arm turns both
    // boxes: 1/m_eff = 2 (1/m + 3/m)) and carries a quarter of the boxes above, so the
    // contact under k boxes overlaps 2 k g / w^2 at w = 2 pi 30 Hz; on the ground, m_eff =
    // m / 4 at twice the rate. The top box sinks the sum, mass for mass the same.
    TestScene scene(false);
    const scenes::BenchLayout layout = scenes::buildBenchScene(scene, "column");
    const Vec3 start = scene.world().body(layout.top).position;
    const real g = scene.world().settings().gravity.norm();
    const real w = 2 * std::numbers::pi_v<real> * scene.world().settings().resolver.soft.contactHertz;
    real expected = 10 * g / (4 * w * w); // the ground's
    for (int k = 1; k < 10; ++k) expected += 2 * k * g / (w * w);
    // Settling, the column rocks a few millimetres on its springs for a second or two
    // (5.4 mm at most, measured) and then stands: 0.7 mm off at 10 s and at 60 s.
    real settledY = 0, rocking = 0, sideways = 0, bobbing = 0;
    for (int i = 0; i < 600; ++i) {
        scene.step();
        const Vec3 at = scene.world().body(layout.top).position;
        rocking = std::max(rocking, horizontal(at - start));
        if (i + 1 > 180) sideways = std::max(sideways, horizontal(at - start));
        if (i + 1 == 60) settledY = at.y();
        if (i + 1 > 60) bobbing = std::max(bobbing, std::abs(at.y() - settledY));
    }
    const Vec3 now = scene.world().body(layout.top).position;
    INFO("top box sank " << start.y() - now.y() << " m (springs: " << expected << " m); rocked " << rocking
                         << " m, at most " << sideways << " m sideways after 3 s; " << bobbing << " m up or down after 1 s");
    CHECK(start.y() - now.y() == Approx(expected).epsilon(0.02));
    CHECK(rocking < real(0.01));
    CHECK(sideways < real(0.003));
    CHECK(horizontal(now - start) < real(0.005));
    CHECK(bobbing < real(0.001));
}

TEST_CASE("pyramid of base 10: no box moves 2 cm in 10 s, all asleep by 5 s", "[contact][scene]") {
    TestScene scene(true);
    const scenes::BenchLayout layout = scenes::buildBenchScene(scene, "pyramid10");
    std::vector<Vec3> start;
    for (const BodyId id : layout.dynamic) start.push_back(scene.world().body(id).position);
    for (int i = 0; i < 600; ++i) {
        scene.step();
        if (i + 1 == 300) {
            int awake = 0;
            for (const BodyId id : layout.dynamic) awake += scene.world().body(id).awake ? 1 : 0;
            INFO("awake at 5 s: " << awake);
            CHECK(awake == 0);
        }
    }
    real worst = 0;
    for (std::size_t i = 0; i < layout.dynamic.size(); ++i)
        worst = std::max(worst, (scene.world().body(layout.dynamic[i]).position - start[i]).norm());
    INFO("largest move " << worst << " m");
    CHECK(worst < real(0.02));
}

TEST_CASE("pyramid of base 20 with sleep off: the top box drifts less than 5 mm in 10 s", "[contact][scene]") {
    for (const ContactSolver solver : {ContactSolver::SoftStep, ContactSolver::Resolver}) {
        INFO((solver == ContactSolver::SoftStep ? "soft step" : "resolver"));
        TestScene scene(false);
        if (solver == ContactSolver::Resolver) testing::useResolver(scene.world());
        const scenes::BenchLayout layout = scenes::buildBenchScene(scene, "pyramid20");
        const Vec3 start = scene.world().body(layout.top).position;
        // Under the sanitizers (~30x slower here) the first 0.5 s: every contact path runs,
        // and the full 10 s figure is asserted by the other build (double, gcc).
        const int steps = testing::sanitizedStepDivisor > 1 ? 30 : 600;
        real settledY = 0;
        for (int i = 0; i < steps; ++i) {
            scene.step();
            if (i + 1 == 60) settledY = scene.world().body(layout.top).position.y();
        }
        const Vec3 moved = scene.world().body(layout.top).position - start;
        INFO("top box moved " << moved.transpose() << " m");
        // Issue 7's stability target (Bullet: 234 mm here, ODE 477 mm; docs/benchmarks.md).
        CHECK(horizontal(moved) < real(0.005));
        if (solver == ContactSolver::Resolver) {
            CHECK(std::abs(moved.y()) < real(0.005));
            continue;
        }
        // Soft: down by the contacts' springs under the rows above (the column's test has
        // their closed form), settled within the first second.
        CHECK(std::abs(moved.y()) < real(0.03));
        if (steps >= 600) CHECK(std::abs(scene.world().body(layout.top).position.y() - settledY) < real(0.001));
    }
}

TEST_CASE("incline with mu 0.5: holds at 20 degrees, slides at 35 with a = g (sin - mu cos)", "[contact][scene]") {
    SECTION("20 degrees: less than 1 cm in 5 s") {
        TestScene scene(false);
        const BodyId box = scenes::buildIncline(scene, 20, real(0.5));
        const Vec3 start = scene.world().body(box).position;
        for (int i = 0; i < 300; ++i) scene.step();
        const real moved = (scene.world().body(box).position - start).norm();
        INFO("moved " << moved << " m");
        CHECK(moved < real(0.01));
    }
    SECTION("35 degrees: acceleration within 5% of g (sin a - mu cos a)") {
        TestScene scene(false);
        const real angle = 35 * std::numbers::pi_v<real> / 180;
        const BodyId box = scenes::buildIncline(scene, 35, real(0.5));
        const Vec3 downhill = Quat(Eigen::AngleAxis<real>(-angle, Vec3::UnitZ())) * Vec3::UnitX();
        // Speed along the slope at 0.5 s and 1.5 s (the box stays on the 16 m ramp).
        real v1 = 0, v2 = 0;
        for (int i = 1; i <= 90; ++i) {
            scene.step();
            if (i == 30) v1 = scene.world().body(box).linearVelocity.dot(downhill);
            if (i == 90) v2 = scene.world().body(box).linearVelocity.dot(downhill);
        }
        const real expected = real(9.81) * (std::sin(angle) - real(0.5) * std::cos(angle));
        const real measured = (v2 - v1) / 1;
        INFO("measured " << measured << " m/s^2, expected " << expected);
        CHECK(measured == Approx(expected).epsilon(0.05));
    }
}

TEST_CASE("mass ratio 100:1: a 100 kg box on a 1 kg box stays apart within 1 cm for 10 s", "[contact][scene]") {
    TestScene scene(false);
    const auto [lower, upper] = scenes::buildMassRatio(scene, 1, 100);
    real deepest = 0;
    for (int i = 0; i < 600; ++i) {
        scene.step();
        deepest = std::max(deepest, scene.world().resolverStats().maxPenetrationBefore);
        REQUIRE(scene.world().body(upper).position.allFinite());
    }
    const real gap = scene.world().body(upper).position.y() - scene.world().body(lower).position.y();
    INFO("deepest penetration " << deepest << " m, centres " << gap << " m apart");
    CHECK(deepest < real(0.01));
    CHECK(gap > real(0.99));
    CHECK(scene.world().body(lower).position.y() > real(0.49));
}

namespace {

/// Of 42 stacks of two boxes on the ground, the upper 10 to 1000 times as heavy, set
/// off-centre and turned: how many sank more than 1 cm into the lower box or pushed
/// it out from under them within `steps` steps.
int heavyOnLightFailures(bool shockPropagation, int steps, real& deepest) {
    int failures = 0;
    deepest = 0;
    for (const real ratio : {real(10), real(30), real(100), real(120), real(200), real(500), real(1000)})
        for (const real offset : {real(0), real(0.15), real(0.3)})
            for (const real turn : {real(0), real(0.4)}) {
                TestScene scene(false);
                WorldSettings s = scene.world().settings();
                s.resolver.solver = ContactSolver::Resolver; // its shock propagation (test_soft_step.cpp: the soft step's hold)
                s.resolver.shockPropagation = shockPropagation;
                scene.world().setSettings(s);
                const auto [lower, upper] = scenes::buildMassRatio(scene, 1, ratio);
                scene.world().setPosition(upper, Vec3(offset, real(1.5), offset / 2));
                scene.world().setOrientation(upper, Quat(Eigen::AngleAxis<real>(turn, Vec3::UnitY())));
                real sank = 0;
                for (int i = 0; i < steps; ++i) {
                    scene.step();
                    sank = std::max(sank, scene.world().resolverStats().maxPenetrationBefore);
                }
                const real gap = scene.world().body(upper).position.y() - scene.world().body(lower).position.y();
                deepest = std::max(deepest, sank);
                if (!(sank < real(0.01)) || !(gap > real(0.99))) ++failures;
            }
    return failures;
}

} // namespace

TEST_CASE("heavy on light: boxes 10 to 1000 times heavier than the box under them stay on it for 10 s",
          "[contact][scene]") {
    // Gauss-Seidel sweeps cannot carry a load 100 times a body's own weight through it:
    // they leave the light box tipping, and a heavy box held on a tipping one is thrown
    // (session 15 found one such stack in eight falling over with the earlier
    // single-sweep shock propagation). Shock propagation level by level settles the
    // light box on the ground first, then stops the heavy box on it (docs/contact.md).
    // Under the sanitizers the first 2 s (the failures came in the first 40 steps).
    const int steps = testing::sanitizedStepDivisor > 1 ? 120 : 600;
    real deepest = 0;
    CHECK(heavyOnLightFailures(true, steps, deepest) == 0);
    INFO("deepest penetration " << deepest << " m");
    CHECK(deepest < real(0.005));
    // Control: without shock propagation some of these stacks fail.
    real unused = 0;
    CHECK(heavyOnLightFailures(false, steps, unused) > 0);
}

namespace {

BodyId jointedPairBody(World& w, const Vec3& at, bool box, real size, const Quat& q, const Vec3& v, const Vec3& spin) {
    BodyDesc d;
    d.position = at;
    d.orientation = q;
    d.linearVelocity = v;
    d.angularVelocity = spin;
    ColliderDesc c;
    c.shape = box ? Shape{Box{Vec3::Constant(size)}} : Shape{Sphere{size}};
    c.density = 400;
    d.colliders.push_back(c);
    return w.createBody(d);
}

/// The highest mechanical energy any of `cases` drops reaches within `steps` steps,
/// over its energy at the start. Each drop: a heavy box or ball (0.3-0.4 m half size,
/// 45-205 kg) on a ball or hinge joint to a light one (0.15-0.2 m, 5-26 kg), as the
/// soak test spawns them, thrown spinning at the ground (up to 8 m/s, 5 rad/s about
/// each axis), every other one onto a box or ball resting there.
real worstEnergyRise(int cases, int steps) {
    testing::Lcg rng(16);
    const auto between = [&](real lo, real hi) { return lo + (hi - lo) * (rng.uniform() + 1) / 2; };
    real worst = 0;
    for (int k = 0; k < cases; ++k) {
        TestScene scene(false);
        World& w = scene.world();
        scenes::addGroundSlab(scene, real(0.5));
        const bool resting = k % 2 == 0;
        const real rest = between(real(0.2), real(0.4));
        if (resting) jointedPairBody(w, Vec3(0, rest, 0), rng.uniform() < 0, rest, Quat::Identity(), Vec3::Zero(), Vec3::Zero());
        const real heavy = between(real(0.3), real(0.4)), light = between(real(0.15), real(0.2));
        const bool heavyBox = rng.uniform() < 0, lightBox = rng.uniform() < 0;
        const Quat q = Quat(rng.uniform(), rng.uniform(), rng.uniform(), rng.uniform()).normalized();
        const Vec3 v(rng.uniform(), 4 * (rng.uniform() - 1), 4 * rng.uniform());
        const Vec3 spin = 5 * Vec3(rng.uniform(), rng.uniform(), rng.uniform());
        Vec3 centre(real(0.15) * rng.uniform(), (resting ? 2 * rest : 0) + heavy + between(real(0.3), real(1.1)),
                    real(0.15) * rng.uniform() - v.z() / 10);
        // Both start clear of the ground and of the resting body (1.8 half sizes: a
        // box's corner reaches sqrt 3).
        const real lowest = std::min(centre.y() - real(1.8) * heavy, (centre + q * Vec3(real(0.9), 0, 0)).y() - real(1.8) * light);
        const real floor = (resting ? 2 * rest : 0) + real(0.05);
        if (lowest < floor) centre.y() += floor - lowest;
        const BodyId a = jointedPairBody(w, centre, heavyBox, heavy, q, v, spin);
        // The light body moves with the heavy one as one rigid pair: v + w x r.
        const Vec3 arm = q * Vec3(real(0.9), 0, 0);
        const BodyId b = jointedPairBody(w, centre + arm, lightBox, light, q, v + spin.cross(arm), spin);
        JointDesc j;
        j.type = rng.uniform() < 0 ? JointType::Ball : JointType::Hinge;
        j.a = {a, Vec3(real(0.45), 0, 0)};
        j.b = {b, Vec3(real(-0.45), 0, 0)};
        w.createJoint(j);
        const real start = testing::bodyEnergy(w);
        for (int i = 0; i < steps; ++i) {
            scene.step();
            worst = std::max(worst, testing::bodyEnergy(w) / start);
        }
    }
    return worst;
}

} // namespace

TEST_CASE("a heavy body jointed to a light one, thrown spinning at the ground, gains no energy", "[contact][scene]") {
    // Session 16 (the soak found one, this scan found the rest): shock propagation held
    // the lower body of a joint's contacts too. A light body on the ground then anchored
    // the heavy body jointed to it as if immovable, and the impulses sized to stop the
    // heavy one reached the light one in later sweeps and steps: of these 300 drops 51
    // gained over 1 % and the worst 43 times its energy (in a wider scan some flew off
    // at 10^6 m/s). A joint's contacts now take their impulse on both bodies always
    // (Contact::supports): the worst gains 1.7 %, what the position pass adds lifting
    // a body out of the impact's penetration.
    const int cases = testing::sanitizedStepDivisor > 1 ? 30 : 300; // ~10-40x slower under the sanitizers
    const real rise = worstEnergyRise(cases, 240);
    INFO("highest energy over the start's, of " << cases << " drops: " << rise);
    CHECK(rise < real(1.05));
}

TEST_CASE("a ball hitting a sleeping pile wakes that pile's island and no other", "[contact][scene]") {
    TestScene scene(true);
    World& w = scene.world();
    BodyDesc ground;
    ground.type = BodyType::Static;
    ground.position = Vec3(0, real(-0.5), 0);
    ground.colliders.push_back(boxCollider(Vec3(50, real(0.5), 50)));
    w.createBody(ground);
    std::array<std::vector<BodyId>, 2> piles;
    for (int p = 0; p < 2; ++p)
        for (int k = 0; k < 3; ++k) {
            BodyDesc d;
            d.position = Vec3(real(p == 0 ? -4 : 4), real(0.5) + k, 0);
            d.colliders.push_back(boxCollider(Vec3::Constant(real(0.5))));
            piles[static_cast<std::size_t>(p)].push_back(w.createBody(d));
        }
    for (int i = 0; i < 240; ++i) scene.step();
    for (const auto& pile : piles)
        for (const BodyId id : pile) REQUIRE_FALSE(w.body(id).awake);

    // A ball thrown at the left pile's bottom box.
    BodyDesc ball;
    ball.position = Vec3(-7, real(0.5), 0);
    ball.linearVelocity = Vec3(8, 0, 0);
    ball.colliders.push_back(ColliderDesc{Sphere{real(0.4)}, Transform{}, 1000, Material{0.5, 0}, CollisionFilter{}});
    const BodyId b = w.createBody(ball);
    bool hit = false;
    for (int i = 0; i < 60 && !hit; ++i) {
        scene.step();
        hit = w.body(piles[0][0]).awake;
    }
    REQUIRE(hit);
    CHECK(w.body(b).awake);
    for (const BodyId id : piles[0]) CHECK(w.body(id).awake);
    for (const BodyId id : piles[1]) CHECK_FALSE(w.body(id).awake);
}

TEST_CASE("a box on a slowly turning kinematic platform stays awake and rides along, on a still one it sleeps",
          "[contact][scene]") {
    // 0.1 rad/s: the box at 2 m moves at 0.2 m/s, v.v = 0.04, far below sleepThreshold
    // (0.3): alone it would fall asleep and the platform would turn away under it.
    const auto ride = [](real spin, real& turned) {
        World w;
        BodyDesc table;
        table.type = BodyType::Kinematic;
        table.position = Vec3(0, real(0.1), 0);
        table.angularVelocity = Vec3(0, spin, 0);
        ColliderDesc top = boxCollider(Vec3(3, real(0.1), 3));
        top.material.friction = real(0.8);
        table.colliders.push_back(top);
        w.createBody(table);
        BodyDesc box;
        box.position = Vec3(2, real(0.4), 0);
        box.colliders.push_back(boxCollider(Vec3::Constant(real(0.2))));
        const BodyId b = w.createBody(box);
        for (int i = 0; i < 1200; ++i) w.step(real(1) / 60);
        const Vec3 at = w.body(b).centerOfMass;
        turned = std::atan2(-at.z(), at.x()); // about +y: x turns towards -z
        return w.body(b).awake;
    };
    real turned = 0;
    CHECK(ride(real(0.1), turned)); // awake after 20 s
    CHECK(turned == Approx(2).epsilon(0.01)); // rode the platform's 2 rad
    CHECK_FALSE(ride(0, turned)); // control: a still platform lets it sleep
    CHECK(std::abs(turned) < real(1e-3));
}

TEST_CASE("Newton's cradle with e = 1: the last sphere leaves with the first one's speed", "[contact][scene]") {
    // The resolver's velocity solvers; the soft step solves the touching balls together
    // and passes the hit on shared among them (docs/contact.md, "Limits").
    for (const VelocitySolver solver : {VelocitySolver::SequentialImpulses, VelocitySolver::WorstFirst}) {
        TestScene scene(false);
        WorldSettings s = scene.world().settings();
        s.resolver.solver = ContactSolver::Resolver;
        s.resolver.velocitySolver = solver;
        scene.world().setSettings(s);
        const std::vector<BodyId> balls = scenes::buildCradle(scene, 5, 1, 2);
        for (int i = 0; i < 30; ++i) scene.step();
        const real last = scene.world().body(balls.back()).linearVelocity.x();
        real others = 0;
        for (std::size_t i = 0; i + 1 < balls.size(); ++i)
            others = std::max(others, scene.world().body(balls[i]).linearVelocity.norm());
        INFO("solver " << static_cast<int>(solver) << ": last " << last << " m/s, others at most " << others << " m/s");
        CHECK(last >= real(0.9) * 2);
        CHECK(others < real(0.1));
    }
}

TEST_CASE("an explosion's shock wave kicks each body once, radially, as its front passes", "[physics][scene]") {
    WorldSettings s;
    s.gravity.setZero();
    World w(s);
    // Six spheres 1.5 m, 3 m, ... 9 m out, each in its own direction (they never meet).
    const auto spot = [](int i) -> Vec3 {
        const real angle = static_cast<real>(i) * std::numbers::pi_v<real> / 3;
        return Vec3(std::cos(angle), real(0.1) * static_cast<real>(i), std::sin(angle)) * (real(1.5) * static_cast<real>(i + 1) + real(0.1)); // off the steps' boundaries
    };
    std::vector<BodyId> ids;
    for (int i = 0; i < 6; ++i) {
        BodyDesc d;
        d.position = spot(i);
        d.colliders.push_back(ColliderDesc{Sphere{real(0.2)}, Transform{}, 1000, Material{0.5, 0}, CollisionFilter{}});
        ids.push_back(w.createBody(d));
    }
    scenes::ShockWave wave;
    wave.detonate(Vec3::Zero());
    const real h = real(1) / 60;
    std::vector<int> hitAt(ids.size(), -1);
    for (int step = 1; step <= 30; ++step) {
        const std::size_t before = wave.hit().size();
        wave.advance(w, h);
        for (std::size_t k = before; k < wave.hit().size(); ++k)
            for (std::size_t i = 0; i < ids.size(); ++i)
                if (ids[i] == wave.hit()[k]) hitAt[i] = step;
        w.step(h);
    }
    for (std::size_t i = 0; i < ids.size(); ++i) {
        const Vec3 at = spot(static_cast<int>(i));
        const real distance = at.norm();
        const BodyState b = w.body(ids[i]);
        INFO("body " << i << " at " << distance << " m, hit at step " << hitAt[i]);
        if (distance >= wave.reach) {
            CHECK(hitAt[i] == -1);
            CHECK(b.linearVelocity.norm() == 0);
            continue;
        }
        // The front covers [(k - 1) c h, k c h) in step k (c = 30 m/s).
        CHECK(hitAt[i] == static_cast<int>(std::floor(distance / (wave.speed * h))) + 1);
        const Vec3 expected = at / distance * (wave.peakSpeed * (1 - distance / wave.reach));
        CHECK((b.linearVelocity - expected).norm() < testing::tol(1e-9, 1e-4));
    }
}

TEST_CASE("the incline scene's sliders set the angle and friction it is rebuilt with", "[contact][scene]") {
    const auto scene = scenes::makeScene("incline");
    const auto boxOf = [&] {
        for (const BodyId id : scene->world().bodyIds())
            if (scene->world().body(id).isDynamic()) return id;
        return BodyId{};
    };
    const auto travelIn1s = [&] {
        const BodyId box = boxOf();
        const Vec3 start = scene->world().body(box).position;
        for (int i = 0; i < 60; ++i) scene->step();
        return (scene->world().body(box).position - start).norm();
    };
    REQUIRE(scene->parameters().size() == 2);
    scene->setParameter(0, 35); // above atan(0.5): slides, about g (sin - mu cos) / 2 = 0.8 m in 1 s
    CHECK(scene->parameters()[0].value == 35);
    CHECK(travelIn1s() > real(0.7));
    scene->setParameter(1, real(0.8)); // atan(0.8) = 38.7 degrees: now it holds at 35
    CHECK(travelIn1s() < real(0.01));
    scene->setParameter(0, 1000); // clamped to the slider's range
    CHECK(scene->parameters()[0].value == 60);
    scene->setParameter(1, std::numeric_limits<real>::quiet_NaN()); // ignored
    CHECK(scene->parameters()[1].value == real(0.8));
}

TEST_CASE("fracture: a heavy ball's hit splits the block into eight pieces of equal mass", "[contact][scene]") {
    const auto scene = scenes::makeScene("fracture");
    World& w = scene->world();
    const auto dynamicMass = [&] {
        real total = 0;
        int count = 0;
        for (const BodyId id : w.bodyIds())
            if (w.body(id).isDynamic() && w.body(id).inverseMass < real(0.004)) { // not the 200 kg ball
                total += 1 / w.body(id).inverseMass;
                ++count;
            }
        return std::pair{total, count};
    };
    for (int i = 0; i < 30; ++i) scene->step(); // settle: resting does not break it
    REQUIRE(dynamicMass().second == 1);
    const real blockMass = dynamicMass().first;
    scene->act(0); // fire
    for (int i = 0; i < 60; ++i) scene->step();
    const auto [mass, pieces] = dynamicMass();
    CHECK(pieces == 8);
    CHECK(mass == Approx(blockMass).epsilon(1e-9));
}

TEST_CASE("bigballistic: an artillery round knocks the box it hits downrange", "[contact][scene]") {
    const auto scene = scenes::makeScene("bigballistic");
    World& w = scene->world();
    for (int i = 0; i < 30; ++i) scene->step();
    // The first box of the first stack stands at x = -4, z = 20; shot 0 flies down x = -4.
    BodyId target{};
    for (const BodyId id : w.bodyIds())
        if (w.body(id).isDynamic() && (w.body(id).position - Vec3(-4, real(0.5), 20)).norm() < real(0.05)) target = id;
    REQUIRE_FALSE(target.isNull());
    scene->act(1); // artillery: 200 kg at (0, 8, 40) m/s
    for (int i = 0; i < 90; ++i) scene->step();
    INFO("box now at " << w.body(target).position.transpose());
    CHECK(w.body(target).position.z() > real(20.5));
}

TEST_CASE("bridge: twelve planks hang on their cables and hold a dropped 216 kg crate", "[contact][scene]") {
    TestScene scene;
    const scenes::Bridge bridge = scenes::buildBridge(scene, 12, 2);
    World& w = scene.world();
    // Worst sag of a plank below the deck height (its hangers' stretch) and worst
    // stretch of any cable beyond its length.
    const auto sag = [&] {
        real worst = 0;
        for (const BodyId p : bridge.planks) worst = std::max(worst, bridge.deck - w.body(p).position.y());
        return worst;
    };
    const auto stretch = [&] {
        real worst = 0;
        for (const JointId id : w.jointIds()) {
            const JointDesc& j = w.joint(id).desc;
            worst = std::max(worst, (w.attachmentPoint(j.a) - w.attachmentPoint(j.b)).norm() - j.length);
        }
        return worst;
    };
    real worstStretch = 0;
    for (int i = 0; i < 120; ++i) {
        scene.step();
        worstStretch = std::max(worstStretch, stretch());
    }
    INFO("unloaded: sag " << sag() << " m, worst stretch " << worstStretch << " m");
    CHECK(sag() < real(0.005));
    CHECK(worstStretch < real(0.005));

    // A 0.6 m crate (216 kg) dropped from 1 m above the deck onto the sixth plank.
    BodyDesc d;
    d.position = w.body(bridge.planks[5]).position + Vec3(0, real(1.35), 0);
    d.colliders.push_back(boxCollider(Vec3::Constant(real(0.3))));
    const BodyId crate = w.createBody(d);
    real worstSag = 0;
    worstStretch = 0;
    // The crate's centre in its plank's frame, across the plank (x and z: the deck is flat).
    const auto onPlank = [&] {
        const BodyState p = w.body(bridge.planks[5]);
        const Vec3 local = p.orientation.conjugate() * Vec3(w.body(crate).position - p.position);
        return Vec3(local.x(), 0, local.z());
    };
    Vec3 settled = Vec3::Zero();
    real slid = 0; // the farthest it has moved on the plank since step 150
    for (int i = 0; i < 300; ++i) {
        scene.step();
        worstSag = std::max(worstSag, sag());
        worstStretch = std::max(worstStretch, stretch());
        if (i == 149) settled = onPlank();
        if (i > 149) slid = std::max(slid, (onPlank() - settled).norm());
    }
    const BodyState c = w.body(crate);
    INFO("loaded: worst sag " << worstSag << " m, worst stretch " << worstStretch << " m, at rest sag " << sag()
                               << " m, stretch " << stretch() << " m");
    // The impact stretches the hangers briefly (the resolver's projection takes a few
    // steps to pull them back); at rest they hold the crate's weight within millimetres.
    CHECK(worstSag < real(0.05));
    CHECK(worstStretch < real(0.05));
    CHECK(sag() < real(0.005));
    CHECK(stretch() < real(0.005));
    // The crate rests on the deck: its bottom at the planks' top face (0.05 above the deck).
    CHECK(std::abs(c.position.y() - real(0.3) - (bridge.deck + real(0.05) - sag())) < real(0.01));
    // And rides its plank. The bridge hangs on 3 m cables: it sways as a pendulum (3.5 s),
    // which the soft step damps far less than the resolver did (its crate slept by 5 s),
    // and the crate rocks on its plank as it sways (their speeds differ by 0.003 to 0.05
    // m/s from one moment to the next): over the last 2.5 s it stays within 2 mm of where
    // it was on the plank (sliding at 1 mm/s would take it 2.5 mm away).
    const Vec3 plank = w.body(bridge.planks[5]).linearVelocity;
    INFO("crate " << c.linearVelocity.transpose() << " m/s, its plank " << plank.transpose() << " m/s; it moved up to "
                  << slid << " m on the plank");
    CHECK(slid < real(0.002));
    CHECK(c.linearVelocity.norm() < real(0.1));
}
