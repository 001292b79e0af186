// SPDX-License-Identifier: MIT
// Static triangle meshes: validation, internal edges, contacts with every convex shape,
// the triangle-seam test, ray casts and signed distance.

#include "helpers.hpp"

#include <jounce/collision/narrow_phase.hpp>
#include <jounce/collision/point_queries.hpp>
#include <jounce/collision/ray_cast.hpp>
#include <jounce/collision/triangle_mesh.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>
#include <random>

using namespace jounce;
using testing::at;
using testing::turn;
using testing::tol;

namespace {

using Triangles = std::vector<std::array<std::uint32_t, 3>>;

/// A flat square of half size h at y = 0 made of two triangles (diagonal from
/// (-h, -h) to (h, h)), front facing +y.
TriangleMesh flatQuad(real h = 2) {
    const std::vector<Vec3> v{{-h, 0, -h}, {h, 0, -h}, {h, 0, h}, {-h, 0, h}};
    return makeTriangleMesh(v, Triangles{{0, 3, 2}, {0, 2, 1}});
}

/// Two faces meeting along the z axis at x = 0, each rising (ridge) or falling
/// (valley) away from it with slope `slope`.
TriangleMesh fold(real slope) {
    const std::vector<Vec3> v{{-2, -2 * slope, -2}, {0, 0, -2}, {0, 0, 2}, {-2, -2 * slope, 2}, {2, -2 * slope, -2}, {2, -2 * slope, 2}};
    return makeTriangleMesh(v, Triangles{{0, 3, 2}, {0, 2, 1}, {1, 2, 5}, {1, 5, 4}});
}

/// A closed cube [-h, h]^3 of 12 outward-facing triangles.
TriangleMesh cubeMesh(const Vec3& h) {
    std::vector<Vec3> v;
    for (int i = 0; i < 8; ++i) v.emplace_back(i & 1 ? h.x() : -h.x(), i & 2 ? h.y() : -h.y(), i & 4 ? h.z() : -h.z());
    const Triangles t{{0, 2, 3}, {0, 3, 1}, {4, 5, 7}, {4, 7, 6}, {0, 1, 5}, {0, 5, 4},
                      {2, 6, 7}, {2, 7, 3}, {0, 4, 6}, {0, 6, 2}, {1, 3, 7}, {1, 7, 5}};
    return makeTriangleMesh(v, t);
}

ColliderDesc colliderOf(const Shape& shape) {
    ColliderDesc c;
    c.shape = shape;
    return c;
}
real deepest(const std::vector<Manifold>& all) {
    real d = -std::numeric_limits<real>::infinity();
    for (const Manifold& m : all)
        for (int k = 0; k < m.count; ++k) d = std::max(d, m.points[static_cast<std::size_t>(k)].depth);
    return d;
}

} // namespace

TEST_CASE("mesh input is validated: the first bad vertex, index or triangle is named", "[collision]") {
    const std::vector<Vec3> v{{0, 0, 0}, {1, 0, 0}, {0, 0, 1}};
    const auto fieldOf = [](auto make) {
        try {
            make();
        } catch (const Error& e) {
            return std::string(e.field());
        }
        return std::string("no error");
    };
    CHECK(fieldOf([&] { makeTriangleMesh({}, Triangles{{0, 1, 2}}); }) == "makeTriangleMesh.vertices");
    CHECK(fieldOf([&] { makeTriangleMesh(v, Triangles{}); }) == "makeTriangleMesh.triangles");
    std::vector<Vec3> bad = v;
    bad[1].x() = std::numeric_limits<real>::quiet_NaN();
    CHECK(fieldOf([&] { makeTriangleMesh(bad, Triangles{{0, 1, 2}}); }) == "makeTriangleMesh.vertices[1]");
    CHECK(fieldOf([&] { makeTriangleMesh(v, Triangles{{0, 2, 1}, {0, 1, 3}}); }) == "makeTriangleMesh.triangles[1]");
    CHECK(fieldOf([&] { makeTriangleMesh(v, Triangles{{0, 2, 1}, {0, 1, 1}}); }) == "makeTriangleMesh.triangles[1]");
    const std::vector<Vec3> line{{0, 0, 0}, {1, 0, 0}, {2, 0, 0}};
    CHECK(fieldOf([&] { makeTriangleMesh(line, Triangles{{0, 1, 2}}); }) == "makeTriangleMesh.triangles[0]");
    CHECK(fieldOf([&] { validateShape(TriangleMesh{}, "shape"); }) == "shape.TriangleMesh.mesh");
}

TEST_CASE("a mesh belongs on a static body, a dynamic one is refused and nothing is stored", "[collision]") {
    World world;
    BodyDesc d;
    d.colliders.push_back(colliderOf(flatQuad()));
    REQUIRE_THROWS_AS(world.createBody(d), Error);
    CHECK(world.bodyIds().empty());
    d.type = BodyType::Static;
    const BodyId ground = world.createBody(d);
    CHECK(world.colliderIdsOf(ground).size() == 1);
    // An open mesh has no mass to give.
    CHECK_THROWS_AS(computeMassProperties(flatQuad(), 1000), Error);
}

TEST_CASE("internal edges: flat and concave seams are inactive, boundary and convex edges active", "[collision]") {
    const TriangleMesh quad = flatQuad();
    // Triangle 0 = (0, 3, 2): edge 2 runs 2 -> 0, the diagonal.
    CHECK(quad.mesh->edgeActive(0, 0));
    CHECK(quad.mesh->edgeActive(0, 1));
    CHECK_FALSE(quad.mesh->edgeActive(0, 2));
    CHECK_FALSE(quad.mesh->edgeActive(1, 0)); // (0, 2): the diagonal again
    const TriangleMesh ridge = fold(real(0.3)), valley = fold(real(-0.3));
    // Triangle 0 = (0, 3, 2) and 2 = (1, 2, 5) share the fold along (1, 2) with triangles 1 and 2.
    CHECK(ridge.mesh->edgeActive(1, 1));   // (2, 1) of triangle (0, 2, 1): the ridge
    CHECK_FALSE(valley.mesh->edgeActive(1, 1));
    CHECK_FALSE(ridge.mesh->edgeActive(0, 2)); // (2, 0): flat diagonal inside a side
}

TEST_CASE("triangle seam: a box sliding across a two-triangle quad only ever sees the face normal", "[collision][scene]") {
    const TriangleMesh quad = flatQuad();
    const Box box{Vec3(0.5, 0.25, 0.5)};
    int manifolds = 0;
    real worst = 0;
    for (const real yaw : {real(0), real(0.3), std::numbers::pi_v<real> / 4, real(1.1)})
        for (const real tilt : {real(0), real(0.15)}) // resting flat, and on one edge
            for (const real z : {real(-0.7), real(0), real(0.45)})
                for (int step = 0; step <= 280; ++step) {
                    const real x = real(-1.4) + real(0.01) * static_cast<real>(step);
                    const Quat q = turn(yaw, Vec3::UnitY()) * turn(tilt, Vec3::UnitX());
                    // Lowest corner 0.01 below the surface.
                    const real low = -(q.toRotationMatrix().cwiseAbs() * box.halfExtents).y();
                    std::vector<Manifold> all;
                    collideAll(box, at(Vec3(x, -low - real(0.01), z), q), quad, at(Vec3::Zero()), real(0.01), all);
                    REQUIRE(all.size() == 1); // coplanar triangles merge into one manifold
                    REQUIRE(all[0].count >= 1);
                    REQUIRE(all[0].count <= 4);
                    worst = std::max(worst, (all[0].normal - Vec3::UnitY()).norm());
                    CHECK(deepest(all) == Approx(0.01).margin(tol(1e-9, 1e-5)));
                    ++manifolds;
                }
    INFO(manifolds << " placements");
    CHECK(worst <= real(1e-6));
}

TEST_CASE("spheres and capsules roll across the seam on the face normal", "[collision]") {
    const TriangleMesh quad = flatQuad();
    for (int step = 0; step <= 200; ++step) {
        const real s = real(-1) + real(0.01) * static_cast<real>(step);
        std::vector<Manifold> all;
        collideAll(Sphere{0.3}, at(Vec3(s, real(0.29), s * real(0.7))), quad, at(Vec3::Zero()), 0, all);
        REQUIRE(all.size() == 1);
        CHECK((all[0].normal - Vec3::UnitY()).norm() <= real(1e-6));
        CHECK(deepest(all) == Approx(0.01).margin(tol(1e-9, 1e-5)));
        all.clear();
        const Quat lying = turn(std::numbers::pi_v<real> / 2, Vec3::UnitZ()) * turn(real(0.5), Vec3::UnitX());
        collideAll(Capsule{0.3, 0.6}, at(Vec3(s, real(0.29), -s), lying), quad, at(Vec3::Zero()), 0, all);
        REQUIRE(all.size() == 1);
        CHECK((all[0].normal - Vec3::UnitY()).norm() <= real(1e-6));
        CHECK(deepest(all) == Approx(0.01).margin(tol(1e-9, 1e-5)));
    }
}

TEST_CASE("active edges do push: the quad's rim and a convex ridge", "[collision]") {
    SECTION("a sphere hanging over the rim is pushed away from the edge") {
        const Vec3 centre(2.2, 0.1, 0.3); // beyond x = 2, a little above the surface
        std::vector<Manifold> all;
        REQUIRE(collideAll(Sphere{0.3}, at(centre), flatQuad(), at(Vec3::Zero()), 0, all) == 1);
        const Vec3 expected = (centre - Vec3(2, 0, 0.3)).normalized();
        CHECK((all[0].normal - expected).norm() < tol(1e-7, 1e-4));
        CHECK(deepest(all) == Approx(0.3 - std::sqrt(0.05)).margin(tol(1e-7, 1e-4)));
    }
    SECTION("a sphere on the ridge line is pushed straight up by the edge") {
        std::vector<Manifold> all;
        REQUIRE(collideAll(Sphere{0.3}, at(Vec3(0, 0.28, 0.5)), fold(real(0.3)), at(Vec3::Zero()), 0, all) >= 1);
        CHECK((all[0].normal - Vec3::UnitY()).norm() < tol(1e-7, 1e-4));
        CHECK(deepest(all) == Approx(0.02).margin(tol(1e-7, 1e-4)));
    }
    SECTION("a sphere in a valley touches both faces, never the fold") {
        std::vector<Manifold> all;
        const real slope = real(0.3), r = real(0.3);
        // Resting on both faces: centre height r / cos(theta) above the fold, minus 0.01.
        const real height = r * std::sqrt(1 + slope * slope) - real(0.01);
        REQUIRE(collideAll(Sphere{r}, at(Vec3(0, height, 0)), fold(-slope), at(Vec3::Zero()), 0, all) == 2);
        for (const Manifold& m : all) CHECK(std::abs(std::abs(m.normal.x()) - slope / std::sqrt(1 + slope * slope)) < tol(1e-9, 1e-5));
    }
}

TEST_CASE("hulls on a mesh, and a box on a closed mesh cube", "[collision]") {
    std::vector<Vec3> rock;
    for (int k = 0; k < 6; ++k) {
        const real a = std::numbers::pi_v<real> * static_cast<real>(k) / 3;
        rock.emplace_back(std::cos(a), -0.4, std::sin(a));
        rock.emplace_back(0.6 * std::cos(a + 0.5), 0.4, 0.6 * std::sin(a + 0.5));
    }
    const ConvexHull hull = makeConvexHull(rock);
    std::vector<Manifold> all;
    REQUIRE(collideAll(hull, at(Vec3(0.2, 0.39, 0.1)), flatQuad(), at(Vec3::Zero()), 0, all) == 1);
    CHECK((all[0].normal - Vec3::UnitY()).norm() <= real(1e-9));
    CHECK(all[0].count == 4);
    CHECK(deepest(all) == Approx(0.01).margin(tol(1e-9, 1e-5)));
    // A box pressed into the top of a closed cube mesh: the top's two triangles merge.
    all.clear();
    REQUIRE(collideAll(Box{Vec3::Constant(0.3)}, at(Vec3(0.1, 1.28, -0.2)), cubeMesh(Vec3::Constant(1)), at(Vec3::Zero()),
                       0, all) == 1);
    CHECK(all[0].count == 4);
    CHECK((all[0].normal - Vec3::UnitY()).norm() <= real(1e-9));
    // The mesh as A: the normal turns around.
    Manifold m;
    REQUIRE(collide(flatQuad(), at(Vec3::Zero()), Sphere{0.5}, at(Vec3(0.3, 0.45, 0.2)), 0, m));
    CHECK((m.normal + Vec3::UnitY()).norm() <= real(1e-9));
}

TEST_CASE("ray casts hit the front faces of a mesh, closest first", "[collision]") {
    const TriangleMesh quad = flatQuad();
    const Transform pose = at(Vec3(0, 1, 0), turn(0.2, Vec3::UnitX()));
    ShapeRayHit hit;
    const Vec3 from = pose.toWorld(Vec3(0.5, 3, -0.7)), to = pose.toWorld(Vec3(0.5, -1, -0.7));
    REQUIRE(rayCast(quad, pose, from, to, hit));
    CHECK(hit.fraction == Approx(0.75).margin(tol(1e-12, 1e-6)));
    CHECK((hit.normal - pose.directionToWorld(Vec3::UnitY())).norm() < tol(1e-12, 1e-6));
    CHECK_FALSE(rayCast(quad, pose, to, from, hit)); // from behind: one-sided
    CHECK_FALSE(rayCast(quad, pose, pose.toWorld(Vec3(2.5, 1, 0)), pose.toWorld(Vec3(2.5, -1, 0)), hit));
    // A closed cube: enters the near face only.
    const TriangleMesh cube = cubeMesh(Vec3::Constant(1));
    REQUIRE(rayCast(cube, at(Vec3::Zero()), Vec3(-3, 0.2, 0.1), Vec3(3, 0.2, 0.1), hit));
    CHECK(hit.fraction == Approx(2.0 / 6.0).margin(tol(1e-12, 1e-6)));
    CHECK((hit.normal + Vec3::UnitX()).norm() < tol(1e-12, 1e-6));
}

TEST_CASE("signed distance to a closed mesh cube equals the box's, inside and out", "[collision]") {
    const Vec3 half(1, 0.5, 0.75);
    const TriangleMesh cube = cubeMesh(half);
    const Box box{half};
    const Transform pose = at(Vec3(0.5, -1, 2), turn(0.6, Vec3(1, 2, 0)));
    std::mt19937 rng(11);
    std::uniform_real_distribution<double> u(-2, 2);
    for (int trial = 0; trial < 1000; ++trial) {
        const Vec3 p = pose.toWorld(Vec3(static_cast<real>(u(rng)), static_cast<real>(u(rng)), static_cast<real>(u(rng))));
        const PointProximity a = signedDistance(cube, pose, p), b = signedDistance(box, pose, p);
        CHECK(a.distance == Approx(b.distance).margin(tol(1e-9, 1e-4)));
        if (std::abs(b.distance) > real(1e-3)) CHECK((a.point - b.point).norm() < tol(1e-9, 1e-3));
    }
    const MassProperties mp = computeMassProperties(cube, 700), expected = solidBox(half, 700);
    CHECK(mp.mass == Approx(expected.mass));
    CHECK((mp.inertia - expected.inertia).norm() < tol(1e-9, 1e-3) * expected.inertia.norm());
    CHECK(cube.mesh->closed());
    CHECK_FALSE(flatQuad().mesh->closed());
}

TEST_CASE("a world reports box-on-mesh contacts with the face normal", "[collision][scene]") {
    World world = testing::worldWithoutGravity();
    BodyDesc ground;
    ground.type = BodyType::Static;
    ground.colliders.push_back(colliderOf(flatQuad(4)));
    world.createBody(ground);
    BodyDesc crate;
    crate.position = Vec3(0.3, real(0.245), -0.2);
    crate.colliders.push_back(colliderOf(Box{Vec3(0.5, 0.25, 0.5)}));
    const BodyId box = world.createBody(crate);
    world.step(real(1) / 60);
    REQUIRE(world.contacts().size() == 1);
    const ContactManifold& c = world.contacts()[0];
    const real sign = c.bodyA == box ? 1 : -1; // the normal points from B toward A
    CHECK((c.manifold.normal * sign - Vec3::UnitY()).norm() <= real(1e-9));
    CHECK(c.manifold.count == 4);
}

TEST_CASE("one-sided triangles: a thin box sunk into a two-triangle floor is never pushed down through it",
          "[collision]") {
    // A 1 x 0.02 x 1 m box, centre 0 to 1 cm over the floor (so half of it or more under
    // the surface), at random orientations and places over a 4 m quad. Every manifold's
    // normal points from the mesh toward the shape: up. Before the one-sided rule for the
    // separating axes, an edge-edge axis turned toward the box's centre from the far-off
    // triangle centroid (or a box face looking up) could win and point down: a spinning
    // box was held between two opposite normals and went through (robustness, drop 693).
    const TriangleMesh floor = flatQuad(2);
    const Box box{Vec3(real(0.5), real(0.01), real(0.5))};
    std::mt19937 rng(3);
    std::uniform_real_distribution<real> u(-1, 1);
    int tested = 0, down = 0;
    for (int i = 0; i < 20000; ++i) {
        const Vec3 axis(u(rng), u(rng), u(rng));
        if (axis.norm() < real(0.1)) continue;
        // Mostly flat, tilted up to 20 degrees.
        const Quat q = turn(real(0.35) * u(rng), axis) * turn(std::numbers::pi_v<real> * u(rng), Vec3::UnitY());
        const Transform pose = at(Vec3(real(1.2) * u(rng), real(0.005) * (1 + u(rng)), real(1.2) * u(rng)), q);
        std::vector<Manifold> manifolds;
        collideAll(box, pose, floor, Transform{}, real(0.01), manifolds);
        for (const Manifold& m : manifolds) {
            ++tested;
            if (m.normal.y() < -real(1e-3)) ++down; // along the plane, tipped by rounding, may stay
        }
    }
    INFO(down << " of " << tested << " manifolds point down");
    CHECK(tested > 10000);
    CHECK(down == 0);
}
