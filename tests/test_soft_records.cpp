// SPDX-License-Identifier: MIT
// The soft step watched (World::setResolverObserver, contact/soft_records.cpp): its
// records step through exactly what a fast step computes (the same bits, threads and
// SIMD or not), each record's velocities continue the previous record of its bodies,
// and the impulses the records report are the bodies' whole change of momentum.

#include "helpers.hpp"
#include "scenes/rigid_scenes.hpp"
#include "scenes/scene.hpp"

#include <jounce/jounce.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <map>
#include <set>
#include <vector>

using namespace jounce;

namespace {

BodyId box(World& w, const Vec3& at, real half, real mass) {
    BodyDesc d;
    d.position = at;
    ColliderDesc c = testing::boxCollider(Vec3::Constant(half));
    c.density = mass / (8 * half * half * half);
    c.material.friction = real(0.6);
    d.colliders.push_back(c);
    return w.createBody(d);
}

/// Four scenes, one per path of the soft step: a pyramid of boxes (coloured blocks), a
/// 1 / 1000 / 1 kg sandwich (rows, the light box held still under the heavy one), two
/// boxes joined by a ball joint lying on the floor (rows and a joint point) and a box
/// on the floor with a lid on a hinge with a limit, a motor and a spring (a hinge's rows).
enum class Path { Coloured, Held, Jointed, Hinged };

void build(World& w, Path path) {
    testing::addGround(w);
    switch (path) {
    case Path::Coloured:
        for (int row = 0; row < 5; ++row)
            for (int i = 0; i < 5 - row; ++i)
                box(w, Vec3(real(1.05) * (i - real(0.5) * (4 - row)), real(0.5) + row * real(1.0), 0), real(0.5), 1);
        break;
    case Path::Held: {
        const real halves[] = {real(0.1), real(0.5), real(0.1)}, masses[] = {1, 1000, 1};
        real y = 0;
        for (int k = 0; k < 3; ++k) {
            box(w, Vec3(0, y + halves[k], 0), halves[k], masses[k]);
            y += 2 * halves[k] + real(0.02);
        }
        break;
    }
    case Path::Jointed: {
        const BodyId a = box(w, Vec3(0, real(0.25), 0), real(0.25), 2);
        const BodyId b = box(w, Vec3(real(0.6), real(0.3), 0), real(0.25), 5);
        JointDesc j;
        j.a = {a, Vec3(real(0.3), 0, 0)};
        j.b = {b, Vec3(real(-0.3), 0, 0)};
        w.createJoint(j);
        break;
    }
    case Path::Hinged: {
        const BodyId a = box(w, Vec3(0, real(0.25), 0), real(0.25), 4);
        const BodyId b = box(w, Vec3(0, real(0.8), 0), real(0.25), 1);
        JointDesc j;
        j.type = JointType::Hinge;
        j.a = {b, Vec3(real(-0.25), real(-0.3), 0)};
        j.b = {a, Vec3(real(-0.25), real(0.25), 0)};
        j.motion.limited = true;
        j.motion.lower = real(-0.5);
        j.motion.upper = real(0.5);
        j.motion.motor = true;
        j.motion.motorSpeed = 2;
        j.motion.maxMotorForce = 3;
        j.motion.springHertz = 1;
        w.createJoint(j);
        break;
    }
    }
}

const char* nameOf(Path p) {
    return p == Path::Coloured ? "coloured" : p == Path::Held ? "held" : p == Path::Jointed ? "jointed" : "hinged";
}

} // namespace

TEST_CASE("soft step watched: the records step the same bits as a fast step on two threads", "[contact][scene]") {
    for (const Path path : {Path::Coloured, Path::Held, Path::Jointed, Path::Hinged}) {
        INFO(nameOf(path));
        World fast(testing::softSettings(false)), watched(testing::softSettings(false));
        fast.setThreads(2);
        build(fast, path);
        build(watched, path);
        std::vector<ResolutionRecord> records;
        watched.setResolverObserver([&](const ResolutionRecord& r) { records.push_back(r); });
        std::set<ResolutionRecord::Kind> kinds;
        int rows = 0, hingeRows = 0;
        for (int i = 0; i < 90; ++i) {
            fast.step(real(1) / 60);
            watched.step(real(1) / 60);
            REQUIRE(testing::stateHash(fast) == testing::stateHash(watched));
        }
        REQUIRE(!records.empty());
        for (const ResolutionRecord& r : records) {
            kinds.insert(r.kind);
            CHECK(r.substep < static_cast<std::uint32_t>(watched.settings().resolver.soft.jointSubsteps));
            // The coloured path names its colour, block and lane; rows have no colour.
            if (path != Path::Held) CHECK((r.colour != ResolutionRecord::noColour) == (path == Path::Coloured));
            rows += r.colour == ResolutionRecord::noColour ? 1 : 0;
            // A hinge's own rows name their joint and no contact point.
            CHECK(r.points == (r.joint == ResolutionRecord::noJoint ? std::max<std::uint32_t>(r.points, 1) : 0));
            hingeRows += r.joint != ResolutionRecord::noJoint ? 1 : 0;
        }
        CHECK((hingeRows > 0) == (path == Path::Hinged));
        // The sandwich falls together coloured, then is solved as rows once the heavy box rests.
        if (path == Path::Held) CHECK(rows > 0);
        CHECK(kinds.count(ResolutionRecord::Kind::WarmStart) == 1);
        CHECK(kinds.count(ResolutionRecord::Kind::Solve) == 1);
        CHECK(kinds.count(ResolutionRecord::Kind::Relax) == 1);
        CHECK(kinds.count(ResolutionRecord::Kind::Position) == 0);
    }
}

TEST_CASE("soft step watched: each record starts from the velocities its bodies' last record left", "[contact][scene]") {
    for (const Path path : {Path::Coloured, Path::Jointed, Path::Hinged}) {
        INFO(nameOf(path));
        WorldSettings s = testing::softSettings(false);
        s.gyroscopic = GyroscopicMode::None; // the step's end turns no angular velocity after the records
        World w(s);
        build(w, path);
        for (int i = 0; i < 30; ++i) w.step(real(1) / 60); // settled: no body fast enough for its speed to be capped
        std::vector<ResolutionRecord> records;
        w.setResolverObserver([&](const ResolutionRecord& r) { records.push_back(r); });
        w.step(real(1) / 60);
        REQUIRE(records.size() > 20);
        // Within a substep nothing but the records' visits changes a velocity (the
        // kick is at its start, the drift only moves): the chain must be exact.
        struct Last {
            std::uint32_t substep = 0;
            BodyVelocity velocity;
        };
        std::map<std::uint32_t, Last> last;
        int checked = 0;
        for (const ResolutionRecord& r : records)
            for (std::size_t side = 0; side < 2; ++side) {
                const std::uint32_t b = r.body[side];
                if (b == noBody) continue;
                const auto it = last.find(b);
                if (it != last.end() && it->second.substep == r.substep) {
                    CHECK(r.velocityBefore[side].linear == it->second.velocity.linear);
                    CHECK(r.velocityBefore[side].angular == it->second.velocity.angular);
                    ++checked;
                }
                CHECK(r.linearChange[side] == r.velocityAfter[side].linear - r.velocityBefore[side].linear);
                last[b] = {r.substep, r.velocityAfter[side]};
            }
        CHECK(checked > 20);
        // And the last record of each body leaves the velocity the step ends with.
        for (const BodyId id : w.bodyIds()) {
            const BodyState b = w.body(id);
            if (!b.isDynamic()) continue;
            REQUIRE(last.count(id.index) == 1);
            CHECK(last[id.index].velocity.linear == b.linearVelocity);
            CHECK(last[id.index].velocity.angular == b.angularVelocity);
        }
    }
}

TEST_CASE("soft step watched: the records' impulses are the resting bodies' weight times the step", "[contact][scene]") {
    // Bodies resting on the floor: the impulses the records report on them over a step
    // (warm starts, solves, relaxes, joint points; between two of them the push on one
    // and on the other cancel) are their change of momentum less gravity's,
    // sum m (v1 - v0) - sum m g dt, and at rest that is the floor's: their weight times dt.
    for (const Path path : {Path::Coloured, Path::Jointed}) {
        INFO(nameOf(path));
        World w(testing::softSettings(false));
        const real dt = real(1) / 60;
        build(w, path);
        for (int i = 0; i < 60; ++i) w.step(dt);
        std::set<std::uint32_t> mine;
        std::map<std::uint32_t, std::pair<real, Vec3>> before; // mass, velocity
        for (const BodyId id : w.bodyIds()) {
            const BodyState b = w.body(id);
            if (!b.isDynamic()) continue;
            mine.insert(id.index);
            before[id.index] = {b.mass, b.linearVelocity};
        }
        Vec3 impulse = Vec3::Zero();
        w.setResolverObserver([&](const ResolutionRecord& r) {
            for (std::size_t side = 0; side < 2; ++side)
                if (mine.count(r.body[side]) == 1) impulse += side == 0 ? r.impulseWorld : Vec3(-r.impulseWorld);
        });
        w.step(dt);
        const Vec3 gravity = w.settings().gravity;
        Vec3 expected = Vec3::Zero();
        real mass = 0;
        for (const BodyId id : w.bodyIds()) {
            if (mine.count(id.index) == 0) continue;
            const auto& [m, v0] = before[id.index];
            expected += m * (w.body(id).linearVelocity - v0) - m * gravity * dt;
            mass += m;
        }
        INFO("records' impulse " << impulse.transpose() << ", momentum less gravity's " << expected.transpose());
        CHECK((impulse - expected).norm() < 1e-6 * expected.norm() + 1e-9);
        CHECK(impulse.y() == Approx(mass * gravity.norm() * dt).epsilon(0.02));
    }
}

TEST_CASE("resolver records carry their bodies' velocities before and after", "[contact][scene]") {
    World w;
    testing::useResolver(w);
    build(w, Path::Coloured);
    std::vector<ResolutionRecord> records;
    w.setResolverObserver([&](const ResolutionRecord& r) { records.push_back(r); });
    for (int i = 0; i < 10; ++i) w.step(real(1) / 60);
    int velocity = 0;
    for (const ResolutionRecord& r : records) {
        CHECK(r.colour == ResolutionRecord::noColour);
        for (std::size_t side = 0; side < 2; ++side) {
            if (r.kind == ResolutionRecord::Kind::Position) {
                CHECK(r.velocityAfter[side].linear == r.velocityBefore[side].linear);
                continue;
            }
            if (r.body[side] == noBody) continue;
            CHECK(r.velocityAfter[side].linear - r.velocityBefore[side].linear == r.linearChange[side]);
            ++velocity;
        }
    }
    CHECK(velocity > 0);
}
