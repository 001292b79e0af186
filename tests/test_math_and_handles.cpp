// SPDX-License-Identifier: MIT
// Transforms, handles and the slot array behind them.

#include "helpers.hpp"

#include <catch2/catch.hpp>

using namespace jounce;

TEST_CASE("transform round-trips points and skew is the cross product", "[physics]") {
    const Transform t{Vec3(1, 2, 3), Quat(Eigen::AngleAxis<real>(real(0.7), Vec3(1, 2, 3).normalized()))};
    const Vec3 p(real(-0.5), 4, 2);
    CHECK((t.toLocal(t.toWorld(p)) - p).norm() < testing::tol(1e-12, 1e-5));
    CHECK((skew(Vec3(1, 2, 3)) * p - Vec3(1, 2, 3).cross(p)).norm() < testing::tol(1e-12, 1e-5));
}

TEST_CASE("stale handles are detected after a slot is reused", "[physics]") {
    World world;
    const BodyId a = world.createBody({});
    world.destroyBody(a);
    const BodyId b = world.createBody({});
    CHECK(b.index == a.index); // the slot is reused...
    CHECK(b.generation != a.generation);
    CHECK_FALSE(world.contains(a)); // ...but the old handle is stale
    CHECK(world.contains(b));
    CHECK_THROWS_WITH(world.body(a), Catch::Contains("stale"));
    CHECK_THROWS_AS(world.body(BodyId{}), Error);
    CHECK_THROWS_AS(world.body(BodyId{999, 1}), Error);
}

TEST_CASE("destroying a body removes the generators attached to it", "[physics]") {
    World world;
    const BodyId a = world.createBody({});
    const BodyId b = world.createBody({});
    const auto spring = world.createForceGenerator(Spring{{a, Vec3::Zero()}, {b, Vec3::Zero()}, 1, 1, 0});
    const auto drag = world.createForceGenerator(Drag{b, 1, 0});
    world.destroyBody(a);
    CHECK_FALSE(world.contains(spring));
    CHECK(world.contains(drag));
    world.step(real(1) / 60); // and nothing dangles
}
