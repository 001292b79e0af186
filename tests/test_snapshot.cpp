// SPDX-License-Identifier: MIT
// Snapshots (issue 8): World::saveState / restoreState. A restored world must step
// bit-identically to the original (compared as whole blobs, which hold every field a
// step reads), and any damaged, truncated, foreign or forged blob must be rejected with
// the world left exactly as it was.

#include "fp_traps.hpp"
#include "helpers.hpp"
#include "physics/io/archive.hpp"
#include "common/validate.hpp"
#include "physics/world/world_state.hpp"
#include "scenes/scene.hpp"

#include <jounce/deformable/deformable_builders.hpp>
#include <jounce/particles/particle_builders.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <stdexcept>

using namespace jounce;
using namespace testing;

namespace {

using Bytes = std::vector<std::uint8_t>;

/// The header's layout (physics/io/snapshot.cpp): magic, version, real size, byte order,
/// payload length, checksum.
constexpr std::size_t versionAt = 8, realBytesAt = 12, checksumAt = 25, headerBytes = 33;

/// Recomputes a blob's checksum after its payload was changed on purpose, so the
/// structural checks behind the checksum get tested too.
void reseal(Bytes& blob) {
    const std::uint64_t sum = detail::fnv1a(std::span<const std::uint8_t>(blob).subspan(headerBytes));
    std::memcpy(blob.data() + checksumAt, &sum, sizeof sum);
}

/// Steps two worlds side by side and requires equal blobs after every step.
void requireLockstep(World& a, World& b, int steps, real dt, int substeps) {
    for (int s = 0; s < steps; ++s) {
        a.step(dt, substeps);
        b.step(dt, substeps);
        const bool equal = a.saveState() == b.saveState();
        if (!equal) FAIL("the restored world drifted from the original at step " << s + 1);
    }
}

/// A small world with one of nearly everything: boxes, a ball, a hull, a joint, a
/// spring, a sensor, a rope of particles hanging on a body.
/// `good` with `value` written at byte `at` and resealed, restored into a new world;
/// null when restoreState rejects it.
std::unique_ptr<World> restoreWith(const Bytes& good, std::size_t at, real value) {
    Bytes forged = good;
    std::memcpy(forged.data() + at, &value, sizeof value);
    reseal(forged);
    auto target = std::make_unique<World>();
    try {
        target->restoreState(forged);
    } catch (const Error&) {
        return nullptr;
    }
    return target;
}

World smallMixedWorld() {
    World w;
    addGround(w);
    BodyDesc sensor;
    sensor.type = BodyType::Static;
    sensor.position = Vec3(0, 1, 0);
    ColliderDesc zone;
    zone.shape = Box{Vec3(2, 1, 2)};
    zone.sensor = true;
    sensor.colliders.push_back(zone);
    w.createBody(sensor);
    std::vector<BodyId> boxes;
    for (int i = 0; i < 3; ++i) {
        BodyDesc box;
        box.position = Vec3(real(0.1) * i, real(0.5) + real(1.05) * i, 0);
        box.colliders.push_back({Box{Vec3::Constant(real(0.5))}, Transform{}, 500, {}, {}});
        box.massFromColliders = true;
        boxes.push_back(w.createBody(box));
    }
    const std::vector<Vec3> rock = {{0, 0, 0}, {real(0.6), 0, 0}, {0, real(0.5), 0}, {0, 0, real(0.4)}, {real(0.3), real(0.4), real(0.3)}};
    BodyDesc hull;
    hull.position = Vec3(2, 2, 0);
    hull.colliders.push_back({makeConvexHull(rock), Transform{}, 800, {}, {}});
    hull.massFromColliders = true;
    const BodyId hullBody = w.createBody(hull);
    JointDesc joint;
    joint.type = JointType::Ball;
    joint.a = {boxes[2], Vec3(real(0.5), real(0.5), 0)};
    joint.b = {hullBody, Vec3::Zero()};
    w.createJoint(joint);
    w.createForceGenerator(Spring{{boxes[1], Vec3::Zero()}, {BodyId{}, Vec3(-2, 3, 0)}, 50, 1, 2});
    ParticleId previous{};
    for (int i = 0; i < 8; ++i) {
        ParticleDesc p;
        p.position = Vec3(-2, real(4) - real(0.1) * i, 0);
        p.mass = real(0.05);
        p.pinned = i == 0;
        p.radius = real(0.03);
        const ParticleId id = w.createParticle(p);
        if (i > 0) w.createDistanceConstraint({previous, id, -1, 0});
        previous = id;
    }
    return w;
}

/// A contact filter that throws the second time it sees a pair: the step fails in its
/// second substep, after the first has changed bodies, contacts and boxes.
void failInSecondSubstep(World& w) {
    auto seen = std::make_shared<std::vector<std::pair<ColliderId, ColliderId>>>();
    w.setContactFilter([seen](ColliderId a, ColliderId b) {
        if (std::find(seen->begin(), seen->end(), std::pair{a, b}) != seen->end())
            throw std::runtime_error("second substep");
        seen->emplace_back(a, b);
        return true;
    });
}

} // namespace

TEST_CASE("a snapshot restored into a new world steps in lockstep with the original", "[physics][scene]") {
    // One built-in scene per kind of state: hulls and meshes, joints, force generators,
    // a balloon (volume), shape matching (clusters), a rope bridge (attachments),
    // deformables, cables and rods.
    for (const char* name : {"contacts", "ragdolls", "springs", "balloon", "blob", "ropebridge", "arap_fall", "bridge"}) {
        INFO(name);
        auto scene = scenes::makeScene(name);
        // 300 steps, then 300 in lockstep (10 and 10 under the sanitizers, ~10-40x slower).
        const int steps = testing::sanitizedStepDivisor > 1 ? 10 : 300;
        for (int s = 0; s < steps; ++s) scene->step();
        const Bytes blob = scene->world().saveState();
        World copy;
        copy.restoreState(blob);
        CHECK(copy.saveState() == blob);
        CHECK(stateHash(copy) == stateHash(scene->world()));
        requireLockstep(scene->world(), copy, steps, scene->timeStep(), scene->substeps());
    }
}

TEST_CASE("heavier scenes stay in lockstep too (hierarchical cloth, surfaces, the mixed scene)", "[physics][scene]") {
    for (const char* name : {"cloth", "folds", "mixed"}) {
        INFO(name);
        auto scene = scenes::makeScene(name);
        const bool sanitized = testing::sanitizedStepDivisor > 1; // ~10x slower there
        for (int s = 0; s < (sanitized ? 10 : 30); ++s) scene->step();
        World copy;
        copy.restoreState(scene->world().saveState());
        requireLockstep(scene->world(), copy, sanitized ? 8 : 20, scene->timeStep(), scene->substeps());
    }
}

TEST_CASE("restoring in place brings back the state, the handles and the event state", "[physics]") {
    World w = smallMixedWorld();
    for (int s = 0; s < 40; ++s) w.step(real(1) / 60);
    const Bytes blob = w.saveState();
    const std::uint64_t hash = stateHash(w);
    World reference;
    reference.restoreState(blob);

    // Change everything: step on, destroy and create things.
    const std::vector<BodyId> ids = w.bodyIds();
    for (int s = 0; s < 25; ++s) w.step(real(1) / 60);
    w.destroyBody(ids.back());
    w.createParticle(ParticleDesc{});
    REQUIRE(stateHash(w) != hash);

    w.restoreState(blob);
    CHECK(stateHash(w) == hash);
    CHECK(w.saveState() == blob);
    for (const BodyId id : ids) CHECK(w.contains(id)); // handles name the same objects again
    // The slots freed and the generations bumped since are back as they were: the next
    // body gets the handle it would have got in the original.
    BodyDesc extra;
    extra.position = Vec3(5, 1, 0);
    extra.colliders.push_back({Sphere{real(0.2)}, Transform{}, 1000, {}, {}});
    CHECK(w.createBody(extra) == reference.createBody(extra));
    requireLockstep(w, reference, 120, real(1) / 60, 1);
}

TEST_CASE("event state survives a snapshot: no second begin for pairs already touching", "[physics]") {
    World w = smallMixedWorld();
    WorldSettings settings = w.settings();
    settings.sleep.enabled = false; // asleep, a resting pair reports nothing
    w.setSettings(settings);
    for (int s = 0; s < 60; ++s) w.step(real(1) / 60);
    REQUIRE(!w.contactEvents().persist.empty()); // the boxes rest on each other
    REQUIRE(!w.sensorEvents().overlaps.empty()); // and in the sensor
    World copy;
    copy.restoreState(w.saveState());
    w.step(real(1) / 60);
    copy.step(real(1) / 60);
    CHECK(copy.contactEvents().begin.size() == w.contactEvents().begin.size());
    CHECK(copy.contactEvents().persist.size() == w.contactEvents().persist.size());
    CHECK(copy.sensorEvents().begin.size() == w.sensorEvents().begin.size());
    CHECK(copy.sensorEvents().overlaps.size() == w.sensorEvents().overlaps.size());
}

TEST_CASE("a snapshot keeps the sleep settings and the particles' rigid sweeps and lines", "[physics]") {
    World w = smallMixedWorld();
    WorldSettings s = w.settings();
    s.sleep.sleepThreshold = real(0.07);
    s.sleep.motionBias = real(0.25);
    s.sleep.motionCap = real(7);
    s.particles.rigidSweeps = 3;
    s.particles.solveLines = false;
    w.setSettings(s);
    World copy;
    copy.restoreState(w.saveState());
    CHECK(copy.settings().sleep.sleepThreshold == s.sleep.sleepThreshold);
    CHECK(copy.settings().sleep.motionBias == s.sleep.motionBias);
    CHECK(copy.settings().sleep.motionCap == s.sleep.motionCap);
    CHECK(copy.settings().particles.rigidSweeps == 3);
    CHECK(!copy.settings().particles.solveLines);
}

TEST_CASE("callbacks stay with the world that restores", "[physics]") {
    World w = smallMixedWorld();
    const Bytes blob = w.saveState();
    int calls = 0;
    int modified = 0;
    w.setContactFilter([&calls](ColliderId, ColliderId) {
        ++calls;
        return true;
    });
    w.setContactModifier([&modified](ContactModification&) { ++modified; });
    int records = 0;
    w.setResolverObserver([&records](const ResolutionRecord&) { ++records; });
    w.setThreads(2);
    w.restoreState(blob);
    CHECK(w.threads() == 2); // restoreState once dropped the pool
    w.step(real(1) / 60);
    CHECK(calls > 0);
    CHECK(modified > 0); // the modifier too (restoreState dropped it once)
    CHECK(records > 0);  // and the soft step's observer
}

TEST_CASE("truncated, damaged, foreign and wrong-version snapshots are rejected and change nothing", "[physics]") {
    World w = smallMixedWorld();
    for (int s = 0; s < 30; ++s) w.step(real(1) / 60);
    const Bytes good = w.saveState();
    World target = smallMixedWorld();
    target.step(real(1) / 60);
    const Bytes before = target.saveState();
    auto rejected = [&](const Bytes& blob, const char* what) {
        INFO(what);
        try {
            target.restoreState(blob);
            FAIL("accepted");
        } catch (const Error& e) {
            CHECK(e.field() == "restoreState.blob");
        }
        REQUIRE(target.saveState() == before);
    };

    rejected({}, "empty");
    for (const std::size_t n : {std::size_t(5), headerBytes - 1, headerBytes, good.size() / 2, good.size() - 1})
        rejected(Bytes(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(n)), "truncated");
    Bytes padded = good;
    padded.push_back(0);
    rejected(padded, "padded");
    Bytes magic = good;
    magic[0] = 'X';
    rejected(magic, "magic");
    Bytes version = good;
    version[versionAt] += 1;
    rejected(version, "version");
    Bytes precision = good;
    precision[realBytesAt] = isDouble ? 4 : 8;
    rejected(precision, "real size");
    // Every single-bit flip in the payload changes its FNV-1a checksum: sample 300.
    std::mt19937 random(7);
    for (int k = 0; k < 300; ++k) {
        Bytes flipped = good;
        const std::size_t at = headerBytes + random() % (good.size() - headerBytes);
        flipped[at] ^= static_cast<std::uint8_t>(1u << (random() % 8));
        rejected(flipped, "bit flip");
    }
    target.restoreState(good); // and a good one is still accepted afterwards
    CHECK(target.saveState() == good);
}

TEST_CASE("a forged snapshot cannot give a deformable non-finite skinned vertices (fuzz finding)", "[physics]") {
    // fuzz_snapshot: rest vertices, rest positions, skinning weights and angular
    // velocities were not checked, so a resealed blob could restore a deformable whose
    // drawn vertices are NaN. Every payload position in turn gets a NaN (every fifth
    // under the sanitizers).
    World w;
    ArapBarDesc bar;
    bar.particles = 2;
    buildArapBar(w, bar);
    w.step(real(1) / 60);
    const Bytes good = w.saveState();
    const real nan = std::numeric_limits<real>::quiet_NaN();
    int accepted = 0, notFinite = 0;
    for (std::size_t at = headerBytes; at + sizeof nan <= good.size(); at += testing::sanitizedStepDivisor) {
        const std::unique_ptr<World> target = restoreWith(good, at, nan);
        if (!target) continue;
        ++accepted;
        for (const DeformableId id : target->deformableIds())
            for (const Vec3& v : target->deformableVertices(id)) notFinite += !v.allFinite();
    }
    INFO("accepted " << accepted);
    CHECK(notFinite == 0);
}

TEST_CASE("a forged snapshot cannot bring in a speed the setters refuse (fuzz finding 8)", "[physics]") {
    // fuzz_snapshot: a resealed blob restored a body spinning at 1e228 rad/s, finite, so
    // accepted; its orientation left unit length in the next step.
    World w;
    BodyDesc d;
    d.colliders.push_back(makeCollider(Sphere{real(0.5)}, 1000));
    const BodyId id = w.createBody(d);
    const real marker = real(7.25); // a value found once in the blob: the spin's z
    w.setAngularVelocity(id, Vec3(0, 0, marker));
    const Bytes good = w.saveState();
    std::size_t found = 0, at = 0;
    for (std::size_t k = headerBytes; k + sizeof marker <= good.size(); ++k)
        if (std::memcmp(good.data() + k, &marker, sizeof marker) == 0) {
            ++found;
            at = k;
        }
    REQUIRE(found == 1);
    Bytes forged = good;
    const real absurd = real(1e30); // > maxSpeed (1e6), finite in float too
    std::memcpy(forged.data() + at, &absurd, sizeof absurd);
    reseal(forged);
    World target;
    target.createBody(d);
    const Bytes before = target.saveState();
    CHECK_THROWS_WITH(target.restoreState(forged), Catch::Contains("angularVelocity") && Catch::Contains("maxSpeed"));
    CHECK(target.saveState() == before);
}

TEST_CASE("a step that fails leaves the whole state as it was, bit for bit (fuzz finding 9)", "[physics]") {
    // The all-or-nothing rule held for bodies, joints, particles and deformables; the
    // colliders' broad-phase boxes, the contacts and warm-start cache, the sleeping
    // links and the events of the step before were left as the failed step made them.
    World w = smallMixedWorld();
    for (int s = 0; s < 30; ++s) w.step(real(1) / 60);
    REQUIRE_FALSE(w.contacts().empty());
    // The game's contact filter throws in the second substep, after the first has
    // changed all of that (a step's overflow took the same way out before masses were
    // bounded).
    failInSecondSubstep(w);
    const Bytes before = w.saveState();
    CHECK_THROWS_WITH(w.step(real(1) / 60, 2), "second substep");
    CHECK(w.saveState() == before);
}

TEST_CASE("a forged snapshot cannot bring in a huge value anywhere (fuzz finding 10)", "[physics]") {
    // fuzz_snapshot: one entry of a box's world-frame inverse inertia forged to 5e41
    // (finite, so accepted) threw the box to 1e120 m in one step. Every real in the
    // payload of a box on the ground jointed to a sphere, and a deformable bar, in turn
    // becomes 1e30 (every
    // fifth position under the sanitizers): the blob is rejected, or the world steps
    // (a step may flag a blow-up) and keeps what a step promises: everything finite,
    // orientations unit, no speed above maxSpeed, and nothing thrown far past where
    // restoreState lets things be (1e9 m). Accepted values may still be absurd: a forged
    // mass of 1e-30 kg is one createBody takes too (that box flies off its joint), and
    // a body restored 1e6 m from the one it is jointed to is pulled there by projection.
    World w;
    addGround(w);
    BodyDesc box;
    box.position = Vec3(0, real(0.5), 0);
    box.colliders.push_back(makeCollider(Box{Vec3::Constant(real(0.5))}, 500));
    box.massFromColliders = true;
    const BodyId boxId = w.createBody(box);
    BodyDesc ball;
    ball.position = Vec3(real(1.2), real(0.5), 0);
    ball.colliders.push_back(makeCollider(Sphere{real(0.5)}, 500));
    ball.massFromColliders = true;
    const BodyId ballId = w.createBody(ball);
    JointDesc joint;
    joint.type = JointType::Ball;
    joint.a = {boxId, Vec3(real(0.6), 0, 0)};
    joint.b = {ballId, Vec3(real(-0.6), 0, 0)};
    w.createJoint(joint);
    ArapBarDesc bar; // and a deformable bar falling beside them (fuzz finding 11: its skinning)
    bar.start = Vec3(-2, 1, 0);
    bar.particles = 2;
    buildArapBar(w, bar);
    w.setSettings([&] {
        WorldSettings s = w.settings();
        s.sleep.enabled = false; // the contacts and the warm-start cache stay in the blob
        return s;
    }());
    for (int s = 0; s < 30; ++s) w.step(real(1) / 60);
    const Bytes good = w.saveState();
    const real huge = real(1e30);
    int accepted = 0, flagged = 0, bad = 0;
    for (std::size_t at = headerBytes; at + sizeof huge <= good.size(); at += testing::sanitizedStepDivisor) {
        const std::unique_ptr<World> restored = restoreWith(good, at, huge);
        if (!restored) continue;
        World& target = *restored;
        ++accepted;
        try {
            for (int s = 0; s < 3; ++s) target.step(real(1) / 60);
        } catch (const Error&) {
            ++flagged;
        }
        const real far = 2 * 1000 * detail::maxCoordinate; // twice what restoreState takes
        for (const BodyId id : target.bodyIds()) {
            const BodyState b = target.body(id);
            const bool ok = isFinite(b.position) && b.position.norm() <= far &&
                            std::abs(b.orientation.norm() - 1) < real(1e-3) &&
                            b.linearVelocity.norm() <= detail::maxSpeed && b.angularVelocity.norm() <= detail::maxSpeed;
            if (!ok) {
                UNSCOPED_INFO("1e30 at payload byte " << at - headerBytes << ": body " << id.index << " at "
                                                       << b.position.transpose() << ", |q| " << b.orientation.norm());
                ++bad;
            }
        }
        for (const DeformableId id : target.deformableIds())
            for (const Vec3& v : target.deformableVertices(id))
                if (!isFinite(v) || v.norm() > far) {
                    UNSCOPED_INFO("1e30 at payload byte " << at - headerBytes << ": a deformable vertex at " << v.transpose());
                    ++bad;
                }
    }
    INFO("accepted " << accepted << ", of which " << flagged << " flagged by a step");
    CHECK(accepted > 0);
    CHECK(bad == 0);
}

TEST_CASE("forged snapshots (valid checksum, wrong contents) are rejected or stay finite", "[physics]") {
    // Each payload byte in turn replaced and the checksum recomputed: the loader must
    // reject the blob with jounce::Error, or accept a world that steps without reading
    // out of bounds (the sanitizer build checks that) and stays finite or says why not.
    World w = smallMixedWorld();
    for (int s = 0; s < 30; ++s) w.step(real(1) / 60);
    const Bytes good = w.saveState();
    int accepted = 0, rejected = 0;
    // Every third byte (every seventh under the sanitizers, ~10x slower).
    const std::size_t stride = testing::sanitizedStepDivisor > 1 ? 7 : 3;
    for (std::size_t at = headerBytes; at < good.size(); at += stride) {
        Bytes forged = good;
        forged[at] ^= 0xA5;
        reseal(forged);
        World target;
        try {
            target.restoreState(forged);
        } catch (const Error&) {
            ++rejected;
            continue;
        }
        ++accepted;
        // A forged blob may hold absurd but finite values (an exponent bit flipped) that
        // overflow once stepped; the step's own check reports that. This test is about
        // memory safety (no read out of bounds), so the traps are off while it steps.
        const FpTrapsOff absurdButFiniteValues;
        try {
            for (int s = 0; s < 3; ++s) target.step(real(1) / 60);
        } catch (const Error&) {
            // an absurd but finite value may overflow a step: reported, world restored
        }
        for (const BodyId id : target.bodyIds()) REQUIRE(target.body(id).position.allFinite());
    }
    INFO("accepted " << accepted << ", rejected " << rejected);
    CHECK(rejected > 0);
    CHECK(accepted > 0);
}

// ---- The state declared once (World::visitState, physics/world/world_state.hpp) ------------

namespace {

/// A state of its own, declared the way World::visitState declares the world's: the
/// tools that serve the world's snapshot, backup and hash run on it unchanged. `added`
/// stands for the member someone adds to a declaration.
struct SmallState {
    std::vector<real> positions;
    std::uint32_t settings = 0;
    real added = 0;

    template <class Self, class Visitor> static void visitState(Self& s, Visitor&& v) {
        v("positions", s.positions, detail::Step::changes);
        v("settings", s.settings, detail::Step::keeps);
        v("added", s.added, detail::Step::changes);
    }
};

const char* stepText(detail::Step step) {
    switch (step) {
    case detail::Step::keeps: return "keeps";
    case detail::Step::changes: return "changes";
    case detail::Step::rebuilds: return "rebuilds";
    case detail::Step::reports: return "reports";
    }
    return "?";
}

/// A state's payload as the snapshot writes it, and the hash the tests take of it
/// (stateHash hashes the world's blob the same way).
Bytes payloadOf(const SmallState& s) {
    detail::ByteWriter out;
    detail::writeState(out, s);
    return out.take();
}
std::uint64_t hashOf(const SmallState& s) { return detail::fnv1a(payloadOf(s)); }

} // namespace

TEST_CASE("a member added to a state declaration is saved, restored, hashed and backed up", "[physics]") {
    SmallState s;
    s.positions = {1, 2, 3};
    s.settings = 7;
    s.added = real(0.25);

    // Saved and restored: the payload brings it back into a state that held another value.
    const Bytes payload = payloadOf(s);
    SmallState restored;
    restored.added = 99;
    detail::ByteReader in(payload);
    detail::readState(in, restored);
    CHECK(in.remaining() == 0);
    CHECK(restored.positions == s.positions);
    CHECK(restored.settings == s.settings);
    CHECK(restored.added == s.added);

    // Hashed: a change of its last bit changes the hash.
    SmallState perturbed = s;
    perturbed.added = std::nextafter(s.added, real(1));
    CHECK(hashOf(perturbed) != hashOf(s));

    // Backed up: a failed "step" that changed it gets it back. A member the declaration
    // says a step keeps is not copied (the backup costs only what a step changes).
    detail::StepBackup backup;
    backup.save(s);
    s.positions[1] = -5;
    s.added = -1;
    s.settings = 8;
    backup.restore(s);
    CHECK(s.positions == std::vector<real>{1, 2, 3});
    CHECK(s.added == real(0.25));
    CHECK(s.settings == 8);
    // The next save copies into the same copies.
    s.added = real(0.5);
    backup.save(s);
    s.added = 3;
    backup.restore(s);
    CHECK(s.added == real(0.5));
}

TEST_CASE("the body backup leaves out only what no step writes", "[physics][scene]") {
    // A step backs up a body's motion alone (detail::Saved<SlotArray<Body>>): its mass,
    // settings and flags must never change in a step. Each step of a busy world (stacked
    // boxes falling asleep, a joint, a spring, user forces, a kinematic body moved to its
    // targets, a fast body swept, a dead slot), the backup put back over the stepped
    // bodies must give the bodies before the step, bit for bit.
    World w = smallMixedWorld();
    BodyDesc pusher;
    pusher.type = BodyType::Kinematic;
    pusher.position = Vec3(-3, real(0.5), 0);
    pusher.colliders.push_back({Box{Vec3::Constant(real(0.3))}, Transform{}, 1000, {}, {}});
    const BodyId kinematic = w.createBody(pusher);
    BodyDesc dart;
    dart.position = Vec3(3, 6, 0);
    dart.linearVelocity = Vec3(0, -40, 0);
    dart.bullet = true;
    dart.colliders.push_back({Sphere{real(0.05)}, Transform{}, 1000, {}, {}});
    const BodyId fast = w.createBody(dart);
    BodyDesc resting; // on the ground: it falls asleep within the steps checked
    resting.position = Vec3(0, real(0.25), 3);
    resting.colliders.push_back({Box{Vec3::Constant(real(0.25))}, Transform{}, 1000, {}, {}});
    const BodyId sleeper = w.createBody(resting);
    BodyDesc gone;
    gone.colliders.push_back({Sphere{real(0.2)}, Transform{}, 1000, {}, {}});
    w.destroyBody(w.createBody(gone));
    const auto visitBodies = [&](auto&& f) {
        detail::StateAccess::visit(w, [&](const char*, auto& member, detail::Step) {
            if constexpr (std::is_same_v<std::remove_cvref_t<decltype(member)>, SlotArray<Body, BodyTag>>) f(member);
        });
    };
    const auto bodyBytes = [&] {
        for (const detail::StateMember& m : detail::stateMembers(w))
            if (std::string(m.name) == "bodies") return m.bytes;
        return Bytes{};
    };
    int moved = 0, wrong = 0, asleep = 0;
    for (int s = 0; s < 150; ++s) {
        w.applyForce(fast, Vec3(real(0.1), 0, 0)); // a user force, kept for the whole step
        const Bytes before = bodyBytes();
        detail::Saved<SlotArray<Body, BodyTag>> saved;
        visitBodies([&](const SlotArray<Body, BodyTag>& bodies) { saved.save(bodies); });
        w.moveKinematic(kinematic, Transform{Vec3(real(-3) + real(0.02) * s, real(0.5), 0), Quat(Eigen::AngleAxis<real>(real(0.01) * s, Vec3::UnitY()))});
        w.step(real(1) / 60);
        const Bytes stepped = bodyBytes();
        moved += stepped != before ? 1 : 0;
        SlotArray<Body, BodyTag> keep;
        visitBodies([&](SlotArray<Body, BodyTag>& bodies) {
            keep = bodies;
            saved.restore(bodies);
        });
        wrong += bodyBytes() == before ? 0 : 1;
        visitBodies([&](SlotArray<Body, BodyTag>& bodies) { bodies = keep; });
        asleep += w.body(sleeper).awake ? 0 : 1;
    }
    CHECK(moved == 150);
    CHECK(wrong == 0);
    CHECK(asleep > 0);
    CHECK(w.body(fast).position.y() < 1); // it came down, swept
}

TEST_CASE("the particle layer's backup puts back an empty layer's numbers and a full layer whole", "[physics][particles]") {
    // A step backs up the particle layer (detail::Saved<ParticleSystem>) whole, but only
    // its numbers while it holds nothing at all. Each step of a world of boxes, then of
    // the same with a rope, the layer's numbers are changed after the step (standing in
    // for a step that writes them) and the backup put back over it must give the layer
    // before the step, bit for bit.
    World w;
    addGround(w);
    for (int i = 0; i < 3; ++i) w.createBody(boxDesc(Vec3::Constant(real(0.5)), 500, Vec3(0, real(0.5) + real(1.05) * i, 0)));
    const auto visitParticles = [&](auto&& f) {
        detail::StateAccess::visit(w, [&](const char*, auto& member, detail::Step) {
            if constexpr (std::is_same_v<std::remove_cvref_t<decltype(member)>, ParticleSystem>) f(member);
        });
    };
    const auto particleBytes = [&] {
        for (const detail::StateMember& m : detail::stateMembers(w))
            if (std::string(m.name) == "particles") return m.bytes;
        return Bytes{};
    };
    detail::Saved<ParticleSystem> saved; // one copy reused over the steps, as the world's own
    int wrong = 0, moved = 0;
    for (int s = 0; s < 40; ++s) {
        if (s == 20) {
            RopeDesc rope;
            rope.from = Vec3(-1, 3, 2);
            rope.to = Vec3(1, 3, 2);
            rope.segments = 8;
            buildRope(w, rope);
        }
        const Bytes before = particleBytes();
        visitParticles([&](const ParticleSystem& ps) { saved.save(ps); });
        w.step(real(1) / 60);
        ParticleSystem keep;
        visitParticles([&](ParticleSystem& ps) {
            keep = ps;
            ps.topologyVersion += 3;
            ps.freeGroups.builtFor = 11;
            ps.groupsIssued += 5;
            ps.lastSubstep = real(0.25);
        });
        moved += particleBytes() != before ? 1 : 0;
        visitParticles([&](ParticleSystem& ps) { saved.restore(ps); });
        wrong += particleBytes() == before ? 0 : 1;
        visitParticles([&](ParticleSystem& ps) { ps = keep; });
    }
    CHECK(moved == 40);
    CHECK(wrong == 0);
}

TEST_CASE("the world's declared members are its whole snapshot, and a failed step puts each back", "[physics]") {
    World w = smallMixedWorld();
    ArapBarDesc bar; // a deformable too
    bar.start = Vec3(-2, 1, 0);
    bar.particles = 2;
    buildArapBar(w, bar);
    for (int s = 0; s < 30; ++s) w.step(real(1) / 60);

    // The members, each named once, written one after the other, are the payload: a
    // member in the declaration is in every snapshot, and so in the tests' state hash.
    const std::vector<detail::StateMember> members = detail::stateMembers(w);
    std::vector<std::string> names;
    Bytes payload;
    for (const detail::StateMember& m : members) {
        names.emplace_back(m.name);
        payload.insert(payload.end(), m.bytes.begin(), m.bytes.end());
    }
    std::sort(names.begin(), names.end());
    CHECK(std::adjacent_find(names.begin(), names.end()) == names.end());
    const Bytes blob = w.saveState();
    CHECK(Bytes(blob.begin() + headerBytes, blob.end()) == payload);

    // A step that fails leaves every member as it was, whichever way the step puts it
    // back (Step): in its first substep (the game's contact filter throws as it is
    // called), or in its second, after the first has moved bodies, particles and the
    // deformable, found contacts (set aside whole at the start) and grown boxes.
    const auto allPutBack = [&] {
        const std::vector<detail::StateMember> after = detail::stateMembers(w);
        REQUIRE(after.size() == members.size());
        for (std::size_t i = 0; i < members.size(); ++i) {
            INFO(members[i].name << " (a step " << stepText(members[i].step) << " it)");
            const bool putBack = after[i].bytes == members[i].bytes;
            CHECK(putBack);
        }
    };
    w.setContactFilter([](ColliderId, ColliderId) -> bool { throw std::runtime_error("first substep"); });
    CHECK_THROWS_WITH(w.step(real(1) / 60), "first substep");
    allPutBack();
    failInSecondSubstep(w);
    CHECK_THROWS_WITH(w.step(real(1) / 60, 2), "second substep");
    allPutBack();
    // And the step after a failure continues from the contacts put back: as a world that
    // never failed does.
    World twin = smallMixedWorld();
    buildArapBar(twin, bar);
    for (int s = 0; s < 30; ++s) twin.step(real(1) / 60);
    w.setContactFilter(nullptr);
    for (int s = 0; s < 3; ++s) {
        w.step(real(1) / 60, 2);
        twin.step(real(1) / 60, 2);
    }
    CHECK(stateHash(w) == stateHash(twin));
}
