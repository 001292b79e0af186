// SPDX-License-Identifier: MIT
#pragma once
/// \file mass_properties.hpp
/// Mass, centre of mass and inertia tensor of solid primitives of uniform density,
/// the parallel-axis shift, and the check every user-supplied inertia goes through.
/// Capsules and cylinders have their axis along the body's y axis.

#include <jounce/common/math.hpp>

namespace jounce {

struct MassProperties {
    real mass = 0;                  ///< [kg]
    Vec3 centroid = Vec3::Zero();   ///< centre of mass in the shape's frame [m]
    Mat3 inertia = Mat3::Zero();    ///< about the centroid, shape frame [kg m^2]
};

/// Each throws jounce::Error for non-positive or non-finite sizes or density.
MassProperties solidSphere(real radius, real density);
MassProperties solidBox(const Vec3& halfExtents, real density);
/// Cylinder of half height `halfHeight` capped by two hemispheres of `radius`.
MassProperties solidCapsule(real radius, real halfHeight, real density);
MassProperties solidCylinder(real radius, real halfHeight, real density);

/// Inertia about a point displaced by `offset` from the centre of mass:
/// I' = I + m ((d.d) E - d d^T)   (parallel-axis theorem).
Mat3 shiftInertia(const Mat3& inertiaAboutCentroid, real mass, const Vec3& offset);

/// Throws jounce::Error naming `field` unless `inertia` is finite, symmetric (to 1e-6
/// relative), positive definite, and its principal moments obey the triangle
/// inequality I1 + I2 >= I3 that every real mass distribution satisfies.
void validateInertia(const Mat3& inertia, const char* field);

} // namespace jounce
