// SPDX-License-Identifier: MIT
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

#include "contact/resolver_stages.hpp"

#include <cmath>
#include <limits>

namespace jounce::detail {

Mat3 velocityPerImpulse(const ImpulseRow& row, std::span<const SolverBody> solver, int holdSide) {
    Mat3 d = Mat3::Zero();
    for (std::size_t side = 0; side < 2; ++side) {
        if (static_cast<int>(side) == holdSide) continue;
        // An impulse along axis j moves the centre by j/m along it (no change along the
        // other axes: they are orthonormal; a body locked along a world axis moves by
        // M^-1 j instead, which couples them: locked_mass.hpp) and turns the body by
        // turn_j, which moves the point along axis i by lever_i . turn_j.
        const SolverBody& body = solver[row.body[side]];
        for (std::size_t i = 0; i < 3; ++i) {
            const Vec3& di = row.axis[i].direction;
            for (std::size_t j = 0; j < 3; ++j)
                d(Eigen::Index(i), Eigen::Index(j)) += i == j ? linearResponse(body, di) : linearCoupling(body, di, row.axis[j].direction);
        }
        for (std::size_t i = 0; i < 3; ++i)
            for (std::size_t j = 0; j < 3; ++j)
                d(Eigen::Index(i), Eigen::Index(j)) += row.axis[i].lever[side].dot(row.axis[j].turn[side]);
    }
    return d;
}

Eigen::Matrix<real, 2, 2> planarInverse(const Mat3& d) {
    const Eigen::Matrix<real, 2, 2> block = d.block<2, 2>(1, 1);
    // Relative to the size of the products it is the difference of, a determinant this
    // small is rounding noise.
    const real scale = std::abs(block(0, 0) * block(1, 1)) + std::abs(block(0, 1) * block(1, 0));
    const real det = block.determinant();
    if (std::abs(det) > 64 * std::numeric_limits<real>::epsilon() * scale) return block.inverse();
    Eigen::Matrix<real, 2, 2> inverse = Eigen::Matrix<real, 2, 2>::Zero();
    for (Eigen::Index i = 0; i < 2; ++i)
        if (block(i, i) > 0) inverse(i, i) = 1 / block(i, i);
    return inverse;
}

void prepareImpulseRow(const Contact& c, std::span<const SolverBody> solver, std::span<const Mat3> inverseInertia,
                       ImpulseRow& row) {
    row.body = {solverIndex(c.body[0]), solverIndex(c.body[1])};
    for (std::size_t i = 0; i < 3; ++i) {
        ImpulseAxis& axis = row.axis[i];
        axis.direction = c.contactToWorld.col(Eigen::Index(i));
        for (std::size_t side = 0; side < 2; ++side) {
            axis.lever[side] = c.relative[side].cross(axis.direction);
            axis.turn[side] = inverseInertia[row.body[side]] * axis.lever[side];
        }
    }
    const Mat3 d = velocityPerImpulse(row, solver);
    row.normalResponse = d(0, 0);
    row.normalMass = normalMassOf(d);
    row.planarInverse = planarInverse(d);
    row.normalCoupling = d.block<1, 2>(0, 1);
    row.friction = c.friction;
    row.slipTarget = Eigen::Matrix<real, 2, 1>(row.axis[1].direction.dot(c.surfaceVelocity), row.axis[2].direction.dot(c.surfaceVelocity));
    row.target = c.targetNormalVelocity;
    row.total = c.accumulatedImpulse;
}

void holdLowerSide(ImpulseRow& row, std::span<const SolverBody> solver) {
    if (row.lowerSide < 0) return;
    const Mat3 held = velocityPerImpulse(row, solver, row.lowerSide);
    row.normalMass = normalMassOf(held);
    row.planarInverse = planarInverse(held);
    row.normalCoupling = held.block<1, 2>(0, 1);
}

BodyChange applyImpulse(const ImpulseRow& row, std::span<SolverBody> solver, const Vec3& j, int holdSide) {
    SolverBody& a = solver[row.body[0]];
    SolverBody& b = solver[row.body[1]];
    const std::array<SolverBody, 2> before{a, b};
    applyAll(row, a, b, j, holdSide);
    // The change each moving body saw (the world and static bodies: none).
    BodyChange change;
    for (std::size_t side = 0; side < 2; ++side) {
        const SolverBody& now = side == 0 ? a : b;
        if (now.inverseMass == 0) continue;
        change.linear[side] = now.linearVelocity - before[side].linearVelocity;
        change.angular[side] = now.angularVelocity - before[side].angularVelocity;
    }
    return change;
}

BodyChange impulseContact(Contact& c, const ImpulseRow& row, std::span<SolverBody> solver, Vec3& impulse) {
    const Mat3 d = velocityPerImpulse(row, solver);
    if (c.friction == 0) {
        // Frictionless: only the normal row matters.
        impulse = Vec3(c.desiredDeltaVelocity * normalMassOf(d), 0, 0);
    } else {
        Mat3 inverse;
        bool invertible = false;
        d.computeInverseWithCheck(inverse, invertible, std::numeric_limits<real>::min());
        // Singular only with lever arms that swamp everything else: frictionless then.
        // The planar target: no slip, or the surface velocity's (a conveyor's belt).
        const Vec3 surface = c.contactToWorld.transpose() * c.surfaceVelocity;
        impulse = invertible ? Vec3(inverse * Vec3(c.desiredDeltaVelocity, surface.y() - c.velocity.y(), surface.z() - c.velocity.z()))
                             : Vec3(c.desiredDeltaVelocity * normalMassOf(d), 0, 0);
        const real planar = std::hypot(impulse.y(), impulse.z());
        if (planar > impulse.x() * c.friction) {
            // Sliding: dynamic friction along the static impulse's planar direction.
            const real ut = impulse.y() / planar, ub = impulse.z() / planar;
            const real normal = c.desiredDeltaVelocity / (d(0, 0) + c.friction * (d(0, 1) * ut + d(0, 2) * ub));
            impulse = Vec3(normal, c.friction * ut * normal, c.friction * ub * normal);
        }
    }
    c.accumulatedImpulse += impulse;
    return applyImpulse(row, solver, impulse);
}

void updateContactVelocity(Contact& k, std::uint32_t b, const Vec3& linear, const Vec3& angular) {
    for (std::size_t side = 0; side < 2; ++side) {
        if (k.body[side] != b) continue;
        const Vec3 dv = k.contactToWorld.transpose() * (linear + angular.cross(k.relative[side]));
        k.velocity += side == 0 ? dv : Vec3(-dv);
    }
}

} // namespace jounce::detail
