// SPDX-License-Identifier: MIT
// Cylinders: the shape's own queries against closed forms and brute force, the general
// pair path (GJK + EPA + clipped features) against an independent minimum-translation
// search, and scenes: standing on a cap, rolling down a slope at (2/3) g sin a, sliding
// on a cap at g (sin a - mu cos a), a stack, a mesh floor, particles, files, bad input.

#include "expect_error.hpp"
#include "helpers.hpp"

#include <jounce/jounce.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <random>

using namespace jounce;
using testing::at;
using testing::tol;
using testing::turn;

namespace {

constexpr real pi = std::numbers::pi_v<real>;
constexpr real g = real(9.81);

/// A point on the cylinder's surface from three numbers in [0, 1): side or cap by area.
Vec3 surfacePoint(const Cylinder& c, real u, real v, real w) {
    const real angle = 2 * pi * u;
    const real sideArea = 2 * c.halfHeight, capArea = c.radius; // per unit of 2 pi r
    if (w * (sideArea + 2 * capArea) < sideArea)
        return {c.radius * std::cos(angle), (2 * v - 1) * c.halfHeight, c.radius * std::sin(angle)};
    const real r = c.radius * std::sqrt(v);
    return {r * std::cos(angle), w * (sideArea + 2 * capArea) < sideArea + capArea ? c.halfHeight : -c.halfHeight,
            r * std::sin(angle)};
}

Quat randomTurn(std::mt19937& rng) {
    std::normal_distribution<double> n(0, 1);
    Quat q(static_cast<real>(n(rng)), static_cast<real>(n(rng)), static_cast<real>(n(rng)), static_cast<real>(n(rng)));
    return q.normalized();
}

/// Whether two placed shapes overlap (GJK through the narrow phase with margin 0).
bool overlapping(const Shape& a, const Transform& pa, const Shape& b, const Transform& pb) {
    Manifold m;
    return collide(a, pa, b, pb, 0, m) && m.deepest().depth > 0;
}

/// How far A must move along unit u to part from B (bisection on overlap).
real translationToPart(const Shape& a, const Transform& pa, const Shape& b, const Transform& pb, const Vec3& u) {
    real low = 0, high = 4;
    for (int k = 0; k < 40; ++k) {
        const real mid = (low + high) / 2;
        (overlapping(a, at(pa.position + u * mid, pa.orientation), b, pb) ? low : high) = mid;
    }
    return high;
}

struct Scene {
    World world;
    BodyId body{};
};

/// A static floor of `floor` (top at y = 0, turned by `slope` about z) and a cylinder
/// placed by `pose` relative to it.
BodyId addFloor(World& w, real slope, real friction, bool mesh) {
    BodyDesc d;
    d.type = BodyType::Static;
    d.orientation = turn(slope, Vec3::UnitZ());
    if (mesh) {
        // Two triangles 40 m across, y = 0 in the floor's frame.
        const std::vector<Vec3> v{{-20, 0, -20}, {20, 0, -20}, {20, 0, 20}, {-20, 0, 20}};
        const std::vector<std::array<std::uint32_t, 3>> t{{0, 2, 1}, {0, 3, 2}};
        d.colliders.push_back(makeCollider(makeTriangleMesh(v, t), 1000, {.friction = friction}));
    } else {
        d.position = d.orientation * Vec3(0, real(-0.5), 0);
        d.colliders.push_back(makeCollider(Box{Vec3(20, real(0.5), 20)}, 1000, {.friction = friction}));
    }
    return w.createBody(d);
}

BodyId addCylinder(World& w, const Cylinder& c, const Vec3& position, const Quat& orientation, real friction) {
    BodyDesc d;
    d.position = position;
    d.orientation = orientation;
    d.canSleep = false;
    d.colliders.push_back(makeCollider(c, 1000, {.friction = friction}));
    return w.createBody(d);
}

WorldSettings withSolver(bool resolver) {
    WorldSettings s;
    s.sleep.enabled = false;
    if (resolver) s.resolver.solver = ContactSolver::Resolver;
    return s;
}

} // namespace

TEST_CASE("cylinder: volume, mass properties, bounding box and support against closed forms and samples", "[collision]") {
    const Cylinder c{real(0.3), real(0.7)};
    CHECK(computeVolume(c) == Approx(pi * real(0.09) * real(1.4)));
    const MassProperties mp = computeMassProperties(c, 1000);
    const real m = 1000 * pi * real(0.09) * real(1.4);
    CHECK(mp.mass == Approx(m));
    CHECK(mp.inertia(1, 1) == Approx(m * real(0.09) / 2));                            // about the axis: m r^2 / 2
    CHECK(mp.inertia(0, 0) == Approx(m * (3 * real(0.09) + real(1.96)) / 12));        // across: m (3 r^2 + L^2) / 12
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> unit(0, 1);
    for (int trial = 0; trial < 50; ++trial) {
        const Transform pose = at(Vec3(real(unit(rng)), real(unit(rng)), 0), randomTurn(rng));
        const Aabb box = computeAabb(c, pose);
        Aabb samples;
        const Vec3 d = randomTurn(rng) * Vec3::UnitX();
        real farthest = -1e9;
        for (int k = 0; k < 4000; ++k) {
            const Vec3 x = surfacePoint(c, real(unit(rng)), real(unit(rng)), real(unit(rng)));
            const Vec3 wx = pose.toWorld(x);
            samples = samples.merged(Aabb{wx, wx});
            farthest = std::max(farthest, d.dot(x));
        }
        // The box holds every sample, and each of its faces is reached by the support
        // point along that axis (so it is tight).
        CHECK(box.contains(samples));
        for (int k = 0; k < 3; ++k) {
            const Vec3 axis = Vec3::Unit(k);
            CHECK(box.max[k] == Approx(pose.toWorld(support(c, pose.directionToLocal(axis)))[k]).margin(tol(1e-12, 1e-5)));
            CHECK(box.min[k] == Approx(pose.toWorld(support(c, pose.directionToLocal(-axis)))[k]).margin(tol(1e-12, 1e-5)));
        }
        // The support point is on the shape and at least as far as any sample.
        const Vec3 s = support(c, d);
        CHECK(std::abs(signedDistance(c, Transform{}, s).distance) < tol(1e-12, 1e-6));
        CHECK(d.dot(s) >= farthest - tol(1e-12, 1e-6));
    }
}

TEST_CASE("cylinder: signed distance and ray casts agree with the surface", "[collision]") {
    const Cylinder c{real(0.4), real(0.25)};
    const Transform pose = at(Vec3(1, 2, 3), turn(real(0.7), Vec3(1, 2, 0)));
    std::mt19937 rng(11);
    std::uniform_real_distribution<double> box(-1, 1);
    int hits = 0;
    for (int trial = 0; trial < 2000; ++trial) {
        const Vec3 local(real(box(rng)), real(box(rng)), real(box(rng)));
        const PointProximity p = signedDistance(c, pose, pose.toWorld(local));
        // Independently: the 2-D box (radial, axial) distance.
        const real radial = std::hypot(local.x(), local.z()) - c.radius, axial = std::abs(local.y()) - c.halfHeight;
        const real expected = radial <= 0 && axial <= 0 ? std::max(radial, axial)
                                                        : std::hypot(std::max(radial, real(0)), std::max(axial, real(0)));
        CHECK(p.distance == Approx(expected).margin(tol(1e-12, 1e-5)));
        CHECK(std::abs(signedDistance(c, pose, p.point).distance) < tol(1e-12, 1e-5)); // on the surface
        // A ray from outside toward a random point: its hit is where the signed distance
        // along the ray first reaches 0 (found by marching, then bisecting).
        if (expected <= real(0.01)) continue;
        const Vec3 from = pose.toWorld(local), to = pose.toWorld(Vec3(real(box(rng)), real(box(rng)), real(box(rng))) * real(0.5));
        ShapeRayHit hit;
        const bool found = rayCast(c, pose, from, to, hit);
        real first = -1;
        for (int k = 1; k <= 2000 && first < 0; ++k)
            if (signedDistance(c, pose, from + (to - from) * (real(k) / 2000)).distance <= 0) first = real(k) / 2000;
        CHECK(found == (first >= 0));
        if (found && first >= 0) {
            ++hits;
            CHECK(hit.fraction == Approx(first).margin(real(1) / 2000 + tol(1e-9, 1e-4)));
            CHECK(std::abs(signedDistance(c, pose, hit.point).distance) < tol(1e-9, 1e-4));
            // The surface's normal there, away from the rims (where it is not unique).
            const Vec3 q = pose.toLocal(hit.point);
            const bool nearRim = std::abs(std::hypot(q.x(), q.z()) - c.radius) < real(1e-3) &&
                                 std::abs(std::abs(q.y()) - c.halfHeight) < real(1e-3);
            if (!nearRim) CHECK(hit.normal.dot(signedDistance(c, pose, hit.point).normal) > real(0.999));
        }
    }
    CHECK(hits > 300);
}

TEST_CASE("cylinder pairs: the depth is the smallest translation that parts them, the normal its direction",
          "[collision]") {
    // For random overlapping poses against every convex shape: moving A by the depth
    // along the normal (plus 0.1 mm) parts them, by the depth less 0.1 mm does not, and no
    // one of 40 other directions parts them with less (found by bisection on overlap;
    // 8 directions under the sanitizers, where the bisections take a minute).
    const Cylinder cyl{real(0.3), real(0.4)};
    const std::vector<Vec3> cloud{{0.3, 0, 0}, {-0.2, 0.3, 0.1}, {0, -0.3, 0.25}, {0.1, 0.1, -0.35}, {-0.25, -0.2, -0.1}};
    const std::vector<Shape> others{Sphere{real(0.35)}, Capsule{real(0.2), real(0.3)}, Box{Vec3(real(0.4), real(0.2), real(0.3))},
                                    makeConvexHull(cloud), Cylinder{real(0.25), real(0.5)}};
    std::mt19937 rng(2026);
    std::uniform_real_distribution<double> offset(-0.6, 0.6);
    int checked = 0;
    for (std::size_t s = 0; s < others.size(); ++s) {
        for (int trial = 0; trial < 30; ++trial) {
            const Transform pa = at(Vec3(real(offset(rng)), real(offset(rng)), real(offset(rng))), randomTurn(rng));
            const Transform pb = at(Vec3::Zero(), randomTurn(rng));
            Manifold m;
            if (!collide(cyl, pa, others[s], pb, 0, m)) continue;
            const real depth = m.deepest().depth;
            if (depth < real(0.002)) continue;
            INFO("shape " << s << ", trial " << trial << ", depth " << depth << ", points " << m.count << ", normal "
                          << m.normal.transpose() << ", A at " << pa.position.transpose() << " turned "
                          << pa.orientation.coeffs().transpose() << ", B turned " << pb.orientation.coeffs().transpose());
            ++checked;
            const real slack = tol(1e-4, 3e-4);
            CHECK_FALSE(overlapping(cyl, at(pa.position + m.normal * (depth + slack), pa.orientation), others[s], pb));
            CHECK(overlapping(cyl, at(pa.position + m.normal * (depth - slack), pa.orientation), others[s], pb));
            real least = 1e9;
            for (int k = 0; k < 40; ++k) {
                // Drawn in every build, so every build meets the same poses.
                const Vec3 direction = randomTurn(rng) * Vec3::UnitX();
                if (k < 40 / testing::sanitizedStepDivisor)
                    least = std::min(least, translationToPart(cyl, pa, others[s], pb, direction));
            }
            CHECK(depth <= least + slack);
        }
    }
    CHECK(checked > 60);
}

TEST_CASE("cylinder standing on its cap rests level and still on a box, a half-space and a mesh", "[collision][scene]") {
    for (const bool resolver : {false, true}) {
        for (int floor = 0; floor < 3; ++floor) {
            INFO((resolver ? "resolver" : "soft step") << ", floor " << floor);
            World w(withSolver(resolver));
            if (floor == 0) addFloor(w, 0, real(0.6), false);
            else if (floor == 1) addFloor(w, 0, real(0.6), true);
            else testing::addGround(w); // a box slab too; the half-space below
            if (floor == 2) {
                BodyDesc plane;
                plane.type = BodyType::Static;
                plane.position = Vec3(30, 0, 0);
                plane.colliders.push_back(makeCollider(HalfSpace{}, 1000, {}));
                w.createBody(plane);
            }
            const Vec3 start = floor == 2 ? Vec3(30, real(0.45), 0) : Vec3(0, real(0.45), 0);
            const BodyId b = addCylinder(w, Cylinder{real(0.3), real(0.4)}, start, Quat::Identity(), real(0.6));
            for (int i = 0; i < 180; ++i) w.step(real(1) / 60);
            const BodyState s = w.body(b);
            INFO("height " << s.position.y() << ", speed " << s.linearVelocity.norm() << ", spin " << s.angularVelocity.norm());
            CHECK(s.position.y() == Approx(real(0.4)).margin(real(0.002)));
            CHECK((s.orientation * Vec3::UnitY()).y() > std::cos(real(0.002)));
            CHECK(s.linearVelocity.norm() < real(1e-3));
            CHECK(s.angularVelocity.norm() < real(1e-2));
            CHECK(std::abs(s.position.x() - start.x()) < real(1e-3));
        }
    }
}

TEST_CASE("cylinder rolls down a slope at (2/3) g sin a and slides on its cap at g (sin a - mu cos a)", "[collision][scene]") {
    const real a = real(0.25); // 14.3 degrees
    const Vec3 downhill = turn(a, Vec3::UnitZ()) * Vec3(-1, 0, 0), up = turn(a, Vec3::UnitZ()) * Vec3::UnitY();
    for (const bool resolver : {false, true}) {
        for (const bool mesh : {false, true}) {
            INFO((resolver ? "resolver" : "soft step") << (mesh ? ", mesh slope" : ", box slope"));
            {
                // On its side, axis along z: rolls without slipping (mu 0.8 > tan a / 3).
                World w(withSolver(resolver));
                addFloor(w, a, real(0.8), mesh);
                const real r = real(0.3);
                const BodyId b = addCylinder(w, Cylinder{r, real(0.4)}, up * r, turn(pi / 2, Vec3::UnitX()), real(0.8));
                const Vec3 x0 = w.body(b).position;
                const real t = 1;
                for (int i = 0; i < 60; ++i) w.step(real(1) / 60);
                const real travelled = (w.body(b).position - x0).dot(downhill);
                const real expected = real(2) / 3 * g * std::sin(a) * t * t / 2;
                INFO("rolled " << travelled << " m, closed form " << expected);
                CHECK(travelled == Approx(expected).epsilon(0.03));
                CHECK(std::abs((w.body(b).position - x0).dot(up)) < real(0.003)); // stays on the surface
            }
            {
                // Standing on its cap, mu 0.1 < tan a: slides at g (sin a - mu cos a).
                World w(withSolver(resolver));
                addFloor(w, a, real(0.1), mesh);
                const real h = real(0.2);
                const BodyId b = addCylinder(w, Cylinder{real(0.4), h}, up * h, turn(a, Vec3::UnitZ()), real(0.1));
                const Vec3 x0 = w.body(b).position;
                for (int i = 0; i < 60; ++i) w.step(real(1) / 60);
                const real travelled = (w.body(b).position - x0).dot(downhill);
                const real expected = g * (std::sin(a) - real(0.1) * std::cos(a)) / 2;
                INFO("slid " << travelled << " m, closed form " << expected);
                CHECK(travelled == Approx(expected).epsilon(0.03));
                CHECK((w.body(b).orientation * Vec3::UnitY()).dot(up) > std::cos(real(0.01))); // flat on its cap
            }
        }
    }
}

TEST_CASE("a stack of five cylinders on their caps stands still, and a box rests on one lying down", "[collision][scene]") {
    for (const bool resolver : {false, true}) {
        INFO((resolver ? "resolver" : "soft step"));
        World w(withSolver(resolver));
        testing::addGround(w);
        std::vector<BodyId> stack;
        for (int k = 0; k < 5; ++k)
            stack.push_back(addCylinder(w, Cylinder{real(0.35), real(0.25)}, Vec3(0, real(0.25) + real(0.5) * real(k), 0),
                                        Quat::Identity(), real(0.6)));
        // A fixed log lying along z, a box on top of it: the box rests on the log's top
        // line (stable: its centre of mass is 0.2 m above the contact, under the log's
        // 0.3 m radius).
        BodyDesc logDesc;
        logDesc.type = BodyType::Static;
        logDesc.position = Vec3(4, real(0.3), 0);
        logDesc.orientation = turn(pi / 2, Vec3::UnitX());
        logDesc.colliders.push_back(makeCollider(Cylinder{real(0.3), real(0.8)}, 1000, {.friction = real(0.6)}));
        w.createBody(logDesc);
        BodyDesc box = testing::boxDesc(Vec3(real(0.2), real(0.2), real(0.5)), 200, Vec3(4, real(0.8), 0));
        box.colliders.push_back(testing::boxCollider(Vec3(real(0.2), real(0.2), real(0.5))));
        box.canSleep = false;
        const BodyId boxId = w.createBody(box);
        const Vec3 top0 = w.body(stack.back()).position;
        real settledY = 0;
        for (int i = 0; i < 600; ++i) {
            w.step(real(1) / 60);
            if (i + 1 == 60) settledY = w.body(stack.back()).position.y();
        }
        const Vec3 top = w.body(stack.back()).position;
        INFO("top moved " << (top - top0).transpose() << " m; box at " << w.body(boxId).position.transpose());
        // As the box pyramids' test: no sideways drift; the soft step's contacts give a
        // little under the weight above them in the first second, then hold.
        CHECK(std::hypot(top.x() - top0.x(), top.z() - top0.z()) < real(0.005));
        CHECK(std::abs(top.y() - top0.y()) < (resolver ? real(0.005) : real(0.03)));
        CHECK(std::abs(top.y() - settledY) < real(0.001));
        CHECK(w.body(boxId).position.y() == Approx(real(0.8)).margin(real(0.005)));
        CHECK(std::abs(w.body(boxId).position.x() - 4) < real(0.01));
    }
}

TEST_CASE("particles rest on a cylinder's cap and slide off its side", "[collision][particles][scene]") {
    World w;
    BodyDesc d;
    d.type = BodyType::Static;
    d.position = Vec3(0, real(0.5), 0);
    d.colliders.push_back(makeCollider(Cylinder{real(0.5), real(0.5)}, 1000, {.friction = real(0.8)}));
    w.createBody(d);
    const ParticleId onCap = testing::addParticle(w, Vec3(real(0.1), real(1.3), 0), real(0.01));
    for (int i = 0; i < 120; ++i) w.step(real(1) / 60);
    const Particle p = w.particle(onCap);
    CHECK(p.position.y() == Approx(1 + p.radius).margin(real(0.002)));
    CHECK(std::abs(signedDistance(Cylinder{real(0.5), real(0.5)}, at(Vec3(0, real(0.5), 0)), p.position).distance - p.radius) <
          real(0.002));
}

TEST_CASE("a cylinder survives a snapshot, and bad sizes are refused with the field named",
          "[physics][collision]") {
    World w;
    testing::addGround(w);
    addCylinder(w, Cylinder{real(0.3), real(0.4)}, Vec3(0, 1, 0), turn(real(0.3), Vec3(1, 0, 1)), real(0.6));
    for (int i = 0; i < 20; ++i) w.step(real(1) / 60);
    CHECK(testing::stepsAsItsSnapshot(w, 60, real(1) / 60));
    testing::expectError([] { validateShape(Cylinder{0, 1}, "shape"); }, "shape.Cylinder.radius");
    testing::expectError([] { validateShape(Cylinder{1, std::numeric_limits<real>::quiet_NaN()}, "shape"); },
                         "shape.Cylinder.halfHeight");
    testing::expectError([] { validateShape(Cylinder{1, 0}, "shape"); }, "shape.Cylinder.halfHeight");
    BodyDesc bad;
    ColliderDesc negative;
    negative.shape = Cylinder{real(0.3), -1};
    bad.colliders.push_back(negative);
    const std::size_t before = w.bodyCount();
    CHECK_THROWS_AS(w.createBody(bad), Error);
    CHECK(w.bodyCount() == before);
}

TEST_CASE("a cylinder cast at a box and a box cast at a tilted cylinder stop where they touch", "[collision]") {
    // A cylinder standing 1 m over a box's top face, cast 2 m down: it stops with its cap
    // on the face (within the skin), normal up. Then a box cast sideways at a cylinder
    // lying along z stops with its face on the cylinder's side.
    const Cylinder c{real(0.3), real(0.4)};
    const Box floor{Vec3(2, real(0.5), 2)};
    const auto down = shapeCast(c, at(Vec3(real(0.2), real(1.9), 0)), Vec3(0, -2, 0), floor, at(Vec3::Zero()));
    REQUIRE(down.has_value());
    const real travelled = 2 * down->fraction;
    CHECK(travelled <= real(1));
    CHECK(travelled >= real(1) - shapeCastSkin);
    CHECK(down->normal.y() > real(0.999));
    const Quat along(Eigen::AngleAxis<real>(pi / 2, Vec3::UnitX()));
    const auto across = shapeCast(Box{Vec3::Constant(real(0.2))}, at(Vec3(-2, 0, 0)), Vec3(3, 0, 0), c, at(Vec3::Zero(), along));
    REQUIRE(across.has_value());
    const real gap = real(2) - real(0.2) - real(0.3); // to the side at x = -0.3
    CHECK(3 * across->fraction <= gap);
    CHECK(3 * across->fraction >= gap - shapeCastSkin);
    CHECK(across->normal.x() < -real(0.999));
}

TEST_CASE("cylinder pairs found by review: apart is apart, crossed lines touch once, ids hold, mesh points distinct",
          "[collision]") {
    // 1. GJK called this box and cylinder overlapping (a nearly flat tetrahedron on the
    //    rim); they are 7.6 cm apart.
    {
        const Transform pa{Vec3(-0.98076935116818942, -0.73059293243125323, -0.91294352415503421),
                           Quat(0.76574180294774463, -0.61758358706489014, 0.041674157325881866, 0.17462321958313073).normalized()};
        const Transform pb{Vec3(-0.33431409721675975, 0.061305188435234914, -0.0093935894083768678),
                           Quat(-0.43715485138999233, 0.62777056106716367, -0.25909550966517136, -0.58963486619683325).normalized()};
        Manifold m;
        CHECK_FALSE(collide(Box{Vec3(real(0.5), real(0.3), real(0.4))}, pa, Cylinder{real(0.5), real(0.5)}, pb, 0, m));
        REQUIRE(collide(Box{Vec3(real(0.5), real(0.3), real(0.4))}, pa, Cylinder{real(0.5), real(0.5)}, pb, real(0.1), m));
        CHECK(m.deepest().depth == Approx(real(-0.0757)).margin(real(0.002)));
    }
    // 2. A cylinder 1 cm over a box, far from the origin: apart with margin 0.
    {
        const real x = testing::isDouble ? real(1e6) : real(1e3);
        Manifold m;
        CHECK_FALSE(collide(Cylinder{real(0.5), real(0.5)}, at(Vec3(x, real(1.01), 0)), Box{Vec3(2, real(0.5), 2)}, at(Vec3(x, 0, 0)), 0, m));
        REQUIRE(collide(Cylinder{real(0.5), real(0.5)}, at(Vec3(x, real(1.01), 0)), Box{Vec3(2, real(0.5), 2)}, at(Vec3(x, 0, 0)), real(0.02), m));
        CHECK(m.deepest().depth == Approx(real(-0.01)).margin(tol(1e-6, 1e-3)));
    }
    // 3. A capsule along x lying across a cylinder along z touches it at x = 0 only.
    {
        Manifold m;
        const Transform alongX = at(Vec3(0, real(0.59), 0), turn(pi / 2, Vec3::UnitZ()));
        const Transform alongZ = at(Vec3::Zero(), turn(pi / 2, Vec3::UnitX()));
        REQUIRE(collide(Capsule{real(0.1), 1}, alongX, Cylinder{real(0.5), 1}, alongZ, real(0.02), m));
        for (int k = 0; k < m.count; ++k) CHECK(std::abs(m.points[static_cast<std::size_t>(k)].point.x()) < real(0.01));
        CHECK(m.deepest().depth == Approx(real(0.01)).margin(tol(1e-6, 1e-4)));
    }
    // 4. A cylinder standing almost level on a half-space: the same contact ids whichever
    //    way a millionth of a radian tips it.
    {
        std::vector<std::uint32_t> first;
        for (int k = 0; k < 6; ++k) {
            const Vec3 axis(std::cos(real(k)), 0, std::sin(real(k)));
            Manifold m;
            REQUIRE(collide(Cylinder{real(0.4), real(0.5)}, at(Vec3(0, real(0.499), 0), turn(real(1e-6), axis)), HalfSpace{}, at(Vec3::Zero()),
                            real(0.01), m));
            std::vector<std::uint32_t> ids;
            for (int i = 0; i < m.count; ++i) ids.push_back(m.points[static_cast<std::size_t>(i)].feature);
            std::sort(ids.begin(), ids.end());
            if (k == 0) first = ids;
            CHECK(ids == first);
        }
    }
    // 5. A cylinder tilted on a floor of two triangles: no point reported twice.
    {
        const std::vector<Vec3> v{{-2, 0, -2}, {2, 0, -2}, {2, 0, 2}, {-2, 0, 2}};
        const TriangleMesh floor = makeTriangleMesh(v, std::vector<std::array<std::uint32_t, 3>>{{0, 2, 1}, {0, 3, 2}});
        for (int k = 0; k < 8; ++k) {
            const Vec3 axis(std::cos(real(k)), 0, std::sin(real(k)));
            std::vector<Manifold> all;
            collideAll(Cylinder{real(0.4), real(0.5)}, at(Vec3(real(0.05), real(0.56), real(0.03)), turn(real(0.2), axis)), floor,
                       at(Vec3::Zero()), real(0.02), all);
            REQUIRE(all.size() == 1);
            const Manifold& m = all[0];
            for (int i = 0; i < m.count; ++i)
                for (int j = i + 1; j < m.count; ++j)
                    CHECK((m.points[static_cast<std::size_t>(i)].point - m.points[static_cast<std::size_t>(j)].point).norm() > real(1e-4));
        }
    }
}

TEST_CASE("a hull 1 cm into a cylinder's rim is found overlapping (EPA kept its last good face)", "[collision]") {
    // Found by review: on the curved rim EPA's nearest face once jumped behind the origin
    // at its 19th expansion, and the pair came out 12.8 cm apart.
    const std::vector<Vec3> cloud{{0.48214355268810388, 0.15382280325038006, -0.040691545955665397},
                                  {-0.43815610758424622, -0.38766273678538599, 0.24106935280583164},
                                  {0.42937516901516104, 0.34979158767471852, -0.51161109823527906},
                                  {-0.34168875536682553, -0.49844078032089945, 0.19706228714142651},
                                  {0.34103754845825091, -0.2948150154271546, -0.46552717653837489}};
    const Transform pa{Vec3(-0.16203449096413838, 0.39364584155604393, -0.50110535842502768),
                       Quat(0.71470355528386642, -0.2456938088992249, 0.25215500888871911, -0.60436018385191659).normalized()};
    const Transform pb{Vec3::Zero(), Quat(0.33146060125892879, -0.65748082557874421, -0.14403277824380473, 0.66114097785626114).normalized()};
    Manifold m;
    REQUIRE(collide(Cylinder{real(0.28991701696540878), real(0.13309944961538592)}, pa, makeConvexHull(cloud), pb, real(0.05), m));
    CHECK(m.deepest().depth == Approx(real(0.0102)).margin(real(0.001)));
}

TEST_CASE("a cylinder's support along a direction a denormal off its axis is finite (fuzz finding)", "[collision]") {
    // fuzz_narrow_phase: d = (0, 1, 5e-315) gave r / across = inf and 0 * inf = NaN in the
    // support, and a NaN time of impact between a capsule and a cylinder.
    const Cylinder c{real(0.3), real(0.4)};
    const real tiny = std::numeric_limits<real>::denorm_min() * 16;
    for (const Vec3& d : {Vec3(0, 1, tiny), Vec3(tiny, -1, 0), Vec3(tiny, 0, tiny), Vec3(0, 0, tiny)}) {
        const Vec3 s = support(c, d);
        CHECK(isFinite(s));
        CHECK(std::abs(std::hypot(s.x(), s.z()) - c.radius) < real(0.01) * c.radius); // on the rim, to the few bits a denormal has
    }
}
