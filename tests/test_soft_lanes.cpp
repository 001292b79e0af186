// SPDX-License-Identifier: MIT
// The soft step's coloured SIMD blocks (contact/soft_colours.cpp, soft_block_kernel.hpp):
// every SIMD width the processor has steps the same bits as the scalar kernels, over
// scenes that use every kind of block (1 to 4 points, bouncing lanes, frictionless
// lanes, static sides, and the overflow colour of a body with more manifolds than
// there are colours).

#include "helpers.hpp"

#include <jounce/jounce.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <thread>
#include <vector>

using namespace jounce;

namespace {

BodyId addBody(World& w, const Vec3& at, const Shape& shape, real friction, real restitution,
               const Quat& q = Quat::Identity()) {
    BodyDesc d;
    d.position = at;
    d.orientation = q;
    ColliderDesc c;
    c.shape = shape;
    c.density = 500;
    c.material.friction = friction;
    c.material.restitution = restitution;
    d.colliders.push_back(c);
    return w.createBody(d);
}

/// A dynamic slab carrying 7 x 7 small boxes (50 manifolds on one body: more than the
/// 32 colours, so the rest go to the overflow colour), a pile of tilted boxes and
/// bouncing balls, some frictionless, 10 m away (nothing rolls from it into the slab).
std::vector<BodyId> build(World& w) {
    testing::addGround(w);
    addBody(w, Vec3(0, real(0.1), 0), Box{Vec3(2, real(0.1), 2)}, real(0.6), 0);
    std::vector<BodyId> onSlab;
    for (int i = 0; i < 7; ++i)
        for (int k = 0; k < 7; ++k)
            onSlab.push_back(addBody(w, Vec3(real(-1.5) + real(0.5) * i, real(0.35), real(-1.5) + real(0.5) * k), Box{Vec3::Constant(real(0.15))},
                   (i + k) % 3 == 0 ? 0 : real(0.5), 0));
    testing::Lcg random(7);
    for (int i = 0; i < 40; ++i) {
        const Vec3 at(real(12) + real(0.7) * (i % 4), real(0.5) + real(0.45) * (i / 4), real(0.7) * ((i / 2) % 2));
        const Quat q(Eigen::AngleAxis<real>(random.uniform() + 1, Vec3(random.uniform(), 1, random.uniform()).normalized()));
        if (i % 3 == 2)
            addBody(w, at, Sphere{real(0.2)}, i % 2 ? real(0.4) : 0, real(0.6));
        else
            addBody(w, at, Box{Vec3(real(0.3), real(0.15), real(0.2))}, real(0.5), i % 5 == 0 ? real(0.3) : 0, q);
    }
    return onSlab;
}

/// build() and 1000 balls in a touching heap beside it: enough pairs, contacts and manifolds
/// (hundreds of blocks) that the narrow phase, the preparation and the coloured passes
/// are all shared among threads (each has a least amount of work below which it stays
/// on one thread).
void buildHeap(World& w) {
    build(w);
    for (int i = 0; i < 1000; ++i) {
        const Vec3 at(real(-3) + real(0.395) * (i % 10), real(0.2) + real(0.395) * (i / 100), real(-8) + real(0.395) * ((i / 10) % 10));
        addBody(w, at, Sphere{real(0.2)}, real(0.5), i % 7 == 0 ? real(0.4) : 0);
    }
}

std::uint64_t stepWith(std::uint32_t threads, int steps) {
    World w(testing::softSettings(false));
    w.setThreads(threads);
    buildHeap(w);
    for (int i = 0; i < steps; ++i) w.step(real(1) / 60);
    INFO(w.contacts().size() << " manifolds, " << w.resolvedContacts().size() << " points");
    CHECK(w.resolvedContacts().size() > 2048); // beyond every threshold for sharing out the work
    return testing::stateHash(w);
}

/// build() and sixteen heaps of 54 balls, 3 m apart: islands enough, and even enough, for
/// the coloured blocks to be cut into shards of whole islands, one per worker (2, 3 or 4),
/// from the first step on.
struct Sharded {
    std::uint64_t hash = 0;
    int shards = 0;
};
Sharded stepIslands(std::uint32_t threads, int steps) {
    World w(testing::softSettings(false));
    w.setThreads(threads);
    build(w);
    for (int heap = 0; heap < 16; ++heap)
        for (int i = 0; i < 54; ++i) {
            const Vec3 at(real(-20) + real(3) * (heap % 4) + real(0.395) * (i % 6), real(0.2) + real(0.395) * (i / 18),
                          real(-14) - real(3) * (heap / 4) + real(0.395) * ((i / 6) % 3));
            addBody(w, at, Sphere{real(0.2)}, real(0.5), i % 9 == 0 ? real(0.4) : 0);
        }
    for (int i = 0; i < steps; ++i) w.step(real(1) / 60);
    return {testing::stateHash(w), w.resolverStats().shards};
}

std::uint64_t stepAt(SimdLevel level, int steps) {
    limitSimd(level);
    World w(testing::softSettings(false));
    build(w);
    for (int i = 0; i < steps; ++i) w.step(real(1) / 60);
    limitSimd(SimdLevel::Avx2);
    return testing::stateHash(w);
}

} // namespace

TEST_CASE("soft step: every SIMD width steps the same bits as the scalar kernels", "[contact][scene]") {
    const SimdLevel best = simdLevel();
    INFO("this processor: " << simdName(best));
#if defined(__x86_64__)
    CHECK(best >= SimdLevel::Sse2); // every x86-64 has SSE2
#endif
    const int steps = 150 / testing::sanitizedStepDivisor;
    const std::uint64_t scalar = stepAt(SimdLevel::Scalar, steps);
    for (SimdLevel level = SimdLevel::Sse2; level <= best; level = static_cast<SimdLevel>(static_cast<int>(level) + 1)) {
        INFO("width " << simdName(level));
        CHECK(stepAt(level, steps) == scalar);
    }
    CHECK(simdLevel() == best); // the cap is lifted again
}

TEST_CASE("soft step: boxes on a slab with more manifolds than colours rest on it", "[contact][scene]") {
    // The slab's 50 manifolds: 32 colours, the rest solved one after the other in the
    // overflow colour. All must hold: no box sinks into the slab or slides off.
    World w(testing::softSettings(false));
    const std::vector<BodyId> small = build(w);
    for (int i = 0; i < 120; ++i) w.step(real(1) / 60);
    for (const BodyId b : small) {
        const BodyState s = w.body(b);
        INFO("box at " << s.position.transpose());
        CHECK(std::abs(s.position.y() - real(0.35)) < real(0.005)); // rests on the slab, within the soft contacts' sag
        CHECK(s.linearVelocity.norm() < real(0.01));
    }
}

TEST_CASE("soft step: 1, 2, 3, 4 and 8 threads step the same bits", "[contact][scene]") {
    const int steps = 60 / testing::sanitizedStepDivisor;
    const std::uint64_t one = stepWith(1, steps);
    for (const std::uint32_t threads : {2u, 3u, 4u, 8u}) {
        INFO(threads << " threads");
        CHECK(stepWith(threads, steps) == one);
    }
}

TEST_CASE("soft step: islands shared out whole among 2, 3 and 4 threads step the same bits as one", "[contact][scene]") {
    // Each worker solves a shard of whole islands from its bodies' start to its
    // impulses' store; the colours, the blocks' lanes and each body's visits are the same
    // as on one thread, so the bits are too. (With more workers than the islands can be
    // cut evenly for, the colours are shared among the workers instead: the same bits.)
    const int steps = 40 / testing::sanitizedStepDivisor;
    const Sharded one = stepIslands(1, steps);
    CHECK(one.shards == 1);
    for (const std::uint32_t threads : {2u, 3u, 4u, 8u}) {
        INFO(threads << " threads");
        const Sharded many = stepIslands(threads, steps);
        CHECK(many.hash == one.hash);
        UNSCOPED_INFO("shards " << many.shards);
        if (threads <= 4) CHECK((many.shards == static_cast<int>(2 * threads) || many.shards == static_cast<int>(threads)));
        if (threads == 2) CHECK(many.shards == 4); // two a worker
    }
}

TEST_CASE("thread counts are validated", "[physics]") {
    World w(testing::softSettings(false));
    const BodyId ball = addBody(w, Vec3(0, 1, 0), Sphere{real(0.2)}, real(0.5), 0);
    for (const std::uint32_t bad : {0u, 257u, 100000u}) {
        INFO("threads " << bad);
        CHECK_THROWS_WITH(w.setThreads(bad), Catch::Contains("threads"));
        CHECK(w.threads() == 1);
    }
    w.setThreads(3);
    CHECK(w.threads() == 3);
    w.setThreads(1);
    CHECK(w.threads() == 1);
    w.step(real(1) / 60);
    CHECK(w.body(ball).position.y() < 1);
}

TEST_CASE("soft step: a contact solved in the coloured blocks keeps what the resolver's preparation leaves", "[contact][scene]") {
    // World::resolvedContacts() after a step: each point's frame, its anchors from the
    // centres of mass, its closing velocity and its depth as the solve began, the same
    // as the row-by-row path and Millington's resolver leave them (the anchors and the
    // velocity to the blocks' float precision).
    World w(testing::softSettings());
    const BodyId ground = testing::addGround(w);
    const Vec3 v(real(0.3), -2, 0);
    BodyDesc d;
    d.position = Vec3(0, real(0.498), 0); // 2 mm into the floor, falling at 2 m/s
    d.linearVelocity = v;
    d.colliders.push_back(testing::boxCollider(Vec3::Constant(real(0.5))));
    const BodyId box = w.createBody(d);
    const Vec3 boxAt = w.body(box).centerOfMass, groundAt = w.body(ground).centerOfMass;
    w.step(real(1) / 60);
    const std::vector<Contact>& solved = w.resolvedContacts();
    REQUIRE(solved.size() == 4);
    for (const Contact& c : solved) {
        REQUIRE(c.source != noSource);
        const ContactManifold& m = w.contacts()[c.source / Manifold::maxPoints];
        const ContactPoint& p = m.manifold.points[c.source % Manifold::maxPoints];
        CHECK(c.contactToWorld.col(0) == c.normal);
        CHECK(c.contactToWorld.col(1).dot(c.normal) == Approx(0).margin(1e-6));
        CHECK(c.penetrationAtStart == p.depth);
        CHECK(c.penetrationAtStart == Approx(real(0.002)).margin(1e-6));
        const bool boxIsA = c.body[0] == box.index;
        // To the blocks' precision (a float lane holds them in either build).
        CHECK((c.relative[boxIsA ? 0 : 1] - (c.point - boxAt)).norm() < real(1e-6));
        CHECK((c.relative[boxIsA ? 1 : 0] - (c.point - groundAt)).norm() < real(1e-6));
        // Closing: the velocity of A's point relative to B's along the normal (from B
        // toward A), before this step's gravity: -2 m/s down onto the floor.
        CHECK(c.velocity.x() == Approx(c.normal.dot(boxIsA ? v : Vec3(-v))).margin(1e-6));
        CHECK(c.velocity.x() < real(-1.99));
    }
}

namespace {

/// Every field of two lists of contacts, bit for bit.
bool sameContacts(const std::vector<Contact>& a, const std::vector<Contact>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        const Contact& x = a[i];
        const Contact& y = b[i];
        const bool same = x.body == y.body && x.point == y.point && x.normal == y.normal && x.penetration == y.penetration &&
                          x.friction == y.friction && x.restitution == y.restitution && x.key == y.key &&
                          x.source == y.source && x.carries == y.carries && x.supports == y.supports &&
                          x.contactToWorld == y.contactToWorld && x.relative == y.relative && x.velocity == y.velocity &&
                          x.penetrationAtStart == y.penetrationAtStart && x.accumulatedImpulse == y.accumulatedImpulse &&
                          x.bounceImpulse == y.bounceImpulse;
        if (!same) return false;
    }
    return true;
}

/// buildHeap's world, with sleep off, on `threads` workers.
World heapWorld(std::uint32_t threads) {
    World w(testing::softSettings(false));
    w.setThreads(threads);
    buildHeap(w);
    return w;
}

} // namespace

TEST_CASE("soft step: the coloured blocks' contacts written when first read are what a watched step writes as it solves",
          "[contact][scene]") {
    // World::resolvedContacts writes the blocks' contacts on the first call after a step.
    // Read after every step, read only at the end (from two threads at once), or written
    // during a watched step: the same contacts, and reading them changes nothing. On the
    // heap (hundreds of blocks, on two workers) and in three world substeps a step.
    for (const int substeps : {1, 3}) {
        INFO("world substeps " << substeps);
        World quiet = heapWorld(2), reader = heapWorld(2), watched = heapWorld(1);
        watched.setResolverObserver([](const ResolutionRecord&) {});
        std::size_t readPoints = 0;
        for (int s = 0; s < 12; ++s) {
            quiet.step(real(1) / 60, substeps);
            reader.step(real(1) / 60, substeps);
            watched.step(real(1) / 60, substeps);
            readPoints += reader.resolvedContacts().size();
        }
        CHECK(readPoints > 12 * 1000); // the heap's balls alone touch on more than that
        CHECK(testing::stateHash(quiet) == testing::stateHash(reader));
        CHECK(testing::stateHash(quiet) == testing::stateHash(watched));
        std::vector<Contact> seen[2];
        std::thread other([&] { seen[1] = quiet.resolvedContacts(); });
        seen[0] = quiet.resolvedContacts();
        other.join();
        REQUIRE(!seen[0].empty());
        CHECK(sameContacts(seen[0], seen[1]));
        CHECK(sameContacts(seen[0], reader.resolvedContacts()));
        CHECK(sameContacts(seen[0], watched.resolvedContacts()));
        // The solver's deepest overlaps, measured as the blocks were written back, are
        // the deepest of the contacts written from them.
        real before = 0, after = 0;
        for (const Contact& c : seen[0]) {
            CHECK(std::isfinite(c.velocity.norm()));
            if (!c.supports) continue;
            before = std::max(before, c.penetrationAtStart);
            after = std::max(after, c.penetration);
        }
        CHECK(quiet.resolverStats().maxPenetrationBefore == before);
        CHECK(quiet.resolverStats().maxPenetrationAfter == after);
        CHECK(before > 0);
    }
}

TEST_CASE("soft step: contacts counted before they are written are the ones written, with and without an island of rows",
          "[contact][scene]") {
    // A step whose islands the coloured blocks take alone gathers no contact (the list is
    // sized and written when first read); one with a jointed island gathers that island's.
    // Either way the count read first is the list's length, and the list is what a
    // watched step (which gathers and writes every contact as it solves) leaves.
    for (const bool jointed : {false, true}) {
        INFO((jointed ? "with" : "without") << " a jointed pair");
        const auto make = [jointed] {
            World w(testing::softSettings(false));
            build(w);
            if (jointed) { // two boxes on the ground, joined at their touching corners
                const BodyId a = addBody(w, Vec3(-8, real(0.2), 0), Box{Vec3::Constant(real(0.2))}, real(0.5), 0);
                const BodyId b = addBody(w, Vec3(-8, real(0.2), real(0.4)), Box{Vec3::Constant(real(0.2))}, real(0.5), 0);
                JointDesc j;
                j.type = JointType::Ball;
                j.a = {a, Vec3(0, 0, real(0.2))};
                j.b = {b, Vec3(0, 0, real(-0.2))};
                w.createJoint(j);
            }
            return w;
        };
        World quiet = make(), watched = make();
        watched.setResolverObserver([](const ResolutionRecord&) {});
        for (int s = 0; s < 10; ++s) {
            quiet.step(real(1) / 60);
            watched.step(real(1) / 60);
        }
        const std::size_t counted = quiet.resolvedContactCount(); // before anything wrote them
        const std::vector<Contact>& solved = quiet.resolvedContacts();
        CHECK(counted == solved.size());
        CHECK(quiet.resolvedContactCount() == solved.size());
        CHECK(solved.size() > 100); // the slab's boxes alone touch on more
        CHECK(sameContacts(solved, watched.resolvedContacts()));
        CHECK(testing::stateHash(quiet) == testing::stateHash(watched));
    }
}

TEST_CASE("soft step: a contact modifier reads the step before's coloured contacts and a failed step leaves none",
          "[contact][scene]") {
    // The modifier runs inside the next step, after the manifolds the blocks' contacts
    // come from were set aside: it sees them as they were when the step began.
    World modified = heapWorld(1), reader = heapWorld(1);
    std::vector<Contact> inModifier;
    bool first = true;
    modified.setContactModifier([&](ContactModification&) {
        if (first) inModifier = modified.resolvedContacts();
        first = false;
    });
    std::vector<Contact> before;
    int compared = 0;
    for (int s = 0; s < 8; ++s) {
        first = true;
        modified.step(real(1) / 60);
        reader.step(real(1) / 60);
        if (s > 0) {
            CHECK(sameContacts(inModifier, before));
            compared += inModifier.empty() ? 0 : 1;
        }
        before = reader.resolvedContacts();
    }
    CHECK(compared == 7);
    CHECK(testing::stateHash(modified) == testing::stateHash(reader));
    // A step that fails: the world as it was, and no contacts (the failed step's were
    // partly solved).
    const std::uint64_t was = testing::stateHash(reader);
    reader.setContactFilter([](ColliderId, ColliderId) -> bool { throw std::runtime_error("filter"); });
    CHECK_THROWS_WITH(reader.step(real(1) / 60), "filter");
    CHECK(testing::stateHash(reader) == was);
    CHECK(reader.resolvedContactCount() == 0);
    CHECK(reader.resolvedContacts().empty());
    reader.setContactFilter({});
    reader.step(real(1) / 60);
    CHECK(!reader.resolvedContacts().empty());
}

TEST_CASE("soft step: coloured contacts left unread are not written over another solver's", "[contact][scene]") {
    // A soft step nobody read the contacts of, then Millington's resolver with rolling
    // resistance (which reads the solved contacts inside the step): the resolver's own
    // contacts, as in a world whose soft-step contacts were read.
    const auto make = [] {
        World w = heapWorld(1);
        BodyDesc d;
        d.position = Vec3(-6, real(0.2), 0);
        ColliderDesc c;
        c.shape = Sphere{real(0.2)};
        c.material.rollingResistance = real(0.05);
        d.colliders.push_back(c);
        d.linearVelocity = Vec3(1, 0, 0);
        w.createBody(d);
        return w;
    };
    World quiet = make(), reader = make();
    for (int s = 0; s < 6; ++s) {
        quiet.step(real(1) / 60);
        reader.step(real(1) / 60);
        CHECK(!reader.resolvedContacts().empty());
    }
    testing::useResolver(quiet);
    testing::useResolver(reader);
    quiet.step(real(1) / 60);
    reader.step(real(1) / 60);
    REQUIRE(!reader.resolvedContacts().empty());
    CHECK(sameContacts(quiet.resolvedContacts(), reader.resolvedContacts()));
    CHECK(testing::stateHash(quiet) == testing::stateHash(reader));
}
