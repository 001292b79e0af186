// SPDX-License-Identifier: MIT
// The resolver: the order of resolution. Islands one after another; in each, positions
// deepest first, then velocities (largest desired change first, or sequential sweeps).
// resolve() is the stepping form run to the end.

#include "contact/resolver_stages.hpp"

#include <algorithm>
#include <limits>

namespace jounce {

using detail::BodyChange;

ContactResolver::ContactResolver(ResolverSettings settings) : settings_(settings) {}

void ContactResolver::resolve(std::span<Body> bodies, std::span<Contact> contacts,
                              std::span<const std::uint32_t> islandStarts, real dt) {
    begin(bodies, contacts, islandStarts, dt);
    // Records only if someone looks at them: the same resolutions, without the
    // bookkeeping (see recording_).
    recording_ = static_cast<bool>(observer_);
    ResolutionRecord record;
    while (advancePosition(record)) {
    }
    while (advanceVelocity(record)) {
    }
}

void ContactResolver::begin(std::span<Body> bodies, std::span<Contact> contacts,
                            std::span<const std::uint32_t> islandStarts, real dt) {
    bodies_ = bodies;
    contacts_ = contacts;
    islandStarts_.assign(islandStarts.begin(), islandStarts.end());
    if (islandStarts_.empty()) islandStarts_ = {0, static_cast<std::uint32_t>(contacts.size())};
    dt_ = dt;
    stats_ = {};
    recording_ = true;
    for (Contact& c : contacts_) {
        detail::prepareContact(c, bodies_, dt_, settings_);
        c.penetrationAtStart = c.penetration;
        c.accumulatedPush = 0;
        c.bounceImpulse = Vec3::Zero();
        stats_.maxPenetrationBefore = std::max(stats_.maxPenetrationBefore, c.penetration);
    }
    // Which contacts touch each body (CSR), so a resolution re-keys only those.
    contactsOfBodyStart_.assign(bodies.size() + 1, 0);
    for (const Contact& c : contacts_)
        for (std::uint32_t b : c.body)
            if (b != noBody) ++contactsOfBodyStart_[b + 1];
    touched_.clear();
    for (std::uint32_t b = 0; b < bodies.size(); ++b)
        if (contactsOfBodyStart_[b + 1] != 0) touched_.push_back(b);
    for (std::size_t b = 0; b < bodies.size(); ++b) contactsOfBodyStart_[b + 1] += contactsOfBodyStart_[b];
    contactsOfBody_.resize(contactsOfBodyStart_.back());
    // contactsOfBodyStart_[b] serves as body b's next free place, then is shifted back
    // (as groupByIsland does: no copy of the starts).
    for (std::uint32_t k = 0; k < contacts_.size(); ++k)
        for (std::uint32_t b : contacts_[k].body)
            if (b != noBody) contactsOfBody_[contactsOfBodyStart_[b]++] = k;
    for (std::size_t b = bodies.size(); b > 0; --b) contactsOfBodyStart_[b] = contactsOfBodyStart_[b - 1];
    contactsOfBodyStart_[0] = 0;
    orderByLevel();
    // The position pass works on the bodies as they are now.
    detail::gatherSolverBodies(bodies_, touched_, solver_, inverseInertia_);
    pushLinear_.assign(bodies.size() + 1, Vec3::Zero());
    pushAngular_.assign(bodies.size() + 1, Vec3::Zero());
    if (settings_.positionSolver == PositionSolver::Sequential) {
        startPosition_.resize(bodies.size());
        startOrientation_.resize(bodies.size());
        for (const std::uint32_t b : touched_) {
            startPosition_[b] = bodies_[b].position;
            startOrientation_[b] = bodies_[b].orientation;
        }
        pushRows_.resize(contacts_.size()); // prepared per island, if it has anything to push (startPositions)
    }
    impulseRows_.resize(contacts_.size());
    island_ = 0;
    islandStarted_ = false;
    positionsDone_ = false;
    velocitiesDone_ = false;
}

void ContactResolver::orderByLevel() {
    // Level of each body: 0 for static and kinematic bodies, then the fewest contacts
    // to one of them (breadth first); bodies that reach none stay at the largest level.
    constexpr std::uint32_t unreached = std::numeric_limits<std::uint32_t>::max();
    bodyLevel_.assign(bodies_.size(), unreached);
    std::vector<std::uint32_t>& frontier = frontier_;
    frontier.clear();
    for (std::uint32_t b = 0; b < bodies_.size(); ++b)
        if (!bodies_[b].isDynamic() && contactsOfBodyStart_[b] != contactsOfBodyStart_[b + 1]) {
            bodyLevel_[b] = 0;
            frontier.push_back(b);
        }
    // A contact with the world (a joint to a world point) counts as one with a static body.
    for (const Contact& c : contacts_)
        for (std::size_t side = 0; side < 2; ++side) {
            const std::uint32_t b = c.body[side], other = c.body[1 - side];
            if (other == noBody && b != noBody && bodyLevel_[b] == unreached && bodies_[b].isDynamic()) {
                bodyLevel_[b] = 1;
                frontier.push_back(b);
            }
        }
    for (std::size_t head = 0; head < frontier.size(); ++head) {
        const std::uint32_t b = frontier[head];
        for (std::uint32_t i = contactsOfBodyStart_[b]; i < contactsOfBodyStart_[b + 1]; ++i)
            for (const std::uint32_t other : contacts_[contactsOfBody_[i]].body)
                if (other != noBody && bodyLevel_[other] == unreached) {
                    bodyLevel_[other] = bodyLevel_[b] + 1;
                    frontier.push_back(other);
                }
    }
    // Each island's contacts bottom-up: by the lower level of their two bodies, ties in
    // index order (a stable sort on plain numbers: deterministic). Gauss-Seidel then
    // carries the weight of a stack down to the ground in the order it rests.
    sweepOrder_.resize(contacts_.size());
    for (std::uint32_t k = 0; k < contacts_.size(); ++k) sweepOrder_[k] = k;
    // Each contact's levels once (the sort compares each many times): the lower and the
    // upper level of its two bodies (the world, a joint's anchor, counts as level 0).
    contactLevel_.resize(contacts_.size());
    contactTop_.resize(contacts_.size());
    for (std::uint32_t k = 0; k < contacts_.size(); ++k) {
        std::uint32_t low = unreached, high = 0;
        for (const std::uint32_t b : contacts_[k].body) {
            const std::uint32_t l = b == noBody ? 0 : bodyLevel_[b];
            if (b != noBody) low = std::min(low, l);
            high = std::max(high, l);
        }
        contactLevel_[k] = low;
        contactTop_[k] = high;
    }
    // By lower level, then upper level: within a level the contacts between two bodies
    // of that level come before those with the level above, so the contacts that move
    // one level's bodies (from below, and among themselves) sit together, as shock
    // propagation takes them. Ties keep index order.
    for (std::size_t i = 0; i + 1 < islandStarts_.size(); ++i) sortByLevel(islandStarts_[i], islandStarts_[i + 1]);
    rowOf_.resize(contacts_.size());
    for (std::uint32_t p = 0; p < contacts_.size(); ++p) rowOf_[sweepOrder_[p]] = p;
}

void ContactResolver::sortByLevel(std::uint32_t first, std::uint32_t last) {
    // Levels are small integers: two stable counting passes, the minor key (upper level)
    // first, then the major (lower level), sort in time linear in the contacts, where
    // a comparison sort takes n log n. Starting from index order, each pass keeps the
    // order of ties, so the result is the (lower, upper, index) order exactly.
    // Unreached bodies' level (the largest number) ranks just above every real level.
    std::uint32_t highest = 0;
    for (std::uint32_t k = first; k < last; ++k)
        for (const std::uint32_t l : {contactLevel_[k], contactTop_[k]})
            if (l != std::numeric_limits<std::uint32_t>::max()) highest = std::max(highest, l);
    const auto rank = [&](std::uint32_t level) { return std::min(level, highest + 1); };
    const auto countingPass = [&](const std::vector<std::uint32_t>& levelOf, std::span<const std::uint32_t> from,
                                  std::span<std::uint32_t> to) {
        levelCount_.assign(std::size_t(highest) + 3, 0);
        for (const std::uint32_t k : from) ++levelCount_[rank(levelOf[k]) + 1];
        for (std::size_t r = 1; r < levelCount_.size(); ++r) levelCount_[r] += levelCount_[r - 1];
        for (const std::uint32_t k : from) to[levelCount_[rank(levelOf[k])]++] = k;
    };
    const std::span<std::uint32_t> order(sweepOrder_.data() + first, last - first);
    byTop_.resize(order.size());
    countingPass(contactTop_, order, byTop_);
    countingPass(contactLevel_, byTop_, order);
}

int ContactResolver::lowerSide(const Contact& c) const {
    if (!c.supports) return -1; // a joint's contact: both bodies always take its impulse
    const auto levelOf = [&](std::uint32_t b) {
        return b == noBody ? std::uint32_t(0) : bodyLevel_[b];
    };
    const std::uint32_t l0 = levelOf(c.body[0]), l1 = levelOf(c.body[1]);
    return l0 < l1 ? 0 : l1 < l0 ? 1 : -1;
}

ResolutionRecord ContactResolver::recordFor(ResolutionRecord::Kind kind, std::uint32_t index) const {
    ResolutionRecord record;
    record.kind = kind;
    record.contact = index;
    record.island = static_cast<std::uint32_t>(island_);
    record.body = contacts_[index].body;
    for (std::size_t side = 0; side < 2; ++side) {
        const std::uint32_t b = record.body[side];
        if (b == noBody) continue;
        // Kept current while recording (each record writes its bodies back).
        record.velocityBefore[side] = {bodies_[b].linearVelocity, bodies_[b].angularVelocity};
    }
    record.velocityAfter = record.velocityBefore;
    return record;
}

void ContactResolver::startPositions(std::size_t island) {
    const std::uint32_t first = islandStarts_[island], last = islandStarts_[island + 1];
    if (settings_.positionSolver == PositionSolver::WorstFirst) {
        keys_.resize(contacts_.size());
        for (std::uint32_t k = first; k < last; ++k) keys_[k] = contacts_[k].penetration;
        heap_.build(first, last - first, keys_);
    } else {
        sweeps_.start(first, last, settings_.sequentialPositionIterations);
        // An island with nothing deeper than the allowance has nothing to push.
        bool deep = false;
        for (std::uint32_t k = first; k < last; ++k) deep = deep || contacts_[k].penetration > settings_.allowedPenetration;
        if (!deep) sweeps_.stop();
        else
            for (std::uint32_t k = first; k < last; ++k) detail::preparePushRow(contacts_[k], solver_, inverseInertia_, pushRows_[k]);
    }
    iterations_ = 0;
    islandStarted_ = true;
}

bool ContactResolver::stepPosition(ResolutionRecord& record) {
    recording_ = true;
    return advancePosition(record);
}

bool ContactResolver::advancePosition(ResolutionRecord& record) {
    while (!positionsDone_) {
        if (island_ + 1 >= islandStarts_.size()) {
            finishPositions();
            return false;
        }
        if (!islandStarted_) startPositions(island_);
        if (nextPosition(record)) return true;
        ++island_;
        islandStarted_ = false;
    }
    return false;
}

void ContactResolver::finishPositions() {
    positionsDone_ = true;
    island_ = 0;
    islandStarted_ = false;
    if (settings_.positionSolver == PositionSolver::Sequential) {
        // Whether the pushes moved body b (noBody, the world: never).
        const auto moved = [&](std::uint32_t b) {
            const std::uint32_t i = detail::solverIndex(b);
            return !(pushLinear_[i].isZero(0) && pushAngular_[i].isZero(0));
        };
        // Each body placed once, from where it started, by its total move (the stepping
        // form placed it after every push the same way, so both end bit-identical).
        for (const std::uint32_t b : touched_) {
            if (!bodies_[b].isDynamic() || !moved(b)) continue;
            const std::uint32_t i = detail::solverIndex(b);
            detail::placeBody(bodies_[b], startPosition_[b], startOrientation_[b], pushLinear_[i], pushAngular_[i]);
        }
        // Contacts whose bodies did not move keep their depth (their island may have had
        // nothing to push, and then no push rows either).
        for (std::size_t k = 0; k < contacts_.size(); ++k)
            if (moved(contacts_[k].body[0]) || moved(contacts_[k].body[1]))
                contacts_[k].penetration = contacts_[k].penetrationAtStart -
                                           detail::separationGained(contacts_[k], pushRows_[k], pushLinear_, pushAngular_);
    }
    stats_.maxPenetrationAfter = 0;
    for (const Contact& c : contacts_) stats_.maxPenetrationAfter = std::max(stats_.maxPenetrationAfter, c.penetration);
    // The velocity pass sees the bodies where the positions left them.
    detail::gatherSolverBodies(bodies_, touched_, solver_, inverseInertia_);
}

bool ContactResolver::nextPosition(ResolutionRecord& record) {
    return settings_.positionSolver == PositionSolver::WorstFirst ? nextDeepest(record) : nextPush(record);
}

bool ContactResolver::nextDeepest(ResolutionRecord& record) {
    const std::uint32_t count = islandStarts_[island_ + 1] - islandStarts_[island_];
    if (heap_.empty() || iterations_ >= settings_.positionIterationsPerContact * static_cast<int>(count)) return false;
    if (!(heap_.topKey() > settings_.penetrationTolerance)) return false;
    const std::uint32_t index = heap_.top();
    Contact& c = contacts_[index];
    if (recording_) {
        record = recordFor(ResolutionRecord::Kind::Position, index);
        record.before = c.penetration;
    }
    const BodyChange change = detail::projectContact(c, bodies_, settings_.maxProjectionAngle);
    // Every contact that shares a moved body (this one included) sees its penetration
    // change; re-key just those.
    for (std::size_t side = 0; side < 2; ++side) {
        const std::uint32_t b = c.body[side];
        if (b == noBody || !bodies_[b].isDynamic()) continue;
        for (std::uint32_t i = contactsOfBodyStart_[b]; i < contactsOfBodyStart_[b + 1]; ++i) {
            Contact& k = contacts_[contactsOfBody_[i]];
            detail::updatePenetration(k, b, change.linear[side], change.angular[side]);
            heap_.update(contactsOfBody_[i], k.penetration);
        }
    }
    finishPositionRecord(record, c, change);
    return true;
}

bool ContactResolver::nextPush(ResolutionRecord& record) {
    if (sweeps_.finished()) return false;
    const std::uint32_t index = sweepOrder_[sweeps_.at];
    // Shock propagation (Guendelman et al. 2003) on the last sweep: the body nearer
    // the ground holds still, so each layer is pushed out of the one below it in a
    // single bottom-up pass, whatever the mass ratio.
    int holdSide = -1;
    if (settings_.shockPropagation && sweeps_.lastSweep()) holdSide = lowerSide(contacts_[index]);
    sweeps_.advance(0, -1); // position sweeps run their full count
    Contact& c = contacts_[index];
    const detail::PushRow& row = pushRows_[index];
    const real target = settings_.projectionRelaxation * (c.penetrationAtStart - settings_.allowedPenetration);
    if (recording_) {
        record = recordFor(ResolutionRecord::Kind::Position, index);
        // Other contacts' pushes moved these bodies since this one was last visited.
        c.penetration = c.penetrationAtStart - detail::separationGained(c, row, pushLinear_, pushAngular_);
        record.before = c.penetration;
    }
    const BodyChange change = detail::pushContact(c, row, solver_, pushLinear_, pushAngular_, target, holdSide);
    if (recording_) {
        c.penetration = c.penetrationAtStart - detail::separationGained(c, row, pushLinear_, pushAngular_);
        // The bodies as the pushes so far leave them, for whoever steps through.
        for (const std::uint32_t b : c.body) {
            if (b == noBody || !bodies_[b].isDynamic()) continue;
            const std::uint32_t i = detail::solverIndex(b);
            detail::placeBody(bodies_[b], startPosition_[b], startOrientation_[b], pushLinear_[i], pushAngular_[i]);
        }
    }
    finishPositionRecord(record, c, change);
    return true;
}

void ContactResolver::finishPositionRecord(ResolutionRecord& record, const Contact& c, const BodyChange& change) {
    ++iterations_;
    ++stats_.positionIterations;
    if (!recording_) return;
    record.after = c.penetration;
    record.linearChange = change.linear;
    record.angularChange = change.angular;
    notify(record);
}

void ContactResolver::startVelocities(std::size_t island) {
    const std::uint32_t first = islandStarts_[island], last = islandStarts_[island + 1];
    keys_.resize(contacts_.size());
    // Rows in sweep order: the sweeps read them front to back.
    for (std::uint32_t p = first; p < last; ++p) {
        const Contact& c = contacts_[sweepOrder_[p]];
        detail::prepareImpulseRow(c, solver_, inverseInertia_, impulseRows_[p]);
        impulseRows_[p].lowerSide = static_cast<std::int8_t>(lowerSide(c));
    }
    if (settings_.velocitySolver == VelocitySolver::WorstFirst) {
        for (std::uint32_t k = first; k < last; ++k) {
            contacts_[k].accumulatedImpulse = Vec3::Zero();
            keys_[k] = contacts_[k].desiredDeltaVelocity;
        }
        heap_.build(first, last - first, keys_);
    } else {
        for (std::uint32_t k = first; k < last; ++k) {
            Contact& c = contacts_[k];
            if (!settings_.warmStart) {
                c.accumulatedImpulse = Vec3::Zero();
                impulseRows_[rowOf_[k]].total = Vec3::Zero();
            }
            // Warm start: last step's impulses, applied up front.
            if (c.accumulatedImpulse != Vec3::Zero()) detail::applyImpulse(impulseRows_[rowOf_[k]], solver_, c.accumulatedImpulse);
        }
        // Collisions first, Millington's way: the contacts that bounce (restitution,
        // closing faster than restitutionThreshold) are resolved largest first, each one's
        // impulse changing its neighbours' closing speeds, so a hit travels down a
        // row of balls (Newton's cradle) instead of being shared by all of them at
        // once. The sweeps then hold what rests (they aim at no bounce: it was given).
        for (std::uint32_t k = first; k < last; ++k) {
            Contact& c = contacts_[k];
            c.velocity = detail::relativeVelocity(impulseRows_[rowOf_[k]], solver_);
            detail::updateDesiredVelocity(c, bodies_, dt_, settings_);
            keys_[k] = bounceKey(c);
            c.targetNormalVelocity = c.penetration < 0 ? c.penetration / dt_ : 0;
            impulseRows_[rowOf_[k]].target = c.targetNormalVelocity;
        }
        heap_.build(first, last - first, keys_);
        bouncing_ = true;
        sweeps_.start(first, last, settings_.sequentialIterations);
        // Shock propagation's groups: the contacts that move one level's bodies, in
        // sweep order (ends ascending).
        shockEnds_.clear();
        for (std::uint32_t p = first + 1; p <= last; ++p)
            if (p == last || contactTop_[sweepOrder_[p]] != contactTop_[sweepOrder_[p - 1]]) shockEnds_.push_back(p);
        shock_.start(first, first, 0); // not started: the sweeps may settle
    }
    iterations_ = 0;
    islandStarted_ = true;
}

void ContactResolver::bounceFromGap(const Contact& c) {
    // A speculative contact that bounces was still apart by the gap g when the step
    // began: the bodies would meet a time g / v into the step and leave at e v for the
    // rest of it. Moving with e v for the whole step (x += h v) puts them (1 + e) g too
    // far apart; that much is taken back here, shared by inverse mass (a translation:
    // exact for the normal motion, which is what restitution is about). A body locked
    // along some world axes shares by (1/m) |f o n|^2 and moves along f o n.
    if (!(c.penetration < 0) || c.restitution <= 0) return;
    std::array<real, 2> share{0, 0};
    real total = 0;
    for (std::size_t side = 0; side < 2; ++side) {
        const std::uint32_t b = c.body[side];
        if (b == noBody || !bodies_[b].isDynamic()) continue;
        const Body& body = bodies_[b];
        share[side] = body.inverseMass * body.locks.linearShare(c.normal);
        total += share[side];
    }
    if (!(total > 0)) return;
    const real shift = (1 + c.restitution) * -c.penetration;
    for (std::size_t side = 0; side < 2; ++side) {
        if (share[side] == 0) continue;
        const real sign = side == 0 ? -1 : 1; // body 0 along -normal closes the gap
        Body& body = bodies_[c.body[side]];
        // d = (f o n) t opens the gap by n . d = |f o n|^2 t: t = shift (1/m) / total.
        const Vec3 move = c.normal * (sign * shift * (body.locks.anyLinear() ? body.inverseMass : share[side]) / total);
        body.position += body.locks.anyLinear() ? Vec3(move.cwiseProduct(body.locks.linearFree())) : move; // MotionLocks
    }
}

real ContactResolver::bounceKey(const Contact& c) const {
    const bool bounces = c.restitution > 0 && -c.velocity.x() >= settings_.restitutionThreshold;
    return bounces ? c.desiredDeltaVelocity : 0;
}

bool ContactResolver::stepVelocity(ResolutionRecord& record) {
    recording_ = true;
    return advanceVelocity(record);
}

bool ContactResolver::advanceVelocity(ResolutionRecord& record) {
    while (!positionsDone_) {
        ResolutionRecord skipped;
        if (!advancePosition(skipped)) break; // finish positions first
    }
    while (island_ + 1 < islandStarts_.size()) {
        if (!islandStarted_) startVelocities(island_);
        if (nextVelocity(record)) return true;
        ++island_;
        islandStarted_ = false;
    }
    finishVelocities();
    return false;
}

void ContactResolver::finishVelocities() {
    if (velocitiesDone_) return;
    velocitiesDone_ = true;
    for (const std::uint32_t b : touched_) {
        if (!bodies_[b].isDynamic()) continue;
        const detail::SolverBody& s = solver_[detail::solverIndex(b)];
        bodies_[b].linearVelocity = s.linearVelocity;
        bodies_[b].angularVelocity = s.angularVelocity;
    }
    if (settings_.velocitySolver == VelocitySolver::SequentialImpulses)
        for (std::size_t p = 0; p < contacts_.size(); ++p) contacts_[sweepOrder_[p]].accumulatedImpulse = impulseRows_[p].total;
}

Vec3 ContactResolver::sweepVelocity(detail::ImpulseRow& row) {
    // A sweep ends early when no contact in it changed by more than the tolerance: the
    // change this impulse made to the contact's relative velocity, D j. (|j| D_00
    // stands in for |D j|: the same size, without a matrix product per update;
    // compared squared.)
    const real tolerance = settings_.sequentialTolerance < 0 ? settings_.sequentialTolerance
                                                              : settings_.sequentialTolerance * settings_.sequentialTolerance;
    if (sweeps_.finished()) {
        // Shock propagation: the lower body holds, so what the sweeps left of a heavy
        // body's fall is stopped by the body it rests on, settled before it.
        const Vec3 impulse = detail::sequentialImpulse(row, solver_, settings_.slidingSpeed, row.lowerSide);
        shock_.advance(impulse.squaredNorm() * (row.normalResponse * row.normalResponse), tolerance);
        return impulse;
    }
    const Vec3 impulse = detail::sequentialImpulse(row, solver_, settings_.slidingSpeed, -1);
    sweeps_.advance(impulse.squaredNorm() * (row.normalResponse * row.normalResponse), tolerance);
    // Sweeps that ran out without settling hand over to shock propagation.
    if (sweeps_.finished() && !sweeps_.settled && settings_.shockPropagation && settings_.shockIterations > 0) {
        // The rows' responses with their lower bodies held, once for all the passes
        // (normalResponse stays the two-body D_00, the change measure's scale).
        const std::uint32_t first = islandStarts_[island_], last = islandStarts_[island_ + 1];
        for (std::uint32_t p = first; p < last; ++p) detail::holdLowerSide(impulseRows_[p], solver_);
        // One group per level, each swept until it settles with the level below held.
        shock_.start(first, shockEnds_, settings_.shockIterations);
    }
    return impulse;
}

bool ContactResolver::nextVelocity(ResolutionRecord& record) {
    const std::uint32_t first = islandStarts_[island_], last = islandStarts_[island_ + 1];
    std::uint32_t index;
    const bool worstFirst = settings_.velocitySolver == VelocitySolver::WorstFirst;
    const auto heapHasWork = [&] {
        return !heap_.empty() && iterations_ < settings_.velocityIterationsPerContact * static_cast<int>(last - first) &&
               heap_.topKey() > settings_.velocityTolerance;
    };
    if (bouncing_ && !worstFirst && !heapHasWork()) bouncing_ = false;
    const bool largestFirst = worstFirst || bouncing_;
    if (largestFirst) {
        if (!heapHasWork()) return false;
        index = heap_.top();
    } else {
        if (sweeps_.finished() && shock_.finished()) return false;
        if (!recording_) {
            // Nobody is looking: the island's remaining sweeps in one tight loop, the
            // same updates in the same order.
            while (!sweeps_.finished()) {
                sweepVelocity(impulseRows_[sweeps_.at]);
                ++iterations_;
                ++stats_.velocityIterations;
            }
            while (!shock_.finished()) {
                sweepVelocity(impulseRows_[shock_.at]);
                ++iterations_;
                ++stats_.velocityIterations;
            }
            return false;
        }
        index = sweepOrder_[sweeps_.finished() ? shock_.at : sweeps_.at];
    }
    Contact& c = contacts_[index];
    detail::ImpulseRow& row = impulseRows_[rowOf_[index]];
    // What the record reports: the contact's velocity and the two bodies before.
    std::array<detail::SolverBody, 2> bodiesBefore;
    if (recording_) {
        record = recordFor(ResolutionRecord::Kind::Velocity, index);
        record.before = detail::relativeVelocity(row, solver_).x();
        bodiesBefore = {solver_[row.body[0]], solver_[row.body[1]]};
    }
    Vec3 impulse;
    if (largestFirst) {
        const Vec3 sequentialTotal = c.accumulatedImpulse;
        const BodyChange change = detail::impulseContact(c, row, solver_, impulse);
        // A bounce is not part of the total the sweeps may take back, nor of next
        // step's warm start: it happens once.
        if (!worstFirst) {
            c.accumulatedImpulse = sequentialTotal;
            c.bounceImpulse += impulse;
            bounceFromGap(c);
        }
        for (std::size_t side = 0; side < 2; ++side) {
            const std::uint32_t b = c.body[side];
            if (b == noBody || !bodies_[b].isDynamic()) continue;
            for (std::uint32_t i = contactsOfBodyStart_[b]; i < contactsOfBodyStart_[b + 1]; ++i) {
                Contact& k = contacts_[contactsOfBody_[i]];
                detail::updateContactVelocity(k, b, change.linear[side], change.angular[side]);
                detail::updateDesiredVelocity(k, bodies_, dt_, settings_);
                heap_.update(contactsOfBody_[i], worstFirst ? k.desiredDeltaVelocity : bounceKey(k));
            }
        }
    } else {
        impulse = sweepVelocity(row);
    }
    ++iterations_;
    ++stats_.velocityIterations;
    if (!recording_) return true;
    record.after = detail::relativeVelocity(row, solver_).x();
    for (std::size_t side = 0; side < 2; ++side) {
        const std::uint32_t b = c.body[side];
        if (b == noBody || !bodies_[b].isDynamic()) continue;
        const detail::SolverBody& now = solver_[row.body[side]];
        record.velocityBefore[side] = {bodiesBefore[side].linearVelocity, bodiesBefore[side].angularVelocity};
        record.velocityAfter[side] = {now.linearVelocity, now.angularVelocity};
        record.linearChange[side] = now.linearVelocity - bodiesBefore[side].linearVelocity;
        record.angularChange[side] = now.angularVelocity - bodiesBefore[side].angularVelocity;
        // The Body array kept up to date for whoever steps through.
        bodies_[b].linearVelocity = now.linearVelocity;
        bodies_[b].angularVelocity = now.angularVelocity;
    }
    if (!largestFirst) c.accumulatedImpulse = row.total;
    record.impulseContact = impulse;
    record.impulseWorld = c.contactToWorld * impulse;
    notify(record);
    return true;
}

} // namespace jounce
