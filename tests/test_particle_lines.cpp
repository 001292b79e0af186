// SPDX-License-Identifier: MIT
// Lines of rigid distance links, each solved exactly (physics/particles/distance_lines.hpp,
// solve_lines.cpp, line_kernel.hpp): which links form lines, the solve against the
// linearised system solved densely, every SIMD width's bits, and a draped cloth.

#include "helpers.hpp"
#include "simd_widths.hpp"
#include "physics/particles/stages.hpp"
#include <jounce/common/simd.hpp>
#include <jounce/particles/particle_builders.hpp>
#include <jounce/world/world.hpp>

#include <catch2/catch.hpp>

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <utility>

using namespace jounce;
using testing::addParticle;

namespace {

constexpr real lineStep = real(1) / 600;
/// Round-off allowed against the dense solve (double 2e-13, float 1e-4).
constexpr real lineRoundOff = 1000 * std::numeric_limits<real>::epsilon();

ClothDesc lineTestCloth(int n) {
    ClothDesc c;
    c.corner = Vec3(0, 1, 0);
    c.sideU = Vec3(1, 0, 0);
    c.sideV = Vec3(0, 0, 1);
    c.nu = c.nv = n;
    c.radius = real(0.01);
    return c;
}

struct PackedLines {
    detail::DistanceRows compliant, rigid;
    detail::DistanceLines lines;
};

PackedLines packWithLines(const World& w, const ParticleSettings& settings) {
    PackedLines p;
    detail::packDistances(w.particles(), settings, lineStep, {}, p.compliant, p.rigid, &p.lines);
    return p;
}

std::size_t lineCount(const detail::DistanceLines& lines) {
    std::size_t n = 0;
    for (const std::uint32_t used : lines.used) n += used;
    return n;
}

std::size_t linksInLines(const detail::DistanceLines& lines) {
    std::size_t n = 0;
    for (std::size_t k = 0; k < lines.bundles(); ++k) n += std::size_t{lines.used[k]} * lines.links[k];
    return n;
}

} // namespace

TEST_CASE("lines: a cloth's rigid stretch links are its rows and columns, while loops, triangles, PBD and the switch keep points",
          "[particles]") {
    World w;
    const Cloth cloth = buildCloth(w, lineTestCloth(8)); // stretch 0, shear and bending compliant
    const PackedLines p = packWithLines(w, ParticleSettings{});
    // 8 rows and 8 columns of 7 links, in two colours (rows share no particle, nor do
    // columns), the rows first.
    CHECK(lineCount(p.lines) == 16);
    CHECK(linksInLines(p.lines) == cloth.stretch.size());
    CHECK(p.rigid.size() == 0);
    REQUIRE(p.lines.colourStart.size() == 3);
    for (std::size_t k = 0; k < p.lines.bundles(); ++k) CHECK(p.lines.links[k] == 7);
    // Every line entry is a stretch link, once.
    std::vector<std::uint32_t> slots;
    for (const std::uint32_t s : p.lines.slot)
        if (s != detail::noLineSlot) slots.push_back(s);
    std::sort(slots.begin(), slots.end());
    CHECK(std::adjacent_find(slots.begin(), slots.end()) == slots.end());
    for (const DistanceConstraintId id : cloth.stretch) CHECK(std::binary_search(slots.begin(), slots.end(), id.index));
    // Each line's particles run straight along a row or a column of the grid.
    const ParticleSystem& ps = w.particles();
    for (std::size_t k = 0; k < p.lines.bundles(); ++k)
        for (std::uint32_t l = 0; l < p.lines.used[k]; ++l) {
            const auto at = [&](std::uint32_t j) { return ps.x[p.lines.particle[(p.lines.particleBase[k] + j) * detail::bundleWidth + l]]; };
            const Vec3 step = at(1) - at(0);
            for (std::uint32_t j = 1; j < p.lines.links[k]; ++j) CHECK((at(j + 1) - at(j) - step).norm() < lineRoundOff);
        }

    SECTION("PBD and solveLines off: every rigid link stays a point row") {
        ParticleSettings pbd;
        pbd.solver = ParticleSolver::PBD;
        ParticleSettings off;
        off.solveLines = false;
        for (const ParticleSettings& s : {pbd, off}) {
            const PackedLines q = packWithLines(w, s);
            CHECK(q.lines.bundles() == 0);
            CHECK(q.rigid.size() >= cloth.stretch.size());
        }
    }
    SECTION("a closed ring and a triangle fan form no line; an open chain does") {
        World v;
        std::vector<ParticleId> ring, fan, chain;
        for (int i = 0; i < 10; ++i) {
            const real a = real(0.6283) * static_cast<real>(i);
            ring.push_back(addParticle(v, Vec3(std::cos(a), 1, std::sin(a)), 1));
        }
        for (int i = 0; i < 10; ++i) v.createDistanceConstraint({ring[static_cast<std::size_t>(i)], ring[static_cast<std::size_t>((i + 1) % 10)], -1, 0});
        fan.push_back(addParticle(v, Vec3(5, 1, 0), 1));
        for (int i = 0; i < 5; ++i) fan.push_back(addParticle(v, Vec3(6, 1, real(0.3) * static_cast<real>(i)), 1));
        for (std::size_t i = 1; i < fan.size(); ++i) {
            v.createDistanceConstraint({fan[0], fan[i], -1, 0});
            if (i > 1) v.createDistanceConstraint({fan[i - 1], fan[i], -1, 0});
        }
        const PackedLines none = packWithLines(v, ParticleSettings{});
        CHECK(none.lines.bundles() == 0);
        CHECK(none.rigid.size() == 10 + 5 + 4);
        ParticleSettings noDirect; // the direct solver would take an acyclic chain first
        noDirect.directChains = false;
        for (int i = 0; i < 6; ++i) chain.push_back(addParticle(v, Vec3(real(0.2) * static_cast<real>(i), 3, 0), 1));
        for (int i = 0; i < 5; ++i) v.createDistanceConstraint({chain[static_cast<std::size_t>(i)], chain[static_cast<std::size_t>(i + 1)], -1, 0});
        const PackedLines one = packWithLines(v, noDirect);
        CHECK(lineCount(one.lines) == 1);
        CHECK(linksInLines(one.lines) == 5);
        CHECK(one.rigid.size() == 10 + 5 + 4);
    }
}

TEST_CASE("a line's solve is the linearised system's exact solution, and repeated it converges as Newton's method does",
          "[particles]") {
    // A chain of 7 particles at random places (the middle one pinned) with random masses and rest
    // lengths. One solve must move them by W J^T dlambda with (J W J^T) dlambda = -C,
    // solved here densely with Eigen (no pivot is near the floor of line_kernel.hpp);
    // each further solve squares the error.
    World w;
    std::mt19937 rng(5);
    std::uniform_real_distribution<real> u(-1, 1);
    std::vector<ParticleId> ids;
    for (int i = 0; i < 7; ++i)
        ids.push_back(addParticle(w, Vec3(real(0.5) * static_cast<real>(i) + real(0.1) * u(rng), real(0.1) * u(rng), real(0.1) * u(rng)),
                                  real(1.5) + u(rng), i == 3));
    for (int i = 0; i < 6; ++i)
        w.createDistanceConstraint({ids[static_cast<std::size_t>(i)], ids[static_cast<std::size_t>(i + 1)], real(0.5) + real(0.05) * u(rng), 0});
    ParticleSettings s;
    s.directChains = false;
    PackedLines p = packWithLines(w, s);
    // Two lines (0-3 and 3-6) meeting at the pinned particle, which decouples them: their
    // solves together are the whole chain's.
    REQUIRE(lineCount(p.lines) == 2);
    const ParticleSystem& ps = w.particles();
    std::vector<Vec3> x = ps.x;

    // The dense solve: rows j = links in slot order, particles in slot order.
    const auto dense = [&](const std::vector<Vec3>& at) {
        Eigen::Matrix<real, 6, 21> J = Eigen::Matrix<real, 6, 21>::Zero();
        Eigen::Matrix<real, 6, 1> c;
        for (int j = 0; j < 6; ++j) {
            const DistanceConstraint& d = ps.distances.atSlot(static_cast<std::size_t>(j));
            const Vec3 n = (at[d.a] - at[d.b]).normalized();
            J.block<1, 3>(j, 3 * static_cast<int>(d.a)) = n.transpose();
            J.block<1, 3>(j, 3 * static_cast<int>(d.b)) = -n.transpose();
            c[j] = (at[d.a] - at[d.b]).norm() - d.restLength;
        }
        Eigen::Matrix<real, 21, 21> W = Eigen::Matrix<real, 21, 21>::Zero();
        for (int i = 0; i < 7; ++i) W.block<3, 3>(3 * i, 3 * i) = Mat3::Identity() * ps.w[static_cast<std::size_t>(i)];
        const Eigen::Matrix<real, 6, 6> A = J * W * J.transpose();
        const Eigen::Matrix<real, 6, 1> dlambda = A.ldlt().solve(-c);
        const Eigen::Matrix<real, 21, 1> dp = W * J.transpose() * dlambda;
        std::vector<Vec3> moved = at;
        for (int i = 0; i < 7; ++i) moved[static_cast<std::size_t>(i)] += dp.segment<3>(3 * i);
        return moved;
    };
    const auto error = [&](const std::vector<Vec3>& at) {
        real worst = 0;
        for (std::size_t j = 0; j < 6; ++j) {
            const DistanceConstraint& d = ps.distances.atSlot(j);
            worst = std::max(worst, std::abs((at[d.a] - at[d.b]).norm() - d.restLength));
        }
        return worst;
    };
    const std::vector<Vec3> expected = dense(x);
    detail::solveDistanceLines(x, p.lines, nullptr);
    for (std::size_t i = 0; i < 7; ++i) {
        CHECK((x[i] - expected[i]).norm() < lineRoundOff);
    }
    CHECK(x[3] == ps.x[3]); // pinned
    real before = error(x);
    INFO("error after one solve " << before);
    CHECK(before > 0);
    for (int k = 0; k < 4 && before > lineRoundOff; ++k) {
        detail::solveDistanceLines(x, p.lines, nullptr);
        const real after = error(x);
        CHECK(after < std::max(lineRoundOff, 10 * before * before)); // quadratic
        before = after;
    }
    CHECK(before < lineRoundOff);
}

TEST_CASE("lines: every SIMD width solves a cloth's lines with the bits of one line at a time", "[particles]") {
    // 13 x 13 (bundles of 8 and 5 lines: lanes past the last line repeat the first and
    // are not written), the cloth crumpled at random, one particle pinned, two particles
    // on top of each other (a link with no direction: no division by zero, which traps).
    World w;
    ClothDesc d = lineTestCloth(13);
    d.pinned = {{0, 0}};
    const Cloth cloth = buildCloth(w, d);
    std::mt19937 rng(3);
    std::uniform_real_distribution<real> u(real(-0.03), real(0.03));
    std::vector<Vec3> start = w.particles().x;
    for (Vec3& x : start) x += Vec3(u(rng), u(rng), u(rng));
    start[cloth.at(5, 6).index] = start[cloth.at(5, 7).index];
    std::vector<Vec3> scalar; // the first width's: the scalar twin's
    testing::atEverySimdWidth(
        [&] {
            PackedLines p = packWithLines(w, ParticleSettings{});
            std::vector<Vec3> x = start;
            for (int k = 0; k < 3; ++k) detail::solveDistanceLines(x, p.lines, nullptr);
            return x;
        },
        [&](const std::vector<Vec3>& x) {
            CHECK(x[cloth.at(0, 0).index] == start[cloth.at(0, 0).index]);
            if (scalar.empty()) {
                scalar = x;
                CHECK(x != start);
            } else {
                CHECK(std::memcmp(x.data(), scalar.data(), scalar.size() * sizeof(Vec3)) == 0);
            }
        });
}

TEST_CASE("lines: a run between two pinned particles stays with the point sweep, a run with one pinned end is a line",
          "[particles]") {
    // Five particles 0.22 m apart on a line (a kink of 1e-6 m in the middle), links of
    // rest length 0.2: 10 % too long. Pinned at both ends it cannot be shortened, and its
    // linearised system is nearly singular: the exact Newton step would throw the middle
    // particle about C / theta sideways, and repeated it jumps about (line_kernel.hpp).
    // Such a run is left to the point sweep. Pinned at one end, it is a line, and one
    // solve brings every link to its length.
    for (const bool bothEnds : {true, false}) {
        INFO((bothEnds ? "pinned at both ends" : "pinned at one end"));
        World w;
        std::vector<ParticleId> ids;
        for (int i = 0; i < 5; ++i)
            ids.push_back(addParticle(w, Vec3(real(0.22) * static_cast<real>(i), i == 2 ? real(1e-6) : 0, 0), 1, i == 0 || (bothEnds && i == 4)));
        for (int i = 0; i < 4; ++i) w.createDistanceConstraint({ids[static_cast<std::size_t>(i)], ids[static_cast<std::size_t>(i + 1)], real(0.2), 0});
        ParticleSettings s;
        s.directChains = false;
        PackedLines p = packWithLines(w, s);
        CHECK(lineCount(p.lines) == (bothEnds ? 0 : 1));
        CHECK(p.rigid.size() == (bothEnds ? 4 : 0));
        if (bothEnds) continue;
        std::vector<Vec3> x = w.particles().x;
        detail::solveDistanceLines(x, p.lines, nullptr);
        CHECK(x[0] == w.particles().x[0]);
        for (std::size_t i = 0; i < 4; ++i) CHECK((x[i + 1] - x[i]).norm() == Approx(0.2).margin(1e-6));
        CHECK(x[4].x() == Approx(0.8).margin(1e-5)); // pulled straight in along the line
    }
}

TEST_CASE("lines: a chain that shares a particle with rows that form no line is still found", "[particles]") {
    // A triangle (0, 1, 2) walks as single links that form no line; a rope from its
    // corner 2 on (2, 3, 4, 5) is a line of three links.
    World w;
    std::vector<ParticleId> ids;
    const Vec3 at[6] = {Vec3(0, 1, 0), Vec3(1, 1, 0), Vec3(real(0.5), 2, 0), Vec3(real(0.5), 3, 0), Vec3(real(0.5), 4, 0), Vec3(real(0.5), 5, 0)};
    for (const Vec3& a : at) ids.push_back(addParticle(w, a, 1));
    for (const auto& [a, b] : {std::pair{0, 1}, std::pair{1, 2}, std::pair{2, 0}, std::pair{2, 3}, std::pair{3, 4}, std::pair{4, 5}})
        w.createDistanceConstraint({ids[static_cast<std::size_t>(a)], ids[static_cast<std::size_t>(b)], -1, 0});
    ParticleSettings s;
    s.directChains = false;
    const PackedLines p = packWithLines(w, s);
    CHECK(lineCount(p.lines) == 1);
    CHECK(linksInLines(p.lines) == 3);
    CHECK(p.rigid.size() == 3);
}

TEST_CASE("lines: packed again with the same rows they stay, and turned off as their rows leave they go", "[particles]") {
    // A rope of five rigid links is one line. Packed again unchanged (the pack's quick
    // check of its last listing), the line and the rows are as they were. Then, in one
    // step, the direct solver takes the rope's links and lines are turned off: what is
    // left to list is what was left beside the line (nothing), and the line must go
    // too, or it would be solved on top of the direct solve.
    World w;
    std::vector<ParticleId> ids;
    for (int i = 0; i < 6; ++i) ids.push_back(addParticle(w, Vec3(real(0.2) * real(i), 1, 0), 1));
    for (int i = 0; i + 1 < 6; ++i) w.createDistanceConstraint({ids[static_cast<std::size_t>(i)], ids[static_cast<std::size_t>(i + 1)], -1, 0});
    ParticleSettings s;
    s.directChains = false;
    PackedLines p = packWithLines(w, s);
    REQUIRE(lineCount(p.lines) == 1);
    REQUIRE(linksInLines(p.lines) == 5);
    CHECK(p.rigid.size() == 0);
    detail::packDistances(w.particles(), s, lineStep, {}, p.compliant, p.rigid, &p.lines);
    CHECK(lineCount(p.lines) == 1);
    CHECK(linksInLines(p.lines) == 5);
    CHECK(p.rigid.size() == 0);
    s.directChains = true;
    s.solveLines = false;
    const std::vector<std::uint8_t> direct(w.particles().distances.slotCount(), 1);
    detail::packDistances(w.particles(), s, lineStep, direct, p.compliant, p.rigid, &p.lines);
    CHECK(p.lines.bundles() == 0);
    CHECK(p.rigid.size() == 0);
}
