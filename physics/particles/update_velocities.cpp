// SPDX-License-Identifier: MIT
// After the projection (Müller 2007, steps 12-16): the velocity is what the position
// did, v = (p - x) / h, and x takes p. Then the velocity pass: a contact that closed
// faster than the restitution threshold leaves with -e times its closing speed
// (bounceParticles).

#include "common/parallel.hpp"
#include "physics/particles/pair_kernel.hpp"
#include "physics/particles/stages.hpp"

#include <algorithm>
#include <cmath>

namespace jounce::detail {
namespace {

/// An impulse j at `at`: the particle gains w j, the body loses it.
void exchange(Vec3& v, real w, Body& body, const Vec3& at, const Vec3& j) {
    v += j * w;
    const Vec3 linear = j * body.inverseMass;
    body.linearVelocity -= body.locks.anyLinear() ? Vec3(linear.cwiseProduct(body.locks.linearFree())) : linear; // MotionLocks
    body.angularVelocity -= body.inverseInertiaWorld * (at - body.position).cross(j);
}

/// A contact with a dynamic body: after the projection's pushes (which moved both and
/// gave both the matching velocity), the normal impulse that gives the relative normal velocity
/// `change`, then Coulomb friction against the relative sliding velocity, up to
/// mu_s |j_n| to stick, else mu_k |j_n|.
void coupledVelocityPass(Vec3& v, real w, Body& body, const Vec3& at, const Vec3& n, real change,
                         const ParticleContact& c) {
    const real jn = change / (w + generalizedInverseMass(body, at, n));
    exchange(v, w, body, at, n * jn);
    const Vec3 relative = v - body.velocityAt(at);
    const Vec3 sliding = relative - n * relative.dot(n);
    const real speed = sliding.norm();
    if (!(speed > 0)) return;
    const Vec3 t = sliding / speed;
    const real stop = speed / (w + generalizedInverseMass(body, at, t));
    const real jt = stop <= c.staticFriction * std::abs(jn) ? stop : std::min(stop, c.kineticFriction * std::abs(jn));
    exchange(v, w, body, at, t * -jt);
}

/// One contact's velocity pass (bounceParticles).
void bounceContact(ParticleSystem& ps, BodyArray& bodies, const ParticleContact& c, const ParticleSettings& settings, real h) {
    constexpr real touching = real(1e-6); // [m]
    // Only a contact that touches at the end of the small step: the projection
    // stopped its particle along n, or pushed it out.
    const Vec3 n = c.n;
    if ((ps.x[c.a] - c.q).dot(c.n) > touching) return;
    Body* body = c.body == noBody ? nullptr : &bodies.slots()[c.body];
    const Vec3 surface = c.q - c.n * ps.radius[c.a];
    const Vec3 surfaceVelocity = body != nullptr ? body->velocityAt(surface) : Vec3(c.surfaceMotion / h);
    const real vn = (ps.v[c.a] - surfaceVelocity).dot(n);
    // Müller 2007's velocity update: the normal velocity becomes -e times the
    // closing speed (0 below the threshold). Both ways: the push out of a
    // penetration, divided by h, is not a velocity the particle earned, and left
    // in it pumps energy into anything that rests on a curved surface while
    // constraints pull it in (a cloth over a sphere blew up that way).
    const bool bounces = c.restitution > 0 && -c.normalVelocity >= settings.restitutionThreshold;
    const real target = bounces ? -c.restitution * c.normalVelocity : 0;
    // Separating faster than the target only because of the push-out: the excess
    // goes; closing or separating slower than a bounce asks: it is given.
    const real change = target - vn;
    // A velocity the positions did not make starts BDF2's history afresh (its last
    // step's motion no longer leads to it).
    if (body != nullptr) {
        coupledVelocityPass(ps.v[c.a], ps.w[c.a], *body, surface, n, change, c);
        ps.hasHistory[c.a] = 0;
        return;
    }
    if (!bounces && change >= 0) return; // resting or closing: the projection handles it
    ps.hasHistory[c.a] = 0;
    ps.v[c.a] += n * change;
}

} // namespace

void updateParticleVelocities(ParticleSystem& ps, real h, ParticleIntegrator integrator, TaskSystem* tasks) {
    parallelShares(tasks, static_cast<std::uint32_t>(ps.slotCount()), 1024, [&](std::uint32_t begin, std::uint32_t end) {
        for (std::size_t i = begin; i < end; ++i) {
            if (!ps.isAlive(i) || ps.w[i] == 0) continue;
            if (ps.asleep[i]) { // a sleeping island stays where it is, whatever touched it in the sweep
                ps.p[i] = ps.x[i];
                continue;
            }
            const Vec3 moved = (ps.p[i] - ps.x[i]) / h;
            ps.previousVelocity[i] = ps.v[i];
            // BDF2 (survey eq. 21): v = (3/2 x^(n+1) - 2 x^n + 1/2 x^(n-1)) / h
            //                         = 3/2 (x^(n+1) - x^n) / h - 1/2 (x^n - x^(n-1)) / h.
            ps.v[i] = integrator == ParticleIntegrator::BDF2 ? Vec3(moved * real(1.5) - ps.stepVelocity[i] * real(0.5)) : moved;
            ps.stepVelocity[i] = moved;
            ps.hasHistory[i] = 1;
            ps.x[i] = ps.p[i];
        }
    });
}

void bounceParticles(ParticleSystem& ps, BodyArray& bodies, const std::vector<ParticleContact>& contacts,
                     const ParticleSettings& settings, real h, TaskSystem* tasks) {
    const auto count = static_cast<std::uint32_t>(contacts.size());
    // A contact with a dynamic body changes the body as well: then every contact is
    // taken on this thread, in order. Otherwise a contact changes its own particle alone,
    // and the contacts (which come by particle) are shared in parts that never split a
    // particle's contacts, each particle seeing its contacts in order as on one thread.
    const bool touchesBodies = std::any_of(contacts.begin(), contacts.end(), [](const ParticleContact& c) { return c.body != noBody; });
    if (touchesBodies) {
        for (const ParticleContact& c : contacts) bounceContact(ps, bodies, c, settings, h);
        return;
    }
    const auto particleStart = [&](std::uint32_t k) { // k moved on to the first contact of a particle
        while (k > 0 && k < count && contacts[k].a == contacts[k - 1].a) ++k;
        return k;
    };
    // Shares of 256 contacts or more (a few microseconds each; a cloth's 4096 on two
    // workers are two shares).
    parallelShares(tasks, count, 256, [&](std::uint32_t begin, std::uint32_t end) {
        for (std::uint32_t k = particleStart(begin); k < particleStart(end); ++k) bounceContact(ps, bodies, contacts[k], settings, h);
    });
}

void bouncePairs(ParticleSystem& ps, const PairRows& rows, const SweepLevels& levels, const ParticleSettings& settings,
                 TaskSystem* tasks) {
    // As bounceParticles, between two particles: the pair's normal is where they touch
    // at the end of the small step, and the change is shared by inverse mass. Colour by
    // colour (a colour's pairs share no particle), in the pair kernel's lanes.
    sweepPairs(tasks, rows, levels, pairRowView(ps, rows, settings.restitutionThreshold), &PairLanes::bounce,
               &PairKernel<ScalarLanes<real>>::bounce);
}

} // namespace jounce::detail
