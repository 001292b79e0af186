// SPDX-License-Identifier: MIT
#pragma once
// Input checks shared by every public entry point. Each throws jounce::Error naming
// the field and the value; none changes anything.

#include <jounce/common/error.hpp>
#include <jounce/common/math.hpp>
#include <jounce/common/handle.hpp>

#include <cmath>
#include <limits>
#include <string>

namespace jounce::detail {

/// Bounds on input a game never needs and a float cannot square or cube without
/// overflowing (docs/reliability.md): a coordinate farther than 1000 km from the
/// origin, a speed above 1000 km/s (or rad/s), a force, torque or impulse above 1e15
/// (N, N m, N s). Beyond them a value is rejected as if it were infinite.
inline constexpr real maxCoordinate = real(1e6);
inline constexpr real maxSpeed = real(1e6);

/// v scaled back to maxSpeed if faster, direction kept (the guard every integration
/// applies: only a world already in trouble gets there). The largest component first:
/// squaring a speed of 1e200 would overflow.
inline void limitSpeed(Vec3& v) {
    const real largest = v.cwiseAbs().maxCoeff();
    if (!(largest > maxSpeed / 2)) return;
    const Vec3 direction = v / largest;
    const real speed = largest * direction.norm();
    // A hair under the bound, so the scaled vector's norm cannot round above it (in float).
    if (speed > maxSpeed) v = direction * (maxSpeed * (1 - 4 * std::numeric_limits<real>::epsilon()) / direction.norm());
}
inline constexpr real maxLoad = real(1e15);
/// Gravity: at most 1e6 m/s^2 a component (1e5 g; millimetre units need 9810).
inline constexpr real maxAcceleration = real(1e6);
/// A body's gravity scale: at most 1000 g either way.
inline constexpr real maxGravityScale = real(1e3);

void requireFinite(real x, const char* field);
void requireFinite(const Vec3& v, const char* field);
void requirePositive(real x, const char* field);    ///< finite and > 0
void requireNonNegative(real x, const char* field); ///< finite and >= 0
void requireInRange(real x, real lo, real hi, const char* field);
/// Finite and every component within [-bound, bound]; `what` names the bound.
void requireWithin(const Vec3& v, real bound, const char* what, const char* field);
inline void requirePoint(const Vec3& p, const char* field) { requireWithin(p, maxCoordinate, "maxCoordinate", field); }
inline void requireSpeed(const Vec3& v, const char* field) { requireWithin(v, maxSpeed, "maxSpeed", field); }
inline void requireLoad(const Vec3& f, const char* field) { requireWithin(f, maxLoad, "maxLoad", field); }
/// Masses of dynamic bodies and particles, in kg: from a microgram to a mountain
/// (1e12 kg, a cubic kilometre of water). Beyond them a float overflows: a 1e30 kg
/// body's inverse mass (1e-30) divided a contact push in the resolver to infinity.
inline constexpr real minMass = real(1e-9), maxMass = real(1e12);
void requireMass(real x, const char* field);
/// An inverse mass (a snapshot's) whose mass requireMass accepts, to a rounding.
void requireInverseMass(real w, const char* field);
/// A body's principal moments of inertia, in kg m^2: the inverse inertia multiplies
/// lever arms twice (up to maxCoordinate^2 = 1e12), so it stays below 1e24 and the
/// product below a float's 3e38. (The upper bound is validateInertia's: the cube root
/// of the largest number, so the determinant cannot overflow.)
inline constexpr real minMoment = real(1e-24);
/// A shape's size: finite, > 0 and at most maxCoordinate.
void requireSize(real x, const char* field);
/// Radii and thicknesses of particles and oriented particles, whose volumes and
/// masses are cubes of them: at least a micron (a denormal radius gave a zero mass and
/// an infinite inverse), at most maxCoordinate.
inline constexpr real minExtent = real(1e-6);
void requireExtent(real x, const char* field);
/// Stiffness (a deformable's, Pa) and densities (kg/m^3) of colliders and the particle layer: a
/// bound a material never reaches (diamond: 1e12 Pa; osmium: 22 600 kg/m^3), so the
/// global step's matrix and a particle's mass stay far from overflow, and a floor
/// that keeps the inverse mass finite.
inline constexpr real maxStiffness = real(1e15);
inline constexpr real minDensity = real(1e-3), maxDensity = real(1e6);
/// A deformable handle's weight (stiffness times volume, N/m): its default is 1000
/// times the stiffest particle's, capped here.
inline constexpr real maxHandleWeight = real(1e25);
/// Rates in 1/s (damping) and dimensionless gains (pressure): at most this.
inline constexpr real maxRate = real(1e6);
/// A deformable's material and solver settings (DeformableDesc, a restored
/// Deformable): fields named `prefix`.density and so on.
void validateDeformableMaterial(real density, real stiffness, real damping, real friction, int iterations,
                                const std::string& prefix);
/// Finite and |q| within 1e-6 of 1 (1e-3 in float builds).
void requireUnit(const Quat& q, const char* field);
/// A quaternion requireUnit accepted, as a body keeps it: unit to rounding already, as
/// given (normalising is not idempotent: some unit quaternions normalise to a neighbour
/// and back, and a body written to a scene file would load an ulp turned); else
/// normalised.
inline Quat keptUnit(const Quat& q) {
    return std::abs(q.squaredNorm() - 1) <= 4 * std::numeric_limits<real>::epsilon() ? q : q.normalized();
}
/// A body's damping rates [1/s], each finite and in [0, maxRate].
void validateDamping(real linear, real angular, const char* linearField, const char* angularField);

/// "{index i, generation g}": how errors show a handle.
std::string handleText(std::uint32_t index, std::uint32_t generation);
template <typename Tag> std::string handleText(Handle<Tag> id) { return handleText(id.index, id.generation); }

/// Throws unless `id` names a live object of `array`; `kind` says what it should be.
/// Returns the object.
template <typename Array, typename Tag>
auto& requireLive(Array& array, Handle<Tag> id, const std::string& field, const char* kind) {
    if (!array.contains(id))
        throw Error(field, handleText(id), std::string("not a live ") + kind + " of this world (stale or null handle)");
    return array[id];
}

} // namespace jounce::detail
