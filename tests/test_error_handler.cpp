// SPDX-License-Identifier: MIT
// The error handler (World::setErrorHandler and the free functions' overloads): every
// error that would throw goes to the handler instead, the call returns an empty value,
// and the world is left bit-for-bit as it was.

#include <jounce/jounce.hpp>
#include <jounce/deformable/deformable_builders.hpp>

#include <catch2/catch.hpp>

#include <limits>
#include <string>
#include <vector>

using namespace jounce;

namespace {

const real kNaN = std::numeric_limits<real>::quiet_NaN();

/// A handler that records the fields it was given.
struct Recorder {
    std::vector<std::string> fields;
    ErrorHandler handler() {
        return [this](const Error& e) { fields.push_back(e.field()); };
    }
    std::string last() const { return fields.empty() ? "(none)" : fields.back(); }
};

/// A small world: ground, a ball, a box on a hinge, a rope of particles.
struct Scene {
    World world;
    BodyId ground, ball, box;
    JointId hinge;
    Rope rope;
    Scene() {
        BodyDesc g;
        g.type = BodyType::Static;
        g.colliders.push_back(makeCollider(HalfSpace{}, 1000));
        ground = world.createBody(g);
        BodyDesc b;
        b.position = Vec3(0, 1, 0);
        b.colliders.push_back(makeCollider(Sphere{real(0.5)}, 1000));
        ball = world.createBody(b);
        b.position = Vec3(3, 1, 0);
        b.colliders = {makeCollider(Box{}, 1000)};
        box = world.createBody(b);
        JointDesc j;
        j.type = JointType::Hinge;
        j.a.body = box;
        j.b.point = Vec3(3, 2, 0);
        hinge = world.createJoint(j);
        RopeDesc r;
        r.from = Vec3(-3, 2, 0);
        r.to = Vec3(-2, 2, 0);
        r.segments = 4;
        rope = buildRope(world, r);
        world.step(real(1) / 60);
    }
};

} // namespace

TEST_CASE("with an error handler, failed calls report, return empty and change nothing", "[physics]") {
    Scene s;
    World& w = s.world;
    Recorder errors;
    w.setErrorHandler(errors.handler());
    const std::vector<std::uint8_t> before = w.saveState();
    const auto expect = [&](const std::string& field) {
        INFO(field);
        CHECK(errors.last() == field);
        CHECK((w.saveState() == before));
    };

    BodyDesc bad;
    bad.position = Vec3(0, kNaN, 0);
    CHECK(w.createBody(bad).isNull());
    expect("BodyDesc.position");
    bad = BodyDesc{};
    bad.mass = -1;
    CHECK(w.createBody(bad).isNull());
    expect("BodyDesc.mass");

    const BodyId stale{s.ball.index, s.ball.generation + 1};
    w.setPosition(stale, Vec3::Zero());
    expect("setPosition.id");
    w.applyImpulse(s.ball, Vec3(kNaN, 0, 0), Vec3::Zero());
    expect("applyImpulse.impulse");
    CHECK(w.body(stale).userData == 0); // a default body, not a crash
    expect("body.id");
    const ColliderDesc badCollider = makeCollider(Sphere{-1}, 1000);
    CHECK(w.createCollider(s.ball, badCollider).isNull());
    expect("createCollider.desc.Sphere.radius");
    w.destroyBody(stale);
    expect("destroyBody.id");

    JointDesc j;
    j.a.body = s.ball;
    j.b.body = s.ball;
    CHECK(w.createJoint(j).isNull());
    expect("createJoint.b.body");
    w.destroyJoint(JointId{});
    expect("destroyJoint.id");
    CHECK(w.jointForce(JointId{}) == 0);
    expect("joint.id");
    CHECK(w.createForceGenerator(Drag{stale, 1, 1}).isNull());
    expect("createForceGenerator.Drag.body");

    ParticleDesc p;
    p.radius = -1;
    CHECK(w.createParticle(p).isNull());
    expect("ParticleDesc.radius");
    CHECK(w.createDistanceConstraint({s.rope.particles[0], ParticleId{}, -1, 0}).isNull());
    CHECK(errors.last() == "DistanceConstraintDesc.b");
    CHECK((w.saveState() == before));
    CHECK(w.particle(ParticleId{}).radius == 0);
    expect("particle.id");
    CHECK(w.distanceTension(DistanceConstraintId{}) == 0);
    CHECK(w.createDeformable(DeformableDesc{}).isNull());
    CHECK((w.saveState() == before));
    CHECK(w.deformableVertices(DeformableId{}).empty());
    CHECK_FALSE(w.isDeformableAsleep(DeformableId{}));
    CHECK((w.saveState() == before));

    WorldSettings settings = w.settings();
    settings.gravity = Vec3(0, kNaN, 0);
    w.setSettings(settings);
    expect("WorldSettings.gravity");
    w.step(-1);
    expect("step.dt");
    w.step(real(1) / 60, 0);
    expect("step.substeps");
    const std::vector<std::uint8_t> junk{1, 2, 3};
    w.restoreState(junk);
    CHECK(errors.fields.back().rfind("restoreState", 0) == 0);
    CHECK((w.saveState() == before));

    CHECK(w.rayCastAll(Vec3::Zero(), Vec3(kNaN, 0, 0)).empty());
    expect("rayCast.to");
    CHECK_FALSE(w.rayCastClosest(Vec3(kNaN, 0, 0), Vec3::Zero()));
    expect("rayCast.from");
    CHECK(w.overlap(Sphere{-1}, Transform{}).empty());
    expect("overlap.shape.Sphere.radius");
    CHECK_FALSE(w.closestPoint(Vec3::Zero(), -1));
    expect("closestPoint.maxDistance");

    // Every call above reported exactly once (nested calls do not report again).
    CHECK(errors.fields.size() == 26);

    // The world still works, and errors still reach the handler after a step.
    const std::size_t reported = errors.fields.size();
    w.step(real(1) / 60);
    CHECK(errors.fields.size() == reported);
    CHECK(w.rayCastClosest(Vec3(0, 5, 0), Vec3(0, -5, 0))->body == s.ball);
}

TEST_CASE("without an error handler, calls throw as before", "[physics]") {
    Scene s;
    Recorder errors;
    s.world.setErrorHandler(errors.handler());
    s.world.setErrorHandler({});
    CHECK_THROWS_AS(s.world.step(-1), Error);
    CHECK(errors.fields.empty());
}

TEST_CASE("a builder that fails inside reports once to the world's handler", "[physics]") {
    Scene s;
    World& w = s.world;
    Recorder errors;
    w.setErrorHandler(errors.handler());
    const std::size_t particles = w.particleCount();
    RopeDesc r;
    r.radius = -1; // rejected by the rope's first createParticle
    CHECK(buildRope(w, r).particles.empty());
    CHECK(errors.fields == std::vector<std::string>{"ParticleDesc.radius"});
    CHECK(w.particleCount() == particles);
    // Builders are not all or nothing (with or without a handler): the rope took a new
    // particle group before its first particle failed. What they check up front fails
    // before anything changes.
    const std::vector<std::uint8_t> before = w.saveState();
    ClothDesc c;
    c.nu = 1;
    CHECK(buildCloth(w, c).particles.empty());
    CHECK(errors.last() == "ClothDesc.nu");
    ArapBarDesc bar;
    bar.particles = 1;
    CHECK(buildArapBar(w, bar).id.isNull());
    CHECK(errors.last() == "ArapBarDesc.particles");
    CHECK(addScene(w, "{\"bodies\": 3").bodies.empty());
    CHECK(errors.fields.size() == 4);
    CHECK((w.saveState() == before));
}

TEST_CASE("the handler may use the world, the world keeps it when moved or restored", "[physics]") {
    Scene s;
    std::size_t bodiesSeen = 0;
    s.world.setErrorHandler([&](const Error&) { bodiesSeen = s.world.bodyCount(); });
    s.world.step(0);
    CHECK(bodiesSeen == 3);
    const std::vector<std::uint8_t> blob = s.world.saveState();
    s.world.restoreState(blob);
    REQUIRE(s.world.errorHandler());
    World moved = std::move(s.world);
    REQUIRE(moved.errorHandler());
    CHECK_NOTHROW(moved.step(-1));
}

TEST_CASE("free functions take a handler as their last argument", "[physics]") {
    Recorder errors;
    const std::vector<Vec3> flat{Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(1, 1, 0)};
    CHECK(makeConvexHull(flat, errors.handler()).hull == nullptr);
    CHECK(errors.fields.size() == 1);
    const std::vector<Vec3> corners{Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 0, 1)};
    const std::vector<std::array<std::uint32_t, 3>> triangles{{0, 1, 7}};
    CHECK(makeTriangleMesh(corners, triangles, errors.handler()).mesh == nullptr);
    CHECK(errors.fields.size() == 2);
    const std::vector<Vec3> cube{Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, 1), Vec3(1, 1, 1)};
    CHECK(makeConvexHull(cube, errors.handler()).hull != nullptr);
    CHECK(errors.fields.size() == 2);

    LoadedScene scene = loadScene("{ nope", errors.handler());
    CHECK(scene.world.bodyCount() == 0);
    CHECK(errors.fields.size() == 3);
    scene.world.step(-1); // the loaded world reports to the same handler
    CHECK(errors.last() == "step.dt");
    CHECK(readTextFile("/nonexistent/jounce/scene.json", errors.handler()).empty());
    CHECK(errors.last() == "file");
    CHECK(creatureMesh(-1, 2, errors.handler()).triangles.empty());
    CHECK(errors.last() == "creatureMesh.size");
    ArapBarDesc bar;
    bar.particles = 1;
    CHECK(arapBarDesc(bar, nullptr, errors.handler()).particles.empty());
    CHECK(errors.last() == "ArapBarDesc.particles");

    // An empty handler: the overload throws like the plain function.
    CHECK_THROWS_AS(makeConvexHull(flat, ErrorHandler{}), Error);
}

TEST_CASE("a world built with a handler reports bad settings to it", "[physics]") {
    Recorder errors;
    WorldSettings settings;
    settings.maxTimeStep = -1;
    World w(settings, errors.handler());
    CHECK(errors.last() == "WorldSettings.maxTimeStep");
    CHECK(w.settings().maxTimeStep == WorldSettings{}.maxTimeStep);
}
