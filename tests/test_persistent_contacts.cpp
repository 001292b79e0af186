// SPDX-License-Identifier: MIT
// Persistent contacts (collision/persistent_contacts.cpp): a pair's manifold carries
// its impulses to the next step, and a pair that barely moved keeps its points,
// placed again on the colliders, instead of running the shape test.

#include "helpers.hpp"
#include "physics/world/stages.hpp"
#include "scenes/scene.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>

using namespace jounce;
using testing::addGround;
using testing::at;
using testing::tol;
using testing::turn;

namespace {

real degrees(real d) { return d * std::numbers::pi_v<real> / 180; }

/// A unit box's manifold with the ground, found at rest on it, anchors recorded.
ContactManifold boxOnGround(const Transform& box, const Transform& ground) {
    Manifold found;
    REQUIRE(collide(Box{Vec3::Constant(real(0.5))}, box, Box{Vec3(20, real(0.5), 20)}, ground, real(0.01), found));
    ContactManifold m;
    m.manifold = found;
    detail::recordAnchors(m, box, ground);
    return m;
}

detail::CollisionSettings cache(real distance, real angle) {
    WorldSettings w;
    w.collisionMargin = real(0.01);
    w.contactCache = {distance, angle};
    return detail::collisionSettings(w); // as a step makes them
}

int count(const World& w, ContactManifold::Origin origin) {
    int n = 0;
    for (const ContactManifold& m : w.contacts()) n += m.origin == origin ? 1 : 0;
    return n;
}

} // namespace

TEST_CASE("persistent contacts: a pair refreshes only within the cache's distance and angle", "[collision]") {
    const Transform ground = at(Vec3(0, real(-0.5), 0));
    const Transform box = at(Vec3(real(0.3), real(0.499), real(-0.2)), turn(degrees(10), Vec3::UnitY()));
    const ContactManifold m = boxOnGround(box, ground);
    REQUIRE(m.manifold.count == 4);
    const std::span<const ContactManifold> last(&m, 1);
    const detail::CollisionSettings s = cache(real(0.001), degrees(2));
    CHECK(detail::mayRefresh(last, box, ground, s));
    Transform moved = box;
    moved.position.x() += real(0.0009);
    CHECK(detail::mayRefresh(last, moved, ground, s));
    moved.position.x() += real(0.0002); // 1.1 mm
    CHECK_FALSE(detail::mayRefresh(last, moved, ground, s));
    // Moving both together is no relative motion at all.
    const Vec3 far(5, 3, 1);
    CHECK(detail::mayRefresh(last, at(box.position + far, box.orientation), at(ground.position + far), s));
    Transform turned = box;
    turned.orientation = turn(degrees(1.9), Vec3::UnitX()) * box.orientation;
    CHECK(detail::mayRefresh(last, turned, ground, s));
    turned.orientation = turn(degrees(2.1), Vec3::UnitX()) * box.orientation;
    CHECK_FALSE(detail::mayRefresh(last, turned, ground, s));
    // Off, and never for a speculative manifold (it describes where the shapes will meet).
    CHECK_FALSE(detail::mayRefresh(last, box, ground, cache(0, degrees(2))));
    CHECK_FALSE(detail::mayRefresh(last, box, ground, cache(real(0.001), 0)));
    ContactManifold speculative = m;
    speculative.origin = ContactManifold::Origin::Speculative;
    CHECK_FALSE(detail::mayRefresh(std::span<const ContactManifold>(&speculative, 1), box, ground, s));
    speculative.origin = ContactManifold::Origin::Moving; // found closing fast: no anchors
    CHECK_FALSE(detail::mayRefresh(std::span<const ContactManifold>(&speculative, 1), box, ground, s));
    CHECK_FALSE(detail::mayRefresh({}, box, ground, s));
}

TEST_CASE("persistent contacts: refreshed points match the shape test's after a small move", "[collision]") {
    const Transform ground = at(Vec3(0, real(-0.5), 0));
    const Transform box = at(Vec3(real(0.3), real(0.499), real(-0.2)), turn(degrees(10), Vec3::UnitY()));
    ContactManifold m = boxOnGround(box, ground);
    // Sunk 0.4 mm deeper and slid 0.5 mm: face on face, the refresh is exact.
    const Transform moved = at(box.position + Vec3(real(0.0005), real(-0.0004), 0), box.orientation);
    detail::refreshPoints(m, moved, ground);
    CHECK(m.origin == ContactManifold::Origin::Refreshed);
    Manifold fresh;
    REQUIRE(collide(Box{Vec3::Constant(real(0.5))}, moved, Box{Vec3(20, real(0.5), 20)}, ground, real(0.01), fresh));
    REQUIRE(fresh.count == m.manifold.count);
    CHECK((m.manifold.normal - fresh.normal).norm() < tol(1e-12, 1e-6));
    for (int i = 0; i < fresh.count; ++i) {
        const ContactPoint& p = m.manifold.points[static_cast<std::size_t>(i)];
        CHECK(p.depth == Approx(real(0.0014)).margin(tol(1e-12, 1e-6)));
        // The same corner of the box (features match), at the same place but for half
        // the slide: B's anchor stays where it was on the ground (the refresh's error is
        // at most half the cache distance).
        bool same = false;
        for (int j = 0; j < fresh.count; ++j) {
            const ContactPoint& q = fresh.points[static_cast<std::size_t>(j)];
            same = same || (q.feature == p.feature && (q.point - p.point).norm() < real(0.00026) &&
                            std::abs(q.depth - p.depth) < tol(1e-12, 1e-6));
        }
        CHECK(same);
    }
}

TEST_CASE("persistent contacts: a resting box's manifold carries the impulse that holds it, m g h a step",
          "[collision][scene]") {
    // The impulse the ground gives a resting box each step is its weight times the
    // step, whichever solver; the manifold keeps it for the next step's warm start.
    for (const ContactSolver solver : {ContactSolver::Resolver, ContactSolver::SoftStep}) {
        WorldSettings settings;
        settings.sleep.enabled = false;
        settings.resolver.solver = solver;
        World w(settings);
        addGround(w);
        BodyDesc box;
        box.position = Vec3(0, real(0.5), 0);
        box.colliders.push_back(testing::boxCollider(Vec3::Constant(real(0.5)))); // 1000 kg
        box.massFromColliders = true;
        const BodyId id = w.createBody(box);
        const real h = real(1) / 60;
        for (int i = 0; i < 120; ++i) w.step(h);
        REQUIRE(w.contacts().size() == 1);
        const ContactManifold& m = w.contacts().front();
        real load = 0;
        Vec3 sideways = Vec3::Zero();
        for (int i = 0; i < m.manifold.count; ++i) {
            load += m.normalImpulse[static_cast<std::size_t>(i)];
            sideways += m.frictionImpulse[static_cast<std::size_t>(i)].cast<real>();
        }
        const real weight = real(9.81) * h / w.body(id).inverseMass;
        INFO("solver " << static_cast<int>(solver) << ": load " << load << " N s, weight x h " << weight << ", friction "
                       << sideways.transpose());
        CHECK(load == Approx(weight).epsilon(0.01));
        // Resting straight: the points' friction may push against each other, but adds
        // up to nothing.
        CHECK(sideways.norm() < weight * real(1e-3));
    }
}

TEST_CASE("persistent contacts: a settled pyramid refreshes its pairs, and with the cache off finds them all",
          "[collision][scene]") {
    for (const bool on : {true, false}) {
        auto scene = scenes::makeScene("pyramid10");
        World& w = scene->world();
        WorldSettings s = w.settings();
        s.sleep.enabled = false;
        if (!on) s.contactCache.distance = 0;
        w.setSettings(s);
        for (int i = 0; i < 240; ++i) scene->step();
        const int refreshed = count(w, ContactManifold::Origin::Refreshed);
        const auto total = static_cast<int>(w.contacts().size());
        INFO("cache " << on << ": " << refreshed << " of " << total << " manifolds refreshed");
        REQUIRE(total > 50);
        if (on)
            CHECK(refreshed > total * 9 / 10);
        else
            CHECK(refreshed == 0);
        // Every refreshed manifold still says what the shape test would, to a few
        // micrometres: the pyramid stands still.
        for (const ContactManifold& m : w.contacts()) {
            if (m.origin != ContactManifold::Origin::Refreshed) continue;
            Manifold fresh;
            collide(w.collider(m.colliderA).shape, w.colliderPose(m.colliderA), w.collider(m.colliderB).shape,
                    w.colliderPose(m.colliderB), s.collisionMargin, fresh);
            REQUIRE(fresh.count == m.manifold.count);
            // (The normal is kept in B's frame in float, Vec3f: its length is 1 to float precision.)
            CHECK(fresh.normal.dot(m.manifold.normal) > 1 - tol(1e-7, 1e-5));
            for (int i = 0; i < fresh.count; ++i)
                CHECK(std::abs(fresh.deepest().depth - m.manifold.deepest().depth) < real(2e-5));
        }
    }
}

TEST_CASE("persistent contacts: spheres on a plane are tested afresh every step, boxes refreshed", "[collision][scene]") {
    // A sphere's test against a plane (or a sphere, a capsule) is a few products in
    // closed form, cheaper than placing kept points again: such pairs are never
    // refreshed, and carry their impulses by feature all the same.
    WorldSettings settings;
    settings.sleep.enabled = false;
    World w(settings);
    BodyDesc ground;
    ground.type = BodyType::Static;
    ground.colliders.push_back(makeCollider(HalfSpace{Vec3::UnitY(), 0}, 1000));
    w.createBody(ground);
    BodyDesc ball;
    ball.position = Vec3(0, real(0.5), 0);
    ball.colliders.push_back(makeCollider(Sphere{real(0.5)}, 1000));
    ball.massFromColliders = true;
    const BodyId ballId = w.createBody(ball);
    BodyDesc box;
    box.position = Vec3(3, real(0.5), 0);
    box.colliders.push_back(testing::boxCollider(Vec3::Constant(real(0.5))));
    box.massFromColliders = true;
    w.createBody(box);
    const real h = real(1) / 60;
    int ballRefreshed = 0, boxRefreshed = 0;
    real ballLoad = 0;
    for (int i = 0; i < 120; ++i) {
        w.step(h);
        for (const ContactManifold& m : w.contacts()) {
            const bool isBall = m.bodyA == ballId || m.bodyB == ballId;
            if (m.origin == ContactManifold::Origin::Refreshed) ++(isBall ? ballRefreshed : boxRefreshed);
            if (isBall) ballLoad = m.normalImpulse[0];
        }
    }
    CHECK(ballRefreshed == 0);
    CHECK(boxRefreshed > 100);
    // The ball's single point still carries its weight times the step to the next.
    CHECK(ballLoad == Approx(real(9.81) * h / w.body(ballId).inverseMass).epsilon(0.01));
}
