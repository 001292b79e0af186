// Broad phase: the pair set equals brute force, in a deterministic order.

#include "helpers.hpp"

#include <catch2/catch.hpp>

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

std::vector<ProxyPair> bruteForce(const std::vector<BroadPhaseProxy>& p, const BroadPhase& bp) {
    std::vector<ProxyPair> pairs;
    for (std::uint32_t i = 0; i < p.size(); ++i)
        for (std::uint32_t j = i + 1; j < p.size(); ++j) {
            const bool eitherActive = (p[i].moves && p[i].awake) || (p[j].moves && p[j].awake);
            const bool filters = (p[i].category & p[j].mask) && (p[j].category & p[i].mask);
            if (eitherActive && filters && p[i].owner != p[j].owner && !bp.ignores(p[i].owner, p[j].owner) &&
                p[i].box.overlaps(p[j].box))
                pairs.push_back({i, j});
        }
    return pairs;
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

TEST_CASE("static-static and sleeping pairs are never produced", "[collision]") {
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

TEST_CASE("unbounded half-space boxes pair with what lies across their plane", "[collision]") {
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

TEST_CASE("fat boxes change only when the tight box leaves them", "[collision]") {
    Aabb fat;
    CHECK(fattenAabb(fat, Aabb{Vec3::Zero(), Vec3::Ones()}, real(0.1)));
    CHECK_FALSE(fattenAabb(fat, Aabb{Vec3::Constant(real(0.05)), Vec3::Constant(real(1.05))}, real(0.1)));
    CHECK(fattenAabb(fat, Aabb{Vec3::Constant(real(0.2)), Vec3::Constant(real(1.2))}, real(0.1)));
    CHECK(fat.min.isApprox(Vec3::Constant(real(0.1))));
}
