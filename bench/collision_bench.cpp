// SPDX-License-Identifier: MIT
// Microbenchmarks of the collision layer (Google Benchmark):
//   jounce-collision-bench [--benchmark_filter=REGEX]
// Pair functions run on fixed touching configurations; the broad phase (BP_*) runs on
// moving boxes (scene below) with BroadPhase and with the variants it was chosen from:
//   jounce-collision-bench --benchmark_filter='BP_' --benchmark_repetitions=3

#include <jounce/jounce.hpp>

#include <benchmark/benchmark.h>
#include <boost/geometry.hpp>
#include <boost/geometry/index/rtree.hpp>
#include <boost/iterator/function_output_iterator.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>
#include <set>
#include <span>
#include <string>
#include <vector>

using namespace jounce;

namespace {

Transform at(const Vec3& p, real degreesAboutY = 0) {
    return {p, Quat(Eigen::AngleAxis<real>(degreesAboutY * real(3.14159265358979) / 180, Vec3::UnitY()))};
}

template <typename A, typename B>
void runPair(benchmark::State& state, const A& a, const Transform& pa, const B& b, const Transform& pb) {
    Manifold m;
    for (auto _ : state) {
        benchmark::DoNotOptimize(collide(a, pa, b, pb, real(0.01), m));
        benchmark::DoNotOptimize(m);
    }
}

void SphereSphere(benchmark::State& s) { runPair(s, Shape{Sphere{real(0.5)}}, at(Vec3(0, real(0.95), 0)), Shape{Sphere{real(0.5)}}, at(Vec3::Zero())); }
void SphereCapsule(benchmark::State& s) { runPair(s, Shape{Sphere{real(0.5)}}, at(Vec3(real(0.95), real(0.3), 0)), Shape{Capsule{real(0.5), 1}}, at(Vec3::Zero())); }
void CapsuleCapsule(benchmark::State& s) { runPair(s, Shape{Capsule{real(0.5), 1}}, at(Vec3(real(0.95), 0, 0), 30), Shape{Capsule{real(0.5), 1}}, at(Vec3::Zero())); }
void SphereBox(benchmark::State& s) { runPair(s, Shape{Sphere{real(0.5)}}, at(Vec3(real(0.2), real(0.99), 0)), Shape{Box{Vec3::Constant(real(0.5))}}, at(Vec3::Zero())); }
void CapsuleBox(benchmark::State& s) { runPair(s, Shape{Capsule{real(0.25), real(0.5)}}, at(Vec3(real(0.2), real(1.24), 0)), Shape{Box{Vec3::Constant(real(0.5))}}, at(Vec3::Zero())); }
void BoxBoxFace(benchmark::State& s) { runPair(s, Shape{Box{Vec3::Constant(real(0.5))}}, at(Vec3(0, real(0.99), 0), 20), Shape{Box{Vec3::Constant(real(0.5))}}, at(Vec3::Zero())); }
void BoxBoxEdge(benchmark::State& s) {
    const Transform a{Vec3(0, real(1.39), 0), Quat(Eigen::AngleAxis<real>(real(0.785398), Vec3::UnitZ()))};
    const Transform b{Vec3::Zero(), Quat(Eigen::AngleAxis<real>(real(0.785398), Vec3::UnitX()))};
    runPair(s, Shape{Box{Vec3::Constant(real(0.5))}}, a, Shape{Box{Vec3::Constant(real(0.5))}}, b);
}
void BoxHalfSpace(benchmark::State& s) { runPair(s, Shape{Box{Vec3::Constant(real(0.5))}}, at(Vec3(0, real(0.49), 0), 10), Shape{HalfSpace{}}, at(Vec3::Zero())); }
void SphereHalfSpace(benchmark::State& s) { runPair(s, Shape{Sphere{real(0.5)}}, at(Vec3(0, real(0.49), 0)), Shape{HalfSpace{}}, at(Vec3::Zero())); }
// Cylinders (GJK + EPA + clipped features): standing on a box's face 1 mm deep, lying on
// it, on another cylinder's cap, side by side, and on a half-space (closed form).
void CylinderBoxCap(benchmark::State& s) { runPair(s, Shape{Cylinder{real(0.4), real(0.5)}}, at(Vec3(real(0.1), real(0.999), 0), 20), Shape{Box{Vec3::Constant(real(0.5))}}, at(Vec3::Zero())); }
void CylinderBoxSide(benchmark::State& s) {
    const Transform lying{Vec3(0, real(0.899), 0), Quat(Eigen::AngleAxis<real>(real(1.5707963), Vec3::UnitX()))};
    runPair(s, Shape{Cylinder{real(0.4), real(0.5)}}, lying, Shape{Box{Vec3::Constant(real(0.5))}}, at(Vec3::Zero()));
}
void CylinderCylinderCap(benchmark::State& s) { runPair(s, Shape{Cylinder{real(0.4), real(0.5)}}, at(Vec3(real(0.1), real(0.999), 0), 20), Shape{Cylinder{real(0.4), real(0.5)}}, at(Vec3::Zero())); }
void CylinderHalfSpace(benchmark::State& s) { runPair(s, Shape{Cylinder{real(0.4), real(0.5)}}, at(Vec3(0, real(0.499), 0)), Shape{HalfSpace{}}, at(Vec3::Zero())); }
void CapsuleHalfSpace(benchmark::State& s) { runPair(s, Shape{Capsule{real(0.5), 1}}, at(Vec3(0, real(0.49), 0)), Shape{HalfSpace{}}, at(Vec3::Zero())); }

// ---- Broad phase --------------------------------------------------------------------
// Scene: `moving` unit boxes in a cube of side 2 cbrt(moving + fixed) m (about one box per
// 8 m^3), each moving `speed` per step in a random direction and bouncing off the cube's
// walls (so the scene stays the same however many steps a run takes), plus `fixed`
// static boxes scattered in the same cube. Fat boxes are refreshed as the world does
// (fattenAabb, 0.1 m margin): at 20 mm per step (1.2 m/s at 60 Hz) a fat box changes
// about every 7th step; at 200 mm per step every fat box changes every step.

namespace bg = boost::geometry;
namespace bgi = boost::geometry::index;

class BroadPhaseScene {
public:
    BroadPhaseScene(std::size_t moving, std::size_t fixed, real speed)
        : side_(2 * std::cbrt(static_cast<real>(moving + fixed))) {
        std::mt19937 rng(42);
        std::uniform_real_distribution<real> where(1, side_ - 1), dir(-1, 1), phase(0, 1);
        const std::size_t n = moving + fixed;
        centre_.resize(n);
        velocity_.assign(n, Vec3::Zero());
        proxies_.resize(n);
        for (std::size_t i = 0; i < n; ++i) {
            centre_[i] = Vec3(where(rng), where(rng), where(rng));
            proxies_[i].owner = static_cast<std::uint32_t>(i);
            proxies_[i].moves = i >= fixed; // static geometry first, as a level loads before its bodies
            proxies_[i].box = tightBox(i).fattened(margin);
            if (!proxies_[i].moves) continue;
            velocity_[i] = Vec3(dir(rng), dir(rng), dir(rng)).normalized() * speed;
            // Each fat box was made a random part of its life ago (it still holds the tight
            // box): made all at once, they would change on the same steps forever after.
            const Vec3 back = velocity_[i] * (phase(rng) * margin / velocity_[i].cwiseAbs().maxCoeff());
            proxies_[i].box = Aabb{proxies_[i].box.min - back, proxies_[i].box.max - back};
        }
    }

    /// Moves every moving box one step; returns how many fat boxes changed.
    std::size_t step() {
        std::size_t changed = 0;
        for (std::size_t i = 0; i < centre_.size(); ++i) {
            if (!proxies_[i].moves) continue;
            centre_[i] += velocity_[i];
            for (int k = 0; k < 3; ++k)
                if (centre_[i][k] < 1 || centre_[i][k] > side_ - 1) velocity_[i][k] = -velocity_[i][k];
            changed += fattenAabb(proxies_[i].box, tightBox(i), margin) ? 1 : 0;
        }
        return changed;
    }

    std::vector<BroadPhaseProxy>& proxies() { return proxies_; }

private:
    static constexpr real margin = real(0.1);
    Aabb tightBox(std::size_t i) const { return Aabb{centre_[i].array() - real(0.5), centre_[i].array() + real(0.5)}; }

    real side_;
    std::vector<Vec3> centre_, velocity_;
    std::vector<BroadPhaseProxy> proxies_;
};

// The variants measured before BroadPhase's design was chosen (docs/collision.md, "Broad
// phase"). Each gives BroadPhase's output (checked against (a) before timing) except the
// ignore list, which they leave out.
namespace variant {

using Point = bg::model::point<real, 3, bg::cs::cartesian>;
using RBox = bg::model::box<Point>;
using Value = std::pair<RBox, std::uint32_t>;

RBox toBox(const Aabb& a) { return RBox(Point(a.min.x(), a.min.y(), a.min.z()), Point(a.max.x(), a.max.y(), a.max.z())); }
bool isBounded(const Aabb& a) { return a.min.allFinite() && a.max.allFinite(); }
bool active(const BroadPhaseProxy& p) { return p.moves && p.awake; }
bool sameBox(const Aabb& a, const Aabb& b) { return a.min == b.min && a.max == b.max; }

/// The rules apart from overlap and the ignore list.
bool rulesPass(const BroadPhaseProxy& p, const BroadPhaseProxy& q) {
    return p.owner != q.owner && (active(p) || active(q)) && (p.category & q.mask) != 0 && (q.category & p.mask) != 0;
}

void addIfPasses(std::span<const BroadPhaseProxy> p, std::uint32_t i, std::uint32_t j, std::vector<ProxyPair>& out) {
    if (i != j && rulesPass(p[i], p[j])) out.push_back({std::min(i, j), std::max(i, j)});
}

void sortUnique(std::vector<ProxyPair>& out) {
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
}

std::vector<std::uint32_t> unboundedOf(std::span<const BroadPhaseProxy> p) {
    std::vector<std::uint32_t> u;
    for (std::uint32_t i = 0; i < p.size(); ++i)
        if (!isBounded(p[i].box)) u.push_back(i);
    return u;
}

/// Unbounded boxes against everything, directly (an active one tests all proxies).
void pairUnbounded(std::span<const BroadPhaseProxy> p, const std::vector<std::uint32_t>& unbounded, std::vector<ProxyPair>& out) {
    for (std::uint32_t u : unbounded)
        for (std::uint32_t j = 0; j < p.size(); ++j)
            if ((active(p[u]) || active(p[j])) && p[u].box.overlaps(p[j].box)) addIfPasses(p, u, j, out);
}

/// Every active bounded box queries `tree`; hits pass `keep(i, j)`.
template <class Tree, class Keep>
void queryActive(std::span<const BroadPhaseProxy> p, const Tree& tree, Keep keep, std::vector<ProxyPair>& out) {
    for (std::uint32_t i = 0; i < p.size(); ++i) {
        if (!active(p[i]) || !isBounded(p[i].box)) continue;
        tree.query(bgi::intersects(toBox(p[i].box)), boost::make_function_output_iterator([&](const Value& v) {
                       if (keep(i, v.second)) addIfPasses(p, i, v.second, out);
                   }));
    }
}

/// (a) What BroadPhase did before: an STR bulk load of every bounded box each call, one
/// query per active box.
class RebuildQueryAll {
public:
    void findPairs(std::span<const BroadPhaseProxy> p, std::vector<ProxyPair>& out) {
        out.clear();
        values_.clear();
        for (std::uint32_t i = 0; i < p.size(); ++i)
            if (isBounded(p[i].box)) values_.emplace_back(toBox(p[i].box), i);
        tree_ = decltype(tree_)(values_.begin(), values_.end());
        queryActive(p, tree_, [&](std::uint32_t i, std::uint32_t j) { return !active(p[j]) || j > i; }, out);
        pairUnbounded(p, unboundedOf(p), out);
        sortUnique(out);
    }

private:
    bgi::rtree<Value, bgi::quadratic<16>> tree_;
    std::vector<Value> values_;
};

/// (b) One persistent tree: only boxes that changed since the last call are removed and
/// reinserted (a new proxy count rebuilds it); every active box still queries it.
template <class Params>
class IncrementalQueryAll {
public:
    void findPairs(std::span<const BroadPhaseProxy> p, std::vector<ProxyPair>& out) {
        out.clear();
        if (p.size() != boxes_.size()) rebuild(p);
        else update(p);
        queryActive(p, tree_, [&](std::uint32_t i, std::uint32_t j) { return !active(p[j]) || j > i; }, out);
        pairUnbounded(p, unboundedOf(p), out);
        sortUnique(out);
    }

private:
    void rebuild(std::span<const BroadPhaseProxy> p) {
        std::vector<Value> values;
        boxes_.clear();
        for (std::uint32_t i = 0; i < p.size(); ++i) {
            boxes_.push_back(p[i].box);
            if (isBounded(p[i].box)) values.emplace_back(toBox(p[i].box), i);
        }
        tree_ = decltype(tree_)(values.begin(), values.end());
    }
    void update(std::span<const BroadPhaseProxy> p) {
        for (std::uint32_t i = 0; i < p.size(); ++i) {
            if (sameBox(p[i].box, boxes_[i])) continue;
            if (isBounded(boxes_[i])) tree_.remove(Value(toBox(boxes_[i]), i));
            if (isBounded(p[i].box)) tree_.insert(Value(toBox(p[i].box), i));
            boxes_[i] = p[i].box;
        }
    }

    bgi::rtree<Value, Params> tree_;
    std::vector<Aabb> boxes_;
};

/// (c) Two trees: resting boxes (static or asleep), rebuilt only when one of them
/// changes, and the active ones, bulk-loaded each call. An active box queries the active
/// tree keeping only j > i (each pair once) and the resting tree.
class SplitTrees {
public:
    void findPairs(std::span<const BroadPhaseProxy> p, std::vector<ProxyPair>& out) {
        out.clear();
        refreshResting(p);
        std::vector<Value> values;
        for (std::uint32_t i = 0; i < p.size(); ++i)
            if (active(p[i]) && isBounded(p[i].box)) values.emplace_back(toBox(p[i].box), i);
        activeTree_ = decltype(activeTree_)(values.begin(), values.end());
        queryActive(p, activeTree_, [](std::uint32_t i, std::uint32_t j) { return j > i; }, out);
        queryActive(p, restingTree_, [](std::uint32_t, std::uint32_t) { return true; }, out);
        pairUnbounded(p, unboundedOf(p), out);
        sortUnique(out);
    }

protected:
    /// Rebuilds the resting tree when the set of resting boxes differs from last call's.
    void refreshResting(std::span<const BroadPhaseProxy> p) {
        std::vector<Value> values;
        for (std::uint32_t i = 0; i < p.size(); ++i)
            if (!active(p[i]) && isBounded(p[i].box)) values.emplace_back(toBox(p[i].box), i);
        const bool same = values.size() == resting_.size() &&
                          std::equal(values.begin(), values.end(), resting_.begin(), [&](const Value& a, const Value& b) {
                              return a.second == b.second && sameBox(p[a.second].box, restingBoxes_[a.second]);
                          });
        if (same) return;
        restingBoxes_.assign(p.size(), Aabb{});
        for (const Value& v : values) restingBoxes_[v.second] = p[v.second].box;
        resting_ = values;
        restingTree_ = decltype(restingTree_)(values.begin(), values.end());
    }

    bgi::rtree<Value, bgi::quadratic<16>> restingTree_, activeTree_;
    std::vector<Value> resting_;
    std::vector<Aabb> restingBoxes_;
};

/// (d) The resting tree of (c), with active-active pairs by sort-and-sweep along the axis
/// in which the active boxes' centres vary most.
class SplitSweep : SplitTrees {
public:
    void findPairs(std::span<const BroadPhaseProxy> p, std::vector<ProxyPair>& out) {
        out.clear();
        refreshResting(p);
        sweepActive(p, out);
        queryActive(p, restingTree_, [](std::uint32_t, std::uint32_t) { return true; }, out);
        pairUnbounded(p, unboundedOf(p), out);
        sortUnique(out);
    }

private:
    static int widestAxis(std::span<const BroadPhaseProxy> p, const std::vector<std::uint32_t>& ids) {
        Vec3 sum = Vec3::Zero(), sum2 = Vec3::Zero();
        for (std::uint32_t i : ids) {
            const Vec3 c = (p[i].box.min + p[i].box.max) / 2;
            sum += c;
            sum2 += c.cwiseProduct(c);
        }
        const Vec3 variance = sum2 - sum.cwiseProduct(sum) / static_cast<real>(std::max<std::size_t>(ids.size(), 1));
        int axis = 0;
        variance.maxCoeff(&axis);
        return axis;
    }
    void sweepActive(std::span<const BroadPhaseProxy> p, std::vector<ProxyPair>& out) {
        ids_.clear();
        for (std::uint32_t i = 0; i < p.size(); ++i)
            if (active(p[i]) && isBounded(p[i].box)) ids_.push_back(i);
        const int axis = widestAxis(p, ids_);
        std::sort(ids_.begin(), ids_.end(), [&](std::uint32_t a, std::uint32_t b) {
            return p[a].box.min[axis] < p[b].box.min[axis] || (p[a].box.min[axis] == p[b].box.min[axis] && a < b);
        });
        for (std::size_t k = 0; k < ids_.size(); ++k) {
            const Aabb& a = p[ids_[k]].box;
            for (std::size_t m = k + 1; m < ids_.size() && p[ids_[m]].box.min[axis] <= a.max[axis]; ++m)
                if (a.overlaps(p[ids_[m]].box)) addIfPasses(p, ids_[k], ids_[m], out);
        }
    }

    std::vector<std::uint32_t> ids_;
};

/// (e) Persistent overlaps: the tree of (b), and the overlapping pairs (with at least one
/// moving side) kept from call to call. Only boxes that changed are queried; the rest of
/// last call's overlaps still hold, as neither box moved. The rules are applied to the
/// kept overlaps on every call, so sleeping, filters and owners may change freely. The
/// tree is bulk-loaded again when more than `rebuildFraction` of the boxes changed since
/// it was last loaded (in this call alone if `perCall`).
struct PersistentOptions {
    double rebuildFraction = 0.25;
    bool perCall = true;
};

/// The spatial index of (e), first kind: one tree; a changed box is removed and
/// reinserted.
template <class Params>
class OneTree {
public:
    void build(const std::vector<Value>& values) { tree_ = decltype(tree_)(values.begin(), values.end()); }
    void move(std::uint32_t i, const Aabb& from, const Aabb& to) {
        if (isBounded(from)) tree_.remove(Value(toBox(from), i));
        if (isBounded(to)) tree_.insert(Value(toBox(to), i));
    }
    template <class Visit>
    void query(const Aabb& box, Visit visit) const {
        tree_.query(bgi::intersects(toBox(box)), boost::make_function_output_iterator([&](const Value& v) { visit(v.second); }));
    }

private:
    bgi::rtree<Value, Params> tree_;
};

/// Second kind: the bulk-loaded tree is left as it was built; a box that changed since
/// goes into a small second tree, and the first tree's entry for it is skipped.
template <class Params>
class PackedPlusRecent {
public:
    void build(const std::vector<Value>& values) {
        packed_ = decltype(packed_)(values.begin(), values.end());
        recent_.clear();
        stale_.assign(stale_.size(), 0);
    }
    void move(std::uint32_t i, const Aabb& from, const Aabb& to) {
        if (i >= stale_.size()) stale_.resize(i + 1, 0);
        if (stale_[i] && isBounded(from)) recent_.remove(Value(toBox(from), i));
        if (isBounded(to)) recent_.insert(Value(toBox(to), i));
        stale_[i] = 1;
    }
    template <class Visit>
    void query(const Aabb& box, Visit visit) const {
        const RBox b = toBox(box);
        packed_.query(bgi::intersects(b), boost::make_function_output_iterator([&](const Value& v) {
                          if (v.second >= stale_.size() || !stale_[v.second]) visit(v.second);
                      }));
        recent_.query(bgi::intersects(b), boost::make_function_output_iterator([&](const Value& v) { visit(v.second); }));
    }

private:
    bgi::rtree<Value, bgi::quadratic<16>> packed_;
    bgi::rtree<Value, Params> recent_;
    std::vector<char> stale_;
};

template <class Index>
class PersistentPairs {
public:
    explicit PersistentPairs(PersistentOptions o) : o_(o) {}

    void findPairs(std::span<const BroadPhaseProxy> p, std::vector<ProxyPair>& out) {
        const bool restart = findChanged(p);
        if (!changed_.empty()) {
            dropChangedOverlaps();
            sinceBuild_ = (o_.perCall ? 0 : sinceBuild_) + changed_.size();
            if (restart || static_cast<double>(sinceBuild_) > o_.rebuildFraction * static_cast<double>(p.size())) rebuild(p);
            else update(p);
            queryChanged(p);
            for (std::uint32_t i : changed_) isChanged_[i] = 0;
        }
        out.clear();
        for (const ProxyPair& pair : overlaps_)
            if (rulesPass(p[pair.a], p[pair.b])) out.push_back(pair);
    }

private:
    /// Lists the indices whose box or `moves` differ from last call; all of them when the
    /// count changed (indices then name other proxies). Returns whether it started over.
    bool findChanged(std::span<const BroadPhaseProxy> p) {
        changed_.clear();
        if (p.size() != boxes_.size()) {
            overlaps_.clear();
            boxes_.assign(p.size(), Aabb{});
            moves_.assign(p.size(), 0);
            isChanged_.assign(p.size(), 1);
            for (std::uint32_t i = 0; i < p.size(); ++i) changed_.push_back(i);
            return true;
        }
        for (std::uint32_t i = 0; i < p.size(); ++i)
            if (!sameBox(p[i].box, boxes_[i]) || p[i].moves != (moves_[i] != 0)) {
                changed_.push_back(i);
                isChanged_[i] = 1;
            }
        return false;
    }
    void dropChangedOverlaps() {
        std::erase_if(overlaps_, [&](const ProxyPair& q) { return isChanged_[q.a] || isChanged_[q.b]; });
    }
    void rebuild(std::span<const BroadPhaseProxy> p) {
        std::vector<Value> values;
        for (std::uint32_t i = 0; i < p.size(); ++i) {
            if (isBounded(p[i].box)) values.emplace_back(toBox(p[i].box), i);
            remember(p, i);
        }
        index_.build(values);
        unbounded_ = unboundedOf(p);
        sinceBuild_ = 0;
    }
    void update(std::span<const BroadPhaseProxy> p) {
        bool boundsChanged = false;
        for (std::uint32_t i : changed_) {
            index_.move(i, boxes_[i], p[i].box);
            boundsChanged |= !isBounded(boxes_[i]) || !isBounded(p[i].box);
            remember(p, i);
        }
        if (boundsChanged) unbounded_ = unboundedOf(p);
    }
    void remember(std::span<const BroadPhaseProxy> p, std::uint32_t i) {
        boxes_[i] = p[i].box;
        moves_[i] = p[i].moves ? 1 : 0;
    }
    /// A pair of two changed boxes is kept from the lower index's query only.
    void consider(std::uint32_t i, std::uint32_t j) {
        if (i == j || (!moves_[i] && !moves_[j]) || (isChanged_[j] && j < i)) return;
        fresh_.push_back({std::min(i, j), std::max(i, j)});
    }
    void queryChanged(std::span<const BroadPhaseProxy> p) {
        fresh_.clear();
        for (std::uint32_t i : changed_) {
            const Aabb& box = p[i].box;
            if (isBounded(box)) {
                index_.query(box, [&](std::uint32_t j) { consider(i, j); });
                for (std::uint32_t u : unbounded_)
                    if (box.overlaps(p[u].box)) consider(i, u);
            } else {
                for (std::uint32_t j = 0; j < p.size(); ++j)
                    if (box.overlaps(p[j].box)) consider(i, j);
            }
        }
        std::sort(fresh_.begin(), fresh_.end());
        merged_.clear();
        std::merge(overlaps_.begin(), overlaps_.end(), fresh_.begin(), fresh_.end(), std::back_inserter(merged_));
        overlaps_.swap(merged_);
    }

    PersistentOptions o_;
    std::size_t sinceBuild_ = 0;
    Index index_;
    std::vector<Aabb> boxes_;
    std::vector<char> moves_, isChanged_;
    std::vector<std::uint32_t> changed_, unbounded_;
    std::vector<ProxyPair> overlaps_, fresh_, merged_;
};

} // namespace variant

/// Times `finder` on the scene given by the arguments (moving boxes, static boxes, speed
/// in mm per step), after checking (once per benchmark) over a few steps that it pairs
/// exactly as (a), the simplest.
template <class Make>
void runBroadPhase(benchmark::State& state, const char* who, Make make) {
    const auto moving = static_cast<std::size_t>(state.range(0)), fixed = static_cast<std::size_t>(state.range(1));
    const real speed = static_cast<real>(state.range(2)) / 1000;
    std::vector<ProxyPair> pairs, expected;
    static std::set<std::string> checked;
    const std::string key = std::string(who) + "/" + std::to_string(moving) + "/" + std::to_string(fixed) + "/" +
                            std::to_string(state.range(2));
    if (checked.insert(key).second) {
        BroadPhaseScene check(moving, fixed, speed);
        auto copy = make();
        variant::RebuildQueryAll reference;
        for (int k = 0; k < 3; ++k, check.step()) {
            copy.findPairs(check.proxies(), pairs);
            reference.findPairs(check.proxies(), expected);
            if (pairs != expected) return state.SkipWithError("pairs differ from (a)");
        }
    }
    BroadPhaseScene scene(moving, fixed, speed);
    for (int k = 0; k < 60; ++k) scene.step(); // one second: fat boxes no longer change in step
    auto finder = make();
    const auto start = std::chrono::steady_clock::now();
    finder.findPairs(scene.proxies(), pairs); // the first call builds everything: reported apart
    const std::chrono::duration<double, std::milli> first = std::chrono::steady_clock::now() - start;
    std::size_t changed = 0;
    for (auto _ : state) {
        state.PauseTiming();
        changed += scene.step();
        state.ResumeTiming();
        finder.findPairs(scene.proxies(), pairs);
        benchmark::DoNotOptimize(pairs.data());
    }
    state.counters["pairs"] = static_cast<double>(pairs.size());
    state.counters["first_ms"] = first.count();
    state.counters["changed"] = static_cast<double>(changed) / static_cast<double>(state.iterations() * static_cast<std::int64_t>(moving));
}

using Quadratic16 = bgi::quadratic<16>;
using Quadratic8 = bgi::quadratic<8>;
using Rstar16 = bgi::rstar<16>;

void BP_Current(benchmark::State& s) { runBroadPhase(s, __func__, [] { return variant::RebuildQueryAll{}; }); }
void BP_IncrementalQuadratic(benchmark::State& s) { runBroadPhase(s, __func__, [] { return variant::IncrementalQueryAll<Quadratic16>{}; }); }
void BP_IncrementalRstar(benchmark::State& s) { runBroadPhase(s, __func__, [] { return variant::IncrementalQueryAll<Rstar16>{}; }); }
void BP_SplitTrees(benchmark::State& s) { runBroadPhase(s, __func__, [] { return variant::SplitTrees{}; }); }
void BP_SplitSweep(benchmark::State& s) { runBroadPhase(s, __func__, [] { return variant::SplitSweep{}; }); }
template <class Index>
void persistent(benchmark::State& s, const char* who, double fraction, bool perCall) {
    runBroadPhase(s, who, [=] { return variant::PersistentPairs<Index>({fraction, perCall}); });
}
using variant::OneTree;
using variant::PackedPlusRecent;
void BP_PersistentAlwaysRebuild(benchmark::State& s) { persistent<OneTree<Quadratic16>>(s, __func__, 0, true); }
void BP_PersistentNeverRebuild(benchmark::State& s) { persistent<OneTree<Quadratic16>>(s, __func__, 2, true); }
void BP_PersistentNeverRebuildRstar(benchmark::State& s) { persistent<OneTree<Rstar16>>(s, __func__, 2, true); }
void BP_PersistentNeverRebuild8(benchmark::State& s) { persistent<OneTree<Quadratic8>>(s, __func__, 2, true); }
void BP_PersistentPerCall15(benchmark::State& s) { persistent<OneTree<Quadratic16>>(s, __func__, 0.15, true); }
void BP_PersistentBudget10(benchmark::State& s) { persistent<OneTree<Quadratic16>>(s, __func__, 0.1, false); }
void BP_PersistentBudget25(benchmark::State& s) { persistent<OneTree<Quadratic16>>(s, __func__, 0.25, false); }
void BP_PersistentBudget50(benchmark::State& s) { persistent<OneTree<Quadratic16>>(s, __func__, 0.5, false); }
void BP_PersistentBudget25q8(benchmark::State& s) { persistent<OneTree<Quadratic8>>(s, __func__, 0.25, false); }
void BP_RecentBudget25(benchmark::State& s) { persistent<PackedPlusRecent<Quadratic16>>(s, __func__, 0.25, false); }
void BP_BroadPhase(benchmark::State& s) { runBroadPhase(s, __func__, [] { return BroadPhase{}; }); }

/// Moving boxes at 1k, 10k, 100k (slow and fast), and the static-heavy scene.
void broadPhaseScenes(benchmark::internal::Benchmark* b) {
    b->ArgNames({"moving", "static", "mm_per_step"})->Unit(benchmark::kMillisecond);
    for (std::int64_t n : {1000, 10000, 100000}) b->Args({n, 0, 20});
    for (std::int64_t n : {1000, 10000, 100000}) b->Args({n, 0, 200});
    b->Args({1000, 10000, 20});
}

/// How the rebuild policy fares as the share of fat boxes changing per step grows.
void broadPhaseSpeeds(benchmark::internal::Benchmark* b) {
    b->ArgNames({"moving", "static", "mm_per_step"})->Unit(benchmark::kMillisecond);
    for (std::int64_t n : {10000, 100000})
        for (std::int64_t mm : {5, 10, 40, 70, 100}) b->Args({n, 0, mm}); // 20 and 200: above
}

void RayCastBox(benchmark::State& state) {
    ShapeRayHit hit;
    const Shape box = Box{Vec3(1, 2, 3)};
    const Transform pose = at(Vec3(0, 0, 10), 30);
    for (auto _ : state) benchmark::DoNotOptimize(rayCast(box, pose, Vec3(real(0.1), real(0.2), 0), Vec3(0, 0, 20), hit));
}

} // namespace

BENCHMARK(SphereSphere);
BENCHMARK(SphereCapsule);
BENCHMARK(CapsuleCapsule);
BENCHMARK(SphereBox);
BENCHMARK(CapsuleBox);
BENCHMARK(BoxBoxFace);
BENCHMARK(BoxBoxEdge);
BENCHMARK(BoxHalfSpace);
BENCHMARK(SphereHalfSpace);
BENCHMARK(CapsuleHalfSpace);
BENCHMARK(CylinderBoxCap);
BENCHMARK(CylinderBoxSide);
BENCHMARK(CylinderCylinderCap);
BENCHMARK(CylinderHalfSpace);
BENCHMARK(RayCastBox);
BENCHMARK(BP_Current)->Apply(broadPhaseScenes);
BENCHMARK(BP_IncrementalQuadratic)->Apply(broadPhaseScenes);
BENCHMARK(BP_IncrementalRstar)->Apply(broadPhaseScenes);
BENCHMARK(BP_SplitTrees)->Apply(broadPhaseScenes);
BENCHMARK(BP_SplitSweep)->Apply(broadPhaseScenes);
BENCHMARK(BP_PersistentAlwaysRebuild)->Apply(broadPhaseScenes)->Apply(broadPhaseSpeeds);
BENCHMARK(BP_PersistentNeverRebuild)->Apply(broadPhaseScenes)->Apply(broadPhaseSpeeds);
BENCHMARK(BP_PersistentNeverRebuildRstar)->Apply(broadPhaseScenes)->Apply(broadPhaseSpeeds);
BENCHMARK(BP_PersistentNeverRebuild8)->Apply(broadPhaseScenes)->Apply(broadPhaseSpeeds);
BENCHMARK(BP_PersistentPerCall15)->Apply(broadPhaseScenes)->Apply(broadPhaseSpeeds);
BENCHMARK(BP_PersistentBudget10)->Apply(broadPhaseScenes)->Apply(broadPhaseSpeeds);
BENCHMARK(BP_PersistentBudget25)->Apply(broadPhaseScenes)->Apply(broadPhaseSpeeds);
BENCHMARK(BP_PersistentBudget50)->Apply(broadPhaseScenes)->Apply(broadPhaseSpeeds);
BENCHMARK(BP_PersistentBudget25q8)->Apply(broadPhaseScenes)->Apply(broadPhaseSpeeds);
BENCHMARK(BP_RecentBudget25)->Apply(broadPhaseScenes)->Apply(broadPhaseSpeeds);
BENCHMARK(BP_BroadPhase)->Apply(broadPhaseScenes)->Apply(broadPhaseSpeeds);

BENCHMARK_MAIN();
