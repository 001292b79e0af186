// SPDX-License-Identifier: MIT
// Collision constraints of the particle layer. Candidates come from the shared broad
// phase once per world substep; each small step turns them into constraints:
//   particle vs shape:    C(p) = (p - q) . n >= 0, q where the centre touches the shape
//                         along the ray x -> p (Müller 2007 sec. 3.5, continuous first),
//                         or the nearest outside position when x already overlaps;
//   particle vs particle: C = |p_a - p_b| - (r_a + r_b) >= 0 (survey, particle collision).
// Friction is position-based (Macklin et al. 2014; survey eq. 27-29): the tangential
// part of the relative displacement in the small step is undone while it is under
// mu_s times the penetration just corrected (static), otherwise shortened by mu_k d.

#include "common/parallel.hpp"
#include "physics/particles/pair_kernel.hpp"
#include "physics/particles/stages.hpp"

#include "contact/resolver_stages.hpp"

#include <jounce/collision/point_queries.hpp>
#include <jounce/common/simd.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace jounce::detail {

Vec3 frictionCorrection(const Vec3& dx, const Vec3& n, real depth, real staticFriction, real kineticFriction) {
    const Vec3 tangential = dx - n * dx.dot(n);
    const real squared = tangential.squaredNorm();
    const real stick = staticFriction * depth;
    // Surely sticking (|t|^2 under stick^2 by far more than either precision rounds, and
    // stick^2 a normal number): no square root, the same answer as below.
    const real surelyUnder = stick * stick * (1 - real(1e-5));
    if (surelyUnder > std::numeric_limits<real>::min() && squared < surelyUnder) return tangential;
    const real length = std::sqrt(squared);
    if (length < stick) return tangential; // static: stick
    if (!(length > 0)) return Vec3::Zero();
    return tangential * std::min(kineticFriction * depth / length, real(1)); // kinetic
}

real generalizedInverseMass(const Body& body, const Vec3& at, const Vec3& direction) {
    const Vec3 rn = (at - body.position).cross(direction);
    return body.inverseMass * body.locks.linearShare(direction) + rn.dot(body.inverseInertiaWorld * rn); // MotionLocks: M^-1 = diag(f) / m
}

Vec3 pushBody(Body& body, const Vec3& at, const Vec3& push, real h, bool withVelocity) {
    // A position change (linear and angular, as a contact's projection moves a body) and
    // the velocity that goes with it (push / h is the impulse's share of the small
    // step: the momentum the particle gains, the body loses).
    const Vec3 r = at - body.position;
    Vec3 linear = push * body.inverseMass;
    if (body.locks.anyLinear()) linear = linear.cwiseProduct(body.locks.linearFree()); // MotionLocks
    const Vec3 angular = body.inverseInertiaWorld * r.cross(push);
    displaceBody(body, linear, angular);
    if (withVelocity) {
        body.linearVelocity += linear / h;
        body.angularVelocity += angular / h;
    }
    return linear + angular.cross(r);
}

namespace {

/// A particle's coefficients combined with a collider's material, kept for the next
/// candidate: a cloth's particles share their coefficients, and the geometric mean of
/// the friction costs two square roots a contact.
struct CombinedMaterial {
    std::uint32_t collider = ~std::uint32_t(0);
    real particleStatic = 0, particleKinetic = 0, particleRestitution = 0;
    real staticFriction = 0, kineticFriction = 0, restitution = 0;

    void combine(const ParticleSystem& ps, std::uint32_t i, std::uint32_t colliderSlot, const Material& m) {
        if (colliderSlot == collider && sameReal(ps.staticFriction[i], particleStatic) &&
            sameReal(ps.kineticFriction[i], particleKinetic) && sameReal(ps.restitution[i], particleRestitution))
            return;
        collider = colliderSlot;
        particleStatic = ps.staticFriction[i];
        particleKinetic = ps.kineticFriction[i];
        particleRestitution = ps.restitution[i];
        staticFriction = combineFriction(particleStatic, CombineRule::Default, m.friction, m.frictionCombine);
        kineticFriction = combineFriction(particleKinetic, CombineRule::Default, m.friction, m.frictionCombine);
        restitution = combineRestitution(particleRestitution, CombineRule::Default, m.restitution, m.restitutionCombine);
    }
};

/// Candidate `pair`'s contact, if its particle reaches the shape in this small step
/// (makeShapeContacts); moves the particle out first where it starts inside a shape
/// that does not yield.
void shapeContact(ParticleSystem& ps, const BodyArray& bodies, const ColliderArray& colliders, const ParticleShapePair& pair,
                  const PoseMatrix& pose, real margin, real h, CombinedMaterial& material, std::vector<ParticleContact>& out) {
    const std::uint32_t i = pair.particle;
    const Collider& collider = colliders[pair.collider];
    const Body& body = bodies[collider.body];
    SweptHit hit;
    if (!particleContact(collider.shape, pose, ps.x[i], ps.p[i], ps.radius[i], margin, hit)) return;
    const bool coupled = body.isDynamic() && body.awake;
    if (hit.startedInside && !coupled) {
        // Already overlapping at the start (placed there, or pushed in by a body
        // that does not yield): move it out as a teleport, x and p alike, so the
        // push does not become velocity (v = (p - x) / h would throw it out at
        // depth / h). A dynamic body that moved into it in this small step shares
        // the push in the projection instead, as a collision (both gain velocity).
        const Vec3 push = hit.position - ps.x[i];
        ps.x[i] += push;
        ps.p[i] += push;
    }
    ParticleContact c;
    c.a = i;
    c.q = hit.position;
    c.n = hit.normal;
    // A body at rest (every static one) moves no surface: no cross product to find that.
    // (With a linear velocity of +0s, velocityAt gives +0s whatever the zero signs of the
    // turn: the same bits.)
    const Vec3& v = body.linearVelocity;
    const bool still = v.isZero(0) && !std::signbit(v.x()) && !std::signbit(v.y()) && !std::signbit(v.z()) &&
                       body.angularVelocity.isZero(0);
    c.surfaceMotion = still ? Vec3::Zero() : Vec3(body.velocityAt(hit.position - hit.normal * ps.radius[i]) * h);
    // Awake dynamic bodies take their share of the push (two-way coupling);
    // static, kinematic and sleeping ones do not move.
    if (coupled) {
        c.body = collider.body.index;
        const Vec3 surface = hit.position - hit.normal * ps.radius[i];
        c.surfaceLocal = body.orientation.conjugate() * (surface - body.position);
        c.surfaceStart = surface - c.surfaceMotion;
    }
    material.combine(ps, i, pair.collider.index, collider.material);
    c.staticFriction = material.staticFriction;
    c.kineticFriction = material.kineticFriction;
    c.restitution = material.restitution;
    c.normalVelocity = ps.v[i].dot(c.n) - c.surfaceMotion.dot(c.n) / h;
    out.push_back(c);
}

} // namespace

void makeShapeContacts(ParticleSystem& ps, const BodyArray& bodies, const ColliderArray& colliders,
                       const ParticleCandidates& candidates, real margin, real h, ColliderPoses& cache,
                       std::vector<ParticleContact>& out, TaskSystem* tasks) {
    out.clear();
    // Each collider's pose once per small step, not once per particle near it (nothing
    // moves a body while the contacts are made: the same numbers). The arrays are kept
    // between steps (ParticleStepScratch): no allocation once they have grown.
    constexpr std::uint32_t unset = ~std::uint32_t(0);
    const std::vector<ParticleShapePair>& shapes = candidates.shapes;
    std::vector<std::uint32_t>& poseOf = cache.ofSlot;
    std::vector<PoseMatrix>& poses = cache.poses;
    poseOf.assign(shapes.empty() ? 0 : colliders.slotCount(), unset);
    poses.clear();
    for (const ParticleShapePair& pair : shapes) {
        if (!ps.moves(pair.particle) || poseOf[pair.collider.index] != unset) continue; // pinned or asleep: it does not move
        poseOf[pair.collider.index] = static_cast<std::uint32_t>(poses.size());
        const Collider& collider = colliders[pair.collider];
        poses.emplace_back(bodies[collider.body].origin() * collider.local);
    }
    const auto make = [&](std::size_t begin, std::size_t end, std::vector<ParticleContact>& into) {
        CombinedMaterial material;
        for (std::size_t k = begin; k < end; ++k)
            if (ps.moves(shapes[k].particle))
                shapeContact(ps, bodies, colliders, shapes[k], poses[poseOf[shapes[k].collider.index]], margin, h, material, into);
    };
    // On several workers: runs of about 256 candidates, each ending with a particle's
    // last candidate (the candidates come by particle; a particle moved out of one
    // shape meets the next with its new position, as on one thread), put together in
    // run order.
    constexpr std::size_t runLength = 256;
    if (tasks == nullptr || tasks->workerCount() < 2 || shapes.size() < 2 * runLength) {
        make(0, shapes.size(), out);
        return;
    }
    std::vector<std::uint32_t>& runStart = cache.runStart;
    runStart.assign(1, 0);
    for (std::size_t k = runLength; k < shapes.size(); k += runLength) {
        while (k < shapes.size() && shapes[k].particle == shapes[k - 1].particle) ++k;
        if (k < shapes.size()) runStart.push_back(static_cast<std::uint32_t>(k));
    }
    runStart.push_back(static_cast<std::uint32_t>(shapes.size()));
    const auto runs = static_cast<std::uint32_t>(runStart.size() - 1);
    if (cache.runContacts.size() < runs) cache.runContacts.resize(runs);
    parallelShares(tasks, runs, 1, [&](std::uint32_t begin, std::uint32_t end) {
        for (std::uint32_t r = begin; r < end; ++r) {
            cache.runContacts[r].clear();
            make(runStart[r], runStart[r + 1], cache.runContacts[r]);
        }
    });
    for (std::uint32_t r = 0; r < runs; ++r) out.insert(out.end(), cache.runContacts[r].begin(), cache.runContacts[r].end());
}

namespace {

/// Candidates [begin, end) into pair contacts (makePairContacts), appended to `out`.
void makePairRun(const ParticleSystem& ps, const std::vector<ParticlePair>& pairs, std::size_t begin, std::size_t end, real h,
                 std::vector<PairContact>& out) {
    for (std::size_t k = begin; k < end; ++k) {
        const ParticlePair& pair = pairs[k];
        if (ps.asleep[pair.a] && ps.asleep[pair.b]) continue;
        const Vec3 d = ps.x[pair.a] - ps.x[pair.b];
        // Pairs that cannot close the gap in this world substep at their speeds are
        // left out (a quarter of their radii spare for what pushes them on the way).
        const real reach = (ps.radius[pair.a] + ps.radius[pair.b]) * real(1.25) + (ps.v[pair.a].norm() + ps.v[pair.b].norm()) * h;
        if (d.squaredNorm() > reach * reach) continue;
        PairContact c;
        c.a = pair.a;
        c.b = pair.b;
        const real length = d.norm();
        c.n = length > real(1e-12) ? Vec3(d / length) : Vec3::UnitY(); // coincident: push apart along +y
        c.staticFriction = std::sqrt(ps.staticFriction[pair.a] * ps.staticFriction[pair.b]);
        c.kineticFriction = std::sqrt(ps.kineticFriction[pair.a] * ps.kineticFriction[pair.b]);
        c.restitution = std::max(ps.restitution[pair.a], ps.restitution[pair.b]);
        c.normalVelocity = (ps.v[pair.a] - ps.v[pair.b]).dot(c.n);
        out.push_back(c);
    }
}

} // namespace

void makePairContacts(const ParticleSystem& ps, const ParticleCandidates& candidates, real h,
                      std::vector<PairContact>& out, std::vector<std::vector<PairContact>>& runs, TaskSystem* tasks) {
    out.clear();
    const std::vector<ParticlePair>& pairs = candidates.particles;
    constexpr std::size_t runLength = 1024;
    if (tasks == nullptr || tasks->workerCount() < 2 || pairs.size() < 2 * runLength) {
        makePairRun(ps, pairs, 0, pairs.size(), h, out);
        return;
    }
    const auto runCount = static_cast<std::uint32_t>((pairs.size() + runLength - 1) / runLength);
    if (runs.size() < runCount) runs.resize(runCount);
    parallelFor(tasks, runCount, 1, [&](std::uint32_t begin, std::uint32_t end) {
        for (std::uint32_t r = begin; r < end; ++r) {
            runs[r].clear();
            makePairRun(ps, pairs, r * runLength, std::min(pairs.size(), (r + 1) * runLength), h, runs[r]);
        }
    });
    for (std::uint32_t r = 0; r < runCount; ++r) out.insert(out.end(), runs[r].begin(), runs[r].end());
}

void orderPairContacts(std::size_t particles, std::vector<PairContact>& contacts, SweepLevels& levels,
                       std::vector<PairContact>& scratch, PairRows& rows) {
    orderSweep(
        particles, contacts.size(), [&](std::size_t k) { return std::array<std::uint32_t, 2>{contacts[k].a, contacts[k].b}; },
        levels);
    scratch.resize(contacts.size());
    for (std::size_t k = 0; k < contacts.size(); ++k) scratch[k] = contacts[levels.order[k]];
    contacts.swap(scratch);
    const std::size_t n = contacts.size();
    for (auto* column : {&rows.a, &rows.b}) column->resize(n);
    for (auto* column : {&rows.staticFriction, &rows.kineticFriction, &rows.nx, &rows.ny, &rows.nz, &rows.restitution, &rows.normalVelocity})
        column->resize(n);
    for (std::size_t k = 0; k < n; ++k) {
        const PairContact& c = contacts[k];
        rows.a[k] = c.a;
        rows.b[k] = c.b;
        rows.staticFriction[k] = c.staticFriction;
        rows.kineticFriction[k] = c.kineticFriction;
        rows.nx[k] = c.n.x();
        rows.ny[k] = c.n.y();
        rows.nz[k] = c.n.z();
        rows.restitution[k] = c.restitution;
        rows.normalVelocity[k] = c.normalVelocity;
    }
}

namespace {

/// A contact with a shape that does not yield (static, kinematic or asleep).
bool unyielding(const ParticleContact& c) { return c.body == noBody; }

void projectContact(ParticleSystem& ps, BodyArray& bodies, ParticleContact& c, real h) {
    Vec3& p = ps.p[c.a];
    const real value = (p - c.q).dot(c.n);
    if (value >= 0) return;
    if (c.body == noBody) {
        p -= c.n * value; // the shape does not move: the particle takes all of it
        p -= frictionCorrection(p - ps.x[c.a] - c.surfaceMotion, c.n, -value, c.staticFriction, c.kineticFriction);
        return;
    }
    // Two-way: the overlap is shared by the particle's inverse mass and the
    // body's generalized inverse mass at the contact point (DESIGN.md step 6).
    // The body moves in the same small steps (findCoupledBodies), so its share
    // is a move and a velocity change, as the particle's is (v = (p - x) / h).
    Body& body = bodies.slots()[c.body];
    const Vec3 surface = c.q - c.n * ps.radius[c.a];
    const real dlambda = -value / (ps.w[c.a] + generalizedInverseMass(body, surface, c.n));
    p += c.n * (ps.w[c.a] * dlambda);
    c.q += pushBody(body, surface, c.n * -dlambda, h, true); // the plane moves with the surface
    // Friction on the sliding relative to the body's surface point (where all pushes
    // left it), shared by the generalized inverse masses along the slip as the push
    // was (without it a cloth slid off a box).
    const Vec3 surfaceMoved = body.orientation * c.surfaceLocal + body.position - c.surfaceStart;
    const Vec3 slip = frictionCorrection(p - ps.x[c.a] - surfaceMoved, c.n, -value, c.staticFriction, c.kineticFriction);
    const real length = slip.norm();
    if (!(length > 0)) return;
    const Vec3 t = slip / length;
    const real tlambda = length / (ps.w[c.a] + generalizedInverseMass(body, surface, t));
    p -= t * (ps.w[c.a] * tlambda);
    c.q += pushBody(body, surface, t * tlambda, h, true);
}

} // namespace

void projectContacts(ParticleSystem& ps, BodyArray& bodies, std::vector<ParticleContact>& contacts, real h, TaskSystem* tasks) {
    // Shapes that do not yield are projected last, so they hold at the end of every
    // sweep: a grain squeezed between a falling box and the floor ends the sweep on the
    // floor, overlapping the box (which it pushes at the next small step), not pressed
    // through the floor by the box's contact (the soak found grains 5.9 cm under a
    // floor). Two passes over one list keep the broad phase's order within each kind.
    for (ParticleContact& c : contacts)
        if (!unyielding(c)) projectContact(ps, bodies, c, h);
    // A contact with a shape that does not yield moves its particle alone. A particle's
    // contacts come together (makeShapeContacts keeps the candidates' order, by
    // particle), so runs of about 256 that end with a particle's last contact may go to
    // different workers; each run finds its own ends.
    constexpr std::size_t run = 256;
    const std::size_t n = contacts.size();
    const auto runStart = [&](std::size_t r) {
        std::size_t k = std::min(n, r * run);
        while (k > 0 && k < n && contacts[k].a == contacts[k - 1].a) ++k;
        return k;
    };
    parallelShares(tasks, static_cast<std::uint32_t>((n + run - 1) / run), 2, [&](std::uint32_t begin, std::uint32_t end) {
        for (std::size_t k = runStart(begin); k < runStart(end); ++k)
            if (unyielding(contacts[k])) projectContact(ps, bodies, contacts[k], h);
    });
}

PairRowView pairRowView(ParticleSystem& ps, const PairRows& rows, real restitutionThreshold) {
    static_assert(sizeof(Vec3) == 3 * sizeof(real), "positions and velocities are packed x y z triples");
    PairRowView view;
    view.p = reinterpret_cast<real*>(ps.p.data());
    view.x = reinterpret_cast<real*>(ps.x.data());
    view.w = ps.w.data();
    view.radius = ps.radius.data();
    view.a = rows.a.data();
    view.b = rows.b.data();
    view.staticFriction = rows.staticFriction.data();
    view.kineticFriction = rows.kineticFriction.data();
    view.nx = rows.nx.data();
    view.ny = rows.ny.data();
    view.nz = rows.nz.data();
    view.v = reinterpret_cast<real*>(ps.v.data());
    view.hasHistory = ps.hasHistory.data();
    view.restitution = rows.restitution.data();
    view.normalVelocity = rows.normalVelocity.data();
    view.restitutionThreshold = restitutionThreshold;
    return view;
}

void sweepPairs(TaskSystem* tasks, const PairRows& rows, const SweepLevels& levels, const PairRowView& view, PairPass PairLanes::*pass,
                PairPass oneAtATime) {
    const SimdLevel level = simdLevel();
    PairLanes wide = level == SimdLevel::Avx2 ? avx2PairLanes() : PairLanes{};
    if (wide.width == 0 && level >= SimdLevel::Sse2) wide = sse2PairLanes();
    sweepLevels(tasks, levels, 256, [&](std::size_t k) { return rows.a[k]; }, [&](std::size_t begin, std::size_t end) {
        if (wide.width > 0) {
            const auto width = static_cast<std::size_t>(wide.width);
            const std::size_t full = begin + (end - begin) / width * width;
            if (full > begin) (wide.*pass)(view, begin, full);
            begin = full;
        }
        oneAtATime(view, begin, end);
    });
}

void preStabilizePairs(ParticleSystem& ps, const PairRows& rows, const SweepLevels& levels, TaskSystem* tasks) {
    sweepPairs(tasks, rows, levels, pairRowView(ps, rows), &PairLanes::preStabilize, &PairKernel<ScalarLanes<real>>::preStabilize);
}

void projectPairContacts(ParticleSystem& ps, const PairRows& rows, const SweepLevels& levels, TaskSystem* tasks) {
    sweepPairs(tasks, rows, levels, pairRowView(ps, rows), &PairLanes::project, &PairKernel<ScalarLanes<real>>::project);
}

} // namespace jounce::detail
