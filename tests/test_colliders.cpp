// SPDX-License-Identifier: MIT
// Colliders on bodies: mass from shapes, and the broad and narrow phase inside the step.

#include "helpers.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>

using namespace jounce;
using testing::tol;

namespace {

BodyDesc ballAt(const Vec3& p, real radius = real(0.5)) {
    BodyDesc d;
    d.position = p;
    d.colliders.push_back({Sphere{radius}, Transform{}, 1000, {}, {}});
    return d;
}

BodyDesc groundPlane() {
    BodyDesc d;
    d.type = BodyType::Static;
    d.colliders.push_back({HalfSpace{}, Transform{}, 1000, {}, {}});
    return d;
}

} // namespace

TEST_CASE("a body takes its mass, inertia and centre of mass from its colliders", "[physics][collision]") {
    World world;
    BodyDesc d;
    d.position = Vec3(1, 2, 3);
    d.colliders.push_back({Box{Vec3(real(0.5), 1, real(1.5))}, Transform{}, 200, {}, {}});
    const BodyId box = world.createBody(d);
    const MassProperties expected = solidBox(Vec3(real(0.5), 1, real(1.5)), 200);
    CHECK(1 / world.body(box).inverseMass == Approx(expected.mass));
    CHECK(world.body(box).inertia.isApprox(expected.inertia));
    CHECK(world.body(box).position.isApprox(d.position));

    SECTION("two spheres off the origin: weighted centre and parallel-axis inertia") {
        BodyDesc dumbbell;
        dumbbell.position = Vec3(0, 5, 0);
        dumbbell.colliders.push_back({Sphere{real(0.5)}, Transform{Vec3(1, 0, 0), Quat::Identity()}, 1000, {}, {}});
        dumbbell.colliders.push_back({Sphere{real(0.5)}, Transform{Vec3(-2, 0, 0), Quat::Identity()}, 3000, {}, {}});
        const BodyId id = world.createBody(dumbbell);
        const BodyState b = world.body(id);
        const real m1 = solidSphere(real(0.5), 1000).mass, m2 = 3 * m1;
        const real cx = (m1 * 1 + m2 * -2) / (m1 + m2);
        CHECK(b.localCenterOfMass.isApprox(Vec3(cx, 0, 0)));
        CHECK(b.centerOfMass.isApprox(Vec3(cx, 5, 0)));
        CHECK(b.position == dumbbell.position); // the origin is where BodyDesc put it, exactly
        const real i0 = solidSphere(real(0.5), 1000).inertia(0, 0);
        CHECK(b.inertia(1, 1) == Approx(i0 + 3 * i0 + m1 * (1 - cx) * (1 - cx) + m2 * (-2 - cx) * (-2 - cx)));
        CHECK(b.inertia(0, 0) == Approx(4 * i0));
        // The colliders stay where they were put, whatever the centre of mass.
        CHECK(world.colliderPose(world.colliderIdsOf(id)[0]).position.isApprox(Vec3(1, 5, 0)));
        // Removing one moves the centre of mass, not the origin.
        world.destroyCollider(world.colliderIdsOf(id)[1]);
        CHECK(world.body(id).centerOfMass.isApprox(Vec3(1, 5, 0)));
        CHECK(world.body(id).position.isApprox(Vec3(0, 5, 0)));
        CHECK(1 / world.body(id).inverseMass == Approx(m1));
    }
}

TEST_CASE("a falling ball reports its contact with the ground within the margin", "[physics][collision]") {
    World world;
    world.createBody(groundPlane());
    const BodyId ball = world.createBody(ballAt(Vec3(0, real(0.6), 0)));
    bool seen = false;
    for (int i = 0; i < 30 && !seen; ++i) {
        // A step's contacts are found where the bodies stood when it began.
        const real gap = world.body(ball).position.y() - real(0.5);
        // The margin grows by how far the bodies can approach this step (speculative),
        // at the velocity they have when the narrow phase runs (the soft step integrates
        // gravity in its substeps, after it).
        const Vec3 v = world.body(ball).linearVelocity;
        const real margin = world.settings().collisionMargin + v.norm() / 60;
        world.step(real(1) / 60);
        if (gap > margin) {
            CHECK(world.contacts().empty());
            continue;
        }
        REQUIRE(world.contacts().size() == 1);
        const ContactManifold& c = world.contacts()[0];
        // The ground is body 0 (created first), the ball body 1: A = ground, B = ball,
        // so the normal points from the ball toward the ground.
        CHECK(c.bodyA.index == 0);
        CHECK(c.manifold.normal.isApprox(-Vec3::UnitY(), tol(1e-12, 1e-6)));
        CHECK(c.manifold.points[0].depth == Approx(-gap).margin(tol(1e-12, 1e-6)));
        CHECK(c.friction == Approx(0.5));
        seen = true;
    }
    CHECK(seen);
}

TEST_CASE("static-static pairs, filters and sleeping bodies make no contacts", "[physics][collision]") {
    World world;
    world.createBody(groundPlane());
    BodyDesc wall;
    wall.type = BodyType::Static;
    wall.colliders.push_back({Box{Vec3(1, 1, 1)}, Transform{}, 1000, {}, {}});
    world.createBody(wall);                 // overlaps the ground: static-static
    BodyDesc ghost = ballAt(Vec3(3, real(0.4), 0));
    ghost.colliders[0].filter = {2, ~std::uint32_t(1)}; // does not collide with category 1
    world.createBody(ghost);
    BodyDesc sleeper = ballAt(Vec3(-3, real(0.4), 0));
    sleeper.awake = false;
    world.createBody(sleeper);
    world.step(real(1) / 60);
    CHECK(world.contacts().empty());

    BodyDesc mover;
    mover.type = BodyType::Kinematic;
    mover.position = Vec3(0, real(1.4), 0);
    mover.colliders.push_back({Sphere{real(0.5)}, Transform{}, 1000, {}, {}});
    world.createBody(mover); // kinematic against the static box: reported (the demo shows these)
    world.step(real(1) / 60);
    CHECK(world.contacts().size() == 1);
}

TEST_CASE("contacts come out in the same order on every run", "[physics][collision]") {
    auto run = [] {
        World world;
        world.createBody(groundPlane());
        for (int i = 0; i < 50; ++i)
            world.createBody(ballAt(Vec3(real(i % 7) * real(0.9), real(0.45) + real(i / 7) * real(0.9), real(i % 3) * real(0.2))));
        world.step(real(1) / 60);
        std::vector<std::pair<std::uint32_t, std::uint32_t>> order;
        for (const auto& c : world.contacts()) order.emplace_back(c.colliderA.index, c.colliderB.index);
        return order;
    };
    const auto first = run();
    CHECK(first.size() > 40);
    CHECK(run() == first);
}

TEST_CASE("colliders are validated and leave the world unchanged when rejected", "[physics][collision]") {
    World world;
    const BodyId ball = world.createBody(ballAt(Vec3::Zero()));
    const auto before = testing::stateHash(world);
    const std::size_t colliders = world.colliderIds().size();
    auto rejects = [&](const std::string& field, const ColliderDesc& c) {
        CAPTURE(field);
        try {
            world.createCollider(ball, c);
            FAIL("accepted");
        } catch (const Error& e) {
            CHECK(e.field().find(field) != std::string::npos);
        }
        BodyDesc d;
        d.colliders.push_back(c);
        CHECK_THROWS_AS(world.createBody(d), Error);
        CHECK(testing::stateHash(world) == before);
        CHECK(world.colliderIds().size() == colliders);
    };
    rejects("createCollider.desc.shape", {HalfSpace{}, Transform{}, 1000, {}, {}}); // dynamic body
    rejects("createCollider.desc.Sphere.radius", {Sphere{0}, Transform{}, 1000, {}, {}});
    rejects("createCollider.desc.Box.halfExtents", {Box{Vec3(1, -1, 1)}, Transform{}, 1000, {}, {}});
    rejects("createCollider.desc.density", {Sphere{1}, Transform{}, 0, {}, {}});
    rejects("createCollider.desc.material.restitution", {Sphere{1}, Transform{}, 1000, {real(0.5), real(1.5)}, {}});
    rejects("createCollider.desc.material.friction", {Sphere{1}, Transform{}, 1000, {-1, 0}, {}});
    rejects("createCollider.desc.local.position", {Sphere{1}, Transform{Vec3(std::numeric_limits<real>::quiet_NaN(), 0, 0), Quat::Identity()}, 1000, {}, {}});
    rejects("createCollider.desc.local.orientation", {Sphere{1}, Transform{Vec3::Zero(), Quat(0, 0, 0, 0)}, 1000, {}, {}});
    CHECK_THROWS_AS(world.createCollider(BodyId{}, ColliderDesc{}), Error);
    CHECK_THROWS_AS(world.destroyCollider(ColliderId{}), Error);

    SECTION("destroying a body removes its colliders") {
        world.destroyBody(ball);
        CHECK(world.colliderIds().empty());
    }
}

TEST_CASE("the body origin stays put when the centre of mass is off it, every body point is in the origin frame",
          "[physics]") {
    // A dumbbell whose centre of mass lies 1.25 m from its origin along x.
    World world;
    BodyDesc d;
    d.position = Vec3(2, 3, 4);
    d.linearDamping = d.angularDamping = 2; // [1/s]: the swing below dies out in 10 s
    d.colliders.push_back({Sphere{real(0.25)}, Transform{Vec3(1, 0, 0), Quat::Identity()}, 1000, {}, {}});
    d.colliders.push_back({Sphere{real(0.25)}, Transform{Vec3(2, 0, 0), Quat::Identity()}, 1000, {}, {}});
    const BodyId id = world.createBody(d);
    const real tol = testing::tol(1e-12, 1e-5);

    BodyState b = world.body(id);
    CHECK(b.position == d.position); // exactly where BodyDesc put it
    CHECK((b.localCenterOfMass - Vec3(real(1.5), 0, 0)).norm() < tol);
    CHECK((b.centerOfMass - Vec3(real(3.5), 3, 4)).norm() < tol);

    SECTION("setPosition places the origin") {
        world.setPosition(id, Vec3(-1, 5, 0));
        b = world.body(id);
        CHECK((b.position - Vec3(-1, 5, 0)).norm() < tol);
        CHECK((b.centerOfMass - Vec3(real(0.5), 5, 0)).norm() < tol);
        CHECK((world.colliderPose(world.colliderIdsOf(id)[0]).position - Vec3(0, 5, 0)).norm() < tol);
    }
    SECTION("setOrientation turns about the origin") {
        const Quat quarter(Eigen::AngleAxis<real>(std::numbers::pi_v<real> / 2, Vec3::UnitZ()));
        world.setOrientation(id, quarter);
        b = world.body(id);
        CHECK((b.position - d.position).norm() < tol);
        CHECK((b.centerOfMass - (d.position + Vec3(0, real(1.5), 0))).norm() < tol);
    }
    SECTION("a joint's point is in the origin frame: the dumbbell hangs from its origin") {
        // Hung by its origin from a world point: it swings down until its centre of mass
        // is below the pivot, the origin staying at the pivot (a point taken in the
        // centre-of-mass frame would put the pivot at the centre of mass instead).
        JointDesc j;
        j.type = JointType::Ball;
        j.a = {id, Vec3::Zero()};
        j.b = {BodyId{}, d.position};
        world.createJoint(j);
        for (int i = 0; i < 600; ++i) world.step(real(1) / 60);
        b = world.body(id);
        CHECK((b.position - d.position).norm() < real(0.02));
        CHECK(b.centerOfMass.y() < d.position.y() - real(1.2)); // it hangs below the pivot
        CHECK(std::abs(b.centerOfMass.x() - d.position.x()) < real(0.3));
    }
}
