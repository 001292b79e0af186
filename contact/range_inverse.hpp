// SPDX-License-Identifier: MIT
#pragma once
// The inverse of a symmetric response on its range (motion locks leave responses
// singular where no body can move; docs/physics.md).

#include <jounce/common/math.hpp>

#include <Eigen/Eigenvalues>

#include <type_traits>

namespace jounce::detail {

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
