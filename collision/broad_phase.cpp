// SPDX-License-Identifier: MIT
// Broad phase over Boost.Geometry's R-tree (DESIGN.md step 3).
//
// Persistent: the boxes, the two trees (static proxies, moving proxies) and the set of
// overlapping pairs survive from call to call. A pair whose two fat boxes did not change
// still overlaps exactly as before, so each call only queries the proxies whose box (or
// `moves`) changed. The pairs that pass the rules are kept too: while no proxy's flags,
// filters or owner and no ignored pair changed, only the changed proxies' pairs are
// dropped and their fresh overlaps checked. Why this design, and the measurements
// behind it: docs/collision.md, "Broad phase".

#include <jounce/collision/broad_phase.hpp>

#include "common/growth.hpp"
#include "common/parallel.hpp"

#include <boost/geometry.hpp>
#include <boost/geometry/index/rtree.hpp>
#include <boost/iterator/function_output_iterator.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <iterator>

namespace jounce {
namespace bg = boost::geometry;
namespace bgi = boost::geometry::index;

// Named, not anonymous: BroadPhase::State (declared in the public header) holds a Tree,
// and a member of an anonymous-namespace type would give State internal linkage.
namespace detail::broad_phase {

using Point = bg::model::point<real, 3, bg::cs::cartesian>;
using RBox = bg::model::box<Point>;
using Value = std::pair<RBox, std::uint32_t>;
using RTree = bgi::rtree<Value, bgi::quadratic<16>>;

/// A tree is bulk-loaded again (STR packing) once the boxes moved in, out or within it
/// since its last load exceed this share of its size. Removing and inserting boxes one
/// by one is cheaper than a load when few change, but it spoils the packed tree, whose
/// queries are the fastest; reloading after a fixed budget of edits bounds both costs.
/// 25% measured best (against 10%, 50%, never, always, and a per-call share), see
/// docs/collision.md ("Broad phase").
constexpr double rebuildShare = 0.25;

RBox toBox(const Aabb& a) {
    return RBox(Point(a.min.x(), a.min.y(), a.min.z()), Point(a.max.x(), a.max.y(), a.max.z()));
}

bool isBounded(const Aabb& a) { return isFinite(a.min) && isFinite(a.max); }

/// Exact: a box that differs in any bit is a changed box (NaN boxes always are).
bool sameBox(const Aabb& a, const Aabb& b) { return a.min == b.min && a.max == b.max; }

std::uint64_t ownerKey(std::uint32_t a, std::uint32_t b) {
    if (a > b) std::swap(a, b);
    return (std::uint64_t(a) << 32) | b;
}

bool active(const BroadPhaseProxy& p) { return p.moves && p.awake; }

bool filtersPass(const BroadPhaseProxy& p, const BroadPhaseProxy& q) {
    const bool sameGroup = p.group != 0 && p.group == q.group;
    return !sameGroup && (p.category & q.mask) != 0 && (q.category & p.mask) != 0;
}

/// The least proxies a worker compares at a time (findChanged).
constexpr std::uint32_t proxiesPerRange = 512;

/// One R-tree and how much it has been edited since it was bulk-loaded.
struct Tree {
    RTree rtree;
    std::size_t loadedSize = 0;
    std::size_t editsSinceLoad = 0;

    bool wantsReload(std::size_t editsThisCall) const {
        return static_cast<double>(editsSinceLoad + editsThisCall) > rebuildShare * static_cast<double>(loadedSize);
    }
    void load(std::vector<Value>& values) {
        rtree = RTree(values.begin(), values.end()); // the packing (STR) constructor
        loadedSize = values.size();
        editsSinceLoad = 0;
    }
};

} // namespace detail::broad_phase

using namespace detail::broad_phase;

struct BroadPhase::State {
    // Per proxy index, as of the last call.
    std::vector<Aabb> boxes;
    std::vector<char> moves;     ///< which tree holds the box: 0 static, 1 moving
    std::vector<std::uint32_t> groups; ///< same non-zero group: never an overlap worth keeping
    std::vector<char> isChanged; ///< scratch: changed in this call
    /// What the pair rules read beyond the box, moves and group: a change of any is a
    /// change of rules (every overlap checked again).
    struct Rules {
        std::uint32_t owner = 0, category = 0, mask = 0;
        bool awake = false;
        friend bool operator==(const Rules&, const Rules&) = default;
    };
    std::vector<Rules> rules;
    /// Whether each proxy moves and is awake this call, one byte each, so the kept
    /// overlaps of a sleeping pile are turned down without reading their proxies.
    std::vector<char> isActive;

    std::array<Tree, 2> trees;            ///< [0] static proxies, [1] moving ones
    std::vector<std::uint32_t> unbounded; ///< proxies kept out of the trees, ascending
    std::vector<std::uint32_t> changed;   ///< this call's changed indices, ascending

    /// Every overlapping pair with at least one moving side, sorted, before the rules.
    std::vector<ProxyPair> overlaps;
    /// The overlaps that pass the rules, sorted: last call's answer.
    std::vector<ProxyPair> passed;
    /// Whether `passed` must be found again from every overlap (the first call, a change
    /// of rules, of the proxy count or of the ignored pairs).
    bool recheckAll = true;
    std::vector<ProxyPair> fresh, merged; // scratch
    std::vector<std::vector<ProxyPair>> freshRuns; // scratch: each run's finds on several workers
    std::vector<Value> values;            // scratch for bulk loads

    bool findChanged(std::span<const BroadPhaseProxy> proxies, TaskSystem* tasks);
    bool rulesChanged(std::span<const BroadPhaseProxy> proxies, TaskSystem* tasks);
    template <class Ignores> void applyRules(std::span<const BroadPhaseProxy> proxies, std::span<const ProxyPair> candidates,
                                             std::vector<ProxyPair>& out, const Ignores& ignores) const;
    void mergeKept(std::vector<ProxyPair>& kept, const std::vector<ProxyPair>& found) const;
    void updateTrees(std::span<const BroadPhaseProxy> proxies, bool restart);
    void reload(std::span<const BroadPhaseProxy> proxies, int tree);
    void queryChanged(std::span<const BroadPhaseProxy> proxies, TaskSystem* tasks);
    void queryRun(std::span<const BroadPhaseProxy> proxies, std::size_t begin, std::size_t end, std::vector<ProxyPair>& out) const;
    void consider(std::uint32_t i, std::uint32_t j, std::vector<ProxyPair>& out) const;
};

BroadPhase::BroadPhase() : state_(std::make_unique<State>()) {}
BroadPhase::~BroadPhase() = default;
BroadPhase::BroadPhase(BroadPhase&&) noexcept = default;
BroadPhase& BroadPhase::operator=(BroadPhase&&) noexcept = default;

bool fattenAabb(Aabb& fat, const Aabb& tight, real margin, const Vec3& ahead) {
    if (fat.contains(tight)) return false;
    Aabb stretched = tight;
    stretched.min = stretched.min.cwiseMin(tight.min + ahead);
    stretched.max = stretched.max.cwiseMax(tight.max + ahead);
    fat = stretched.fattened(margin);
    return true;
}

void BroadPhase::findPairs(std::span<const BroadPhaseProxy> proxies, std::vector<ProxyPair>& out, TaskSystem* tasks) {
    const std::vector<ProxyPair>& pairs = findPairs(proxies, tasks);
    out.assign(pairs.begin(), pairs.end());
}

const std::vector<ProxyPair>& BroadPhase::findPairs(std::span<const BroadPhaseProxy> proxies, TaskSystem* tasks) {
    State& s = *state_;
    const bool restart = s.findChanged(proxies, tasks);
    s.recheckAll = s.rulesChanged(proxies, tasks) || restart || s.recheckAll;
    s.isActive.resize(proxies.size());
    for (std::size_t i = 0; i < proxies.size(); ++i) s.isActive[i] = active(proxies[i]) ? 1 : 0;
    const auto ignores = [&](const BroadPhaseProxy& p, const BroadPhaseProxy& q) {
        return !ignored_.empty() && this->ignores(p.owner, q.owner);
    };
    if (!s.changed.empty()) {
        s.updateTrees(proxies, restart);
        s.queryChanged(proxies, tasks);
        if (!s.recheckAll) {
            // The kept pairs of unchanged proxies pass as before; the changed proxies'
            // pairs are all in `fresh`, checked here and merged in (pile1000 moves a box
            // in the trees in one step of thirty: every overlap checked each step was
            // 55 us a step for the same answer).
            s.merged.clear();
            s.applyRules(proxies, s.fresh, s.merged, ignores);
            s.fresh.swap(s.merged);
            s.mergeKept(s.passed, s.fresh);
        }
        for (std::uint32_t i : s.changed) s.isChanged[i] = 0;
    }
    if (s.recheckAll) {
        // One pass on this thread: shared among two workers it took as long (spheres4096's
        // 38 000 kept overlaps, 0.18 ms; each half ran 1.7x slower beside the other).
        s.passed.clear();
        s.applyRules(proxies, s.overlaps, s.passed, ignores);
        s.recheckAll = false;
    }
    return s.passed;
}

/// The candidates that pass the rules (BroadPhase::findPairs), in order, onto `out`.
template <class Ignores>
void BroadPhase::State::applyRules(std::span<const BroadPhaseProxy> proxies, std::span<const ProxyPair> candidates,
                                   std::vector<ProxyPair>& out, const Ignores& ignores) const {
    for (const ProxyPair& pair : candidates) {
        if (!isActive[pair.a] && !isActive[pair.b]) continue;
        const BroadPhaseProxy& p = proxies[pair.a];
        const BroadPhaseProxy& q = proxies[pair.b];
        if (p.owner != q.owner && filtersPass(p, q) && !ignores(p, q)) out.push_back(pair);
    }
}

/// Whether any proxy's owner, filters or awake flag differs from last call (then every
/// overlap meets the rules again); records them. A new proxy count is a restart, which
/// checks everything anyway.
bool BroadPhase::State::rulesChanged(std::span<const BroadPhaseProxy> proxies, TaskSystem* tasks) {
    const auto n = static_cast<std::uint32_t>(proxies.size());
    if (rules.size() != n) {
        rules.resize(n);
        for (std::uint32_t i = 0; i < n; ++i) rules[i] = {proxies[i].owner, proxies[i].category, proxies[i].mask, proxies[i].awake};
        return true;
    }
    std::atomic<bool> any{false};
    detail::parallelFor(tasks, n, proxiesPerRange, [&](std::uint32_t first, std::uint32_t last) {
        bool differs = false;
        for (std::uint32_t i = first; i < last; ++i) {
            const Rules now{proxies[i].owner, proxies[i].category, proxies[i].mask, proxies[i].awake};
            if (now == rules[i]) continue;
            rules[i] = now;
            differs = true;
        }
        if (differs) any.store(true, std::memory_order_relaxed);
    });
    return any.load();
}

/// Lists the indices whose box or `moves` differ from last call. When the count differs,
/// indices name other proxies than before: everything counts as changed (a restart).
bool BroadPhase::State::findChanged(std::span<const BroadPhaseProxy> proxies, TaskSystem* tasks) {
    changed.clear();
    const auto n = static_cast<std::uint32_t>(proxies.size());
    if (n != boxes.size()) {
        boxes.assign(n, Aabb{});
        moves.assign(n, 0);
        groups.assign(n, 0);
        isChanged.assign(n, 1);
        overlaps.clear();
        for (std::uint32_t i = 0; i < n; ++i) changed.push_back(i);
        return true;
    }
    // Compared on the workers, listed here in index order.
    detail::parallelFor(tasks, n, proxiesPerRange, [&](std::uint32_t first, std::uint32_t last) {
        for (std::uint32_t i = first; i < last; ++i)
            isChanged[i] = !sameBox(proxies[i].box, boxes[i]) || proxies[i].moves != (moves[i] != 0) || proxies[i].group != groups[i];
    });
    for (std::uint32_t i = 0; i < n; ++i)
        if (isChanged[i]) changed.push_back(i);
    return false;
}

/// Drops the pairs of `kept` that name a changed proxy and merges `found` (the changed
/// proxies' pairs, so none is in both) in, in order, in place: the kept pairs packed
/// down, then the list filled from its end (the larger of the two lists' last pairs
/// first), so no second list of every pair is held (spheres4096's 37 000: 0.3 MB each
/// for the overlaps and the pairs that passed).
void BroadPhase::State::mergeKept(std::vector<ProxyPair>& kept, const std::vector<ProxyPair>& found) const {
    std::erase_if(kept, [&](const ProxyPair& q) { return isChanged[q.a] || isChanged[q.b]; });
    std::size_t k = kept.size(), f = found.size(), to = k + f;
    detail::resizeGrowing(kept, to);
    while (f > 0) kept[--to] = k > 0 && found[f - 1] < kept[k - 1] ? kept[--k] : found[--f];
}

/// Moves each changed box out of its old tree and into its new one, or reloads a tree
/// when that is cheaper in the long run (see rebuildShare). Records the new state.
void BroadPhase::State::updateTrees(std::span<const BroadPhaseProxy> proxies, bool restart) {
    std::array<std::size_t, 2> edits{0, 0};
    bool boundsChanged = restart;
    for (std::uint32_t i : changed) { // a box that stays in its tree is one edit of it
        const int from = moves[i], to = proxies[i].moves ? 1 : 0;
        const bool wasIn = isBounded(boxes[i]), isIn = isBounded(proxies[i].box);
        edits[from] += wasIn ? 1 : 0;
        edits[to] += isIn && (to != from || !wasIn) ? 1 : 0;
        boundsChanged |= !wasIn || !isIn;
    }
    std::array<bool, 2> reloading{};
    for (int t = 0; t < 2; ++t) reloading[t] = restart || trees[t].wantsReload(edits[t]);
    for (std::uint32_t i : changed) {
        const int from = moves[i], to = proxies[i].moves ? 1 : 0;
        if (!reloading[from] && isBounded(boxes[i])) trees[from].rtree.remove(Value(toBox(boxes[i]), i));
        if (!reloading[to] && isBounded(proxies[i].box)) trees[to].rtree.insert(Value(toBox(proxies[i].box), i));
        boxes[i] = proxies[i].box;
        moves[i] = static_cast<char>(to);
        groups[i] = proxies[i].group;
    }
    for (int t = 0; t < 2; ++t) {
        if (reloading[t]) reload(proxies, t);
        else trees[t].editsSinceLoad += edits[t];
    }
    if (!boundsChanged) return;
    unbounded.clear();
    for (std::uint32_t i = 0; i < proxies.size(); ++i)
        if (!isBounded(proxies[i].box)) unbounded.push_back(i);
}

void BroadPhase::State::reload(std::span<const BroadPhaseProxy> proxies, int tree) {
    values.clear();
    for (std::uint32_t i = 0; i < proxies.size(); ++i)
        if (moves[i] == tree && isBounded(proxies[i].box)) values.emplace_back(toBox(proxies[i].box), i);
    trees[tree].load(values);
}

/// Records the overlap of changed proxy i with j, unless it is found elsewhere or is of
/// no use: a pair of two changed proxies is kept from the lower index's query only, and
/// two static proxies or two of one non-zero group never pair (a cloth's thousands of
/// neighbouring particles stop here).
void BroadPhase::State::consider(std::uint32_t i, std::uint32_t j, std::vector<ProxyPair>& out) const {
    if (i == j || (isChanged[j] && j < i) || (!moves[i] && !moves[j])) return;
    if (groups[i] != 0 && groups[i] == groups[j]) return;
    out.push_back({std::min(i, j), std::max(i, j)});
}

/// Finds every overlap of every changed proxy and merges them into the sorted set (in
/// place of the changed proxies' old ones). A
/// static proxy only queries the moving tree; unbounded boxes (half-spaces) are tested
/// directly, against the unbounded list or, when changed themselves, against everything.
///
/// The queries only read the trees, so a share of the changed proxies may go to each
/// worker, which finds and sorts its share's pairs into its own list; the sorted lists
/// are merged, so the set and its order are the same however they were shared.
void BroadPhase::State::queryChanged(std::span<const BroadPhaseProxy> proxies, TaskSystem* tasks) {
    fresh.clear();
    const auto count = static_cast<std::uint32_t>(changed.size());
    const std::uint32_t workers = tasks == nullptr ? 1 : tasks->workerCount();
    // A query costs 1-3 us in spheres4096's pile (its 300 changed spheres took 0.4-0.8 ms
    // on one thread while the other waited), so 64 of them are worth a hand-over.
    constexpr std::uint32_t minShare = 64;
    const std::uint32_t shares = std::min(workers, count / minShare);
    if (shares < 2) {
        queryRun(proxies, 0, changed.size(), fresh);
        std::sort(fresh.begin(), fresh.end());
    } else {
        if (freshRuns.size() < shares) freshRuns.resize(shares);
        detail::parallelFor(tasks, shares, 1, [&](std::uint32_t first, std::uint32_t last) {
            for (std::uint32_t k = first; k < last; ++k) {
                std::vector<ProxyPair>& run = freshRuns[k];
                run.clear();
                queryRun(proxies, std::uint64_t{count} * k / shares, std::uint64_t{count} * (k + 1) / shares, run);
                std::sort(run.begin(), run.end());
            }
        });
        for (std::uint32_t k = 0; k < shares; ++k) {
            merged.clear();
            std::merge(fresh.begin(), fresh.end(), freshRuns[k].begin(), freshRuns[k].end(), std::back_inserter(merged));
            fresh.swap(merged);
        }
    }
    mergeKept(overlaps, fresh);
}

/// The overlaps of changed[begin, end) into `out` (queryChanged).
void BroadPhase::State::queryRun(std::span<const BroadPhaseProxy> proxies, std::size_t begin, std::size_t end,
                                 std::vector<ProxyPair>& out) const {
    for (std::size_t k = begin; k < end; ++k) {
        const std::uint32_t i = changed[k];
        const Aabb& box = proxies[i].box;
        if (!isBounded(box)) {
            for (std::uint32_t j = 0; j < proxies.size(); ++j)
                if (box.overlaps(proxies[j].box)) consider(i, j, out);
            continue;
        }
        const RBox query = toBox(box);
        auto visit = boost::make_function_output_iterator([&](const Value& v) { consider(i, v.second, out); });
        trees[1].rtree.query(bgi::intersects(query), visit);
        if (moves[i]) trees[0].rtree.query(bgi::intersects(query), visit);
        for (std::uint32_t u : unbounded)
            if (box.overlaps(proxies[u].box)) consider(i, u, out);
    }
}

void BroadPhase::query(const Aabb& box, std::vector<std::uint32_t>& out) const {
    const State& s = *state_;
    out = s.unbounded;
    const RBox region = toBox(box);
    auto keep = boost::make_function_output_iterator([&](const Value& v) { out.push_back(v.second); });
    for (const Tree& tree : s.trees) tree.rtree.query(bgi::intersects(region), keep);
    std::sort(out.begin(), out.end());
}

void BroadPhase::ignore(std::uint32_t a, std::uint32_t b) {
    const std::uint64_t key = ownerKey(a, b);
    const auto it = std::lower_bound(ignored_.begin(), ignored_.end(), key);
    if (it == ignored_.end() || *it != key) {
        ignored_.insert(it, key);
        if (state_) state_->recheckAll = true;
    }
}

void BroadPhase::unignore(std::uint32_t a, std::uint32_t b) {
    const std::uint64_t key = ownerKey(a, b);
    const auto it = std::lower_bound(ignored_.begin(), ignored_.end(), key);
    if (it != ignored_.end() && *it == key) {
        ignored_.erase(it);
        if (state_) state_->recheckAll = true;
    }
}

bool BroadPhase::ignores(std::uint32_t a, std::uint32_t b) const {
    return std::binary_search(ignored_.begin(), ignored_.end(), ownerKey(a, b));
}

} // namespace jounce
