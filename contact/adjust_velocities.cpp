// Velocity resolution with impulses in contact space (Millington ch. 14.2, 15.3).
//
// Friction. With the contact frame C (normal, tangent, bitangent) the velocity change
// of the contact point per unit impulse j (contact frame) is the matrix
//     D = C^T ( sum_bodies [ (1/m) E - [r]x I^-1 [r]x ] ) C
// (an impulse j moves the centre by j/m and spins the body by I^-1 (r x j); the point
// then moves by dv + dw x r = -[r]x I^-1 [r]x j). To reach the desired normal change
// and cancel both planar components, solve D j = (desired, -v_t, -v_b): that is static
// friction. If the planar part of that j lies outside the friction cone,
// |j_planar| > mu j_n, the contact slides: the friction impulse has magnitude mu j_n
// along the unit direction u of the static planar impulse, so j = j_n (1, mu u_t, mu u_b).
// Its normal row must still give the desired normal change:
//     D_00 j_n + D_01 mu u_t j_n + D_02 mu u_b j_n = desired
//  => j_n = desired / (D_00 + mu (D_01 u_t + D_02 u_b)),
// the coupling terms D_01, D_02 accounting for how the friction impulse itself moves the
// point along the normal (it pushes off-centre, so the body turns). Taking u from the
// static solution rather than from the sliding velocity is the approximation: exact
// when D's planar block is a multiple of the identity (a sphere or a point mass), close
// otherwise, and it needs no iteration.

#include "contact/stages.hpp"

#include <cmath>

namespace jounce::detail {

Mat3 velocityPerImpulse(const Contact& c, std::span<const Body> bodies, int holdSide) {
    Mat3 world = Mat3::Zero();
    real inverseMass = 0;
    for (std::size_t side = 0; side < 2; ++side) {
        const std::uint32_t i = c.body[side];
        if (i == noBody || !bodies[i].isDynamic() || static_cast<int>(side) == holdSide) continue;
        const Body& b = bodies[i];
        const Mat3 r = skew(c.relative[side]);
        world -= r * b.inverseInertiaWorld * r;
        inverseMass += b.inverseMass;
    }
    Mat3 d = c.contactToWorld.transpose() * world * c.contactToWorld;
    d.diagonal().array() += inverseMass;
    return d;
}

BodyChange applyImpulse(const Contact& c, std::span<Body> bodies, const Vec3& j, int holdSide) {
    BodyChange change;
    const Vec3 world = c.contactToWorld * j;
    for (std::size_t side = 0; side < 2; ++side) {
        Body* b = bodyOf(bodies, c.body[side]);
        if (b == nullptr || !b->isDynamic() || static_cast<int>(side) == holdSide) continue;
        const Vec3 impulse = side == 0 ? world : Vec3(-world);
        change.linear[side] = impulse * b->inverseMass;
        change.angular[side] = b->inverseInertiaWorld * c.relative[side].cross(impulse);
        b->linearVelocity += change.linear[side];
        b->angularVelocity += change.angular[side];
    }
    return change;
}

BodyChange impulseContact(Contact& c, std::span<Body> bodies, Vec3& impulse) {
    const Mat3 d = velocityPerImpulse(c, bodies);
    if (c.friction == 0) {
        // Frictionless: only the normal row matters.
        impulse = Vec3(c.desiredDeltaVelocity / d(0, 0), 0, 0);
    } else {
        impulse = d.inverse() * Vec3(c.desiredDeltaVelocity, -c.velocity.y(), -c.velocity.z());
        const real planar = std::hypot(impulse.y(), impulse.z());
        if (planar > impulse.x() * c.friction) {
            // Sliding: dynamic friction along the static impulse's planar direction.
            const real ut = impulse.y() / planar, ub = impulse.z() / planar;
            const real normal = c.desiredDeltaVelocity / (d(0, 0) + c.friction * (d(0, 1) * ut + d(0, 2) * ub));
            impulse = Vec3(normal, c.friction * ut * normal, c.friction * ub * normal);
        }
    }
    c.accumulatedImpulse += impulse;
    return applyImpulse(c, bodies, impulse);
}

void updateContactVelocity(Contact& k, std::uint32_t b, const Vec3& linear, const Vec3& angular) {
    for (std::size_t side = 0; side < 2; ++side) {
        if (k.body[side] != b) continue;
        const Vec3 dv = k.contactToWorld.transpose() * (linear + angular.cross(k.relative[side]));
        k.velocity += side == 0 ? dv : Vec3(-dv);
    }
}

} // namespace jounce::detail
