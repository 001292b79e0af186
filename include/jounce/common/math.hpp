// SPDX-License-Identifier: MIT
#pragma once
/// \file math.hpp
/// The engine's math types are plain Eigen types; there is no hand-written vector
/// class. A rigid transform is a position plus a unit quaternion.

#include <jounce/config.hpp>

#include <Eigen/Core>
#include <Eigen/Geometry>

#include <cmath>

namespace jounce {

using Vec3 = Eigen::Matrix<real, 3, 1>;
using Mat3 = Eigen::Matrix<real, 3, 3>;
using Quat = Eigen::Quaternion<real>;

/// Float whatever `real` is: for what a contact carries from one step to the next
/// (ContactManifold's impulses, anchors and pose), stored at the precision the soft
/// step's float rows solve in. Precision chosen per quantity, as Jolt's contact cache
/// keeps its points as Float3 in body space; positions and velocities stay `real`.
/// Unaligned (DontAlign): a manifold packs them without padding.
using Vec3f = Eigen::Matrix<float, 3, 1, Eigen::DontAlign>;
using Quatf = Eigen::Quaternion<float, Eigen::DontAlign>;

/// A rigid transform: rotate by `orientation`, then translate by `position`.
struct Transform {
    Vec3 position = Vec3::Zero();
    Quat orientation = Quat::Identity();

    Vec3 toWorld(const Vec3& local) const { return orientation * local + position; }
    Vec3 toLocal(const Vec3& world) const { return orientation.conjugate() * (world - position); }
    Vec3 directionToWorld(const Vec3& local) const { return orientation * local; }
    Vec3 directionToLocal(const Vec3& world) const { return orientation.conjugate() * world; }
    /// The transform back: inverse().toWorld(x) == toLocal(x).
    Transform inverse() const {
        const Quat back = orientation.conjugate();
        return Transform{back * -position, back};
    }
};

/// A rigid transform stored in float (ContactManifold::poseAInB).
struct Transformf {
    Vec3f position = Vec3f::Zero();
    Quatf orientation = Quatf::Identity();
};

/// Composition: (a * b).toWorld(x) == a.toWorld(b.toWorld(x)).
inline Transform operator*(const Transform& a, const Transform& b) {
    return Transform{a.toWorld(b.position), a.orientation * b.orientation};
}

/// The cross-product matrix: skew(a) * b == a.cross(b).
inline Mat3 skew(const Vec3& a) {
    Mat3 m;
    m << 0, -a.z(), a.y(), a.z(), 0, -a.x(), -a.y(), a.x(), 0;
    return m;
}

/// q turned by angular velocity w (world) over h: q + h/2 [0, w] q, renormalised
/// (seeds/000 eq. 4 under symplectic Euler).
inline Quat integrateOrientation(const Quat& q, const Vec3& w, real h) {
    const Quat spin(0, w.x(), w.y(), w.z());
    Quat next = q;
    next.coeffs() += (h / 2) * (spin * q).coeffs();
    next.normalize();
    return next;
}

inline bool isFinite(real x) { return std::isfinite(x); }
/// Every entry finite, each classified by std::isfinite. Not Eigen's allFinite(): it
/// computes x - x, and inf - inf raises the invalid-operation flag (SIGFPE with
/// floating-point traps on, as the tests run; docs/reliability.md).
template <typename Derived> bool isFinite(const Eigen::DenseBase<Derived>& m) {
    for (Eigen::Index j = 0; j < m.cols(); ++j)
        for (Eigen::Index i = 0; i < m.rows(); ++i)
            if (!std::isfinite(m(i, j))) return false;
    return true;
}
inline bool isFinite(const Quat& q) { return isFinite(q.coeffs()); }

} // namespace jounce
