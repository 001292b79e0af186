// SPDX-License-Identifier: MIT
// Contact preparation (Millington ch. 14.1, 15.1, 16.1).

#include "contact/resolver_stages.hpp"

#include <algorithm>
#include <cmath>

namespace jounce {

namespace detail {
namespace {

/// Velocity of the contact point on side `side` in the contact frame, with the planar
/// part of last step's acceleration added back (ch. 16.1): gravity on a slope pulls the
/// body along it each step, and without this the friction impulse would see a sliding
/// velocity it must cancel and the body creeps downhill.
Vec3 sideVelocity(const Contact& c, const Body& b, real dt) {
    const Vec3 world = b.velocityAt(c.point);
    Vec3 local = c.contactToWorld.transpose() * world;
    if (b.isDynamic()) {
        Vec3 accelerationVelocity = c.contactToWorld.transpose() * (b.lastFrameAcceleration * dt);
        accelerationVelocity.x() = 0;
        local += accelerationVelocity;
    }
    return local;
}

} // namespace

void prepareContact(Contact& c, std::span<const Body> bodies, real dt, const ResolverSettings& settings) {
    // gatherContacts leaves the basis in the contact; a contact made elsewhere gets it here.
    if (c.contactToWorld.col(0) != c.normal) c.contactToWorld = contactBasis(c.normal);
    c.velocity = Vec3::Zero();
    for (int side = 0; side < 2; ++side) {
        const std::uint32_t i = c.body[static_cast<std::size_t>(side)];
        if (i == noBody) {
            c.relative[static_cast<std::size_t>(side)] = Vec3::Zero();
            continue;
        }
        const Body& b = bodies[i];
        c.relative[static_cast<std::size_t>(side)] = c.point - b.position;
        const Vec3 v = sideVelocity(c, b, dt);
        c.velocity += side == 0 ? v : Vec3(-v);
    }
    updateDesiredVelocity(c, bodies, dt, settings);
    // Sequential impulses push until the normal velocity reaches this floor. A contact
    // still apart by a gap may close at up to gap / dt (a speculative contact): the
    // floor is that closing speed, not the velocity it happens to have now, or a
    // separating corner would be pushed to keep separating and a resting stack rocks.
    c.targetNormalVelocity = c.penetration < 0 ? c.penetration / dt : c.velocity.x() + c.desiredDeltaVelocity;
}

void updateDesiredVelocity(Contact& c, std::span<const Body> bodies, real dt, const ResolverSettings& settings) {
    const real vx = c.velocity.x();
    if (c.penetration < 0 && -vx * dt <= -c.penetration) {
        // Apart by a gap they will not close this step: let them close it, no faster.
        c.desiredDeltaVelocity = std::max(real(0), c.penetration / dt - vx);
        return;
    }
    // Restitution (none below restitutionThreshold). A contact that met at the start of
    // the step (touching then, or closing its gap within the first tenth of the step, as
    // one the continuous-collision limiter stopped at the surface does) met before this
    // step's acceleration: that velocity (gravity on a resting body) is not bounced
    // (Millington ch. 15.1.2). A speculative contact meeting later in the step bounces its
    // whole closing velocity: with the gap taken back by bounceFromGap that keeps the
    // discrete flight's energy (a ball with e = 1 keeps 100 bounces from 1 m within
    // 0.98-1.00 of the height; taking the acceleration out of these too lost 7 % a
    // bounce and stopped it after 24; bouncing it in contacts met at the start gained 3 %
    // a bounce from 20 m).
    real fromAcceleration = 0;
    const bool metAtStart = c.penetration >= 0 || (vx < 0 && c.penetration / vx < real(0.1) * dt);
    if (metAtStart)
        for (int side = 0; side < 2; ++side) {
            const std::uint32_t i = c.body[static_cast<std::size_t>(side)];
            if (i == noBody || !bodies[i].isDynamic()) continue;
            const real a = bodies[i].lastFrameAcceleration.dot(c.normal) * dt;
            fromAcceleration += side == 0 ? a : -a;
        }
    const real e = std::abs(vx) < settings.restitutionThreshold ? 0 : c.restitution;
    c.desiredDeltaVelocity = -vx - e * (vx - fromAcceleration);
}

} // namespace detail
} // namespace jounce
