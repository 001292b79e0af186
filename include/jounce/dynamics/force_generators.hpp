// SPDX-License-Identifier: MIT
#pragma once
/// \file force_generators.hpp
/// Force generators (Millington ch. 5-6, 10.3): plain structs the world evaluates
/// every substep, and the pure force laws behind them. The laws take positions and
/// velocities, not bodies, so the particle layer uses the same functions.
///
/// Fixes to the book's versions, each covered by a test:
///  - a compressed spring pushes (the book's pulls when |d| < rest with its sign use),
///  - a bungee never pushes, a stretched one pulls,
///  - partial buoyancy points up (the book's partial-depth formula points down),
///  - the fake stiff spring handles all three damping regimes and the body's mass
///    (the book's takes sqrt of a negative number when d^2 > 4k, and ignores mass).

#include <jounce/common/handle.hpp>
#include <jounce/common/math.hpp>

#include <variant>

namespace jounce {

/// One end of a spring or joint: a point fixed on a body (in the body-origin frame, the
/// frame its colliders are placed in, not the centre of mass's), or, when
/// `body` is the null handle, a fixed point in the world (world coordinates).
struct Attachment {
    BodyId body{};
    Vec3 point = Vec3::Zero();
};

/// Extra constant acceleration on one body (world gravity is a world setting).
struct GravityForce {
    BodyId body{};
    Vec3 acceleration = Vec3::Zero(); ///< [m/s^2]
};

/// Hooke spring with optional dashpot: f_a = -(k (|d| - L) + c (v_rel . d^)) d^, d = a - b.
/// With `b.body` null it is Millington's anchored spring.
struct Spring {
    Attachment a, b;
    real stiffness = 0;   ///< k [N/m]
    real restLength = 0;  ///< L [m]
    real damping = 0;     ///< c [N s/m], along the spring
};

/// A spring that only pulls: no force while |d| <= restLength.
struct Bungee {
    Attachment a, b;
    real stiffness = 0;
    real restLength = 0;
    real damping = 0;     ///< acts only while stretched
};

/// Millington's buoyancy: a liquid surface at y = waterHeight; the body's point
/// `centreOfBuoyancy` (body-origin frame) is fully submerged when at least maxDepth below it,
/// out of the liquid when maxDepth above it, and linearly between. Archimedes:
/// f = -rho V s g, s the submerged share, applied at that point (so it also rights).
struct Buoyancy {
    BodyId body{};
    Vec3 centreOfBuoyancy = Vec3::Zero();
    real maxDepth = 0.5;           ///< half the body's height [m]
    real volume = 1;               ///< displaced volume when fully submerged [m^3]
    real waterHeight = 0;          ///< [m]
    real liquidDensity = 1000;     ///< [kg/m^3]
};

/// Aerodynamic surface (Millington 11.4): body-frame force = T * (air velocity
/// relative to the surface point, in body frame). A control input in [-1, 1] blends
/// the tensor toward tensorMin (-1) or tensorMax (+1): flaps, rudders.
struct Aero {
    BodyId body{};
    Vec3 point = Vec3::Zero();         ///< surface centre, body-origin frame [m]
    Vec3 wind = Vec3::Zero();          ///< world [m/s]
    Mat3 tensor = Mat3::Zero();        ///< [N s/m], body frame
    Mat3 tensorMin = Mat3::Zero();
    Mat3 tensorMax = Mat3::Zero();
    real control = 0;
};
/// A fixed surface: min = max = tensor.
Aero aeroSurface(BodyId body, const Mat3& tensor, const Vec3& point, const Vec3& wind);

/// Drag: f = -v^ (k1 |v| + k2 |v|^2).
struct Drag {
    BodyId body{};
    real k1 = 0; ///< [N s/m]
    real k2 = 0; ///< [N s^2/m^2]
};

/// Millington's "fake stiff spring" (seeds/003): zero rest length, one end fixed at
/// `anchor`, acting on the centre of mass. Each substep it computes where a damped
/// harmonic oscillator m x'' = -k x - c x' would carry the body over the substep and
/// applies the force that puts it exactly there under symplectic Euler.
/// Limits (see docs/physics.md): the velocity it leaves is (target - x)/h, not the
/// oscillator's; other forces on the body (gravity included) and damping settings
/// move it off the target; one fixed end only.
struct FakeSpring {
    BodyId body{};
    Vec3 anchor = Vec3::Zero();
    real stiffness = 0; ///< k [N/m] > 0
    real damping = 0;   ///< c [N s/m] >= 0, any size: under-, critically or over-damped
};

using ForceGenerator = std::variant<GravityForce, Spring, Bungee, Buoyancy, Aero, Drag, FakeSpring>;

// ---- Force laws shared with the particle layer -----------------------------------

/// Force on end A of a spring from A to B (the negative acts on B); zero when the
/// ends coincide, since the direction is then undefined.
Vec3 springForce(const Vec3& pa, const Vec3& pb, const Vec3& va, const Vec3& vb, real stiffness,
                 real restLength, real damping);
/// As springForce, but zero unless |pa - pb| > restLength.
Vec3 bungeeForce(const Vec3& pa, const Vec3& pb, const Vec3& va, const Vec3& vb, real stiffness,
                 real restLength, real damping);
/// Share of the body under the surface, in [0, 1], for a point at height y.
real submergedShare(real y, real waterHeight, real maxDepth);
Vec3 buoyancyForce(real y, const Buoyancy& b, const Vec3& gravity);
Vec3 dragForce(const Vec3& velocity, real k1, real k2);
/// Control-blended tensor of an Aero generator.
Mat3 aeroTensor(const Aero& a);

/// Closed-form position of m x'' = -k x - c x' after time t from (x0, v0), any
/// regime; x is relative to the spring's anchor. Stable across the critical point.
Vec3 dampedOscillatorPosition(const Vec3& x0, const Vec3& v0, real stiffness, real damping,
                              real mass, real t);
/// The force that carries a body of `mass` from (x, v) to `target` in one symplectic
/// Euler step h: x + h (v + h f/m) = target.
Vec3 forceToReach(const Vec3& x, const Vec3& v, const Vec3& target, real mass, real h);

} // namespace jounce
