// SPDX-License-Identifier: MIT
// Keeping a free group's angular momentum through the Gauss-Seidel sweep.
//
// Each projection moves its particles by dp_i = w_i grad_i C dlambda with
// sum_i p_i x grad_i C = 0: no torque about the positions p it is evaluated at
// (Müller 2007 sec. 3.3). The angular momentum the small step ends with, measured as
// sum m x' x v' with x' = p and v' = (p - x) / h, changes by sum m_i x_i x dp_i / h,
// the torque about the positions x the step *started* from, which is not zero:
//   - a spinning body loses a share ~ (omega h)^2 / 2 per small step (a pair spinning
//     at omega keeps cos(omega h) of it), so free bodies slow down;
//   - under load, a sweep's large opposite corrections (a balloon at over-pressure:
//     the volume pushes out, every edge pulls back) leave a torque that depends on the
//     order of the sweep and repeats every small step: a balloon at pressure 1.2 spun
//     itself up to 15 rad/s in 2 s, faster with more substeps. (A Jacobi sweep, all
//     corrections at once, has no order and no spin, but converges far slower.)
// After each sweep over the internal constraints, each free group (particles joined by
// internal constraints, none pinned: nothing outside the group can take the torque)
// gets a small rigid turn d theta x r_i, r_i = p_i - c about its centre of mass, chosen
// so that sum m_i x_i x (dp_i + d theta x r_i) = 0. The turn moves no centre of mass and
// changes no distance to first order. Contacts and attachments come later and keep
// their torques.

#include "physics/particles/stages.hpp"

#include "common/disjoint_sets.hpp"

#include <algorithm>
#include <numeric>

namespace jounce::detail {

void buildFreeGroups(ParticleSystem& ps) {
    ParticleSystem::FreeGroups& groups = ps.freeGroups;
    groups.builtFor = ps.topologyVersion;
    groups.groupStart.clear();
    groups.members.clear();
    const std::size_t n = ps.slotCount();
    std::vector<std::uint32_t> parent;
    DisjointSets sets(parent, n);
    std::vector<std::uint8_t> joined(n, 0);
    forEachInternalLink(ps, [&](std::uint32_t a, std::uint32_t b) {
        sets.unite(a, b);
        joined[a] = joined[b] = 1;
    });
    // A group with a pinned particle is held from outside: its torque is not its own.
    std::vector<std::uint8_t> held(n, 0);
    for (std::uint32_t i = 0; i < n; ++i)
        if (ps.isAlive(i) && joined[i] && ps.w[i] == 0) held[sets.find(i)] = 1;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> byRoot; // (root, slot), sorted
    for (std::uint32_t i = 0; i < n; ++i)
        if (ps.isAlive(i) && joined[i] && !held[sets.find(i)]) byRoot.emplace_back(sets.find(i), i);
    std::sort(byRoot.begin(), byRoot.end());
    for (std::size_t s = 0; s < byRoot.size(); ++s) {
        if (s == 0 || byRoot[s].first != byRoot[s - 1].first) groups.groupStart.push_back(static_cast<std::uint32_t>(s));
        groups.members.push_back(byRoot[s].second);
    }
    groups.groupStart.push_back(static_cast<std::uint32_t>(groups.members.size()));
}

void keepAngularMomentum(ParticleSystem& ps, const std::vector<Vec3>& before, const std::vector<real>& memberMass) {
    const ParticleSystem::FreeGroups& groups = ps.freeGroups;
    for (std::size_t g = 0; g + 1 < groups.groupStart.size(); ++g) {
        const auto first = groups.members.begin() + groups.groupStart[g];
        const auto last = groups.members.begin() + groups.groupStart[g + 1];
        const real* massOf = memberMass.data() + groups.groupStart[g];
        real mass = 0;
        Vec3 startCentre = Vec3::Zero(), centre = Vec3::Zero();
        for (auto it = first; it != last; ++it) {
            const real m = massOf[it - first];
            mass += m;
            startCentre += m * ps.x[*it];
            centre += m * ps.p[*it];
        }
        startCentre /= mass;
        centre /= mass;
        // The sweep's torque about the start positions, and how a turn d theta adds to it:
        // sum m s_i x (d theta x r_i) = A d theta, A = sum m ((s_i . r_i) I - r_i s_i^T).
        Vec3 torque = Vec3::Zero();
        Mat3 a = Mat3::Zero();
        for (auto it = first; it != last; ++it) {
            const real m = massOf[it - first];
            const Vec3 s = ps.x[*it] - startCentre, r = ps.p[*it] - centre;
            torque += m * s.cross(ps.p[*it] - before[*it]);
            a += m * (s.dot(r) * Mat3::Identity() - r * s.transpose());
        }
        if (torque.isZero(0)) continue;
        const Vec3 turn = pseudoInverseSolve(a, -torque);
        for (auto it = first; it != last; ++it) ps.p[*it] += turn.cross(ps.p[*it] - centre);
    }
}

} // namespace jounce::detail
