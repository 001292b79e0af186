// SPDX-License-Identifier: MIT
// Direct solves of acyclic groups of distance constraints (see direct_solve.hpp).

#include "physics/particles/direct_solve.hpp"
#include "physics/particles/stages.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace jounce::detail {
namespace {

/// Union-find over nodes with path halving; the smaller index becomes the root, so
/// the result does not depend on the order of unions.
std::uint32_t findRoot(std::vector<std::uint32_t>& parent, std::uint32_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
}

} // namespace

void buildDirectGroups(const ParticleSystem& ps, DirectSolver& solver) {
    solver.builtFor = ps.topologyVersion;
    solver.groups.clear();
    solver.solvedDirectly.assign(ps.distances.slotCount(), 0);
    // Nodes: the movable particles; a pinned particle is the ground and joins nothing
    // (a chain hung between two pins is still a path). A group is acyclic when it has
    // one edge fewer than its nodes, counting each pinned end as a node of its own.
    const std::size_t n = ps.slotCount();
    std::vector<std::uint32_t> parent(n);
    std::iota(parent.begin(), parent.end(), 0u);
    const auto movable = [&](std::uint32_t i) { return ps.w[i] > 0; };
    std::vector<std::uint8_t> cyclic(n, 0);
    for (std::size_t k = 0; k < ps.distances.slotCount(); ++k) {
        if (!ps.distances.isAlive(k)) continue;
        const DistanceConstraint& d = ps.distances.atSlot(k);
        if (!movable(d.a) || !movable(d.b)) continue;
        const std::uint32_t ra = findRoot(parent, d.a), rb = findRoot(parent, d.b);
        if (ra == rb) {
            cyclic[ra] = 1; // this edge closes a loop
            continue;
        }
        parent[std::max(ra, rb)] = std::min(ra, rb);
        cyclic[std::min(ra, rb)] |= cyclic[std::max(ra, rb)];
    }
    // Collect each acyclic group's constraints in slot order; groups in the order of
    // their first constraint.
    std::vector<std::int64_t> groupOf(n, -1);
    for (std::size_t k = 0; k < ps.distances.slotCount(); ++k) {
        if (!ps.distances.isAlive(k)) continue;
        const DistanceConstraint& d = ps.distances.atSlot(k);
        const std::uint32_t anchor = movable(d.a) ? d.a : d.b;
        if (!movable(anchor)) continue; // both ends pinned: nothing to solve
        const std::uint32_t root = findRoot(parent, anchor);
        if (cyclic[root]) continue;
        if (groupOf[root] < 0) {
            groupOf[root] = static_cast<std::int64_t>(solver.groups.size());
            solver.groups.emplace_back();
        }
        solver.groups[static_cast<std::size_t>(groupOf[root])].constraints.push_back(static_cast<std::uint32_t>(k));
        solver.solvedDirectly[k] = 1;
    }
    // A group of one constraint gains nothing over Gauss-Seidel.
    for (DirectGroup& g : solver.groups)
        if (g.constraints.size() == 1) solver.solvedDirectly[g.constraints[0]] = 0;
    std::erase_if(solver.groups, [](const DirectGroup& g) { return g.constraints.size() < 2; });

    for (DirectGroup& g : solver.groups) {
        // The constraints at each movable particle, then every pair of them.
        std::vector<std::pair<std::uint32_t, std::uint32_t>> ends; // (particle, position in group)
        for (std::uint32_t i = 0; i < g.constraints.size(); ++i) {
            const DistanceConstraint& d = ps.distances.atSlot(g.constraints[i]);
            if (movable(d.a)) ends.emplace_back(d.a, i);
            if (movable(d.b)) ends.emplace_back(d.b, i);
        }
        std::sort(ends.begin(), ends.end());
        const auto endSign = [&](std::uint32_t i, std::uint32_t particle) {
            return ps.distances.atSlot(g.constraints[i]).a == particle ? real(1) : real(-1);
        };
        for (std::size_t s = 0; s < ends.size();) {
            std::size_t e = s;
            while (e < ends.size() && ends[e].first == ends[s].first) ++e;
            for (std::size_t x = s; x < e; ++x)
                for (std::size_t y = x + 1; y < e; ++y) {
                    const std::uint32_t particle = ends[x].first, i = ends[x].second, j = ends[y].second;
                    g.sharing.push_back({i, j, particle, endSign(i, particle) * endSign(j, particle)});
                }
            s = e;
        }
        // The pattern: the diagonal and the sharing pairs (lower triangle).
        std::vector<Eigen::Triplet<real>> pattern;
        for (std::uint32_t i = 0; i < g.constraints.size(); ++i) pattern.emplace_back(i, i, real(1));
        for (const DirectGroup::Sharing& s : g.sharing) pattern.emplace_back(std::max(s.i, s.j), std::min(s.i, s.j), real(0));
        const auto m = static_cast<Eigen::Index>(g.constraints.size());
        g.matrix.resize(m, m);
        g.matrix.setFromTriplets(pattern.begin(), pattern.end());
        g.ldlt = std::make_unique<Eigen::SimplicialLDLT<Eigen::SparseMatrix<real>>>();
        g.ldlt->analyzePattern(g.matrix);
    }
}

void projectDirect(ParticleSystem& ps, DirectSolver& solver, const ParticleSettings& settings, real h) {
    if (solver.builtFor != ps.topologyVersion) buildDirectGroups(ps, solver);
    const bool pbd = settings.solver == ParticleSolver::PBD;
    // PBD: n solves with k' leave (1 - k) of the error, as for Gauss-Seidel.
    const real k = pbd ? pbdStiffnessPerIteration(settings) : 1;
    std::vector<Vec3> normals;
    std::vector<Eigen::Triplet<real>> entries;
    for (DirectGroup& g : solver.groups) {
        const auto m = static_cast<Eigen::Index>(g.constraints.size());
        normals.resize(g.constraints.size());
        Eigen::Matrix<real, Eigen::Dynamic, 1> rhs(m);
        entries.clear();
        for (Eigen::Index i = 0; i < m; ++i) {
            const DistanceConstraint& d = ps.distances.atSlot(g.constraints[static_cast<std::size_t>(i)]);
            const Vec3 delta = ps.p[d.a] - ps.p[d.b];
            const real length = delta.norm();
            // Coincident ends have no direction; any unit vector keeps the matrix regular.
            normals[static_cast<std::size_t>(i)] = length > real(1e-12) ? Vec3(delta / length) : Vec3::UnitY();
            const real alphaTilde = pbd ? 0 : d.compliance / (h * h);
            entries.emplace_back(i, i, ps.w[d.a] + ps.w[d.b] + alphaTilde);
            rhs[i] = -(length - d.restLength) - alphaTilde * (pbd ? 0 : d.lambda);
        }
        for (const DirectGroup::Sharing& s : g.sharing)
            entries.emplace_back(std::max(s.i, s.j), std::min(s.i, s.j),
                                 s.sign * ps.w[s.particle] * normals[s.i].dot(normals[s.j]));
        g.matrix.setFromTriplets(entries.begin(), entries.end());
        g.ldlt->factorize(g.matrix);
        if (g.ldlt->info() != Eigen::Success) continue; // singular: leave the group for next time
        const Eigen::Matrix<real, Eigen::Dynamic, 1> dlambda = g.ldlt->solve(rhs) * k;
        for (Eigen::Index i = 0; i < m; ++i) {
            DistanceConstraint& d = ps.distances.atSlot(g.constraints[static_cast<std::size_t>(i)]);
            const Vec3 n = normals[static_cast<std::size_t>(i)] * dlambda[i];
            d.lambda += dlambda[i];
            ps.p[d.a] += n * ps.w[d.a];
            ps.p[d.b] -= n * ps.w[d.b];
        }
    }
}

} // namespace jounce::detail
