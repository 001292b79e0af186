// SPDX-License-Identifier: MIT
// The shared scenes, run as the demo and jounce-bench run them.

#include "helpers.hpp"
#include "scenes/bench_scenes.hpp"
#include "scenes/scene.hpp"

#include <jounce/collision/triangle_mesh.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <optional>
#include <tuple>
#include <utility>
#include <vector>

using namespace jounce;
using jounce::scenes::makeScene;

namespace {

bool allFinite(const World& w) {
    for (const BodyId id : w.bodyIds()) {
        const BodyState b = w.body(id);
        if (!b.position.allFinite() || !b.linearVelocity.allFinite() || !b.angularVelocity.allFinite()) return false;
    }
    for (const ParticleId id : w.particleIds())
        if (!w.particle(id).position.allFinite() || !w.particle(id).velocity.allFinite()) return false;
    for (const DeformableId id : w.deformableIds())
        for (const Vec3& x : w.deformable(id).position)
            if (!x.allFinite()) return false;
    return true;
}

} // namespace

TEST_CASE("every scene runs 600 steps with finite state and draws something", "[physics][scene]") {
    for (const std::string& name : scenes::sceneNames()) {
        // Under the sanitizers the benchmark scenes are left out (the other build runs them).
        if (testing::sanitizedStepDivisor > 1 && scenes::isBenchScene(name)) continue;
        CAPTURE(name);
        auto scene = makeScene(name);
        // The benchmark scenes are big (up to 4096 bodies or particles): a few steps
        // here, the full runs are jounce-bench's and the [contact] tests'.
        // Particle scenes run 2 s (their figures are asserted in the [particles] tests);
        // the sanitizer build runs this test too, and must stay fast.
        const bool big = scenes::isBenchScene(name) || name == "cloth64" || name == "sandpile" || name == "softcube" ||
                         name == "mixed";
        const bool particles = scene->world().particleCount() > 0;
        // Under the sanitizers a twentieth of that (the other build runs it whole), and the
        // deformables' scenes as few as the particles' (their sparse solves are slow there).
        const bool sanitized = testing::sanitizedStepDivisor > 1;
        const bool deformables = !scene->world().deformableIds().empty();
        const int steps = (big ? 20 : particles || (sanitized && deformables) ? 120 : 600) / (sanitized ? 20 : 1);
        for (int i = 0; i < steps; ++i) scene->step();
        CHECK(allFinite(scene->world()));
        scenes::DrawList list;
        scene->draw(list);
        CHECK(list.items.size() > 1);
    }
    CHECK_THROWS_WITH(makeScene("no-such-scene"), Catch::Contains("unknown scene"));
}

TEST_CASE("scenes are deterministic: two runs hash equal at every step", "[physics][scene]") {
    for (const char* name : {"fireworks", "springs", "ballistic", "rope", "cloth", "blob"}) {
        CAPTURE(name);
        auto a = makeScene(name), b = makeScene(name);
        // Under the sanitizers 30 steps: the cloth's bending alone takes ~10 s there.
        const int steps = testing::sanitizedStepDivisor > 1 ? 30 : 300;
        for (int i = 0; i < steps; ++i) {
            a->step();
            b->step();
            REQUIRE(testing::stateHash(a->world()) == testing::stateHash(b->world()));
        }
    }
}

TEST_CASE("ballistic rounds fly with the book's accelerations", "[physics][scene]") {
    auto scene = makeScene("ballistic");
    testing::useResolver(scene->world()); // the book's once-per-step integration
    scene->act(4); // auto fire off
    scene->act(1); // artillery: (0, 30, 40) m/s, -20 m/s^2, damping 0.99
    const BodyId round = scene->visuals().back().body;
    const real h = scene->timeStep();
    const Vec3 v0 = scene->world().body(round).linearVelocity;
    CHECK(v0.isApprox(Vec3(0, 30, 40)));
    scene->step();
    const Vec3 v1 = scene->world().body(round).linearVelocity;
    CHECK(v1.y() == Approx((30 - 20 * h) * std::pow(real(0.99), h)).epsilon(testing::tol(1e-12, 1e-5)));
    CHECK(v1.z() == Approx(40 * std::pow(real(0.99), h)).epsilon(testing::tol(1e-12, 1e-5)));
}

TEST_CASE("the spinning scene shows the intermediate-axis flip", "[physics][scene]") {
    auto scene = makeScene("spinning");
    const auto& v = scene->visuals();
    REQUIRE(v.size() == 3);
    real minMiddle = 1, minMajor = 1;
    for (int i = 0; i < 600; ++i) {
        scene->step();
        const BodyState major = scene->world().body(v[0].body);
        const BodyState middle = scene->world().body(v[1].body);
        const Vec3 wm = middle.orientation.conjugate() * middle.angularVelocity;
        const Vec3 wM = major.orientation.conjugate() * major.angularVelocity;
        minMiddle = std::min(minMiddle, wm.y() / wm.norm());
        minMajor = std::min(minMajor, wM.x() / wM.norm());
    }
    CHECK(minMiddle < real(-0.9));
    CHECK(minMajor > real(0.99));
}

TEST_CASE("fireworks spawn payloads and retire them", "[physics][scene]") {
    auto scene = makeScene("fireworks");
    std::size_t most = 0;
    for (int i = 0; i < 600; ++i) {
        scene->step();
        most = std::max(most, scene->world().bodyCount());
    }
    CHECK(most > 30);                              // bursts happened (a rocket alone is 1 body)
    CHECK(scene->world().bodyCount() < most);      // and burnt-out fireworks were removed
}

TEST_CASE("dragging: a kinematic body follows the target, a dynamic one is pulled there", "[physics][scene]") {
    auto contacts = makeScene("contacts");
    const BodyId box = contacts->visuals()[2].body; // ground, block, then the kinematic box
    REQUIRE(contacts->world().body(box).type == BodyType::Kinematic);
    const Vec3 held = contacts->world().body(box).position + Vec3(real(0.2), 0, 0);
    REQUIRE(contacts->grab(box, held));
    const Vec3 target = held + Vec3(1, real(0.5), -1);
    contacts->dragTo(target);
    contacts->step();
    const BodyState b = contacts->world().body(box);
    CHECK((b.position + Vec3(real(0.2), 0, 0) - target).norm() < testing::tol(1e-9, 1e-4));
    contacts->release();
    CHECK(contacts->grabbed().isNull());
    CHECK_FALSE(contacts->grab(contacts->visuals()[1].body, Vec3::Zero())); // static block

    auto spinning = makeScene("spinning"); // no gravity: only the drag spring acts
    const BodyId heavy = spinning->visuals()[0].body;
    const Vec3 start = spinning->world().body(heavy).position;
    REQUIRE(spinning->grab(heavy, start));
    spinning->dragTo(start + Vec3(0, 2, 0));
    for (int i = 0; i < 180; ++i) spinning->step();
    const BodyState h = spinning->world().body(heavy);
    // The held point is the centre of mass, so the spring pulls it without turning it.
    CHECK((h.position - (start + Vec3(0, 2, 0))).norm() < real(0.05));
    spinning->release();
    CHECK(spinning->world().forceGeneratorIds().empty());
}

namespace {

/// The body holding the first collider whose shape is an S, and that collider.
template <typename S> std::pair<BodyId, ColliderId> firstColliderOf(const World& w) {
    for (const ColliderId id : w.colliderIds())
        if (std::holds_alternative<S>(w.collider(id).shape)) return {w.collider(id).body, id};
    return {};
}

/// Manifolds between bodies a and b, each with its normal turned to point from b
/// toward a.
std::vector<Manifold> manifoldsBetween(const World& w, BodyId a, BodyId b) {
    std::vector<Manifold> out;
    for (const ContactManifold& c : w.contacts()) {
        if (c.bodyA == a && c.bodyB == b) out.push_back(c.manifold);
        if (c.bodyA == b && c.bodyB == a) {
            out.push_back(c.manifold);
            out.back().normal = -out.back().normal;
        }
    }
    return out;
}

} // namespace

TEST_CASE("dragging a deformable: the picked vertex follows the mouse by a handle, released on let go",
          "[deformable][scene][long]") {
    auto scene = makeScene("arap_fall");
    for (int i = 0; i < 120; ++i) scene->step(); // the creatures land
    const World& world = scene->world();
    const DeformableId first = world.deformableIds().front();
    // Pick straight down through the first creature's highest particle.
    const Deformable& d = world.deformable(first);
    Vec3 top = d.position[0];
    for (const Vec3& x : d.position)
        if (x.y() > top.y()) top = x;
    const auto hit = world.rayCastDeformables(top + Vec3(0, 3, 0), top - Vec3(0, 3, 0));
    REQUIRE(hit);
    REQUIRE(hit->deformable == first);
    REQUIRE(scene->grab(hit->deformable, hit->vertex, hit->point));
    CHECK(scene->grabbedDeformable() == first);
    CHECK(world.deformable(first).handles.size() == 1);
    const Vec3 offset = world.deformableVertices(first)[hit->vertex] - hit->point;
    const Vec3 target = hit->point + Vec3(real(0.2), real(0.6), 0); // lift it by the scruff
    scene->dragTo(target);
    for (int i = 0; i < 120; ++i) scene->step();
    const Vec3 held = world.deformableVertices(first)[hit->vertex];
    real lowest = 1e9;
    for (const Vec3& x : world.deformable(first).position) lowest = std::min(lowest, x.y());
    INFO("held vertex " << (held - (target + offset)).norm() << " m from its target; lowest particle at " << lowest);
    CHECK((held - (target + offset)).norm() < real(0.02));
    CHECK(lowest > real(0.05)); // lifted off the floor, not just stretched
    scene->release();
    CHECK(scene->grabbedDeformable().isNull());
    CHECK(world.deformable(first).handles.size() == 0);
    CHECK_FALSE(scene->grab(first, 1u << 30, hit->point)); // no such vertex
}

TEST_CASE("contacts: a hull rock rides a mesh terrain, and a box dragged onto its flat part gets the face normal", "[scene]") {
    auto scene = makeScene("contacts");
    World& world = scene->world();
    const auto [rock, rockCollider] = firstColliderOf<ConvexHull>(world);
    const auto [terrain, terrainCollider] = firstColliderOf<TriangleMesh>(world);
    REQUIRE(world.contains(rockCollider));
    REQUIRE(world.contains(terrainCollider));
    CHECK(world.body(rock).type == BodyType::Kinematic);
    CHECK(world.body(terrain).type == BodyType::Static);
    const MeshData& mesh = *std::get<TriangleMesh>(world.collider(terrainCollider).shape).mesh;
    CHECK(mesh.triangleCount() >= 2 * 16 * 16);

    // The scene draws both as triangle lists.
    scenes::DrawList list;
    scene->draw(list);
    const auto triangleItems = std::count_if(list.items.begin(), list.items.end(), [](const scenes::DrawItem& i) {
        return i.shape == scenes::Primitive::Triangles && i.triangles && i.triangles->size() % 3 == 0 && !i.triangles->empty();
    });
    CHECK(triangleItems == 2);

    // A spot on the flat part, found from the mesh alone: a 1.2 m square (a 1 m box
    // plus margin) under which every triangle faces straight up at one height.
    const Transform meshPose = world.colliderPose(terrainCollider);
    const Vec3 up = meshPose.orientation * Vec3::UnitY();
    const Vec3 half(real(0.6), real(0.6), real(0.6));
    std::optional<Vec3> spot; // mesh frame, on the surface
    std::vector<std::uint32_t> under;
    for (std::uint32_t t = 0; t < mesh.triangleCount() && !spot; ++t) {
        if (mesh.normal(t).dot(Vec3::UnitY()) < 1 - real(1e-12)) continue;
        const auto c = mesh.corners(t);
        const real level = c[0].y();
        const Vec3 centre((c[0].x() + c[1].x() + c[2].x()) / 3, level, (c[0].z() + c[1].z() + c[2].z()) / 3);
        mesh.overlapping(Aabb{centre - half, centre + half}, under);
        const bool flat = std::all_of(under.begin(), under.end(), [&](std::uint32_t u) {
            const auto cu = mesh.corners(u);
            return cu[0].y() == level && cu[1].y() == level && cu[2].y() == level;
        });
        if (flat) spot = centre;
    }
    REQUIRE(spot);

    // Drag the box (unturned: it has not stepped yet) so its bottom face sits 5 mm
    // into the flat part.
    const BodyId box = scene->visuals()[2].body;
    REQUIRE(std::holds_alternative<Box>(world.collider(world.colliderIdsOf(box).front()).shape));
    REQUIRE(world.body(box).orientation.isApprox(Quat::Identity()));
    REQUIRE(scene->grab(box, world.body(box).position));
    scene->dragTo(meshPose.toWorld(*spot + Vec3(0, real(0.5) - real(0.005), 0)));
    // The contacts a step reports are found where the bodies stood when it began
    // (the narrow phase runs before the positions move), so the second step reports
    // where the first one left the box.
    scene->step();
    scene->step();
    const std::vector<Manifold> onTerrain = manifoldsBetween(world, box, terrain);
    REQUIRE_FALSE(onTerrain.empty());
    for (const Manifold& m : onTerrain) {
        CHECK((m.normal - up).norm() < real(1e-6));
        CHECK(m.count >= 3); // the bottom face, not a corner
        for (int k = 0; k < m.count; ++k)
            CHECK(m.points[static_cast<std::size_t>(k)].depth == Approx(0.005).margin(testing::tol(1e-6, 1e-4)));
    }
    scene->release();

    // The rock keeps touching the terrain all the way round its path.
    int touching = 0;
    for (int i = 0; i < 600; ++i) {
        scene->step();
        const std::vector<Manifold> m = manifoldsBetween(world, rock, terrain);
        if (!m.empty() && m.front().count > 0) ++touching;
    }
    CHECK(touching == 600);
}

TEST_CASE("contacts: two runs hash equal and report the same contacts", "[scene]") {
    auto a = makeScene("contacts"), b = makeScene("contacts");
    for (int i = 0; i < 300; ++i) {
        a->step();
        b->step();
        REQUIRE(testing::stateHash(a->world()) == testing::stateHash(b->world()));
        REQUIRE(a->world().contacts().size() == b->world().contacts().size());
    }
}

TEST_CASE("benchmark scenes as data: counts, bins, top bodies and the pileN scaling rule", "[physics][scene]") {
    const auto dynamicCount = [](const scenes::BenchSceneDesc& d) {
        return std::count_if(d.bodies.begin(), d.bodies.end(), [](const scenes::BenchBody& b) { return b.dynamic; });
    };
    const scenes::BenchSceneDesc column = scenes::benchSceneDesc("column");
    CHECK(dynamicCount(column) == 10);
    REQUIRE(column.hasTop());
    CHECK(column.bodies[column.top].position.y() == Approx(9.5));
    CHECK(dynamicCount(scenes::benchSceneDesc("pyramid20")) == 210);
    const scenes::BenchSceneDesc spheres = scenes::benchSceneDesc("spheres4096");
    CHECK(dynamicCount(spheres) == 4096);
    CHECK(spheres.binHalfWidth == 9);
    CHECK(spheres.bodies.back().shape == scenes::BenchBody::Shape::Sphere);
    // pileN: n x n columns of 10 layers, W = 0.55 n + 0.5; pile1000 is BENCH_SCENES.md's.
    for (const auto& [name, count, w] : {std::tuple{"pile250", 250, 3.25}, {"pile1000", 1000, 6.0}, {"pile16000", 16000, 22.5}}) {
        CAPTURE(name);
        const scenes::BenchSceneDesc d = scenes::benchSceneDesc(name);
        CHECK(dynamicCount(d) == count);
        CHECK(d.binHalfWidth == Approx(w));
        CHECK(d.bodies.size() == static_cast<std::size_t>(count) + 5); // ground and 4 walls
    }
    const scenes::BenchSceneDesc pile = scenes::benchSceneDesc("pile1000");
    CHECK(pile.bodies[5].position.isApprox(Vec3(real(-4.95), real(5.5), real(-4.95)))); // the first box: ix = iz = iy = 0
    CHECK_FALSE(scenes::isBenchScene("pile999"));
    CHECK_FALSE(scenes::isBenchScene("pile"));
    CHECK_THROWS_WITH(scenes::benchSceneDesc("pile999"), Catch::Contains("not a benchmark scene"));
}
