// SPDX-License-Identifier: MIT
// The particle layer's constraints beyond distance (issue 5): bending, tet volume,
// triangle area, closed-mesh volumes and clusters. Gradients against finite
// differences, a bending hinge against its moment balance, the soft cube and the
// balloon of the tests 7 and 8, shape matching and rigid-mode damping (13),
// momentum conservation of internal constraints (14) and bad input (16).

#include "expect_error.hpp"
#include "fp_traps.hpp"
#include "helpers.hpp"
#include "simd_widths.hpp"

#include "physics/particles/stages.hpp"
#include "common/polar.hpp"

#include <jounce/common/simd.hpp>
#include <jounce/common/tasks.hpp>
#include <jounce/particles/particle_builders.hpp>
#include <jounce/world/world.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numbers>
#include <numeric>
#include <random>
#include <span>

using namespace jounce;
using testing::addGround;
using testing::addParticle;
using testing::tol;

namespace {

World worldWith(const Vec3& gravity, int substeps = 10, int iterations = 2) {
    WorldSettings s;
    s.gravity = gravity;
    s.particles.substeps = substeps;
    s.particles.iterations = iterations;
    return World(s);
}

/// A fixed pseudo-random number in [-1, 1] (the same every run).
real jitter(std::uint32_t k) {
    k = (k + 1) * 2654435761u;
    k ^= k >> 15;
    return static_cast<real>(k % 20001) / 10000 - 1;
}

struct Momenta {
    Vec3 linear = Vec3::Zero(), angular = Vec3::Zero();
};

Momenta momenta(const World& w) {
    Momenta m;
    const ParticleSystem& ps = w.particles();
    for (std::size_t i = 0; i < ps.slotCount(); ++i) {
        if (!ps.isAlive(i) || ps.w[i] == 0) continue;
        m.linear += ps.v[i] / ps.w[i];
        m.angular += ps.x[i].cross(ps.v[i]) / ps.w[i];
    }
    return m;
}

/// The tets' volumes added up, each counted positive when it has its rest orientation
/// (Kuhn's tets alternate in handedness, so their signed volumes cancel).
real totalTetVolume(const World& w, const SoftBox& box) {
    real total = 0;
    for (const ParticleConstraintId t : box.tets) {
        const real rest = w.particleConstraint(t).rest;
        total += (w.particleConstraintValue(t) + rest) * (rest > 0 ? 1 : -1);
    }
    return total;
}

} // namespace

TEST_CASE("a coloured sweep gives each row the lowest colour its earlier neighbours left and no colour a shared particle",
          "[particles]") {
    // sweep_levels.hpp: random rows of 2 to 4 particles over a few particles (so rows
    // share a lot: some particles are in more than 64 rows, and their last rows
    // overflow the colours), each row an update that depends on its order.
    std::mt19937 rng(5);
    std::uniform_int_distribution<std::uint32_t> particle(0, 29), size(2, 4);
    std::vector<std::vector<std::uint32_t>> rows(600);
    for (auto& row : rows) {
        row.resize(size(rng));
        for (auto& i : row) i = particle(rng);
        std::sort(row.begin(), row.end());
        row.erase(std::unique(row.begin(), row.end()), row.end());
    }
    detail::SweepLevels levels;
    detail::orderSweep(30, rows.size(), [&](std::size_t r) { return std::span<const std::uint32_t>(rows[r]); }, levels);
    REQUIRE(levels.order.size() == rows.size());
    REQUIRE(levels.levelStart.front() == 0);
    REQUIRE(levels.levelStart.back() == rows.size());
    std::vector<std::uint32_t> sorted(levels.order);
    std::sort(sorted.begin(), sorted.end());
    for (std::size_t k = 0; k < rows.size(); ++k) REQUIRE(sorted[k] == k); // a permutation
    std::vector<std::size_t> levelOf(rows.size());
    for (std::size_t l = 0; l + 1 < levels.levelStart.size(); ++l) {
        REQUIRE(levels.levelStart[l] < levels.levelStart[l + 1]); // no empty level
        std::vector<int> used(30, 0);
        for (std::uint32_t k = levels.levelStart[l]; k < levels.levelStart[l + 1]; ++k) {
            levelOf[levels.order[k]] = l;
            if (k > levels.levelStart[l]) { // by lowest particle, then row order, within a level
                const std::uint32_t before = rows[levels.order[k - 1]].front(), now = rows[levels.order[k]].front();
                REQUIRE((before < now || (before == now && levels.order[k - 1] < levels.order[k])));
            }
            for (const std::uint32_t i : rows[levels.order[k]]) REQUIRE(used[i]++ == 0);  // no shared particle
        }
    }
    // Greedy colouring: a row in colour c < 64 found colours 0 .. c - 1 among the earlier
    // rows it shares a particle with, and not c; a row past them (overflow) found all 64,
    // and comes after every earlier overflow row it shares a particle with.
    const auto share = [&](std::size_t a, std::size_t b) {
        return std::find_first_of(rows[a].begin(), rows[a].end(), rows[b].begin(), rows[b].end()) != rows[a].end();
    };
    std::size_t overflowed = 0;
    for (std::size_t r = 0; r < rows.size(); ++r) {
        std::vector<int> seen(levels.levelStart.size(), 0);
        for (std::size_t e = 0; e < r; ++e)
            if (share(e, r)) seen[levelOf[e]] = 1;
        const std::size_t c = levelOf[r];
        if (c < 64) {
            for (std::size_t k = 0; k < c; ++k) REQUIRE(seen[k] == 1);
            REQUIRE(seen[c] == 0);
            continue;
        }
        ++overflowed;
        for (std::size_t k = 0; k < 64; ++k) REQUIRE(seen[k] == 1);
        for (std::size_t k = c; k < seen.size(); ++k) REQUIRE(seen[k] == 0);
    }
    CHECK(overflowed > 0);
    CHECK(overflowed < rows.size() / 2);
    // The rows of a level are independent: sweeping each level backwards gives the same bits.
    const auto sweep = [&](const std::vector<std::uint32_t>& order) {
        std::vector<real> x(30);
        for (std::size_t i = 0; i < x.size(); ++i) x[i] = real(0.1) * static_cast<real>(i) + 1;
        for (int pass = 0; pass < 3; ++pass)
            for (const std::uint32_t r : order) {
                real s = 0;
                for (const std::uint32_t i : rows[r]) s = s * real(0.7) + std::sqrt(x[i]);
                for (const std::uint32_t i : rows[r]) x[i] = x[i] * real(0.9) + s / static_cast<real>(r + 3);
            }
        return x;
    };
    std::vector<std::uint32_t> backwards(levels.order);
    for (std::size_t l = 0; l + 1 < levels.levelStart.size(); ++l)
        std::reverse(backwards.begin() + levels.levelStart[l], backwards.begin() + levels.levelStart[l + 1]);
    const std::vector<real> forward = sweep(levels.order), reversed = sweep(backwards);
    for (std::size_t i = 0; i < forward.size(); ++i) REQUIRE(std::memcmp(&forward[i], &reversed[i], sizeof(real)) == 0);
    // A cloth-like mesh (rows of a grid's edges) takes few colours: a particle has 4 edges.
    std::vector<std::array<std::uint32_t, 2>> edges;
    for (std::uint32_t y = 0; y < 32; ++y)
        for (std::uint32_t x = 0; x < 32; ++x) {
            if (x + 1 < 32) edges.push_back({y * 32 + x, y * 32 + x + 1});
            if (y + 1 < 32) edges.push_back({y * 32 + x, (y + 1) * 32 + x});
        }
    detail::orderSweep(32 * 32, edges.size(), [&](std::size_t r) { return edges[r]; }, levels);
    CHECK(levels.levelStart.size() - 1 <= 7); // greedy needs at most 2 * 4 - 1
}

TEST_CASE("a sweep cut into blocks: each block's rows inside its particles, the boundary rows after, the same bits in any block order",
          "[particles]") {
    // sweep_levels.hpp: a 32 x 32 grid's edges and diagonals (as a cloth's stretch and
    // shear links) cut into 4 blocks of particles.
    std::vector<std::array<std::uint32_t, 2>> edges;
    for (std::uint32_t y = 0; y < 32; ++y)
        for (std::uint32_t x = 0; x < 32; ++x) {
            if (x + 1 < 32) edges.push_back({y * 32 + x, y * 32 + x + 1});
            if (y + 1 < 32) edges.push_back({y * 32 + x, (y + 1) * 32 + x});
            if (x + 1 < 32 && y + 1 < 32) edges.push_back({y * 32 + x, (y + 1) * 32 + x + 1});
        }
    const auto particlesOf = [&](std::size_t r) { return edges[r]; };
    CHECK(detail::sweepBlocks(2047) == 1);
    CHECK(detail::sweepBlocks(2048) == 2);
    CHECK(detail::sweepBlocks(8192) == 4);
    detail::SweepLevels plain, cut;
    detail::orderSweep(32 * 32, edges.size(), particlesOf, plain); // one block: the plain colouring (the test above)
    REQUIRE(plain.blockCount() == 1);
    detail::orderSweep(32 * 32, edges.size(), particlesOf, cut, 4);
    REQUIRE(cut.blockCount() == 4);
    REQUIRE(cut.blockLevels.size() == 6);
    REQUIRE(cut.blockLevels.back() == cut.levelStart.size() - 1);
    REQUIRE(std::is_sorted(cut.blockLevels.begin(), cut.blockLevels.end()));
    std::vector<std::uint32_t> sorted(cut.order);
    std::sort(sorted.begin(), sorted.end());
    for (std::size_t k = 0; k < edges.size(); ++k) REQUIRE(sorted[k] == k); // a permutation
    std::size_t boundary = 0;
    for (std::uint32_t b = 0; b <= 4; ++b)
        for (std::uint32_t l = cut.blockLevels[b]; l < cut.blockLevels[b + 1]; ++l) {
            std::vector<int> used(32 * 32, 0);
            for (std::uint32_t k = cut.levelStart[l]; k < cut.levelStart[l + 1]; ++k) {
                const auto& e = edges[cut.order[k]];
                for (const std::uint32_t i : e) REQUIRE(used[i]++ == 0); // a level shares no particle
                const bool inside = [&] {
                    for (std::uint32_t c = 0; c < 4; ++c)
                        if (e[0] >= cut.blockCut[c] && e[1] < cut.blockCut[c + 1]) return c == b;
                    return false;
                }();
                if (b < 4) REQUIRE(inside); // block b's rows lie within its particles
                else {
                    REQUIRE_FALSE(inside); // a boundary row crosses a cut
                    ++boundary;
                }
            }
        }
    // A cut crosses about one grid row's verticals and diagonals (63 links), of 2945.
    CHECK(boundary > 3 * 60);
    CHECK(boundary < 3 * 70);
    for (std::uint32_t b = 0; b < 4; ++b) {
        const std::uint32_t rows = cut.levelStart[cut.blockLevels[b + 1]] - cut.levelStart[cut.blockLevels[b]];
        CHECK(rows > edges.size() / 5); // about a quarter each
    }
    // Blocks share no particle, so sweeping them in the other order (then the boundary)
    // gives the same bits.
    const auto sweep = [&](const std::vector<std::uint32_t>& order) {
        std::vector<real> x(32 * 32);
        for (std::size_t i = 0; i < x.size(); ++i) x[i] = real(0.01) * static_cast<real>(i) + 1;
        for (int pass = 0; pass < 3; ++pass)
            for (const std::uint32_t r : order) {
                const real s = std::sqrt(x[edges[r][0]]) * real(0.7) + std::sqrt(x[edges[r][1]]);
                for (const std::uint32_t i : edges[r]) x[i] = x[i] * real(0.9) + s / static_cast<real>(r + 3);
            }
        return x;
    };
    std::vector<std::uint32_t> blocksBackwards;
    for (std::uint32_t b = 4; b-- > 0;)
        blocksBackwards.insert(blocksBackwards.end(), cut.order.begin() + cut.levelStart[cut.blockLevels[b]],
                               cut.order.begin() + cut.levelStart[cut.blockLevels[b + 1]]);
    blocksBackwards.insert(blocksBackwards.end(), cut.order.begin() + cut.levelStart[cut.blockLevels[4]], cut.order.end());
    REQUIRE(blocksBackwards.size() == cut.order.size());
    const std::vector<real> forward = sweep(cut.order), other = sweep(blocksBackwards);
    for (std::size_t i = 0; i < forward.size(); ++i) REQUIRE(std::memcmp(&forward[i], &other[i], sizeof(real)) == 0);
    // The plain colouring's order is another sweep: not the same bits.
    const std::vector<real> plainSweep = sweep(plain.order);
    CHECK(std::memcmp(plainSweep.data(), forward.data(), forward.size() * sizeof(real)) != 0);

    // Swept on 1 to 4 threads (sweepLevels: a share per block, then the boundary), the
    // bits of the sweep in the pack's order; and so with the particles' slots shuffled,
    // where most rows cross a cut and the boundary's colours are shared among the
    // workers instead (planBlocks' fallback).
    std::vector<std::uint32_t> shuffled(32 * 32);
    for (std::uint32_t i = 0; i < shuffled.size(); ++i) shuffled[i] = i;
    std::shuffle(shuffled.begin(), shuffled.end(), std::mt19937(8));
    for (const bool scattered : {false, true}) {
        INFO((scattered ? "slots shuffled" : "slots in grid order"));
        std::vector<std::array<std::uint32_t, 2>> links = edges;
        if (scattered)
            for (auto& e : links) e = {shuffled[e[0]], shuffled[e[1]]};
        detail::SweepLevels levels;
        detail::orderSweep(32 * 32, links.size(), [&](std::size_t r) { return links[r]; }, levels, 4);
        const std::uint32_t crossing = levels.levelStart.back() - levels.levelStart[levels.blockLevels[4]];
        CHECK((4 * crossing > links.size()) == scattered);
        const auto threaded = [&](TaskSystem* tasks) {
            std::vector<real> x(32 * 32);
            for (std::size_t i = 0; i < x.size(); ++i) x[i] = real(0.01) * static_cast<real>(i) + 1;
            const auto lowest = [&](std::size_t k) { return std::min(links[levels.order[k]][0], links[levels.order[k]][1]); };
            for (int pass = 0; pass < 3; ++pass)
                detail::sweepLevels(tasks, levels, 8, lowest, [&](std::size_t begin, std::size_t end) {
                    for (std::size_t k = begin; k < end; ++k) {
                        const std::uint32_t r = levels.order[k];
                        const real s = std::sqrt(x[links[r][0]]) * real(0.7) + std::sqrt(x[links[r][1]]);
                        for (const std::uint32_t i : links[r]) x[i] = x[i] * real(0.9) + s / static_cast<real>(r + 3);
                    }
                });
            return x;
        };
        const std::vector<real> serial = threaded(nullptr);
        for (const std::uint32_t threads : {1u, 2u, 3u, 4u}) {
            ThreadPool pool(threads);
            for (int run = 0; run < 5; ++run) {
                const std::vector<real> x = threaded(&pool);
                REQUIRE(std::memcmp(x.data(), serial.data(), x.size() * sizeof(real)) == 0);
            }
        }
    }
}

using testing::atEverySimdWidth;

TEST_CASE("distance rows: every SIMD width sweeps the bits of the plain sweep in the pack's order, coincident particles kept",
          "[particles]") {
    // physics/particles/distance_kernel.hpp: 60 particles, two pinned, ten pairs exactly
    // on top of each other (a lane with no direction: it must keep its values and not
    // divide by zero, which traps here), 400 random links with and without compliance.
    // Each width must give the bits of the scalar code below, row by row in the pack's order.
    World w;
    std::mt19937 rng(11);
    std::uniform_real_distribution<real> coordinate(-1, 1);
    std::vector<ParticleId> ids;
    for (int i = 0; i < 60; ++i) {
        const Vec3 at = i >= 50 ? w.particle(ids[static_cast<std::size_t>(i - 50)]).position
                                : Vec3(coordinate(rng), coordinate(rng), coordinate(rng));
        ids.push_back(addParticle(w, at, real(0.1) + real(0.05) * static_cast<real>(i % 7), i < 2));
    }
    std::uniform_int_distribution<std::size_t> pick(0, 59);
    for (std::size_t i = 50; i < 60; ++i) w.createDistanceConstraint({ids[i - 50], ids[i], real(0.2), 0});
    for (int k = 0; k < 400; ++k) {
        const std::size_t a = pick(rng), b = pick(rng);
        if (a == b) continue;
        w.createDistanceConstraint({ids[a], ids[b], real(0.5) + coordinate(rng) * real(0.3), k % 3 == 0 ? real(1e-4) : 0});
    }
    const ParticleSystem& ps = w.particles();
    const real h = real(1) / 600;
    for (const ParticleSolver solver : {ParticleSolver::XPBD, ParticleSolver::PBD}) {
        ParticleSettings settings;
        settings.solver = solver;
        INFO((solver == ParticleSolver::PBD ? "PBD" : "XPBD"));
        detail::DistanceRows compliant, rows; // rows: the rigid set
        detail::packDistances(ps, settings, h, {}, compliant, rows);
        // XPBD's rows of compliance > 0 in the first set, the others in the second; PBD's
        // all in the second.
        // (A link between the two pinned particles is packed in neither: nothing moves.)
        std::size_t movable = 0, withCompliance = 0;
        for (std::size_t k = 0; k < ps.distances.slotCount(); ++k) {
            const DistanceConstraint& d = ps.distances.atSlot(k);
            if (ps.w[d.a] + ps.w[d.b] == 0) continue;
            ++movable;
            withCompliance += d.compliance > 0;
        }
        CHECK(withCompliance > 100);
        CHECK(compliant.size() == (solver == ParticleSolver::PBD ? 0 : withCompliance));
        CHECK(compliant.size() + rows.size() == movable);
        for (const std::uint32_t slot : compliant.slot) CHECK(ps.distances.atSlot(slot).compliance > 0);
        if (solver == ParticleSolver::XPBD)
            for (const std::uint32_t slot : rows.slot) CHECK(ps.distances.atSlot(slot).compliance == 0);
        // The plain sweep: project_constraints.cpp's arithmetic, one row at a time in the
        // packs' order (the compliant set, then the rigid set; each colour by colour,
        // sweep_levels.hpp).
        std::vector<std::uint32_t> sweepOrder(compliant.slot.begin(), compliant.slot.end());
        sweepOrder.insert(sweepOrder.end(), rows.slot.begin(), rows.slot.end());
        std::vector<Vec3> plain(ps.x.begin(), ps.x.end());
        std::vector<real> lambda(ps.distances.slotCount(), 0);
        const real k = 1 - std::pow(1 - settings.pbdStiffness, real(1) / static_cast<real>(settings.iterations));
        for (int sweep = 0; sweep < 3; ++sweep)
            for (const std::uint32_t slot : sweepOrder) {
                const DistanceConstraint& d = ps.distances.atSlot(slot);
                const real wa = ps.w[d.a], wb = ps.w[d.b];
                if (wa + wb == 0) continue;
                const Vec3 delta = plain[d.a] - plain[d.b];
                const real length = delta.norm();
                if (!(length > real(1e-12))) continue;
                const Vec3 n = delta * (1 / length);
                const real c = length - d.restLength, alphaTilde = d.compliance / (h * h);
                const real dlambda = solver == ParticleSolver::PBD ? -c * (k / (wa + wb))
                                                                   : (-c - alphaTilde * lambda[slot]) * (1 / (wa + wb + alphaTilde));
                lambda[slot] += dlambda;
                plain[d.a] += n * (wa * dlambda);
                plain[d.b] -= n * (wb * dlambda);
            }
        std::size_t widest = 0;
        for (std::size_t l = 0; l + 1 < rows.levels.levelStart.size(); ++l)
            widest = std::max<std::size_t>(widest, rows.levels.levelStart[l + 1] - rows.levels.levelStart[l]);
        CHECK(widest >= 8); // full registers at every width
#if defined(__x86_64__)
        // The SIMD files are built (a lost -mavx2 would leave the AVX2 pass testing the
        // scalar code).
        CHECK(detail::sse2DistanceLanes().width == static_cast<int>(16 / sizeof(real)));
        if (simdLevel() == SimdLevel::Avx2) CHECK(detail::avx2DistanceLanes().width == static_cast<int>(32 / sizeof(real)));
#endif
        atEverySimdWidth([&] {
            std::vector<Vec3> p(ps.x.begin(), ps.x.end());
            for (detail::DistanceRows* set : {&compliant, &rows}) std::fill(set->lambda.begin(), set->lambda.end(), real(0));
            for (int sweep = 0; sweep < 3; ++sweep) {
                detail::projectDistances(p, compliant);
                detail::projectDistances(p, rows);
            }
            return p;
        }, [&](const std::vector<Vec3>& p) {
            for (std::size_t i = 0; i < p.size(); ++i) REQUIRE(std::memcmp(p[i].data(), plain[i].data(), sizeof(Vec3)) == 0);
            for (const detail::DistanceRows* set : {&compliant, &rows})
                for (std::size_t r = 0; r < set->size(); ++r)
                    REQUIRE(std::memcmp(&set->lambda[r], &lambda[set->slot[r]], sizeof(real)) == 0);
        });
    }
    // Packed again, rows that did not change keep their arrays; a changed mass, rest
    // length, compliance or pair of particles, or a row taken by the direct solver, is
    // packed afresh: every array as a fresh pack's, bit for bit.
    const auto sameBits = [](const auto& x, const auto& y) {
        return x.size() == y.size() && std::memcmp(x.data(), y.data(), x.size() * sizeof(x[0])) == 0;
    };
    const auto expectSamePack = [&](const detail::DistanceRows& reused, const detail::DistanceRows& fresh) {
        CHECK(sameBits(reused.a, fresh.a));
        CHECK(sameBits(reused.b, fresh.b));
        CHECK(sameBits(reused.slot, fresh.slot));
        CHECK(sameBits(reused.wa, fresh.wa));
        CHECK(sameBits(reused.wb, fresh.wb));
        CHECK(sameBits(reused.restLength, fresh.restLength));
        CHECK(sameBits(reused.alphaTilde, fresh.alphaTilde));
        CHECK(sameBits(reused.scale, fresh.scale));
        CHECK(sameBits(reused.levels.order, fresh.levels.order));
        CHECK(sameBits(reused.levels.levelStart, fresh.levels.levelStart));
    };
    const auto expectFreshPack = [&](const ParticleSystem& system, const std::vector<std::uint8_t>& direct,
                                     detail::DistanceRows& reusedCompliant, detail::DistanceRows& reusedRigid) {
        detail::packDistances(system, ParticleSettings{}, h, direct, reusedCompliant, reusedRigid);
        detail::DistanceRows freshCompliant, freshRigid;
        detail::packDistances(system, ParticleSettings{}, h, direct, freshCompliant, freshRigid);
        expectSamePack(reusedCompliant, freshCompliant);
        expectSamePack(reusedRigid, freshRigid);
    };
    detail::DistanceRows rows, compliantRows;
    detail::packDistances(ps, ParticleSettings{}, h, {}, compliantRows, rows);
    expectFreshPack(ps, {}, compliantRows, rows); // unchanged
    ParticleSystem changed = ps;
    changed.w[7] *= 2;
    changed.distances.atSlot(30).restLength = real(0.75);
    REQUIRE(changed.distances.atSlot(5).compliance == 0);
    changed.distances.atSlot(5).compliance = real(2e-4); // from the rigid set to the compliant one
    const std::size_t rigidBefore = rows.size(), compliantBefore = compliantRows.size();
    expectFreshPack(changed, {}, compliantRows, rows);
    CHECK(rows.size() == rigidBefore - 1);
    CHECK(compliantRows.size() == compliantBefore + 1);
    REQUIRE(changed.distances.atSlot(compliantRows.slot[0]).compliance == real(1e-4));
    changed.distances.atSlot(compliantRows.slot[0]).compliance = real(3e-4); // stays in the compliant set
    expectFreshPack(changed, {}, compliantRows, rows);
    CHECK(compliantRows.size() == compliantBefore + 1);
    CHECK(std::count(compliantRows.alphaTilde.begin(), compliantRows.alphaTilde.end(), real(3e-4) / (h * h)) == 1);
    CHECK(std::count(rows.wa.begin(), rows.wa.end(), changed.w[7]) + std::count(rows.wb.begin(), rows.wb.end(), changed.w[7]) > 0);
    ParticleSystem moved = changed; // the same number of rows, one between other particles
    DistanceConstraint& link = moved.distances.atSlot(40);
    link.b = link.a == 20 ? 21 : 20;
    expectFreshPack(moved, {}, compliantRows, rows);
    std::vector<std::uint8_t> direct(moved.distances.slotCount(), 0);
    direct[41] = 1;
    expectFreshPack(moved, direct, compliantRows, rows);
    // Under PBD (every row in the rigid set, compliance or not): the scales k' / (wa + wb).
    ParticleSettings pbd;
    pbd.solver = ParticleSolver::PBD;
    detail::packDistances(moved, pbd, h, direct, compliantRows, rows);
    CHECK(compliantRows.size() == 0); // PBD: every row in the rigid set
    detail::DistanceRows freshPbd;
    detail::packDistances(moved, pbd, h, direct, compliantRows, freshPbd);
    CHECK(sameBits(rows.scale, freshPbd.scale));
    CHECK(rows.scale[0] == Approx(detail::pbdStiffnessPerIteration(pbd) / (rows.wa[0] + rows.wb[0])));
    // Another k' (more iterations) with the same listing, then back to XPBD.
    pbd.iterations = 5;
    detail::packDistances(moved, pbd, h, direct, compliantRows, rows);
    CHECK(rows.scale[0] == Approx(detail::pbdStiffnessPerIteration(pbd) / (rows.wa[0] + rows.wb[0])));
    detail::DistanceRows freshFive;
    detail::packDistances(moved, pbd, h, direct, compliantRows, freshFive);
    CHECK(sameBits(rows.scale, freshFive.scale));
    detail::packDistances(moved, ParticleSettings{}, h, direct, compliantRows, rows);
    detail::DistanceRows freshXpbd;
    detail::packDistances(moved, ParticleSettings{}, h, direct, compliantRows, freshXpbd);
    CHECK(sameBits(rows.scale, freshXpbd.scale));
    CHECK(rows.scale[0] == Approx(1 / (rows.wa[0] + rows.wb[0] + rows.alphaTilde[0])));
    // Every link rigid: XPBD and PBD list the same rows, so a switch of solver keeps the
    // pack and computes its scales again.
    ParticleSystem rigidOnly = moved;
    for (std::size_t k = 0; k < rigidOnly.distances.slotCount(); ++k) rigidOnly.distances.atSlot(k).compliance = 0;
    detail::packDistances(rigidOnly, ParticleSettings{}, h, direct, compliantRows, rows);
    CHECK(compliantRows.size() == 0);
    const std::vector<std::uint32_t> orderBefore = rows.levels.order;
    detail::packDistances(rigidOnly, pbd, h, direct, compliantRows, rows);
    CHECK(sameBits(rows.levels.order, orderBefore));
    detail::DistanceRows freshRigidPbd;
    detail::packDistances(rigidOnly, pbd, h, direct, compliantRows, freshRigidPbd);
    CHECK(sameBits(rows.scale, freshRigidPbd.scale));
    CHECK(rows.scale[0] == Approx(detail::pbdStiffnessPerIteration(pbd) / (rows.wa[0] + rows.wb[0])));
    detail::packDistances(rigidOnly, ParticleSettings{}, h, direct, compliantRows, rows);
    CHECK(rows.scale[0] == Approx(1 / (rows.wa[0] + rows.wb[0])));
}

TEST_CASE("small constraints: every SIMD width sweeps the bits of the plain sweep in the pack's order, weightless rows kept",
          "[particles]") {
    // physics/particles/small_kernel.hpp: tetrahedra and isometric bending stencils in
    // SIMD lanes, dihedral bending and triangle areas one at a time among them, level by
    // level. Weightless rows must keep their lanes' values and divide by nothing (a
    // division by zero traps here): a tetrahedron of four pinned particles, and bending
    // stencils lying flat (no gradient); so must the lanes past a level's end in its
    // last, part-full register. Each width must give the bits of the scalar code
    // below, one constraint at a time in the pack's order.
    World w;
    std::mt19937 rng(5);
    std::uniform_real_distribution<real> coordinate(-1, 1);
    std::vector<ParticleId> ids;
    constexpr int count = 1000;
    for (int i = 0; i < count; ++i) {
        const real y = i >= count - 16 ? real(0) : coordinate(rng); // the last 16 on one plane
        ids.push_back(addParticle(w, Vec3(coordinate(rng), y, coordinate(rng)), real(0.1) + real(0.05) * static_cast<real>(i % 7), i < 4));
    }
    using Kind = ParticleConstraintKind;
    w.createParticleConstraint({Kind::TetVolume, {ids[0], ids[1], ids[2], ids[3]}, real(0.1), 0});
    for (int i = count - 16; i < count; i += 4)
        w.createParticleConstraint({Kind::IsometricBending, {ids[static_cast<std::size_t>(i)], ids[static_cast<std::size_t>(i + 1)],
                                                             ids[static_cast<std::size_t>(i + 2)], ids[static_cast<std::size_t>(i + 3)]}, 0, 0});
    std::uniform_int_distribution<std::size_t> pick(0, count - 1);
    const Kind kinds[] = {Kind::TetVolume, Kind::IsometricBending, Kind::TetVolume, Kind::IsometricBending, Kind::Bending, Kind::TriangleArea};
    for (int k = 0; k < 720; ++k) {
        std::array<std::size_t, 4> at{};
        for (std::size_t i = 0; i < 4; ++i) {
            do at[i] = pick(rng);
            while (std::find(at.begin(), at.begin() + static_cast<std::ptrdiff_t>(i), at[i]) != at.begin() + static_cast<std::ptrdiff_t>(i));
        }
        const Kind kind = kinds[k % 6];
        const real rest = kind == Kind::TetVolume ? real(0.05) * coordinate(rng) : kind == Kind::Bending ? real(0.3) : real(0.1);
        w.createParticleConstraint({kind, {ids[at[0]], ids[at[1]], ids[at[2]], ids[at[3]]}, kind == Kind::IsometricBending ? 0 : rest,
                                    k % 3 == 0 ? real(1e-4) : 0});
    }
    const ParticleSystem& ps = w.particles();
    const real h = real(1) / 600;
    for (const ParticleSolver solver : {ParticleSolver::XPBD, ParticleSolver::PBD}) {
        ParticleSettings settings;
        settings.solver = solver;
        INFO((solver == ParticleSolver::PBD ? "PBD" : "XPBD"));
        detail::SmallRows rows;
        detail::packSmallConstraints(ps, settings, h, rows);
        // The plain sweep: project_small_constraints.cpp's arithmetic, one constraint at a
        // time in the pack's order (colour by colour, sweep_levels.hpp).
        std::vector<Vec3> plain(ps.x.begin(), ps.x.end());
        std::vector<real> lambda(ps.constraints.slotCount(), 0);
        REQUIRE(rows.sequence.size() == ps.constraints.size());
        for (int sweep = 0; sweep < 3; ++sweep)
            for (const std::uint32_t slot : rows.sequence) {
                const ParticleConstraint& k = ps.constraints.atSlot(slot);
                std::array<Vec3, 4> x, grad;
                for (std::size_t i = 0; i < 4; ++i) x[i] = plain[k.p[i]];
                real value = 0;
                if (!detail::constraintValue(k, x, value, grad)) continue;
                real weights = 0;
                for (std::size_t i = 0; i < k.count; ++i) weights += ps.w[k.p[i]] * grad[i].squaredNorm();
                if (!(weights > real(1e-12) * real(1e-12))) continue;
                const real dlambda = detail::multiplierChange(value, weights, k.compliance, lambda[slot], settings, h);
                lambda[slot] += dlambda;
                for (std::size_t i = 0; i < k.count; ++i) plain[k.p[i]] += grad[i] * (ps.w[k.p[i]] * dlambda);
            }
        std::size_t widestTets = 0, widestBends = 0, others = 0, partFullTets = 0, partFullBends = 0;
        for (std::size_t l = 0; l < rows.tetEnd.size(); ++l) {
            // An odd count leaves a register part full at every width (2, 4, 8 lanes).
            partFullTets += (rows.tetEnd[l] - rows.levelStart[l]) % 2 != 0;
            partFullBends += (rows.bendEnd[l] - rows.tetEnd[l]) % 2 != 0;
            widestTets = std::max<std::size_t>(widestTets, rows.tetEnd[l] - rows.levelStart[l]);
            widestBends = std::max<std::size_t>(widestBends, rows.bendEnd[l] - rows.tetEnd[l]);
            others += rows.levelStart[l + 1] - rows.bendEnd[l];
        }
        CHECK(widestTets >= 16); // two full registers at every width
        CHECK(widestBends >= 16);
        CHECK(others >= 200);
        CHECK(partFullTets >= 2);
        CHECK(partFullBends >= 2);
#if defined(__x86_64__)
        CHECK(detail::sse2SmallLanes().width == static_cast<int>(16 / sizeof(real)));
        if (simdLevel() == SimdLevel::Avx2) CHECK(detail::avx2SmallLanes().width == static_cast<int>(32 / sizeof(real)));
#endif
        atEverySimdWidth([&] {
            ParticleSystem copy = ps;
            copy.p.assign(ps.x.begin(), ps.x.end());
            std::fill(rows.lambda.begin(), rows.lambda.end(), real(0));
            for (int sweep = 0; sweep < 3; ++sweep) detail::projectSmallConstraints(copy, settings, h, rows);
            detail::storeSmallMultipliers(copy, rows);
            return copy;
        }, [&](const ParticleSystem& copy) {
            for (std::size_t i = 0; i < plain.size(); ++i) REQUIRE(std::memcmp(copy.p[i].data(), plain[i].data(), sizeof(Vec3)) == 0);
            for (std::size_t slot = 0; slot < lambda.size(); ++slot)
                REQUIRE(std::memcmp(&copy.constraints.atSlot(slot).lambda, &lambda[slot], sizeof(real)) == 0);
        });
    }
    // Packed again, an unchanged listing keeps the arrays; a changed mass, rest value,
    // compliance, bending coefficient or particle is packed afresh: every array as a
    // fresh pack's, bit for bit.
    const auto sameBits = [](const auto& x, const auto& y) {
        return x.size() == y.size() && std::memcmp(x.data(), y.data(), x.size() * sizeof(x[0])) == 0;
    };
    const ParticleSettings settings;
    const auto expectFreshPack = [&](const ParticleSystem& system, detail::SmallRows& reused, real step) {
        detail::packSmallConstraints(system, settings, step, reused);
        detail::SmallRows fresh;
        detail::packSmallConstraints(system, settings, step, fresh);
        CHECK(sameBits(reused.sequence, fresh.sequence));
        CHECK(sameBits(reused.levelStart, fresh.levelStart));
        CHECK(sameBits(reused.tetEnd, fresh.tetEnd));
        CHECK(sameBits(reused.bendEnd, fresh.bendEnd));
        for (std::size_t i = 0; i < 4; ++i) {
            CHECK(sameBits(reused.p[i], fresh.p[i]));
            CHECK(sameBits(reused.w[i], fresh.w[i]));
            CHECK(sameBits(reused.c[i], fresh.c[i]));
        }
        CHECK(sameBits(reused.rest, fresh.rest));
        CHECK(sameBits(reused.alphaTilde, fresh.alphaTilde));
    };
    detail::SmallRows rows;
    detail::packSmallConstraints(ps, settings, h, rows);
    const std::vector<std::uint32_t> firstSequence = rows.sequence;
    expectFreshPack(ps, rows, h); // unchanged
    ParticleSystem changed = ps;
    // Slots 1-4 are the flat stencils, then the kinds in turn from slot 5: tetrahedra at
    // 17 and 29, an isometric stencil at 18.
    REQUIRE(changed.constraints.atSlot(17).kind == ParticleConstraintKind::TetVolume);
    REQUIRE(changed.constraints.atSlot(18).kind == ParticleConstraintKind::IsometricBending);
    REQUIRE(changed.constraints.atSlot(29).kind == ParticleConstraintKind::TetVolume);
    const std::uint32_t tetParticle = changed.constraints.atSlot(1).p[2];
    // One change at a time: each alone must bring a fresh pack.
    changed.w[changed.constraints.atSlot(17).p[1]] *= 2;
    expectFreshPack(changed, rows, h);
    changed.constraints.atSlot(17).rest = real(0.02);
    expectFreshPack(changed, rows, h);
    changed.constraints.atSlot(18).compliance = real(3e-4);
    expectFreshPack(changed, rows, h);
    changed.constraints.atSlot(1).c[2] = real(0.5);
    expectFreshPack(changed, rows, h);
    CHECK(std::count(rows.rest.begin(), rows.rest.end(), real(0.02)) == 1);
    CHECK(std::count(rows.c[2].begin(), rows.c[2].end(), real(0.5)) == 1);
    CHECK(std::count(rows.alphaTilde.begin(), rows.alphaTilde.end(), real(3e-4) / (h * h)) == 1);
    ParticleSystem moved = changed; // one tetrahedron between other particles: a new order
    ParticleConstraint& tet = moved.constraints.atSlot(29);
    tet.p[0] = tet.p[0] == tetParticle ? tetParticle + 1 : tetParticle;
    expectFreshPack(moved, rows, h);
    CHECK(!sameBits(rows.sequence, firstSequence));
    const std::vector<real> alphaBefore = rows.alphaTilde;
    expectFreshPack(moved, rows, h / 2); // another constraint step: alpha~ = compliance / h^2 again
    CHECK(!sameBits(rows.alphaTilde, alphaBefore));
}

TEST_CASE("pair contacts: every SIMD width projects, pre-stabilises and bounces with the bits of one at a time in colour order, coincident and pinned pairs kept",
          "[particles]") {
    // physics/particles/pair_kernel.hpp: 70 particles of radius 0.05-0.11 in a 0.6 m
    // box (most pairs overlap, many do not), three pinned (a pinned pair moves nothing);
    // ten pairs exactly on top of each other, a metre apart (no direction: the
    // contact's own normal, and no division by zero, which traps here); friction from 0
    // to 1 so pairs stick, slide and slide the whole way. Each width must give the bits of the scalar code
    // below, contact by contact in the colour order, over three sweeps.
    World w;
    std::mt19937 rng(5);
    std::uniform_real_distribution<real> coordinate(real(-0.3), real(0.3)), unit(0, 1);
    std::vector<ParticleId> ids;
    for (int i = 0; i < 90; ++i) {
        ParticleDesc d;
        d.position = i >= 80   ? w.particle(ids[static_cast<std::size_t>(i - 10)]).position
                     : i >= 70 ? Vec3(real(2) + static_cast<real>(i - 70), 0, 0)
                               : Vec3(coordinate(rng), coordinate(rng), coordinate(rng));
        if (i == 23) d.position = w.particle(ids[3]).position + Vec3(real(0.05), 0, 0); // two pinned, overlapping
        d.mass = real(0.01) + real(0.01) * static_cast<real>(i % 5);
        d.radius = real(0.05) + real(0.01) * static_cast<real>(i % 7);
        d.pinned = i % 20 == 3 && i < 70;
        d.staticFriction = unit(rng);
        d.kineticFriction = d.staticFriction * unit(rng);
        ids.push_back(w.createParticle(d));
    }
    ParticleSystem ps = w.particles();
    std::vector<detail::PairContact> contacts;
    for (std::uint32_t a = 0; a < 90; ++a)
        for (std::uint32_t b = a + 1; b < 90; ++b) {
            if ((ps.x[a] - ps.x[b]).norm() > 3 * (ps.radius[a] + ps.radius[b])) continue;
            detail::PairContact c;
            c.a = ids[a].index;
            c.b = ids[b].index;
            c.n = Vec3(unit(rng), 1, unit(rng)).normalized();
            c.staticFriction = std::sqrt(ps.staticFriction[c.a] * ps.staticFriction[c.b]);
            c.kineticFriction = std::sqrt(ps.kineticFriction[c.a] * ps.kineticFriction[c.b]);
            c.restitution = unit(rng) < real(0.4) ? 0 : unit(rng);
            c.normalVelocity = 2 * unit(rng) - real(1.4); // closing at up to 1.4 m/s, some opening
            if (a == 3 && b == 23) { // the two pinned particles: it bounces, with no weight to move
                c.restitution = real(0.5);
                c.normalVelocity = -1;
            }
            contacts.push_back(c);
        }
    detail::SweepLevels levels;
    std::vector<detail::PairContact> scratch;
    detail::PairRows rows;
    detail::orderPairContacts(ps.slotCount(), contacts, levels, scratch, rows);
    // The small step's start x and its predicted p (each particle moved a little).
    std::uniform_real_distribution<real> nudge(real(-0.02), real(0.02));
    ps.p = ps.x;
    for (std::size_t i = 0; i < 80; ++i) ps.p[i] += Vec3(nudge(rng), nudge(rng), nudge(rng));
    for (std::size_t i = 80; i < 90; ++i) ps.p[i] = ps.p[i - 10]; // still on top of each other
    const std::vector<Vec3> start = ps.p;
    // The plain projection, one contact at a time in the colour order.
    std::vector<Vec3> plain = start;
    int touched = 0, stuck = 0, slid = 0, undirected = 0;
    for (int sweep = 0; sweep < 3; ++sweep)
        for (const detail::PairContact& c : contacts) {
            const real wa = ps.w[c.a], wb = ps.w[c.b], total = wa + wb;
            if (!(total > 0)) continue;
            const Vec3 d = plain[c.a] - plain[c.b];
            const real length = d.norm();
            const real value = length - (ps.radius[c.a] + ps.radius[c.b]);
            if (value >= 0) continue;
            ++touched;
            undirected += !(length > real(1e-12));
            const Vec3 n = length > real(1e-12) ? Vec3(d / length) : c.n;
            plain[c.a] -= n * (value * wa / total);
            plain[c.b] += n * (value * wb / total);
            const Vec3 dx = (plain[c.a] - ps.x[c.a]) - (plain[c.b] - ps.x[c.b]);
            const Vec3 t = dx - n * dx.dot(n);
            const real tangential = t.norm();
            Vec3 f = Vec3::Zero();
            if (tangential < c.staticFriction * -value) {
                f = t;
                ++stuck;
            } else if (tangential > 0) {
                f = t * std::min(c.kineticFriction * -value / tangential, real(1));
                ++slid;
            }
            plain[c.a] -= f * (wa / total);
            plain[c.b] += f * (wb / total);
        }
    INFO(contacts.size() << " contacts, " << touched << " projections, " << stuck << " stuck, " << slid << " slid, "
                         << undirected << " with no direction");
    CHECK(touched > 100);
    CHECK(undirected == 10); // each in the first sweep (nothing else touches them)
    CHECK(stuck > 20);
    CHECK(slid > 20);
    std::size_t widest = 0;
    for (std::size_t l = 0; l + 1 < levels.levelStart.size(); ++l)
        widest = std::max<std::size_t>(widest, levels.levelStart[l + 1] - levels.levelStart[l]);
    CHECK(widest >= 8); // full registers at every width
#if defined(__x86_64__)
    CHECK(detail::sse2PairLanes().width == static_cast<int>(16 / sizeof(real)));
    if (simdLevel() == SimdLevel::Avx2) CHECK(detail::avx2PairLanes().width == static_cast<int>(32 / sizeof(real)));
#endif
    atEverySimdWidth([&] {
        ps.p = start;
        for (int sweep = 0; sweep < 3; ++sweep) detail::projectPairContacts(ps, rows, levels);
        return ps.p;
    }, [&](const std::vector<Vec3>& p) {
        for (std::size_t i = 0; i < p.size(); ++i) REQUIRE(std::memcmp(p[i].data(), plain[i].data(), sizeof(Vec3)) == 0);
    });
    // The pre-stabilisation of the overlaps at the start x (moving x and p alike), one
    // contact at a time in the colour order, against every width.
    std::vector<Vec3> plainX(ps.x.begin(), ps.x.end()), plainP = start;
    int pushed = 0;
    for (const detail::PairContact& c : contacts) {
        const real wa = ps.w[c.a], wb = ps.w[c.b], total = wa + wb;
        if (!(total > 0)) continue;
        const Vec3 d = plainX[c.a] - plainX[c.b];
        const real length = d.norm();
        const real overlap = ps.radius[c.a] + ps.radius[c.b] - length;
        if (!(overlap > 0)) continue;
        ++pushed;
        const Vec3 n = length > real(1e-12) ? Vec3(d / length) : c.n;
        const Vec3 moveA = n * (overlap * wa / total), moveB = n * (-overlap * wb / total);
        plainX[c.a] += moveA;
        plainP[c.a] += moveA;
        plainX[c.b] += moveB;
        plainP[c.b] += moveB;
    }
    CHECK(pushed > 50);
    const std::vector<Vec3> startX(ps.x.begin(), ps.x.end());
    atEverySimdWidth([&] {
        ps.x = startX;
        ps.p = start;
        detail::preStabilizePairs(ps, rows, levels);
        return std::pair{ps.x, ps.p};
    }, [&](const std::pair<std::vector<Vec3>, std::vector<Vec3>>& xp) {
        for (std::size_t i = 0; i < xp.first.size(); ++i) {
            REQUIRE(std::memcmp(xp.first[i].data(), plainX[i].data(), sizeof(Vec3)) == 0);
            REQUIRE(std::memcmp(xp.second[i].data(), plainP[i].data(), sizeof(Vec3)) == 0);
        }
    });
    // The bounce at the pre-stabilised positions (most pairs exactly touching; the ten
    // pairs on top of each other put back), from random velocities, one contact at a
    // time in the colour order against every width: velocities and the history flags it
    // clears.
    ps.x = plainX;
    for (std::size_t i = 80; i < 90; ++i) ps.x[i] = ps.x[i - 10];
    const std::vector<Vec3> bounceX(ps.x.begin(), ps.x.end());
    std::uniform_real_distribution<real> speed(-1, 1);
    for (Vec3& v : ps.v) v = Vec3(speed(rng), speed(rng), speed(rng));
    const std::vector<Vec3> startV = ps.v;
    const ParticleSettings settings;
    std::vector<Vec3> plainV = startV;
    std::vector<std::uint8_t> plainHistory(ps.slotCount(), 1);
    int bounced = 0, stopped = 0, weightless = 0, undirectedActs = 0;
    for (const detail::PairContact& c : contacts) {
        const Vec3 d = bounceX[c.a] - bounceX[c.b];
        const real reach = ps.radius[c.a] + ps.radius[c.b] + real(1e-6);
        if (d.squaredNorm() > reach * reach) continue;
        const Vec3 n = d.squaredNorm() > 0 ? Vec3(d.normalized()) : c.n;
        const real vn = (plainV[c.a] - plainV[c.b]).dot(n);
        const bool bounces = c.restitution > 0 && -c.normalVelocity >= settings.restitutionThreshold;
        const real change = (bounces ? -c.restitution * c.normalVelocity : 0) - vn;
        if (!bounces && change >= 0) continue;
        plainHistory[c.a] = plainHistory[c.b] = 0;
        undirectedActs += d.squaredNorm() == 0;
        const real wa = ps.w[c.a], wb = ps.w[c.b], total = wa + wb;
        weightless += !(total > 0);
        if (!(total > 0)) continue;
        (bounces ? bounced : stopped) += 1;
        plainV[c.a] += n * (change * wa / total);
        plainV[c.b] -= n * (change * wb / total);
    }
    INFO(bounced << " bounced, " << stopped << " stopped, " << weightless << " with no weight, " << undirectedActs
                   << " with no direction");
    CHECK(bounced > 20);
    CHECK(stopped > 20);
    CHECK(weightless >= 1);     // the pinned pair: its history flags cleared, nothing moved
    CHECK(undirectedActs >= 1); // the contact's own normal
    atEverySimdWidth([&] {
        ps.v = startV;
        std::fill(ps.hasHistory.begin(), ps.hasHistory.end(), std::uint8_t{1});
        detail::bouncePairs(ps, rows, levels, settings);
        return std::pair{ps.v, ps.hasHistory};
    }, [&](const std::pair<std::vector<Vec3>, std::vector<std::uint8_t>>& vh) {
        for (std::size_t i = 0; i < vh.first.size(); ++i)
            REQUIRE(std::memcmp(vh.first[i].data(), plainV[i].data(), sizeof(Vec3)) == 0);
        CHECK(vh.second == plainHistory);
    });
}

TEST_CASE("particle candidates: every pair of overlapping boxes from different groups, looked up by x", "[particles]") {
    // particle_proxies.cpp opens a grain-against-cloth pair by bisecting the cloth's
    // members ordered by x; the pairs must be exactly those a plain test of every two
    // boxes finds. Loose grains (group 0) over two 12 x 12 sheets (groups 1 and 2).
    std::mt19937 rng(8);
    std::uniform_real_distribution<real> u(-1, 1);
    ParticleSystem ps;
    const auto add = [&](const Vec3& x, std::uint32_t group, real radius) {
        ps.slots.insert('p');
        ps.x.push_back(x);
        ps.v.push_back(Vec3(u(rng), u(rng), u(rng)));
        ps.radius.push_back(radius);
        ps.group.push_back(group);
        ps.fatBox.emplace_back();
    };
    for (int i = 0; i < 12; ++i)
        for (int k = 0; k < 12; ++k) {
            add(Vec3(real(0.1) * i - real(0.6), real(0.02) * u(rng), real(0.1) * k - real(0.6)), 1, real(0.02));
            add(Vec3(real(0.1) * i - real(0.3), real(0.05) + real(0.02) * u(rng), real(0.1) * k - real(0.6)), 2, real(0.02));
        }
    for (int g = 0; g < 300; ++g) add(Vec3(u(rng), real(0.2) * u(rng), u(rng)), 0, real(0.01) + real(0.03) * std::abs(u(rng)));
    WorldSettings settings;
    // Three colliders' proxies come first, as in the world: a box under the sheets, one
    // across them and one off to the side.
    std::vector<BroadPhaseProxy> proxies(3);
    std::vector<ColliderId> proxyColliders(3);
    const Aabb colliderBoxes[] = {{Vec3(-2, real(-0.3), -2), Vec3(2, real(-0.02), 2)},
                                  {Vec3(real(-0.2), real(-0.1), real(-0.7)), Vec3(real(0.1), real(0.1), real(0.7))},
                                  {Vec3(real(0.8), real(-0.2), real(0.8)), Vec3(real(1.1), real(0.2), real(1.1))}};
    for (std::uint32_t c = 0; c < 3; ++c) {
        proxies[c].box = colliderBoxes[c];
        proxies[c].owner = 100 + c;
        proxyColliders[c] = ColliderId{c, 1};
    }
    ParticleCandidates candidates;
    detail::addParticleProxies(ps, settings, proxies, candidates, real(1) / 60);
    // The broad phase's pairs: every two overlapping proxies not of one non-zero group.
    std::vector<ProxyPair> pairs;
    for (std::uint32_t a = 0; a < proxies.size(); ++a)
        for (std::uint32_t b = a + 1; b < proxies.size(); ++b)
            if (proxies[a].box.overlaps(proxies[b].box) && (proxies[a].group == 0 || proxies[a].group != proxies[b].group))
                pairs.push_back({a, b});
    // Particle pairs first, so the sheets are already ordered by x when the colliders'
    // pairs come (the colliders then use the ordered lookup, not a pass over members).
    std::stable_partition(pairs.begin(), pairs.end(), [](const ProxyPair& p) { return p.a >= 3; });
    detail::particleCandidates(ps, proxies, proxyColliders, pairs, candidates);
    std::vector<std::pair<std::uint32_t, std::uint32_t>> found, expected;
    for (const ParticlePair& p : candidates.particles) found.emplace_back(p.a, p.b);
    for (std::uint32_t i = 0; i < ps.slotCount(); ++i)
        for (std::uint32_t j = i + 1; j < ps.slotCount(); ++j)
            if ((ps.group[i] == 0 || ps.group[i] != ps.group[j]) && ps.fatBox[i].overlaps(ps.fatBox[j])) expected.emplace_back(i, j);
    std::sort(found.begin(), found.end());
    CHECK(std::adjacent_find(found.begin(), found.end()) == found.end()); // no pair twice
    CHECK(found == expected);
    CHECK(expected.size() > 300); // the sheets and grains do overlap a lot
    // Particle against collider: every particle whose box overlaps the collider's, in
    // slot order.
    std::vector<std::pair<std::uint32_t, std::uint32_t>> shapesFound, shapesExpected;
    for (const ParticleShapePair& p : candidates.shapes) shapesFound.emplace_back(p.particle, p.collider.index);
    for (std::uint32_t i = 0; i < ps.slotCount(); ++i)
        for (std::uint32_t c = 0; c < 3; ++c)
            if (ps.fatBox[i].overlaps(colliderBoxes[c])) shapesExpected.emplace_back(i, c);
    CHECK(shapesFound == shapesExpected);
    CHECK(shapesExpected.size() > 100);
}

TEST_CASE("constraint gradients match finite differences", "[particles]") {
    const real step = tol(1e-6, 1e-3);
    for (const ParticleConstraintKind kind : {ParticleConstraintKind::Bending, ParticleConstraintKind::IsometricBending,
                                              ParticleConstraintKind::TetVolume, ParticleConstraintKind::TriangleArea}) {
        for (std::uint32_t trial = 0; trial < 20; ++trial) {
            // A bent stencil: the shared edge along z, wings either side, jittered.
            std::array<Vec3, 4> x = {Vec3(0, 0, 0), Vec3(0, 0, 1), Vec3(-1, 0, real(0.4)), Vec3(1, real(0.3), real(0.6))};
            for (std::uint32_t i = 0; i < 4; ++i)
                x[i] += real(0.2) * Vec3(jitter(trial * 12 + i * 3), jitter(trial * 12 + i * 3 + 1), jitter(trial * 12 + i * 3 + 2));
            ParticleConstraint k;
            k.kind = kind;
            k.count = kind == ParticleConstraintKind::TriangleArea ? 3 : 4;
            k.rest = real(0.1);
            k.c = detail::isometricBendingCoefficients({Vec3(0, 0, 0), Vec3(0, 0, 1), Vec3(-1, 0, real(0.4)), Vec3(1, 0, real(0.6))});
            real value = 0;
            std::array<Vec3, 4> grad;
            REQUIRE(detail::constraintValue(k, x, value, grad));
            real largest = 0;
            Vec3 force = Vec3::Zero(), torque = Vec3::Zero();
            for (std::size_t i = 0; i < static_cast<std::size_t>(k.count); ++i) {
                largest = std::max(largest, grad[i].norm());
                force += grad[i];
                torque += x[i].cross(grad[i]);
            }
            // No net force or torque (the constraint does not care where the group is or
            // how it is turned), which is what conserves momentum.
            CHECK(force.norm() <= tol(1e-12, 1e-5) * largest);
            CHECK(torque.norm() <= tol(1e-12, 1e-5) * largest);
            for (std::size_t i = 0; i < static_cast<std::size_t>(k.count); ++i)
                for (int axis = 0; axis < 3; ++axis) {
                    std::array<Vec3, 4> plus = x, minus = x, unused;
                    plus[i][axis] += step;
                    minus[i][axis] -= step;
                    real vp = 0, vm = 0;
                    REQUIRE(detail::constraintValue(k, plus, vp, unused));
                    REQUIRE(detail::constraintValue(k, minus, vm, unused));
                    INFO("kind " << static_cast<int>(kind) << " trial " << trial << " particle " << i << " axis " << axis);
                    CHECK(std::abs((vp - vm) / (2 * step) - grad[i][axis]) <= tol(1e-6, 2e-2) * largest);
                }
        }
    }
}

TEST_CASE("bending constraints: zero when flat, invariant under rigid motion, no net force or torque", "[particles]") {
    const std::array<Vec3, 4> flat = {Vec3(0, 0, 0), Vec3(0, 0, 1), Vec3(-1, 0, real(0.4)), Vec3(real(0.8), 0, real(0.7))};
    std::array<Vec3, 4> bent = flat;
    bent[3] = Vec3(real(0.6), real(0.5), real(0.7));
    const Quat turn(Eigen::AngleAxis<real>(real(0.7), Vec3(1, 2, 3).normalized()));
    for (const ParticleConstraintKind kind : {ParticleConstraintKind::Bending, ParticleConstraintKind::IsometricBending}) {
        ParticleConstraint k;
        k.kind = kind;
        k.c = detail::isometricBendingCoefficients(flat);
        real value = 0, moved = 0;
        std::array<Vec3, 4> grad, unused;
        REQUIRE(detail::constraintValue(k, flat, value, grad));
        CHECK(std::abs(value) < tol(1e-12, 1e-5));
        REQUIRE(detail::constraintValue(k, bent, value, grad));
        CHECK(std::abs(value) > real(0.1));
        std::array<Vec3, 4> elsewhere;
        for (std::size_t i = 0; i < 4; ++i) elsewhere[i] = turn * bent[i] + Vec3(3, -2, 5);
        REQUIRE(detail::constraintValue(k, elsewhere, moved, unused));
        CHECK(moved == Approx(value).epsilon(tol(1e-10, 1e-4)));
        Vec3 force = Vec3::Zero(), torque = Vec3::Zero();
        for (std::size_t i = 0; i < 4; ++i) {
            force += grad[i];
            torque += bent[i].cross(grad[i]);
        }
        CHECK(force.norm() < tol(1e-12, 1e-5));
        CHECK(torque.norm() < tol(1e-12, 1e-5));
    }
    // The dihedral angle is signed: folding the wing the other way changes its sign.
    ParticleConstraint k;
    k.kind = ParticleConstraintKind::Bending;
    std::array<Vec3, 4> other = bent, grad;
    other[3].y() = -other[3].y();
    real up = 0, down = 0;
    REQUIRE(detail::constraintValue(k, bent, up, grad));
    REQUIRE(detail::constraintValue(k, other, down, grad));
    CHECK(up == Approx(-down).epsilon(tol(1e-12, 1e-5)));
}

TEST_CASE("a bending hinge under gravity settles where its moment theta / alpha balances the weight's",
          "[particles]") {
    // Triangle (a, b, c) fixed, the wing d held at h from the hinge a-b by two rods,
    // free to swing about it. XPBD makes the bending constraint a spring of moment
    // -C / alpha about the hinge; the weight's moment is m g h cos(phi) at phi below
    // the horizontal, so at rest phi = alpha m g h cos(phi).
    const real alpha = real(0.1), mass = 1, h = real(0.5), g = real(9.81);
    WorldSettings s;
    s.gravity = Vec3(0, -g, 0);
    s.particles.substeps = 20;
    s.particles.damping = 2;
    s.sleep.enabled = false; // the last of the swing is below the sleep threshold
    World w(s);
    const ParticleId a = addParticle(w, Vec3(0, 0, 0), 1, true);
    const ParticleId b = addParticle(w, Vec3(0, 0, 1), 1, true);
    const ParticleId c = addParticle(w, Vec3(-1, 0, real(0.5)), 1, true);
    const ParticleId d = addParticle(w, Vec3(h, 0, real(0.5)), mass);
    w.createDistanceConstraint({a, d, -1, 0});
    w.createDistanceConstraint({b, d, -1, 0});
    ParticleConstraintDesc bend;
    bend.kind = ParticleConstraintKind::Bending;
    bend.particles = {a, b, c, d};
    bend.compliance = alpha;
    const ParticleConstraintId id = w.createParticleConstraint(bend);
    CHECK(w.particleConstraint(id).rest == Approx(0).margin(1e-6));
    for (int i = 0; i < 600; ++i) w.step(real(1) / 60);
    real phi = 0;
    for (int i = 0; i < 100; ++i) phi = alpha * mass * g * h * std::cos(phi);
    const Vec3 at = w.particle(d).position;
    const real measured = std::atan2(-at.y(), at.x());
    CHECK(measured == Approx(phi).epsilon(0.01));
    CHECK(std::abs(w.particleConstraintValue(id)) == Approx(phi).epsilon(0.01));
}

TEST_CASE("soft tet cube squashed flat recovers its volume within 2% in 2 s, no tet inverted after the first step",
          "[particles][scene]") {
    World w = worldWith(Vec3(0, real(-9.81), 0));
    addGround(w);
    SoftBoxDesc d;
    d.centre = Vec3(0, real(0.3), 0);
    d.halfExtents = Vec3(real(0.25), real(0.25), real(0.25));
    d.cells = 4;
    d.mass = 2;
    const SoftBox box = buildSoftBox(w, d);
    REQUIRE(box.particles.size() == 125);
    REQUIRE(box.tets.size() == 6 * 64);
    // Internal damping of the soft body: rigid-mode damping removes a share of the
    // particles' non-rigid velocity each small step (it keeps the momentum).
    ParticleClusterDesc damping;
    damping.particles = box.particles;
    damping.shapeStiffness = 0;
    damping.rigidDamping = real(0.2);
    w.createParticleCluster(damping);
    const real rest = totalTetVolume(w, box);
    CHECK(rest == Approx(0.125).epsilon(tol(1e-9, 1e-5)));
    // The surface the builder returns encloses the box (outward triangles).
    ParticleVolumeDesc surface;
    for (const auto& t : box.surface) surface.triangles.push_back({box.particles[t[0]], box.particles[t[1]], box.particles[t[2]]});
    const ParticleVolumeId hull = w.createParticleVolume(surface);
    CHECK(w.enclosedVolume(hull) == Approx(0.125).epsilon(tol(1e-9, 1e-5)));
    w.destroyParticleVolume(hull);

    // Squash it to a tenth of its height on the ground.
    const real bottom = w.particle(box.particles.front()).position.y();
    for (const ParticleId p : box.particles) {
        Vec3 at = w.particle(p).position;
        at.y() = real(0.05) + (at.y() - bottom) * real(0.1);
        w.setParticlePosition(p, at);
    }
    CHECK(totalTetVolume(w, box) == Approx(0.1 * rest).epsilon(tol(1e-6, 1e-4)));
    // The first step gives back 90 % of the volume at once: the particles leave at tens
    // of metres a second, and one tet in 384 may pass through itself on the way (it
    // did at this squash with one build's rounding and at none of 0.08, 0.099, 0.0999,
    // 0.1001, 0.101 or 0.12). From the second step on none may be turned over.
    int inverted = 0;
    for (int i = 0; i < 120; ++i) {
        w.step(real(1) / 60);
        if (i == 0) continue;
        for (const ParticleConstraintId t : box.tets) {
            const real rest0 = w.particleConstraint(t).rest;
            if ((w.particleConstraintValue(t) + rest0) * rest0 <= 0) ++inverted;
        }
    }
    CHECK(inverted == 0);
    CHECK(totalTetVolume(w, box) == Approx(rest).epsilon(0.02));
    // Incompressible tets give back the 90% they lost within a small step, so the cube
    // jumps (the lost volume over h becomes velocity); it must come back whole: every
    // edge within 2% of its rest length.
    for (const DistanceConstraintId e : box.edges) {
        const DistanceConstraint& c = w.distanceConstraint(e);
        const real length = (w.particles().x[c.a] - w.particles().x[c.b]).norm();
        CHECK(length == Approx(c.restLength).epsilon(0.02));
    }
}

TEST_CASE("balloon: keeps its volume within 1% under a box of 10x its weight, over-pressure 1.5 inflates it 1.5x",
          "[particles][scene][long]") {
    SECTION("a 5 kg box on a 0.5 kg balloon") {
        World w = worldWith(Vec3(0, real(-9.81), 0));
        addGround(w);
        BalloonDesc d;
        d.centre = Vec3(0, real(0.55), 0);
        d.radius = real(0.5);
        d.mass = real(0.5);
        const Balloon balloon = buildBalloon(w, d);
        REQUIRE(balloon.particles.size() == 642);
        const real rest = w.particleVolume(balloon.volume).restVolume;
        CHECK(rest == Approx(4.0 / 3 * std::numbers::pi * 0.125).epsilon(0.02)); // an inscribed polyhedron
        BodyDesc box;
        box.position = Vec3(0, real(1.3), 0);
        ColliderDesc c;
        c.shape = Box{Vec3(real(0.2), real(0.2), real(0.2))};
        c.density = real(5) / real(0.064);
        box.colliders.push_back(c);
        const BodyId crate = w.createBody(box);
        REQUIRE(w.body(crate).inverseMass == Approx(0.2));
        // The box lands, dents the balloon and bounces (the skin is elastic); a box on a
        // sphere is top-heavy, so after a few bounces it slides off (not asserted). Over
        // the first bounce, the squeeze is at its hardest (the impact adds to the weight).
        real lowest = 1e9, lowestBox = 1e9;
        for (int i = 0; i < 50; ++i) {
            w.step(real(1) / 60);
            lowest = std::min(lowest, w.enclosedVolume(balloon.volume) / rest);
            lowestBox = std::min(lowestBox, w.body(crate).position.y());
        }
        INFO("lowest V / V0 " << lowest << ", lowest box centre " << lowestBox);
        CHECK(lowest > 0.99);
        CHECK(lowestBox > real(0.6));         // dented by at most 0.25 m of its 1 m height
        CHECK(lowestBox < real(1.05));        // it did press on the balloon
        CHECK(w.body(crate).linearVelocity.y() > -real(0.5)); // bounced back up, not passing through
    }
    SECTION("over-pressure 1.5 with stretchy skin") {
        World w = worldWith(Vec3::Zero());
        BalloonDesc d;
        d.subdivisions = 3;
        d.stretchCompliance = real(1e-3);
        d.pressure = real(1.5);
        const Balloon balloon = buildBalloon(w, d);
        const real rest = w.particleVolume(balloon.volume).restVolume;
        for (int i = 0; i < 120; ++i) w.step(real(1) / 60);
        CHECK(w.enclosedVolume(balloon.volume) / rest == Approx(1.5).epsilon(0.01));
    }
}

TEST_CASE("shape matching returns a proper rotation for an inverted cluster and restores the shape",
          "[particles]") {
    World w = worldWith(Vec3::Zero());
    std::vector<ParticleId> corners;
    for (int k = 0; k < 8; ++k)
        corners.push_back(addParticle(w, Vec3(real(k & 1), real((k >> 1) & 1), real(k >> 2)) * real(0.5), real(1 + k % 3)));
    ParticleClusterDesc d;
    d.particles = corners;
    d.shapeStiffness = real(0.5);
    const ParticleClusterId cluster = w.createParticleCluster(d);
    // Mirror it through x = 0.25: every particle's rest neighbourhood is inverted.
    for (const ParticleId p : corners) {
        Vec3 at = w.particle(p).position;
        at.x() = real(0.5) - at.x() + real(0.1) * at.y();
        w.setParticlePosition(p, at);
    }
    w.step(real(1) / 60);
    const Mat3 r = w.particleCluster(cluster).rotation;
    CHECK(r.determinant() == Approx(1).epsilon(tol(1e-9, 1e-5)));
    CHECK((r * r.transpose() - Mat3::Identity()).norm() < tol(1e-9, 1e-5));
    CHECK(detail::properRotation(Vec3(1, 2, -3).asDiagonal()).determinant() == Approx(1).epsilon(tol(1e-12, 1e-6)));
    for (int i = 0; i < 120; ++i) w.step(real(1) / 60);
    // Back to its rest shape up to a rotation: every edge of the cube at its rest length.
    for (int a = 0; a < 8; ++a)
        for (int b = a + 1; b < 8; ++b) {
            const real now = (w.particle(corners[static_cast<std::size_t>(a)]).position - w.particle(corners[static_cast<std::size_t>(b)]).position).norm();
            const Vec3 restA = Vec3(real(a & 1), real((a >> 1) & 1), real(a >> 2)) * real(0.5);
            const Vec3 restB = Vec3(real(b & 1), real((b >> 1) & 1), real(b >> 2)) * real(0.5);
            CHECK(now == Approx((restA - restB).norm()).epsilon(1e-3));
        }
}

TEST_CASE("rigid-mode damping removes non-rigid motion and keeps linear and angular momentum", "[particles]") {
    World w = worldWith(Vec3::Zero());
    std::vector<ParticleId> ps;
    for (std::uint32_t k = 0; k < 12; ++k) {
        const ParticleId p = addParticle(w, Vec3(jitter(k), jitter(k + 100), jitter(k + 200)), real(1) + real(k % 4), false, 7);
        w.setParticleVelocity(p, Vec3(jitter(k + 300), jitter(k + 400), jitter(k + 500)) * 3);
        ps.push_back(p);
    }
    ParticleClusterDesc d;
    d.particles = ps;
    d.shapeStiffness = 0;
    d.rigidDamping = real(0.3);
    w.createParticleCluster(d);
    const Momenta before = momenta(w);
    for (int i = 0; i < 30; ++i) w.step(real(1) / 60);
    const Momenta after = momenta(w);
    // Float: 300 small steps of float sums keep it to 1e-3.
    CHECK((after.linear - before.linear).norm() <= tol(1e-9, 1e-3) * before.linear.norm());
    CHECK((after.angular - before.angular).norm() <= tol(1e-9, 3e-3) * before.angular.norm());
    // What is left is a rigid motion: the pairwise distances stopped changing.
    const real d01 = (w.particle(ps[0]).position - w.particle(ps[1]).position).norm();
    w.step(real(1) / 60);
    CHECK((w.particle(ps[0]).position - w.particle(ps[1]).position).norm() == Approx(d01).epsilon(1e-3));
}

TEST_CASE("internal constraints alone conserve linear and angular momentum", "[particles]") {
    // Each projection moves its particles by w_i grad_i C dlambda with sum grad_i C = 0
    // and sum p_i x grad_i C = 0 (Müller 2007 sec. 3.3): no net force, and no torque
    // about the positions p it is evaluated at. Linear momentum is then kept to
    // round-off. Angular momentum, sum m x x v with v = (p - x) / h, is kept only with
    // keepAngularMomentum (conserve_momentum.cpp): without it a spinning body loses a
    // share that halves when the substeps double, and a loaded one (the balloon at
    // pressure 1.2) spins itself up.
    const auto run = [](int substeps, bool keep, bool all) {
        WorldSettings settings;
        settings.gravity = Vec3::Zero();
        settings.particles.substeps = substeps;
        settings.particles.keepAngularMomentum = keep;
        World w(settings);
        SoftBoxDesc box;
        box.cells = 2;
        box.edgeCompliance = real(1e-4);
        const SoftBox cube = buildSoftBox(w, box);
        ParticleClusterDesc cluster;
        cluster.particles = cube.particles;
        cluster.shapeStiffness = real(0.2);
        cluster.rigidDamping = real(0.1);
        w.createParticleCluster(cluster);
        if (all) {
            BalloonDesc b;
            b.centre = Vec3(3, 0, 0);
            b.subdivisions = 2;
            b.stretchCompliance = real(1e-4);
            b.pressure = real(1.2);
            buildBalloon(w, b);
            ClothDesc c;
            c.corner = Vec3(-3, 0, 0);
            c.nu = c.nv = 6;
            c.bending = ClothDesc::Bending::Dihedral;
            c.bendCompliance = real(1e-2);
            const Cloth cloth = buildCloth(w, c);
            c.corner = Vec3(-3, 2, 0);
            c.bending = ClothDesc::Bending::Isometric;
            buildCloth(w, c);
            ParticleConstraintDesc area;
            area.kind = ParticleConstraintKind::TriangleArea;
            area.particles = {cloth.at(0, 0), cloth.at(1, 0), cloth.at(0, 1), ParticleId{}};
            area.rest = real(0.005);
            w.createParticleConstraint(area);
        }
        const ParticleSystem& ps = w.particles();
        for (std::uint32_t i = 0; i < ps.slotCount(); ++i)
            w.setParticleVelocity(ps.slots.idOf(i), Vec3(jitter(i), jitter(i + 7919), jitter(i + 15000)) * 2 + Vec3(1, 0, 0));
        const Momenta before = momenta(w);
        for (int i = 0; i < 60; ++i) w.step(real(1) / 60);
        const Momenta after = momenta(w);
        return std::pair{(after.linear - before.linear).norm() / before.linear.norm(),
                         (after.angular - before.angular).norm() / before.angular.norm()};
    };
    const auto [linear, angular] = run(10, true, true);
    CHECK(linear <= tol(1e-9, 1e-2)); // float: round-off of 600 small steps over 1400 particles
    CHECK(angular <= tol(1e-9, 1e-2));
    // The control: without the turn, the loss is first order in h.
    const real drift10 = run(10, false, false).second, drift20 = run(20, false, false).second;
    INFO("angular momentum drift over 1 s without keepAngularMomentum, 10 and 20 substeps: " << drift10 << ", " << drift20);
    CHECK(drift10 > real(1e-4));
    if (testing::isDouble) CHECK(drift10 / drift20 == Approx(2).epsilon(0.25)); // float round-off hides the halving
}

TEST_CASE("a balloon at over-pressure 1.2 inflates and stays still", "[particles]") {
    for (const bool keep : {true, false}) {
        WorldSettings settings;
        settings.gravity = Vec3::Zero();
        settings.particles.keepAngularMomentum = keep;
        World w(settings);
        BalloonDesc b;
        b.subdivisions = 2;
        b.stretchCompliance = real(1e-4);
        b.pressure = real(1.2);
        const Balloon balloon = buildBalloon(w, b);
        for (int i = 0; i < 120; ++i) w.step(real(1) / 60);
        real fastest = 0;
        for (const ParticleId p : balloon.particles) fastest = std::max(fastest, w.particle(p).velocity.norm());
        INFO("keepAngularMomentum " << keep << ": fastest particle after 2 s " << fastest << " m/s");
        CHECK(w.enclosedVolume(balloon.volume) / w.particleVolume(balloon.volume).restVolume == Approx(1.2).epsilon(0.01));
        if (keep) CHECK(fastest < tol(1e-6, 1e-2));
        else CHECK(fastest > real(1)); // the control: Gauss-Seidel's order spins it up
    }
}

TEST_CASE("bad constraint, volume and cluster input is rejected with the field named and nothing stored",
          "[particles]") {
    World w = worldWith(Vec3::Zero());
    const ParticleId a = addParticle(w, Vec3(0, 0, 0), 1);
    const ParticleId b = addParticle(w, Vec3(1, 0, 0), 1);
    const ParticleId c = addParticle(w, Vec3(0, 1, 0), 1);
    const ParticleId d = addParticle(w, Vec3(0, 0, 1), 1);
    const ParticleId inPlane = addParticle(w, Vec3(1, 1, 0), 1);
    const ParticleId onLine = addParticle(w, Vec3(2, 0, 0), 1);
    const ParticleId stale = addParticle(w, Vec3(5, 0, 0), 1);
    w.destroyParticle(stale);
    const auto count = w.particleCount();
    const auto expectError = [&](auto call, const std::string& field) {
        testing::expectError(call, field);
        CHECK(w.particleCount() == count);
        CHECK(w.particleConstraintIds().empty());
        CHECK(w.particleVolumeIds().empty());
        CHECK(w.particleClusterIds().empty());
    };
    const auto constraint = [](ParticleConstraintKind kind, std::array<ParticleId, 4> p) {
        ParticleConstraintDesc k;
        k.kind = kind;
        k.particles = p;
        return k;
    };
    using K = ParticleConstraintKind;
    expectError([&] { w.createParticleConstraint(constraint(K::TetVolume, {a, b, c, inPlane})); }, "ParticleConstraintDesc.particles");
    expectError([&] { w.createParticleConstraint(constraint(K::TriangleArea, {a, b, onLine, ParticleId{}})); },
                "ParticleConstraintDesc.particles");
    expectError([&] { w.createParticleConstraint(constraint(K::Bending, {a, b, onLine, d})); }, "ParticleConstraintDesc.particles");
    expectError([&] { w.createParticleConstraint(constraint(K::TetVolume, {a, b, c, stale})); }, "ParticleConstraintDesc.particles[3]");
    expectError([&] { w.createParticleConstraint(constraint(K::TetVolume, {a, b, a, d})); }, "ParticleConstraintDesc.particles[2]");
    expectError([&] { w.createParticleConstraint(constraint(static_cast<K>(9), {a, b, c, d})); }, "ParticleConstraintDesc.kind");
    ParticleConstraintDesc k = constraint(K::TetVolume, {a, b, c, d});
    k.rest = INFINITY;
    expectError([&] { w.createParticleConstraint(k); }, "ParticleConstraintDesc.rest");
    k.rest = std::nan("");
    k.compliance = -1;
    expectError([&] { w.createParticleConstraint(k); }, "ParticleConstraintDesc.compliance");
    k = constraint(K::IsometricBending, {a, b, c, d});
    k.rest = 1;
    expectError([&] { w.createParticleConstraint(k); }, "ParticleConstraintDesc.rest");
    expectError([&] { w.particleConstraint(ParticleConstraintId{0, 3}); }, "particleConstraint.id");
    expectError([&] { w.destroyParticleConstraint(ParticleConstraintId{}); }, "destroyParticleConstraint.id");

    // A tetrahedron's surface, outward: (a, c, b), (a, b, d), (a, d, c), (b, c, d).
    ParticleVolumeDesc v;
    v.triangles = {{a, c, b}, {a, b, d}, {a, d, c}, {b, c, d}};
    ParticleVolumeDesc open = v;
    open.triangles.pop_back();
    expectError([&] { w.createParticleVolume(open); }, "ParticleVolumeDesc.triangles");
    ParticleVolumeDesc inside = v;
    for (auto& t : inside.triangles) std::swap(t[1], t[2]);
    expectError([&] { w.createParticleVolume(inside); }, "ParticleVolumeDesc.triangles");
    ParticleVolumeDesc badOrder = v;
    std::swap(badOrder.triangles[0][1], badOrder.triangles[0][2]);
    expectError([&] { w.createParticleVolume(badOrder); }, "ParticleVolumeDesc.triangles");
    ParticleVolumeDesc dead = v;
    dead.triangles[3][2] = stale;
    expectError([&] { w.createParticleVolume(dead); }, "ParticleVolumeDesc.triangles[3][2]");
    ParticleVolumeDesc squeezed = v;
    squeezed.pressure = 0;
    expectError([&] { w.createParticleVolume(squeezed); }, "ParticleVolumeDesc.pressure");
    squeezed.pressure = std::nan("");
    expectError([&] { w.createParticleVolume(squeezed); }, "ParticleVolumeDesc.pressure");
    ParticleVolumeDesc share = v;
    share.globalShare = real(1.5);
    expectError([&] { w.createParticleVolume(share); }, "ParticleVolumeDesc.globalShare");
    expectError([&] { w.setVolumePressure(ParticleVolumeId{0, 1}, 1); }, "setVolumePressure.id");

    ParticleClusterDesc cl;
    cl.particles = {a};
    expectError([&] { w.createParticleCluster(cl); }, "ParticleClusterDesc.particles");
    cl.particles = {a, b, a};
    expectError([&] { w.createParticleCluster(cl); }, "ParticleClusterDesc.particles");
    cl.particles = {a, stale};
    expectError([&] { w.createParticleCluster(cl); }, "ParticleClusterDesc.particles[1]");
    cl.particles = {a, b};
    cl.shapeStiffness = 2;
    expectError([&] { w.createParticleCluster(cl); }, "ParticleClusterDesc.shapeStiffness");
    cl.shapeStiffness = 1;
    cl.rigidDamping = -real(0.1);
    expectError([&] { w.createParticleCluster(cl); }, "ParticleClusterDesc.rigidDamping");

    // A good volume then works, and destroying one of its particles removes it.
    const ParticleVolumeId good = w.createParticleVolume(v);
    CHECK(w.enclosedVolume(good) == Approx(1.0 / 6).epsilon(tol(1e-9, 1e-6)));
    CHECK_THROWS_AS(w.setVolumePressure(good, -1), Error);
    CHECK(w.particleVolume(good).pressure == 1);
    w.destroyParticle(d);
    CHECK_FALSE(w.contains(good));
}

TEST_CASE("a 2 kg box in a cloth hammock stays on top of the cloth for 10 s", "[particles][scene][long]") {
    // A 1.5 m square cloth of 16 x 16 particles (0.5 kg) whose two opposite edges are
    // pinned 20% closer together than its width, so it hangs slack as a hammock does (a
    // taut, inextensible sheet cannot sag under a load at all: the contact and the
    // stretch constraints then fight and the box punches through). Particles are 5 cm in
    // radius, half the spacing, so the sheet has no holes a box corner fits through.
    World w = worldWith(Vec3(0, real(-9.81), 0));
    ClothDesc c;
    c.corner = Vec3(real(-0.75), 1, real(-0.75));
    c.sideU = Vec3(real(1.5), 0, 0);
    c.sideV = Vec3(0, 0, real(1.5));
    c.nu = c.nv = 16;
    c.mass = real(0.5);
    c.radius = real(0.05);
    for (int v = 0; v < c.nv; ++v) {
        c.pinned.push_back({0, v});
        c.pinned.push_back({c.nu - 1, v});
    }
    const Cloth cloth = buildCloth(w, c);
    for (int v = 0; v < c.nv; ++v)
        for (const int u : {0, c.nu - 1}) {
            Vec3 at = w.particle(cloth.at(u, v)).position;
            at.x() *= real(0.8);
            w.setParticlePosition(cloth.at(u, v), at);
        }
    for (int i = 0; i < 120; ++i) w.step(real(1) / 60); // let it sag
    BodyDesc b;
    b.position = Vec3(0, real(1.3), 0);
    ColliderDesc box;
    box.shape = Box{Vec3(real(0.15), real(0.15), real(0.15))};
    box.density = real(2) / real(0.027);
    b.colliders.push_back(box);
    const BodyId crate = w.createBody(b);
    int inside = 0;
    real lowestBox = 1e9;
    for (int i = 0; i < 600; ++i) {
        w.step(real(1) / 60);
        const BodyState body = w.body(crate);
        for (const ParticleId p : cloth.particles) {
            const Vec3 local = body.orientation.conjugate() * (w.particle(p).position - body.position);
            if ((local.cwiseAbs().array() < real(0.15)).all()) ++inside;
        }
        lowestBox = std::min(lowestBox, body.position.y());
    }
    real lowestCloth = 1e9;
    for (const ParticleId p : cloth.particles) lowestCloth = std::min(lowestCloth, w.particle(p).position.y());
    INFO("box centre at the end " << w.body(crate).position.transpose() << ", lowest " << lowestBox << "; cloth lowest " << lowestCloth);
    if (!testing::isDouble) {
        // Known limit (docs/particles.md): in float builds the box slips through the
        // hammock after a few seconds; shown, not asserted.
        WARN("float build: box ends at " << w.body(crate).position.y() << ", " << inside << " particle-steps inside it");
        return;
    }
    CHECK(inside == 0);
    CHECK(w.body(crate).position.y() > lowestCloth + real(0.15)); // resting on the cloth, above its lowest point
    CHECK(lowestBox > real(0.6));
}

TEST_CASE("Diziol volume: with alpha = 1 and nothing touching it is the global constraint, under a box it keeps the volume",
          "[particles]") {
    const auto balloonWorld = [](VolumeMode mode, real share, bool withBox, Balloon& out) {
        WorldSettings s;
        s.gravity = withBox ? Vec3(0, real(-9.81), 0) : Vec3::Zero();
        World w(s);
        if (withBox) addGround(w);
        BalloonDesc d;
        d.centre = Vec3(0, real(0.55), 0);
        d.subdivisions = 2;
        d.stretchCompliance = real(1e-4);
        d.pressure = withBox ? 1 : real(1.2);
        d.mode = mode;
        out = buildBalloon(w, d);
        if (mode == VolumeMode::Diziol) {
            // Rebuild the volume with the share asked for.
            ParticleVolumeDesc v;
            for (const auto& t : out.triangles) v.triangles.push_back({out.particles[t[0]], out.particles[t[1]], out.particles[t[2]]});
            v.pressure = d.pressure;
            v.mode = mode;
            v.globalShare = share;
            w.destroyParticleVolume(out.volume);
            out.volume = w.createParticleVolume(v);
        }
        if (withBox) {
            BodyDesc b;
            b.position = Vec3(0, real(1.35), 0);
            ColliderDesc c;
            c.shape = Box{Vec3::Constant(real(0.2))};
            c.density = real(5) / real(0.064); // 10x the balloon's weight
            b.colliders.push_back(c);
            w.createBody(b);
        }
        return w;
    };
    Balloon a, b;
    World global = balloonWorld(VolumeMode::Global, 1, false, a);
    World diziol = balloonWorld(VolumeMode::Diziol, 1, false, b);
    for (int i = 0; i < 60; ++i) {
        global.step(real(1) / 60);
        diziol.step(real(1) / 60);
    }
    CHECK(testing::motionHash(global) == testing::motionHash(diziol)); // the particles move alike (the volumes differ in mode and share)
    CHECK(diziol.enclosedVolume(b.volume) / diziol.particleVolume(b.volume).restVolume == Approx(1.2).epsilon(0.01));
    for (const real share : {real(0), real(0.5)}) {
        Balloon c;
        World pressed = balloonWorld(VolumeMode::Diziol, share, true, c);
        const real rest = pressed.particleVolume(c.volume).restVolume;
        real lowest = 1e9;
        for (int i = 0; i < 60; ++i) {
            pressed.step(real(1) / 60);
            lowest = std::min(lowest, pressed.enclosedVolume(c.volume) / rest);
        }
        INFO("Diziol, alpha " << share << ": lowest V / V0 " << lowest);
        CHECK(lowest > 0.99);
    }
}

TEST_CASE("particles joined by a link wake together, and apart once the link is destroyed", "[particles]") {
    // groupParticles keeps the sets of the internal links while the topology stays: a
    // link destroyed must split the island at the next step (a kept set would wake B
    // with A), and a link made must join one.
    World w;
    addGround(w);
    const auto resting = [&](real x) { return addParticle(w, Vec3(x, real(0.05), 0), 1); };
    const ParticleId a = resting(0), b = resting(real(0.3)), c = resting(3);
    DistanceConstraintDesc link;
    link.a = a;
    link.b = b;
    DistanceConstraintId joined = w.createDistanceConstraint(link);
    const auto sleepAll = [&] {
        for (int i = 0; i < 600; ++i) {
            if (w.isParticleAsleep(a) && w.isParticleAsleep(b) && w.isParticleAsleep(c)) return true;
            w.step(real(1) / 60);
        }
        return false;
    };
    const auto nudgeA = [&] {
        w.setParticleVelocity(a, Vec3(real(-0.2), 0, 0)); // away from B
        w.step(real(1) / 60);
    };
    REQUIRE(sleepAll());
    nudgeA();
    CHECK_FALSE(w.isParticleAsleep(a));
    CHECK_FALSE(w.isParticleAsleep(b)); // one island through the link
    CHECK(w.isParticleAsleep(c));

    REQUIRE(sleepAll());
    w.destroyDistanceConstraint(joined);
    REQUIRE(sleepAll());
    nudgeA();
    CHECK_FALSE(w.isParticleAsleep(a));
    CHECK(w.isParticleAsleep(b)); // apart now
    CHECK(w.isParticleAsleep(c));

    REQUIRE(sleepAll());
    link.b = c;
    link.restLength = (w.particle(c).position - w.particle(a).position).norm();
    joined = w.createDistanceConstraint(link);
    REQUIRE(sleepAll());
    nudgeA();
    CHECK_FALSE(w.isParticleAsleep(c)); // joined to A by the new link
    CHECK(w.isParticleAsleep(b));
}
