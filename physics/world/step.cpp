// SPDX-License-Identifier: MIT
// World::step: validate the step, back up what it changes, run each substep as a short
// list of named stages (docs/architecture.md, one row per stage with its file), check
// the result is finite, report the events. Only this file knows the stages' order.

#include <jounce/world/world.hpp>

#include "common/guard.hpp"
#include "common/parallel.hpp"
#include "common/validate.hpp"
#include "physics/deformable/stages.hpp"
#include "physics/particles/direct_solve.hpp"
#include "physics/particles/stages.hpp"
#include "physics/world/stages.hpp"
#include "physics/world/world_state.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

namespace jounce {
namespace {

using detail::handleText;
using Clock = std::chrono::steady_clock;

double millisecondsSince(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

/// The substep's phases timed back to back: each lap is the time since the last, read
/// once (a clock read costs 20-30 ns here, and a phase of a ten-box column takes a few
/// microseconds), so the phases add up to the substep.
class Laps {
public:
    Laps() : last_(Clock::now()) {}
    double lap() {
        const Clock::time_point now = Clock::now();
        const double ms = std::chrono::duration<double, std::milli>(now - last_).count();
        last_ = now;
        return ms;
    }

private:
    Clock::time_point last_;
};

bool isFiniteState(const Body& b) {
    return isFinite(b.position) && isFinite(b.orientation.coeffs()) && isFinite(b.linearVelocity) &&
           isFinite(b.angularVelocity);
}

/// The first live body (by slot) that is not finite, or noBody (contact.hpp); every finite one's game
/// forces cleared.
std::uint32_t firstNonFiniteBody(SlotArray<Body, BodyTag>& bodies, TaskSystem* tasks) {
    std::atomic<std::uint32_t> lowest{noBody};
    detail::parallelFor(tasks, static_cast<std::uint32_t>(bodies.slotCount()), 256, [&](std::uint32_t first, std::uint32_t last) {
        for (std::uint32_t i = first; i < last; ++i) {
            if (!bodies.isAlive(i)) continue;
            Body& b = bodies.atSlot(i);
            if (!isFiniteState(b)) {
                detail::keepLowest(lowest, i);
                return; // a later one of this range is not the first
            }
            b.userForce.setZero();
            b.userTorque.setZero();
        }
    });
    return lowest.load();
}

} // namespace

// ---- The step ----------------------------------------------------------------------

void World::step(real dt, int substeps) { return detail::guarded(errorHandler_, [&] {
    refuseWhileStepping("step");
    if (!std::isfinite(dt) || dt < settings_.minTimeStep || dt > settings_.maxTimeStep)
        throw Error("step.dt", toText(dt),
                    "must lie in [minTimeStep " + toText(settings_.minTimeStep) + ", maxTimeStep " +
                        toText(settings_.maxTimeStep) + "] seconds");
    if (substeps < 1 || substeps > settings_.maxSubsteps)
        throw Error("step.substeps", std::to_string(substeps),
                    "must lie in [1, maxSubsteps " + std::to_string(settings_.maxSubsteps) + "]");

    aimKinematicTargets(dt, false); // a target too far for dt: refused before anything changes
    // The game's callbacks (contact filter, modifier) may read the world while it steps,
    // not change it (refuseWhileStepping).
    struct Stepping {
        bool& flag;
        explicit Stepping(bool& f) : flag(f) { flag = true; }
        ~Stepping() { flag = false; }
    } stepping(stepping_);

    const auto start = Clock::now();
    backup_->save(*this, tasks()); // all or nothing: restored if the step overflows
    const double backupMs = millisecondsSince(start);
    aimKinematicTargets(dt, true);
    // The manifolds are rebuilt from the last ones (Step::rebuilds): set aside whole, they
    // are the first substep's to continue and the backup at once.
    settleColouredContacts();
    contacts_.swap(scratch_->stepStartManifolds);
    jointEvents_.broken.clear();
    profile_ = Profile{};
    profile_.backup = backupMs;
    StepContext ctx;
    ctx.h = dt / static_cast<real>(substeps);
    ctx.gravity = settings_.gravity;
    ctx.gyroscopic = settings_.gyroscopic;
    try {
        for (int s = 0; s < substeps; ++s) {
            ctx.substep = s;
            substep(ctx);
        }
    } catch (...) {
        // A stage can throw too (the time of impact rejects the NaN sweep of a body
        // that overflowed mid-step): all or nothing holds for that as well.
        restoreBackup();
        throw;
    }

    // The first body (by slot) the step left non-finite, looked for on the workers, which
    // clear the game's forces as they go (the backup puts those back too).
    const std::uint32_t badBody = firstNonFiniteBody(bodies_, tasks());
    if (badBody != noBody) {
        const BodyId bad = bodies_.idOf(badBody);
        restoreBackup();
        throw Error("step", "body " + handleText(bad.index, bad.generation),
                    "the step overflowed to a non-finite state; the world was restored (check forces "
                    "and generators on this body)");
    }
    for (std::size_t i = 0; i < particles_.slotCount(); ++i) {
        if (!particles_.isAlive(i)) continue;
        if (!isFinite(particles_.x[i]) || !isFinite(particles_.v[i])) {
            const ParticleId bad = particles_.slots.idOf(i);
            restoreBackup();
            throw Error("step", "particle " + handleText(bad.index, bad.generation),
                        "the step overflowed to a non-finite state; the world was restored (check forces on "
                        "this particle and the compliance of its constraints)");
        }
        particles_.force[i].setZero();
    }
    for (std::size_t k = 0; k < deformables_.slotCount(); ++k) {
        if (!deformables_.isAlive(k)) continue;
        const Deformable& d = deformables_.atSlot(k);
        for (std::size_t i = 0; i < d.size(); ++i) {
            if (isFinite(d.position[i]) && isFinite(d.velocity[i]) && isFinite(d.rotation[i])) continue;
            const DeformableId bad = deformables_.idOf(k);
            restoreBackup();
            throw Error("step", "deformable " + handleText(bad.index, bad.generation) + " particle " + std::to_string(i),
                        "the step overflowed to a non-finite state; the world was restored (check its stiffness, "
                        "handle weights and the step length)");
        }
    }
    landKinematicTargets();
    // Stage 9: what touched what, from the last substep.
    const auto eventsStart = Clock::now();
    detail::reportContacts(bodies_, colliders_, scratch_->collision.asleep, contacts_, detail::TouchRule{settings_.collisionMargin / 2, ctx.h}, touching_, near_, scratch_->contact, contactEvents_, tasks());
    detail::reportSensors(bodies_, colliders_, sensorOverlaps_, scratch_->contact, sensorEvents_);
    indexQueries();
    const auto end = Clock::now();
    profile_.events = std::chrono::duration<double, std::milli>(end - eventsStart).count();
    ++stepCount_;
    profile_.total = std::chrono::duration<double, std::milli>(end - start).count();
}); }

void World::substep(const StepContext& ctx) {
    Laps laps;
    detail::applyForces(bodies_, generators_, ctx, tasks());
    profile_.forces += laps.lap();

    // The soft step integrates the velocities of the bodies it solves itself, substep by
    // substep, so it finds the contacts first (Box2D's order) and the rest of the bodies
    // are integrated after it.
    const bool soft = settings_.resolver.solver == ContactSolver::SoftStep;
    if (!soft) {
        detail::integrateVelocities(bodies_, ctx, {}, tasks());
        profile_.integrate += laps.lap();
    }

    const detail::CollisionSettings collision = detail::collisionSettings(settings_);
    detail::colliderProxies(bodies_, colliders_, collision, proxies_, proxyColliders_, scratch_->collision, ctx.h, tasks());
    detail::addParticleProxies(particles_, settings_, proxies_, particleCandidates_, ctx.h);
    detail::addDeformableProxies(deformables_, settings_, proxies_, *deformableCandidates_, ctx.h);
    // The broad phase's own list, read through the substep (a copy was 8 bytes a pair
    // more and a pass on the calling thread).
    const std::vector<ProxyPair>& pairs = detail::findPairs(broadPhase_, proxies_, tasks());
    profile_.broadPhase += laps.lap();

    detail::markFastBodies(bodies_, colliders_, collision, ctx.h, scratch_->collision, tasks());
    // Last substep's manifolds are what this one's continue (persistent contacts); the
    // first substep's are the step's start, which stay as they were (World::step).
    if (ctx.substep > 0) {
        settleColouredContacts();
        contacts_.swap(scratch_->lastManifolds);
    }
    const std::vector<ContactManifold>& previous = ctx.substep > 0 ? scratch_->lastManifolds : scratch_->stepStartManifolds;
    detail::narrowPhase(bodies_, colliders_, collision, proxyColliders_, pairs, noCollision_, previous, contacts_, ctx.h, scratch_->collision, contactFilter_, sensorOverlaps_, tasks());
    if (contactModifier_) modifyContacts();
    detail::particleCandidates(particles_, proxies_, proxyColliders_, pairs, particleCandidates_);
    detail::findSurfaceCandidates(particles_, proxies_, pairs, settings_, ctx.h, particleCandidates_);
    detail::findDeformableCandidates(proxies_, proxyColliders_, pairs, *deformableCandidates_);
    profile_.narrowPhase += laps.lap();

    detail::ContactScratch& grouping = scratch_->contact;
    grouping.jointContacts.clear();
    detail::generateJointContacts(bodies_, joints_, previousContacts_, grouping.previousKeys, grouping.jointContacts, soft);
    detail::groupContacts(bodies_, contacts_, grouping.jointContacts, settings_.sleep, islands_, islandStarts_, sleepingLinks_,
                          jointLinks_, grouping, contactErrors_, tasks());
    // (Particles and deformables may wake the bodies they touch: before the soft step
    // takes its bodies, so a body woken here is integrated by it this substep.)
    detail::groupParticles(particles_, bodies_, colliders_, particleCandidates_, islands_, settings_.sleep.sleepThreshold,
                           particleIslands_);
    detail::groupDeformables(deformables_, bodies_, colliders_, *deformableCandidates_, islands_,
                             settings_.sleep.sleepThreshold, *deformableIslands_);
    // The soft step's coloured blocks take their islands' points straight from the
    // manifolds: left out of the gathered list, written when read (resolvedContacts).
    if (soft)
        scratch_->soft.choose(bodies_.slots(), bodies_.aliveFlags(), grouping, islandStarts_, contacts_, ctx.h, settings_.resolver,
                              ctx.gravity, tasks());
    // When the blocks take every island and nobody watches, no contact is gathered at all:
    // the list holds nothing through the step (344 bytes a point in the double build),
    // and is sized and written when first read (describeColouredContacts).
    if (soft && scratch_->soft.blocksTakeAll() && !scratch_->soft.watching())
        resolverContacts_.clear();
    else
        detail::gatherContacts(contacts_, grouping.manifoldFirsts, grouping.jointContacts, grouping.jointPlaces,
                               soft ? std::span<const std::uint8_t>(scratch_->soft.packedManifolds()) : std::span<const std::uint8_t>(),
                               resolverContacts_, tasks());
    profile_.group += laps.lap();

    if (soft) {
        detail::generateJointMotions(bodies_, joints_, scratch_->motions);
        scratch_->soft.solve(bodies_.slots(), resolverContacts_, contacts_, islandStarts_, scratch_->motions, ctx.h,
                             settings_.resolver, ctx.gravity, ctx.gyroscopic, tasks());
        // The coloured blocks' contacts are written when read (World::resolvedContacts),
        // or here already while watched.
        scratch_->contactsPending.store(scratch_->soft.hasColoured() && !scratch_->soft.watching(), std::memory_order_release);
        detail::storeJointMotions(joints_, scratch_->motions, ctx.h);
        profile_.resolve += laps.lap();
        detail::integrateVelocities(bodies_, ctx, scratch_->soft.owned(), tasks());
        profile_.integrate += laps.lap();
    } else {
        resolver_->setSettings(settings_.resolver);
        resolver_->resolve(bodies_.slots(), resolverContacts_, islandStarts_, ctx.h);
    }
    detail::keepForWarmStart(resolverContacts_, islandStarts_,
                             soft ? std::span<const std::uint8_t>(scratch_->soft.colouredIslands()) : std::span<const std::uint8_t>(),
                             contacts_, previousContacts_, scratch_->contact.order, tasks());
    if (grouping.anyRolling) {
        describeColouredContacts(); // it reads the solved contacts' impulses
        detail::applyRollingResistance(bodies_, contacts_, resolverContacts_, scratch_->contact.rollingNormals);
    }
    // MotionLocks: nothing the solvers did along a locked axis reaches continuous collision.
    const std::span<Body> slots = bodies_.slots();
    detail::parallelFor(tasks(), static_cast<std::uint32_t>(slots.size()), 512, [&](std::uint32_t first, std::uint32_t last) {
        for (std::uint32_t i = first; i < last; ++i)
            if (slots[i].isDynamic()) applyLocks(slots[i].locks, slots[i].linearVelocity, slots[i].angularVelocity);
    });
    scratch_->contact.broken.clear();
    detail::measureJointForces(joints_, bodies_, previousContacts_, ctx.h, scratch_->contact.broken);
    if (!scratch_->contact.broken.empty()) breakJoints(scratch_->contact.broken);
    profile_.resolve += laps.lap();

    detail::findCoupledBodies(particles_, bodies_, colliders_, particleCandidates_);
    if (soft) sweepSolvedMotion(ctx.h, true);
    detail::limitFastMotion(bodies_, colliders_, collision, proxyColliders_, pairs, noCollision_, contacts_, ctx.h,
                            scratch_->collision, tasks());
    detail::shareAcrossJoints(bodies_, jointLinks_, scratch_->collision);
    if (soft) {
        sweepSolvedMotion(ctx.h, false);
        placeSolvedBodies(ctx);
    } else {
        detail::integratePositions(bodies_, ctx, particleCandidates_.coupledMask, scratch_->collision.fraction, tasks());
    }
    profile_.finish += laps.lap();

    detail::ParticleTimes parts;
    detail::solveParticles(particles_, *directSolver_, *particleScratch_, bodies_, colliders_, particleCandidates_, settings_.particles, ctx,
                           scratch_->collision.fraction, tasks(), &parts);
    profile_.particles += laps.lap();
    profile_.particleContacts += parts.contacts;
    profile_.particleProject += parts.project;
    profile_.particleIntegrate += parts.integrate;

    stepDeformables(ctx);
    profile_.deformables += laps.lap();

    detail::particleMotion(particles_, particleIslands_, islands_.count(), ctx.h, settings_.sleep, keepAwake_);
    detail::deformableMotion(deformables_, *deformableIslands_, islands_.count(), ctx.h, settings_.sleep, keepAwake_);
    const std::vector<std::uint8_t>& moved = scratch_->contact.movedByKinematic;
    keepAwake_.resize(std::max(keepAwake_.size(), moved.size()), 0);
    for (std::size_t k = 0; k < moved.size(); ++k) keepAwake_[k] |= moved[k];
    if (updateSleep(bodies_.slots(), islands_, ctx.h, settings_.sleep, keepAwake_) > 0) {
        describeColouredContacts(); // the pairs of the islands that fell asleep
        detail::keepSleepingLinks(bodies_, resolverContacts_, sleepingLinks_);
    }
    detail::sleepParticles(particles_, bodies_, islands_, particleIslands_, settings_.sleep);
    detail::sleepDeformables(deformables_, bodies_, islands_, *deformableIslands_, settings_.sleep);
    profile_.sleep += laps.lap();
}

namespace {

/// The velocities that take kinematic body `b` to its target over `dt`: its centre of
/// mass's displacement over dt, and the rotation vector of the turn from its orientation
/// to the target's (the short way) over dt.
std::pair<Vec3, Vec3> velocitiesToTarget(const Body& b, real dt) {
    const Vec3 centre = b.target.position + b.target.orientation * b.localCentroid;
    Quat turn = b.target.orientation * b.orientation.conjugate();
    if (turn.w() < 0) turn.coeffs() = -turn.coeffs();
    const Eigen::AngleAxis<real> axisAngle(turn.normalized());
    return {(centre - b.position) / dt, axisAngle.axis() * (axisAngle.angle() / dt)};
}

} // namespace

void World::modifyContacts() {
    // In pair order on this thread: the same calls in the same order every run. The pairs
    // turned off leave the manifolds (kept ones compacted in order) and are noted for
    // continuous collision, which must let them pass too.
    std::size_t kept = 0;
    for (std::size_t k = 0; k < contacts_.size(); ++k) {
        ContactManifold& m = contacts_[k];
        if (m.manifold.count == 0) {
            if (kept != k) contacts_[kept] = std::move(m);
            ++kept;
            continue;
        }
        ContactModification c;
        c.bodyA = m.bodyA;
        c.bodyB = m.bodyB;
        c.colliderA = m.colliderA;
        c.colliderB = m.colliderB;
        c.normal = m.manifold.normal;
        c.approachSpeed = m.approachSpeed;
        c.depth = m.manifold.deepest().depth;
        c.friction = m.friction;
        c.restitution = m.restitution;
        c.surfaceVelocity = m.surfaceVelocity;
        contactModifier_(c);
        if (!std::isfinite(c.friction) || c.friction < 0 || c.friction > detail::maxRate)
            throw Error("contactModifier.friction", toText(c.friction), "must be finite, >= 0 and at most maxRate");
        if (!(c.restitution >= 0 && c.restitution <= 1))
            throw Error("contactModifier.restitution", toText(c.restitution), "must lie in [0, 1]");
        detail::requireSpeed(c.surfaceVelocity, "contactModifier.surfaceVelocity");
        m.friction = c.friction;
        m.restitution = c.restitution;
        m.surfaceVelocity = c.surfaceVelocity - m.manifold.normal * m.manifold.normal.dot(c.surfaceVelocity);
        if (!c.enabled) { // off this substep: no contact (found again next substep)
            scratch_->collision.offPairs.emplace_back(std::min(m.colliderA.index, m.colliderB.index),
                                                      std::max(m.colliderA.index, m.colliderB.index));
            continue;
        }
        if (kept != k) contacts_[kept] = std::move(m);
        ++kept;
    }
    contacts_.resize(kept);
}

void World::aimKinematicTargets(real dt, bool apply) {
    for (std::size_t i = 0; i < bodies_.slotCount(); ++i) {
        if (!bodies_.isAlive(i) || !bodies_.atSlot(i).hasTarget) continue;
        Body& b = bodies_.atSlot(i);
        const auto [linear, angular] = velocitiesToTarget(b, dt);
        if (!apply) {
            if (!(linear.cwiseAbs().maxCoeff() <= detail::maxSpeed) || !(angular.cwiseAbs().maxCoeff() <= detail::maxSpeed))
                throw Error("step.dt", toText(dt), "too short for body " + handleText(bodies_.idOf(i).index, bodies_.idOf(i).generation) +
                                                       " to reach its moveKinematic target within maxSpeed");
            continue;
        }
        b.linearVelocity = linear;
        b.angularVelocity = angular;
        b.awake = true;
    }
}

void World::landKinematicTargets() {
    // Integrated, the turn lands within rounding of the target (the first-order turn
    // q + h/2 [0, w] q falls short by (w h)^3 / 12 a substep): placed on it exactly, a
    // platform driven along a path for minutes does not drift from it.
    for (std::size_t i = 0; i < bodies_.slotCount(); ++i) {
        if (!bodies_.isAlive(i) || !bodies_.atSlot(i).hasTarget) continue;
        Body& b = bodies_.atSlot(i);
        b.orientation = b.target.orientation;
        b.position = b.target.position + b.target.orientation * b.localCentroid;
        b.hasTarget = false;
        b.target = Transform{}; // landed: nothing of it is state any more
    }
}

void World::sweepSolvedMotion(real h, bool begin) {
    // Continuous collision sweeps each body along its velocity over the step; a body the
    // soft step moved goes where its substeps took it, which for a fast body stopped or
    // turned by a contact mid-step is not where its final velocity points. For the sweep
    // its velocities are the ones that make that move (put back after it).
    const std::vector<std::uint8_t>& owned = scratch_->soft.owned();
    std::vector<std::pair<Vec3, Vec3>>& kept = scratch_->keptVelocity;
    std::vector<std::uint8_t>& swept = scratch_->sweptMotion;
    if (begin) {
        kept.resize(owned.size());
        markSweptMotion(swept);
    }
    const auto count = static_cast<std::uint32_t>(std::min(swept.size(), bodies_.slotCount()));
    detail::parallelFor(tasks(), count, detail::bodiesPerRange, [&](std::uint32_t first, std::uint32_t last) {
        for (std::uint32_t i = first; i < last; ++i) {
            if (!swept[i] || !bodies_.isAlive(i)) continue;
            Body& b = bodies_.atSlot(i);
            if (begin) {
                kept[i] = {b.linearVelocity, b.angularVelocity};
                const Eigen::AngleAxis<real> turn(scratch_->soft.rotation(i));
                b.linearVelocity = scratch_->soft.displacement(i) / h;
                b.angularVelocity = turn.axis() * (turn.angle() / h);
            } else {
                b.linearVelocity = kept[i].first;
                b.angularVelocity = kept[i].second;
            }
        }
    });
}

void World::markSweptMotion(std::vector<std::uint8_t>& swept) const {
    // The bodies whose velocities continuous collision reads (limitFastMotion): with a
    // fast body, any it may be swept against; else only those closing on a static or
    // kinematic body (limitMotionIntoStatic). The rest keep their velocities: a column of
    // ten boxes on the floor sweeps its bottom box alone.
    const std::vector<std::uint8_t>& owned = scratch_->soft.owned();
    const std::vector<std::uint8_t>& fast = scratch_->collision.fast;
    swept.assign(owned.size(), 0);
    if (!settings_.continuous) return;
    if (std::find(fast.begin(), fast.end(), 1) != fast.end()) {
        swept = owned;
        return;
    }
    // Each manifold's two body slots as this substep's groupContacts read them (12 bytes
    // a manifold), and whether each is dynamic from the islands' bytes (one per body
    // slot): no Body and no manifold read here, on the calling thread.
    const std::vector<detail::ContactScratch::ManifoldPair>& pairs = scratch_->contact.manifoldPairs;
    const std::vector<std::uint8_t>& dynamic = islands_.dynamic;
    for (const detail::ContactScratch::ManifoldPair& m : pairs) {
        const bool dynamicA = dynamic[m.a] != 0, dynamicB = dynamic[m.b] != 0;
        if (dynamicA == dynamicB) continue;
        const std::uint32_t i = dynamicA ? m.a : m.b;
        if (i < owned.size()) swept[i] = owned[i];
    }
}

void World::placeSolvedBodies(const StepContext& ctx) {
    // The soft step integrated its bodies' motion substep by substep: they are placed
    // where it took them, or the share of that move continuous collision allowed. The
    // particle layer moves the bodies coupled to it.
    const std::vector<std::uint8_t>& owned = scratch_->soft.owned();
    const std::vector<std::uint8_t>& coupled = particleCandidates_.coupledMask;
    const std::vector<real>& fraction = scratch_->collision.fraction;
    std::vector<std::uint8_t>& place = scratch_->place;
    place.assign(bodies_.slotCount(), 0);
    const auto count = static_cast<std::uint32_t>(std::min(owned.size(), place.size()));
    detail::parallelFor(tasks(), count, detail::bodiesPerRange, [&](std::uint32_t first, std::uint32_t last) {
        for (std::uint32_t i = first; i < last; ++i) {
            if (!owned[i]) continue;
            place[i] = 1;
            if (i < coupled.size() && coupled[i]) continue;
            const real share = i < fraction.size() ? fraction[i] : real(1);
            Body& b = bodies_.atSlot(i);
            detail::placeBody(b, scratch_->soft.displacement(i), scratch_->soft.rotation(i), share);
            // Stopped at a share of its move, a body has had that share of the step's
            // acceleration: kept whole, a ball falling 20 m onto the floor gained the fall it
            // did not make, g (1 - share) |D| per kilogram (0.4 % of its energy a bounce).
            // (Which may take it past the speed limit the soft step kept: a body restored
            // two thousand kilometres under the floor, jointed to one on it.)
            if (share < 1) {
                b.linearVelocity -= (1 - share) * ctx.h * (b.forceAccum * b.inverseMass);
                detail::limitSpeed(b.linearVelocity);
            }
            applyLocks(b.locks, b.linearVelocity, b.angularVelocity);
        }
    });
    for (std::size_t i = 0; i < coupled.size() && i < place.size(); ++i) place[i] |= coupled[i];
    detail::integratePositions(bodies_, ctx, place, fraction, tasks());
}

void World::stepDeformables(const StepContext& ctx) {
    for (std::size_t k = 0; k < deformables_.slotCount(); ++k) {
        if (!deformables_.isAlive(k) || deformables_.atSlot(k).asleep) continue;
        detail::stepDeformable(deformables_.atSlot(k), deformableSolvers_->bySlot[k], ctx.gravity, ctx.h);
        const auto [first, last] = detail::deformableRange(*deformableCandidates_, static_cast<std::uint32_t>(k));
        detail::collideDeformable(deformables_.atSlot(k), first, last, bodies_, colliders_);
    }
}

void World::settleColouredContacts() {
    // The last solve's coloured contacts come from the manifolds the next swap sets
    // aside: written now if a contact filter or modifier may read them during the step
    // (as the step before this one left them), else no longer to be written.
    if (contactFilter_ || contactModifier_) describeColouredContacts();
    scratch_->contactsPending.store(false, std::memory_order_relaxed);
}

void World::restoreBackup() {
    queriesScanAll_ = true; // the trees hold the failed step's boxes
    // The failed step's contacts: partly solved, some never written.
    scratch_->contactsPending.store(false, std::memory_order_relaxed);
    resolverContacts_.clear();
    const bool jointsBroke = !jointEvents_.broken.empty(); // this failed step's, before they are put back
    backup_->restore(*this);
    contacts_.swap(scratch_->stepStartManifolds); // Step::rebuilds: as the step found them
    if (jointsBroke) detail::jointLinks(joints_, jointLinks_, noCollision_); // derived from the joints
}

} // namespace jounce
