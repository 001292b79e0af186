// SPDX-License-Identifier: MIT
// Particle surfaces (issue 5): cloth that does not pass through itself, grains that
// stay on a cloth whose holes they would fall through, momentum kept, bad input.

#include "expect_error.hpp"
#include "helpers.hpp"

#include <jounce/particles/particle_builders.hpp>
#include <jounce/world/world.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

using namespace jounce;
using testing::addGround;

namespace {

World worldWithSleep(bool sleep, bool gravity = true) {
    WorldSettings s;
    s.sleep.enabled = sleep;
    if (!gravity) s.gravity = Vec3::Zero();
    return World(s);
}

/// Times a particle of the cloth went through one of its triangles (not its own) in
/// the step from `before` to now: the signed distance to the triangle's plane changed
/// sign while the point was over the triangle at both ends, within `near` of it.
int countCrossings(const Cloth& cloth, const std::vector<Vec3>& before, const std::vector<Vec3>& now, real near) {
    int crossings = 0;
    const auto side = [](const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& q, bool& over) {
        const Vec3 e1 = b - a, e2 = c - a, n = e1.cross(e2).normalized();
        const real d = (q - a).dot(n);
        const Vec3 r = q - n * d - a;
        const real d11 = e1.dot(e1), d12 = e1.dot(e2), d22 = e2.dot(e2), det = d11 * d22 - d12 * d12;
        const real u = (d22 * r.dot(e1) - d12 * r.dot(e2)) / det, v = (d11 * r.dot(e2) - d12 * r.dot(e1)) / det;
        over = u >= 0 && v >= 0 && u + v <= 1;
        return d;
    };
    for (std::uint32_t q = 0; q < cloth.particles.size(); ++q)
        for (const auto& t : cloth.triangles) {
            if (t[0] == q || t[1] == q || t[2] == q) continue;
            if ((now[q] - now[t[0]]).squaredNorm() > 4 * near * near) continue; // far from it: cheap test first
            bool over0 = false, over1 = false;
            const real d0 = side(before[t[0]], before[t[1]], before[t[2]], before[q], over0);
            const real d1 = side(now[t[0]], now[t[1]], now[t[2]], now[q], over1);
            if (over0 && over1 && std::abs(d0) < near && std::abs(d1) < near && (d0 > 0) != (d1 > 0)) ++crossings;
        }
    return crossings;
}

} // namespace

TEST_CASE("a cloth falling onto the ground in folds never passes through itself with a surface", "[particles][scene][long]") {
    // Watched at every small step (world steps of 1/600 s, one particle substep each:
    // the small steps of a 1/60 s step of 10 substeps), so a particle that folds round
    // the strip's free edge between two looks is not mistaken for one passing through.
    const auto runWith = [](real thickness, real lean) {
        WorldSettings s;
        s.sleep.enabled = false;
        s.particles.substeps = 1;
        World w(s);
        addGround(w, real(0.6));
        ClothDesc d;
        d.nu = 8;
        d.nv = 40;
        d.corner = Vec3(real(-0.15), real(0.03), 0);
        d.sideU = Vec3(real(0.3), 0, 0);
        d.sideV = Vec3(0, real(1.5), lean); // a strip nearly upright: it buckles and folds as it lands
        d.bending = ClothDesc::Bending::None;
        d.mass = real(0.2);
        d.radius = real(0.01);
        d.surfaceThickness = thickness;
        const Cloth cloth = buildCloth(w, d);
        int crossings = 0;
        std::vector<Vec3> before(cloth.particles.size()), now(cloth.particles.size());
        const auto positions = [&](std::vector<Vec3>& out) {
            for (std::size_t k = 0; k < out.size(); ++k) out[k] = w.particle(cloth.particles[k]).position;
        };
        positions(now);
        real top = 0;
        for (int i = 0; i < 1200; ++i) {
            before = now;
            w.step(real(1) / 600);
            positions(now);
            crossings += countCrossings(cloth, before, now, real(0.05));
        }
        for (const Vec3& x : now) top = std::max(top, x.y());
        INFO("thickness " << thickness << ", lean " << lean << ": the pile is " << top << " m high");
        CHECK(top < real(0.3)); // it has landed in folds, not stood or flown off
        return crossings;
    };
    // Without a surface the strip passes through itself; with one, at three leans, never.
    // ([long]: the sanitizer build, ~35x slower, leaves this out.)
    const int without = runWith(0, real(0.1));
    INFO("crossings in 2 s without a surface: " << without);
    CHECK(without > 0);
    const std::vector<real> leans{real(0.1), real(0.12), real(0.065)};
    for (const real lean : leans) {
        const int with = runWith(real(0.008), lean);
        INFO("lean " << lean << ": crossings in 2 s with a surface: " << with);
        CHECK(with == 0);
    }
}

TEST_CASE("grains stay on a coarse cloth they would fall through without its surface", "[particles][scene]") {
    // A 1 m trampoline of 11 x 11 particles 0.1 m apart (radius 0.01 m), its border
    // pinned; 16 grains of radius 0.02 m dropped over the middles of its cells fall
    // between the cloth's particles unless its triangles stop them.
    const auto runWith = [](real thickness) {
        World w = worldWithSleep(true);
        ClothDesc d;
        d.nu = d.nv = 11;
        d.corner = Vec3(real(-0.5), 0, real(-0.5));
        d.sideU = Vec3(1, 0, 0);
        d.sideV = Vec3(0, 0, 1);
        d.mass = real(0.5);
        d.radius = real(0.01);
        d.surfaceThickness = thickness;
        for (int k = 0; k < d.nu; ++k) d.pinned.insert(d.pinned.end(), {{k, 0}, {k, d.nv - 1}, {0, k}, {d.nu - 1, k}});
        buildCloth(w, d);
        std::vector<ParticleId> grains;
        for (int i = 0; i < 4; ++i)
            for (int j = 0; j < 4; ++j) {
                ParticleDesc g;
                g.position = Vec3(real(-0.25) + real(0.2) * i, real(0.2) + real(0.01) * (i + j), real(-0.25) + real(0.2) * j);
                g.radius = real(0.02);
                g.mass = real(0.01);
                grains.push_back(w.createParticle(g));
            }
        for (int i = 0; i < 180; ++i) w.step(real(1) / 60);
        real lowest = 1e9, fastest = 0;
        for (const ParticleId g : grains) {
            lowest = std::min(lowest, w.particle(g).position.y());
            fastest = std::max(fastest, w.particle(g).velocity.norm());
        }
        INFO("thickness " << thickness << ": lowest grain at " << lowest << " m, fastest " << fastest << " m/s");
        if (thickness > 0) CHECK(fastest < real(0.05)); // resting on the cloth
        return lowest;
    };
    CHECK(runWith(0) < real(-5)); // fell through, and on
    CHECK(runWith(real(0.005)) > real(-0.15)); // on the cloth, which sags under them
}

TEST_CASE("a particle hitting a free cloth patch through its surface keeps the total momentum", "[particles]") {
    // No gravity: a 3 x 3 patch of 9 particles of 10 g at rest and a grain of 50 g
    // moving at 2 m/s straight at the middle of a cell. Only the surface stops it
    // (the patch's particles are 0.25 m apart, radius 0.01 m): the correction is
    // spread by barycentric weights, so momentum is kept.
    World w = worldWithSleep(false, false);
    ClothDesc d;
    d.nu = d.nv = 3;
    d.corner = Vec3(real(-0.25), 0, real(-0.25));
    d.sideU = Vec3(real(0.5), 0, 0);
    d.sideV = Vec3(0, 0, real(0.5));
    d.mass = real(0.09);
    d.radius = real(0.01);
    d.friction = 0;
    d.surfaceThickness = real(0.01);
    const Cloth cloth = buildCloth(w, d);
    ParticleDesc g;
    g.position = Vec3(real(0.1), real(0.3), real(0.13));
    g.velocity = Vec3(0, -2, 0);
    g.mass = real(0.05);
    g.radius = real(0.02);
    g.staticFriction = g.kineticFriction = 0;
    const ParticleId grain = w.createParticle(g);
    const auto momentum = [&] {
        Vec3 sum = Vec3::Zero();
        for (const ParticleId id : w.particleIds()) sum += w.particle(id).velocity / w.particle(id).inverseMass;
        return sum;
    };
    const Vec3 before = momentum();
    for (int i = 0; i < 30; ++i) w.step(real(1) / 60);
    const Vec3 after = momentum();
    real lowestCloth = 1e9;
    for (const ParticleId id : cloth.particles) lowestCloth = std::min(lowestCloth, w.particle(id).position.y());
    INFO("momentum " << before.transpose() << " -> " << after.transpose() << "; grain at " << w.particle(grain).position.y()
                     << " m, cloth's lowest " << lowestCloth << " m");
    // Float: the positions' round-off over 300 small steps, v = (p - x) / h (measured
    // 1.4e-4 of it with the patch's rows and columns solved by line, 8e-5 without).
    CHECK((after - before).norm() < testing::tol(1e-9, 3e-4) * before.norm());
    CHECK(w.particle(grain).position.y() > lowestCloth); // still above the patch, which it carries along
    CHECK(w.particle(grain).velocity.y() < real(-0.5));  // moving on together (momentum 0.1 over 0.14 kg)
}

TEST_CASE("bad particle surfaces are rejected with the field named and nothing stored", "[particles]") {
    World w;
    const ParticleId a = testing::addParticle(w, Vec3(0, 0, 0), 1, false, 3);
    const ParticleId b = testing::addParticle(w, Vec3(1, 0, 0), 1, false, 3);
    const ParticleId c = testing::addParticle(w, Vec3(0, 0, 1), 1, false, 3);
    const ParticleId other = testing::addParticle(w, Vec3(1, 0, 1), 1, false, 4);
    const ParticleId loose = testing::addParticle(w, Vec3(1, 1, 1), 1, false, 0);
    const auto expectError = [&](const ParticleSurfaceDesc& d, const std::string& field) {
        testing::expectError([&] { w.createParticleSurface(d); }, field);
        CHECK(w.particleSurfaceIds().empty());
    };
    ParticleSurfaceDesc d;
    expectError(d, "ParticleSurfaceDesc.triangles");
    d.triangles = {{a, b, c}};
    for (const real bad : {real(0), real(-0.01), std::numeric_limits<real>::quiet_NaN(), std::numeric_limits<real>::infinity()}) {
        d.thickness = bad;
        expectError(d, "ParticleSurfaceDesc.thickness");
    }
    d.thickness = real(0.01);
    d.triangles = {{a, b, a}};
    expectError(d, "ParticleSurfaceDesc.triangles[0]");
    d.triangles = {{a, b, c}, {a, b, other}};
    expectError(d, "ParticleSurfaceDesc.triangles[1][2]");
    d.triangles = {{loose, b, c}};
    expectError(d, "ParticleSurfaceDesc.triangles[0][0]");
    d.triangles = {{a, b, ParticleId{99, 1}}};
    expectError(d, "ParticleSurfaceDesc.triangles[0][2]");

    d.triangles = {{a, b, c}};
    const ParticleSurfaceId id = w.createParticleSurface(d);
    CHECK(w.particleSurface(id).group == 3);
    w.destroyParticle(c); // its triangle goes, and with it the surface
    CHECK_FALSE(w.contains(id));
    testing::expectError([&] { w.destroyParticleSurface(id); }, "destroyParticleSurface.id");
    ClothDesc bad;
    bad.surfaceThickness = -1;
    testing::expectError([&] { buildCloth(w, bad); }, "ClothDesc.surfaceThickness");
    CHECK(w.particleCount() == 4);
}

// ---- Hierarchical PBD (Müller 2008) -------------------------------------------------

TEST_CASE("hierarchical PBD, and lines: a cloth held by two corners stretches 5x less at the same iterations", "[particles]") {
    // 64 x 64, 0.5 kg, dropped from flat while held by two corners, 10 substeps x 2
    // iterations: plain Gauss-Seidel (no lines) lets it sag to 35 % strain, three coarse
    // levels keep it to 0.3 % (docs/particles.md has the figures per millisecond), and its
    // rows and columns solved by line (solveLines, the default) to 1.7 % (the top row,
    // between the two pins, stays with the point sweep).
    const auto worstStrain = [](int levels, bool lines) {
        WorldSettings s;
        s.sleep.enabled = false;
        s.particles.substeps = 10;
        s.particles.iterations = 2;
        s.particles.solveLines = lines;
        World w(s);
        ClothDesc d;
        d.corner = Vec3(-1, 3, 0);
        d.sideU = Vec3(2, 0, 0);
        d.sideV = Vec3(0, -2, 0);
        d.nu = d.nv = 64;
        d.mass = real(0.5);
        d.pinned = {{0, 0}, {63, 0}};
        d.hierarchyLevels = levels;
        const Cloth cloth = buildCloth(w, d);
        real worst = 0;
        const int steps = 60 / testing::sanitizedStepDivisor;
        for (int i = 0; i < steps; ++i) {
            w.step(real(1) / 60);
            for (const DistanceConstraintId id : cloth.stretch) {
                const DistanceConstraint& c = w.distanceConstraint(id);
                const real length = (w.particles().x[c.a] - w.particles().x[c.b]).norm();
                worst = std::max(worst, (length - c.restLength) / c.restLength);
            }
        }
        return worst;
    };
    const real plain = worstStrain(0, false), hierarchical = worstStrain(3, false), lines = worstStrain(0, true);
    INFO("worst edge strain in 1 s: plain " << plain << ", three coarse levels " << hierarchical << ", lines " << lines);
    CHECK(hierarchical * 5 < plain);
    CHECK(lines * 5 < plain);
}

TEST_CASE("hierarchy levels: every other particle of a grid, parents' weights sum to 1, mass kept", "[particles]") {
    World w;
    ClothDesc d;
    d.nu = d.nv = 5;
    d.mass = real(2.5);
    d.pinned = {{0, 0}};
    d.hierarchyLevels = 2;
    const Cloth cloth = buildCloth(w, d);
    const ParticleHierarchy& h = w.particleHierarchy(cloth.hierarchy);
    REQUIRE(h.levels.size() == 2);
    CHECK(h.levels[0].particles.size() == 9); // (0, 2, 4) x (0, 2, 4)
    CHECK(h.levels[0].children.size() == 16);
    CHECK(h.levels[1].particles.size() == 4); // (0, 4) x (0, 4)
    for (const ParticleHierarchyLevel& level : h.levels) {
        for (std::size_t k = 0; k < level.children.size(); ++k) {
            CHECK(level.parentStart[k + 1] - level.parentStart[k] >= 2);
            real sum = 0;
            for (std::uint32_t m = level.parentStart[k]; m < level.parentStart[k + 1]; ++m) sum += level.weights[m];
            CHECK(sum == Approx(1).epsilon(testing::tol(1e-12, 1e-6)));
        }
        // The coarse masses carry every movable particle's mass (the pinned corner's stays infinite).
        real mass = 0;
        for (const real im : level.inverseMass)
            if (im > 0) mass += 1 / im;
        INFO("level mass " << mass);
        CHECK(level.inverseMass[0] == 0);
    }
    // A free grid: the coarse masses add up to the cloth's mass exactly.
    World free;
    d.pinned.clear();
    const Cloth loose = buildCloth(free, d);
    for (const ParticleHierarchyLevel& level : free.particleHierarchy(loose.hierarchy).levels) {
        real mass = 0;
        for (const real im : level.inverseMass) mass += 1 / im;
        CHECK(mass == Approx(2.5).epsilon(testing::tol(1e-12, 1e-6)));
    }
}

TEST_CASE("hierarchical PBD keeps a free cloth's linear momentum", "[particles]") {
    // No gravity; a 16 x 16 cloth with three levels, stretched to 1.3x and given random
    // velocities: the coarse projections and the corrections carried down (with the
    // children's mass shares on the parents) keep sum m v.
    World w = worldWithSleep(false, false);
    ClothDesc d;
    d.nu = d.nv = 16;
    d.hierarchyLevels = 3;
    const Cloth cloth = buildCloth(w, d);
    testing::Lcg lcg(7);
    const auto random = [&lcg] { return lcg.uniform(); };
    for (const ParticleId id : cloth.particles) {
        w.setParticlePosition(id, w.particle(id).position * real(1.3));
        w.setParticleVelocity(id, Vec3(random(), random(), random()));
    }
    const auto momentum = [&] {
        Vec3 sum = Vec3::Zero();
        for (const ParticleId id : cloth.particles) sum += w.particle(id).velocity / w.particle(id).inverseMass;
        return sum;
    };
    const Vec3 before = momentum();
    for (int i = 0; i < 60; ++i) w.step(real(1) / 60);
    const Vec3 after = momentum();
    INFO("momentum " << before.transpose() << " -> " << after.transpose());
    CHECK((after - before).norm() < testing::tol(1e-9, 1e-3) * std::max(before.norm(), real(1)));
}

TEST_CASE("bad particle hierarchies are rejected with the field named and nothing stored", "[particles]") {
    World w;
    std::vector<ParticleId> p;
    for (int i = 0; i < 4; ++i) p.push_back(testing::addParticle(w, Vec3(i, 0, 0), 1));
    const ParticleId outside = testing::addParticle(w, Vec3(9, 0, 0), 1);
    const auto expectError = [&](const ParticleHierarchyDesc& d, const std::string& field) {
        testing::expectError([&] { w.createParticleHierarchy(d); }, field);
        CHECK(w.particleHierarchyIds().empty());
    };
    ParticleHierarchyDesc d;
    d.particles = {p[0], p[1]};
    expectError(d, "ParticleHierarchyDesc.particles");
    d.particles = p;
    d.edges = {{p[0], p[1]}, {p[1], p[2]}, {p[2], p[3]}};
    d.levels = 0;
    expectError(d, "ParticleHierarchyDesc.levels");
    d.levels = 9;
    expectError(d, "ParticleHierarchyDesc.levels");
    d.levels = 1;
    d.parents = 0;
    expectError(d, "ParticleHierarchyDesc.parents");
    d.parents = 2;
    d.particles = {p[0], p[1], p[1], p[3]};
    expectError(d, "ParticleHierarchyDesc.particles[2]");
    d.particles = p;
    d.edges.push_back({p[3], outside});
    expectError(d, "ParticleHierarchyDesc.edges[3][1]");
    d.edges.back() = {p[2], p[2]};
    expectError(d, "ParticleHierarchyDesc.edges[3]");
    d.edges.back() = {p[0], ParticleId{77, 3}};
    expectError(d, "ParticleHierarchyDesc.edges[3][1]");
    d.edges.clear();
    expectError(d, "ParticleHierarchyDesc.edges"); // nothing to coarsen

    d.edges = {{p[0], p[1]}, {p[1], p[2]}, {p[2], p[3]}};
    const ParticleHierarchyId id = w.createParticleHierarchy(d);
    CHECK(w.particleHierarchy(id).levels.size() == 1);
    w.destroyParticle(p[1]);
    CHECK_FALSE(w.contains(id));
    testing::expectError([&] { w.particleHierarchy(id); }, "particleHierarchy.id");
    ClothDesc bad;
    bad.hierarchyLevels = 9;
    testing::expectError([&] { buildCloth(w, bad); }, "ClothDesc.hierarchyLevels");
}
