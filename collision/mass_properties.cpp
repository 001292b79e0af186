// SPDX-License-Identifier: MIT
// Mass properties of uniform solids (standard results; e.g. Millington appendix A).

#include <jounce/collision/mass_properties.hpp>

#include "common/validate.hpp"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <numbers>

namespace jounce {
namespace {
constexpr real pi = std::numbers::pi_v<real>;

Mat3 diagonal(real x, real y, real z) { return Vec3(x, y, z).asDiagonal(); }
} // namespace

MassProperties solidSphere(real radius, real density) {
    detail::requirePositive(radius, "solidSphere.radius");
    detail::requirePositive(density, "solidSphere.density");
    const real m = density * 4 / 3 * pi * radius * radius * radius;
    const real i = real(0.4) * m * radius * radius;
    return {m, Vec3::Zero(), diagonal(i, i, i)};
}

MassProperties solidBox(const Vec3& h, real density) {
    for (int k = 0; k < 3; ++k) detail::requirePositive(h[k], "solidBox.halfExtents");
    detail::requirePositive(density, "solidBox.density");
    const real m = density * 8 * h.x() * h.y() * h.z();
    // I_xx = m (b^2 + c^2) / 12 with full sides 2h.
    const real k = m / 3;
    return {m, Vec3::Zero(),
            diagonal(k * (h.y() * h.y() + h.z() * h.z()), k * (h.x() * h.x() + h.z() * h.z()),
                     k * (h.x() * h.x() + h.y() * h.y()))};
}

MassProperties solidCylinder(real r, real halfHeight, real density) {
    detail::requirePositive(r, "solidCylinder.radius");
    detail::requirePositive(halfHeight, "solidCylinder.halfHeight");
    detail::requirePositive(density, "solidCylinder.density");
    const real h = 2 * halfHeight;
    const real m = density * pi * r * r * h;
    const real across = m * (3 * r * r + h * h) / 12;
    return {m, Vec3::Zero(), diagonal(across, m * r * r / 2, across)};
}

MassProperties solidCapsule(real r, real halfHeight, real density) {
    detail::requirePositive(r, "solidCapsule.radius");
    detail::requireNonNegative(halfHeight, "solidCapsule.halfHeight");
    detail::requirePositive(density, "solidCapsule.density");
    const real h = 2 * halfHeight;
    const real mc = density * pi * r * r * h;         // cylinder
    const real ms = density * 4 / 3 * pi * r * r * r; // both hemispheres
    const real axial = mc * r * r / 2 + ms * real(0.4) * r * r;
    // Each hemisphere: (83/320) m r^2 about its own centre of mass, which sits 3r/8
    // from its flat face, i.e. h/2 + 3r/8 from the capsule centre. Summed over both:
    // ms (2/5 r^2 + h^2/4 + 3 h r / 8).
    const real across = mc * (3 * r * r + h * h) / 12 + ms * (real(0.4) * r * r + h * h / 4 + 3 * h * r / 8);
    return {mc + ms, Vec3::Zero(), diagonal(across, axial, across)};
}

Mat3 shiftInertia(const Mat3& inertia, real mass, const Vec3& d) {
    return inertia + mass * (d.squaredNorm() * Mat3::Identity() - d * d.transpose());
}

void validateInertia(const Mat3& inertia, const char* field) {
    if (!isFinite(inertia)) throw Error(field, toText(inertia), "every entry must be finite");
    const real scale = inertia.cwiseAbs().maxCoeff();
    if (!(scale > 0)) throw Error(field, toText(inertia), "must be positive definite");
    // The eigenvalues and the inverse multiply up to three entries together: beyond the
    // cube root of the largest number that overflows (7e11 kg m^2 in float builds).
    const real largest = std::cbrt(std::numeric_limits<real>::max()) / 8;
    if (scale > largest)
        throw Error(field, toText(inertia), "entries must be at most " + toText(largest) + " (the inverse would overflow)");
    if ((inertia - inertia.transpose()).cwiseAbs().maxCoeff() > real(1e-6) * scale)
        throw Error(field, toText(inertia), "must be symmetric");
    const Mat3 symmetric = (inertia + inertia.transpose()) / 2;
    Eigen::SelfAdjointEigenSolver<Mat3> solver(symmetric, Eigen::EigenvaluesOnly);
    Vec3 moments = solver.eigenvalues(); // ascending
    if (!(moments[0] > std::numeric_limits<real>::epsilon() * 8 * scale))
        throw Error(field, toText(inertia),
                    "must be positive definite (smallest principal moment " + toText(moments[0]) + ")");
    if (moments[0] < detail::minMoment)
        throw Error(field, toText(inertia),
                    "smallest principal moment " + toText(moments[0]) + " is below minMoment = " +
                        toText(detail::minMoment) + " kg m^2 (the inverse would overflow with a lever arm)");
    if (moments[0] + moments[1] < moments[2] * (1 - real(1e-6)))
        throw Error(field, toText(inertia),
                    "principal moments " + toText(moments) +
                        " break the triangle inequality I1 + I2 >= I3 of any real body");
}

} // namespace jounce
