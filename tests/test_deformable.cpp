// ARAP deformables of oriented particles (issue 6; Choi 2017): stiffness independent of
// iterations and step, sag ratios of linear elasticity, recovery from a collapse,
// proper rotations, the global step's residual, skinning at rest, momentum,
// determinism, handles, and bad input.

#include "expect_error.hpp"
#include "helpers.hpp"

#include "physics/deformable/stages.hpp"

#include <jounce/physics/deformable_builders.hpp>
#include <jounce/physics/world.hpp>

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
    for (const std::uint32_t v : bar.startFace) {
        DeformableHandleDesc h;
        h.vertex = v;
        h.target = w.deformable(bar.id).restVertices[v];
        w.addDeformableHandle(bar.id, h);
    }
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

TEST_CASE("ARAP bar: the sag does not depend on iterations or the step, and follows 1/k", "[deformable]") {
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
    std::uint64_t seed = 11;
    const auto random = [&seed] {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        return static_cast<real>((seed >> 11) * (1.0 / 9007199254740992.0)) * 2 - 1;
    };
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
    std::uint64_t seed = 5;
    const auto random = [&seed] {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        return static_cast<real>((seed >> 11) * (1.0 / 9007199254740992.0)) * 2 - 1;
    };
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
    std::uint64_t seed = 3;
    const auto random = [&seed] {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        return static_cast<real>((seed >> 11) * (1.0 / 9007199254740992.0)) * 2 - 1;
    };
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
        for (int i = 0; i < 30; ++i) w.step(real(1) / 60);
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

TEST_CASE("ARAP handles: a dragged and twisted bar end follows its handles; targets do not refactorise",
          "[deformable]") {
    World w = deformableWorld();
    const ArapBar bar = clampedBar(w, 1e9, 10);
    DeformableHandleDesc grab;
    grab.vertex = bar.endCentre;
    grab.target = w.deformable(bar.id).restVertices[bar.endCentre];
    const DeformableHandleId pull = w.addDeformableHandle(bar.id, grab);
    DeformableHandleDesc twist;
    twist.kind = DeformableHandleDesc::Kind::Direction;
    twist.vertex = bar.endCentre;
    twist.restDirection = Vec3::UnitY();
    twist.target = Vec3::UnitY();
    const DeformableHandleId turn = w.addDeformableHandle(bar.id, twist);
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
    testing::expectError([&] { w.addDeformableHandle(id, h); }, "DeformableHandleDesc.vertex");
    h.vertex = 0;
    h.target.x() = std::numeric_limits<real>::quiet_NaN();
    testing::expectError([&] { w.addDeformableHandle(id, h); }, "DeformableHandleDesc.target");
    h.target = Vec3::Zero();
    h.weight = -1;
    testing::expectError([&] { w.addDeformableHandle(id, h); }, "DeformableHandleDesc.weight");
    CHECK(w.deformable(id).handles.size() == 0);
    testing::expectError([&] { w.setDeformableHandleTarget(id, DeformableHandleId{0, 5}, Vec3::Zero()); },
                         "setDeformableHandleTarget.handle");
    testing::expectError([&] { w.setDeformableParticlePose(id, 20, Vec3::Zero(), Quat::Identity()); },
                         "setDeformableParticlePose.index");
    w.removeDeformable(id);
    testing::expectError([&] { w.deformable(id); }, "deformable.id");
    testing::expectError([&] { w.removeDeformable(id); }, "removeDeformable.id");
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
