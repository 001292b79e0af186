// SPDX-License-Identifier: MIT
// Sequential projection: Millington's nonlinear projection (ch. 14.3) solved the way
// sequential impulses solve velocities. Each contact keeps the total "push" (an impulse
// applied to positions, kg m) it has applied this step. A sweep visits the contacts in
// a fixed order; each computes the push that would give it the separation it should
// gain, adds it to the total, clamps the total at zero (a contact pushes, never pulls)
// and moves the bodies by the difference. The move is shared between linear and
// angular motion by the same inertias Millington uses (1/m and (I^-1 (r x n) x r) . n),
// which is what a unit impulse would do.
//
// The bodies' inertias are held fixed while the pushes add up (the moves are small, and
// linearised anyway); each body is placed once, from where it started, by its total move.
//
// Why not deepest-first alone: resolving one contact fully tilts the body about it and
// pushes its neighbours; with no total to take back, a stack of boxes is pushed up at
// one corner, then another, and walks. Totals that can shrink converge instead, and
// relaxation (removing only a share of the excess each step) keeps the correction
// from overshooting on contacts that share bodies.

#include "contact/resolver_stages.hpp"

#include <algorithm>

namespace jounce::detail {

void displaceBody(Body& b, const Vec3& linear, const Vec3& angular) {
    b.position += b.isDynamic() && b.locks.anyLinear() ? Vec3(linear.cwiseProduct(b.locks.linearFree())) : linear;
    // Turn by the small rotation vector: q += 1/2 [0, theta] q, then normalise.
    const Quat spin(0, angular.x() / 2, angular.y() / 2, angular.z() / 2);
    b.orientation.coeffs() += (spin * b.orientation).coeffs();
    b.orientation.normalize();
    b.inverseInertiaWorld = worldInverseInertia(b);
}

void placeBody(Body& b, const Vec3& startPosition, const Quat& startOrientation, const Vec3& linear, const Vec3& angular) {
    b.position = startPosition;
    b.orientation = startOrientation;
    displaceBody(b, linear, angular);
}

void preparePushRow(const Contact& c, std::span<const SolverBody> solver, std::span<const Mat3> inverseInertia, PushRow& row) {
    for (std::size_t side = 0; side < 2; ++side) {
        const std::uint32_t i = solverIndex(c.body[side]);
        const Vec3& r = c.relative[side];
        row.rCrossN[side] = r.cross(c.normal);
        row.turnPerPush[side] = inverseInertia[i] * row.rCrossN[side];
        // Millington's linear plus angular inertia: zero for a body that does not move.
        row.perPush[side] = linearResponse(solver[i], c.normal) + row.turnPerPush[side].cross(r).dot(c.normal);
    }
}

real separationGained(const Contact& c, const PushRow& row, std::span<const Vec3> moveLinear,
                      std::span<const Vec3> moveAngular) {
    // Along the normal, a point moves by (linear + angular x r) . n = linear . n + angular . (r x n).
    const std::uint32_t a = solverIndex(c.body[0]), b = solverIndex(c.body[1]);
    const real along0 = moveLinear[a].dot(c.normal) + moveAngular[a].dot(row.rCrossN[0]);
    const real along1 = moveLinear[b].dot(c.normal) + moveAngular[b].dot(row.rCrossN[1]);
    return along0 - along1; // body 0 moving along +normal opens the contact
}

BodyChange pushContact(Contact& c, const PushRow& row, std::span<const SolverBody> solver, std::span<Vec3> moveLinear,
                       std::span<Vec3> moveAngular, real target, int holdSide) {
    BodyChange change;
    // Separation gained per unit push: Millington's linear plus angular inertia.
    const real perPush = (holdSide == 0 ? 0 : row.perPush[0]) + (holdSide == 1 ? 0 : row.perPush[1]);
    if (!(perPush > 0)) return change;
    const real before = c.accumulatedPush;
    c.accumulatedPush = std::max(real(0), before + (target - separationGained(c, row, moveLinear, moveAngular)) / perPush);
    const real push = c.accumulatedPush - before;
    for (std::size_t side = 0; side < 2; ++side) {
        const std::uint32_t i = solverIndex(c.body[side]);
        if (row.perPush[side] == 0 || push == 0 || static_cast<int>(side) == holdSide) continue;
        const real sign = side == 0 ? 1 : -1;
        change.linear[side] = lockedChange(solver[i], c.normal * (sign * push * solver[i].inverseMass));
        change.angular[side] = row.turnPerPush[side] * (sign * push);
        moveLinear[i] += change.linear[side];
        moveAngular[i] += change.angular[side];
    }
    return change;
}

} // namespace jounce::detail
