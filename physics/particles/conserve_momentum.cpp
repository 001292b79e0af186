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

#include "common/parallel.hpp"

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

namespace {

/// Runs work(piece) for every piece, the k-th part of them on share k.
template <class Work> void forEachPiece(MomentumScratch& scratch, TaskSystem* tasks, Work work) {
    const auto count = static_cast<std::uint32_t>(scratch.pieces.size());
    parallelShares(tasks, count, 4, [&](std::uint32_t begin, std::uint32_t end) {
        for (std::uint32_t k = begin; k < end; ++k) work(scratch.pieces[k]);
    });
}

} // namespace

void startMomentumStep(const ParticleSystem& ps, const std::vector<real>& memberMass, MomentumScratch& scratch, TaskSystem* tasks) {
    // The sums run over pieces of at most `piece` members of one group, added up piece
    // after piece: the same pieces, and so the same bits, on any number of workers.
    constexpr std::uint32_t piece = 256;
    const ParticleSystem::FreeGroups& groups = ps.freeGroups;
    const std::size_t groupCount = groups.groupStart.empty() ? 0 : groups.groupStart.size() - 1;
    std::vector<MomentumScratch::Piece>& pieces = scratch.pieces;
    pieces.clear();
    scratch.firstPiece.resize(groupCount + 1);
    for (std::size_t g = 0; g < groupCount; ++g) {
        scratch.firstPiece[g] = static_cast<std::uint32_t>(pieces.size());
        for (std::uint32_t k = groups.groupStart[g]; k < groups.groupStart[g + 1]; k += piece)
            pieces.push_back({k, std::min(k + piece, groups.groupStart[g + 1]), static_cast<std::uint32_t>(g)});
    }
    scratch.firstPiece[groupCount] = static_cast<std::uint32_t>(pieces.size());
    // Each group's mass and centre at the start of the small step (x holds still
    // through its iterations; solve_particles.cpp calls this after the contacts that
    // move x).
    forEachPiece(scratch, tasks, [&](MomentumScratch::Piece& q) {
        for (std::uint32_t k = q.first; k < q.last; ++k) {
            q.mass += memberMass[k];
            q.startCentre += memberMass[k] * ps.x[groups.members[k]];
        }
    });
    scratch.groups.assign(groupCount, {});
    for (std::size_t g = 0; g < groupCount; ++g) {
        MomentumScratch::Group& s = scratch.groups[g];
        for (std::uint32_t k = scratch.firstPiece[g]; k < scratch.firstPiece[g + 1]; ++k) {
            s.mass += pieces[k].mass;
            s.startCentre += pieces[k].startCentre;
        }
        s.startCentre /= s.mass;
    }
    // Each member's arm about its group's start centre, which the sums after every
    // sweep read: computed once here instead of once a sweep.
    scratch.arm.resize(groups.members.size());
    forEachPiece(scratch, tasks, [&](const MomentumScratch::Piece& q) {
        const Vec3 c0 = scratch.groups[q.group].startCentre;
        for (std::uint32_t k = q.first; k < q.last; ++k) scratch.arm[k] = memberMass[k] * (ps.x[groups.members[k]] - c0);
    });
}

void rememberSweepStart(const ParticleSystem& ps, MomentumScratch& scratch, TaskSystem* tasks) {
    const std::vector<std::uint32_t>& members = ps.freeGroups.members;
    scratch.before.resize(members.size());
    forEachPiece(scratch, tasks, [&](const MomentumScratch::Piece& q) {
        for (std::uint32_t k = q.first; k < q.last; ++k) scratch.before[k] = ps.p[members[k]];
    });
}

void keepAngularMomentum(ParticleSystem& ps, const std::vector<real>& memberMass, MomentumScratch& scratch, TaskSystem* tasks) {
    const std::vector<std::uint32_t>& members = ps.freeGroups.members;
    std::vector<MomentumScratch::Group>& groups = scratch.groups;
    // One pass: the centre now, the sweep's torque about the start positions, and how a
    // turn d theta about the centre c adds to it,
    //   sum m s_i x (d theta x r_i) = A d theta, A = sum m ((s_i . r_i) I - r_i s_i^T),
    // with s_i = x_i - c0, r_i = p_i - c. Since sum m s_i = 0, r_i may be measured from
    // c0 instead of c (A is the same), so A needs no centre of this pass. The arms
    // m s_i were computed at the small step's start (startMomentumStep).
    forEachPiece(scratch, tasks, [&](MomentumScratch::Piece& q) {
        const Vec3 c0 = groups[q.group].startCentre;
        Vec3 centre = Vec3::Zero(), torque = Vec3::Zero();
        real trace = 0;
        Mat3 outer = Mat3::Zero();
        for (std::uint32_t k = q.first; k < q.last; ++k) {
            const Vec3& p = ps.p[members[k]];
            const Vec3& ms = scratch.arm[k];
            const Vec3 r = p - c0;
            centre += memberMass[k] * p;
            torque += ms.cross(p - scratch.before[k]);
            trace += ms.dot(r);
            outer.noalias() += r * ms.transpose();
        }
        q.centre = centre;
        q.torque = torque;
        q.a = trace * Mat3::Identity() - outer;
    });
    for (std::size_t g = 0; g < groups.size(); ++g) {
        MomentumScratch::Group& s = groups[g];
        Vec3 centre = Vec3::Zero(), torque = Vec3::Zero();
        Mat3 a = Mat3::Zero();
        for (std::uint32_t k = scratch.firstPiece[g]; k < scratch.firstPiece[g + 1]; ++k) {
            centre += scratch.pieces[k].centre;
            torque += scratch.pieces[k].torque;
            a += scratch.pieces[k].a;
        }
        s.centre = centre / s.mass;
        s.turn = torque.isZero(0) ? Vec3::Zero() : pseudoInverseSolve(a, -torque);
    }
    // The turn about the centre now: it moves no centre of mass.
    forEachPiece(scratch, tasks, [&](const MomentumScratch::Piece& q) {
        const MomentumScratch::Group& s = groups[q.group];
        if (s.turn.isZero(0)) return;
        for (std::uint32_t k = q.first; k < q.last; ++k) {
            const std::uint32_t i = members[k];
            ps.p[i] += s.turn.cross(ps.p[i] - s.centre);
        }
    });
}

} // namespace jounce::detail
