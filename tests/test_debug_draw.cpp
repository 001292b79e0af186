// SPDX-License-Identifier: MIT
// debugDraw (physics/world/debug_draw.cpp): each kind of drawing, its colours, and the
// contact impulses it shows carrying a resting box's weight.

#include "expect_error.hpp"
#include "helpers.hpp"
#include "scenes/scene.hpp"

#include <jounce/jounce.hpp>

#include <catch2/catch.hpp>

#include <numeric>

using namespace jounce;

namespace {

struct Recorder final : DebugDraw {
    struct Line {
        Vec3 a, b;
        DebugColour colour;
    };
    std::vector<std::pair<Transform, DebugColour>> shapes;
    std::vector<Line> lines;
    std::vector<std::pair<Vec3, DebugColour>> points;
    void shape(const Shape&, const Transform& pose, DebugColour c) override { shapes.emplace_back(pose, c); }
    void line(const Vec3& a, const Vec3& b, DebugColour c) override { lines.push_back({a, b, c}); }
    void point(const Vec3& p, real size, DebugColour c) override {
        points.emplace_back(p, c);
        sizes.push_back(size);
    }
    void triangle(const Vec3& a, const Vec3& b, const Vec3& c, DebugColour colour) override { triangles.push_back({a, b, c, colour}); }
    struct Triangle {
        Vec3 a, b, c;
        DebugColour colour;
    };
    std::vector<real> sizes;
    std::vector<Triangle> triangles;
    std::size_t linesOf(DebugColour c) const {
        return static_cast<std::size_t>(std::count_if(lines.begin(), lines.end(), [&](const Line& l) { return l.colour == c; }));
    }
};

/// A 2 kg box resting on the ground, a kinematic box, a sensor, and a ball hung on a joint.
struct DrawWorld {
    World w;
    BodyId box{}, ball{};
    explicit DrawWorld(bool boxSleeps = true) {
        testing::addGround(w);
        BodyDesc b = testing::boxDesc(Vec3::Constant(real(0.5)), 2, Vec3(0, real(0.5), 0));
        b.canSleep = boxSleeps;
        b.colliders.push_back(makeCollider(Box{Vec3::Constant(real(0.5))}, 2));
        box = w.createBody(b);
        BodyDesc k;
        k.type = BodyType::Kinematic;
        k.position = Vec3(5, 1, 0);
        k.colliders.push_back(makeCollider(Sphere{real(0.5)}, 1000));
        w.createBody(k);
        BodyDesc s;
        s.type = BodyType::Static;
        s.position = Vec3(-5, 1, 0);
        ColliderDesc trigger = makeCollider(Sphere{1}, 1000);
        trigger.sensor = true;
        s.colliders.push_back(trigger);
        w.createBody(s);
        BodyDesc hung;
        hung.position = Vec3(0, 3, 5);
        hung.colliders.push_back(makeCollider(Sphere{real(0.2)}, 1000));
        ball = w.createBody(hung);
        JointDesc j;
        j.type = JointType::Ball;
        j.a = {ball, Vec3(0, real(0.5), 0)};
        j.b = {BodyId{}, Vec3(0, real(3.5), 5)};
        w.createJoint(j);
        for (int i = 0; i < 60; ++i) w.step(real(1) / 60);
    }
};

} // namespace

TEST_CASE("debugDraw: shapes coloured by kind, sensors and sleep, boxes, islands, centres of mass", "[physics]") {
    DrawWorld d;
    Recorder r;
    debugDraw(d.w, r, {.flags = DebugDrawFlags::shapes});
    REQUIRE(r.shapes.size() == 5);
    CHECK(r.lines.empty());
    CHECK(r.shapes[0].second == DebugColours::staticBody);
    CHECK(r.shapes[1].second == DebugColours::dynamicBody);
    CHECK(r.shapes[1].first.position.isApprox(d.w.body(d.box).position));
    CHECK(r.shapes[2].second == DebugColours::kinematicBody);
    CHECK(r.shapes[3].second == DebugColours::sensor);

    Recorder boxes;
    debugDraw(d.w, boxes, {.flags = DebugDrawFlags::boundingBoxes});
    CHECK(boxes.lines.size() == 5 * 12);
    for (const auto& l : boxes.lines) CHECK((l.b - l.a).norm() > 0);

    Recorder centres;
    debugDraw(d.w, centres, {.flags = DebugDrawFlags::centresOfMass, .axisLength = real(0.5)});
    REQUIRE(centres.lines.size() == 2 * 3); // the box and the ball
    for (const auto& l : centres.lines) CHECK((l.b - l.a).norm() == Approx(0.5));
    CHECK(centres.lines[0].a.isApprox(d.w.body(d.box).centerOfMass));

    Recorder islands;
    REQUIRE(d.w.islands().count() > 0);
    debugDraw(d.w, islands, {.flags = DebugDrawFlags::islands});
    CHECK(islands.lines.size() == d.w.islands().count() * 12);

    // Left alone, the box falls asleep: drawn in the sleeping colour when asked.
    for (int i = 0; i < 240; ++i) d.w.step(real(1) / 60);
    REQUIRE(!d.w.body(d.box).awake);
    Recorder asleep;
    debugDraw(d.w, asleep, {.flags = DebugDrawFlags::shapes | DebugDrawFlags::sleep});
    CHECK(asleep.shapes[1].second == DebugColours::sleepingBody);
}

TEST_CASE("debugDraw: a resting box's four contact points, their normals, and impulses carrying its weight", "[physics]") {
    DrawWorld d(false); // awake: a sleeping pair has no contacts
    Recorder r;
    const real scale = real(0.1);
    debugDraw(d.w, r, {.flags = DebugDrawFlags::contacts | DebugDrawFlags::normals | DebugDrawFlags::impulses, .normalLength = real(0.3), .impulseScale = scale});
    REQUIRE(r.points.size() == 4);
    for (const auto& [p, c] : r.points) CHECK(std::abs(p.y()) < real(0.01));
    REQUIRE(r.linesOf(DebugColours::normal) == 4);
    real impulse = 0;
    for (const auto& l : r.lines) {
        if (l.colour == DebugColours::normal) {
            CHECK((l.b - l.a).norm() == Approx(0.3));
            CHECK(std::abs((l.b - l.a).normalized().y()) == Approx(1).margin(1e-6));
        } else if (l.colour == DebugColours::impulse) {
            impulse += (l.b - l.a).norm() / scale;
        }
    }
    // Resting, the four points carry the box's weight over a step: m g h.
    CHECK(impulse == Approx(2 * real(9.81) / 60).epsilon(0.01));
}

TEST_CASE("debugDraw: a joint's anchors joined and each body's centre to its anchor, the defaults, bad settings", "[physics]") {
    DrawWorld d;
    Recorder r;
    debugDraw(d.w, r, {.flags = DebugDrawFlags::joints});
    REQUIRE(r.lines.size() == 2); // anchors, and the ball's centre to its anchor (the world end has no body)
    CHECK((r.lines[0].a - r.lines[0].b).norm() < real(0.01)); // the joint holds
    CHECK(r.lines[1].a.isApprox(d.w.body(d.ball).centerOfMass));
    CHECK((r.lines[1].b - r.lines[1].a).norm() == Approx(0.5).margin(0.01));

    Recorder defaults;
    debugDraw(d.w, defaults);
    CHECK(defaults.shapes.size() == 5);
    CHECK(defaults.lines.size() == 2);
    CHECK(defaults.points.empty());

    Recorder none;
    testing::expectError([&] { debugDraw(d.w, none, {.flags = DebugDrawFlags::all, .normalLength = -1}); }, "debugDraw.settings.normalLength");
    testing::expectError([&] { debugDraw(d.w, none, {.impulseScale = std::numeric_limits<real>::quiet_NaN()}); }, "debugDraw.settings.impulseScale");
    testing::expectError([&] { debugDraw(d.w, none, {.axisLength = std::numeric_limits<real>::infinity()}); }, "debugDraw.settings.axisLength");
    testing::expectError([&] { debugDraw(d.w, none, {.pointSize = -1}); }, "debugDraw.settings.pointSize");
    CHECK(none.shapes.empty());
    CHECK(none.lines.empty());
}

TEST_CASE("debugDraw: a scene draws its contacts and the debug kinds asked for through it", "[physics][scene]") {
    const std::unique_ptr<scenes::Scene> scene = scenes::makeScene("column");
    for (int i = 0; i < 10; ++i) scene->step();
    std::size_t points = 0;
    for (const ContactManifold& m : scene->world().contacts()) points += static_cast<std::size_t>(m.manifold.count);
    REQUIRE(points > 0);
    scenes::DrawList plain, shown;
    scene->draw(plain);
    scene->showContacts = true;
    scene->draw(shown);
    // Each point: a particle, a three-line cross and its normal, over everything.
    CHECK(shown.items.size() == plain.items.size() + points);
    CHECK(shown.lines.size() == plain.lines.size() + 4 * points);
    scene->showContacts = false;
    scene->debugFlags = DebugDrawFlags::boundingBoxes | DebugDrawFlags::shapes; // shapes: the scene's own, not again
    scenes::DrawList boxes;
    scene->draw(boxes);
    CHECK(boxes.items.size() == plain.items.size());
    CHECK(boxes.lines.size() == plain.lines.size() + 12 * scene->world().colliderIds().size());
}

TEST_CASE("debugDraw: a half-space's unbounded box is left out, everything else drawn", "[physics]") {
    World w;
    BodyDesc ground;
    ground.type = BodyType::Static;
    ground.colliders.push_back(makeCollider(HalfSpace{}, 1000));
    w.createBody(ground);
    BodyDesc ball;
    ball.position = Vec3(0, real(0.5), 0);
    ball.colliders.push_back(makeCollider(Sphere{real(0.5)}, 1000));
    w.createBody(ball);
    for (int i = 0; i < 10; ++i) w.step(real(1) / 60);
    Recorder r;
    debugDraw(w, r, {.flags = DebugDrawFlags::all});
    CHECK(r.shapes.size() == 2);
    CHECK(r.linesOf(DebugColours::boundingBox) == 12); // the ball's only
    CHECK(r.points.size() == 1);
    // A body made since the step has no broad-phase box yet: its box is made to draw.
    BodyDesc later;
    later.position = Vec3(3, 1, 0);
    later.colliders.push_back(makeCollider(Box{Vec3::Constant(real(0.5))}, 1000));
    w.createBody(later);
    Recorder again;
    debugDraw(w, again, {.flags = DebugDrawFlags::boundingBoxes});
    REQUIRE(again.lines.size() == 24);
    CHECK(again.lines[12].a.x() == Approx(3 - 0.5 - w.settings().aabbMargin));
}

TEST_CASE("debugDraw: particles and their links and a deformable's skin triangle by triangle and the springs", "[physics]") {
    World w;
    RopeDesc r; // six particles, five links, the first pinned
    r.from = Vec3(0, 3, 0);
    r.to = Vec3(1, 3, 0);
    r.segments = 5;
    r.radius = real(0.05);
    const Rope rope = buildRope(w, r);
    const DeformableDesc bar = arapBarDesc({});
    const DeformableId d = w.createDeformable(bar);
    BodyDesc a, b;
    a.position = Vec3(5, 1, 0);
    b.position = Vec3(7, 1, 0);
    const BodyId ba = w.createBody(a), bb = w.createBody(b);
    w.createForceGenerator(Spring{{ba, Vec3::Zero()}, {bb, Vec3::Zero()}, 100, 1, 0});
    Recorder rec;
    debugDraw(w, rec, {.flags = DebugDrawFlags::particles | DebugDrawFlags::deformables | DebugDrawFlags::forces});
    REQUIRE(rec.points.size() == 6);
    CHECK(rec.points[0].second == DebugColours::pinnedParticle);
    CHECK(rec.points[1].second == DebugColours::particle);
    CHECK(rec.sizes[3] == real(0.05));
    CHECK(rec.points[5].first == w.particle(rope.particles[5]).position);
    CHECK(rec.linesOf(DebugColours::particleLink) == 5);
    CHECK(rec.linesOf(DebugColours::spring) == 1);
    // The deformable: every triangle of its skin, at its skinned vertices, in the first colour.
    REQUIRE(rec.triangles.size() == w.deformable(d).triangles.size());
    const std::vector<Vec3> v = w.deformableVertices(d);
    const auto& t0 = w.deformable(d).triangles.front();
    CHECK(rec.triangles.front().a == v[t0[0]]);
    CHECK(rec.triangles.front().c == v[t0[2]]);
    CHECK(rec.triangles.front().colour == DebugColours::deformables[0]);
    // Links left out past maxParticleLinks; a default triangle() draws three edges.
    Recorder few;
    debugDraw(w, few, {.flags = DebugDrawFlags::particles, .maxParticleLinks = 4});
    CHECK(few.points.size() == 6);
    CHECK(few.lines.empty());
    struct EdgesOnly final : DebugDraw {
        std::size_t lines = 0;
        void shape(const Shape&, const Transform&, DebugColour) override {}
        void line(const Vec3&, const Vec3&, DebugColour) override { ++lines; }
        void point(const Vec3&, real, DebugColour) override {}
    } edges;
    debugDraw(w, edges, {.flags = DebugDrawFlags::deformables});
    CHECK(edges.lines == 3 * w.deformable(d).triangles.size());
}
