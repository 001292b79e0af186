// SPDX-License-Identifier: MIT
// World queries through the broad phase's trees give exactly what a scan of every
// collider gives (the scan below is the queries' old implementation), after steps and
// between them: bodies created, moved, destroyed, colliders removed, a restored world,
// boxes that escaped their fat boxes, and queries from several threads at once.

#include "expect_error.hpp"
#include "helpers.hpp"

#include <jounce/collision/narrow_phase.hpp>
#include <jounce/collision/ray_cast.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <limits>
#include <numbers>
#include <random>
#include <thread>
#include <vector>

using namespace jounce;

namespace {

using RayHit = World::RayHit;

/// Every collider in index order whose category meets `mask`, with its pose and box.
template <typename Visit> void scan(const World& w, std::uint32_t mask, Visit visit) {
    for (const ColliderId id : w.colliderIds()) {
        const Collider& c = w.collider(id);
        if ((c.filter.category & mask) == 0) continue;
        const Transform pose = w.colliderPose(id);
        visit(id, c, pose, computeAabb(c.shape, pose));
    }
}

std::vector<RayHit> scanRay(const World& w, const Vec3& from, const Vec3& to, std::uint32_t mask) {
    std::vector<RayHit> hits;
    scan(w, mask, [&](ColliderId id, const Collider& c, const Transform& pose, const Aabb& box) {
        ShapeRayHit h;
        if (rayHitsAabb(box, from, to) && rayCast(c.shape, pose, from, to, h))
            hits.push_back({c.body, id, h.fraction, h.point, h.normal});
    });
    std::stable_sort(hits.begin(), hits.end(), [](const RayHit& a, const RayHit& b) { return a.fraction < b.fraction; });
    return hits;
}

std::vector<ColliderId> scanOverlap(const World& w, const Shape& shape, const Transform& pose, std::uint32_t mask) {
    const Aabb query = computeAabb(shape, pose);
    std::vector<ColliderId> found;
    scan(w, mask, [&](ColliderId id, const Collider& c, const Transform& cp, const Aabb& box) {
        Manifold m;
        if (box.overlaps(query) && collide(shape, pose, c.shape, cp, 0, m)) found.push_back(id);
    });
    return found;
}

std::optional<World::ClosestPoint> scanClosest(const World& w, const Vec3& point, real maxDistance, std::uint32_t mask) {
    std::optional<World::ClosestPoint> best;
    const Aabb reach{point.array() - maxDistance, point.array() + maxDistance};
    scan(w, mask, [&](ColliderId id, const Collider& c, const Transform& cp, const Aabb& box) {
        if (!box.overlaps(reach)) return;
        const PointProximity p = signedDistance(c.shape, cp, point);
        if (p.distance <= maxDistance && (!best || p.distance < best->proximity.distance))
            best = World::ClosestPoint{c.body, id, p};
    });
    return best;
}

using CastHit = World::ShapeCastHit;

std::vector<CastHit> scanShapeCast(const World& w, const Shape& shape, const Transform& pose, const Vec3& translation, std::uint32_t mask) {
    std::vector<CastHit> hits;
    scan(w, mask, [&](ColliderId id, const Collider& c, const Transform& cp, const Aabb&) {
        if (const std::optional<ShapeCastContact> h = shapeCast(shape, pose, translation, c.shape, cp))
            hits.push_back({c.body, id, h->fraction, h->point, h->normal});
    });
    std::stable_sort(hits.begin(), hits.end(), [](const CastHit& a, const CastHit& b) { return a.fraction < b.fraction; });
    return hits;
}

bool sameCasts(const std::vector<CastHit>& a, const std::vector<CastHit>& b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](const CastHit& x, const CastHit& y) {
               return x.body == y.body && x.collider == y.collider && x.fraction == y.fraction && x.point == y.point && x.normal == y.normal;
           });
}

bool same(const RayHit& a, const RayHit& b) {
    return a.body == b.body && a.collider == b.collider && a.fraction == b.fraction && a.point == b.point &&
           a.normal == b.normal;
}

bool same(const std::vector<RayHit>& a, const std::vector<RayHit>& b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](const RayHit& x, const RayHit& y) { return same(x, y); });
}

bool same(const std::optional<World::ClosestPoint>& a, const std::optional<World::ClosestPoint>& b) {
    if (a.has_value() != b.has_value()) return false;
    if (!a) return true;
    return a->body == b->body && a->collider == b->collider && a->proximity.distance == b->proximity.distance &&
           a->proximity.point == b->proximity.point && a->proximity.normal == b->proximity.normal;
}

/// A pile of spheres, boxes, capsules and hulls over a ground and some static blocks,
/// in three collision categories.
struct Pile {
    World world;
    std::mt19937 rng{27};
    std::vector<BodyId> bodies;

    explicit Pile(const WorldSettings& settings = {}) : world(settings) {
        BodyDesc ground;
        ground.type = BodyType::Static;
        ground.colliders.push_back(makeCollider(HalfSpace{}, 1000));
        world.createBody(ground);
        for (int i = 0; i < 20; ++i) {
            BodyDesc block;
            block.type = BodyType::Static;
            block.position = Vec3(uniform(-20, 20), uniform(0, 2), uniform(-20, 20));
            block.colliders.push_back(makeCollider(Box{Vec3(uniform(0.3, 2), uniform(0.3, 1), uniform(0.3, 2))}, 1000));
            world.createBody(block);
        }
        for (int i = 0; i < 300; ++i) add();
    }
    real uniform(double lo, double hi) { return real(std::uniform_real_distribution<double>(lo, hi)(rng)); }
    Vec3 point(double extent) { return Vec3(uniform(-extent, extent), uniform(-1, extent), uniform(-extent, extent)); }

    BodyId add() {
        static const std::vector<Vec3> corners{Vec3(0, 0, 0), Vec3(0.6, 0, 0), Vec3(0, 0.5, 0), Vec3(0, 0, 0.4),
                                               Vec3(0.3, 0.3, 0.3)};
        static const ConvexHull hull = makeConvexHull(corners);
        BodyDesc d;
        d.position = Vec3(uniform(-15, 15), uniform(1, 12), uniform(-15, 15));
        d.orientation = Quat(uniform(-1, 1), uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)).normalized();
        d.linearVelocity = Vec3(uniform(-3, 3), uniform(-3, 3), uniform(-3, 3));
        d.angularVelocity = Vec3(uniform(-5, 5), uniform(-5, 5), uniform(-5, 5));
        Shape shape;
        switch (bodies.size() % 4) {
        case 0: shape = Sphere{uniform(0.1, 0.6)}; break;
        case 1: shape = Box{Vec3(uniform(0.1, 0.6), uniform(0.1, 0.6), uniform(0.1, 0.6))}; break;
        case 2: shape = Capsule{uniform(0.1, 0.4), uniform(0.1, 0.5)}; break;
        default: shape = hull; break;
        }
        ColliderDesc c = makeCollider(shape, 1000);
        c.filter.category = 1u << (bodies.size() % 3);
        d.colliders.push_back(c);
        bodies.push_back(world.createBody(d));
        return bodies.back();
    }
};

/// Random rays, boxes, spheres and points: every answer equals the scan's.
void compareQueries(Pile& pile, int count) {
    count /= testing::sanitizedStepDivisor; // the scans are slow under the sanitizers
    const World& w = pile.world;
    const std::uint32_t masks[] = {0xffffffffu, 1u, 6u};
    int hits = 0, casts = 0;
    for (int i = 0; i < count; ++i) {
        const std::uint32_t mask = masks[i % 3];
        // Short rays anywhere, and long ones through a body (most of them hit).
        const Vec3 from = pile.point(25);
        const BodyId aim = pile.bodies[static_cast<std::size_t>(i * 7) % pile.bodies.size()];
        const Vec3 through = w.contains(aim) ? w.body(aim).centerOfMass : pile.point(25);
        const Vec3 to = i % 4 == 0 ? Vec3(from + pile.point(3)) : Vec3(2 * through - from);
        const std::vector<RayHit> all = w.rayCastAll(from, to, mask);
        REQUIRE(same(all, scanRay(w, from, to, mask)));
        const std::optional<RayHit> closest = w.rayCastClosest(from, to, mask);
        REQUIRE(closest.has_value() == !all.empty());
        if (closest) REQUIRE(same(*closest, all.front()));
        hits += static_cast<int>(all.size());

        const Transform pose{pile.point(20), Quat(pile.uniform(-1, 1), pile.uniform(-1, 1), pile.uniform(-1, 1), 1).normalized()};
        const Shape shape = i % 2 == 0 ? Shape(Box{Vec3(pile.uniform(0.2, 4), pile.uniform(0.2, 4), pile.uniform(0.2, 4))})
                                       : Shape(Sphere{pile.uniform(0.2, 4)});
        REQUIRE(w.overlap(shape, pose, mask) == scanOverlap(w, shape, pose, mask));

        const Vec3 p = pile.point(20);
        const real reach = pile.uniform(0, 5);
        REQUIRE(same(w.closestPoint(p, reach, mask), scanClosest(w, p, reach, mask)));

        // A shape cast from the ray's start toward its end (a quarter of the casts).
        if (i % 4 == 1) {
            const Shape cast = i % 8 == 1 ? Shape(Capsule{pile.uniform(0.1, 0.5), pile.uniform(0.1, 0.5)})
                                          : Shape(Box{Vec3(pile.uniform(0.1, 0.5), pile.uniform(0.1, 0.5), pile.uniform(0.1, 0.5))});
            const Transform start{from, pose.orientation};
            const std::vector<CastHit> cast0 = w.shapeCastAll(cast, start, to - from, mask);
            REQUIRE(sameCasts(cast0, scanShapeCast(w, cast, start, to - from, mask)));
            // The closest, which skips colliders its box reaches after the best hit so far: the first of all.
            const std::optional<CastHit> first = w.shapeCastClosest(cast, start, to - from, mask);
            REQUIRE(first.has_value() == !cast0.empty());
            if (first) REQUIRE(sameCasts({*first}, {cast0.front()}));
            casts += static_cast<int>(cast0.size());
        }
    }
    CHECK(hits > count / 4); // the rays found something to compare
    CHECK(casts > count / 16); // and so did the casts
}

} // namespace

TEST_CASE("world queries through the trees equal a scan of every collider", "[collision]") {
    Pile pile;
    compareQueries(pile, 200); // before any step: the scan itself
    for (int s = 0; s < 30; ++s) pile.world.step(real(1) / 60);
    compareQueries(pile, 300);

    SECTION("after bodies are created, moved and destroyed since the last step") {
        for (int i = 0; i < 20; ++i) pile.add();
        compareQueries(pile, 200); // new colliders are not in the trees yet
        for (int i = 0; i < 40; ++i) pile.world.destroyBody(pile.bodies[static_cast<std::size_t>(i * 3)]);
        for (int i = 0; i < 10; ++i) pile.add(); // reusing the destroyed bodies' slots
        compareQueries(pile, 200);
        pile.world.setPosition(pile.bodies[200], Vec3(0, 3, 0));
        pile.world.setOrientation(pile.bodies[201], Quat(Eigen::AngleAxis<real>(1, Vec3::UnitX())));
        compareQueries(pile, 200);
        pile.world.step(real(1) / 60);
        compareQueries(pile, 200);
        const BodyId extra = pile.bodies[202];
        pile.world.createCollider(extra, makeCollider(Sphere{real(0.3)}, 1000));
        compareQueries(pile, 100);
        pile.world.destroyCollider(pile.world.colliderIdsOf(extra).front());
        compareQueries(pile, 100);
    }
    SECTION("in a restored world") {
        World copy;
        copy.restoreState(pile.world.saveState());
        std::swap(copy, pile.world);
        compareQueries(pile, 200);
        pile.world.step(real(1) / 60);
        compareQueries(pile, 200);
    }
}

TEST_CASE("world queries stay exact when bodies leave their fat boxes within a step", "[collision]") {
    WorldSettings settings;
    settings.aabbMargin = 0;       // fat boxes are tight
    settings.continuous = false;   // and do not cover the step's motion
    Pile pile(settings);
    for (int s = 0; s < 20; ++s) {
        pile.world.step(real(1) / 30);
        compareQueries(pile, 40);
    }
}

TEST_CASE("world queries from several threads at once agree with one thread", "[collision]") {
    Pile pile;
    for (int s = 0; s < 10; ++s) pile.world.step(real(1) / 60);
    std::vector<std::pair<Vec3, Vec3>> rays;
    for (int i = 0; i < 400; ++i) rays.emplace_back(pile.point(25), pile.point(25));
    std::vector<std::vector<RayHit>> expected;
    for (const auto& [from, to] : rays) expected.push_back(pile.world.rayCastAll(from, to));
    // And a capsule cast along each ray.
    const Shape capsule = Capsule{real(0.2), real(0.3)};
    const auto castAlong = [&](const std::pair<Vec3, Vec3>& ray) {
        return pile.world.shapeCastAll(capsule, Transform{ray.first, Quat::Identity()}, ray.second - ray.first);
    };
    std::vector<std::vector<CastHit>> expectedCasts;
    for (const auto& ray : rays) expectedCasts.push_back(castAlong(ray));
    // And a box overlap and a closest point at each ray's start.
    const Shape box = Box{Vec3(1, real(0.5), 2)};
    const auto overlapAt = [&](const std::pair<Vec3, Vec3>& ray) { return pile.world.overlap(box, Transform{ray.first, Quat::Identity()}); };
    const auto nearestTo = [&](const std::pair<Vec3, Vec3>& ray) { return pile.world.closestPoint(ray.first, 3); };
    std::vector<std::vector<ColliderId>> expectedOverlaps;
    std::vector<std::optional<World::ClosestPoint>> expectedNearest;
    for (const auto& ray : rays) {
        expectedOverlaps.push_back(overlapAt(ray));
        expectedNearest.push_back(nearestTo(ray));
    }
    std::vector<int> agree(4, 0);
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&, t] {
            for (std::size_t i = 0; i < rays.size(); ++i)
                agree[static_cast<std::size_t>(t)] += same(pile.world.rayCastAll(rays[i].first, rays[i].second), expected[i]) &&
                                                              sameCasts(castAlong(rays[i]), expectedCasts[i]) &&
                                                              overlapAt(rays[i]) == expectedOverlaps[i] &&
                                                              same(nearestTo(rays[i]), expectedNearest[i])
                                                          ? 1
                                                          : 0;
        });
    for (std::thread& t : threads) t.join();
    for (int a : agree) CHECK(a == static_cast<int>(rays.size()));
}

namespace {

/// A static box floor with its top at y = 0, a wall whose face is at x = 4.5, and a
/// mesh slab (two triangles) at y = 1 over x in [-12, -8]: what the casts below meet.
struct CastWorld {
    World w;
    BodyId floor, wall, slab;
    CastWorld() {
        BodyDesc f;
        f.type = BodyType::Static;
        f.position = Vec3(0, -1, 0);
        f.colliders.push_back(makeCollider(Box{Vec3(20, 1, 20)}, 1000));
        floor = w.createBody(f);
        BodyDesc g;
        g.type = BodyType::Static;
        g.position = Vec3(5, 2, 0);
        g.colliders.push_back(makeCollider(Box{Vec3(real(0.5), 2, 5)}, 1000));
        g.colliders.back().filter.category = 2; // a mask of 1 leaves it out
        wall = w.createBody(g);
        BodyDesc m;
        m.type = BodyType::Static;
        const std::vector<Vec3> v{Vec3(-12, 1, -2), Vec3(-8, 1, -2), Vec3(-8, 1, 2), Vec3(-12, 1, 2)};
        const std::vector<std::array<std::uint32_t, 3>> t{{0, 2, 1}, {0, 3, 2}}; // counter-clockwise seen from above
        m.colliders.push_back(makeCollider(makeTriangleMesh(v, t), 1000));
        slab = w.createBody(m);
        w.step(real(1) / 60); // the trees hold them
    }
};

/// How far short of touching a hit left the shape: skin / 2 to skin, by the contract.
bool withinSkin(real gap) { return gap >= shapeCastSkin / 2 - real(1e-6) && gap <= shapeCastSkin + real(1e-6); }

} // namespace

TEST_CASE("a shape cast stops within the skin of the first contact, with the surface's normal", "[collision]") {
    CastWorld s;
    SECTION("a sphere dropped onto the floor") {
        const auto hit = s.w.shapeCastClosest(Sphere{real(0.5)}, Transform{Vec3(0, 3, 0), Quat::Identity()}, Vec3(0, -10, 0));
        REQUIRE(hit);
        const real gap = 3 - 10 * hit->fraction - real(0.5); // the sphere's bottom above y = 0
        INFO("fraction " << hit->fraction << ", gap " << gap << " m, normal " << hit->normal.transpose() << ", point " << hit->point.transpose());
        CHECK(hit->body == s.floor);
        CHECK(withinSkin(gap));
        CHECK((hit->normal - Vec3::UnitY()).norm() < real(1e-6));
        CHECK((hit->point - Vec3(0, gap / 2, 0)).norm() < real(1e-6));
    }
    SECTION("a box turned 45 degrees about y, its edge first into the wall") {
        const Quat turned(Eigen::AngleAxis<real>(std::numbers::pi_v<real> / 4, Vec3::UnitY()));
        const auto hit = s.w.shapeCastClosest(Box{Vec3::Constant(real(0.5))}, Transform{Vec3(0, 1, 0), turned}, Vec3(8, 0, 0));
        REQUIRE(hit);
        const real gap = real(4.5) - (8 * hit->fraction + real(0.5) * std::sqrt(real(2))); // its leading edge short of the face
        INFO("fraction " << hit->fraction << ", gap " << gap << " m, normal " << hit->normal.transpose());
        CHECK(hit->body == s.wall);
        CHECK(withinSkin(gap));
        CHECK((hit->normal + Vec3::UnitX()).norm() < real(1e-6));
    }
    SECTION("an upright capsule dropped onto the mesh slab") {
        const auto hit = s.w.shapeCastClosest(Capsule{real(0.3), real(0.5)}, Transform{Vec3(-10, 4, 0), Quat::Identity()}, Vec3(0, -4, 0));
        REQUIRE(hit);
        const real gap = 4 - 4 * hit->fraction - real(0.8) - 1; // its bottom above the slab
        INFO("fraction " << hit->fraction << ", gap " << gap << " m, normal " << hit->normal.transpose());
        CHECK(hit->body == s.slab);
        CHECK(withinSkin(gap));
        CHECK((hit->normal - Vec3::UnitY()).norm() < real(1e-6));
    }
    SECTION("a hull dropped onto the mesh slab and a cylinder slid into the wall") {
        const Shape hull = makeConvexHull(std::vector<Vec3>{{-.3, 0, -.3}, {.3, 0, -.3}, {.3, 0, .3}, {-.3, 0, .3}, {0, .6, 0}});
        const auto onSlab = s.w.shapeCastClosest(hull, Transform{Vec3(-10, 3, 0), Quat::Identity()}, Vec3(1, -3, 0));
        REQUIRE(onSlab);
        const real gap = 3 - 3 * onSlab->fraction - 1; // its base above the slab
        INFO("fraction " << onSlab->fraction << ", gap " << gap << " m, normal " << onSlab->normal.transpose());
        CHECK(onSlab->body == s.slab);
        CHECK(withinSkin(gap));
        CHECK((onSlab->normal - Vec3::UnitY()).norm() < real(1e-6));
        const Shape drum = Cylinder{real(0.4), real(0.5)};
        const auto onWall = s.w.shapeCastClosest(drum, Transform{Vec3(0, 1, real(0.5)), Quat::Identity()}, Vec3(6, 0, 0));
        REQUIRE(onWall);
        const real wallGap = real(4.5) - real(0.4) - 6 * onWall->fraction;
        INFO("fraction " << onWall->fraction << ", gap " << wallGap << " m, normal " << onWall->normal.transpose());
        CHECK(onWall->body == s.wall);
        CHECK(withinSkin(wallGap));
        CHECK((onWall->normal + Vec3::UnitX()).norm() < real(1e-3));
    }
    SECTION("already touching, grazing, missing, and all hits in order") {
        const Shape ball = Sphere{real(0.5)};
        const auto inside = s.w.shapeCastClosest(ball, Transform{Vec3(0, real(0.3), 0), Quat::Identity()}, Vec3(1, 0, 0));
        REQUIRE(inside);
        CHECK(inside->fraction == 0);
        CHECK((inside->normal - Vec3::UnitY()).norm() < real(1e-6));
        // Resting within the skin of the floor (0.7 mm above it) and moving along it or
        // up: nothing (the floor is not in the way); moving down into it: at once.
        for (const Vec3& move : {Vec3(3, 0, 0), Vec3(1, 1, 0)})
            CHECK(!s.w.shapeCastClosest(ball, Transform{Vec3(0, real(0.5007), 0), Quat::Identity()}, move));
        const auto pressed = s.w.shapeCastClosest(ball, Transform{Vec3(0, real(0.5007), 0), Quat::Identity()}, Vec3(1, -1, 0));
        REQUIRE(pressed);
        CHECK(pressed->fraction == 0);
        // Along the floor 2 mm above it, 4 m toward the wall: nothing until the wall.
        const auto graze = s.w.shapeCastClosest(ball, Transform{Vec3(0, real(0.502), 0), Quat::Identity()}, Vec3(real(3.9), 0, 0));
        CHECK(!graze);
        const auto reaches = s.w.shapeCastClosest(ball, Transform{Vec3(0, real(0.502), 0), Quat::Identity()}, Vec3(8, 0, 0));
        REQUIRE(reaches);
        CHECK(reaches->body == s.wall);
        const real wallGap = real(4.5) - real(0.5) - 8 * reaches->fraction;
        INFO("reached the wall at fraction " << reaches->fraction << ", " << wallGap << " m short of it");
        CHECK(withinSkin(wallGap));
        // Down through the floor from above the wall: the wall's top, then the floor.
        const std::vector<World::ShapeCastHit> all =
            s.w.shapeCastAll(Sphere{real(0.2)}, Transform{Vec3(real(4.6), 6, 0), Quat::Identity()}, Vec3(0, -6, 0));
        REQUIRE(all.size() == 2);
        CHECK(all[0].body == s.wall);
        CHECK(all[1].body == s.floor);
        CHECK(all[0].fraction < all[1].fraction);
        // A mask that leaves the wall out sees the floor alone; a cast that stops short, nothing.
        const auto masked = s.w.shapeCastClosest(Sphere{real(0.2)}, Transform{Vec3(real(4.6), 6, 0), Quat::Identity()}, Vec3(0, -6, 0), 1u);
        REQUIRE(masked);
        CHECK(masked->body == s.floor);
        CHECK(!s.w.shapeCastClosest(ball, Transform{Vec3(0, 3, 0), Quat::Identity()}, Vec3(0, -1, 0)));
    }
}

TEST_CASE("a shape cast against a half-space: the plane's distance, and nothing moving along it", "[collision]") {
    World w;
    BodyDesc ground;
    ground.type = BodyType::Static;
    ground.colliders.push_back(makeCollider(HalfSpace{}, 1000));
    w.createBody(ground);
    const Shape box = Box{Vec3(real(0.5), real(0.25), real(0.5))};
    const auto hit = w.shapeCastClosest(box, Transform{Vec3(0, 2, 0), Quat::Identity()}, Vec3(3, -4, 0));
    REQUIRE(hit);
    const real gap = 2 - 4 * hit->fraction - real(0.25);
    INFO("fraction " << hit->fraction << ", gap " << gap);
    CHECK(withinSkin(gap));
    CHECK((hit->normal - Vec3::UnitY()).norm() < real(1e-6));
    // Sliding along it within the skin, a long way: no hit (the sweeps' walk ends at once).
    CHECK(!w.shapeCastClosest(box, Transform{Vec3(0, real(0.2507), 0), Quat::Identity()}, Vec3(30, 0, 0)));
}

TEST_CASE("a query filter leaves out a body and sensors and what its callback refuses and a stale body names the field", "[collision]") {
    CastWorld s;
    // A sensor box over the floor at x = 2 (a trigger zone), on its own body.
    BodyDesc z;
    z.type = BodyType::Static;
    z.position = Vec3(2, 1, 0);
    z.colliders.push_back(makeCollider(Box{Vec3(real(0.5), real(0.5), real(0.5))}, 1000));
    z.colliders.back().sensor = true;
    const BodyId zone = s.w.createBody(z);
    s.w.step(real(1) / 60);
    const Vec3 above(2, 5, 0), below(2, -1, 0);
    // Rays: the sensor first, then the floor; without sensors, the floor.
    REQUIRE(s.w.rayCastClosest(above, below));
    CHECK(s.w.rayCastClosest(above, below)->body == zone);
    QueryFilter solid;
    solid.sensors = false;
    REQUIRE(s.w.rayCastClosest(above, below, solid));
    CHECK(s.w.rayCastClosest(above, below, solid)->body == s.floor);
    QueryFilter notZone;
    notZone.ignore = zone;
    REQUIRE(s.w.rayCastClosest(above, below, notZone));
    CHECK(s.w.rayCastClosest(above, below, notZone)->body == s.floor);
    CHECK(s.w.rayCastAll(above, below, notZone).size() == 1);
    // A callback refusing the floor's collider: only the sensor is left.
    const ColliderId floorCollider = s.w.colliderIdsOf(s.floor).front();
    QueryFilter noFloor;
    noFloor.accept = [&](ColliderId id) { return id != floorCollider; };
    const std::vector<World::RayHit> left = s.w.rayCastAll(above, below, noFloor);
    REQUIRE(left.size() == 1);
    CHECK(left[0].body == zone);
    // Shape casts beside the zone: toward the wall; ignoring it, nothing (the floor is not in the way).
    const Transform ball{Vec3(0, 1, 2), Quat::Identity()};
    REQUIRE(s.w.shapeCastClosest(Sphere{real(0.3)}, ball, Vec3(8, 0, 0)));
    CHECK(s.w.shapeCastClosest(Sphere{real(0.3)}, ball, Vec3(8, 0, 0))->body == s.wall);
    QueryFilter notWall;
    notWall.ignore = s.wall;
    CHECK(!s.w.shapeCastClosest(Sphere{real(0.3)}, ball, Vec3(8, 0, 0), notWall));
    CHECK(s.w.shapeCastAll(Sphere{real(0.3)}, ball, Vec3(8, 0, 0), notWall).empty());
    // Overlap and closest point: a box over the zone touches it and the floor.
    const Transform onZone{Vec3(2, real(0.4), 0), Quat::Identity()};
    CHECK(s.w.overlap(Box{Vec3(real(0.3), real(0.5), real(0.3))}, onZone).size() == 2);
    CHECK(s.w.overlap(Box{Vec3(real(0.3), real(0.5), real(0.3))}, onZone, solid).size() == 1);
    REQUIRE(s.w.closestPoint(Vec3(2, real(1.7), 0), 2));
    CHECK(s.w.closestPoint(Vec3(2, real(1.7), 0), 2)->body == zone);
    REQUIRE(s.w.closestPoint(Vec3(2, real(1.7), 0), 2, notZone));
    CHECK(s.w.closestPoint(Vec3(2, real(1.7), 0), 2, notZone)->body == s.floor);
    // A destroyed body as `ignore`: every query names its field and answers nothing.
    BodyDesc gone;
    const BodyId stale = s.w.createBody(gone);
    s.w.destroyBody(stale);
    QueryFilter bad;
    bad.ignore = stale;
    const std::uint64_t before = testing::stateHash(s.w);
    testing::expectError([&] { s.w.rayCastClosest(above, below, bad); }, "rayCast.filter.ignore");
    testing::expectError([&] { s.w.rayCastAll(above, below, bad); }, "rayCast.filter.ignore");
    testing::expectError([&] { s.w.shapeCastClosest(Sphere{1}, ball, Vec3(1, 0, 0), bad); }, "shapeCast.filter.ignore");
    testing::expectError([&] { s.w.shapeCastAll(Sphere{1}, ball, Vec3(1, 0, 0), bad); }, "shapeCast.filter.ignore");
    testing::expectError([&] { s.w.overlap(Sphere{1}, ball, bad); }, "overlap.filter.ignore");
    testing::expectError([&] { s.w.closestPoint(above, 1, bad); }, "closestPoint.filter.ignore");
    CHECK(testing::stateHash(s.w) == before);
}

TEST_CASE("shape casts refuse what they cannot cast, naming the field", "[collision]") {
    CastWorld s;
    const Transform at{Vec3(0, 3, 0), Quat::Identity()};
    const real nan = std::numeric_limits<real>::quiet_NaN();
    testing::expectError([&] { s.w.shapeCastClosest(HalfSpace{}, at, Vec3(0, -1, 0)); }, "shapeCast.shape");
    testing::expectError([&] { s.w.shapeCastAll(Sphere{0}, at, Vec3(0, -1, 0)); }, "shapeCast.shape.Sphere.radius");
    testing::expectError([&] { s.w.shapeCastAll(Sphere{1}, Transform{Vec3(nan, 0, 0), Quat::Identity()}, Vec3(0, -1, 0)); }, "shapeCast.pose.position");
    testing::expectError([&] { s.w.shapeCastAll(Sphere{1}, Transform{Vec3::Zero(), Quat(2, 0, 0, 0)}, Vec3(0, -1, 0)); }, "shapeCast.pose.orientation");
    testing::expectError([&] { s.w.shapeCastAll(Sphere{1}, at, Vec3(0, real(-2e6), 0)); }, "shapeCast.translation");
    testing::expectError([&] { s.w.shapeCastAll(Sphere{1}, at, Vec3(0, nan, 0)); }, "shapeCast.translation");
}

TEST_CASE("a batch of ray casts answers as each ray alone, on one worker or three, and checks every ray first", "[collision]") {
    Pile pile;
    for (int s = 0; s < 10; ++s) pile.world.step(real(1) / 60);
    std::vector<World::RayQuery> rays;
    for (int i = 0; i < 500; ++i) rays.push_back({pile.point(25), pile.point(25), i % 5 == 0 ? 2u : 0xffffffffu});
    const auto alone = [&](const World::RayQuery& r) { return pile.world.rayCastClosest(r.from, r.to, r.mask); };
    ThreadPool pool(3);
    for (TaskSystem* tasks : {static_cast<TaskSystem*>(nullptr), static_cast<TaskSystem*>(&pool)}) {
        const std::vector<std::optional<RayHit>> hits = pile.world.rayCastBatch(rays, tasks);
        REQUIRE(hits.size() == rays.size());
        int hit = 0;
        for (std::size_t i = 0; i < rays.size(); ++i) {
            const std::optional<RayHit> expected = alone(rays[i]);
            REQUIRE(hits[i].has_value() == expected.has_value());
            if (!expected) continue;
            ++hit;
            CHECK(same(*hits[i], *expected));
        }
        CHECK(hit > 50); // the pile is hit, not only missed (72 of 500)
    }
    std::vector<World::RayQuery> bad = rays;
    bad[7].to.y() = std::numeric_limits<real>::quiet_NaN();
    testing::expectError([&] { (void)pile.world.rayCastBatch(bad); }, "rayCastBatch.rays[7].to");
    bad[3].from.x() = std::numeric_limits<real>::infinity();
    testing::expectError([&] { (void)pile.world.rayCastBatch(bad); }, "rayCastBatch.rays[3].from");
    CHECK(pile.world.rayCastBatch({}).empty());
}
