// SPDX-License-Identifier: MIT
#pragma once
// A body's translational response under motion locks (MotionLocks, docs/physics.md).
// A body locked along some world axes has the inverse mass matrix
//     M^-1 = (1/m) diag(f),   f_k = 1 along a free axis, 0 along a locked one,
// so an impulse p changes its velocity by M^-1 p (nothing along a locked axis, as if the
// body were infinitely heavy there) and a row along a unit direction d sees
//     d^T M^-1 d = (1/m) |f o d|^2
// of its translation (o: the componentwise product; f_k^2 = f_k). Every solver row,
// friction patch, joint point and projection takes its effective mass from these, so
// a lock carries its load: a box resting on a platform locked along y is held up by it
// as by a floor. For a body with no linear lock (f = 1) each gives the plain 1/m
// arithmetic bit for bit.
//
// Written once for the soft step's SoftBody and the resolver's SolverBody: each has
// `inverseMass`, `linearFree` (f) and `linearLocked` (any f_k = 0).

#include <jounce/common/math.hpp>
#include <jounce/dynamics/body.hpp>

#include <type_traits>

namespace jounce::detail {

/// M^-1 applied to the velocity change dv = p / m an unlocked body would get: its
/// locked components taken out.
template <class B> inline Vec3 lockedChange(const B& b, const Vec3& dv) {
    return b.linearLocked ? Vec3(dv.cwiseProduct(b.linearFree)) : dv;
}

/// |f o d|^2 for a unit direction d, 0 below lockedShareTolerance (body.hpp: a direction
/// within rounding of the locked axes is taken as locked).
inline real freeShare(const Vec3& f, const Vec3& d) {
    const real share = d.cwiseProduct(f).squaredNorm();
    return share < lockedShareTolerance ? real(0) : share;
}

/// d^T M^-1 d for a unit direction d: the body's share of a row's response from its
/// translation.
template <class B> inline real linearResponse(const B& b, const Vec3& d) {
    return b.linearLocked ? b.inverseMass * freeShare(b.linearFree, d) : b.inverseMass;
}

/// d^T M^-1 e for orthogonal unit directions d and e: zero unless a lock couples them
/// (and zero where either is within the tolerance of locked).
template <class B> inline real linearCoupling(const B& b, const Vec3& d, const Vec3& e) {
    if (!b.linearLocked || freeShare(b.linearFree, d) == 0 || freeShare(b.linearFree, e) == 0) return 0;
    return b.inverseMass * d.cwiseProduct(b.linearFree).dot(e);
}

/// M^-1 itself, for the 3x3 blocks of joint points ((1/m) I when nothing is locked,
/// entry for entry).
template <class B> inline Mat3 linearResponseMatrix(const B& b) {
    return Mat3((b.linearFree * b.inverseMass).asDiagonal());
}

} // namespace jounce::detail
