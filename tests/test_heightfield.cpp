// SPDX-License-Identifier: MIT
// Heightfield terrain: the grid's triangles and holes, its index against an R-tree over
// the same triangles, ray and shape casts, every shape and a particle resting on it, a
// sphere rolling down it at 5/7 g sin(angle), a box sliding over its seams, snapshots and
// scene files, and bad input.

#include "helpers.hpp"
#include "scenes/scene.hpp"

#include <jounce/collision/heightfield.hpp>
#include <jounce/collision/triangle_mesh.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>

using namespace jounce;
using testing::tol;

namespace {

/// A grid of `columns` x `rows` samples whose heights come from f(x, z) (metres, shape frame).
struct TerrainGrid {
    HeightfieldDesc desc;
    std::vector<real> heights;
    std::vector<std::uint8_t> holes;

    template <typename F> TerrainGrid(std::uint32_t columns, std::uint32_t rows, real spacing, const Vec3& origin, F f) {
        desc.columns = columns;
        desc.rows = rows;
        desc.spacingX = desc.spacingZ = spacing;
        desc.origin = origin;
        for (std::uint32_t z = 0; z < rows; ++z)
            for (std::uint32_t x = 0; x < columns; ++x)
                heights.push_back(f(origin.x() + spacing * real(x), origin.z() + spacing * real(z)));
        desc.heights = heights;
    }
    void hole(std::uint32_t cx, std::uint32_t cz) {
        if (holes.empty()) holes.assign(std::size_t(desc.columns - 1) * (desc.rows - 1), 0);
        holes[cz * (desc.columns - 1) + cx] = 1;
        desc.holes = holes;
    }
    TriangleMesh make() const { return makeHeightfield(desc); }

    /// The surface's height at world (x, z) by the two triangles of its cell (the layout
    /// heightfield.hpp documents), computed here independently of the mesh.
    real surface(real x, real z) const {
        const real u = (x - desc.origin.x()) / desc.spacingX, v = (z - desc.origin.z()) / desc.spacingZ;
        const auto cx = static_cast<std::uint32_t>(std::floor(u)), cz = static_cast<std::uint32_t>(std::floor(v));
        const real fx = u - real(cx), fz = v - real(cz);
        const auto h = [&](std::uint32_t i, std::uint32_t k) { return heights[k * desc.columns + i]; };
        const real h00 = h(cx, cz), h10 = h(cx + 1, cz), h01 = h(cx, cz + 1), h11 = h(cx + 1, cz + 1);
        const real local = fx + fz <= 1 ? h00 + fx * (h10 - h00) + fz * (h01 - h00)
                                        : h11 + (1 - fx) * (h01 - h11) + (1 - fz) * (h10 - h11);
        return desc.origin.y() + local;
    }
};

/// How far short of touching a cast's hit left the shape: skin / 2 to skin, by the contract.
bool withinSkin(real gap) { return gap >= shapeCastSkin / 2 - real(1e-6) && gap <= shapeCastSkin + real(1e-6); }

real hills(real x, real z) { return real(0.6) * std::sin(real(0.7) * x) + real(0.4) * std::cos(real(0.9) * z + real(0.3) * x); }

BodyId addTerrain(World& w, const TriangleMesh& mesh, real friction = real(0.6)) {
    BodyDesc d;
    d.type = BodyType::Static;
    d.colliders.push_back(makeCollider(mesh, 1000, {.friction = friction}));
    return w.createBody(d);
}

BodyId dropShape(World& w, const Shape& shape, const Vec3& at) {
    BodyDesc d;
    d.position = at;
    d.colliders.push_back(makeCollider(shape, 500));
    return w.createBody(d);
}

} // namespace

TEST_CASE("a heightfield is two upward triangles a cell, holes left out, its grid kept", "[collision]") {
    TerrainGrid g(4, 3, real(0.5), Vec3(-1, 2, 3), [](real x, real z) { return x + 2 * z; });
    g.hole(1, 0);
    const TriangleMesh t = g.make();
    REQUIRE(t.mesh);
    CHECK(t.mesh->triangleCount() == 2 * (3 * 2 - 1));
    CHECK_FALSE(t.mesh->closed());
    REQUIRE(t.mesh->heightfield() != nullptr);
    CHECK(t.mesh->heightfield()->hole(1, 0));
    CHECK_FALSE(t.mesh->heightfield()->hole(0, 0));
    // Sample (x, z) sits at origin + (x dx, h, z dz).
    const Vec3 corner = t.mesh->vertices()[1 * 4 + 2];
    CHECK((corner - Vec3(0, 2 + g.heights[1 * 4 + 2], real(3.5))).norm() <= testing::eps);
    for (std::uint32_t k = 0; k < t.mesh->triangleCount(); ++k) CHECK(t.mesh->normal(k).y() > 0);
    // The plane h = x + 2z: every triangle's normal is (-1, 1, -2)/sqrt(6).
    CHECK((t.mesh->normal(0) - Vec3(-1, 1, -2).normalized()).norm() <= testing::eps);
    // The diagonal inside a flat plane is internal; the grid's outer rim is active.
    const auto& tri = t.mesh->triangles()[0]; // (0,0), (0,1), (1,0): edge 2 runs (1,0) -> (0,0), on the rim
    CHECK(tri[0] == 0);
    CHECK(t.mesh->edgeActive(0, 2));
    CHECK_FALSE(t.mesh->edgeActive(0, 1)); // the diagonal (0,1) -> (1,0)
    CHECK(isStaticOnly(t));
}

TEST_CASE("the heightfield's grid finds what an R-tree over the same triangles finds", "[collision]") {
    TerrainGrid g(17, 13, real(0.7), Vec3(-5, -1, -4), hills);
    testing::Lcg rng(7);
    for (int k = 0; k < 20; ++k) g.hole(static_cast<std::uint32_t>((rng.uniform() + 1) * 8), static_cast<std::uint32_t>((rng.uniform() + 1) * 6));
    const TriangleMesh grid = g.make();
    const TriangleMesh tree = makeTriangleMesh(grid.mesh->vertices(), grid.mesh->triangles());
    REQUIRE(tree.mesh->heightfield() == nullptr);
    const auto randomPoint = [&] { return Vec3(rng.uniform() * 9 + 1, rng.uniform() * 2, rng.uniform() * 7); };
    std::vector<std::uint32_t> a, b;
    std::size_t found = 0;
    for (int k = 0; k < 500; ++k) {
        const Vec3 p = randomPoint(), half = Vec3(rng.uniform() + 1, rng.uniform() + 1, rng.uniform() + 1) * real(k % 3 == 0 ? 2 : 0.3);
        const Aabb box{p - half, p + half};
        grid.mesh->overlapping(box, a);
        tree.mesh->overlapping(box, b);
        REQUIRE(a == b);
        found += a.size();
    }
    CHECK(found > 2000);
    std::size_t crossed = 0;
    for (int k = 0; k < 500; ++k) {
        const Vec3 p = randomPoint(), q = k % 5 == 0 ? p + Vec3(0, -3, 0) : randomPoint();
        grid.mesh->alongSegment(p, q, a);
        tree.mesh->alongSegment(p, q, b);
        REQUIRE(std::is_sorted(a.begin(), a.end()));
        REQUIRE(std::includes(a.begin(), a.end(), b.begin(), b.end())); // the grid's may hold more, never fewer
        crossed += b.size();
    }
    CHECK(crossed > 500);
    for (int k = 0; k < 200; ++k) {
        const Vec3 p = randomPoint() * real(1.5) + Vec3(0, real(k % 4), 0);
        Vec3 onGrid, onTree;
        grid.mesh->nearest(p, onGrid);
        tree.mesh->nearest(p, onTree);
        REQUIRE((p - onGrid).norm() == Approx((p - onTree).norm()).margin(testing::eps));
    }
}

TEST_CASE("a vertical ray meets the terrain at the height of its cell's triangle, and passes a hole", "[collision][scene]") {
    TerrainGrid g(21, 21, real(0.5), Vec3(-5, 0, -5), hills);
    g.hole(10, 10); // cell spanning x in [0, 0.5], z in [0, 0.5]
    World w;
    const BodyId terrain = addTerrain(w, g.make());
    testing::Lcg rng(3);
    real worst = 0;
    for (int k = 0; k < 400; ++k) {
        const real x = rng.uniform() * real(4.9), z = rng.uniform() * real(4.9);
        if (x >= 0 && x <= real(0.5) && z >= 0 && z <= real(0.5)) continue;
        const auto hit = w.rayCastClosest(Vec3(x, 5, z), Vec3(x, -5, z));
        REQUIRE(hit);
        CHECK(hit->body == terrain);
        CHECK(hit->normal.y() > 0);
        worst = std::max(worst, std::abs(hit->point.y() - g.surface(x, z)));
    }
    CHECK(worst <= tol(1e-9, 1e-4));
    CHECK_FALSE(w.rayCastClosest(Vec3(real(0.25), 5, real(0.2)), Vec3(real(0.25), -5, real(0.2))));
    // A long slanting ray across the whole grid meets the surface where the surface is.
    const auto slant = w.rayCastClosest(Vec3(-4.9, 3, -4.7), Vec3(4.8, -3, 4.9));
    REQUIRE(slant);
    CHECK(slant->point.y() == Approx(g.surface(slant->point.x(), slant->point.z())).margin(tol(1e-9, 1e-4)));
    // A sphere cast down stops with its centre its radius above the (locally flat) ground.
    TerrainGrid flat(5, 5, 1, Vec3(-2, real(0.7), -2), [](real, real) { return real(0); });
    World w2;
    addTerrain(w2, flat.make());
    const auto cast = w2.shapeCastClosest(Sphere{real(0.25)}, Transform{Vec3(real(0.3), 3, real(-0.4)), Quat::Identity()}, Vec3(0, -5, 0));
    REQUIRE(cast);
    CHECK(3 - 5 * cast->fraction == Approx(real(0.95)).margin(real(2e-3))); // within the 1 mm skin
}

TEST_CASE("every shape and a particle come to rest on the terrain, and fall through its hole", "[collision][scene]") {
    // Level at y = 0.3 where things land, a hill beyond them (x > 4), a hole at cell (8, 6).
    TerrainGrid g(13, 13, 1, Vec3(-6, real(0.3), -6), [](real x, real) { return x > 4 ? real(0.5) * (x - 4) : real(0); });
    g.hole(8, 6); // x in [2, 3], z in [0, 1]
    World w;
    addTerrain(w, g.make());
    const std::vector<Vec3> points{{-3, 0, 0}, {-1, 0, 2}, {1, 0, -3}, {real(-3.5), 0, -3}, {real(1.5), 0, 3}};
    const std::vector<Shape> shapes{Sphere{real(0.3)}, Box{Vec3(0.3, 0.2, 0.4)}, Capsule{real(0.2), real(0.3)},
                                    makeConvexHull(std::vector<Vec3>{{-.3, 0, -.3}, {.3, 0, -.3}, {0, 0, .3}, {0, .4, 0}}),
                                    Cylinder{real(0.25), real(0.3)}};
    std::vector<BodyId> bodies;
    for (std::size_t k = 0; k < shapes.size(); ++k) bodies.push_back(dropShape(w, shapes[k], points[k] + Vec3(0, 2, 0)));
    const BodyId falls = dropShape(w, Sphere{real(0.2)}, Vec3(real(2.5), 2, real(0.5)));
    ParticleDesc pd;
    pd.position = Vec3(-2, 2, -2);
    pd.radius = real(0.05);
    const ParticleId particle = w.createParticle(pd);
    for (int i = 0; i < 240; ++i) w.step(real(1) / 60);
    for (std::size_t k = 0; k < bodies.size(); ++k) {
        INFO("shape " << k);
        const BodyState b = w.body(bodies[k]);
        CHECK(b.linearVelocity.norm() < real(0.01));
        // Its lowest point on the level, to the solver's slop.
        const Aabb box = computeAabb(shapes[k], b.transform());
        CHECK(box.min.y() == Approx(real(0.3)).margin(real(0.01)));
    }
    CHECK(w.body(falls).position.y() < -2); // through the hole
    const Particle p = w.particle(particle);
    CHECK(p.position.y() == Approx(real(0.35)).margin(real(0.01)));
}

TEST_CASE("shape casts meet the terrain triangle by triangle: along the ground to a wall and over hills within the skin", "[collision]") {
    // A flat grid of 0.5 m cells at y = 0 and a wall whose face is at x = 6: every convex
    // shape, resting 0.7 mm above the ground (within the 1 mm skin), cast 12 m along x and
    // diagonally across the cells' seams, meets the wall and not the ground it slides on.
    TerrainGrid flat(41, 41, real(0.5), Vec3(-10, 0, -10), [](real, real) { return real(0); });
    World w;
    addTerrain(w, flat.make());
    BodyDesc wall;
    wall.type = BodyType::Static;
    wall.position = Vec3(7, 2, 0);
    wall.colliders.push_back(makeCollider(Box{Vec3(1, 2, 8)}, 1000));
    const BodyId wallId = w.createBody(wall);
    w.step(real(1) / 60);
    const std::vector<Shape> shapes{Sphere{real(0.5)}, Box{Vec3(real(0.5), real(0.3), real(0.4))}, Capsule{real(0.3), real(0.5)},
                                    makeConvexHull(std::vector<Vec3>{{-.4, 0, -.4}, {.4, 0, -.4}, {0, 0, .4}, {0, .5, 0}}),
                                    Cylinder{real(0.4), real(0.5)}};
    for (std::size_t k = 0; k < shapes.size(); ++k)
        for (const Vec3& move : {Vec3(12, 0, 0), Vec3(12, 0, real(7.5))}) {
            INFO("shape " << k << ", moved by " << move.transpose());
            const Aabb local = computeAabb(shapes[k], Transform{Vec3::Zero(), Quat::Identity()});
            const Transform start{Vec3(-5, real(0.0007) - local.min.y(), real(-3.1)), Quat::Identity()};
            const auto hit = w.shapeCastClosest(shapes[k], start, move);
            REQUIRE(hit);
            const real gap = 6 - (start.position.x() + local.max.x() + hit->fraction * move.x()); // its front short of the wall
            INFO("fraction " << hit->fraction << ", gap " << gap << " m, normal " << hit->normal.transpose());
            CHECK(hit->body == wallId);
            CHECK(withinSkin(gap));
            CHECK((hit->normal + Vec3::UnitX()).norm() < real(1e-3));
            // Straight down instead: the ground, at once.
            const auto down = w.shapeCastClosest(shapes[k], start, Vec3(0, -1, 0));
            REQUIRE(down);
            CHECK(down->fraction == 0);
            CHECK(down->body != wallId);
        }
    // Over hills: a sphere cast across them at heights that graze and cut the slopes
    // stops where it first comes within the skin of the surface: checked against the
    // distance to the nearest triangle at 2000 poses along the way.
    TerrainGrid rough(41, 41, real(0.5), Vec3(-10, 0, -10), hills);
    const TriangleMesh terrain = rough.make();
    World hilly;
    addTerrain(hilly, terrain);
    hilly.step(real(1) / 60);
    const real radius = real(0.3);
    int hits = 0;
    for (const real height : {real(0.9), real(1.05), real(1.2), real(1.5)}) {
        const Vec3 from(-9, height, real(-2.3)), move(18, real(-0.4), real(4.1));
        const auto distance = [&](real t) {
            Vec3 closest;
            terrain.mesh->nearest(from + t * move, closest);
            return (from + t * move - closest).norm() - radius;
        };
        const auto hit = hilly.shapeCastClosest(Sphere{radius}, Transform{from, Quat::Identity()}, move);
        real firstClose = 2; // the first sampled pose within half the skin
        for (int i = 0; i <= 2000 && firstClose > 1; ++i)
            if (distance(real(i) / 2000) < shapeCastSkin / 2) firstClose = real(i) / 2000;
        INFO("height " << height << ": hit at " << (hit ? hit->fraction : real(-1)) << ", first sample within half the skin "
                       << firstClose);
        CHECK(bool(hit) == (firstClose <= 1));
        if (!hit) continue;
        ++hits;
        CHECK(withinSkin(distance(hit->fraction)));
        CHECK(hit->fraction <= firstClose);
    }
    CHECK(hits >= 3); // the path cuts the hills at most heights tried
}

TEST_CASE("a sphere rolls down a tilted heightfield at 5/7 g sin(angle), across the diagonals without a bump", "[collision][scene]") {
    // The plane y = -x tan(a): a solid sphere rolling without slipping accelerates at
    // (5/7) g sin(a) along it (I = 2/5 m r^2).
    const real angle = real(0.2), slope = std::tan(angle);
    TerrainGrid g(41, 9, real(0.5), Vec3(-2, 0, -2), [&](real x, real) { return -slope * x; });
    World w;
    addTerrain(w, g.make(), 1);
    const real r = real(0.3);
    const Vec3 normal = Vec3(slope, 1, 0).normalized();
    BodyDesc d;
    d.position = Vec3(0, 0, real(0.1)) + normal * r;
    d.colliders.push_back(makeCollider(Sphere{r}, 1000, {.friction = 1}));
    d.canSleep = false;
    const BodyId ball = w.createBody(d);
    const real h = real(1) / 120;
    const Vec3 start = w.body(ball).position;
    real worstLift = -1, worstSink = 1;
    const int steps = 240; // 2 s: 4.3 m down the slope, over 17 cell diagonals
    for (int i = 0; i < steps; ++i) {
        w.step(h);
        const Vec3 p = w.body(ball).position;
        const real gap = (p.y() - g.surface(p.x(), p.z())) * normal.y() - r; // distance from the plane less the radius
        worstLift = std::max(worstLift, gap);
        worstSink = std::min(worstSink, gap);
    }
    const real t = h * steps;
    const real expected = real(5) / 7 * 9.81 * std::sin(angle) * t * t / 2;
    const real travelled = (w.body(ball).position - start).norm();
    INFO("travelled " << travelled << " m, expected " << expected);
    CHECK(travelled == Approx(expected).epsilon(0.02));
    INFO("gap between " << worstSink << " and " << worstLift << " m");
    CHECK(worstLift < real(0.001)); // never hops off a seam
    CHECK(worstSink > real(-0.01)); // nor sinks past the solver's slop
    CHECK(std::abs(w.body(ball).position.z() - start.z()) < tol(1e-3, 5e-3)); // rolls straight down
}

TEST_CASE("a box slides over a flat heightfield's seams on the face normal, keeping its speed", "[collision][scene]") {
    TerrainGrid g(41, 21, real(0.5), Vec3(-2, 0, -2), [](real, real) { return real(0); });
    World w;
    addTerrain(w, g.make(), 0);
    BodyDesc d;
    d.position = Vec3(0, real(0.2), real(0.13));
    d.linearVelocity = Vec3(4, 0, real(1.5));
    d.colliders.push_back(makeCollider(Box{Vec3(0.3, 0.2, 0.3)}, 1000, {.friction = 0}));
    const BodyId box = w.createBody(d);
    real worstVertical = 0, worstTilt = 0;
    for (int i = 0; i < 150; ++i) {
        w.step(real(1) / 60);
        const BodyState b = w.body(box);
        worstVertical = std::max(worstVertical, std::abs(b.linearVelocity.y()));
        worstTilt = std::max(worstTilt, b.angularVelocity.norm());
    }
    const BodyState b = w.body(box);
    CHECK(b.position.x() > 9);
    CHECK((b.linearVelocity - Vec3(4, 0, real(1.5))).norm() < real(1e-3));
    CHECK(worstVertical < real(0.02));
    CHECK(worstTilt < real(0.01));
}

TEST_CASE("a character walks over hills and a car parks on them", "[collision][scene]") {
    TerrainGrid g(41, 41, 1, Vec3(-20, 0, -20), [](real x, real z) { return real(0.4) * std::sin(real(0.4) * x) * std::cos(real(0.3) * z); });
    World w;
    addTerrain(w, g.make());
    CharacterDesc cd;
    cd.position = Vec3(-10, g.surface(-10, 0) + real(0.1), 0);
    Character hero(w, cd);
    int airborne = 0;
    real worstGap = 0;
    for (int i = 0; i < 300; ++i) { // 5 s at 3 m/s along x: over the hills from x = -10 to 5
        hero.update(w, real(1) / 60, Vec3(3, 0, 0));
        w.step(real(1) / 60);
        if (i < 10) continue;
        airborne += hero.onGround() ? 0 : 1;
        worstGap = std::max(worstGap, std::abs(hero.position().y() - g.surface(hero.position().x(), hero.position().z())));
    }
    CHECK(hero.position().x() == Approx(5).margin(real(0.2)));
    CHECK(airborne == 0);
    CHECK(worstGap < real(0.05));
}

TEST_CASE("snapshots and scene files keep a heightfield as its grid", "[collision][scene]") {
    TerrainGrid g(30, 20, real(0.5), Vec3(-7, 0, -5), hills);
    g.hole(3, 4);
    World w;
    addTerrain(w, g.make());
    for (int k = 0; k < 6; ++k) dropShape(w, Box{Vec3(0.2, 0.2, 0.2)}, Vec3(real(k) - 3, 2, real(0.3) * real(k)));
    for (int i = 0; i < 30; ++i) w.step(real(1) / 60);
    const std::vector<std::uint8_t> blob = w.saveState();
    World restored;
    restored.restoreState(blob);
    const ColliderId first = restored.colliderIdsOf(restored.bodyIds()[0])[0];
    const auto& mesh = std::get<TriangleMesh>(restored.collider(first).shape).mesh;
    REQUIRE(mesh->heightfield() != nullptr);
    CHECK(mesh->heightfield()->heights == g.heights);
    CHECK(mesh->heightfield()->hole(3, 4));
    CHECK(testing::stepsAsItsSnapshot(w, 60, real(1) / 60));
    // The grid is smaller than its triangles would be.
    World asMesh;
    BodyDesc d;
    d.type = BodyType::Static;
    d.colliders.push_back(makeCollider(makeTriangleMesh(mesh->vertices(), mesh->triangles()), 1000));
    asMesh.createBody(d);
    World asGrid;
    addTerrain(asGrid, g.make());
    CHECK(asGrid.saveState().size() * 4 < asMesh.saveState().size());

    const std::string text = exportScene(w);
    CHECK(text.find("\"heightfield\"") != std::string::npos);
    LoadedScene loaded = loadScene(text);
    const ColliderId again = loaded.world.colliderIdsOf(loaded.world.bodyIds()[0])[0];
    const auto& reread = std::get<TriangleMesh>(loaded.world.collider(again).shape).mesh;
    REQUIRE(reread->heightfield() != nullptr);
    CHECK(reread->triangles() == mesh->triangles());
    CHECK(reread->vertices() == mesh->vertices());
}

TEST_CASE("bad heightfield input names the field", "[collision]") {
    std::vector<real> heights(12, real(0));
    HeightfieldDesc d{4, 3, 1, 1, Vec3::Zero(), heights, {}};
    REQUIRE(makeHeightfield(d).mesh);
    const auto fails = [](HeightfieldDesc bad, const char* field) {
        INFO(field);
        try {
            (void)makeHeightfield(bad);
            FAIL("accepted");
        } catch (const Error& e) {
            CHECK(e.field().rfind(field, 0) == 0);
        }
        std::string reported;
        const TriangleMesh none = makeHeightfield(bad, [&](const Error& e) { reported = e.field(); });
        CHECK_FALSE(none.mesh);
        CHECK(reported.rfind(field, 0) == 0);
    };
    auto bad = d;
    bad.columns = 1;
    fails(bad, "makeHeightfield.columns");
    bad = d;
    bad.rows = 0;
    fails(bad, "makeHeightfield.rows");
    bad = d;
    bad.columns = 1u << 20;
    bad.rows = 1u << 10;
    fails(bad, "makeHeightfield.columns");
    bad = d;
    bad.spacingX = -1;
    fails(bad, "makeHeightfield.spacingX");
    bad = d;
    bad.spacingZ = std::numeric_limits<real>::quiet_NaN();
    fails(bad, "makeHeightfield.spacingZ");
    bad = d;
    bad.origin.x() = std::numeric_limits<real>::infinity();
    fails(bad, "makeHeightfield.origin");
    bad = d;
    bad.heights = std::span(heights).first(11);
    fails(bad, "makeHeightfield.heights");
    std::vector<real> nan = heights;
    nan[5] = std::numeric_limits<real>::quiet_NaN();
    bad = d;
    bad.heights = nan;
    fails(bad, "makeHeightfield.heights[5]");
    std::vector<std::uint8_t> holes(6, 1);
    bad = d;
    bad.holes = holes;
    fails(bad, "makeHeightfield.holes");
    bad.holes = std::span(holes).first(5);
    fails(bad, "makeHeightfield.holes");
    bad = d;
    bad.spacingX = bad.spacingZ = real(1e-9);
    bad.origin = Vec3(1e5, 0, 0);
    fails(bad, "makeHeightfield.spacingX");
    bad = d;
    bad.spacingX = 1e6;
    fails(bad, "makeHeightfield.spacingX");
    // A heightfield belongs on a static body.
    World w;
    BodyDesc dyn;
    dyn.colliders.push_back(makeCollider(makeHeightfield(d), 1000));
    CHECK_THROWS_AS(w.createBody(dyn), Error);
    CHECK(w.bodyIds().empty());
}

TEST_CASE("terrain scene: the car climbs the hills, things roll down into the well", "[collision][scene]") {
    const std::unique_ptr<scenes::Scene> scene = scenes::makeScene("terrain");
    World& w = scene->world();
    BodyId chassis{};
    std::vector<BodyId> things;
    for (const BodyId id : w.bodyIds()) {
        if (!w.body(id).isDynamic()) continue;
        if (w.body(id).mass > 1000) chassis = id; // the 1200 kg car
        else things.push_back(id);
    }
    REQUIRE(!chassis.isNull());
    REQUIRE(things.size() == 12);
    scene->control(1, 0);
    real highest = 0;
    for (int i = 0; i < 300; ++i) { // 5 s of throttle up the rise ahead
        scene->step();
        highest = std::max(highest, w.body(chassis).position.y());
    }
    const BodyState car = w.body(chassis);
    INFO("car at " << car.position.transpose() << ", highest " << highest);
    CHECK(car.position.z() > 25);
    CHECK(highest > 3);
    // On its wheels: the chassis rides at its ride height over the ground under it.
    const auto hits = w.rayCastAll(car.position, car.position - Vec3(0, 20, 0));
    const auto ground = std::find_if(hits.begin(), hits.end(), [&](const World::RayHit& h) { return h.body != chassis; });
    REQUIRE(ground != hits.end());
    INFO("ground " << ground->point.y());
    CHECK(car.position.y() - ground->point.y() == Approx(real(0.9)).margin(real(0.4)));
    for (int i = 0; i < 300; ++i) scene->step(); // 5 s more for the things to roll
    CHECK((car.orientation * Vec3::UnitY()).y() > real(0.8)); // upright
    int fell = 0, resting = 0;
    for (const BodyId id : things) {
        fell += w.body(id).position.y() < -5 ? 1 : 0;
        resting += w.body(id).position.y() > -5 ? 1 : 0;
    }
    INFO(fell << " fell into the well, " << resting << " still on the terrain");
    CHECK(fell >= 1);
    CHECK(resting >= 1);
}
