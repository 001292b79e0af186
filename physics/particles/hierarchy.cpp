// SPDX-License-Identifier: MIT
// Hierarchical position-based dynamics (Müller 2008 "Hierarchical Position Based
// Dynamics"; the survey's section on it). A Gauss-Seidel sweep carries a correction one
// link further per sweep, so a large cloth stretches under its own weight when the
// iterations are few. Coarse levels fix that: each is a subset of the finer level's
// particles; its one-sided distance constraints (they act only when stretched, so the
// cloth can still fold) are projected first, coarsest first, and each level's
// corrections are carried down ("prolongation") to the particles it left out, as the
// weighted mean of their coarse neighbours' corrections.
//
// Building (Müller 2008 sec. 4): a greedy independent set of the finer graph in the
// given order (every left-out particle then has a coarse neighbour), then every left-out
// particle with fewer than k coarse neighbours joins too; coarse particles are linked
// when at most two finer edges apart. A coarse particle's mass is its own plus its
// children's shares (weight times mass), which makes the carried-down corrections keep
// linear momentum: sum_j m'_j dp_j = 0 for the coarse projection, and the children's
// moves sum_i m_i sum_j w_ij dp_j add exactly the children's shares.

#include "physics/particles/stages.hpp"

#include <algorithm>
#include <cmath>

namespace jounce::detail {
namespace {

/// The graph of one level: nodes are particle slots, adjacency sorted.
struct LevelGraph {
    std::vector<std::uint32_t> slots;
    std::vector<real> inverseMass;
    std::vector<std::vector<std::uint32_t>> adjacent;
};

/// Which nodes of the graph the coarser level keeps (1) and which it leaves out (0).
std::vector<std::uint8_t> chooseCoarse(const LevelGraph& g, int k) {
    const std::size_t n = g.slots.size();
    std::vector<std::uint8_t> coarse(n, 0);
    const auto coarseNeighbours = [&](std::size_t i) {
        return static_cast<std::size_t>(
            std::count_if(g.adjacent[i].begin(), g.adjacent[i].end(), [&](std::uint32_t j) { return coarse[j] != 0; }));
    };
    for (std::size_t i = 0; i < n; ++i) coarse[i] = coarseNeighbours(i) == 0; // independent set
    for (std::size_t i = 0; i < n; ++i)
        if (!coarse[i] && coarseNeighbours(i) < std::min<std::size_t>(static_cast<std::size_t>(k), g.adjacent[i].size()))
            coarse[i] = 1;
    return coarse;
}

/// One coarse level from graph g, and the coarse graph for the next.
ParticleHierarchyLevel coarsen(const ParticleSystem& ps, const LevelGraph& g, const std::vector<std::uint8_t>& coarse,
                               LevelGraph& next) {
    const std::size_t n = g.slots.size();
    std::vector<std::uint32_t> index(n, ~std::uint32_t(0));
    std::vector<std::size_t> nodeOf; // coarse index -> node
    ParticleHierarchyLevel level;
    next = LevelGraph{};
    for (std::size_t i = 0; i < n; ++i) {
        if (!coarse[i]) continue;
        index[i] = static_cast<std::uint32_t>(level.particles.size());
        nodeOf.push_back(i);
        level.particles.push_back(g.slots[i]);
        next.slots.push_back(g.slots[i]);
    }
    // Children, their parents and weights (by inverse rest distance); masses shared out.
    std::vector<real> mass(level.particles.size(), 0);
    for (std::size_t i = 0; i < n; ++i)
        if (coarse[i] && g.inverseMass[i] > 0) mass[index[i]] = 1 / g.inverseMass[i];
    level.parentStart.push_back(0);
    for (std::size_t i = 0; i < n; ++i) {
        if (coarse[i]) continue;
        level.children.push_back(g.slots[i]);
        const std::size_t first = level.parents.size();
        real total = 0;
        for (const std::uint32_t j : g.adjacent[i]) {
            if (!coarse[j]) continue;
            const real distance = (ps.x[g.slots[i]] - ps.x[g.slots[j]]).norm();
            const real weight = distance > 0 ? 1 / distance : 1;
            level.parents.push_back(index[j]);
            level.weights.push_back(weight);
            total += weight;
        }
        for (std::size_t m = first; m < level.weights.size(); ++m) {
            level.weights[m] /= total;
            if (g.inverseMass[i] > 0) mass[level.parents[m]] += level.weights[m] / g.inverseMass[i];
        }
        level.parentStart.push_back(static_cast<std::uint32_t>(level.parents.size()));
    }
    for (std::size_t c = 0; c < level.particles.size(); ++c)
        level.inverseMass.push_back(g.inverseMass[nodeOf[c]] > 0 ? 1 / mass[c] : real(0)); // pinned stays pinned
    next.inverseMass = level.inverseMass;
    // Links: coarse particles one or two finer edges apart.
    next.adjacent.assign(level.particles.size(), {});
    for (std::size_t i = 0; i < n; ++i) {
        if (!coarse[i]) continue;
        std::vector<std::uint32_t> reach;
        for (const std::uint32_t a : g.adjacent[i]) {
            if (coarse[a]) reach.push_back(index[a]);
            for (const std::uint32_t b : g.adjacent[a])
                if (coarse[b] && b != i) reach.push_back(index[b]);
        }
        std::sort(reach.begin(), reach.end());
        reach.erase(std::unique(reach.begin(), reach.end()), reach.end());
        next.adjacent[index[i]] = reach;
        for (const std::uint32_t j : reach)
            if (j > index[i]) {
                level.links.push_back({index[i], j});
                level.restLength.push_back((ps.x[level.particles[index[i]]] - ps.x[level.particles[j]]).norm());
            }
    }
    return level;
}

} // namespace

ParticleHierarchy buildHierarchy(const ParticleSystem& ps, const std::vector<std::uint32_t>& slots,
                                 const std::vector<std::array<std::uint32_t, 2>>& edges, int levels, int k) {
    LevelGraph g;
    g.slots = slots;
    for (const std::uint32_t s : slots) g.inverseMass.push_back(ps.w[s]);
    g.adjacent.assign(slots.size(), {});
    for (const auto& [a, b] : edges) {
        g.adjacent[a].push_back(b);
        g.adjacent[b].push_back(a);
    }
    for (auto& list : g.adjacent) {
        std::sort(list.begin(), list.end());
        list.erase(std::unique(list.begin(), list.end()), list.end());
    }
    ParticleHierarchy h;
    for (int l = 0; l < levels; ++l) {
        const std::vector<std::uint8_t> coarse = chooseCoarse(g, k);
        const auto kept = static_cast<std::size_t>(std::count(coarse.begin(), coarse.end(), 1));
        if (kept < 2 || kept == g.slots.size()) break; // nothing left to coarsen
        LevelGraph next;
        h.levels.push_back(coarsen(ps, g, coarse, next));
        if (h.levels.back().links.empty()) {
            h.levels.pop_back();
            break;
        }
        g = std::move(next);
    }
    return h;
}

void projectHierarchies(ParticleSystem& ps, std::vector<Vec3>& start) {
    if (ps.hierarchies.size() == 0) return;
    for (std::size_t s = 0; s < ps.hierarchies.slotCount(); ++s) {
        if (!ps.hierarchies.isAlive(s)) continue;
        const ParticleHierarchy& h = ps.hierarchies.atSlot(s);
        // Corrections are measured from where the pass started, so what a coarser level
        // moved a particle by is carried on down with what its own level adds.
        start = ps.p;
        for (std::size_t l = h.levels.size(); l-- > 0;) {
            const ParticleHierarchyLevel& level = h.levels[l];
            // One-sided distance constraints, rigid: C = |p_a - p_b| - L > 0 is projected away.
            for (std::size_t m = 0; m < level.links.size(); ++m) {
                const auto [a, b] = level.links[m];
                const std::uint32_t sa = level.particles[a], sb = level.particles[b];
                const real wa = ps.moves(sa) ? level.inverseMass[a] : 0, wb = ps.moves(sb) ? level.inverseMass[b] : 0;
                if (!(wa + wb > 0)) continue;
                const Vec3 d = ps.p[sa] - ps.p[sb];
                const real length = d.norm();
                const real c = length - level.restLength[m];
                if (!(c > 0)) continue;
                const Vec3 correction = d * (c / (length * (wa + wb)));
                ps.p[sa] -= correction * wa;
                ps.p[sb] += correction * wb;
            }
            // Prolongation: each left-out particle moves by its parents' mean correction.
            for (std::size_t k = 0; k < level.children.size(); ++k) {
                const std::uint32_t child = level.children[k];
                if (!ps.moves(child)) continue;
                Vec3 move = Vec3::Zero();
                for (std::uint32_t m = level.parentStart[k]; m < level.parentStart[k + 1]; ++m) {
                    const std::uint32_t parent = level.particles[level.parents[m]];
                    move += (ps.p[parent] - start[parent]) * level.weights[m];
                }
                ps.p[child] += move; // untouched so far: no coarser level holds it
            }
        }
    }
}

} // namespace jounce::detail
