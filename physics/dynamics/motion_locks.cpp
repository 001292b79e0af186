// SPDX-License-Identifier: MIT
// The inverse inertia of a body whose rotation is locked about some world axes
// (MotionLocks). Out of line on purpose: the k x k inverse instantiates Eigen's dynamic-size
// LU, which cost every file that includes body.hpp 5 s of compile time when it was inline.

#include <jounce/dynamics/body.hpp>

namespace jounce {

// Turning about the free world axes E (3 x k) only, w = E a; the moment about them,
// E^T L = (E^T I E) a, gives w = E (E^T I E)^-1 E^T L.
Mat3 lockedInverseInertia(const Mat3& inertiaWorld, const MotionLocks& locks) {
    const Vec3 free = locks.angularFree();
    Eigen::Matrix<real, 3, Eigen::Dynamic, 0, 3, 3> e(3, 0);
    for (int k = 0; k < 3; ++k)
        if (free[k] > 0) {
            e.conservativeResize(Eigen::NoChange, e.cols() + 1);
            e.col(e.cols() - 1) = Vec3::Unit(k);
        }
    if (e.cols() == 0) return Mat3::Zero();
    const Eigen::Matrix<real, Eigen::Dynamic, Eigen::Dynamic, 0, 3, 3> m = e.transpose() * inertiaWorld * e;
    return e * m.inverse() * e.transpose();
}

} // namespace jounce
