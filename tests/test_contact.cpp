// SPDX-License-Identifier: MIT
// The contact resolver: its pieces (basis, heap), its equivalence with the stepping
// form, and the scene-level figures of issue 4.

#include "helpers.hpp"
#include "scene_helpers.hpp"
#include "physics/world/stages.hpp"
#include "scenes/bench_scenes.hpp"
#include "scenes/rigid_scenes.hpp"

#include "common/growth.hpp"
#include "contact/contact_resolver.hpp"
#include "contact/indexed_heap.hpp"
#include "contact/soft_constraint.hpp"
#include <jounce/contact/islands.hpp>
#include <jounce/contact/resolver.hpp>
#include <jounce/common/tasks.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numbers>
#include <random>
#include <vector>

using namespace jounce;
using testing::TestScene;
using testing::tol;

namespace {


/// A body array of a dynamic body (inverse mass 1) on the static ground, and the
/// manifold between them (A the body, B the ground) with no points yet.
struct OnGround {
    detail::BodyArray bodies;
    ContactManifold manifold;
    OnGround() {
        Body ground;
        ground.type = BodyType::Static;
        Body body;
        body.inverseMass = 1;
        manifold.bodyA = bodies.insert(body);
        manifold.bodyB = bodies.insert(ground);
    }
};

struct Run {
    TestScene scene;
    scenes::BenchLayout layout;
};

std::unique_ptr<Run> benchRun(std::string_view name, bool sleep, VelocitySolver solver = ResolverSettings{}.velocitySolver) {
    auto run = std::make_unique<Run>();
    WorldSettings s = run->scene.world().settings();
    s.sleep.enabled = sleep;
    s.resolver.velocitySolver = solver;
    run->scene.world().setSettings(s);
    run->layout = scenes::buildBenchScene(run->scene, name);
    return run;
}

bool allAsleep(const World& w, const std::vector<BodyId>& ids) {
    for (const BodyId id : ids)
        if (w.body(id).awake) return false;
    return true;
}

} // namespace

TEST_CASE("the contact basis is orthonormal and right-handed for any normal", "[contact]") {
    std::mt19937 rng(3);
    std::normal_distribution<double> g(0, 1);
    std::vector<Vec3> normals{Vec3::UnitX(), -Vec3::UnitX(), Vec3::UnitY(), -Vec3::UnitY(), Vec3::UnitZ(), Vec3(1, 1, 0).normalized(),
                              Vec3(1, 1, 1).normalized(), Vec3(0.1, 0.99, 0).normalized()};
    for (int i = 0; i < 1000; ++i)
        normals.push_back(Vec3(static_cast<real>(g(rng)), static_cast<real>(g(rng)), static_cast<real>(g(rng))).normalized());
    for (const Vec3& n : normals) {
        const Mat3 b = contactBasis(n);
        CHECK((b.col(0) - n).norm() == 0);
        CHECK((b.transpose() * b - Mat3::Identity()).norm() < tol(1e-14, 1e-6));
        CHECK(b.determinant() == Approx(1).margin(tol(1e-14, 1e-6)));
        // The tangent is the normal crossed with the world axis it is least aligned with
        // (the first of equals): zero along that axis.
        const Vec3 a = n.cwiseAbs();
        const int least = a.x() <= a.y() && a.x() <= a.z() ? 0 : a.y() <= a.z() ? 1 : 2;
        CHECK(b(least, 1) == 0);
    }
}

TEST_CASE("warm starting carries friction as a world vector when the contact's tangent axes turn", "[contact]") {
    // A floor's normal tipped by rounding one way, then the other: contactBasis builds
    // the tangents from a different world axis and they turn a quarter turn, though the
    // surface did not move.
    const Vec3 before = Vec3(real(2e-6), -1, real(1e-6)).normalized();
    const Vec3 after = Vec3(real(1e-6), -1, real(2e-6)).normalized();
    const Mat3 from = contactBasis(before), to = contactBasis(after);
    REQUIRE(std::abs(from.col(1).dot(to.col(1))) < real(0.01)); // the quarter turn
    // Last step's manifold of the pair held the point with these impulses in its
    // tangent axes; this step's continues it (same feature) with the tipped normal.
    OnGround pair;
    ContactManifold& last = pair.manifold;
    last.manifold.normal = before;
    last.manifold.add(Vec3(0, 0, 0), real(0.001), 42);
    last.normalImpulse[0] = 5;
    last.frictionImpulse[0] = (from.col(1) * real(0.3) + from.col(2) * real(-0.2)).cast<float>();
    ContactManifold m = last;
    m.manifold.normal = after;
    m.normalImpulse[0] = 0;
    m.frictionImpulse[0] = Vec3f::Zero();
    detail::carryImpulses(std::span<const ContactManifold>(&last, 1), m);
    std::vector<Contact> out;
    std::vector<std::uint32_t> firsts;
    detail::gatherContacts(pair.bodies, {m}, out, firsts);
    REQUIRE(out.size() == 1);
    const Contact& now = out[0];
    CHECK(now.source == 0);
    CHECK(now.accumulatedImpulse.x() == 5);
    // The same world vector, laid into the new tangent plane (the normals differ by 2e-6).
    Vec3 frictionBefore = from.col(1) * real(0.3) + from.col(2) * real(-0.2);
    frictionBefore -= after * after.dot(frictionBefore);
    const Vec3 frictionNow = to.col(1) * now.accumulatedImpulse.y() + to.col(2) * now.accumulatedImpulse.z();
    INFO("before " << frictionBefore.transpose() << ", now " << frictionNow.transpose());
    CHECK((frictionNow - frictionBefore).norm() < real(1e-6)); // the impulse is kept in float (Vec3f) in either build
}

TEST_CASE("the indexed heap always tops the largest key, ties to the lower item", "[contact]") {
    std::mt19937 rng(5);
    std::uniform_int_distribution<int> value(0, 20), pick(0, 99);
    std::vector<real> keys(110);
    for (real& k : keys) k = static_cast<real>(value(rng));
    IndexedMaxHeap heap;
    heap.build(10, 100, keys); // items 10..109
    for (int round = 0; round < 2000; ++round) {
        std::uint32_t best = 10;
        for (std::uint32_t i = 10; i < 110; ++i)
            if (keys[i] > keys[best]) best = i;
        REQUIRE(heap.top() == best);
        const auto item = static_cast<std::uint32_t>(10 + pick(rng));
        keys[item] = static_cast<real>(value(rng));
        heap.update(item, keys[item]);
    }
}

TEST_CASE("stepping the resolver one contact at a time gives exactly resolve()", "[contact]") {
    // A tilted box dropped into a corner of two boxes: contacts of several kinds.
    std::vector<Body> bodies(3);
    bodies[0].type = BodyType::Static;
    bodies[1].type = BodyType::Static;
    bodies[1].position = Vec3(1.2, 0, 0);
    Body& falling = bodies[2];
    const MassProperties mp = solidBox(Vec3::Constant(0.5), 1000);
    falling.inverseMass = 1 / mp.mass;
    falling.inertiaBody = mp.inertia;
    falling.inverseInertiaBody = mp.inertia.inverse();
    falling.position = Vec3(0.55, 0.93, 0.1);
    falling.orientation = Quat(Eigen::AngleAxis<real>(0.3, Vec3(1, 0, 2).normalized()));
    falling.inverseInertiaWorld = detail::worldInverseInertia(falling);
    falling.linearVelocity = Vec3(0.3, -2, 0.1);
    falling.angularVelocity = Vec3(1, 0, -0.5);
    falling.lastFrameAcceleration = Vec3(0, -9.81, 0);
    std::vector<Contact> contacts;
    for (std::uint32_t other : {0u, 1u}) {
        Manifold m;
        REQUIRE(collide(Box{Vec3::Constant(0.5)}, falling.transform(), Box{Vec3::Constant(0.5)}, bodies[other].transform(), 0.01, m));
        for (int k = 0; k < m.count; ++k) {
            Contact c;
            c.body = {2, other};
            c.point = m.points[static_cast<std::size_t>(k)].point;
            c.normal = m.normal;
            c.penetration = m.points[static_cast<std::size_t>(k)].depth;
            c.friction = 0.5;
            c.restitution = 0.3;
            contacts.push_back(c);
        }
    }
    REQUIRE(contacts.size() >= 3);
    for (const auto& [positions, solver] :
         {std::pair{PositionSolver::WorstFirst, VelocitySolver::WorstFirst},
          std::pair{PositionSolver::Sequential, VelocitySolver::SequentialImpulses}}) {
        ResolverSettings settings;
        settings.positionSolver = positions;
        settings.velocitySolver = solver;
        std::vector<Body> a = bodies, b = bodies, u = bodies;
        std::vector<Contact> ca = contacts, cb = contacts, cu = contacts;
        const std::vector<std::uint32_t> starts{0, static_cast<std::uint32_t>(contacts.size())};
        ContactResolver whole(settings), stepped(settings), unobserved(settings);
        int observed = 0;
        whole.setObserver([&](const ResolutionRecord&) { ++observed; });
        whole.resolve(a, ca, starts, real(1) / 60);
        // Without an observer resolve() skips the records and the per-update writes
        // to the Body array: the same numbers all the same.
        unobserved.resolve(u, cu, starts, real(1) / 60);
        CHECK(std::memcmp(&a[2].position, &u[2].position, sizeof(Vec3)) == 0);
        CHECK(std::memcmp(&a[2].orientation, &u[2].orientation, sizeof(Quat)) == 0);
        CHECK(std::memcmp(&a[2].linearVelocity, &u[2].linearVelocity, sizeof(Vec3)) == 0);
        CHECK(std::memcmp(&a[2].angularVelocity, &u[2].angularVelocity, sizeof(Vec3)) == 0);
        for (std::size_t k = 0; k < contacts.size(); ++k)
            CHECK(std::memcmp(&ca[k].accumulatedImpulse, &cu[k].accumulatedImpulse, sizeof(Vec3)) == 0);
        stepped.begin(b, cb, starts, real(1) / 60);
        ResolutionRecord r;
        int steps = 0;
        while (stepped.stepPosition(r)) {
            CHECK(r.kind == ResolutionRecord::Kind::Position);
            // Deepest-first resolves each contact it picks; a sweep may also take back
            // part of an earlier push, so only the step as a whole must get shallower.
            if (positions == PositionSolver::WorstFirst) CHECK(r.after < r.before);
            ++steps;
        }
        while (stepped.stepVelocity(r)) {
            CHECK(r.kind == ResolutionRecord::Kind::Velocity);
            ++steps;
        }
        CHECK(steps == observed);
        CHECK(steps > 0);
        CHECK(stepped.stats().maxPenetrationAfter < stepped.stats().maxPenetrationBefore);
        CHECK(std::memcmp(&a[2].position, &b[2].position, sizeof(Vec3)) == 0);
        CHECK(std::memcmp(&a[2].orientation, &b[2].orientation, sizeof(Quat)) == 0);
        CHECK(std::memcmp(&a[2].linearVelocity, &b[2].linearVelocity, sizeof(Vec3)) == 0);
        CHECK(std::memcmp(&a[2].angularVelocity, &b[2].angularVelocity, sizeof(Vec3)) == 0);
        CHECK(a[2].linearVelocity.y() > -2); // the fall was stopped, at least in part
        CHECK(a[0].position == Vec3::Zero()); // static bodies never move
    }
}

TEST_CASE("stepping through shock propagation gives exactly resolve()", "[contact]") {
    // A 100 kg box landing on a 1 kg box on the ground: the sweeps cannot settle it
    // from a cold start, so shock propagation's passes run after them.
    std::vector<Body> bodies(3);
    bodies[0].type = BodyType::Static;
    bodies[0].position = Vec3(0, real(-0.5), 0);
    for (std::size_t i = 1; i < 3; ++i) {
        const MassProperties mp = solidBox(Vec3::Constant(real(0.5)), i == 1 ? 8 : 800);
        Body& b = bodies[i];
        b.inverseMass = 1 / mp.mass;
        b.inertiaBody = mp.inertia;
        b.inverseInertiaBody = mp.inertia.inverse();
        b.position = Vec3(i == 2 ? real(0.2) : 0, real(i) - real(0.5), 0);
        b.orientation = Quat(Eigen::AngleAxis<real>(i == 2 ? real(0.3) : 0, Vec3::UnitY()));
        b.inverseInertiaWorld = detail::worldInverseInertia(b);
        b.linearVelocity = Vec3(0, i == 2 ? real(-1) : real(-0.16), 0);
        b.lastFrameAcceleration = Vec3(0, real(-9.81), 0);
    }
    std::vector<Contact> contacts;
    for (const auto& [upper, lower] : {std::pair{1u, 0u}, std::pair{2u, 1u}}) {
        Manifold m;
        const Vec3 lowerHalf = lower == 0 ? Vec3(5, real(0.5), 5) : Vec3::Constant(real(0.5));
        REQUIRE(collide(Box{Vec3::Constant(real(0.5))}, bodies[upper].transform(), Box{lowerHalf},
                        bodies[lower].transform(), real(0.01), m));
        for (int k = 0; k < m.count; ++k) {
            Contact c;
            c.body = {upper, lower};
            c.point = m.points[static_cast<std::size_t>(k)].point;
            c.normal = m.normal;
            c.penetration = m.points[static_cast<std::size_t>(k)].depth;
            c.friction = real(0.5);
            contacts.push_back(c);
        }
    }
    REQUIRE(contacts.size() >= 6);
    const ResolverSettings settings;
    std::vector<Body> a = bodies, b = bodies;
    std::vector<Contact> ca = contacts, cb = contacts;
    const std::vector<std::uint32_t> starts{0, static_cast<std::uint32_t>(contacts.size())};
    ContactResolver whole(settings), stepped(settings);
    whole.resolve(a, ca, starts, real(1) / 60);
    // The passes ran: more updates than the sweeps' own.
    CHECK(whole.stats().velocityIterations > settings.sequentialIterations * static_cast<int>(contacts.size()));
    stepped.begin(b, cb, starts, real(1) / 60);
    ResolutionRecord r;
    while (stepped.stepPosition(r)) {}
    int velocitySteps = 0;
    while (stepped.stepVelocity(r)) ++velocitySteps;
    CHECK(velocitySteps == stepped.stats().velocityIterations);
    CHECK(stepped.stats().velocityIterations == whole.stats().velocityIterations);
    for (std::size_t i = 1; i < 3; ++i) {
        CHECK(std::memcmp(&a[i].linearVelocity, &b[i].linearVelocity, sizeof(Vec3)) == 0);
        CHECK(std::memcmp(&a[i].angularVelocity, &b[i].angularVelocity, sizeof(Vec3)) == 0);
        CHECK(std::memcmp(&a[i].position, &b[i].position, sizeof(Vec3)) == 0);
    }
    for (std::size_t k = 0; k < contacts.size(); ++k)
        CHECK(std::memcmp(&ca[k].accumulatedImpulse, &cb[k].accumulatedImpulse, sizeof(Vec3)) == 0);
    // The heavy box was stopped on the light one: neither closes on the other.
    CHECK(a[2].linearVelocity.y() - a[1].linearVelocity.y() > real(-0.05));
}

TEST_CASE("a contact with non-finite data is dropped from its manifold with a reported error", "[contact]") {
    OnGround pair;
    ContactManifold& m = pair.manifold;
    m.manifold.add(Vec3(0, std::numeric_limits<real>::quiet_NaN(), 0), real(0.01), 1);
    m.manifold.add(Vec3(1, 0, 0), real(0.01), 2);
    std::vector<ContactManifold> manifolds{m};
    std::vector<std::string> errors;
    detail::dropBadPoints(manifolds, errors);
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].find("non-finite") != std::string::npos);
    CHECK(errors[0].find("bodies 0 and 1") != std::string::npos);
    std::vector<Contact> out;
    std::vector<std::uint32_t> firsts;
    detail::gatherContacts(pair.bodies, manifolds, out, firsts);
    REQUIRE(out.size() == 1);
    CHECK(out[0].point == Vec3(1, 0, 0));
}

TEST_CASE("a point dropped from a manifold takes what it carried with it, the points after it move down", "[contact]") {
    // Three points, the middle one not finite: the first and last stay, each with its own
    // carried impulse and anchors; a manifold whose normal is not finite loses them all.
    OnGround pair;
    ContactManifold m = pair.manifold;
    const real nan = std::numeric_limits<real>::quiet_NaN();
    m.manifold.add(Vec3(1, 0, 0), real(0.01), 1);
    m.manifold.add(Vec3(2, 0, 0), nan, 2);
    m.manifold.add(Vec3(3, 0, 0), real(0.02), 3);
    for (std::size_t i = 0; i < 3; ++i) {
        m.normalImpulse[i] = float(i + 1);
        m.frictionImpulse[i] = Vec3f(float(i + 1), 0, 0);
        m.anchorA[i] = Vec3f(0, float(i + 1), 0);
        m.anchorB[i] = Vec3f(0, 0, float(i + 1));
    }
    ContactManifold tipped = m;
    tipped.manifold.normal = Vec3(0, nan, 0);
    std::vector<ContactManifold> manifolds{m, tipped};
    std::vector<std::string> errors;
    detail::dropBadPoints(manifolds, errors);
    CHECK(errors.size() == 4); // one, then all three
    const ContactManifold& kept = manifolds[0];
    REQUIRE(kept.manifold.count == 2);
    CHECK(kept.manifold.points[0].feature == 1);
    CHECK(kept.manifold.points[1].feature == 3);
    CHECK(kept.manifold.points[1].depth == real(0.02));
    CHECK(kept.normalImpulse[1] == 3);
    CHECK(kept.frictionImpulse[1] == Vec3f(3, 0, 0));
    CHECK(kept.anchorA[1] == Vec3f(0, 3, 0));
    CHECK(kept.anchorB[1] == Vec3f(0, 0, 3));
    CHECK(manifolds[1].manifold.count == 0);
}

TEST_CASE("groupContacts drops non-finite points before it makes the islands: a manifold left empty joins nothing", "[contact]") {
    // Three dynamic boxes on the ground: box 1's manifold has one bad point of two, box
    // 2's only point is bad, box 3's is good. Box 2 then touches nothing: no island is
    // placed for it, and the list holds box 1's good point and box 3's.
    detail::BodyArray bodies;
    Body ground;
    ground.type = BodyType::Static;
    const BodyId floor = bodies.insert(ground);
    std::vector<ContactManifold> manifolds;
    const real nan = std::numeric_limits<real>::quiet_NaN();
    for (int k = 0; k < 3; ++k) {
        Body box;
        box.inverseMass = 1;
        ContactManifold m;
        m.bodyA = bodies.insert(box);
        m.bodyB = floor;
        if (k == 0) {
            m.manifold.add(Vec3(0, nan, 0), real(0.01), 1);
            m.manifold.add(Vec3(1, 0, 0), real(0.01), 2);
        } else {
            m.manifold.add(Vec3(2, k == 1 ? nan : real(0), 0), real(0.01), 1);
        }
        manifolds.push_back(m);
    }
    Islands islands;
    std::vector<std::uint32_t> islandStarts;
    std::vector<detail::BodyLink> sleepingLinks;
    detail::ContactScratch scratch;
    std::vector<std::string> errors{"last step's"};
    detail::groupContacts(bodies, manifolds, {}, SleepSettings{}, islands, islandStarts, sleepingLinks, {}, scratch, errors);
    REQUIRE(errors.size() == 2);
    CHECK(errors[0].find("bodies 1 and 0") != std::string::npos);
    CHECK(errors[1].find("bodies 2 and 0") != std::string::npos);
    CHECK(manifolds[0].manifold.count == 1);
    CHECK(manifolds[1].manifold.count == 0);
    CHECK(islandStarts == std::vector<std::uint32_t>{0, 1, 2});
    CHECK(scratch.manifoldFirsts == std::vector<std::uint32_t>{0, detail::noPlace, 1, 2});
    REQUIRE(scratch.placedIslands.size() == 2);
    CHECK(scratch.placedIslands[0].lastManifold - scratch.placedIslands[0].firstManifold == 1);
    CHECK(scratch.placedIslands[1].lastManifold - scratch.placedIslands[1].firstManifold == 1);
    CHECK(islands.bodyIsland[2] != islands.bodyIsland[1]);
    CHECK(islands.bodyIsland[2] != islands.bodyIsland[3]);
}

TEST_CASE("keepForWarmStart passes over the islands it is told to skip, wherever the workers' ranges start", "[contact]") {
    // 9000 one-point manifolds in three islands of 3000 contacts (the workers' ranges are
    // 4096 long, so the middle island starts inside the first range and ends inside the
    // second). The middle one is skipped: its manifolds keep what they held.
    OnGround pair;
    constexpr std::uint32_t perIsland = 3000, count = 3 * perIsland;
    std::vector<ContactManifold> manifolds(count, pair.manifold);
    std::vector<Contact> contacts(count);
    for (std::uint32_t i = 0; i < count; ++i) {
        manifolds[i].normalImpulse[0] = -1;
        Contact& c = contacts[i];
        c.source = i * Manifold::maxPoints;
        c.contactToWorld = contactBasis(c.normal);
        c.accumulatedImpulse = Vec3(real(i + 1), 0, 0);
    }
    const std::vector<std::uint32_t> islandStarts{0, perIsland, 2 * perIsland, count};
    const std::vector<std::uint8_t> skip{0, 1, 0};
    std::vector<KeptContact> previous;
    std::vector<std::pair<std::uint64_t, std::uint32_t>> order;
    ThreadPool pool(2);
    detail::keepForWarmStart(contacts, islandStarts, skip, manifolds, previous, order, &pool);
    std::uint32_t wrong = 0;
    for (std::uint32_t i = 0; i < count; ++i) {
        const bool skipped = i >= perIsland && i < 2 * perIsland;
        wrong += manifolds[i].normalImpulse[0] == (skipped ? -1.0f : float(i + 1)) ? 0 : 1;
    }
    CHECK(wrong == 0);
    CHECK(previous.empty());
}

TEST_CASE("buildIslands joins many links in a forest a worker: the same islands on 2 3 and 4 workers as on one thread",
          "[contact]") {
    // 12 000 bodies (every seventh static), 9 000 random links: islands of every size,
    // one large. From 4096 links on, the workers join a share each (of 2048 links or
    // more) in forests of their own, joined after; the roots are each set's lowest
    // index, so the islands, their numbers and their order are one thread's.
    constexpr std::uint32_t n = 12000;
    std::vector<Body> bodies(n);
    for (std::uint32_t i = 0; i < n; i += 7) bodies[i].type = BodyType::Static;
    const std::vector<std::uint8_t> alive(n, 1);
    std::mt19937 random(7);
    std::uniform_int_distribution<std::uint32_t> any(0, n - 1);
    std::vector<std::pair<std::uint32_t, std::uint32_t>> links(9000);
    for (auto& [a, b] : links) {
        a = any(random);
        b = any(random);
    }
    Islands one;
    buildIslands(bodies, alive, {}, links, one);
    REQUIRE(one.count() > 1000); // mostly bodies alone or in small islands...
    std::vector<std::uint32_t> sizes(one.count(), 0);
    for (std::uint32_t i = 0; i < n; ++i)
        if (one.bodyIsland[i] != noIsland) ++sizes[one.bodyIsland[i]];
    CHECK(*std::max_element(sizes.begin(), sizes.end()) > 1000); // ...and one large
    // Every link of two dynamic bodies lies within one island.
    std::uint32_t split = 0;
    for (const auto& [a, b] : links)
        if (bodies[a].isDynamic() && bodies[b].isDynamic()) split += one.bodyIsland[a] == one.bodyIsland[b] ? 0 : 1;
    CHECK(split == 0);
    for (const std::uint32_t threads : {2u, 3u, 4u}) {
        INFO(threads << " workers");
        ThreadPool pool(threads);
        Islands many;
        for (int repeat = 0; repeat < 2; ++repeat) { // the second time over the forests the first one left
            buildIslands(bodies, alive, {}, links, many, &pool);
            CHECK(many.bodyIsland == one.bodyIsland);
            CHECK(many.bodies == one.bodies);
            CHECK(many.bodyStarts == one.bodyStarts);
        }
        CHECK(many.forests.size() == std::min<std::size_t>(threads, links.size() / 2048) - 1); // the forests were used
    }
}

TEST_CASE("column of 10 boxes falls asleep within 3 s with sleep on", "[contact][scene]") {
    auto run = benchRun("column", true);
    int asleepAt = -1;
    for (int i = 0; i < 180; ++i) {
        run->scene.step();
        if (asleepAt < 0 && allAsleep(run->scene.world(), run->layout.dynamic)) asleepAt = i + 1;
    }
    INFO("all asleep from step " << asleepAt);
    CHECK(asleepAt > 0);
    CHECK(allAsleep(run->scene.world(), run->layout.dynamic));
}

TEST_CASE("every benchmark stack is asleep by step 30 (half a second) with either solver, and stays put", "[contact][scene]") {
    // Bodies start with motion 2 sleepThreshold, decaying as motionBias^t: at Millington's
    // 0.5 per second the stacks slept from step 61, at 0.15 from step 22-29.
    for (const ContactSolver solver : {ContactSolver::Resolver, ContactSolver::SoftStep})
        for (const char* name : {"column", "pyramid10", "pyramid20"}) {
            TestScene scene;
            WorldSettings s = scene.world().settings();
            s.resolver.solver = solver;
            scene.world().setSettings(s);
            const scenes::BenchLayout layout = scenes::buildBenchScene(scene, name);
            const BodyId top = layout.dynamic.back();
            const Vec3 start = scene.world().body(top).position;
            int asleepAt = -1;
            for (int i = 0; i < 60; ++i) {
                scene.step();
                const bool all = allAsleep(scene.world(), layout.dynamic);
                if (all && asleepAt < 0) asleepAt = i + 1;
                if (!all) asleepAt = -1; // asleep for good, not for a moment
            }
            const Vec3 end = scene.world().body(top).position;
            INFO(name << (solver == ContactSolver::SoftStep ? " (soft step)" : " (resolver)") << ": all asleep from step "
                      << asleepAt << ", top moved " << (end - start).norm() << " m");
            CHECK(asleepAt > 0);
            CHECK(asleepAt <= 30);
            // Sideways: the 5 mm (the soft step's column sways 4.5 mm as it settles
            // and sleeps there, its pyramid20 3.4 mm; the resolver's stacks 0.1 mm).
            CHECK(std::hypot(end.x() - start.x(), end.z() - start.z()) < real(0.005));
            CHECK(std::abs(end.y() - start.y()) < real(0.03)); // the soft step's stacks settle by up to 2.7 cm
        }
}

TEST_CASE("a box dropped hard sleeps ln(motionCap) / ln(1 / motionBias) seconds after it comes to rest", "[contact][scene]") {
    // The recency-weighted motion is clamped at motionCap sleepThresholds, so once the
    // box is quiet it decays from the cap to the threshold in n steps, bias^n = 1 / cap:
    // 22 steps at the default cap of 2, 73 at Millington's 10 (the control).
    for (const real cap : {real(2), real(10)}) {
        TestScene scene;
        World& w = scene.world();
        WorldSettings s = w.settings();
        s.sleep.motionCap = cap;
        w.setSettings(s);
        BodyDesc ground;
        ground.type = BodyType::Static;
        ground.colliders.push_back(ColliderDesc{HalfSpace{}, Transform{}, 1000, Material{0.5, 0}, CollisionFilter{}});
        scene.addBody(ground, {});
        BodyDesc box;
        box.position = Vec3(0, 5, 0); // hits the ground at 9.4 m/s: motion far above the cap
        box.colliders.push_back(ColliderDesc{Box{Vec3::Constant(real(0.5))}, Transform{}, 1000, Material{0.5, 0}, CollisionFilter{}});
        const BodyId id = scene.addBody(box, {});
        int lastLoud = -1, asleepAt = -1;
        for (int i = 1; i <= 300 && asleepAt < 0; ++i) {
            scene.step();
            const BodyState b = w.body(id);
            if (!b.awake) asleepAt = i;
            else if (b.linearVelocity.squaredNorm() + b.angularVelocity.squaredNorm() >= s.sleep.sleepThreshold) lastLoud = i;
        }
        const real perStep = -std::log(s.sleep.motionBias) * scene.timeStep(); // ln(1 / bias) per step
        const int expected = static_cast<int>(std::ceil(std::log(cap) / perStep));
        INFO("cap " << cap << ": quiet after step " << lastLoud << ", asleep at step " << asleepAt << ", expected "
                    << expected << " steps after");
        REQUIRE(lastLoud > 30);  // it fell and hit
        REQUIRE(asleepAt > 0);
        CHECK(asleepAt - lastLoud >= expected - 1);
        CHECK(asleepAt - lastLoud <= expected + 8); // the motion of its last quiet steps decays too
        CHECK(w.body(id).position.y() == Approx(real(0.5)).margin(0.01));
    }
}

TEST_CASE("with sleep on, a body gliding at 0.3 m/s on frictionless ground keeps gliding", "[contact][scene]") {
    // The control of the stacks' quick sleep: at Millington's 0.3 m^2/s^2 a body moving
    // steadily slower than 0.55 m/s fell asleep, at 0.05 it glides on.
    TestScene scene;
    World& w = scene.world();
    BodyDesc ground;
    ground.type = BodyType::Static;
    ground.colliders.push_back(ColliderDesc{HalfSpace{}, Transform{}, 1000, Material{0, 0}, CollisionFilter{}});
    scene.addBody(ground, {});
    BodyDesc puck;
    puck.position = Vec3(0, real(0.1), 0);
    puck.linearVelocity = Vec3(real(0.3), 0, 0);
    puck.colliders.push_back(ColliderDesc{Box{Vec3(real(0.2), real(0.1), real(0.2))}, Transform{}, 1000, Material{0, 0}, CollisionFilter{}});
    const BodyId id = scene.addBody(puck, {});
    for (int i = 0; i < 180; ++i) scene.step();
    INFO("x after 3 s: " << w.body(id).position.x());
    CHECK(w.body(id).awake);
    CHECK(w.body(id).position.x() == Approx(real(0.9)).margin(0.02));
}

TEST_CASE("restitution 0.5: a dropped sphere rebounds to a quarter of the drop height", "[contact][scene]") {
    TestScene scene;
    World& w = scene.world();
    BodyDesc ground;
    ground.type = BodyType::Static;
    ground.colliders.push_back(ColliderDesc{HalfSpace{}, Transform{}, 1000, Material{0.5, 0.5}, CollisionFilter{}});
    scene.addBody(ground, {});
    BodyDesc ball;
    const real h = 2;
    ball.position = Vec3(0, h + real(0.5), 0);
    ball.colliders.push_back(ColliderDesc{Sphere{0.5}, Transform{}, 1000, Material{0.5, 0.5}, CollisionFilter{}});
    const BodyId id = scene.addBody(ball, {});
    real peak = 0;
    bool bounced = false;
    for (int i = 0; i < 240; ++i) {
        scene.step();
        const BodyState b = w.body(id);
        if (!bounced && b.linearVelocity.y() > 0) bounced = true;
        if (bounced) peak = std::max(peak, b.position.y() - real(0.5));
    }
    INFO("rebound to " << peak << " m of " << h << " m");
    CHECK(bounced);
    CHECK(peak / h == Approx(0.25).margin(0.03));
}

TEST_CASE("bounces from 1 m at one step of 1/60 s: e = 0.5 rebounds to 25 %, e = 1 keeps its height for 100 bounces",
          "[contact][scene]") {
    // Apexes of a ball's bottom over a floor box, by the sign change of its velocity.
    const auto apexes = [](real e, int count) {
        World w;
        BodyDesc floor;
        floor.type = BodyType::Static;
        floor.position = Vec3(0, real(-0.5), 0);
        floor.colliders.push_back(testing::boxCollider(Vec3(50, real(0.5), 50)));
        w.createBody(floor);
        BodyDesc d;
        d.position = Vec3(0, real(1.1), 0);
        d.colliders.push_back(ColliderDesc{Sphere{real(0.1)}, Transform{}, 1000, Material{real(0.5), e}, CollisionFilter{}});
        const BodyId ball = w.createBody(d);
        std::vector<real> out;
        real lastVy = 0;
        for (int i = 0; i < 60 * 120 && static_cast<int>(out.size()) < count; ++i) {
            w.step(real(1) / 60);
            const BodyState b = w.body(ball);
            if (lastVy > 0 && b.linearVelocity.y() <= 0) out.push_back(b.centerOfMass.y() - real(0.1));
            lastVy = b.linearVelocity.y();
        }
        return out;
    };
    const std::vector<real> half = apexes(real(0.5), 2);
    REQUIRE(half.size() == 2);
    INFO("e = 0.5: apexes " << half[0] << ", " << half[1] << " m");
    CHECK(half[0] == Approx(0.25).margin(0.015));
    CHECK(half[1] / half[0] == Approx(0.25).margin(0.015));
    const std::vector<real> one = apexes(1, 100);
    REQUIRE(one.size() == 100);
    const auto [lowest, highest] = std::minmax_element(one.begin(), one.end());
    INFO("e = 1: apexes from " << *lowest << " to " << *highest << " m");
    CHECK(*lowest >= real(0.95));
    CHECK(*highest <= real(1.01));
}

TEST_CASE("soft constraints: one visit is implicit Euler of the damped spring, a second adds nothing, rigid stops",
          "[contact]") {
    // Catto's soft step: a constraint of f Hz and damping ratio zeta is the spring
    // k = m w^2, c = 2 m zeta w integrated by implicit Euler (contact/soft_constraint.hpp).
    const real m = 2;
    for (const real hertz : {real(1), real(30), real(240)})
        for (const real zeta : {real(0), real(0.7), real(10)})
            for (const real h : {real(1) / 240, real(1) / 60}) {
                CAPTURE(hertz, zeta, h);
                const real w = 2 * std::numbers::pi_v<real> * hertz, x0 = real(0.03), v0 = real(-1.5);
                const detail::Softness soft = detail::makeSoft(hertz, zeta, h);
                const real first = detail::softImpulse(soft, m, v0, x0, 0);
                const real v1 = v0 + first / m;
                CHECK(v1 == Approx((v0 - h * w * w * x0) / (1 + 2 * zeta * w * h + h * h * w * w)).epsilon(testing::tol(1e-12, 1e-5)));
                const real second = detail::softImpulse(soft, m, v1, x0, first);
                CHECK(std::abs(second) <= testing::tol(1e-12, 1e-5) * std::abs(first));
            }
    const detail::Softness rigid = detail::makeSoft(0, 1, real(1) / 60);
    CHECK(real(-1.5) + detail::softImpulse(rigid, m, real(-1.5), real(0.03), 0) / m == 0);
}

TEST_CASE("soft constraints: an undamped one oscillates at implicit Euler's frequency, a damped one decays at zeta w",
          "[contact]") {
    // x'' = -w^2 x by soft impulses and x += h v: implicit Euler turns by atan(h w) a step
    // (period 2 pi h / atan(h w)) and shrinks by 1 / sqrt(1 + h^2 w^2) a step.
    const auto run = [](real hertz, real zeta, real h, real seconds, real& period, real& amplitude) {
        const detail::Softness soft = detail::makeSoft(hertz, zeta, h);
        real x = real(0.1), v = 0, lastCrossing = -1, firstCrossing = -1;
        int crossings = 0;
        const int steps = static_cast<int>(std::lround(seconds / h));
        for (int i = 1; i <= steps; ++i) {
            const real before = x;
            v += detail::softImpulse(soft, 1, v, x, 0);
            x += h * v;
            if (before > 0 && x <= 0) {
                const real t = (static_cast<real>(i) - x / (x - before)) * h; // linear between steps
                if (firstCrossing < 0) firstCrossing = t;
                lastCrossing = t;
                ++crossings;
            }
        }
        period = crossings > 1 ? (lastCrossing - firstCrossing) / static_cast<real>(crossings - 1) : 0;
        amplitude = std::hypot(x, v / (2 * std::numbers::pi_v<real> * hertz));
    };
    const real h = real(1) / 600, hertz = 2, w = 2 * std::numbers::pi_v<real> * hertz;
    real period = 0, amplitude = 0;
    run(hertz, 0, h, 10, period, amplitude);
    CHECK(period == Approx(2 * std::numbers::pi_v<real> * h / std::atan(h * w)).epsilon(1e-3));
    CHECK(amplitude / real(0.1) == Approx(std::pow(1 + h * h * w * w, -real(0.5) * 6000)).epsilon(0.02));
    // Damping ratio 0.1 at 1 Hz, h = 1 ms: the amplitude after 5 s is exp(-zeta w t)
    // within implicit Euler's own loss, about h w^2 / 2 = 0.02 per second here.
    const real wd = 2 * std::numbers::pi_v<real>;
    run(1, real(0.1), real(1e-3), 5, period, amplitude);
    CHECK(amplitude / real(0.1) == Approx(std::exp(-real(0.1) * wd * 5) * std::exp(-real(1e-3) * wd * wd / 2 * 5)).epsilon(0.03));
}

TEST_CASE("two runs of a pyramid are bit-identical", "[contact][scene]") {
    auto a = benchRun("pyramid10", true), b = benchRun("pyramid10", true);
    for (int i = 0; i < 120; ++i) {
        a->scene.step();
        b->scene.step();
    }
    CHECK(testing::stateHash(a->scene.world()) == testing::stateHash(b->scene.world()));
}

TEST_CASE("a resolver observer changes no number of a stepping world", "[contact][scene]") {
    // The observer turns on the records and the per-update writes to the Body array;
    // the resolutions themselves must be the same. The cradle bounces (the
    // largest-first collision pass, or Millington's worst-first solver); pyramid10
    // runs the sweeps, shock propagation and projection.
    for (const VelocitySolver solver : {VelocitySolver::SequentialImpulses, VelocitySolver::WorstFirst}) {
        for (const bool cradle : {false, true}) {
            std::array<std::unique_ptr<Run>, 2> runs;
            for (auto& run : runs) {
                if (!cradle) {
                    run = benchRun("pyramid10", false, solver);
                    continue;
                }
                run = std::make_unique<Run>();
                run->scene.world().setSettings([&] {
                    WorldSettings s = run->scene.world().settings();
                    s.resolver.velocitySolver = solver;
                    return s;
                }());
                scenes::buildCradle(run->scene, 5, 1, 2);
            }
            int records = 0;
            runs[1]->scene.world().setResolverObserver([&](const ResolutionRecord&) { ++records; });
            INFO("solver " << static_cast<int>(solver) << (cradle ? ", cradle" : ", pyramid10"));
            for (int i = 0; i < 60; ++i) {
                runs[0]->scene.step();
                runs[1]->scene.step();
                REQUIRE(testing::stateHash(runs[0]->scene.world()) == testing::stateHash(runs[1]->scene.world()));
            }
            CHECK(records > 0);
        }
    }
}

TEST_CASE("the step's lists grow by a quarter and a list written over drops what it held when it grows", "[contact]") {
    std::vector<int> list;
    detail::reserveGrowing(list, 100);
    CHECK(list.capacity() == 100); // a jump to its size gets that size exactly
    detail::resizeGrowing(list, 101);
    CHECK(list.capacity() == 129); // a quarter more and a few
    CHECK(list.size() == 101);
    // Within its room a list keeps its storage and its elements.
    list[0] = 7;
    const int* storage = list.data();
    detail::resizeOver(list, 120);
    CHECK(list.data() == storage);
    CHECK(list[0] == 7);
    // Beyond it, the old elements are not carried over: the list grows empty and is then
    // sized (value-initialised), so nothing of the old list shows.
    detail::resizeOver(list, 200);
    CHECK(list.size() == 200);
    CHECK(list.capacity() == 200);
    CHECK(std::all_of(list.begin(), list.end(), [](int x) { return x == 0; }));
    detail::emplaceGrowing(list, 5);
    CHECK(list.capacity() == 254);
    CHECK(list.back() == 5);
    // A short list of large elements (a block of lanes is 2.5 kB): exactly its first
    // size, then a quarter more and one, not four spare.
    struct Large {
        char bytes[1024];
    };
    std::vector<Large> large;
    detail::reserveGrowing(large, 2);
    CHECK(large.capacity() == 2);
    detail::reserveGrowing(large, 3);
    CHECK(large.capacity() == 3);
    detail::reserveGrowing(large, 9);
    CHECK(large.capacity() == 9);
    detail::reserveGrowing(large, 10);
    CHECK(large.capacity() == 12);
    std::vector<int> small;
    detail::reserveGrowing(small, 2);
    CHECK(small.capacity() == 2);
    detail::reserveGrowing(small, 3);
    CHECK(small.capacity() == 6);
}

TEST_CASE("a list that grew for a burst gives its room back once it holds little, a small or busy one keeps it", "[contact]") {
    std::vector<double> burst(20000); // 160 kB: a pile's pairs all beginning at once
    burst.resize(2500);               // an eighth of it the step after: kept
    detail::releaseIdleRoom(burst);
    CHECK(burst.capacity() == 20000);
    burst.resize(2499); // less than an eighth: given back, the elements kept
    burst.back() = 3;
    detail::releaseIdleRoom(burst);
    CHECK(burst.capacity() == 2499);
    CHECK(burst.back() == 3);
    burst.clear();
    detail::releaseIdleRoom(burst); // 20 kB: too small to bother
    CHECK(burst.capacity() == 2499);
    std::vector<double> emptied(10000); // 80 kB, emptied by a settled scene: freed
    emptied.clear();
    detail::releaseIdleRoom(emptied);
    CHECK(emptied.capacity() == 0);
}
