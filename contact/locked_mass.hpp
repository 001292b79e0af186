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

#include <Eigen/Eigenvalues>

#include <type_traits>

namespace jounce::detail {

/// M^-1 applied to the velocity change dv = p / m an unlocked body would get: its
/// locked components taken out.
template <class B> inline Vec3 lockedChange(const B& b, const Vec3& dv) {
    return b.linearLocked ? Vec3(dv.cwiseProduct(b.linearFree)) : dv;
}

/// d^T M^-1 d for a unit direction d: the body's share of a row's response from its
/// translation.
template <class B> inline real linearResponse(const B& b, const Vec3& d) {
    return b.linearLocked ? b.inverseMass * d.cwiseProduct(b.linearFree).squaredNorm() : b.inverseMass;
}

/// d^T M^-1 e for orthogonal unit directions d and e: zero unless a lock couples them.
template <class B> inline real linearCoupling(const B& b, const Vec3& d, const Vec3& e) {
    return b.linearLocked ? b.inverseMass * d.cwiseProduct(b.linearFree).dot(e) : real(0);
}

/// M^-1 itself, for the 3x3 blocks of joint points (m I when nothing is locked: the
/// same entries as (1/m) times the identity).
template <class B> inline Mat3 linearResponseMatrix(const B& b) {
    return Mat3((b.linearFree * b.inverseMass).asDiagonal());
}

/// The inverse of a symmetric response K on its range, 0 on its null space. Locks make
/// K singular where no body can move: I_a^-1 + I_b^-1 of a body that turns about some
/// axes only, against the world; a joint point's K for a body locked to a plane, along
/// its normal. A plain inverse, or giving up, left a 2.5D body on a slider free to spin;
/// on the range the constraint is held along every direction it can be. An eigenvalue
/// below the largest times a few units of rounding counts as zero.
template <int N> Eigen::Matrix<real, N, N> rangeInverse(const Eigen::Matrix<real, N, N>& k) {
    const Eigen::SelfAdjointEigenSolver<Eigen::Matrix<real, N, N>> eigen(k);
    const auto& values = eigen.eigenvalues();
    const real largest = values.cwiseAbs().maxCoeff();
    const real noise = std::is_same_v<real, float> ? real(1e-6) : real(1e-9);
    Eigen::Matrix<real, N, 1> inverse = Eigen::Matrix<real, N, 1>::Zero();
    for (int i = 0; i < N; ++i)
        if (values(i) > largest * noise) inverse(i) = 1 / values(i);
    return eigen.eigenvectors() * inverse.asDiagonal() * eigen.eigenvectors().transpose();
}

} // namespace jounce::detail
