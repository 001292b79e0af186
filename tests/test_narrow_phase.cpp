// SPDX-License-Identifier: MIT
// Narrow phase: each pair on analytic configurations, symmetry under swapping, and
// separation after moving by the reported depth.

#include "helpers.hpp"

#include <catch2/catch.hpp>

#include <limits>
#include <numbers>
#include <random>

using namespace jounce;
using testing::at;
using testing::eps;
using testing::tol;

namespace {

Quat about(const Vec3& axis, real degrees) {
    return Quat(Eigen::AngleAxis<real>(degrees * std::numbers::pi_v<real> / 180, axis.normalized()));
}

Manifold run(const Shape& a, const Transform& pa, const Shape& b, const Transform& pb, real margin = 0) {
    Manifold m;
    collide(a, pa, b, pb, margin, m);
    return m;
}

} // namespace

TEST_CASE("sphere-sphere: touching, separated, deep and coincident", "[collision]") {
    const Manifold deep = run(Sphere{1}, at(Vec3(0, real(1.5), 0)), Sphere{1}, at(Vec3::Zero()));
    REQUIRE(deep.count == 1);
    CHECK(deep.normal.isApprox(Vec3::UnitY()));            // from B toward A
    CHECK(deep.points[0].depth == Approx(0.5));
    CHECK(deep.points[0].point.isApprox(Vec3(0, real(0.75), 0)));
    CHECK(run(Sphere{1}, at(Vec3(2, 0, 0)), Sphere{1}, at(Vec3::Zero())).count == 1);     // touching
    CHECK(run(Sphere{1}, at(Vec3(real(2.1), 0, 0)), Sphere{1}, at(Vec3::Zero())).count == 0);
    const Manifold near = run(Sphere{1}, at(Vec3(real(2.1), 0, 0)), Sphere{1}, at(Vec3::Zero()), real(0.2));
    REQUIRE(near.count == 1); // within the margin: a speculative contact, negative depth
    CHECK(near.points[0].depth == Approx(-0.1));
    const Manifold same = run(Sphere{1}, at(Vec3::Zero()), Sphere{real(0.5)}, at(Vec3::Zero()));
    REQUIRE(same.count == 1);
    CHECK(same.normal.allFinite());
    CHECK(same.points[0].depth == Approx(1.5));
}

TEST_CASE("sphere-box: face, edge, vertex regions and a centre inside", "[collision]") {
    const Box box{Vec3(1, 2, 3)};
    const Manifold face = run(Sphere{real(0.5)}, at(Vec3(0, real(2.25), 0)), box, at(Vec3::Zero()));
    REQUIRE(face.count == 1);
    CHECK(face.normal.isApprox(Vec3::UnitY()));
    CHECK(face.points[0].depth == Approx(0.25));
    const Manifold edge = run(Sphere{1}, at(Vec3(real(1.5), real(2.5), 0)), box, at(Vec3::Zero()));
    REQUIRE(edge.count == 1);
    CHECK(edge.normal.isApprox(Vec3(1, 1, 0).normalized()));
    CHECK(edge.points[0].depth == Approx(1 - std::sqrt(real(0.5))));
    const Manifold vertex = run(Sphere{1}, at(Vec3(real(1.5), real(2.5), real(3.5))), box, at(Vec3::Zero()));
    REQUIRE(vertex.count == 1);
    CHECK(vertex.normal.isApprox(Vec3(1, 1, 1).normalized()));
    const Manifold inside = run(Sphere{real(0.5)}, at(Vec3(real(0.8), 0, 0)), box, at(Vec3::Zero()));
    REQUIRE(inside.count == 1);
    CHECK(inside.normal.isApprox(Vec3::UnitX())); // nearest face: +x, 0.2 away
    CHECK(inside.points[0].depth == Approx(0.7));
    // Rotated box: the same contact turned with it.
    const Quat q = about(Vec3(1, 2, 3), 40);
    const Manifold turned = run(Sphere{real(0.5)}, at(q * Vec3(0, real(2.25), 0)), box, at(Vec3::Zero(), q));
    CHECK(turned.normal.isApprox(q * Vec3::UnitY(), eps));
    CHECK(turned.points[0].depth == Approx(0.25));
}

TEST_CASE("sphere-box: a centre outside by a denormal gets a unit normal (fuzz finding)", "[collision]") {
    // fuzz_narrow_phase: a box 8.7e-312 thick; the centre's distance outside it
    // underflowed to 0 and the normal was d / 0.
    const real tiny = std::numeric_limits<real>::denorm_min();
    const Box box{Vec3(real(0.5), 4 * tiny, real(0.3))};
    Transform pa;
    pa.position = Vec3(0, 8 * tiny, 0);
    Manifold m;
    REQUIRE(collideSphereBox(Sphere{real(0.5)}, pa, box, Transform{}, real(0.02), m));
    CHECK(m.normal.allFinite());
    CHECK(std::abs(m.normal.norm() - 1) < real(1e-6));
    CHECK(std::isfinite(m.points[0].depth));
}

TEST_CASE("sphere-box: a centre outside by so little its square is denormal gets a unit normal (fuzz finding 12)",
          "[collision]") {
    // fuzz_narrow_phase: outside by 1e-161 m in double (1e-20 m in float), |d|^2 is a
    // denormal, |d| lost its digits and d / |d| was 5 % off unit length.
    const real tiny = std::sqrt(std::numeric_limits<real>::min()) * real(1e-7);
    const Box box{Vec3(real(0.5), tiny, real(0.3))};
    for (const real out : {tiny / 3, tiny, 7 * tiny}) {
        Transform pa;
        pa.position = Vec3(tiny / 5, tiny + out, 0);
        Manifold m;
        REQUIRE(collideSphereBox(Sphere{real(0.5)}, pa, box, Transform{}, 0, m));
        CHECK(std::abs(m.normal.norm() - 1) < real(1e-6));
        CHECK(m.normal.isApprox(Vec3::UnitY(), real(1e-6)));
    }
}

TEST_CASE("capsules: crossing, parallel side by side, and against a sphere", "[collision]") {
    // Two capsules crossing at right angles, 0.9 apart with radii 0.5: depth 0.1.
    const Manifold cross = run(Capsule{real(0.5), 2}, at(Vec3(0, real(0.9), 0), about(Vec3::UnitZ(), 90)),
                               Capsule{real(0.5), 2}, at(Vec3::Zero(), about(Vec3::UnitX(), 90)));
    REQUIRE(cross.count == 1);
    CHECK(cross.normal.isApprox(Vec3::UnitY(), eps));
    CHECK(cross.points[0].depth == Approx(0.1));
    // Parallel, lying side by side, overlapping over x in [0, 2]: two contacts.
    const Quat lying = about(Vec3::UnitZ(), 90);
    const Manifold parallel = run(Capsule{real(0.5), 1}, at(Vec3(1, real(0.95), 0), lying), Capsule{real(0.5), 1},
                                  at(Vec3::Zero(), lying));
    REQUIRE(parallel.count == 2);
    for (int k = 0; k < 2; ++k) CHECK(parallel.points[static_cast<std::size_t>(k)].depth == Approx(0.05));
    CHECK(std::abs(parallel.points[0].point.x() - parallel.points[1].point.x()) == Approx(1));
    const Manifold end = run(Sphere{real(0.5)}, at(Vec3(0, real(2.4), 0)), Capsule{1, 1}, at(Vec3::Zero()));
    REQUIRE(end.count == 1);
    CHECK(end.points[0].depth == Approx(0.1));
}

TEST_CASE("every primitive against a half-space", "[collision]") {
    const HalfSpace ground{};
    const Transform origin = at(Vec3::Zero());
    const Manifold sphere = run(Sphere{1}, at(Vec3(3, real(0.9), 0)), ground, origin);
    REQUIRE(sphere.count == 1);
    CHECK(sphere.normal.isApprox(Vec3::UnitY()));
    CHECK(sphere.points[0].depth == Approx(0.1));
    CHECK(sphere.points[0].point.isApprox(Vec3(3, real(-0.05), 0)));

    const Manifold resting = run(Box{Vec3::Constant(real(0.5))}, at(Vec3(0, real(0.49), 0)), ground, origin);
    REQUIRE(resting.count == 4); // face down: four corners
    for (int k = 0; k < 4; ++k) CHECK(resting.points[static_cast<std::size_t>(k)].depth == Approx(0.01));
    const Manifold onEdge = run(Box{Vec3::Constant(real(0.5))}, at(Vec3(0, std::sqrt(real(0.5)) - real(0.01), 0), about(Vec3::UnitZ(), 45)), ground, origin);
    REQUIRE(onEdge.count == 2); // balanced on an edge: its two corners
    CHECK(onEdge.points[0].depth == Approx(0.01).margin(tol(1e-9, 1e-5)));

    const Manifold lying = run(Capsule{real(0.5), 1}, at(Vec3(0, real(0.45), 0), about(Vec3::UnitX(), 90)), ground, origin);
    CHECK(lying.count == 2);
    const Manifold standing = run(Capsule{real(0.5), 1}, at(Vec3(0, real(1.45), 0)), ground, origin);
    REQUIRE(standing.count == 1);
    CHECK(standing.points[0].depth == Approx(0.05));
    // A tilted, raised plane: offset along its own normal.
    const HalfSpace slope{Vec3(0, 1, 1).normalized(), 2};
    const Manifold onSlope = run(Sphere{1}, at(Vec3(0, 2, 2) * std::sqrt(real(0.5)) * (real(2.9) / 2)), slope, origin);
    REQUIRE(onSlope.count == 1);
    CHECK(onSlope.normal.isApprox(Vec3(0, 1, 1).normalized(), eps));
    CHECK(onSlope.points[0].depth == Approx(0.1));
    CHECK(run(HalfSpace{}, origin, HalfSpace{}, origin).count == 0);
}

TEST_CASE("box-box: face-on stack, turned on top, edge-on cross, separated", "[collision]") {
    const Box unit{Vec3::Constant(real(0.5))};
    // A resting on B, 1 cm deep.
    const Manifold stack = run(unit, at(Vec3(0, real(0.99), 0)), unit, at(Vec3::Zero()));
    REQUIRE(stack.count == 4);
    CHECK(stack.normal.isApprox(Vec3::UnitY(), eps));
    for (int k = 0; k < 4; ++k) {
        CHECK(stack.points[static_cast<std::size_t>(k)].depth == Approx(0.01).margin(tol(1e-12, 1e-5)));
        CHECK(stack.points[static_cast<std::size_t>(k)].point.y() == Approx(0.495));
    }
    // Turned 45 degrees about y on top: the overlap is an octagon, reduced to 4 points.
    const Manifold turned = run(unit, at(Vec3(0, real(0.99), 0), about(Vec3::UnitY(), 45)), unit, at(Vec3::Zero()));
    REQUIRE(turned.count == 4);
    CHECK(turned.normal.isApprox(Vec3::UnitY(), eps));
    // Offset sideways by half: the contact patch is the overlap, x in [0, 0.5].
    const Manifold offset = run(unit, at(Vec3(real(0.5), real(0.99), 0)), unit, at(Vec3::Zero()));
    REQUIRE(offset.count == 4);
    for (int k = 0; k < 4; ++k) {
        const real x = offset.points[static_cast<std::size_t>(k)].point.x();
        CHECK(x >= -eps);
        CHECK(x <= real(0.5) + eps);
    }
    // Edge on edge: A turned 45 degrees about z, B 45 degrees about x, A above B.
    const real h = std::sqrt(real(0.5));
    const Manifold edges = run(unit, at(Vec3(0, 2 * h - real(0.02), 0), about(Vec3::UnitZ(), 45)), unit,
                               at(Vec3::Zero(), about(Vec3::UnitX(), 45)));
    REQUIRE(edges.count == 1);
    CHECK(edges.normal.isApprox(Vec3::UnitY(), tol(1e-9, 1e-5)));
    CHECK(edges.points[0].depth == Approx(0.02).margin(tol(1e-9, 1e-5)));
    CHECK(edges.points[0].point.isApprox(Vec3(0, h - real(0.01), 0), tol(1e-9, 1e-5)));
    CHECK(run(unit, at(Vec3(0, real(1.01), 0)), unit, at(Vec3::Zero())).count == 0);
    CHECK(run(unit, at(Vec3(0, real(1.01), 0)), unit, at(Vec3::Zero()), real(0.02)).count == 4);
    // Coincident centres: still a finite, unit normal and a positive depth.
    const Manifold same = run(unit, at(Vec3::Zero()), Box{Vec3(1, real(0.2), 1)}, at(Vec3::Zero()));
    REQUIRE(same.count > 0);
    CHECK(std::abs(same.normal.norm() - 1) < eps);
    CHECK(same.points[0].depth == Approx(0.7));
}

TEST_CASE("capsule-box: lying flat gives two contacts, standing one", "[collision]") {
    const Box slab{Vec3(2, real(0.5), 2)};
    const Manifold lying = run(Capsule{real(0.25), 1}, at(Vec3(0, real(0.74), 0), about(Vec3::UnitZ(), 90)), slab, at(Vec3::Zero()));
    REQUIRE(lying.count == 2);
    CHECK(lying.normal.isApprox(Vec3::UnitY(), eps));
    for (int k = 0; k < 2; ++k) CHECK(lying.points[static_cast<std::size_t>(k)].depth == Approx(0.01).margin(tol(1e-9, 1e-5)));
    const Manifold standing = run(Capsule{real(0.25), 1}, at(Vec3(real(0.3), real(1.74), 0)), slab, at(Vec3::Zero()));
    REQUIRE(standing.count == 1);
    CHECK(standing.points[0].depth == Approx(0.01).margin(tol(1e-9, 1e-5)));
    CHECK(run(Capsule{real(0.25), 1}, at(Vec3(0, 3, 0)), slab, at(Vec3::Zero())).count == 0);
}

TEST_CASE("capsule-box: a tilted capsule also gets its raised end as a contact within the margin", "[collision]") {
    // Lying across the slab with one end 4 cm higher than the other: the low end 1 cm
    // in, the high end 3 cm clear. Held at its low end alone it would turn about it
    // within a step and drive the high end into the box unseen (docs/collision.md).
    const Box slab{Vec3(2, real(0.5), 2)};
    const real tilt = std::asin(real(0.02)); // 4 cm over the 2 m segment
    const Transform pose = at(Vec3(0, real(0.76), 0), Quat(Eigen::AngleAxis<real>(real(std::numbers::pi / 2) + tilt, Vec3::UnitZ())));
    const Manifold near = run(Capsule{real(0.25), 1}, pose, slab, at(Vec3::Zero()), real(0.05));
    REQUIRE(near.count == 2);
    CHECK(near.normal.isApprox(Vec3::UnitY(), eps));
    const real deeper = std::max(near.points[0].depth, near.points[1].depth);
    const real shallower = std::min(near.points[0].depth, near.points[1].depth);
    CHECK(deeper == Approx(0.01).margin(tol(1e-6, 1e-4)));
    CHECK(shallower == Approx(-0.03).margin(tol(1e-3, 1e-3))); // the end's sphere against the face
    // Beyond the margin the raised end is left out.
    CHECK(run(Capsule{real(0.25), 1}, pose, slab, at(Vec3::Zero()), real(0.02)).count == 1);
}

TEST_CASE("swapping A and B flips the normal and keeps depths and points", "[collision]") {
    std::mt19937 rng(5);
    std::uniform_real_distribution<real> u(-1, 1);
    const Shape shapes[] = {Sphere{real(0.6)}, Capsule{real(0.3), real(0.7)}, Box{Vec3(real(0.4), real(0.8), real(0.5))},
                            HalfSpace{Vec3(u(rng), 1, u(rng)).normalized(), real(0.1)}};
    int contacts = 0;
    for (const Shape& a : shapes) {
        for (const Shape& b : shapes) {
            for (int trial = 0; trial < 200; ++trial) {
                Quat qa(u(rng), u(rng), u(rng), u(rng)), qb(u(rng), u(rng), u(rng), u(rng));
                qa.normalize();
                qb.normalize();
                const Transform pa{Vec3(u(rng), u(rng), u(rng)), qa}, pb{Vec3(u(rng), u(rng), u(rng)), qb};
                Manifold ab, ba;
                const bool hitAB = collide(a, pa, b, pb, real(0.01), ab);
                const bool hitBA = collide(b, pb, a, pa, real(0.01), ba);
                REQUIRE(hitAB == hitBA);
                if (!hitAB) continue;
                ++contacts;
                REQUIRE(ab.count == ba.count);
                REQUIRE((ab.normal + ba.normal).norm() < tol(1e-9, 1e-4));
                REQUIRE(std::abs(ab.normal.norm() - 1) < tol(1e-9, 1e-5));
                for (int k = 0; k < ab.count; ++k) {
                    REQUIRE(ab.points[static_cast<std::size_t>(k)].depth == Approx(ba.points[static_cast<std::size_t>(k)].depth).margin(tol(1e-9, 1e-4)));
                    REQUIRE((ab.points[static_cast<std::size_t>(k)].point - ba.points[static_cast<std::size_t>(k)].point).norm() < tol(1e-9, 1e-4));
                }
            }
        }
    }
    CHECK(contacts > 1000);
}

TEST_CASE("moving A out along the normal by the box-box depth separates the boxes", "[collision]") {
    std::mt19937 rng(9);
    std::uniform_real_distribution<real> u(-1, 1), s(real(0.2), 1);
    int checked = 0;
    for (int trial = 0; trial < 10000; ++trial) {
        const Box a{Vec3(s(rng), s(rng), s(rng))}, b{Vec3(s(rng), s(rng), s(rng))};
        Quat qa(u(rng), u(rng), u(rng), u(rng)), qb(u(rng), u(rng), u(rng), u(rng));
        qa.normalize();
        qb.normalize();
        const Transform pa{Vec3(u(rng), u(rng), u(rng)), qa}, pb{Vec3::Zero(), qb};
        Manifold m;
        if (!collideBoxes(a, pa, b, pb, 0, m)) continue;
        real deepest = 0;
        for (int k = 0; k < m.count; ++k) deepest = std::max(deepest, m.points[static_cast<std::size_t>(k)].depth);
        // The SAT depth along the chosen axis is at least the deepest point; pushing A by
        // it plus a hair leaves the boxes apart on that axis.
        Manifold after;
        const Transform moved{pa.position + m.normal * (deepest + real(1e-6)), pa.orientation};
        if (collideBoxes(a, moved, b, pb, 0, after)) {
            for (int k = 0; k < after.count; ++k) REQUIRE(after.points[static_cast<std::size_t>(k)].depth < tol(1e-6, 1e-3));
        }
        ++checked;
    }
    CHECK(checked > 3000);
}
