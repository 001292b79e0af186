// SPDX-License-Identifier: MIT
// The soft step's rows (contact/soft_step.hpp): one per contact or joint point, in
// Millington's contact frame (normal, tangent, bitangent), with the visits the substeps
// make to it. The impulse arithmetic is Catto's soft constraint (soft_constraint.hpp):
//     dj = -m (massScale v + bias) - impulseScale j,   bias = max(massScale biasRate s, -maxPushOut)
// where m is the row's effective mass, v its normal velocity (< 0 closing), s its
// separation (< 0 overlapping) and j the impulse it has accumulated this substep.

#include "contact/resolver_stages.hpp"
#include "contact/soft_step.hpp"

#include <algorithm>
#include <cmath>

namespace jounce::detail {
namespace {

/// 1 / (velocity change per unit impulse along the axis), or 0 when nothing moves.
real effectiveMass(const ImpulseAxis& axis, const SoftBody& a, const SoftBody& b) {
    const real d = linearResponse(a, axis.direction) + linearResponse(b, axis.direction) + axis.lever[0].dot(axis.turn[0]) + axis.lever[1].dot(axis.turn[1]);
    return d > 0 ? 1 / d : 0;
}

} // namespace

void prepareSoftRow(Contact& c, std::span<const Body> bodies, std::span<const SoftBody> soft,
                    SoftRow& row) {
    row.body = {solverIndex(c.body[0]), solverIndex(c.body[1])};
    const SoftBody& a = soft[row.body[0]];
    const SoftBody& b = soft[row.body[1]];
    for (std::size_t side = 0; side < 2; ++side)
        row.anchor[side] = c.body[side] == noBody ? Vec3::Zero() : Vec3(c.point - bodies[c.body[side]].position);
    // gatherContacts leaves the basis in the contact; a contact made elsewhere gets it here.
    const Mat3 basis = c.contactToWorld.col(0) == c.normal ? c.contactToWorld : contactBasis(c.normal);
    // A contact's friction is its patch's (soft_friction.cpp): its tangent rows keep only
    // their directions (the patch's axes, and where its friction is shared back to).
    const std::size_t solved = c.supports ? 1 : 3;
    for (std::size_t k = 0; k < 3; ++k) {
        ImpulseAxis& axis = row.axis[k];
        axis.direction = basis.col(static_cast<Eigen::Index>(k));
        for (std::size_t side = 0; side < 2; ++side) {
            axis.lever[side] = k < solved ? Vec3(row.anchor[side].cross(axis.direction)) : Vec3::Zero();
            axis.turn[side] = k < solved ? Vec3((side == 0 ? a : b).inverseInertia * axis.lever[side]) : Vec3::Zero();
        }
    }
    row.normalMass = effectiveMass(row.axis[0], a, b);
    row.tangentMass = solved == 3 ? effectiveMass(row.axis[1], a, b) : 0;
    row.bitangentMass = solved == 3 ? effectiveMass(row.axis[2], a, b) : 0;
    // s = baseSeparation + n . (moved_a + turned_a r_a - moved_b - turned_b r_b): at the
    // start (no motion) this is -penetration.
    row.baseSeparation = -c.penetration - c.normal.dot(row.anchor[0] - row.anchor[1]);
    row.friction = c.friction;
    row.slipTarget = Eigen::Matrix<real, 2, 1>(basis.col(1).dot(c.surfaceVelocity), basis.col(2).dot(c.surfaceVelocity));
    row.restitution = c.restitution;
    row.approachSpeed = axisSpeed(row.axis[0], a, b);
    // What the resolver's preparation leaves in the contact, for those who read it
    // (World::resolvedContacts).
    c.contactToWorld = basis;
    c.relative = row.anchor;
    const Vec3 relative = a.linearVelocity + a.angularVelocity.cross(row.anchor[0]) - b.linearVelocity -
                          b.angularVelocity.cross(row.anchor[1]);
    c.velocity = Vec3(row.approachSpeed, basis.col(1).dot(relative), basis.col(2).dot(relative));
    c.penetrationAtStart = c.penetration;
    row.pushed = 0;
    row.applied = 0;
    row.bounced = 0;
    // The warm start: the impulse of the step before (for the step; solveIsland shares
    // it among the island's substeps).
    row.impulse = c.accumulatedImpulse;
    const bool fixedSide = a.inverseMass == 0 || b.inverseMass == 0;
    row.kind = !c.supports ? SoftKind::Joint : fixedSide ? SoftKind::StaticContact : SoftKind::Contact;
}

void holdSide(SoftRow& row, std::size_t side, std::uint32_t ghost, std::span<const SoftBody> soft) {
    row.body[side] = ghost;
    for (ImpulseAxis& axis : row.axis) axis.turn[side] = Vec3::Zero(); // no inverse inertia
    const SoftBody& a = soft[row.body[0]];
    const SoftBody& b = soft[row.body[1]];
    row.normalMass = effectiveMass(row.axis[0], a, b);
    if (row.tangentMass > 0) row.tangentMass = effectiveMass(row.axis[1], a, b);
    if (row.bitangentMass > 0) row.bitangentMass = effectiveMass(row.axis[2], a, b);
    row.kind = SoftKind::StaticContact;
}

real normalSpeed(const SoftRow& row, const SoftBody& a, const SoftBody& b) { return axisSpeed(row.axis[0], a, b); }

real currentSeparation(const SoftRow& row, const SoftBody& a, const SoftBody& b) {
    const Vec3 d = a.moved - b.moved + a.turn * row.anchor[0] - b.turn * row.anchor[1];
    return row.baseSeparation + row.axis[0].direction.dot(d);
}

void warmStartRow(SoftRow& row, SoftBody& a, SoftBody& b) {
    row.pushed += row.impulse.x();
    row.applied += row.impulse.x();
    axisPush(row.axis[0], a, b, row.impulse.x());
    if (row.friction <= 0) return; // a friction patch carries this row's friction
    axisPush(row.axis[1], a, b, row.impulse.y());
    axisPush(row.axis[2], a, b, row.impulse.z());
}

void solveSoftRow(SoftRow& row, SoftBody& a, SoftBody& b, const Softness& softness, real invH, real maxPushOut,
                  bool useBias) {
    if (row.kind == SoftKind::Folded) return; // its SoftPoint holds it
    // Normal: a row still apart (s > 0) asks only that the gap not close faster than
    // within this substep (a speculative contact, rigid); an overlapping one is a soft
    // spring pushing out at most maxPushOut, or with no bias at all when relaxing.
    const real s = currentSeparation(row, a, b);
    real bias = 0, massScale = 1, impulseScale = 0;
    if (s > 0) {
        bias = s * invH;
    } else if (useBias) {
        bias = std::max(softness.massScale * softness.biasRate * s, -maxPushOut);
        massScale = softness.massScale;
        impulseScale = softness.impulseScale;
    }
    const real vn = axisSpeed(row.axis[0], a, b);
    const real before = row.impulse.x();
    const real normal = std::max(before - row.normalMass * (massScale * vn + bias) - impulseScale * before, real(0));
    row.impulse.x() = normal;
    row.pushed += normal - before;
    row.applied += normal - before;
    axisPush(row.axis[0], a, b, normal - before);
    if (row.friction <= 0) return;
    // Friction: each planar axis stopped on its own, then the pair held inside
    // Coulomb's circle of radius mu times the normal impulse.
    const real t0 = row.impulse.y(), b0 = row.impulse.z();
    real t = t0 - row.tangentMass * (axisSpeed(row.axis[1], a, b) - row.slipTarget.x());
    real u = b0 - row.bitangentMass * (axisSpeed(row.axis[2], a, b) - row.slipTarget.y());
    const real limit = row.friction * normal;
    const real planar = t * t + u * u;
    if (planar > limit * limit) {
        const real scale = limit / std::sqrt(planar);
        t *= scale;
        u *= scale;
    }
    row.impulse.y() = t;
    row.impulse.z() = u;
    axisPush(row.axis[1], a, b, t - t0);
    axisPush(row.axis[2], a, b, u - b0);
}

void noteApproach(SoftRow& row, const SoftBody& a, const SoftBody& b) {
    row.pushed = 0;
    row.approachSpeed = axisSpeed(row.axis[0], a, b);
    row.gapAtStart = currentSeparation(row, a, b);
    row.kickAlong = row.axis[0].direction.dot(a.linearKick - b.linearKick);
}

void bounceRow(SoftRow& row, SoftBody& a, SoftBody& b, real threshold, real h) {
    if (row.approachSpeed > -threshold || row.pushed <= 0) return;
    // The bounce that keeps the height: under kick-then-drift substeps with a constant
    // acceleration k / h along the normal, I = v^2 - 2 (k / h) s + k v is the same after
    // every substep (v the velocity a drift moved with, s the separation after it): it
    // is the discrete flight's energy. The flight in had I at the substep's start (v:
    // the approach before this substep's kick); the flight out starts here, at the
    // surface, with e^2 of it, so it rises as high as e^2 of the way it fell (e = 1:
    // back to where it fell from, bounce after bounce).
    const real k = row.kickAlong;
    const real vIn = row.approachSpeed - k;
    const real in = vIn * vIn - 2 * (k / h) * row.gapAtStart + k * vIn;
    // The flight out from where the contact is now (at the surface, or still short of
    // it when the relaxing sweep's speculative look-ahead pushed first): solve
    // v^2 + k v - 2 (k / h) s = e^2 I for the root moving apart.
    const real out = row.restitution * row.restitution * in + 2 * (k / h) * currentSeparation(row, a, b);
    const real disc = k * k + 4 * out;
    if (!(out > 0) || !(disc >= 0)) return;
    const real target = (-k + std::sqrt(disc)) / 2;
    const real vn = axisSpeed(row.axis[0], a, b);
    // Not below the impulse the contact already carries: the bounce adds to it. Kept
    // apart from the carried impulse, which warm starts the next substep (a bounce is
    // over once given).
    const real j = std::max(row.normalMass * (target - vn), -row.impulse.x());
    if (!(j > 0)) return;
    row.bounced += j;
    axisPush(row.axis[0], a, b, j);
}

} // namespace jounce::detail
