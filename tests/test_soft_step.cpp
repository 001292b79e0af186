// SPDX-License-Identifier: MIT
// The soft step (ContactSolver::SoftStep, contact/soft_step.cpp) against closed forms:
// free flight under its substeps, the soft contact's resting depth, restitution's apex
// heights, a pendulum's period; and its settings' validation and snapshots.

#include "contact/soft_constraint.hpp"
#include "expect_error.hpp"
#include "helpers.hpp"
#include "scenes/rigid_scenes.hpp"
#include "scenes/scene.hpp"

#include <jounce/jounce.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <limits>
#include <numbers>
#include <random>
#include <vector>

using namespace jounce;
using testing::eps;

namespace {


BodyId softBall(World& w, const Vec3& at, real radius, real restitution = 0) {
    BodyDesc d;
    d.position = at;
    ColliderDesc c;
    c.shape = Sphere{radius};
    c.density = 1000;
    c.material.restitution = restitution;
    d.colliders.push_back(c);
    return w.createBody(d);
}

/// The apex of the parabola through a body's state: its velocity is the average over
/// the last substep `h`, g h / 2 faster than the body at the substep's end.
real parabolaApex(const BodyState& b, real g, real h) {
    const real u = b.linearVelocity.y() - g * h / 2;
    return b.centerOfMass.y() + u * u / (2 * g);
}

/// Apex heights of a ball's bottom over the floor, bounce after bounce.
std::vector<real> softApexes(real restitution, int count) {
    const WorldSettings s = testing::softSettings();
    World w(s);
    testing::addGround(w); // a pair bounces with the larger restitution: the ball's
    const real radius = real(0.1), dt = real(1) / 60, g = s.gravity.norm();
    const BodyId ball = softBall(w, Vec3(0, 1 + radius, 0), radius, restitution);
    std::vector<real> out;
    real lastVy = 0;
    for (int i = 0; i < 60 * 200 && static_cast<int>(out.size()) < count; ++i) {
        w.step(dt);
        const BodyState b = w.body(ball);
        if (lastVy > 0 && b.linearVelocity.y() <= 0)
            out.push_back(parabolaApex(b, g, dt / static_cast<real>(s.resolver.soft.substeps)) - radius);
        lastVy = b.linearVelocity.y();
    }
    return out;
}

} // namespace

TEST_CASE("soft step: a body in free flight follows symplectic Euler over the substeps", "[contact]") {
    // Every awake body is integrated in the solver's substeps: after N substeps of h,
    // v = v0 + N h g and y = y0 + N h v0 + h^2 g N (N + 1) / 2 exactly.
    World w(testing::softSettings());
    BodyDesc d;
    d.position = Vec3(0, 100, 0);
    d.linearVelocity = Vec3(2, 5, 0);
    d.colliders.push_back(testing::boxCollider(Vec3::Constant(real(0.1))));
    const BodyId b = w.createBody(d);
    const real dt = real(1) / 60, g = -w.settings().gravity.norm();
    const int steps = 30, n = steps * w.settings().resolver.soft.substeps;
    const real h = dt / static_cast<real>(w.settings().resolver.soft.substeps);
    for (int i = 0; i < steps; ++i) w.step(dt);
    const BodyState s = w.body(b);
    const real N = static_cast<real>(n);
    CHECK(s.linearVelocity.y() == Approx(5 + N * h * g).margin(5 * eps)); // 5 - 4.9: relative to the 5 m/s
    CHECK(s.centerOfMass.y() == Approx(100 + N * h * 5 + h * h * g * N * (N + 1) / 2).epsilon(eps));
    CHECK(s.centerOfMass.x() == Approx(2 * N * h).epsilon(eps));
}

TEST_CASE("soft step: a resting ball sinks to the soft contact's equilibrium depth", "[contact][scene]") {
    // Resting, the row's impulse each substep is the weight's, m g h, and the biased
    // visit changes nothing: 0 = -m massScale biasRate s - impulseScale m g h, so the
    // ball rests at s = -g h impulseScale / (massScale biasRate), with the softness of
    // a contact with a static body (twice contactHertz).
    const WorldSettings settings = testing::softSettings();
    World w(settings);
    testing::addGround(w);
    const real radius = real(0.25);
    const BodyId ball = softBall(w, Vec3(0, radius + real(0.01), 0), radius);
    const real dt = real(1) / 60;
    for (int i = 0; i < 240; ++i) w.step(dt);
    const SoftStepSettings& soft = settings.resolver.soft;
    const real h = dt / static_cast<real>(soft.substeps);
    const real hertz = std::min(soft.contactHertz, 1 / (8 * h));
    const detail::Softness st = detail::makeSoft(2 * hertz, soft.contactDampingRatio, h);
    const real depth = settings.gravity.norm() * h * st.impulseScale / (st.massScale * st.biasRate);
    CHECK(radius - w.body(ball).centerOfMass.y() == Approx(depth).epsilon(real(0.01)));
    CHECK(depth > real(5e-5)); // a depth the test can tell from zero (0.07 mm)
    CHECK(w.body(ball).linearVelocity.norm() < real(1e-6));
}

TEST_CASE("soft step: restitution sends a ball back to e^2 of its height, bounce after bounce", "[contact][scene]") {
    // The bounce is given in the substep the ball meets the floor, sized from the
    // discrete flight's energy (soft_rows.cpp bounceRow), so the apexes are e^2 of the
    // previous one to a fraction of a percent; the old resolver's fell to 0.22 - 0.35.
    const std::vector<real> half = softApexes(real(0.5), 3);
    REQUIRE(half.size() == 3);
    real previous = 1;
    for (const real apex : half) {
        CHECK(apex / previous == Approx(0.25).margin(0.005));
        previous = apex;
    }
    const std::vector<real> one = softApexes(1, 100 / testing::sanitizedStepDivisor);
    REQUIRE(one.size() == static_cast<std::size_t>(100 / testing::sanitizedStepDivisor));
    for (const real apex : one) CHECK(apex == Approx(1).margin(0.005));
}

TEST_CASE("soft step: a ball-jointed pendulum swings with the period 2 pi sqrt(L / g)", "[contact][scene]") {
    // A 5 cm ball 1 m below a world point, let go 5 degrees out: the small-angle period
    // (times 1 + theta^2 / 16 for the amplitude, and the ball's own inertia,
    // sqrt(1 + 2 r^2 / (5 L^2))) to 0.5 %. Sleep off: Millington's threshold (0.3 m^2/s^2)
    // puts so slow a pendulum to sleep at the end of its first swing.
    WorldSettings settings = testing::softSettings();
    settings.sleep.enabled = false;
    World w(settings);
    const real length = 1, radius = real(0.05), angle = real(5) * std::numbers::pi_v<real> / 180;
    const Vec3 pivot(0, 5, 0);
    const BodyId ball = softBall(w, pivot + Vec3(std::sin(angle), -std::cos(angle), 0) * length, radius);
    JointDesc j;
    j.type = JointType::Ball;
    j.a = {ball, Vec3(-std::sin(angle), std::cos(angle), 0) * length};
    j.b = {BodyId{}, pivot};
    w.createJoint(j);
    const real dt = real(1) / 60, g = w.settings().gravity.norm();
    std::vector<real> crossings; // times the ball passes x = 0 going the same way
    real lastX = w.body(ball).centerOfMass.x();
    for (int i = 1; i <= 600 && crossings.size() < 4; ++i) {
        w.step(dt);
        const real x = w.body(ball).centerOfMass.x();
        if (lastX > 0 && x <= 0) crossings.push_back((static_cast<real>(i) - x / (x - lastX)) * dt);
        lastX = x;
    }
    REQUIRE(crossings.size() >= 3);
    const real period = (crossings.back() - crossings.front()) / static_cast<real>(crossings.size() - 1);
    const real expected = 2 * std::numbers::pi_v<real> * std::sqrt(length / g) * (1 + angle * angle / 16) *
                          std::sqrt(1 + 2 * radius * radius / (5 * length * length));
    CHECK(period == Approx(expected).epsilon(0.005));
}

TEST_CASE("soft step settings are validated", "[contact]") {
    const auto rejected = [](const std::string& field, const std::function<void(SoftStepSettings&)>& edit) {
        World w(testing::softSettings());
        testing::addGround(w);
        const std::vector<std::uint8_t> before = w.saveState();
        WorldSettings s = w.settings();
        edit(s.resolver.soft);
        testing::expectError([&] { w.setSettings(s); }, field);
        CHECK(w.saveState() == before);
    };
    const real nan = std::numeric_limits<real>::quiet_NaN(), inf = std::numeric_limits<real>::infinity();
    rejected("WorldSettings.resolver.soft.substeps", [](SoftStepSettings& s) { s.substeps = 0; });
    rejected("WorldSettings.resolver.soft.substeps", [](SoftStepSettings& s) { s.substeps = 1 << 20; });
    rejected("WorldSettings.resolver.soft.jointSubsteps", [](SoftStepSettings& s) { s.jointSubsteps = 0; });
    rejected("WorldSettings.resolver.soft.relaxIterations", [](SoftStepSettings& s) { s.relaxIterations = -1; });
    rejected("WorldSettings.resolver.soft.contactHertz", [=](SoftStepSettings& s) { s.contactHertz = nan; });
    rejected("WorldSettings.resolver.soft.contactHertz", [](SoftStepSettings& s) { s.contactHertz = 0; });
    rejected("WorldSettings.resolver.soft.jointHertz", [=](SoftStepSettings& s) { s.jointHertz = -inf; });
    rejected("WorldSettings.resolver.soft.jointHertz", [](SoftStepSettings& s) { s.jointHertz = 0; });
    rejected("WorldSettings.resolver.soft.contactDampingRatio", [](SoftStepSettings& s) { s.contactDampingRatio = -1; });
    rejected("WorldSettings.resolver.soft.jointDampingRatio", [=](SoftStepSettings& s) { s.jointDampingRatio = inf; });
    rejected("WorldSettings.resolver.soft.maxPushOut", [=](SoftStepSettings& s) { s.maxPushOut = nan; });
    rejected("WorldSettings.resolver.soft.holdMassRatio", [=](SoftStepSettings& s) { s.holdMassRatio = nan; });
    rejected("WorldSettings.resolver.soft.holdMassRatio", [](SoftStepSettings& s) { s.holdMassRatio = real(0.5); });
    rejected("WorldSettings.resolver.soft.holdMassRatio", [](SoftStepSettings& s) { s.holdMassRatio = -1; });
    World w;
    WorldSettings s = w.settings();
    s.resolver.solver = static_cast<ContactSolver>(5);
    testing::expectError([&] { w.setSettings(s); }, "WorldSettings.resolver.solver");
}

TEST_CASE("soft step: a snapshot keeps the solver and steps in lockstep", "[contact][scene]") {
    WorldSettings settings = testing::softSettings();
    settings.resolver.soft.substeps = 6;
    World w(settings);
    testing::addGround(w);
    for (int k = 0; k < 5; ++k)
        w.createBody(testing::boxDesc(Vec3::Constant(real(0.25)), 500, Vec3(real(0.05) * k, real(0.25) + real(0.55) * k, 0)));
    const BodyId hanging = softBall(w, Vec3(2, 2, 0), real(0.1));
    JointDesc j;
    j.type = JointType::Ball;
    j.a = {hanging, Vec3(0, real(0.5), 0)};
    j.b = {BodyId{}, Vec3(real(2.3), real(2.5), 0)};
    w.createJoint(j);
    for (int i = 0; i < 30; ++i) w.step(real(1) / 60);
    World copy;
    copy.restoreState(w.saveState());
    CHECK(copy.settings().resolver.solver == ContactSolver::SoftStep);
    CHECK(copy.settings().resolver.soft.substeps == 6);
    for (int i = 0; i < 60; ++i) {
        w.step(real(1) / 60);
        copy.step(real(1) / 60);
        REQUIRE(testing::stateHash(w) == testing::stateHash(copy));
    }
}

namespace {

/// 20 ball-jointed 1 kg links (5 cm spheres, 0.2 m apart) from a world point 5 m up,
/// tilted `swing` degrees, a 0.2 m ball of `load` kg at the end; returns the load.
BodyId softChain(World& w, real load, real swingDegrees) {
    const real link = real(0.2), angle = swingDegrees * std::numbers::pi_v<real> / 180;
    const Vec3 anchor(0, 5, 0), down(std::sin(angle), -std::cos(angle), 0);
    const auto ball = [&](const Vec3& at, real radius, real mass) {
        BodyDesc d;
        d.position = at;
        ColliderDesc c;
        c.shape = Sphere{radius};
        c.density = mass / (4 * std::numbers::pi_v<real> / 3 * radius * radius * radius);
        d.colliders.push_back(c);
        return w.createBody(d);
    };
    BodyId previous{};
    for (int i = 0; i < 20; ++i) {
        const BodyId b = ball(anchor + down * (link * (real(i) + real(0.5))), real(0.05), 1);
        JointDesc j;
        j.a = {b, -down * (link / 2)};
        j.b = previous.isNull() ? Attachment{BodyId{}, anchor} : Attachment{previous, down * (link / 2)};
        w.createJoint(j);
        previous = b;
    }
    const BodyId end = ball(anchor + down * (link * 20 + real(0.2)), real(0.2), load);
    JointDesc j;
    j.a = {end, -down * real(0.2)};
    j.b = {previous, down * (link / 2)};
    w.createJoint(j);
    return end;
}


} // namespace

TEST_CASE("soft step: a chain of light links holds a load 100 times heavier, hanging and swinging", "[contact][scene]") {
    // The island's joints make a tree, so they are solved as one system
    // (SoftJointSystem): exact whatever the masses, where Gauss-Seidel over the points
    // let this chain stretch 36 cm (and the resolver 15 cm). Issue 28's targets: less
    // than 1 cm hanging, 5 cm swung from 30 degrees.
    const int steps = 600 / testing::sanitizedStepDivisor;
    {
        World w(testing::softSettings());
        const BodyId load = softChain(w, 100, 0);
        for (int i = 0; i < steps; ++i) w.step(real(1) / 60);
        const real rest = real(0.2) * 20 + real(0.2);
        CHECK((w.body(load).centerOfMass - Vec3(0, 5, 0)).norm() - rest < real(0.01));
        CHECK(testing::worstJointGap(w) < real(0.001));
    }
    {
        World w(testing::softSettings());
        softChain(w, 100, 30);
        real worst = 0;
        for (int i = 0; i < steps; ++i) {
            w.step(real(1) / 60);
            worst = std::max(worst, testing::worstJointGap(w));
        }
        CHECK(worst < real(0.05));
    }
    {
        // The control: the same swing with the joints' substeps cut to the contacts' 4,
        // where a light link's spin over a substep grows and the chain comes apart.
        WorldSettings settings = testing::softSettings();
        settings.resolver.soft.jointSubsteps = 4;
        World w(settings);
        softChain(w, 100, 30);
        real worst = 0;
        try {
            for (int i = 0; i < 120; ++i) {
                w.step(real(1) / 60);
                worst = std::max(worst, testing::worstJointGap(w));
            }
        } catch (const Error&) {
            worst = std::numeric_limits<real>::infinity(); // overflowed: the world refused the step
        }
        CHECK(worst > real(0.05));
    }
}

namespace {

class SoftRoom final : public scenes::Scene {
public:
    const char* name() const override { return "soft room"; }
    const char* description() const override { return "a floor and a ragdoll under the soft step"; }
};

} // namespace

TEST_CASE("soft step: a ragdoll dropped on the floor puts no limb 2 cm into it and keeps its joints", "[contact][scene]") {
    // Its ball joints make a tree (one system), solved again after the contacts in each
    // sweep: with the contacts last, landing pulled the joints 9 cm apart.
    SoftRoom room;
    room.world().setSettings(testing::softSettings());
    testing::addGround(room.world());
    scenes::buildBoxRagdoll(room, Vec3(0, real(1.2), 0));
    real deepest = 0, worstGap = 0;
    for (int i = 0; i < 300 / testing::sanitizedStepDivisor; ++i) {
        room.world().step(real(1) / 60);
        for (const Contact& c : room.world().resolvedContacts())
            if (c.supports) deepest = std::max(deepest, c.penetrationAtStart);
        worstGap = std::max(worstGap, testing::worstJointGap(room.world()));
    }
    CHECK(deepest < real(0.02));
    CHECK(worstGap < real(0.03));
}

namespace {

/// A cube of half size `half` and mass `mass` (its collider's density gives it).
BodyId softBox(World& w, const Vec3& at, real half, real mass) {
    BodyDesc d;
    d.position = at;
    ColliderDesc c = testing::boxCollider(Vec3::Constant(half));
    c.density = mass / (8 * half * half * half);
    d.colliders.push_back(c);
    return w.createBody(d);
}

struct HeavyOnLight {
    real sink = 0;    ///< deepest overlap of the heavy box's bottom into the light box's top [m]
    real fastest = 0; ///< the light box's top speed [m/s]
};

/// Issue 28's case: a 1 m box of 1000 kg dropped 0.5 m onto a 1 kg box (0.2 m or 1 m).
HeavyOnLight dropHeavyOnLight(real lightHalf, real holdMassRatio) {
    WorldSettings s = testing::softSettings();
    s.resolver.soft.holdMassRatio = holdMassRatio;
    s.sleep.enabled = false;
    World w(s);
    testing::addGround(w);
    const BodyId light = softBox(w, Vec3(0, lightHalf, 0), lightHalf, 1);
    const BodyId heavy = softBox(w, Vec3(0, 2 * lightHalf + real(1), 0), real(0.5), 1000);
    HeavyOnLight out;
    for (int i = 0; i < 240 / testing::sanitizedStepDivisor; ++i) {
        w.step(real(1) / 60);
        const real gap = (w.body(heavy).centerOfMass.y() - real(0.5)) - (w.body(light).centerOfMass.y() + lightHalf);
        out.sink = std::max(out.sink, -gap);
        out.fastest = std::max(out.fastest, w.body(light).linearVelocity.norm());
    }
    return out;
}

} // namespace

TEST_CASE("soft step: a 1000 kg box rests on a 1 kg box as on the ground (holdMassRatio)", "[contact][scene]") {
    // Issue 28's targets: it sinks less than 1 cm into the light box and throws nothing
    // faster than it hit (sqrt(2 g 0.5) = 3.1 m/s). The soft row between them is a
    // spring as stiff as the light box is heavy (k = m w^2): without holding the light
    // box it sank 20 cm into the 0.2 m box, and 1.3 m through the 1 m one.
    const real impact = std::sqrt(2 * real(9.81) * real(0.5));
    for (const real lightHalf : {real(0.1), real(0.5)}) {
        const HeavyOnLight held = dropHeavyOnLight(lightHalf, 10);
        INFO("light box " << 2 * lightHalf << " m: sink " << held.sink << " m, light box's top speed " << held.fastest);
        CHECK(held.sink < real(0.01));
        CHECK(held.fastest < impact);
        // The control: holding off.
        const HeavyOnLight soft = dropHeavyOnLight(lightHalf, 0);
        INFO("off: sink " << soft.sink << " m");
        CHECK(soft.sink > real(0.1));
    }
}

TEST_CASE("soft step: a 1 / 1000 / 1 kg sandwich stays level", "[contact][scene]") {
    for (const real ratio : {real(10), real(0)}) {
        WorldSettings s = testing::softSettings();
        s.resolver.soft.holdMassRatio = ratio;
        World w(s);
        testing::addGround(w);
        const real halves[] = {real(0.1), real(0.5), real(0.1)}, masses[] = {1, 1000, 1};
        std::vector<BodyId> boxes;
        real y = 0;
        for (int k = 0; k < 3; ++k) {
            boxes.push_back(softBox(w, Vec3(0, y + halves[k], 0), halves[k], masses[k]));
            y += 2 * halves[k] + real(0.05);
        }
        real tilt = 0;
        for (int i = 0; i < 300 / testing::sanitizedStepDivisor; ++i) {
            w.step(real(1) / 60);
            for (const BodyId b : boxes) {
                const Vec3 up = w.body(b).orientation * Vec3::UnitY();
                tilt = std::max(tilt, std::acos(std::clamp(std::abs(up.y()), real(-1), real(1))) * 180 / std::numbers::pi_v<real>);
            }
        }
        INFO("holdMassRatio " << ratio << ": worst tilt " << tilt << " degrees");
        if (ratio > 0)
            CHECK(tilt < 5);
        else
            CHECK(tilt > 5); // the control: the heavy box turned the top one over
    }
}

TEST_CASE("soft step: a heap of 200 boxes of 1 to 1000 kg comes to rest on the floor", "[contact][scene]") {
    // Random sizes (0.1-0.4 m half widths, flat to tall) and masses spread over three
    // decades, dropped in a column: heavy boxes land on light ones, light ones are
    // wedged under heavy ones. Nothing may be pushed into the floor or thrown, and all
    // of it must fall asleep.
    WorldSettings s = testing::softSettings();
    World w(s);
    BodyDesc floor;
    floor.type = BodyType::Static;
    floor.position = Vec3(0, real(-0.5), 0);
    floor.colliders.push_back(testing::boxCollider(Vec3(200, real(0.5), 200)));
    w.createBody(floor);
    std::mt19937 rng(7);
    std::uniform_real_distribution<real> u(0, 1);
    std::vector<std::pair<BodyId, Vec3>> boxes; // and their half extents
    for (int i = 0; i < 200; ++i) {
        const real half = real(0.1) + real(0.3) * u(rng), mass = std::pow(real(10), 3 * u(rng));
        const Vec3 at(2 * (u(rng) - real(0.5)), real(0.5) + real(0.0875) * static_cast<real>(i), 2 * (u(rng) - real(0.5)));
        const real tall = half * (real(0.5) + u(rng));
        BodyDesc d;
        d.position = at;
        ColliderDesc c = testing::boxCollider(Vec3(half, tall, half));
        c.density = mass / (8 * half * half * tall);
        d.colliders.push_back(c);
        boxes.push_back({w.createBody(d), Vec3(half, tall, half)});
    }
    const int steps = 900 / testing::sanitizedStepDivisor;
    // The lowest corner of any box now (< 0: into the floor), and the lowest any came:
    // boxes of up to 1000 kg land at up to 18 m/s on lighter ones, and for a step or two
    // press them into the floor (15 cm here, 27 cm under the resolver).
    const auto lowest = [&] {
        real low = std::numeric_limits<real>::infinity();
        for (const auto& [id, half] : boxes) {
            const BodyState b = w.body(id);
            low = std::min(low, b.centerOfMass.y() - b.orientation.toRotationMatrix().row(1).cwiseAbs().dot(half));
        }
        return low;
    };
    real deepest = 0;
    for (int i = 0; i < steps; ++i) {
        w.step(real(1) / 60);
        deepest = std::min(deepest, lowest());
    }
    int asleep = 0;
    real fastest = 0;
    for (const auto& [id, half] : boxes) {
        asleep += w.body(id).awake ? 0 : 1;
        fastest = std::max(fastest, w.body(id).linearVelocity.norm());
    }
    INFO("lowest corner " << lowest() << " m (deepest on the way " << deepest << "), asleep " << asleep
                          << " of 200, fastest " << fastest << " m/s");
    CHECK(deepest > -real(0.3));
    // At rest: only after the whole 15 s (under the sanitizers' fifth of the steps the
    // last boxes are still falling).
    if (testing::sanitizedStepDivisor == 1) {
        CHECK(lowest() > -real(0.005));
        CHECK(asleep == 200);
        CHECK(fastest < real(0.1));
    }
}

TEST_CASE("soft step: a destroyed body's slot is left alone", "[contact]") {
    // The soft step integrates every awake dynamic body by slot; a destroyed body's
    // slot keeps its data and must not be moved (it was, falling forever, until the
    // solver was given the slots' alive flags). With nothing alive that moves, ten more
    // steps change only the step count (and the header's checksum).
    const auto after = [](int steps) {
        World w(testing::softSettings());
        testing::addGround(w);
        BodyDesc d = testing::boxDesc(Vec3::Constant(real(0.2)), 500, Vec3(0, 3, 0));
        d.linearVelocity = Vec3(1, -2, 0);
        const BodyId box = w.createBody(d);
        w.step(real(1) / 60);
        w.destroyBody(box);
        for (int i = 0; i < steps; ++i) w.step(real(1) / 60);
        return w.saveState();
    };
    const std::vector<std::uint8_t> ten = after(10), twenty = after(20);
    REQUIRE(ten.size() == twenty.size());
    constexpr std::size_t header = 33; // magic, version, real size, byte order, checksum
    std::size_t differing = 0;
    for (std::size_t i = header; i < ten.size(); ++i) differing += ten[i] != twenty[i] ? 1 : 0;
    CHECK(differing <= sizeof(std::uint64_t)); // the step count
}
