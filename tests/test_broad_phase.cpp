// SPDX-License-Identifier: MIT
// Broad phase: the pair set equals brute force, in a deterministic order.

#include "fp_traps.hpp"
#include "helpers.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>
#include <limits>
#include <random>

using namespace jounce;

namespace {

std::vector<BroadPhaseProxy> randomProxies(std::size_t n, std::uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<real> where(-50, 50), size(real(0.1), real(1.5));
    std::uniform_int_distribution<int> coin(0, 9);
    std::vector<BroadPhaseProxy> proxies(n);
    for (std::size_t i = 0; i < n; ++i) {
        const Vec3 c(where(rng), where(rng) / 5, where(rng));
        const Vec3 h(size(rng), size(rng), size(rng));
        BroadPhaseProxy& p = proxies[i];
        p.box = Aabb{c - h, c + h};
        p.owner = static_cast<std::uint32_t>(i);
        p.moves = coin(rng) > 1;  // ~20% static
        p.awake = coin(rng) > 0;  // ~10% asleep
        p.category = 1u << (coin(rng) % 3);
        p.mask = coin(rng) == 0 ? ~p.category : 0xffffffffu;
    }
    return proxies;
}

/// Whether the rules let p[i] and p[j] pair, overlap included.
bool shouldPair(const std::vector<BroadPhaseProxy>& p, std::uint32_t i, std::uint32_t j, const BroadPhase& bp) {
    const bool eitherActive = (p[i].moves && p[i].awake) || (p[j].moves && p[j].awake);
    const bool filters = (p[i].category & p[j].mask) && (p[j].category & p[i].mask);
    return eitherActive && filters && p[i].owner != p[j].owner && !bp.ignores(p[i].owner, p[j].owner) &&
           p[i].box.overlaps(p[j].box);
}

/// Every pair, tested one by one.
std::vector<ProxyPair> bruteForce(const std::vector<BroadPhaseProxy>& p, const BroadPhase& bp) {
    std::vector<ProxyPair> pairs;
    for (std::uint32_t i = 0; i < p.size(); ++i)
        for (std::uint32_t j = i + 1; j < p.size(); ++j)
            if (shouldPair(p, i, j, bp)) pairs.push_back({i, j});
    return pairs;
}

/// Brute force with the pairs whose x intervals are apart skipped (they cannot overlap),
/// so many calls on 10^4 boxes stay quick under the sanitizers.
std::vector<ProxyPair> bruteForceSweep(const std::vector<BroadPhaseProxy>& p, const BroadPhase& bp) {
    std::vector<std::uint32_t> byX(p.size());
    for (std::uint32_t i = 0; i < p.size(); ++i) byX[i] = i;
    std::sort(byX.begin(), byX.end(), [&](std::uint32_t a, std::uint32_t b) { return p[a].box.min.x() < p[b].box.min.x(); });
    std::vector<ProxyPair> pairs;
    for (std::size_t k = 0; k < byX.size(); ++k)
        for (std::size_t m = k + 1; m < byX.size() && p[byX[m]].box.min.x() <= p[byX[k]].box.max.x(); ++m)
            if (shouldPair(p, byX[k], byX[m], bp)) pairs.push_back({std::min(byX[k], byX[m]), std::max(byX[k], byX[m])});
    std::sort(pairs.begin(), pairs.end());
    return pairs;
}

/// One step of a changing world: `movePercent` of the awake moving boxes move (fat boxes
/// follow the tight ones with a 0.1 margin, so only some change), a few fall asleep or
/// wake, turn static or dynamic, or change filters; on `resize` steps proxies are removed
/// and added (so indices shift), on `reorder` steps one is removed and one added (same
/// count). Few moves exercise the trees' one-by-one updates, many their reloads.
void evolve(std::vector<BroadPhaseProxy>& p, std::vector<Aabb>& tight, std::mt19937& rng, int movePercent, bool resize,
            bool reorder) {
    std::uniform_real_distribution<real> step(real(-0.3), real(0.3));
    std::uniform_int_distribution<int> permille(0, 999);
    for (std::size_t i = 0; i < p.size(); ++i) {
        const int r = permille(rng);
        if (r < 10 * movePercent && p[i].moves && p[i].awake) {
            const Vec3 d(step(rng), step(rng), step(rng));
            tight[i] = Aabb{tight[i].min + d, tight[i].max + d};
            if (tight[i].min.allFinite()) fattenAabb(p[i].box, tight[i], real(0.1));
        } else if (r >= 990) {
            p[i].awake = !p[i].awake;
        } else if (r >= 985) {
            p[i].moves = !p[i].moves;
        } else if (r >= 980) {
            p[i].mask ^= 2u;
        }
    }
    if (resize) {
        std::uniform_int_distribution<std::size_t> any(0, p.size() - 1);
        for (int k = 0; k < 50; ++k) {
            const std::size_t i = any(rng);
            p.erase(p.begin() + static_cast<std::ptrdiff_t>(i));
            tight.erase(tight.begin() + static_cast<std::ptrdiff_t>(i));
        }
        const auto extra = randomProxies(80, static_cast<std::uint32_t>(rng()));
        for (const BroadPhaseProxy& q : extra) {
            p.push_back(q);
            p.back().owner += 100000;
            tight.push_back(q.box);
        }
    }
    if (reorder) {
        p.erase(p.begin() + 7);
        tight.erase(tight.begin() + 7);
        p.push_back(randomProxies(1, static_cast<std::uint32_t>(rng()))[0]);
        p.back().owner = 200000;
        tight.push_back(p.back().box);
    }
}

} // namespace

TEST_CASE("broad phase pairs equal brute force for 10^4 random boxes, in the same order twice", "[collision]") {
    auto proxies = randomProxies(10000, 3);
    proxies[10].owner = proxies[11].owner; // two shapes of one body never pair
    BroadPhase bp;
    bp.ignore(20, 21);
    bp.ignore(proxies[5].owner, proxies[6].owner);
    std::vector<ProxyPair> pairs, again;
    bp.findPairs(proxies, pairs);
    const auto expected = bruteForce(proxies, bp);
    CHECK(expected.size() > 500); // the test means something
    CHECK(pairs == expected);
    BroadPhase other;
    other.ignore(20, 21);
    other.ignore(proxies[5].owner, proxies[6].owner);
    other.findPairs(proxies, again);
    CHECK(again == pairs);
}

TEST_CASE("broad phase: static-static and sleeping pairs are never produced", "[collision]") {
    std::vector<BroadPhaseProxy> p(4);
    for (auto& x : p) x.box = Aabb{Vec3::Zero(), Vec3::Ones()};
    for (std::uint32_t i = 0; i < 4; ++i) p[i].owner = i;
    p[0].moves = p[1].moves = false;          // two static boxes
    p[2].awake = p[3].awake = false;          // two sleeping bodies
    BroadPhase bp;
    std::vector<ProxyPair> pairs;
    bp.findPairs(p, pairs);
    CHECK(pairs.empty());
    p[3].awake = true; // wakes: pairs with everything it touches
    bp.findPairs(p, pairs);
    CHECK(pairs == std::vector<ProxyPair>{{0, 3}, {1, 3}, {2, 3}});
}

TEST_CASE("broad phase: unbounded half-space boxes pair with what lies across their plane", "[collision]") {
    std::vector<BroadPhaseProxy> p(3);
    p[0].box = computeAabb(HalfSpace{}, Transform{}); // ground: y <= 0
    p[0].moves = false;
    p[0].owner = 0;
    p[1].box = Aabb{Vec3(0, real(-0.1), 0), Vec3(1, 1, 1)}; // touching the ground
    p[1].owner = 1;
    p[2].box = Aabb{Vec3(0, 2, 0), Vec3(1, 3, 1)}; // above it
    p[2].owner = 2;
    BroadPhase bp;
    std::vector<ProxyPair> pairs;
    bp.findPairs(p, pairs);
    CHECK(pairs == std::vector<ProxyPair>{{0, 1}});
}

TEST_CASE("broad phase: fat boxes change only when the tight box leaves them", "[collision]") {
    Aabb fat;
    CHECK(fattenAabb(fat, Aabb{Vec3::Zero(), Vec3::Ones()}, real(0.1)));
    CHECK_FALSE(fattenAabb(fat, Aabb{Vec3::Constant(real(0.05)), Vec3::Constant(real(1.05))}, real(0.1)));
    CHECK(fattenAabb(fat, Aabb{Vec3::Constant(real(0.2)), Vec3::Constant(real(1.2))}, real(0.1)));
    CHECK(fat.min.isApprox(Vec3::Constant(real(0.1))));
    // A moving body's new box also reaches its motion ahead (0.3 m down): it still holds
    // the body two steps of 0.1 m later, where one without would have been replaced.
    const Vec3 ahead(0, real(-0.3), 0);
    CHECK(fattenAabb(fat, Aabb{Vec3(0, -1, 0), Vec3(1, 0, 1)}, real(0.1), ahead));
    CHECK(fat.min.isApprox(Vec3(real(-0.1), real(-1.4), real(-0.1))));
    CHECK(fat.max.isApprox(Vec3(real(1.1), real(0.1), real(1.1))));
    CHECK_FALSE(fattenAabb(fat, Aabb{Vec3(0, real(-1.2), 0), Vec3(1, real(-0.2), 1)}, real(0.1), ahead));
}

TEST_CASE("broad phase over successive calls equals brute force as boxes move, sleep and come and go", "[collision]") {
    // The test's own arithmetic moves boxes of infinite extent (inf - inf): traps off
    // for the test code; the broad phase itself runs trapped in every world test.
    const testing::FpTrapsOff infiniteBoxesInTestCode;
    std::mt19937 rng(11);
    auto proxies = randomProxies(10000, 5);
    // Unbounded boxes: a static ground, and a moving slab of infinite x and z extent
    // (an active unbounded box must pair with bounded ones on both sides of its index).
    proxies[0].box = computeAabb(HalfSpace{}, Transform{});
    proxies[0].moves = false;
    const real inf = std::numeric_limits<real>::infinity();
    proxies[9000].box = Aabb{Vec3(-inf, 3, -inf), Vec3(inf, 4, inf)};
    proxies[9000].moves = proxies[9000].awake = true;
    std::vector<Aabb> tight(proxies.size());
    for (std::size_t i = 0; i < proxies.size(); ++i) tight[i] = proxies[i].box;

    const std::uint32_t jointA = proxies[100].owner, jointB = proxies[101].owner;
    // The twin queries its changed proxies on three workers: the same pairs in the same
    // order (the first call, the restarts and every third call change thousands of
    // boxes, more than one share's worth). Its pairs are read from the list it keeps
    // (the overload the world steps with), not copied out.
    ThreadPool pool(3);
    BroadPhase incremental, twin;
    std::vector<ProxyPair> pairs, freshPairs;
    for (int call = 0; call < 10; ++call) {
        INFO("call " << call);
        if (call == 3) { // a joint appears between two bodies
            incremental.ignore(jointA, jointB);
            twin.ignore(jointA, jointB);
        }
        incremental.findPairs(proxies, pairs);
        const std::vector<ProxyPair>& kept = twin.findPairs(proxies, &pool);
        BroadPhase fresh; // no history: what the incremental path must reproduce
        if (call >= 3) fresh.ignore(jointA, jointB);
        fresh.findPairs(proxies, freshPairs);
        const auto expected = bruteForceSweep(proxies, incremental);
        CHECK(expected.size() > 500);
        CHECK(pairs == expected);
        CHECK(kept == pairs);
        CHECK(freshPairs == pairs);
        evolve(proxies, tight, rng, call % 3 == 2 ? 40 : 3, call == 2 || call == 6, call == 4);
    }
}

TEST_CASE("broad phase: a box that stops changing keeps its pairs, and rules apply on every call", "[collision]") {
    std::vector<BroadPhaseProxy> p(3);
    for (std::uint32_t i = 0; i < 3; ++i) {
        p[i].owner = i;
        p[i].box = Aabb{Vec3(real(i), 0, 0), Vec3(real(i) + real(1.5), 1, 1)}; // 0-1 and 1-2 overlap
    }
    BroadPhase bp;
    std::vector<ProxyPair> pairs;
    bp.findPairs(p, pairs);
    CHECK(pairs == std::vector<ProxyPair>{{0, 1}, {1, 2}});
    bp.findPairs(p, pairs); // nothing changed
    CHECK(pairs == std::vector<ProxyPair>{{0, 1}, {1, 2}});
    p[0].awake = p[1].awake = false; // same boxes: 0-1 both asleep now
    bp.findPairs(p, pairs);
    CHECK(pairs == std::vector<ProxyPair>{{1, 2}});
    p[2].category = 4;
    p[1].mask = ~4u; // 1 no longer collides with 2
    bp.ignore(0, 1);
    p[0].awake = true;
    bp.findPairs(p, pairs);
    CHECK(pairs.empty());
    bp.unignore(0, 1);
    bp.findPairs(p, pairs);
    CHECK(pairs == std::vector<ProxyPair>{{0, 1}});
    p[2].box = Aabb{Vec3(real(-0.5), 0, 0), Vec3(0, 1, 1)}; // 2 moves to touch 0 only
    p[2].mask = 0xffffffffu;
    bp.findPairs(p, pairs);
    CHECK(pairs == std::vector<ProxyPair>{{0, 1}, {0, 2}});
    p.pop_back(); // fewer proxies: indices are rebuilt
    bp.findPairs(p, pairs);
    CHECK(pairs == std::vector<ProxyPair>{{0, 1}});
    bp.findPairs({}, pairs);
    CHECK(pairs.empty());
}

TEST_CASE("broad phase: the pairs kept while only boxes move are those found afresh and stop when a rule changes", "[collision]") {
    // Most calls of a settled world change a few boxes and no rule: the last call's
    // passed pairs are kept and only the changed proxies' checked. Each kind of change
    // that must check every overlap again (owner, category, mask, awake, the ignored
    // pairs) comes alone, between calls that only move boxes.
    std::mt19937 rng(23);
    auto proxies = randomProxies(3000, 9);
    for (BroadPhaseProxy& p : proxies) p.box = Aabb{p.box.min * real(0.3), p.box.max * real(0.3)}; // crowded: many pairs
    std::vector<Aabb> tight(proxies.size());
    for (std::size_t i = 0; i < proxies.size(); ++i) tight[i] = proxies[i].box;
    std::uniform_real_distribution<real> step(real(-0.3), real(0.3));
    std::uniform_int_distribution<std::size_t> any(0, proxies.size() - 1);
    const auto moveSome = [&] {
        for (int k = 0; k < 40; ++k) {
            const std::size_t i = any(rng);
            if (!proxies[i].moves) continue;
            const Vec3 d(step(rng), step(rng), step(rng));
            tight[i] = Aabb{tight[i].min + d, tight[i].max + d};
            fattenAabb(proxies[i].box, tight[i], real(0.1));
        }
    };
    const std::uint32_t ownerOf7 = proxies[7].owner;
    const std::vector<std::function<void(BroadPhase&)>> ruleChanges = {
        [&](BroadPhase&) { proxies[any(rng)].awake ^= true; },
        [&](BroadPhase&) { proxies[any(rng)].mask ^= 2u; },
        [&](BroadPhase&) { proxies[any(rng)].category = 2; },
        [&](BroadPhase&) { proxies[any(rng)].owner = ownerOf7; }, // a second shape of 7's owner
        [&](BroadPhase& bp) { bp.ignore(ownerOf7, proxies[8].owner); },
        [&](BroadPhase& bp) { bp.unignore(ownerOf7, proxies[8].owner); },
        [&](BroadPhase&) { proxies[any(rng)].moves ^= true; },
    };
    BroadPhase bp;
    std::vector<ProxyPair> pairs, freshPairs;
    int changedPairs = 0;
    std::vector<ProxyPair> last;
    for (std::size_t call = 0; call < 3 * ruleChanges.size(); ++call) {
        INFO("call " << call);
        moveSome();
        if (call % 3 == 2) ruleChanges[call / 3](bp);
        bp.findPairs(proxies, pairs);
        BroadPhase fresh; // no history
        if (bp.ignores(ownerOf7, proxies[8].owner)) fresh.ignore(ownerOf7, proxies[8].owner);
        fresh.findPairs(proxies, freshPairs);
        CHECK(pairs.size() > 400);
        CHECK(pairs == freshPairs);
        CHECK(pairs == bruteForceSweep(proxies, bp));
        changedPairs += pairs != last ? 1 : 0;
        last = pairs;
    }
    CHECK(changedPairs >= 15); // the boxes' moves made and broke pairs in most calls
}
