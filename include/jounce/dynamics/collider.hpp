// SPDX-License-Identifier: MIT
#pragma once
/// \file collider.hpp
/// Colliders: shapes attached to bodies. A body may have several (a compound body);
/// each has its own pose relative to the body's origin, density, material and
/// collision filter. Contacts found in a step are reported as ContactManifolds.

#include <jounce/collision/manifold.hpp>
#include <jounce/collision/shapes.hpp>
#include <jounce/common/handle.hpp>

#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <utility>

namespace jounce {

struct ColliderTag;
using ColliderId = Handle<ColliderTag>;

/// How a touching pair makes one coefficient of its two materials' (PhysX's combine
/// modes). Of the two materials' rules the pair uses the one later in this list, so
/// Default (the geometric mean sqrt(a b) for friction, the larger for restitution)
/// gives way to any rule a material names: ice with Min is slippery under any boot.
enum class CombineRule : std::uint8_t { Default, GeometricMean, Average, Min, Multiply, Max };

struct Material {
    real friction = real(0.5);  ///< Coulomb coefficient, >= 0
    real restitution = 0;       ///< in [0, 1]
    CombineRule frictionCombine = CombineRule::Default;    ///< Default: sqrt(fa fb)
    CombineRule restitutionCombine = CombineRule::Default; ///< Default: max(ea, eb)
    /// Rolling resistance coefficient c_rr >= 0 of spheres, capsules and cylinders (other
    /// shapes do not roll): rolling is opposed by a torque of at most c_rr r N, r the shape's
    /// radius and N the normal force, so a solid ball rolling on a level floor slows at
    /// (5/7) c_rr g. A pair uses the larger c_rr of its two materials and the roller's r
    /// (of two rollers, the smaller), so a surface's coefficient (turf, sand) slows whatever
    /// rolls on it and a roller's own slows it on anything. Typical: 0.001 (steel on steel) to 0.05
    /// (a tyre on sand).
    real rollingResistance = 0;
};

/// a and b combined by `rule` (Default taken as `fallback`).
inline real combineCoefficients(CombineRule rule, real a, real b, CombineRule fallback) {
    switch (rule == CombineRule::Default ? fallback : rule) {
    case CombineRule::Average: return (a + b) / 2;
    case CombineRule::Min: return a < b ? a : b;
    case CombineRule::Multiply: return a * b;
    case CombineRule::Max: return a > b ? a : b;
    default: return std::sqrt(a * b);
    }
}
/// The friction a pair of materials touches with (a particle or a deformable, which have
/// no rule of their own, passes CombineRule::Default for its side).
inline real combineFriction(real a, CombineRule ruleA, real b, CombineRule ruleB) {
    const real mu = combineCoefficients(ruleA > ruleB ? ruleA : ruleB, a, b, CombineRule::GeometricMean);
    return mu < real(1e6) ? mu : real(1e6); // each is at most maxRate (1e6); Multiply's product may not be
}
/// The restitution a pair of materials bounces with.
inline real combineRestitution(real a, CombineRule ruleA, real b, CombineRule ruleB) {
    return combineCoefficients(ruleA > ruleB ? ruleA : ruleB, a, b, CombineRule::Max);
}

struct CollisionFilter {
    std::uint32_t category = 1;          ///< bits this collider is
    std::uint32_t mask = 0xffffffffu;    ///< bits it collides with (both ways must agree)
};

/// Which colliders a world query sees (World::rayCast*, shapeCast*, overlap,
/// closestPoint): those whose category has a bit in `mask`, not on body `ignore`, not
/// sensors unless `sensors`, and that `accept` (when set) takes. A mask alone converts
/// to a filter, so `rayCastClosest(from, to, 1u)` reads as before. `accept` is called
/// on the querying thread, in index order, for each candidate collider that passes the
/// rest (the trees' candidates, before their boxes are tested against the query's); it
/// must not change the world. A character casting its own capsule ignores its own body;
/// a line of sight skips sensors.
struct QueryFilter {
    std::uint32_t mask = 0xffffffffu;             ///< collider categories seen
    BodyId ignore{};                              ///< a body left out (null: none); must be live
    bool sensors = true;                          ///< false: sensors are left out
    std::function<bool(ColliderId)> accept;       ///< false leaves the collider out (empty: all)

    QueryFilter() = default;
    QueryFilter(std::uint32_t categories) : mask(categories) {} // NOLINT: a mask is a filter
};

/// What a user fills to attach a shape to a body.
struct ColliderDesc {
    Shape shape = Box{};
    Transform local;              ///< pose relative to the body's origin (BodyDesc.position)
    real density = 1000;          ///< [kg/m^3], used when the body takes its mass from colliders
    Material material;
    CollisionFilter filter;
    /// A sensor (trigger volume) touches nothing: it reports the colliders overlapping
    /// it (World::sensorEvents) and never makes contacts, particles or deformables
    /// pass through it. Its density still counts toward its body's mass.
    bool sensor = false;
};

/// A collider of `shape` at its body's origin with `density` [kg/m^3] and `material`:
/// the common case in one line, e.g. `makeCollider(Sphere{0.2}, 1000, {.friction = 0.4})`.
inline ColliderDesc makeCollider(Shape shape, real density, Material material = {}) {
    ColliderDesc c;
    c.shape = std::move(shape);
    c.density = density;
    c.material = material;
    return c;
}

/// The world's record of a collider.
struct Collider {
    BodyId body{};
    Shape shape = Box{};
    Transform local;
    real density = 1000;
    Material material;
    CollisionFilter filter;
    Aabb fatBox;                  ///< the broad phase's box, grown by WorldSettings::aabbMargin
    bool sensor = false;          ///< ColliderDesc::sensor
};

/// Contacts between two colliders found in the last step (manifold.hpp conventions:
/// the normal points from B toward A).
struct ContactManifold {
    BodyId bodyA{}, bodyB{};
    ColliderId colliderA{}, colliderB{};
    real friction = 0;     ///< combined: sqrt(fa fb)
    real restitution = 0;  ///< combined: max(ea, eb)
    /// Closing speed along the normal at the deepest point when the pair was found,
    /// before the resolver (> 0: approaching) [m/s]: how hard they hit.
    real approachSpeed = 0;
    /// Torque bound of rolling resistance per unit normal force: the larger c_rr of the two
    /// materials times the roller's radius (of two, the smaller) [m]
    /// (Material::rollingResistance; 0: none).
    real rollingResistance = 0;
    /// What friction drives A's surface's velocity relative to B's toward, in the contact
    /// plane [m/s]: zero unless a contact modifier set it (ContactModification).
    Vec3 surfaceVelocity = Vec3::Zero();
    Manifold manifold;

    // Persistent contacts (docs/contact.md, "Persistent contacts"): what a manifold
    // carries from one step to the next, so the pair's next manifold starts from its
    // impulses and, while the pair barely moves, is refreshed instead of found again.
    // Stored in float in either build (Vec3f: the soft step solves its rows in float;
    // 704 bytes a manifold become 488 in the double build).
    /// Each point's impulse the solver ended the step with [N s]: along the normal, and
    /// the friction part as a world vector (tangent axes are rebuilt each step).
    std::array<float, Manifold::maxPoints> normalImpulse{};
    std::array<Vec3f, Manifold::maxPoints> frictionImpulse{Vec3f::Zero(), Vec3f::Zero(), Vec3f::Zero(), Vec3f::Zero()};
    /// Where each point lies on A's surface and on B's, in their colliders' frames, and
    /// the normal in B's collider frame: enough to place the points again after the
    /// colliders moved a little.
    std::array<Vec3f, Manifold::maxPoints> anchorA{Vec3f::Zero(), Vec3f::Zero(), Vec3f::Zero(), Vec3f::Zero()};
    std::array<Vec3f, Manifold::maxPoints> anchorB{Vec3f::Zero(), Vec3f::Zero(), Vec3f::Zero(), Vec3f::Zero()};
    Vec3f normalInB = Vec3f::UnitY();
    /// A's collider pose in B's collider frame when the points were found.
    Transformf poseAInB;
    /// How this step got its points: found by the shape test, refreshed from the last
    /// step's anchors (the pair moved less than WorldSettings::contactCache allows),
    /// rebuilt at a speculative time of impact (never refreshed: it describes a future
    /// pose), or found while the two moved faster than half the collision margin a step
    /// relative to each other (no anchors kept: a refresh would skip the search ahead
    /// along their motion).
    enum class Origin : std::uint8_t { Found, Refreshed, Speculative, Moving };
    Origin origin = Origin::Found;
};

/// Decides whether two colliders may touch (called in the narrow phase, in pair order,
/// for pairs the category/mask filter let through). Return false to veto the pair.
using ContactFilter = std::function<bool(ColliderId a, ColliderId b)>;

/// A pair's contact as a contact modifier sees it each substep, after the narrow phase
/// and before the solver, and what it may change (World::setContactModifier).
struct ContactModification {
    BodyId bodyA{}, bodyB{};
    ColliderId colliderA{}, colliderB{};
    Vec3 normal = Vec3::UnitY(); ///< from B toward A (moving A along it separates them)
    real approachSpeed = 0;      ///< along the normal at the deepest point (> 0: closing) [m/s]
    real depth = 0;              ///< the deepest point's (> 0 overlapping, <= 0 apart) [m]
    /// Off: the pair does not touch this substep (a one-way platform passed from below).
    bool enabled = true;
    real friction = 0;           ///< combined, as the pair's materials give it; >= 0, finite
    real restitution = 0;        ///< in [0, 1]
    /// [m/s] The velocity friction drives A's surface toward relative to B's, in the
    /// contact plane (the part along the normal is dropped): a conveyor belt that is B
    /// sets its belt velocity here (as A, the opposite), a treadmill or an escalator's
    /// step likewise. Finite, within maxSpeed.
    Vec3 surfaceVelocity = Vec3::Zero();
};

/// Sees every body-body contact each substep, in pair order, and may turn it off or
/// change its friction, restitution and surface velocity.
using ContactModifier = std::function<void(ContactModification&)>;

} // namespace jounce
