// SPDX-License-Identifier: MIT
#include "common/validate.hpp"

#include <cmath>
#include <limits>
#include <type_traits>

namespace jounce::detail {

void requireFinite(real x, const char* field) {
    if (!std::isfinite(x)) throw Error(field, toText(x), "must be a finite number");
}

void requireFinite(const Vec3& v, const char* field) {
    if (!isFinite(v)) throw Error(field, toText(v), "every component must be finite");
}

void requirePositive(real x, const char* field) {
    if (!std::isfinite(x) || !(x > 0)) throw Error(field, toText(x), "must be finite and > 0");
}

void requireNonNegative(real x, const char* field) {
    if (!std::isfinite(x) || !(x >= 0)) throw Error(field, toText(x), "must be finite and >= 0");
}

void requireInRange(real x, real lo, real hi, const char* field) {
    if (!std::isfinite(x) || x < lo || x > hi)
        throw Error(field, toText(x), "must lie in [" + toText(lo) + ", " + toText(hi) + "]");
}

void requireWithin(const Vec3& v, real bound, const char* what, const char* field) {
    requireFinite(v, field); // before any comparison: an ordered comparison with NaN traps
    if (v.cwiseAbs().maxCoeff() > bound)
        throw Error(field, toText(v), std::string("every component must lie within +-") + what + " = " + toText(bound));
}

void requireMass(real x, const char* field) {
    requireInRange(x, minMass, maxMass, field);
}

void requireInverseMass(real w, const char* field) {
    const real slack = 4 * std::numeric_limits<real>::epsilon(); // 1/m rounded once
    requireInRange(w, (1 - slack) / maxMass, (1 + slack) / minMass, field);
}

void requireSize(real x, const char* field) {
    if (!std::isfinite(x) || !(x > 0) || x > maxCoordinate)
        throw Error(field, toText(x), "must be finite, > 0 and at most maxCoordinate = " + toText(maxCoordinate));
}

void validateDamping(real linear, real angular, const char* linearField, const char* angularField) {
    requireInRange(linear, 0, maxRate, linearField);
    requireInRange(angular, 0, maxRate, angularField);
}

void validateDeformableMaterial(real density, real stiffness, real damping, real friction, int iterations,
                                const std::string& prefix) {
    requireInRange(density, minDensity, maxDensity, (prefix + ".density").c_str());
    requireInRange(stiffness, std::numeric_limits<real>::min(), maxStiffness, (prefix + ".stiffness").c_str());
    requireInRange(damping, 0, maxRate, (prefix + ".damping").c_str());
    requireNonNegative(friction, (prefix + ".friction").c_str());
    if (iterations < 1 || iterations > 1000)
        throw Error(prefix + ".iterations", std::to_string(iterations), "must lie in [1, 1000]");
}

void requireExtent(real x, const char* field) {
    if (!std::isfinite(x) || !(x >= minExtent) || x > maxCoordinate)
        throw Error(field, toText(x), "must lie in [minExtent " + toText(minExtent) + ", maxCoordinate " + toText(maxCoordinate) + "]");
}

void requireUnit(const Quat& q, const char* field) {
    constexpr real tolerance = std::is_same_v<real, double> ? real(1e-6) : real(1e-3);
    if (!isFinite(q.coeffs())) throw Error(field, toText(q), "every component must be finite");
    // A unit quaternion's components lie in [-1, 1]; checked first so that the norm of a
    // huge one does not overflow.
    if ((q.coeffs().array().abs() > 2).any())
        throw Error(field, toText(q), "must be a unit quaternion (a component is beyond 2)");
    if (std::abs(q.norm() - 1) > tolerance)
        throw Error(field, toText(q), "must be a unit quaternion (|q| = " + toText(q.norm()) + ")");
}

std::string handleText(std::uint32_t index, std::uint32_t generation) {
    return "{index " + std::to_string(index) + ", generation " + std::to_string(generation) + "}";
}

} // namespace jounce::detail
