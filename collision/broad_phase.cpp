// Broad phase over Boost.Geometry's R-tree (DESIGN.md step 3).

#include <jounce/collision/broad_phase.hpp>

#include <boost/geometry.hpp>
#include <boost/geometry/index/rtree.hpp>

#include <algorithm>
#include <cmath>

namespace jounce {
namespace bg = boost::geometry;
namespace bgi = boost::geometry::index;

namespace {

using Point = bg::model::point<real, 3, bg::cs::cartesian>;
using RBox = bg::model::box<Point>;
using Value = std::pair<RBox, std::uint32_t>;

RBox toBox(const Aabb& a) {
    return RBox(Point(a.min.x(), a.min.y(), a.min.z()), Point(a.max.x(), a.max.y(), a.max.z()));
}

bool isBounded(const Aabb& a) { return a.min.allFinite() && a.max.allFinite(); }

std::uint64_t ownerKey(std::uint32_t a, std::uint32_t b) {
    if (a > b) std::swap(a, b);
    return (std::uint64_t(a) << 32) | b;
}

bool active(const BroadPhaseProxy& p) { return p.moves && p.awake; }

bool filtersPass(const BroadPhaseProxy& p, const BroadPhaseProxy& q) {
    return (p.category & q.mask) != 0 && (q.category & p.mask) != 0;
}

} // namespace

struct BroadPhase::Tree {
    bgi::rtree<Value, bgi::quadratic<16>> rtree;
    std::vector<Value> values;
    std::vector<std::uint32_t> unbounded;
    std::vector<Value> hits;
};

BroadPhase::BroadPhase() : tree_(std::make_unique<Tree>()) {}
BroadPhase::~BroadPhase() = default;
BroadPhase::BroadPhase(BroadPhase&&) noexcept = default;
BroadPhase& BroadPhase::operator=(BroadPhase&&) noexcept = default;

bool fattenAabb(Aabb& fat, const Aabb& tight, real margin) {
    if (fat.contains(tight)) return false;
    fat = tight.fattened(margin);
    return true;
}

void BroadPhase::findPairs(std::span<const BroadPhaseProxy> proxies, std::vector<ProxyPair>& out) {
    out.clear();
    Tree& t = *tree_;
    t.values.clear();
    t.unbounded.clear();
    for (std::uint32_t i = 0; i < proxies.size(); ++i) {
        if (isBounded(proxies[i].box)) t.values.emplace_back(toBox(proxies[i].box), i);
        else t.unbounded.push_back(i);
    }
    t.rtree = decltype(t.rtree)(t.values.begin(), t.values.end()); // packing (STR) bulk load

    auto consider = [&](std::uint32_t i, std::uint32_t j) {
        const BroadPhaseProxy& p = proxies[i];
        const BroadPhaseProxy& q = proxies[j];
        if (i == j || p.owner == q.owner) return;
        if (active(q) && j < i) return; // an active pair is found from both sides: keep one
        if (!filtersPass(p, q) || ignores(p.owner, q.owner)) return;
        out.push_back({std::min(i, j), std::max(i, j)});
    };

    for (std::uint32_t i = 0; i < proxies.size(); ++i) {
        if (!active(proxies[i])) continue;
        if (isBounded(proxies[i].box)) {
            t.hits.clear();
            t.rtree.query(bgi::intersects(toBox(proxies[i].box)), std::back_inserter(t.hits));
            for (const Value& v : t.hits) consider(i, v.second);
        }
        for (std::uint32_t j : t.unbounded)
            if (proxies[i].box.overlaps(proxies[j].box)) consider(i, j);
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
}

void BroadPhase::ignore(std::uint32_t a, std::uint32_t b) {
    const std::uint64_t key = ownerKey(a, b);
    const auto it = std::lower_bound(ignored_.begin(), ignored_.end(), key);
    if (it == ignored_.end() || *it != key) ignored_.insert(it, key);
}

void BroadPhase::unignore(std::uint32_t a, std::uint32_t b) {
    const std::uint64_t key = ownerKey(a, b);
    const auto it = std::lower_bound(ignored_.begin(), ignored_.end(), key);
    if (it != ignored_.end() && *it == key) ignored_.erase(it);
}

bool BroadPhase::ignores(std::uint32_t a, std::uint32_t b) const {
    return std::binary_search(ignored_.begin(), ignored_.end(), ownerKey(a, b));
}

} // namespace jounce
