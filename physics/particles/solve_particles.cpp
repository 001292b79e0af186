// SPDX-License-Identifier: MIT
// The particle layer's loop for one world substep (Müller 2007 Algorithm 1, with
// XPBD's multipliers and Macklin 2019's small steps): the step is cut into
// settings.substeps small steps, each predicting, making its collision constraints
// from the broad phase's candidates, projecting `iterations` times, and turning the
// positions into velocities.

#include "physics/particles/direct_solve.hpp"
#include "physics/particles/stages.hpp"

#include <algorithm>
#include <chrono>

namespace jounce::detail {
namespace {

/// XPBD's multipliers accumulate over one small step's iterations and start at 0.
/// The packed distance rows keep theirs in DistanceRows (zeroed every small step,
/// stored back at the end: storeDistanceMultipliers); of the constraints' own, only the
/// directly solved rows' are read during the small step. So every distance slot's is
/// zeroed once a world substep (resetDistanceMultipliers) and the direct rows' here: a
/// cloth's 24 000 slots, scattered 32 bytes apart, took 3 % of its step.
void resetMultipliers(ParticleSystem& ps, const DirectSolver& direct) {
    for (const DirectGroup& g : direct.groups)
        for (const std::uint32_t k : g.constraints) ps.distances.atSlot(k).lambda = 0;
    for (std::size_t k = 0; k < ps.attachments.slotCount(); ++k) ps.attachments.atSlot(k).lambda = 0;
    for (std::size_t k = 0; k < ps.constraints.slotCount(); ++k) ps.constraints.atSlot(k).lambda = 0;
    for (std::size_t k = 0; k < ps.volumes.slotCount(); ++k) ps.volumes.atSlot(k).lambda = 0;
}

void resetDistanceMultipliers(ParticleSystem& ps) {
    for (std::size_t k = 0; k < ps.distances.slotCount(); ++k) ps.distances.atSlot(k).lambda = 0;
}

/// Flags the particles with a contact in this small step (for Diziol's volume weights).
void markTouching(const ParticleSystem& ps, const std::vector<ParticleContact>& shapeContacts,
                  const std::vector<PairContact>& pairContacts, const std::vector<SurfaceContact>& surfaceContacts,
                  std::vector<std::uint8_t>& touching) {
    touching.assign(ps.volumes.size() > 0 ? ps.slotCount() : 0, 0);
    if (touching.empty()) return;
    for (const ParticleContact& c : shapeContacts) touching[c.a] = 1;
    for (const PairContact& c : pairContacts) touching[c.a] = touching[c.b] = 1;
    for (const SurfaceContact& c : surfaceContacts) {
        touching[c.particle] = 1;
        for (const std::uint32_t i : c.corners) touching[i] = 1;
    }
}

/// Splits the layer's time among ParticleTimes' parts: each call adds the time since
/// the last to one part (one clock read a call; none without `times`).
class Laps {
public:
    explicit Laps(ParticleTimes* times) : times_(times) {
        if (times_ != nullptr) last_ = Clock::now();
    }
    void to(double ParticleTimes::*part) {
        if (times_ == nullptr) return;
        const Clock::time_point now = Clock::now();
        times_->*part += std::chrono::duration<double, std::milli>(now - last_).count();
        last_ = now;
    }

private:
    using Clock = std::chrono::steady_clock;
    ParticleTimes* times_;
    Clock::time_point last_{};
};

} // namespace

void solveParticles(ParticleSystem& ps, DirectSolver& direct, ParticleStepScratch& scratch, BodyArray& bodies, const ColliderArray& colliders,
                    const ParticleCandidates& candidates, const ParticleSettings& settings, const StepContext& ctx,
                    const std::vector<real>& fraction, TaskSystem* tasks, ParticleTimes* times) {
    // A fast body stops at its first impact (limitFastMotion) here too: moved in full,
    // a body that touched a grain on its way down passed through the floor (the soak).
    const auto moveCoupled = [&](const StepContext& step) {
        for (const std::uint32_t b : candidates.coupledBodies)
            integrateBodyPosition(bodies.slots()[b], step, b < fraction.size() ? fraction[b] : 1);
    };
    if (ps.slots.size() == 0 && candidates.coupledBodies.empty()) return; // nothing to do, or to time
    Laps laps(times);
    if (ps.slots.size() == 0) {
        moveCoupled(ctx);
        laps.to(&ParticleTimes::integrate);
        return;
    }
    const real h = ctx.h / static_cast<real>(settings.substeps);
    // The step the constraints see: BDF2's M (x - x~) = 4/9 h^2 f is implicit Euler's
    // with 2/3 h (survey eq. 18), and its velocity gains 3/2 of a push over h, as a body
    // pushed by push / (2/3 h) does.
    const real hc = settings.integrator == ParticleIntegrator::BDF2 ? h * 2 / 3 : h;
    ps.lastSubstep = hc;
    std::vector<ParticleContact>& shapeContacts = scratch.shapeContacts;
    std::vector<PairContact>& pairContacts = scratch.pairContacts;
    std::vector<SurfaceContact>& surfaceContacts = scratch.surfaceContacts;
    std::vector<std::uint8_t>& touching = scratch.touching;
    makePairContacts(ps, candidates, ctx.h, pairContacts, scratch.pairRuns, tasks);
    orderPairContacts(ps.slotCount(), pairContacts, scratch.pairLevels, scratch.pairsSorted, scratch.pairRows);
    laps.to(&ParticleTimes::contacts);
    if (!settings.directChains) direct = DirectSolver{};
    else if (direct.builtFor != ps.topologyVersion) buildDirectGroups(ps, direct);
    if (settings.keepAngularMomentum && ps.freeGroups.builtFor != ps.topologyVersion) buildFreeGroups(ps);
    const bool keepMomentum = settings.keepAngularMomentum && !ps.freeGroups.members.empty();
    if (keepMomentum) {
        scratch.memberMass.resize(ps.freeGroups.members.size());
        for (std::size_t k = 0; k < ps.freeGroups.members.size(); ++k) scratch.memberMass[k] = 1 / ps.w[ps.freeGroups.members[k]];
    }
    resetDistanceMultipliers(ps);
    DistanceRows& compliant = scratch.compliantDistances;
    DistanceRows& rigid = scratch.rigidDistances;
    DistanceLines& lines = scratch.distanceLines;
    packDistances(ps, settings, hc, direct.solvedDirectly, compliant, rigid, &lines);
    // XPBD only: PBD's k' spreads its stiffness over `iterations` sweeps.
    const int rigidSweeps = settings.solver == ParticleSolver::XPBD ? settings.rigidSweeps : 1;
    SmallRows& smallConstraints = scratch.smallConstraints;
    packSmallConstraints(ps, settings, hc, smallConstraints);
    laps.to(&ParticleTimes::project);
    StepContext small = ctx;
    small.h = h;
    for (int s = 0; s < settings.substeps; ++s) {
        // Bodies the particles touch move in the same small steps (with the velocity
        // the rigid resolver left them), so pushing one out of a particle by d is a
        // velocity change d / h, as it is for the particle.
        moveCoupled(small);
        dampClusters(ps); // Müller 2007 damps before predicting; gravity adds no deviation from rigid motion
        predictParticles(ps, ctx.gravity, settings.damping, h, settings.integrator, tasks);
        laps.to(&ParticleTimes::integrate);
        makeShapeContacts(ps, bodies, colliders, candidates, settings.contactMargin, h, scratch.colliderPoses,
                          shapeContacts, tasks);
        makeSurfaceContacts(ps, candidates, surfaceContacts);
        preStabilizePairs(ps, scratch.pairRows, scratch.pairLevels, tasks);
        markTouching(ps, shapeContacts, pairContacts, surfaceContacts, touching);
        laps.to(&ParticleTimes::contacts);
        // After the contacts made above, which move a particle that starts inside a shape
        // or another particle out, x and p together: x holds still from here on.
        if (keepMomentum) startMomentumStep(ps, scratch.memberMass, scratch.momentum, tasks);
        resetMultipliers(ps, direct);
        for (DistanceRows* rows : {&compliant, &rigid}) std::fill(rows->lambda.begin(), rows->lambda.end(), real(0));
        std::fill(lines.lambda.begin(), lines.lambda.end(), real(0));
        std::fill(smallConstraints.lambda.begin(), smallConstraints.lambda.end(), real(0));
        for (int it = 0; it < settings.iterations; ++it) {
            // Internal constraints first, contacts last (they must hold at the end).
            if (keepMomentum) rememberSweepStart(ps, scratch.momentum, tasks);
            projectHierarchies(ps, scratch.hierarchy); // coarse levels first (Müller 2008)
            if (settings.directChains) projectDirect(ps, direct, settings, hc);
            // The rigid rows after the compliant ones: a compliant row projected after
            // a rigid one undoes part of its correction, and in a few sweeps the two
            // share the strain (docs/particles.md: a draped cloth's stretch links stay
            // longer under its shear and bending links swept last).
            projectDistances(ps.p, compliant, tasks);
            // The rigid rows in lines last: each line solved exactly carries a correction
            // its whole length (distance_lines.hpp).
            for (int sweep = 0; sweep < rigidSweeps; ++sweep) {
                projectDistances(ps.p, rigid, tasks);
                solveDistanceLines(ps.p, lines, tasks);
            }
            projectSmallConstraints(ps, settings, hc, smallConstraints, tasks);
            projectVolumes(ps, settings, hc, touching, scratch.volumes);
            matchShapes(ps, settings);
            if (keepMomentum) keepAngularMomentum(ps, scratch.memberMass, scratch.momentum, tasks);
            projectAttachments(ps, bodies, settings, hc);
            // Shapes last: a particle squeezed between a heavy grain and a box ends the
            // sweep outside the box (pairs left overlapping are separated without
            // velocity at the next small step's start, preStabilizePairs).
            projectPairContacts(ps, scratch.pairRows, scratch.pairLevels, tasks);
            projectSurfaceContacts(ps, surfaceContacts);
            projectContacts(ps, bodies, shapeContacts, hc, tasks);
        }
        laps.to(&ParticleTimes::project);
        updateParticleVelocities(ps, h, settings.integrator, tasks);
        bounceParticles(ps, bodies, shapeContacts, settings, h, tasks);
        bouncePairs(ps, scratch.pairRows, scratch.pairLevels, settings, tasks);
        laps.to(&ParticleTimes::integrate);
    }
    storeDistanceMultipliers(ps, compliant);
    storeDistanceMultipliers(ps, rigid);
    storeLineMultipliers(ps, lines);
    storeSmallMultipliers(ps, smallConstraints);
    laps.to(&ParticleTimes::project);
}

} // namespace jounce::detail
