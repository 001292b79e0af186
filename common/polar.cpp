// SPDX-License-Identifier: MIT
// Rotations from polar decompositions (polar.hpp).

#include "common/polar.hpp"

#include <Eigen/Cholesky>
#include <Eigen/SVD>

#include <type_traits>

namespace jounce::detail {

Mat3 properRotation(const Mat3& a) {
    // A = U S V^T; R = U V^T is the nearest orthogonal matrix. When det(U V^T) = -1 (an
    // inverted cluster, or a flat one) the nearest *rotation* flips the direction of the
    // smallest singular value: R = U diag(1, 1, -1) V^T (Eigen sorts them decreasing).
    const Eigen::JacobiSVD<Mat3> svd(a, Eigen::ComputeFullU | Eigen::ComputeFullV);
    Mat3 u = svd.matrixU();
    const Mat3& v = svd.matrixV();
    if ((u * v.transpose()).determinant() < 0) u.col(2) = -u.col(2);
    return u * v.transpose();
}

/// The rotation R maximising tr(R^T C) by Newton's method on the rotation group,
/// warm-started from the particle's current rotation (rotations change little between
/// iterations, so two or three steps do). With S = R^T C, turning R by exp([w]x)
/// changes tr(R^T C) by g . w - 1/2 w^T H w + O(|w|^3), where g = (S32 - S23, S13 - S31,
/// S21 - S12) and H = tr(S) I - (S + S^T) / 2, so the step is w = H^-1 g. Near the
/// maximum H's eigenvalues are the sums of pairs of the signed singular values, so H is
/// positive definite unless the maximum is degenerate; then (or after 8 steps without
/// settling) the SVD's rotation is taken instead (the smallest singular direction
/// flipped when det C < 0). Always a proper rotation.
Mat3 extractRotation(const Mat3& c, const Mat3& start) {
    // Newton converges quadratically: once a step turns less than this, what is left is
    // about its square, below round-off. Float's round-off keeps the steps near 1e-7, so
    // it could never meet double's threshold and would always take all 8 steps and the SVD.
    constexpr real settled = std::is_same_v<real, float> ? real(1e-5) : real(1e-10);
    Mat3 r = start;
    for (int it = 0; it < 8; ++it) {
        const Mat3 s = r.transpose() * c;
        const Vec3 g(s(2, 1) - s(1, 2), s(0, 2) - s(2, 0), s(1, 0) - s(0, 1));
        const Mat3 h = s.trace() * Mat3::Identity() - (s + s.transpose()) / 2;
        const Eigen::LLT<Mat3> llt(h);
        if (llt.info() != Eigen::Success) break;
        const Vec3 w = llt.solve(g);
        const real angle = w.norm();
        if (!(angle < 1)) break; // far from the maximum: the quadratic model does not hold
        r = r * Eigen::AngleAxis<real>(angle, angle > 0 ? Vec3(w / angle) : Vec3(Vec3::UnitX())).toRotationMatrix();
        if (angle < settled) {
            // Re-orthonormalise: the products of a few rotations drift by round-off.
            const Quat q(r);
            return q.normalized().toRotationMatrix();
        }
    }
    return properRotation(c);
}

} // namespace jounce::detail
