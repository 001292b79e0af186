// Sequential projection: Millington's nonlinear projection (ch. 14.3) solved the way
// sequential impulses solve velocities. Each contact keeps the total "push" (an impulse
// applied to positions, kg m) it has applied this step. A sweep visits the contacts in
// a fixed order; each computes the push that would give it the separation it should
// gain, adds it to the total, clamps the total at zero (a contact pushes, never pulls)
// and moves the bodies by the difference. The move is shared between linear and
// angular motion by the same inertias Millington uses (1/m and (I^-1 (r x n) x r) . n),
// which is what a unit impulse would do.
//
// Why not deepest-first alone: resolving one contact fully tilts the body about it and
// pushes its neighbours; with no total to take back, a stack of boxes is pushed up at
// one corner, then another, and walks. Totals that can shrink converge instead, and
// relaxation (removing only a share of the excess each step) keeps the correction
// from overshooting on contacts that share bodies.

#include "contact/stages.hpp"

#include <algorithm>

namespace jounce::detail {

void displaceBody(Body& b, const Vec3& linear, const Vec3& angular) {
    b.position += linear;
    // Turn by the small rotation vector: q += 1/2 [0, theta] q, then normalise.
    const Quat spin(0, angular.x() / 2, angular.y() / 2, angular.z() / 2);
    b.orientation.coeffs() += (spin * b.orientation).coeffs();
    b.orientation.normalize();
    const Mat3 r = b.orientation.toRotationMatrix();
    b.inverseInertiaWorld = r * b.inverseInertiaBody * r.transpose();
}

real separationGained(const Contact& c, std::span<const Vec3> moveLinear, std::span<const Vec3> moveAngular) {
    real gained = 0;
    for (std::size_t side = 0; side < 2; ++side) {
        const std::uint32_t b = c.body[side];
        if (b == noBody) continue;
        const real along = (moveLinear[b] + moveAngular[b].cross(c.relative[side])).dot(c.normal);
        gained += side == 0 ? along : -along; // body 0 moving along +normal opens the contact
    }
    return gained;
}

BodyChange pushContact(Contact& c, std::span<Body> bodies, std::span<Vec3> moveLinear, std::span<Vec3> moveAngular,
                       real target, int holdSide) {
    BodyChange change;
    // Separation gained per unit push: Millington's linear plus angular inertia.
    real perPush = 0;
    std::array<Vec3, 2> turnPerPush{Vec3::Zero(), Vec3::Zero()};
    for (std::size_t side = 0; side < 2; ++side) {
        const Body* b = bodyOf(bodies, c.body[side]);
        if (b == nullptr || !b->isDynamic() || static_cast<int>(side) == holdSide) continue;
        turnPerPush[side] = b->inverseInertiaWorld * c.relative[side].cross(c.normal);
        perPush += b->inverseMass + turnPerPush[side].cross(c.relative[side]).dot(c.normal);
    }
    if (!(perPush > 0)) return change;
    const real before = c.accumulatedPush;
    c.accumulatedPush = std::max(real(0), before + (target - separationGained(c, moveLinear, moveAngular)) / perPush);
    const real push = c.accumulatedPush - before;
    for (std::size_t side = 0; side < 2; ++side) {
        Body* b = bodyOf(bodies, c.body[side]);
        if (b == nullptr || !b->isDynamic() || push == 0 || static_cast<int>(side) == holdSide) continue;
        const real sign = side == 0 ? 1 : -1;
        change.linear[side] = c.normal * (sign * push * b->inverseMass);
        change.angular[side] = turnPerPush[side] * (sign * push);
        moveLinear[c.body[side]] += change.linear[side];
        moveAngular[c.body[side]] += change.angular[side];
        displaceBody(*b, change.linear[side], change.angular[side]);
    }
    c.penetration = c.penetrationAtStart - separationGained(c, moveLinear, moveAngular);
    return change;
}

} // namespace jounce::detail
