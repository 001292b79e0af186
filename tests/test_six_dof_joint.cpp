// SPDX-License-Identifier: MIT
// The 6-DOF joint (JointType::SixDof): each of its frame's six axes free, locked or
// moving as its own JointMotion says. Figures: as a hinge, a compound pendulum's period
// 2 pi sqrt(I / (m g d)) and a limit held within a degree; as a sprung slider, the sag
// m g / k and the period 2 pi sqrt(m / k); a translation's limits; a rotation's motor at
// its speed; all six locked, a weld carrying m g L / 2; three rotations limited at once
// held through a hard swing (its Euler angles); bad input; snapshots and scene files.

#include "expect_error.hpp"
#include "helpers.hpp"

#include "scenes/scene.hpp"

#include <jounce/io/scene_file.hpp>
#include <jounce/world/world.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

using namespace jounce;
using testing::expectError;

namespace {

constexpr real dofPi = std::numbers::pi_v<real>;
constexpr real dofDegree = dofPi / 180;
constexpr real dofStep = real(1) / 60;

/// A body of mass `m` and diagonal inertia `inertia` at `at`, awake for good, no colliders.
BodyId dofBody(World& w, const Vec3& at, real m, const Vec3& inertia) {
    BodyDesc d;
    d.position = at;
    d.mass = m;
    d.inertia = inertia.asDiagonal();
    d.massFromColliders = false;
    d.canSleep = false;
    return w.createBody(d);
}

/// A 6-DOF joint from `body`'s point `local` to the world point `anchor`, its frame the
/// world's (x = axis, y = normal on both sides: the body starts unturned), axes locked
/// as `locked` says, moving as `motion` says.
JointId sixDofTo(World& w, BodyId body, const Vec3& local, const Vec3& anchor, const std::array<bool, 6>& locked,
                 const std::array<JointMotion, 6>& motion = {}) {
    JointDesc j;
    j.type = JointType::SixDof;
    j.a = {body, local};
    j.b = {BodyId{}, anchor};
    j.axisA = j.axisB = Vec3::UnitX();
    j.normalA = j.normalB = Vec3::UnitY();
    j.dofLocked = locked;
    j.dofMotion = motion;
    return w.createJoint(j);
}


/// The mean period of an oscillation sampled every step, from its downward crossings of
/// `about` (0 when there are fewer than two).
real dofPeriod(const std::vector<real>& x, real about) {
    std::vector<real> crossings;
    for (std::size_t i = 1; i < x.size(); ++i) {
        const real p = x[i - 1] - about, q = x[i] - about;
        if (p > 0 && q <= 0) crossings.push_back(dofStep * (static_cast<real>(i) + p / (p - q)));
    }
    if (crossings.size() < 2) return 0;
    return (crossings.back() - crossings.front()) / static_cast<real>(crossings.size() - 1);
}

constexpr std::array<bool, 6> hingeAboutZ{true, true, true, true, true, false};

} // namespace

TEST_CASE("a 6-DOF joint free about z alone swings as a hinge: the compound pendulum's period, a limit within a degree",
          "[physics][contact]") {
    // A 2 kg bar 1 m long hanging from its top end: d = 0.5 m, I_z about the centre
    // m L^2 / 12; released from 10 degrees. T = 2 pi sqrt((I + m d^2) / (m g d)), times
    // 1 + theta0^2 / 16 for the amplitude.
    const real m = 2, length = 1, d = length / 2, g = real(9.81);
    const real iz = m * length * length / 12;
    const real theta0 = 10 * dofDegree;
    World w;
    const Vec3 pivot(0, 3, 0);
    const BodyId bar = dofBody(w, pivot + Vec3(std::sin(theta0), -std::cos(theta0), 0) * d, m, Vec3(iz, real(0.01), iz));
    w.setOrientation(bar, Quat(Eigen::AngleAxis<real>(theta0, Vec3::UnitZ())));
    // The bar's frame starts turned: its normal in its own frame is where the world's y
    // sits in it, so the angle reads theta0.
    JointDesc j;
    j.type = JointType::SixDof;
    j.a = {bar, Vec3(0, d, 0)};
    j.b = {BodyId{}, pivot};
    j.axisA = j.axisB = Vec3::UnitX();
    j.normalA = j.normalB = Vec3::UnitY();
    j.dofLocked = hingeAboutZ;
    const JointId joint = w.createJoint(j);
    REQUIRE(w.jointDofCoordinate(joint, RotationZ) == Approx(theta0).margin(1e-9));
    std::vector<real> angles;
    real worstOff = 0, worstTilt = 0;
    for (int i = 0; i < 60 * 8; ++i) {
        w.step(dofStep);
        angles.push_back(w.jointDofCoordinate(joint, RotationZ));
        worstOff = std::max(worstOff, (w.attachmentPoint(j.a) - pivot).norm());
        worstTilt = std::max({worstTilt, std::abs(w.jointDofCoordinate(joint, RotationX)), std::abs(w.jointDofCoordinate(joint, RotationY))});
    }
    const real expected = 2 * dofPi * std::sqrt((iz + m * d * d) / (m * g * d)) * (1 + theta0 * theta0 / 16);
    const real period = dofPeriod(angles, 0);
    INFO("period " << period << " s, expected " << expected << " s; anchor off by up to " << worstOff << " m, tilted up to "
                   << worstTilt / dofDegree << " degrees");
    CHECK(period == Approx(expected).epsilon(0.01));
    CHECK(worstOff < real(1e-3));
    CHECK(worstTilt < real(0.1) * dofDegree);
    // Limited to +-5 degrees, the same swing (once brought inside them) stops at the
    // limits within a degree.
    w.setJointDofMotion(joint, RotationZ, testing::limitedTo(-5 * dofDegree, 5 * dofDegree));
    real most = 0;
    for (int i = 0; i < 60 * 3; ++i) {
        w.step(dofStep);
        if (i >= 30) most = std::max(most, std::abs(w.jointDofCoordinate(joint, RotationZ)));
    }
    INFO("limited to 5 degrees: swung up to " << most / dofDegree << " degrees");
    CHECK(most < 6 * dofDegree);
    CHECK(most > 4 * dofDegree);
}

TEST_CASE("a 6-DOF joint's translation sprung as a stiffness: sag m g / k and period 2 pi sqrt(m / k), and its limits hold",
          "[physics][contact]") {
    // 1 kg on 10 N/m along the world's y (the frame's y), everything else locked:
    // released at the spring's length, it swings between 0 and -2 m g / k about -m g / k.
    const real m = 1, k = 10, g = real(9.81);
    World w;
    const BodyId box = dofBody(w, Vec3(0, 3, 0), m, Vec3::Constant(real(0.01)));
    std::array<JointMotion, 6> motion{};
    motion[TranslationY].springStiffness = k;
    const JointId joint = sixDofTo(w, box, Vec3::Zero(), Vec3(0, 3, 0), {true, false, true, true, true, true}, motion);
    std::vector<real> offsets;
    real worstAcross = 0, worstTurn = 0;
    for (int i = 0; i < 60 * 6; ++i) {
        w.step(dofStep);
        offsets.push_back(w.jointDofCoordinate(joint, TranslationY));
        const BodyState b = w.body(box);
        worstAcross = std::max(worstAcross, std::hypot(b.position.x(), b.position.z()));
        worstTurn = std::max(worstTurn, 2 * std::acos(std::min(real(1), std::abs(b.orientation.w()))));
    }
    const real sag = m * g / k;
    const real period = dofPeriod(offsets, -sag);
    const real lowest = *std::min_element(offsets.begin(), offsets.end());
    const real expected = 2 * dofPi * std::sqrt(m / k);
    INFO("period " << period << " s (expected " << expected << "), lowest " << lowest << " m (expected " << -2 * sag
                   << "), off the axis up to " << worstAcross << " m, turned up to " << worstTurn << " rad");
    CHECK(period == Approx(expected).epsilon(0.02));
    CHECK(lowest == Approx(-2 * sag).epsilon(0.02));
    CHECK(worstAcross < real(1e-3));
    CHECK(worstTurn < real(1e-3));
    // Critically damped (c = 2 sqrt(k m)) it settles at the sag within 2 %.
    motion[TranslationY].springDamping = 2 * std::sqrt(k * m);
    w.setJointDofMotion(joint, TranslationY, motion[TranslationY]);
    for (int i = 0; i < 60 * 4; ++i) w.step(dofStep);
    INFO("damped: rests at " << w.jointDofCoordinate(joint, TranslationY) << " m, force " << w.joint(joint).dofForce[TranslationY] << " N");
    CHECK(w.jointDofCoordinate(joint, TranslationY) == Approx(-sag).epsilon(0.02));
    CHECK(w.joint(joint).dofForce[TranslationY] == Approx(m * g).epsilon(0.02));
    // No spring, limited to [-0.5, 0], and back at 0: it falls to its lower limit and
    // rests there.
    w.setJointDofMotion(joint, TranslationY, testing::limitedTo(real(-0.5), 0));
    w.setPosition(box, Vec3(0, 3, 0));
    w.setLinearVelocity(box, Vec3::Zero());
    real deepest = 0;
    for (int i = 0; i < 60 * 2; ++i) {
        w.step(dofStep);
        deepest = std::min(deepest, w.jointDofCoordinate(joint, TranslationY));
    }
    INFO("limited: deepest " << deepest << " m, rests at " << w.jointDofCoordinate(joint, TranslationY) << " m, carrying "
                             << w.jointForce(joint) << " N");
    CHECK(deepest > real(-0.51));
    CHECK(w.jointDofCoordinate(joint, TranslationY) == Approx(-0.5).margin(0.005));
    CHECK(w.jointForce(joint) == Approx(m * g).epsilon(0.02));
}

TEST_CASE("a 6-DOF joint's rotation motor reaches its speed within 2 %, spins up at its full torque, and turned off carries nothing", "[physics][contact]") {
    WorldSettings s;
    s.gravity.setZero();
    World w(s);
    // A wheel-like body turning about the frame's x (the world's x).
    const BodyId wheel = dofBody(w, Vec3(0, 2, 0), 4, Vec3(real(0.5), real(0.3), real(0.3)));
    std::array<JointMotion, 6> motion{};
    motion[RotationX].motor = true;
    motion[RotationX].motorSpeed = 2;
    motion[RotationX].maxMotorForce = 20;
    const JointId joint = sixDofTo(w, wheel, Vec3::Zero(), Vec3(0, 2, 0), {true, true, true, false, true, true}, motion);
    real worst = 0;
    for (int i = 0; i < 120; ++i) {
        w.step(dofStep);
        if (i >= 30) worst = std::max(worst, std::abs(w.body(wheel).angularVelocity.x() - 2));
    }
    INFO("spin off 2 rad/s by up to " << worst << " rad/s after 0.5 s, motor torque " << w.joint(joint).dofForce[RotationX] << " N m");
    CHECK(worst < real(0.04));
    CHECK(std::abs(w.joint(joint).dofForce[RotationX]) < real(0.5)); // at its speed, nothing to push against
    // Spinning up from rest under its full torque takes I w / T = 0.05 s: at step 2 (1/30 s)
    // it turns at T t / I = 1.33 rad/s.
    World v(s);
    const BodyId slow = dofBody(v, Vec3(0, 2, 0), 4, Vec3(real(0.5), real(0.3), real(0.3)));
    sixDofTo(v, slow, Vec3::Zero(), Vec3(0, 2, 0), {true, true, true, false, true, true}, motion);
    v.step(dofStep);
    v.step(dofStep);
    INFO("after two steps " << v.body(slow).angularVelocity.x() << " rad/s");
    CHECK(v.body(slow).angularVelocity.x() == Approx(20 * 2 * dofStep / real(0.5)).epsilon(0.02));
    // Turned off while still pushing, the axis is free: it coasts at the speed it had and
    // reports no torque (nothing of the motor's last push is carried on).
    JointId spinning{};
    for (const JointId id : v.jointIds()) spinning = id;
    v.setJointDofMotion(spinning, RotationX, JointMotion{});
    const real coasting = v.body(slow).angularVelocity.x();
    for (int i = 0; i < 30; ++i) v.step(dofStep);
    INFO("coasting at " << v.body(slow).angularVelocity.x() << " rad/s (let go at " << coasting << "), torque "
                        << v.joint(spinning).dofForce[RotationX]);
    CHECK(v.body(slow).angularVelocity.x() == Approx(coasting).epsilon(1e-6));
    CHECK(v.joint(spinning).dofForce[RotationX] == 0);
}

TEST_CASE("a 6-DOF joint with every axis locked is a weld: a beam held level carries m g L / 2", "[physics][contact]") {
    // A 4 kg beam 2 m long along x welded at its end to the world: the weld carries its
    // weight m g and its moment m g L / 2 = 39.24 N m.
    World w;
    const real m = 4, length = 2, g = real(9.81);
    const BodyId beam = dofBody(w, Vec3(1, 2, 0), m, Vec3(real(0.01), m * length * length / 12, m * length * length / 12));
    const JointId joint = sixDofTo(w, beam, Vec3(-1, 0, 0), Vec3(0, 2, 0), {true, true, true, true, true, true});
    real worstDrop = 0, worstTurn = 0;
    for (int i = 0; i < 120; ++i) {
        w.step(dofStep);
        worstDrop = std::max(worstDrop, std::abs(w.body(beam).position.y() - 2));
        worstTurn = std::max(worstTurn, 2 * std::acos(std::min(real(1), std::abs(w.body(beam).orientation.w()))));
    }
    INFO("dropped up to " << worstDrop << " m, turned up to " << worstTurn / dofDegree << " degrees, force "
                          << w.jointForce(joint) << " N, torque " << w.joint(joint).totalTorque << " N m");
    CHECK(worstDrop < real(0.002));
    CHECK(worstTurn < real(0.1) * dofDegree);
    CHECK(w.jointForce(joint) == Approx(m * g).epsilon(0.01));
    CHECK(w.joint(joint).totalTorque == Approx(m * g * length / 2).epsilon(0.02));
}

TEST_CASE("a 6-DOF joint holds three rotation limits at once through hard swings", "[physics][contact]") {
    // A box hanging from its top face, its anchor held, rotations limited: +-20 degrees
    // about x, +-30 about y, +-40 about z; flung at 8 rad/s about each axis in turn (and
    // 3 rad/s about the other two), turning about its anchor, it swings into that axis's
    // limits.
    std::array<JointMotion, 6> motion{};
    motion[RotationX] = testing::limitedTo(-20 * dofDegree, 20 * dofDegree);
    motion[RotationY] = testing::limitedTo(-30 * dofDegree, 30 * dofDegree);
    motion[RotationZ] = testing::limitedTo(-40 * dofDegree, 40 * dofDegree);
    for (int flung = 0; flung < 3; ++flung) {
        World w;
        const BodyId box = dofBody(w, Vec3(0, 2, 0), 3, Vec3(real(0.05), real(0.04), real(0.06)));
        const JointId joint = sixDofTo(w, box, Vec3(0, real(0.3), 0), Vec3(0, real(2.3), 0), {true, true, true, false, false, false}, motion);
        Vec3 spin = Vec3::Constant(3);
        spin(flung) = 8;
        w.setAngularVelocity(box, spin);
        w.setLinearVelocity(box, spin.cross(Vec3(0, real(-0.3), 0))); // turning about the anchor
        std::array<real, 3> past{0, 0, 0};
        real reached = 0, drift = 0;
        for (int i = 0; i < 60 * 3; ++i) {
            w.step(dofStep);
            for (int k = 0; k < 3; ++k) {
                const real angle = w.jointDofCoordinate(joint, RotationX + k);
                const real limit = motion[static_cast<std::size_t>(RotationX + k)].upper;
                past[static_cast<std::size_t>(k)] = std::max(past[static_cast<std::size_t>(k)], std::abs(angle) - limit);
                if (k == flung) reached = std::max(reached, std::abs(angle));
            }
            drift = std::max(drift, (w.attachmentPoint({box, Vec3(0, real(0.3), 0)}) - Vec3(0, real(2.3), 0)).norm());
        }
        const real limit = motion[static_cast<std::size_t>(RotationX + flung)].upper;
        INFO("flung about axis " << flung << ": past the limits by up to " << past[0] / dofDegree << ", " << past[1] / dofDegree
                                 << ", " << past[2] / dofDegree << " degrees; reached " << reached / dofDegree << " of "
                                 << limit / dofDegree << "; the anchor drifted " << drift << " m");
        for (const real p : past) CHECK(p < 2 * dofDegree);
        CHECK(reached > limit - dofDegree); // the limit was hit
        CHECK(drift < real(0.005));
    }
}

TEST_CASE("bad 6-DOF joints are rejected with the field named and the world unchanged", "[physics][contact]") {
    World w;
    const BodyId box = dofBody(w, Vec3(0, 2, 0), 1, Vec3::Constant(real(0.01)));
    const JointId joint = sixDofTo(w, box, Vec3::Zero(), Vec3(0, 2, 0), hingeAboutZ);
    for (int i = 0; i < 3; ++i) w.step(dofStep);
    const auto hash = testing::stateHash(w);
    JointDesc good = w.joint(joint).desc;
    good.a.body = box;
    const auto rejects = [&](JointDesc d, const std::string& field) {
        expectError([&] { w.createJoint(d); }, field);
        CHECK(w.jointIds().size() == 1);
        CHECK(testing::stateHash(w) == hash);
    };
    JointDesc d = good;
    d.dofMotion[RotationX].motor = true; // locked
    rejects(d, "createJoint.dofMotion[3] (rotationX)");
    d = good;
    d.dofLocked[RotationY] = false; // free about y while x is held: its Euler angles would turn over
    rejects(d, "createJoint.dofMotion[4] (rotationY)");
    d.dofMotion[RotationY] = testing::limitedTo(-2, 1);
    rejects(d, "createJoint.dofMotion[4] (rotationY)");
    d = good;
    d.dofMotion[RotationZ] = testing::limitedTo(1, -1);
    rejects(d, "createJoint.dofMotion[5] (rotationZ).lower");
    d = good;
    d.dofMotion[RotationZ].springHertz = std::numeric_limits<real>::quiet_NaN();
    rejects(d, "createJoint.dofMotion[5] (rotationZ).springHertz");
    d = good;
    d.dofMotion[RotationZ].maxMotorForce = -1;
    rejects(d, "createJoint.dofMotion[5] (rotationZ).maxMotorForce");
    d = good;
    d.dofLocked[TranslationX] = false;
    d.dofMotion[TranslationX] = testing::limitedTo(0, real(2e6));
    rejects(d, "createJoint.dofMotion[0] (translationX).upper");
    // A hinge has no axes of its own to lock.
    d = good;
    d.type = JointType::Hinge;
    rejects(d, "createJoint.dofLocked");
    // Changing one axis: the same checks, and the world as it was.
    expectError([&] { w.setJointDofMotion(joint, 6, JointMotion{}); }, "setJointDofMotion.axis");
    expectError([&] { w.setJointDofMotion(joint, RotationX, testing::limitedTo(0, 1)); }, "setJointDofMotion.dofMotion[3] (rotationX)");
    expectError([&] { w.setJointDofMotion(joint, RotationZ, testing::limitedTo(0, 4)); }, "setJointDofMotion.dofMotion[5] (rotationZ).upper");
    expectError([&] { static_cast<void>(w.jointDofCoordinate(joint, -1)); }, "jointDofCoordinate.axis");
    CHECK(testing::stateHash(w) == hash);
    JointDesc hinge;
    hinge.type = JointType::Hinge;
    hinge.a = {box, Vec3::Zero()};
    const JointId other = w.createJoint(hinge);
    expectError([&] { w.setJointDofMotion(other, RotationZ, JointMotion{}); }, "setJointDofMotion.id");
    expectError([&] { static_cast<void>(w.jointDofCoordinate(other, RotationZ)); }, "jointDofCoordinate.id");
    w.destroyJoint(joint);
    expectError([&] { w.setJointDofMotion(joint, RotationZ, JointMotion{}); }, "setJointDofMotion.id");
}

TEST_CASE("a 6-DOF joint's axes survive a snapshot (stepping bit-identically) and a scene file", "[physics][contact][scene]") {
    World w;
    const BodyId box = dofBody(w, Vec3(0, 2, 0), 2, Vec3(real(0.05), real(0.04), real(0.06)));
    std::array<JointMotion, 6> motion{};
    motion[TranslationX] = testing::limitedTo(real(-0.2), real(0.3));
    motion[TranslationX].springHertz = 2;
    motion[TranslationX].springDampingRatio = real(0.2);
    motion[TranslationY].friction = 3;
    motion[RotationX].motor = true;
    motion[RotationX].motorSpeed = 1;
    motion[RotationX].maxMotorForce = 4;
    motion[RotationY] = testing::limitedTo(-1, 1);
    const JointId joint = sixDofTo(w, box, Vec3(0, real(0.2), 0), Vec3(0, real(2.2), 0), {false, false, true, false, false, true}, motion);
    w.setAngularVelocity(box, Vec3(1, 2, 0));
    w.setLinearVelocity(box, Vec3(1, 0, 0));
    for (int i = 0; i < 20; ++i) w.step(dofStep);
    CHECK(testing::stepsAsItsSnapshot(w, 60, dofStep));
    LoadedScene loaded = loadScene(exportScene(w));
    REQUIRE(loaded.objects.joints.size() == 1);
    const JointDesc& d = loaded.world.joint(loaded.objects.joints[0]).desc;
    CHECK(d.type == JointType::SixDof);
    CHECK(d.dofLocked == w.joint(joint).desc.dofLocked);
    CHECK(d.dofMotion[TranslationX].springHertz == motion[TranslationX].springHertz);
    CHECK(d.dofMotion[TranslationY].friction == motion[TranslationY].friction);
    CHECK(d.dofMotion[RotationX].maxMotorForce == motion[RotationX].maxMotorForce);
    CHECK(d.dofMotion[RotationY].lower == motion[RotationY].lower);
    for (int k = 0; k < 6; ++k)
        CHECK(loaded.world.jointDofCoordinate(loaded.objects.joints[0], k) == Approx(w.jointDofCoordinate(joint, k)).margin(1e-6));
}

TEST_CASE("the crane scene: the winch hoists at its speed, the trolley runs on its rail, the hook's swing stays in its limits",
          "[contact][scene]") {
    const std::unique_ptr<scenes::Scene> scene = scenes::makeScene("crane");
    World& w = scene->world();
    JointId hook{}, rope{};
    for (const JointId id : w.jointIds()) {
        if (w.joint(id).desc.type == JointType::SixDof) hook = id;
        if (w.joint(id).desc.type == JointType::Distance) rope = id;
    }
    REQUIRE(!hook.isNull());
    REQUIRE(!rope.isNull());
    const BodyId trolley = w.joint(hook).desc.b.body, crate = w.joint(rope).desc.a.body;
    const JointMotion swing = w.joint(hook).desc.dofMotion[RotationY];
    real worstSwing = 0, worstAcross = 0;
    const auto run = [&](int steps) {
        for (int i = 0; i < steps; ++i) {
            w.step(dofStep);
            worstSwing = std::max({worstSwing, std::abs(w.jointDofCoordinate(hook, RotationY)), std::abs(w.jointDofCoordinate(hook, RotationZ))});
            worstAcross = std::max({worstAcross, std::abs(w.jointDofCoordinate(hook, TranslationY)), std::abs(w.jointDofCoordinate(hook, TranslationZ))});
        }
    };
    run(60);
    const real hung = w.jointDofCoordinate(hook, TranslationX);
    scene->control(1, 0); // raise at 1.5 m/s for a second
    run(60);
    const real raised = w.jointDofCoordinate(hook, TranslationX);
    INFO("hoist " << hung << " m, raised to " << raised << " m");
    CHECK(hung - raised == Approx(1.5).epsilon(0.05));
    scene->control(0, 1); // the trolley along +x at 3 m/s for 1.5 s, then the brake
    run(90);
    const real moved = w.body(trolley).position.x();
    scene->control(0, 0);
    run(120);
    const real hoistHeld = w.jointDofCoordinate(hook, TranslationX);
    INFO("the trolley ran to x = " << moved << " m, stopped at " << w.body(trolley).position.x() << " m, "
         << w.body(trolley).linearVelocity.x() << " m/s; the hoist held at " << hoistHeld << " m; the hook swung up to "
         << worstSwing << " rad (limit " << swing.upper << "), off its line by up to " << worstAcross << " m");
    CHECK(moved == Approx(4.5).margin(0.5));
    CHECK(std::abs(w.body(trolley).linearVelocity.x()) < real(0.05));
    CHECK(hoistHeld == Approx(raised).margin(0.005)); // the winch's brake holds the load
    CHECK(worstSwing < swing.upper + 2 * dofDegree);
    CHECK(worstSwing > real(0.05)); // it did swing
    CHECK(worstAcross < real(0.01));
    // Lowered all the way, the hoist stops at its limit; let go, the crate lands.
    scene->control(-1, 0);
    run(60 * 5);
    const real lowered = w.jointDofCoordinate(hook, TranslationX);
    INFO("lowered to " << lowered << " m");
    CHECK(lowered == Approx(w.joint(hook).desc.dofMotion[TranslationX].upper).margin(0.01)); // at its limit, not past it
    scene->act(0);
    CHECK(!w.contains(rope));
    run(120);
    INFO("the crate rests at y = " << w.body(crate).position.y() << " m");
    CHECK(w.body(crate).position.y() == Approx(0.4).margin(0.02));
}
