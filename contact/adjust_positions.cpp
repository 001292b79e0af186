// SPDX-License-Identifier: MIT
// Nonlinear projection (Millington ch. 14.3): move the two bodies apart along the
// contact normal by the penetration, sharing the move between linear and angular
// motion in proportion to how easily each moves the contact point.

#include "contact/resolver_stages.hpp"

#include <cmath>

namespace jounce::detail {

BodyChange projectContact(const Contact& c, std::span<Body> bodies, real maxProjectionAngle) {
    BodyChange change;
    // How far the contact point moves along the normal per unit of "move" applied
    // linearly (1/m) and angularly (((I^-1 (r x n)) x r) . n), for each body.
    std::array<real, 2> linearInertia{0, 0}, angularInertia{0, 0};
    real total = 0;
    for (std::size_t side = 0; side < 2; ++side) {
        const Body* b = bodyOf(bodies, c.body[side]);
        if (b == nullptr || !b->isDynamic()) continue;
        const Vec3 perImpulse = b->inverseInertiaWorld * c.relative[side].cross(c.normal);
        angularInertia[side] = perImpulse.cross(c.relative[side]).dot(c.normal);
        linearInertia[side] = b->inverseMass * b->locks.linearShare(c.normal); // MotionLocks: locked_mass.hpp
        total += linearInertia[side] + angularInertia[side];
    }
    if (!(total > 0)) return change;

    for (std::size_t side = 0; side < 2; ++side) {
        Body* b = bodyOf(bodies, c.body[side]);
        if (b == nullptr || !b->isDynamic()) continue;
        const real sign = side == 0 ? 1 : -1;
        real angularMove = sign * c.penetration * angularInertia[side] / total;
        real linearMove = sign * c.penetration * linearInertia[side] / total;
        // Rotation moves the point by at most maxProjectionAngle times the lever arm across
        // the normal; the rest goes into linear motion (large turns from a deep contact
        // near the axis look wrong and overshoot).
        const Vec3& r = c.relative[side];
        const real limit = maxProjectionAngle * (r - c.normal * r.dot(c.normal)).norm();
        if (std::abs(angularMove) > limit) {
            const real sum = angularMove + linearMove;
            angularMove = angularMove > 0 ? limit : -limit;
            linearMove = sum - angularMove;
        }
        // A locked body moves along the free part of the normal, f o n, far enough to
        // open the contact by linearMove (none when it cannot move along it at all).
        const real free = b->locks.linearShare(c.normal);
        if (free == 1) change.linear[side] = c.normal * linearMove;
        else if (free > 0) change.linear[side] = c.normal.cwiseProduct(b->locks.linearFree()) * (linearMove / free);
        if (angularMove != 0 && angularInertia[side] > 0) {
            const Vec3 perImpulse = b->inverseInertiaWorld * r.cross(c.normal);
            change.angular[side] = perImpulse * (angularMove / angularInertia[side]);
        }
        // Apply: translate, and turn by the small rotation vector (as the integrator does).
        displaceBody(*b, change.linear[side], change.angular[side]);
    }
    return change;
}

void updatePenetration(Contact& k, std::uint32_t b, const Vec3& linear, const Vec3& angular) {
    for (std::size_t side = 0; side < 2; ++side) {
        if (k.body[side] != b) continue;
        const Vec3 moved = linear + angular.cross(k.relative[side]);
        // Body 0 moving along +normal, or body 1 along -normal, opens the contact.
        k.penetration += (side == 0 ? -1 : 1) * moved.dot(k.normal);
    }
}

} // namespace jounce::detail
