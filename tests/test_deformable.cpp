// SPDX-License-Identifier: MIT
// ARAP deformables of oriented particles (issue 6; Choi 2017): stiffness independent of
// iterations and step, sag ratios of linear elasticity, recovery from a collapse,
// proper rotations, the global step's residual, skinning at rest, momentum,
// determinism, handles, and bad input.

#include "expect_error.hpp"
#include "helpers.hpp"

#include "physics/deformable/stages.hpp"
#include "common/polar.hpp"

#include <jounce/deformable/deformable_builders.hpp>
#include <jounce/world/world.hpp>

#include <catch2/catch.hpp>

#include <cmath>

using namespace jounce;

namespace {

World deformableWorld(const Vec3& gravity = Vec3(0, real(-9.81), 0)) {
    WorldSettings s;
    s.gravity = gravity;
    s.sleep.enabled = false;
    return World(s);
}

/// The bar of Choi's Fig. 1: 20 particles, 2 m x 0.2 m x 0.2 m, its start face held by
/// 25 position handles at their rest positions.
ArapBar clampedBar(World& w, real stiffness, int iterations, real damping = 4) {
    ArapBarDesc b;
    b.stiffness = stiffness;
    b.iterations = iterations;
    b.damping = damping;
    const ArapBar bar = buildArapBar(w, b);
    clampArapBar(w, bar);
    return bar;
}

/// How far the far end's centre has dropped after `seconds` at steps of dt.
real sagAfter(real stiffness, int iterations, real dt, real seconds = 4) {
    World w = deformableWorld();
    const ArapBar bar = clampedBar(w, stiffness, iterations);
    const int steps = static_cast<int>(std::lround(seconds / dt));
    for (int i = 0; i < steps; ++i) w.step(dt);
    return w.deformable(bar.id).restVertices[bar.endCentre].y() - w.deformableVertices(bar.id)[bar.endCentre].y();
}

/// RMS distance between two point sets after the best rigid motion of b onto a (Kabsch).
real rmsAfterAlignment(const std::vector<Vec3>& a, const std::vector<Vec3>& b) {
    Vec3 ca = Vec3::Zero(), cb = Vec3::Zero();
    for (std::size_t i = 0; i < a.size(); ++i) {
        ca += a[i];
        cb += b[i];
    }
    ca /= static_cast<real>(a.size());
    cb /= static_cast<real>(b.size());
    Mat3 h = Mat3::Zero();
    for (std::size_t i = 0; i < a.size(); ++i) h += (b[i] - cb) * (a[i] - ca).transpose();
    const Eigen::JacobiSVD<Mat3> svd(h, Eigen::ComputeFullU | Eigen::ComputeFullV);
    Mat3 u = svd.matrixU();
    if ((svd.matrixV() * u.transpose()).determinant() < 0) u.col(2) = -u.col(2);
    const Mat3 r = svd.matrixV() * u.transpose();
    real sum = 0;
    for (std::size_t i = 0; i < a.size(); ++i) sum += (r * (b[i] - cb) + ca - a[i]).squaredNorm();
    return std::sqrt(sum / static_cast<real>(a.size()));
}

} // namespace

TEST_CASE("ARAP bar: the sag does not depend on iterations or the step, and follows 1/k", "[deformable][long]") {
    const real k = 1e9;
    const real base = sagAfter(k, 10, real(1) / 60);
    const real moreIterations = sagAfter(k, 50, real(1) / 60);
    const real smallerStep = sagAfter(k, 10, real(1) / 240);
    const real twice = sagAfter(2 * k, 10, real(1) / 60), four = sagAfter(4 * k, 10, real(1) / 60);
    INFO("sag: k " << base << " m (50 iterations " << moreIterations << ", dt 1/240 " << smallerStep << "), 2k " << twice
                   << ", 4k " << four);
    CHECK(base > real(0.005));  // it does sag, and
    CHECK(base < real(0.2));    // stays in the linear range (10 % of its length)
    CHECK(std::abs(moreIterations - base) < real(0.02) * base);
    CHECK(std::abs(smallerStep - base) < real(0.02) * base);
    CHECK(base / twice == Approx(2).epsilon(0.1));
    CHECK(base / four == Approx(4).epsilon(0.1));
}

TEST_CASE("ARAP creature collapsed to a point with random orientations recovers its shape", "[deformable]") {
    World w = deformableWorld(Vec3::Zero());
    SampledGraphDesc g;
    g.damping = 2;
    const DeformableId id = buildArapCreature(w, Vec3::Zero(), g);
    const Deformable& d = w.deformable(id);
    REQUIRE(d.size() == 100);
    Vec3 lo = d.restVertices.front(), hi = lo;
    for (const Vec3& p : d.restVertices) {
        lo = lo.cwiseMin(p);
        hi = hi.cwiseMax(p);
    }
    const real size = (hi - lo).norm();
    testing::Lcg lcg(11);
    const auto random = [&lcg] { return lcg.uniform(); };
    for (std::size_t i = 0; i < d.size(); ++i)
        w.setDeformableParticlePose(id, i, Vec3(0, real(0.5), 0), Quat(random(), random(), random(), random()).normalized());
    real worstDet = 1, worstOrtho = 0, worstResidual = 0;
    for (int step = 0; step < 120; ++step) {
        w.step(real(1) / 60);
        const DeformableStats s = w.deformableStats(id);
        worstDet = std::min(worstDet, s.worstDeterminant);
        worstOrtho = std::max(worstOrtho, s.worstOrthogonality);
        worstResidual = std::max(worstResidual, s.globalResidual);
    }
    const real rms = rmsAfterAlignment(d.restPosition, d.position);
    INFO("RMS after 2 s " << rms << " m of a " << size << " m model; worst det R " << worstDet << ", |R^T R - I| " << worstOrtho
                          << ", global residual " << worstResidual);
    CHECK(rms < real(0.01) * size);
    CHECK(worstDet > 1 - testing::tol(1e-9, 1e-5));
    CHECK(worstOrtho < testing::tol(1e-9, 1e-5));
    CHECK(worstResidual < testing::tol(1e-8, 1e-4));
}

TEST_CASE("ARAP local step: the iterative rotation equals the SVD's proper polar rotation, inverted or not",
          "[deformable]") {
    // 2000 random covariances, half of them inverted (det C < 0), from the identity and
    // from a random start: both give the same rotation, det +1, orthonormal to 1e-9.
    testing::Lcg lcg(5);
    const auto random = [&lcg] { return lcg.uniform(); };
    real worst = 0, worstOrtho = 0, worstDet = 1;
    int inverted = 0;
    for (int n = 0; n < 2000; ++n) {
        Mat3 c;
        for (int k = 0; k < 9; ++k) c.data()[k] = random();
        inverted += c.determinant() < 0;
        const Mat3 start = Quat(random(), random(), random(), random()).normalized().toRotationMatrix();
        const Mat3 svd = detail::properRotation(c);
        for (const Mat3& from : {Mat3(Mat3::Identity()), start}) {
            const Mat3 r = detail::extractRotation(c, from);
            worst = std::max(worst, (r - svd).cwiseAbs().maxCoeff());
            worstOrtho = std::max(worstOrtho, (r.transpose() * r - Mat3::Identity()).cwiseAbs().maxCoeff());
            worstDet = std::min(worstDet, r.determinant());
        }
    }
    INFO(inverted << " inverted; worst difference from the SVD " << worst << ", |R^T R - I| " << worstOrtho << ", det " << worstDet);
    CHECK(inverted > 800);
    CHECK(worst < testing::tol(1e-6, 1e-3));
    CHECK(worstOrtho < testing::tol(1e-9, 1e-5));
    CHECK(worstDet > 1 - testing::tol(1e-9, 1e-5));
}

TEST_CASE("ARAP skinning reproduces the rest mesh at rest", "[deformable]") {
    World w = deformableWorld();
    const ArapBar bar = buildArapBar(w, {});
    const std::vector<Vec3> vertices = w.deformableVertices(bar.id), normals = w.deformableNormals(bar.id);
    const Deformable& d = w.deformable(bar.id);
    real worst = 0, worstNormal = 0;
    for (std::size_t k = 0; k < vertices.size(); ++k) {
        worst = std::max(worst, (vertices[k] - d.restVertices[k]).norm());
        worstNormal = std::max(worstNormal, (normals[k] - d.restNormals[k]).norm());
    }
    CHECK(worst < testing::tol(1e-9, 1e-6));
    CHECK(worstNormal < testing::tol(1e-9, 1e-6));
}

TEST_CASE("ARAP: without handles, gravity or contacts linear momentum is kept", "[deformable]") {
    World w = deformableWorld(Vec3::Zero());
    const DeformableId id = buildArapCreature(w, Vec3::Zero());
    const Deformable& d = w.deformable(id);
    testing::Lcg lcg(3);
    const auto random = [&lcg] { return lcg.uniform(); };
    // Scrambled poses (so the elastic forces are large) with a common drift.
    for (std::size_t i = 0; i < d.size(); ++i)
        w.setDeformableParticlePose(id, i, d.restPosition[i] + Vec3(random(), random(), random()) * real(0.05),
                                    Quat(1, random() * real(0.3), random() * real(0.3), random() * real(0.3)).normalized());
    w.setDeformableVelocity(id, Vec3(real(0.5), real(-0.2), real(0.1)));
    const auto momentum = [&] {
        Vec3 p = Vec3::Zero();
        for (std::size_t i = 0; i < d.size(); ++i) p += d.mass[i] * d.velocity[i];
        return p;
    };
    const Vec3 before = momentum();
    for (int i = 0; i < 60; ++i) w.step(real(1) / 60);
    const Vec3 after = momentum();
    INFO("momentum " << before.transpose() << " -> " << after.transpose());
    CHECK((after - before).norm() < testing::tol(1e-9, 1e-4) * before.norm());
}

TEST_CASE("ARAP: two runs are bit-identical", "[deformable]") {
    const auto run = [] {
        World w = deformableWorld();
        const ArapBar bar = clampedBar(w, 1e9, 10, 0);
        const DeformableId creature = buildArapCreature(w, Vec3(0, 2, 0));
        // 10 steps under the sanitizers (their sparse solves are slow there), 30 elsewhere.
        for (int i = 0; i < (testing::sanitizedStepDivisor > 1 ? 10 : 30); ++i) w.step(real(1) / 60);
        std::vector<real> state;
        for (const DeformableId id : {bar.id, creature}) {
            const Deformable& d = w.deformable(id);
            for (std::size_t i = 0; i < d.size(); ++i) {
                state.insert(state.end(), d.position[i].data(), d.position[i].data() + 3);
                state.insert(state.end(), d.rotation[i].data(), d.rotation[i].data() + 9);
            }
        }
        return state;
    };
    const std::vector<real> a = run(), b = run();
    REQUIRE(a.size() == b.size());
    CHECK(std::memcmp(a.data(), b.data(), a.size() * sizeof(real)) == 0);
}

TEST_CASE("ARAP handles: a dragged and twisted bar end follows its handles, targets do not refactorise",
          "[deformable]") {
    World w = deformableWorld();
    const ArapBar bar = clampedBar(w, 1e9, 10);
    DeformableHandleDesc grab;
    grab.vertex = bar.endCentre;
    grab.target = w.deformable(bar.id).restVertices[bar.endCentre];
    const DeformableHandleId pull = w.createDeformableHandle(bar.id, grab);
    DeformableHandleDesc twist;
    twist.kind = DeformableHandleDesc::Kind::Direction;
    twist.vertex = bar.endCentre;
    twist.restDirection = Vec3::UnitY();
    twist.target = Vec3::UnitY();
    const DeformableHandleId turn = w.createDeformableHandle(bar.id, twist);
    w.step(real(1) / 60);
    const int factorisations = w.deformableStats(bar.id).factorisations;
    // Over 2 s, lift the end by 0.3 m and twist it a quarter turn about the bar's axis.
    const Vec3 start = grab.target;
    for (int i = 1; i <= 180; ++i) {
        const real s = std::min(real(i) / 120, real(1));
        w.setDeformableHandleTarget(bar.id, pull, start + Vec3(0, real(0.3) * s, 0));
        const real angle = s * std::numbers::pi_v<real> / 2;
        w.setDeformableHandleTarget(bar.id, turn, Vec3(0, std::cos(angle), std::sin(angle)));
        w.step(real(1) / 60);
    }
    const Deformable& d = w.deformable(bar.id);
    const Vec3 end = w.deformableVertices(bar.id)[bar.endCentre];
    // The end's turn: the rest y axis at the end centre, skinned (what the handle holds).
    Vec3 up = Vec3::Zero();
    for (std::uint32_t s = d.skinStart[bar.endCentre]; s < d.skinStart[bar.endCentre + 1]; ++s)
        up += d.skinWeights[s] * (d.rotation[d.skinParticles[s]] * Vec3::UnitY());
    up.normalize();
    INFO("end centre at " << end.transpose() << " (target " << (start + Vec3(0, real(0.3), 0)).transpose() << "), its y axis "
                          << up.transpose());
    CHECK((end - (start + Vec3(0, real(0.3), 0))).norm() < real(0.01));
    CHECK(up.dot(Vec3::UnitZ()) > real(0.99));
    CHECK(w.deformableStats(bar.id).factorisations == factorisations);
}

TEST_CASE("bad ARAP input is rejected with the field named and nothing stored", "[deformable]") {
    World w = deformableWorld();
    DeformableDesc good = arapBarDesc({});
    const auto expectError = [&](const DeformableDesc& d, const std::string& field) {
        testing::expectError([&] { w.createDeformable(d); }, field);
        CHECK(w.deformableIds().empty());
    };
    DeformableDesc d = good;
    d.particles[3].radii.y() = 0;
    expectError(d, "DeformableDesc.particles[3].radii");
    d = good;
    d.particles[2].radii.x() = -1;
    expectError(d, "DeformableDesc.particles[2].radii");
    d = good;
    d.particles[5].position.z() = std::numeric_limits<real>::quiet_NaN();
    expectError(d, "DeformableDesc.particles[5].position");
    d = good;
    d.particles[1].orientation = Quat(0, 0, 0, 0);
    expectError(d, "DeformableDesc.particles[1].orientation");
    d = good;
    d.edges.clear();
    expectError(d, "DeformableDesc.edges"); // empty graph
    d = good;
    d.edges.erase(d.edges.begin() + 7);
    expectError(d, "DeformableDesc.edges"); // two pieces
    d = good;
    d.edges[4] = {4, 99};
    expectError(d, "DeformableDesc.edges[4]");
    d = good;
    d.particles.resize(1);
    expectError(d, "DeformableDesc.particles");
    d = good;
    d.stiffness = std::numeric_limits<real>::infinity();
    expectError(d, "DeformableDesc.stiffness");
    d = good;
    d.density = 0;
    expectError(d, "DeformableDesc.density");
    d = good;
    d.iterations = 0;
    expectError(d, "DeformableDesc.iterations");
    d = good;
    d.triangles[0][1] = 1u << 30;
    expectError(d, "DeformableDesc.triangles[0]");

    const DeformableId id = w.createDeformable(good);
    DeformableHandleDesc h;
    h.vertex = static_cast<std::uint32_t>(good.vertices.size());
    testing::expectError([&] { w.createDeformableHandle(id, h); }, "DeformableHandleDesc.vertex");
    h.vertex = 0;
    h.target.x() = std::numeric_limits<real>::quiet_NaN();
    testing::expectError([&] { w.createDeformableHandle(id, h); }, "DeformableHandleDesc.target");
    h.target = Vec3::Zero();
    h.weight = -1;
    testing::expectError([&] { w.createDeformableHandle(id, h); }, "DeformableHandleDesc.weight");
    CHECK(w.deformable(id).handles.size() == 0);
    testing::expectError([&] { w.setDeformableHandleTarget(id, DeformableHandleId{0, 5}, Vec3::Zero()); },
                         "setDeformableHandleTarget.handle");
    testing::expectError([&] { w.setDeformableParticlePose(id, 20, Vec3::Zero(), Quat::Identity()); },
                         "setDeformableParticlePose.index");
    w.destroyDeformable(id);
    testing::expectError([&] { w.deformable(id); }, "deformable.id");
    testing::expectError([&] { w.destroyDeformable(id); }, "destroyDeformable.id");
}

TEST_CASE("ARAP creature falling on the ground comes to rest on it, in shape", "[deformable][scene]") {
    World w = deformableWorld();
    testing::addGround(w, real(0.6));
    SampledGraphDesc g;
    g.damping = real(0.5);
    const DeformableId id = buildArapCreature(w, Vec3(0, real(0.5), 0), g);
    const Deformable& d = w.deformable(id);
    real lowest = 1e9;
    const int steps = 180;
    for (int i = 0; i < steps; ++i) {
        w.step(real(1) / 60);
        for (std::size_t k = 0; k < d.size(); ++k) {
            const Vec3 along = (d.rotation[k] * d.restAxes[k]).transpose() * Vec3::UnitY();
            lowest = std::min(lowest, d.position[k].y() - std::sqrt(along.cwiseProduct(d.radii[k]).squaredNorm()));
        }
    }
    real speed = 0;
    for (const Vec3& v : d.velocity) speed = std::max(speed, v.norm());
    const real rms = rmsAfterAlignment(d.restPosition, d.position);
    INFO("deepest ellipsoid point " << lowest << " m; fastest particle at the end " << speed << " m/s; shape RMS " << rms);
    CHECK(lowest > real(-0.01));
    CHECK(speed < real(0.05));
    CHECK(rms < real(0.02));
}

TEST_CASE("ARAP creature landing on a free box pushes it (the opposite impulse)", "[deformable]") {
    World w = deformableWorld();
    testing::addGround(w, 0);
    BodyDesc boxBody = testing::boxDesc(Vec3(real(0.3), real(0.1), real(0.3)), 100, Vec3(0, real(0.1), 0));
    ColliderDesc c;
    c.shape = Box{Vec3(real(0.3), real(0.1), real(0.3))};
    boxBody.colliders.push_back(c);
    const BodyId box = w.createBody(boxBody);
    SampledGraphDesc g;
    const DeformableId id = buildArapCreature(w, Vec3(real(0.1), real(0.4), 0), g);
    real fastest = 0;
    for (int i = 0; i < 60; ++i) {
        w.step(real(1) / 60);
        fastest = std::max(fastest, w.body(box).linearVelocity.norm());
    }
    const Deformable& d = w.deformable(id);
    real lowest = 1e9;
    for (const Vec3& x : d.position) lowest = std::min(lowest, x.y());
    INFO("the box's fastest speed " << fastest << " m/s, final y " << w.body(box).position.y() << "; lowest particle centre "
                                    << lowest);
    CHECK(fastest > real(0.01)); // it felt the landing
    CHECK(w.body(box).position.y() > real(0.09)); // and still stands on the ground
    CHECK(lowest > real(0.2));   // the creature rests on the box (0.2 m high), not in it
}

namespace {

/// A free box of `mass` kg, 0.6 x 0.3 x 0.6 m, standing on the ground at x = 0.
BodyId addFreeBox(World& w, real mass = 20) {
    const Vec3 half(real(0.3), real(0.15), real(0.3));
    BodyDesc box = testing::boxDesc(half, mass / (8 * half.prod()), Vec3(0, half.y(), 0));
    ColliderDesc c;
    c.shape = Box{half};
    box.colliders.push_back(c);
    return w.createBody(box);
}

World sleepingWorld() {
    WorldSettings s;
    s.gravity = Vec3(0, real(-9.81), 0);
    return World(s); // sleep on, Millington's defaults
}

} // namespace

TEST_CASE("ARAP creature resting on a free box: the box ends each step at rest, and both fall asleep",
          "[deformable][scene][long]") {
    // The creature (~15 kg) on a 5 kg box. Its contact impulses reach the box before the
    // box's own ground contacts are resolved, so the box ends every step at rest; they
    // were once applied after the rigid resolve and left the box sinking at m g h / M
    // (0.49 m/s measured, m g h / M = 0.50) at the end of every step, so it never slept.
    const auto run = [](bool sleep, real& creatureMass, real& lateBoxSpeed, int& creatureAsleepAt, int& boxAsleepAt) {
        World w = sleepingWorld();
        WorldSettings s = w.settings();
        s.sleep.enabled = sleep;
        w.setSettings(s);
        testing::addGround(w, real(0.6));
        const BodyId box = addFreeBox(w, 5);
        SampledGraphDesc g;
        g.damping = real(0.5);
        const DeformableId id = buildArapCreature(w, Vec3(0, real(0.35), 0), g);
        creatureMass = 0;
        for (const real m : w.deformable(id).mass) creatureMass += m;
        lateBoxSpeed = 0;
        creatureAsleepAt = boxAsleepAt = -1;
        for (int i = 0; i < 600; ++i) {
            w.step(real(1) / 60);
            if (i >= 120) lateBoxSpeed = std::max(lateBoxSpeed, w.body(box).linearVelocity.norm());
            if (creatureAsleepAt < 0 && w.isDeformableAsleep(id)) creatureAsleepAt = i;
            if (boxAsleepAt < 0 && !w.body(box).awake) boxAsleepAt = i;
        }
        CHECK(w.body(box).position.y() == Approx(real(0.15)).margin(real(0.01)));
        CHECK(w.isDeformableAsleep(id) == sleep);
        CHECK(w.body(box).awake == !sleep);
    };
    real mass = 0, speed = 0;
    int creatureAsleepAt = 0, boxAsleepAt = 0;
    run(false, mass, speed, creatureAsleepAt, boxAsleepAt);
    INFO("creature " << mass << " kg; sleep off: box speed at the end of steps 120-600 " << speed
                     << " m/s (m g h / M = " << mass * real(9.81) / 60 / 5 << ")");
    CHECK(mass > 10);
    CHECK(speed < real(0.02));
    run(true, mass, speed, creatureAsleepAt, boxAsleepAt);
    INFO("sleep on: creature asleep from step " << creatureAsleepAt << ", box from " << boxAsleepAt);
    CHECK(creatureAsleepAt > 0);
    CHECK(creatureAsleepAt == boxAsleepAt); // one island: they fall asleep together
}

TEST_CASE("ARAP sleep: a sleeping creature stays put, wakes when a box lands on it, and wakes by the API",
          "[deformable]") {
    World w = sleepingWorld();
    testing::addGround(w, real(0.6));
    SampledGraphDesc g;
    g.damping = real(0.5);
    const DeformableId id = buildArapCreature(w, Vec3(0, real(0.05), 0), g);
    int steps = 0;
    while (!w.isDeformableAsleep(id) && steps < 600) {
        w.step(real(1) / 60);
        ++steps;
    }
    REQUIRE(w.isDeformableAsleep(id));
    const std::vector<Vec3> rest = w.deformable(id).position;
    for (int i = 0; i < 60; ++i) w.step(real(1) / 60);
    CHECK(w.deformable(id).position == rest); // asleep: not stepped at all
    for (const Vec3& v : w.deformable(id).velocity) CHECK(v.isZero(0));

    // A box dropped on its back wakes it (their island joins through the broad phase).
    const Vec3 half(real(0.1), real(0.1), real(0.1));
    BodyDesc drop = testing::boxDesc(half, 500, Vec3(0, real(1.5), 0));
    ColliderDesc c;
    c.shape = Box{half};
    drop.colliders.push_back(c);
    w.createBody(drop);
    int wokeAt = -1;
    for (int i = 0; i < 90 && wokeAt < 0; ++i) {
        w.step(real(1) / 60);
        if (!w.isDeformableAsleep(id)) wokeAt = i;
    }
    INFO("asleep after " << steps << " steps; woke " << wokeAt << " steps after the box was dropped");
    CHECK(wokeAt > 0);
    CHECK(wokeAt < 60); // it falls 1 m in ~27 steps

    // And the API wakes it: a velocity set on a sleeping creature moves it.
    for (int i = 0; i < 900 && !w.isDeformableAsleep(id); ++i) w.step(real(1) / 60);
    REQUIRE(w.isDeformableAsleep(id));
    w.setDeformableVelocity(id, Vec3(1, 0, 0));
    CHECK_FALSE(w.isDeformableAsleep(id));
    const Vec3 before = w.deformable(id).position[0];
    w.step(real(1) / 60);
    CHECK(w.deformable(id).position[0].x() > before.x());
}

TEST_CASE("ARAP sleep: a creature moved by a handle keeps the box it stands on awake", "[deformable][long]") {
    World w = sleepingWorld();
    testing::addGround(w, real(0.6));
    const BodyId box = addFreeBox(w);
    SampledGraphDesc g;
    g.damping = real(0.5);
    const DeformableId id = buildArapCreature(w, Vec3(0, real(0.35), 0), g);
    // Wag the head (the vertex highest above the body) in a slow circle for 8 s.
    const std::vector<Vec3> vertices = w.deformableVertices(id);
    std::uint32_t head = 0;
    for (std::uint32_t v = 1; v < vertices.size(); ++v)
        if (vertices[v].y() > vertices[head].y()) head = v;
    DeformableHandleDesc h;
    h.vertex = head;
    h.target = vertices[head];
    h.weight = 2000;
    const DeformableHandleId handle = w.createDeformableHandle(id, h);
    bool boxSlept = false;
    for (int i = 0; i < 480; ++i) {
        const real t = static_cast<real>(i) / 60;
        w.setDeformableHandleTarget(id, handle, vertices[head] + real(0.15) * Vec3(std::sin(t), 0, std::cos(t) - 1));
        w.step(real(1) / 60);
        boxSlept = boxSlept || !w.body(box).awake;
    }
    CHECK_FALSE(boxSlept);
    // Let go: then both come to rest and sleep.
    w.destroyDeformableHandle(id, handle);
    for (int i = 0; i < 900 && !w.isDeformableAsleep(id); ++i) w.step(real(1) / 60);
    CHECK(w.isDeformableAsleep(id));
    CHECK_FALSE(w.body(box).awake);
}

TEST_CASE("ARAP ray cast: hits the skinned mesh, or the ellipsoids of a deformable without one", "[deformable]") {
    World w = deformableWorld();
    ArapBarDesc b;
    b.start = Vec3(-1, real(1.5), 0);
    const ArapBar bar = buildArapBar(w, b);
    // Straight down onto the bar's top face (y = 1.6) at x = 0.3.
    const auto hit = w.rayCastDeformables(Vec3(real(0.3), 5, 0), Vec3(real(0.3), -5, 0));
    REQUIRE(hit);
    CHECK(hit->deformable == bar.id);
    CHECK(hit->fraction == Approx((5 - real(1.6)) / 10).epsilon(testing::tol(1e-9, 1e-5)));
    CHECK(hit->point.y() == Approx(real(1.6)).epsilon(testing::tol(1e-9, 1e-5)));
    const Vec3 nearest = w.deformableVertices(bar.id)[hit->vertex];
    for (const Vec3& v : w.deformableVertices(bar.id)) CHECK((v - hit->point).norm() >= (nearest - hit->point).norm());
    CHECK_FALSE(w.rayCastDeformables(Vec3(real(0.3), 5, 1), Vec3(real(0.3), -5, 1))); // beside it

    // Two ellipsoids and no render mesh: the particles' centres are the vertices.
    DeformableDesc d;
    OrientedParticleDesc p;
    p.radii = Vec3(real(0.3), real(0.1), real(0.1));
    p.position = Vec3(0, 0, 5);
    d.particles.push_back(p);
    p.position = Vec3(real(0.6), 0, 5);
    d.particles.push_back(p);
    d.edges.push_back({0, 1});
    const DeformableId pair = w.createDeformable(d);
    const auto side = w.rayCastDeformables(Vec3(real(-2), 0, 5), Vec3(real(2), 0, 5)); // along x: enters at x = -0.3
    REQUIRE(side);
    CHECK(side->deformable == pair);
    CHECK(side->vertex == 0);
    CHECK(side->point.x() == Approx(real(-0.3)).epsilon(testing::tol(1e-9, 1e-5)));
    const auto over = w.rayCastDeformables(Vec3(real(0.6), 1, 5), Vec3(real(0.6), -1, 5)); // down onto the second: y = 0.1
    REQUIRE(over);
    CHECK(over->vertex == 1);
    CHECK(over->point.y() == Approx(real(0.1)).epsilon(testing::tol(1e-9, 1e-5)));
    testing::expectError([&] { (void)w.rayCastDeformables(Vec3(NAN, 0, 0), Vec3::Zero()); }, "rayCastDeformables.from");
    testing::expectError([&] { (void)w.rayCastDeformables(Vec3::Zero(), Vec3(0, INFINITY, 0)); }, "rayCastDeformables.to");
}
