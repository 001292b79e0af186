// SPDX-License-Identifier: MIT
// The soft step's order (contact/soft_step.hpp describes the stages): the bodies the
// contacts touch copied out once, then island by island the substeps, the bounce and
// the stored impulses. Islands share no moving body, so solving one after the other
// gives what solving them together would.

#include "contact/resolver_stages.hpp"
#include "contact/soft_step.hpp"
#include "common/parallel.hpp"
#include "common/validate.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>

namespace jounce {
namespace detail {
namespace {

} // namespace

void kick(SoftBody& b) {
    if (!b.integrates) return;
    b.linearVelocity = (b.linearVelocity + b.linearKick) * b.linearKeep;
    b.angularVelocity = (b.angularVelocity + b.angularKick) * b.angularKeep;
}

void drift(SoftBody& b, real h) {
    if (b.integrates) {
        lockVelocities(b);
        limitSpeed(b.linearVelocity);
        limitSpeed(b.angularVelocity);
    }
    b.moved += h * b.linearVelocity;
    b.turned = integrateOrientation(b.turned, b.angularVelocity, h);
    b.turn = b.turned.toRotationMatrix();
}

SoftBody makeSoftBody(const Body& b, real h) {
    SoftBody s;
    s.linearVelocity = b.linearVelocity;
    s.angularVelocity = b.angularVelocity;
    s.moves = b.type == BodyType::Kinematic || (b.isDynamic() && b.awake);
    s.integrates = b.isDynamic() && b.awake;
    if (!s.integrates) return s; // takes no impulse; a kinematic body keeps its velocity
    s.inverseMass = b.inverseMass;
    s.inverseInertia = b.inverseInertiaWorld; // without the locked axes (MotionLocks)
    s.locked = b.locks.anyLinear() || b.locks.anyAngular();
    s.linearLocked = b.locks.anyLinear();
    s.linearFree = b.locks.linearFree();
    s.angularFree = b.locks.angularFree();
    // Forces and torques act over every substep (symplectic Euler per substep, as
    // integrate.cpp does per step); impulses the game applied act once, at the start.
    // Neither moves a body along a locked axis: a row would read that velocity as the
    // body's and push the other body to match it.
    s.linearAcceleration = detail::lockedChange(s, b.forceAccum * b.inverseMass);
    s.angularAcceleration = b.inverseInertiaWorld * b.torqueAccum;
    s.linearDamping = b.linearDamping;
    s.angularDamping = b.angularDamping;
    s.linearVelocity += detail::lockedChange(s, b.impulseAccum * b.inverseMass);
    s.angularVelocity += b.inverseInertiaWorld * b.angularImpulseAccum;
    lockVelocities(s); // nothing along a locked axis, whatever the game set or applied
    setSubstep(s, h);
    return s;
}

void setSubstep(SoftBody& b, real h) {
    if (!b.integrates) return;
    b.linearKick = h * b.linearAcceleration;
    b.angularKick = h * b.angularAcceleration;
    // exp(-0 h) is exactly 1: no call for the undamped bodies most scenes are made of.
    b.linearKeep = b.linearDamping > 0 ? std::exp(-b.linearDamping * h) : 1;
    b.angularKeep = b.angularDamping > 0 ? std::exp(-b.angularDamping * h) : 1;
}

} // namespace detail

using detail::SoftBody;
using detail::SoftRow;

void SoftStepSolver::gatherBodies(std::span<const Body> bodies, std::span<const std::uint8_t> alive,
                                  const detail::ContactScratch& grouping, real h, int substeps, TaskSystem* tasks) {
    bodies_.resize(bodies.size() + 1);
    bodies_[0] = SoftBody{};
    motions_.resize(bodies.size() + 1);
    motions_[0] = 0;
    owned_.resize(bodies.size());
    const real sub = h / static_cast<real>(substeps);
    // Every awake dynamic body is integrated here, in contact or not: a body that
    // switched between the step's integration and the substeps' as it met and left a
    // contact would lose the difference of their half-steps of gravity each time
    // (symplectic Euler's velocity lags the position by half a step: a ball with e = 1
    // lost 7 % of its height per bounce).
    detail::parallelFor(tasks, static_cast<std::uint32_t>(bodies.size()), 256, [&](std::uint32_t begin, std::uint32_t end) {
        for (std::uint32_t i = begin; i < end; ++i) {
            const Body& b = bodies[i];
            owned_[i] = i < alive.size() && alive[i] && b.isDynamic() && b.awake; // a destroyed body's slot keeps its data
            if (owned_[i]) bodies_[i + 1] = detail::makeSoftBody(b, sub);
            motions_[i + 1] = owned_[i] ? motionOf(bodies_[i + 1]) : std::uint8_t{0};
        }
    });
    // The other bodies the step's contacts touch: kinematic ones (which move), static and
    // sleeping ones. Marked from the placed manifolds and joint contacts, then made once
    // each from the bodies, both on the workers (one pass over the contacts on the calling
    // thread read what the workers had just written, from the other processor's cache:
    // docs/benchmarks.md, "Two threads").
    touched_.assign(bodies.size(), 0);
    const auto touch = [&](std::uint32_t i) {
        if (i != noBody && !owned_[i]) std::atomic_ref<std::uint8_t>(touched_[i]).store(1, std::memory_order_relaxed);
    };
    const auto manifolds = static_cast<std::uint32_t>(grouping.manifoldPairs.size());
    detail::parallelFor(tasks, manifolds, 1024, [&](std::uint32_t begin, std::uint32_t end) {
        for (std::uint32_t k = begin; k < end; ++k) {
            if (grouping.manifoldFirsts[k] == detail::noPlace) continue;
            touch(grouping.manifoldPairs[k].a);
            touch(grouping.manifoldPairs[k].b);
        }
    });
    for (std::size_t k = 0; k < grouping.jointContacts.size(); ++k)
        if (grouping.jointPlaces[k] != detail::noPlace)
            for (const std::uint32_t i : grouping.jointContacts[k].body) touch(i);
    detail::parallelFor(tasks, static_cast<std::uint32_t>(bodies.size()), 256, [&](std::uint32_t begin, std::uint32_t end) {
        for (std::uint32_t i = begin; i < end; ++i)
            if (touched_[i]) {
                bodies_[i + 1] = detail::makeSoftBody(bodies[i], sub);
                motions_[i + 1] = motionOf(bodies_[i + 1]);
            }
    });
}

namespace {

/// w = R I_body^-1 R^T L: the angular velocity of momentum L at orientation R.
Vec3 spinOf(const Body& body, const Mat3& r, const Vec3& momentum) {
    return r * (body.inverseInertiaBody * (r.transpose() * momentum));
}
Vec3 spinOf(const Body& body, const Quat& q, const Vec3& momentum) { return spinOf(body, q.toRotationMatrix(), momentum); }

/// L = R I_body R^T w.
Vec3 momentumOf(const Body& body, const Mat3& r, const Vec3& w) { return r * (body.inertiaBody * (r.transpose() * w)); }
Vec3 momentumOf(const Body& body, const Quat& q, const Vec3& w) { return momentumOf(body, q.toRotationMatrix(), w); }

} // namespace

void SoftStepSolver::integrateAlone(std::span<const Body> bodies, real h, int substeps, GyroscopicMode gyroscopic,
                                    TaskSystem* tasks) {
    // Bodies in no island: the same substeps with nothing to solve.
    detail::parallelFor(tasks, static_cast<std::uint32_t>(owned_.size()), 256, [&](std::uint32_t begin, std::uint32_t end) {
        for (std::uint32_t i = begin; i < end; ++i)
            if (owned_[i] && stamp_[i + 1] == 0) integrateOneAlone(bodies[i], bodies_[i + 1], h, substeps, gyroscopic);
    });
}

void SoftStepSolver::integrateOneAlone(const Body& body, SoftBody& b, real h, int substeps, GyroscopicMode gyroscopic) {
    const real sub = h / static_cast<real>(substeps);
    b.moved = Vec3::Zero();
    b.turned = Quat::Identity();
    b.turn = Mat3::Identity();
    // Turning with its inertia as GyroscopicMode says (integrate.cpp's forms, per substep).
    Quat q = body.orientation;
    Mat3 r = q.toRotationMatrix(); // q's (ConserveMomentum's): made once a substep, read twice
    // A body that may turn about some axes only turns about them as it spins (its
    // gyroscopic terms would turn it about the locked ones).
    if (body.locks.anyAngular()) gyroscopic = GyroscopicMode::None;
    // An isotropic body's momentum-keeping turn is the plain one: w stays as it is.
    if (gyroscopic == GyroscopicMode::ConserveMomentum && detail::isotropicInertia(body)) gyroscopic = GyroscopicMode::None;
    // A body that does not spin and feels no torque keeps its orientation exactly: every
    // form's turn is by w = 0 (a falling pile's boxes: the turns were a quarter of its
    // free fall's step).
    const bool turns = !b.angularVelocity.isZero(0) || !b.angularKick.isZero(0);
    for (int s = 0; s < substeps; ++s) {
        if (!turns) {
            detail::kick(b);
            detail::lockVelocities(b);
            detail::limitSpeed(b.linearVelocity);
            b.moved += sub * b.linearVelocity;
            continue;
        }
        detail::kick(b);
        detail::lockVelocities(b);
        Vec3& w = b.angularVelocity;
        if (gyroscopic == GyroscopicMode::Explicit) // w' = w - h I^-1 (w x I w)
            w -= sub * spinOf(body, q, w.cross(momentumOf(body, q, w)));
        detail::limitSpeed(b.linearVelocity);
        detail::limitSpeed(w);
        b.moved += sub * b.linearVelocity;
        if (gyroscopic == GyroscopicMode::ConserveMomentum) { // midpoint turn, L kept
            const Vec3 momentum = momentumOf(body, r, w);
            const Quat half = integrateOrientation(q, spinOf(body, r, momentum), sub / 2);
            q = integrateOrientation(q, spinOf(body, half, momentum), sub);
            r = q.toRotationMatrix();
            w = spinOf(body, r, momentum);
        } else {
            q = integrateOrientation(q, w, sub);
        }
    }
    if (!turns) return; // turned and turn stay the identity
    b.turned = (q * body.orientation.conjugate()).normalized();
    b.turn = b.turned.toRotationMatrix();
}

void SoftStepSolver::keepAngularMomentum(std::span<const Body> bodies, TaskSystem* tasks) {
    detail::parallelFor(tasks, static_cast<std::uint32_t>(owned_.size()), 256, [&](std::uint32_t begin, std::uint32_t end) {
        for (std::uint32_t i = begin; i < end; ++i) {
            // Alone: integrateAlone kept it; joined: its joints' velocity stands.
            if (!owned_[i] || stamp_[i + 1] == 0 || stamp_[i + 1] == jointedMark) continue;
            SoftBody& b = bodies_[i + 1];
            const Body& body = bodies[i];
            if (body.locks.anyAngular()) continue; // turns about its free axes only, as integrateOneAlone
            if (detail::isotropicInertia(body)) continue; // I w with w as it is
            const Vec3 momentum = momentumOf(body, body.orientation, b.angularVelocity);
            b.angularVelocity = spinOf(body, (b.turned * body.orientation).normalized(), momentum);
        }
    });
}

void SoftStepSolver::prepareJointAxes(std::span<const detail::JointMotionRow> motions, std::span<const std::uint32_t> islandStarts) {
    jointAxes_.clear();
    jointAxisStarts_.assign(detail::islandCount(islandStarts) + 1, 0);
    if (motions.empty() || rows_.empty()) return; // no rows: every island is contacts alone, no hinge awake
    // Each moving body's island, from the rows (a hinge's anchor and a slider's contacts
    // across its axis always have rows in it).
    const auto count = static_cast<std::uint32_t>(rows_.size());
    islandOf_.assign(bodies_.size(), 0xffffffffu);
    for (std::uint32_t k = 0; k + 1 < jointAxisStarts_.size(); ++k) {
        const auto [first, last] = detail::islandRange(islandStarts, k, count);
        for (std::uint32_t i = first; i < last; ++i)
            for (const std::uint32_t b : rows_[i].body)
                if (bodies_[b].integrates) islandOf_[b] = k;
    }
    for (std::uint32_t r = 0; r < motions.size(); ++r) {
        const detail::JointMotionRow& m = motions[r];
        detail::SoftJointAxis a;
        static_cast<detail::JointMotionRow&>(a) = m;
        a.row = r;
        a.solver = {detail::solverIndex(m.body[0]), detail::solverIndex(m.body[1])};
        const std::uint32_t side = bodies_[a.solver[0]].integrates ? a.solver[0] : a.solver[1];
        a.island = side < islandOf_.size() ? islandOf_[side] : 0xffffffffu;
        if (a.island == 0xffffffffu) continue; // no rows of its points this step: nothing to turn
        jointAxes_.push_back(a);
    }
    // By island, in row order within each (stable: the same order for any thread count).
    std::stable_sort(jointAxes_.begin(), jointAxes_.end(), [](const detail::SoftJointAxis& x, const detail::SoftJointAxis& y) { return x.island < y.island; });
    for (const detail::SoftJointAxis& a : jointAxes_) ++jointAxisStarts_[a.island + 1];
    for (std::size_t k = 1; k < jointAxisStarts_.size(); ++k) jointAxisStarts_[k] += jointAxisStarts_[k - 1];
}

void SoftStepSolver::choose(std::span<const Body> bodies, std::span<const std::uint8_t> alive,
                            const detail::ContactScratch& grouping, std::span<const std::uint32_t> islandStarts,
                            const std::vector<ContactManifold>& manifolds, real h, const ResolverSettings& settings,
                            const Vec3& gravity, TaskSystem* tasks) {
    gatherBodies(bodies, alive, grouping, h, settings.soft.substeps, tasks);
    // Islands of contacts alone go to the coloured blocks, straight from their manifolds;
    // islands with joints, or with a light body held under a heavy one, are solved in
    // solve() one by one through their rows (their joint systems and ghosts are per island).
    // (It sizes rows_: empty when every island is coloured.)
    chooseColoured(islandStarts, manifolds, grouping, settings.soft.holdMassRatio, gravity, tasks);
}

void SoftStepSolver::solve(std::span<Body> bodies, std::span<Contact> contacts,
                           std::span<ContactManifold> manifolds, std::span<const std::uint32_t> islandStarts,
                           std::span<detail::JointMotionRow> motions, real h, const ResolverSettings& settings,
                           const Vec3& gravity, GyroscopicMode gyroscopic, TaskSystem* tasks) {
    const int substeps = settings.soft.substeps;
    watch_ = observer_ ? Watch{&observer_, contacts, bodies, islandStarts, motions} : Watch{};
    const auto count = static_cast<std::uint32_t>(contacts.size());
    if (!settings.warmStart) // (the coloured blocks start from none without it: pack)
        for (Contact& c : contacts) c.accumulatedImpulse = Vec3::Zero();
    const auto rowCount = static_cast<std::uint32_t>(rows_.size());
    detail::parallelFor(tasks, rowCount, 1024, [&](std::uint32_t begin, std::uint32_t end) {
        for (std::uint32_t k = begin; k < end; ++k)
            if (rows_[k].kind != detail::SoftKind::InBlock) detail::prepareSoftRow(contacts[k], bodies, bodies_, rows_[k]);
    });
    prepareJointAxes(motions, islandStarts);
    // Heavy on light: rows that hold the light body still (before the patches, which then
    // hold it for friction too).
    holdLightBodies(islandStarts, contacts, settings.soft.holdMassRatio, gravity);
    // Impulses are kept per step outside the islands' substeps (each island shares them
    // among its own substeps: solveIsland).
    detail::preparePoints(contacts, rows_, points_);
    detail::preparePatches(contacts, rows_, bodies_, patches_, tasks);
    stamp_.assign(bodies_.size(), 0);
    solveColoured(contacts, manifolds, bodies, h, settings, tasks);
    for (std::size_t k = 0; k < detail::islandCount(islandStarts); ++k) {
        const auto [first, last] = detail::islandRange(islandStarts, k, count);
        if (!coloured_[k]) solveIsland(k, first, last, h, settings);
    }
    for (const detail::SoftJointAxis& a : jointAxes_) {
        motions[a.row].impulse = a.impulse;
        motions[a.row].lock = a.lock;
        motions[a.row].drive = a.drive;
    }
    integrateAlone(bodies, h, substeps, gyroscopic, tasks);
    if (gyroscopic == GyroscopicMode::ConserveMomentum) keepAngularMomentum(bodies, tasks);
    detail::parallelFor(tasks, rowCount, 1024, [&](std::uint32_t begin, std::uint32_t end) {
        for (std::uint32_t k = begin; k < end; ++k) {
            const SoftRow& row = rows_[k];
            if (row.kind == detail::SoftKind::InBlock) continue; // describeColoured writes it, when asked
            Contact& c = contacts[k];
            c.penetration = -detail::currentSeparation(row, bodies_[row.body[0]], bodies_[row.body[1]]); // after the step
            c.accumulatedImpulse = row.impulse; // the step's, as the resolver keeps it
            // The step's whole normal impulse less the kept one (World::resolvedContacts).
            c.bounceImpulse = Vec3(row.applied + row.bounced - row.impulse.x(), 0, 0);
        }
    });
    detail::parallelFor(tasks, static_cast<std::uint32_t>(patches_.size()), 512, [&](std::uint32_t begin, std::uint32_t end) {
        for (std::uint32_t k = begin; k < end; ++k) detail::storePatch(patches_[k], rows_, contacts);
    });
    for (const detail::SoftPoint& p : points_) detail::storePoint(p, contacts);
    stats_ = ResolverStats{};
    stats_.velocityIterations = substeps * (1 + settings.soft.relaxIterations);
    stats_.shards = hasColoured() ? static_cast<int>(shardCount()) : 1;
    if (hasColoured()) { // (their contacts are not written: unpackLanes measured them)
        stats_.maxPenetrationBefore = std::max(stats_.maxPenetrationBefore, colouredDepth_[0]);
        stats_.maxPenetrationAfter = std::max(stats_.maxPenetrationAfter, colouredDepth_[1]);
    }
    for (std::size_t k = 0; k < detail::islandCount(islandStarts); ++k) {
        if (coloured_[k]) continue;
        const auto [first, last] = detail::islandRange(islandStarts, k, count);
        for (std::uint32_t i = first; i < last; ++i) {
            const Contact& c = contacts[i];
            if (!c.supports) continue; // a joint's rows: their drift is no overlap
            stats_.maxPenetrationBefore = std::max(stats_.maxPenetrationBefore, c.penetrationAtStart);
            stats_.maxPenetrationAfter = std::max(stats_.maxPenetrationAfter, c.penetration);
        }
    }
    detail::parallelFor(tasks, static_cast<std::uint32_t>(bodies.size()), 256, [&](std::uint32_t begin, std::uint32_t end) {
        for (std::uint32_t i = begin; i < end; ++i) {
            if (!owned_[i]) continue;
            Body& b = bodies[i];
            detail::lockVelocities(bodies_[i + 1]); // the relaxing sweeps' impulses after the last drift
            b.linearVelocity = bodies_[i + 1].linearVelocity;
            b.angularVelocity = bodies_[i + 1].angularVelocity;
            // The visits after the last drift may have pushed a body past the bound (a world
            // restored with an absurd but accepted value: docs/reliability.md).
            detail::limitSpeed(b.linearVelocity);
            detail::limitSpeed(b.angularVelocity);
            b.lastFrameAcceleration = b.forceAccum * b.inverseMass + b.impulseAccum * (b.inverseMass / h);
            if (b.locks.anyLinear()) b.lastFrameAcceleration = b.lastFrameAcceleration.cwiseProduct(b.locks.linearFree()); // gravity it never felt
        }
    });
}

bool SoftStepSolver::stampMoving(std::uint32_t i, std::uint32_t mark) {
    if (i == 0 || stamp_[i] == mark || !bodies_[i].moves) return false;
    stamp_[i] = mark;
    return true;
}

void SoftStepSolver::startMotion(std::uint32_t i, real sub) {
    bodies_[i].moved = Vec3::Zero();
    bodies_[i].turned = Quat::Identity();
    bodies_[i].turn = Mat3::Identity();
    detail::setSubstep(bodies_[i], sub);
}

void SoftStepSolver::addMoving(std::uint32_t i, std::uint32_t mark, real sub, std::vector<std::uint32_t>& out) {
    if (!stampMoving(i, mark)) return;
    out.push_back(i);
    startMotion(i, sub);
}

void SoftStepSolver::listMoving(std::uint32_t first, std::uint32_t last, std::uint32_t mark, real sub,
                                std::vector<std::uint32_t>& out) {
    for (std::uint32_t k = first; k < last; ++k)
        for (const std::uint32_t i : rows_[k].body) addMoving(i, mark, sub, out);
}

void SoftStepSolver::solveIsland(std::size_t island, std::uint32_t first, std::uint32_t last, real h,
                                 const ResolverSettings& settings) {
    if (first == last) return;
    const SoftStepSettings& soft = settings.soft;
    // The island's joint points and friction patches (in contact order, as the islands are).
    const auto within = [&](auto& all) {
        const auto at = [&](std::uint32_t row) {
            return std::lower_bound(all.begin(), all.end(), row, [](const auto& x, std::uint32_t r) { return x.first < r; }) -
                   all.begin();
        };
        const auto from = at(first);
        return std::span(all.data() + from, static_cast<std::size_t>(at(last) - from));
    };
    const std::span<detail::SoftPoint> points = within(points_);
    const std::span<detail::SoftPatch> patches = within(patches_);
    const std::span<detail::SoftJointAxis> axes(jointAxes_.data() + jointAxisStarts_[island],
                                              jointAxisStarts_[island + 1] - jointAxisStarts_[island]);
    const int substeps = points.empty() && axes.empty() ? soft.substeps : std::max(soft.substeps, soft.jointSubsteps);
    const real sub = h / static_cast<real>(substeps);
    const real invSub = 1 / sub;
    // Contacts as springs held to an eighth of the substep rate (stiffer would ring
    // against the substep), twice as stiff against a body that cannot move; joints to
    // a quarter (Box2D v3's clamps).
    const real contactHertz = std::min(soft.contactHertz, invSub / 8);
    const real jointHertz = std::min(soft.jointHertz, invSub / 4);
    const std::array<detail::Softness, 4> softness{
        detail::makeSoft(contactHertz, soft.contactDampingRatio, sub),
        detail::makeSoft(2 * contactHertz, soft.contactDampingRatio, sub),
        detail::makeSoft(jointHertz, soft.jointDampingRatio, sub),
        detail::Softness{}}; // folded rows: never solved as rows
    // The island's moving bodies (kinematic ones start over for each island: they are
    // shared, and their motion is the same whichever island integrates it).
    islandBodies_.clear();
    listMoving(first, last, first + 1, sub, islandBodies_);
    const std::span<SoftRow> rows(rows_.data() + first, last - first);
    // Ghosts of the light bodies its rows hold (soft_hold.cpp) follow their bodies.
    islandGhosts_.clear();
    for (const SoftRow& row : rows)
        for (const std::uint32_t i : row.body)
            if (i >= firstGhost_ && stamp_[i] != first + 1) {
                stamp_[i] = first + 1;
                islandGhosts_.push_back(i);
            }
    const detail::Softness jointSoft = detail::makeSoft(jointHertz, soft.jointDampingRatio, sub);
    const bool direct = detail::buildJointSystem(points, bodies_, joints_, jointScratch_);
    // What a watched step reports of each visit (soft_records.cpp).
    using Kind = ResolutionRecord::Kind;
    std::uint32_t substep = 0;
    const auto rowVisit = [&](Kind kind, std::uint32_t k) {
        return Visit{kind, substep, ResolutionRecord::noColour, 0, 0, k, 1, rows_[k].body};
    };
    const auto groupVisit = [&](Kind kind, const auto& group, std::uint32_t count) {
        return Visit{kind, substep, ResolutionRecord::noColour, 0, 0, group.first, count, group.body};
    };
    const auto axisVisit = [&](Kind kind, const detail::SoftJointAxis& a) {
        return Visit{kind, substep, ResolutionRecord::noColour, 0, 0, first, 0, a.solver,
                     watch_.motions.empty() ? ResolutionRecord::noJoint : watch_.motions[a.row].joint};
    };
    const auto solvePoints = [&](bool useBias) {
        const Kind kind = useBias ? Kind::Solve : Kind::Relax;
        if (!(direct && joints_.factored)) {
            for (detail::SoftPoint& p : points)
                watched(groupVisit(kind, p, 6), [&] { detail::solvePoint(p, bodies_[p.body[0]], bodies_[p.body[1]], jointSoft, useBias); });
            return;
        }
        if (watch_.observer == nullptr) return detail::solveJointSystem(joints_, points, bodies_, jointSoft, useBias);
        // One visit solves every point at once: each point's record shows that visit's
        // change of its two bodies.
        std::vector<std::array<BodyVelocity, 2>> before;
        for (const detail::SoftPoint& p : points) before.push_back(velocities(p.body, false));
        detail::solveJointSystem(joints_, points, bodies_, jointSoft, useBias);
        for (std::size_t i = 0; i < points.size(); ++i) report(groupVisit(kind, points[i], 6), before[i], false, std::nullopt);
    };
    const auto solveJointAxes = [&](bool useBias) {
        const Kind kind = useBias ? Kind::Solve : Kind::Relax;
        for (detail::SoftJointAxis& a : axes)
            watchedAxis(axisVisit(kind, a), a, [&] { detail::solveJointAxis(a, bodies_[a.solver[0]], bodies_[a.solver[1]], jointSoft, sub, useBias); });
    };
    const auto solveJoints = [&](bool useBias) {
        // The hinges' and sliders' own rows (locks, then motion) before the points
        // (Box2D's order): the points, stiffer, have the last word. With such rows, twice:
        // a row turns a hinged arm about its own centre and the points then turn that into
        // a turn about the pivot, a hundred times the inertia for a 10 kg weight 1 m out,
        // so one round stops only part of it (flung into a limit at 10 rad/s: 1.84
        // degrees past in one round, 1.41 in two, 1.28 in three, measured with a hinge's
        // two points; docs/joints.md).
        for (int r = 0; r < (axes.empty() ? 1 : 2); ++r) {
            solveJointAxes(useBias);
            solvePoints(useBias);
        }
    };
    const auto sweep = [&](bool useBias) {
        const Kind kind = useBias ? Kind::Solve : Kind::Relax;
        syncGhosts();
        // Joints first (Box2D's order): contacts then see the links where they hold.
        solveJoints(useBias);
        for (std::uint32_t k = first; k < last; ++k) {
            SoftRow& row = rows_[k];
            if (row.kind == detail::SoftKind::Folded) continue; // a joint point's: solved with the point
            watched(rowVisit(kind, k), [&] {
                detail::solveSoftRow(row, bodies_[row.body[0]], bodies_[row.body[1]],
                                     softness[static_cast<std::size_t>(row.kind)], invSub, soft.maxPushOut, useBias);
            });
        }
        for (detail::SoftPatch& p : patches)
            watched(groupVisit(kind, p, p.count), [&] { detail::solvePatch(p, rows_, bodies_[p.body[0]], bodies_[p.body[1]]); });
        // And again after the contact rows (the bodies' and the joints' own: a rope's, a
        // slider's across its axis) where there are any beside the points: a ragdoll
        // landing on its limbs pulled its joints 9 cm apart when the contacts had the
        // last word, 1.9 cm so; a crane's winch braking at speed 0 (an axis row) under a
        // crate on a rope (a distance joint's contacts) crept 1.6 cm/s, and holds once its
        // rows come again.
        if ((!points.empty() || !axes.empty()) && points.size() * 6 < rows.size()) solveJoints(useBias);
    };
    // The step's impulses shared among the substeps (and gathered back below).
    const auto scaleImpulses = [&](real k) {
        for (SoftRow& row : rows) row.impulse *= k;
        for (detail::SoftPoint& p : points) p.impulse *= k;
        for (detail::SoftJointAxis& a : axes) {
            for (real& j : a.impulse) j *= k;
            a.lock *= k;
            a.drive *= k;
        }
        for (detail::SoftPatch& p : patches) {
            p.planar *= k;
            p.twist *= k;
        }
    };
    scaleImpulses(1 / static_cast<real>(substeps));
    for (int s = 0; s < substeps; ++s) {
        substep = static_cast<std::uint32_t>(s);
        for (const std::uint32_t i : islandBodies_) detail::kick(bodies_[i]);
        syncGhosts();
        if (direct && s > 0) detail::factorJointSystem(joints_, points, bodies_); // the anchors have turned
        // Restitution's reference: each bouncy row's approach speed before the solve,
        // this substep (Box2D takes it once per step and bounces after the last
        // substep; a ball stopped at the floor early in the step then waits there for
        // the rest of it, and e = 1 lost 7 % of the height per bounce).
        for (SoftRow& row : rows)
            if (row.restitution > 0) detail::noteApproach(row, bodies_[row.body[0]], bodies_[row.body[1]]);
        for (detail::SoftJointAxis& a : axes)
            watchedAxis(axisVisit(Kind::WarmStart, a), a, [&] { detail::warmStartJointAxis(a, bodies_[a.solver[0]], bodies_[a.solver[1]]); });
        for (detail::SoftPoint& p : points)
            watched(groupVisit(Kind::WarmStart, p, 6), [&] { detail::warmStartPoint(p, bodies_[p.body[0]], bodies_[p.body[1]]); });
        for (std::uint32_t k = first; k < last; ++k) {
            SoftRow& row = rows_[k];
            if (row.kind == detail::SoftKind::Folded) continue;
            watched(rowVisit(Kind::WarmStart, k), [&] { detail::warmStartRow(row, bodies_[row.body[0]], bodies_[row.body[1]]); });
        }
        for (const detail::SoftPatch& p : patches)
            watched(groupVisit(Kind::WarmStart, p, p.count), [&] { detail::warmStartPatch(p, bodies_[p.body[0]], bodies_[p.body[1]]); });
        sweep(true);
        for (const std::uint32_t i : islandBodies_) detail::drift(bodies_[i], sub);
        for (int r = 0; r < soft.relaxIterations; ++r) sweep(false);
        syncGhosts();
        for (std::uint32_t k = first; k < last; ++k) {
            SoftRow& row = rows_[k];
            if (row.restitution <= 0) continue;
            watched(rowVisit(Kind::Bounce, k), [&] {
                detail::bounceRow(row, bodies_[row.body[0]], bodies_[row.body[1]], settings.restitutionThreshold, sub);
            });
        }
    }
    syncGhosts(); // where the step left them, for the contacts' final separations
    // Joined bodies keep the angular velocity their joints left (keepAngularMomentum
    // would pull a ragdoll's joints apart: its limbs' spins taken again from their
    // momenta no longer agree at the joints; Jolt and Box2D turn no joined body so).
    const bool jointed = std::any_of(rows.begin(), rows.end(), [](const SoftRow& row) {
        return row.kind == detail::SoftKind::Joint || row.kind == detail::SoftKind::Folded;
    });
    if (jointed)
        for (const std::uint32_t i : islandBodies_) stamp_[i] = jointedMark;
    scaleImpulses(static_cast<real>(substeps));
}

} // namespace jounce
