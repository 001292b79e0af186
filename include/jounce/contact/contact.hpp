// SPDX-License-Identifier: MIT
#pragma once
/// \file contact.hpp
/// One contact point between two bodies (or a body and the world), as the contact
/// resolver sees it: Millington's contact data (seeds/004 ch. 14), plus the impulse
/// accumulated on it, which persists from step to step for warm starting.
///
/// Conventions (the same as the narrow phase's manifolds):
///  - `body[0]` and `body[1]` index the body array handed to the resolver; `noBody`
///    means the immovable world (a joint anchored in space, for instance);
///  - `normal` points from body 1 toward body 0: moving body 0 along +normal, or body 1
///    along -normal, reduces `penetration`;
///  - `penetration > 0` means overlap.

#include <jounce/common/math.hpp>

#include <array>
#include <cstdint>
#include <limits>

namespace jounce {

constexpr std::uint32_t noBody = std::numeric_limits<std::uint32_t>::max();
constexpr std::uint32_t noSource = std::numeric_limits<std::uint32_t>::max();

struct Contact {
    // Input: from the narrow phase or a contact generator.
    std::array<std::uint32_t, 2> body{noBody, noBody};
    Vec3 point = Vec3::Zero();     ///< world [m]
    Vec3 normal = Vec3::UnitY();   ///< unit, from body 1 toward body 0
    real penetration = 0;          ///< [m], > 0 overlapping
    real friction = 0;             ///< Coulomb coefficient
    real restitution = 0;          ///< 0..1
    /// Friction's target for body 0's velocity relative to body 1's at the point, in the
    /// contact plane (a conveyor's belt speed; ContactModification) [m/s, world]
    Vec3 surfaceVelocity = Vec3::Zero();
    std::uint64_t key = 0;         ///< identifies the contact across steps (bodies, feature)
    /// Where the solved impulse goes back to for the next step: the narrow phase's
    /// manifold (World::contacts) index times Manifold::maxPoints plus the point, or
    /// noSource for a joint's contact (kept in the warm-start cache by key).
    std::uint32_t source = noSource;
    /// Whether its impulse warm-starts the next step. False for a soft-step row that held
    /// a light body under a heavy one (docs/contact.md, "Heavy on light"): sized for the
    /// heavy body alone, warm-started on both it would throw the light one.
    bool carries = true;
    /// Whether shock propagation may hold this contact's lower body still: true for a
    /// contact that bears weight, false for a joint's (its reaction must reach both
    /// bodies: held, a light body on the floor became an immovable anchor for the heavy
    /// body jointed to it, and the impulse sized for the heavy body threw both;
    /// docs/contact.md, "Joints are never held").
    bool supports = true;

    // Derived by prepareContact (ch. 14.1).
    /// Columns: normal, tangent, bitangent. Zero until gathered or prepared (no unit
    /// normal matches its first column, so preparation knows to build it).
    Mat3 contactToWorld = Mat3::Zero();
    std::array<Vec3, 2> relative{Vec3::Zero(), Vec3::Zero()}; ///< point - centre of mass
    Vec3 velocity = Vec3::Zero();  ///< closing velocity of body 0 relative to body 1, contact frame
    real desiredDeltaVelocity = 0; ///< the normal velocity change that resolves it [m/s]
    real targetNormalVelocity = 0; ///< velocity.x + desiredDeltaVelocity as prepared [m/s]
    real penetrationAtStart = 0;   ///< penetration as handed to the resolver [m]
    real accumulatedPush = 0;      ///< sequential projection: total push this step [kg m]

    // Persistent: impulse applied by the sequential-impulse pass, contact frame [N s].
    Vec3 accumulatedImpulse = Vec3::Zero();
    /// This step only, beyond accumulatedImpulse (contact frame, N s): the resolver's
    /// bounce pass; the soft step's bounces and its substeps' normal impulses beyond the
    /// kept one (which is the last substep's, for the warm start: an impact's impulse,
    /// taken in one substep, is reported here). The contact's whole normal impulse this
    /// step is accumulatedImpulse.x() + bounceImpulse.x().
    Vec3 bounceImpulse = Vec3::Zero();
};

/// What the next step keeps of a resolved contact (the warm-start cache, sorted by
/// key): enough to find the contact again and start from its impulse. A fifth of a
/// Contact's size, so keeping, searching and backing up the cache each step moves a
/// fifth of the memory.
struct KeptContact {
    std::uint64_t key = 0;
    Vec3 point = Vec3::Zero();              ///< world [m]: finds the nearest when features renumber
    Vec3 normal = Vec3::UnitY();            ///< says whether the frame turned
    Vec3 accumulatedImpulse = Vec3::Zero(); ///< sequential impulses' total, contact frame [N s]
    real bounceNormal = 0;                  ///< this step's bounce impulse along the normal [N s] (joint forces)
};

/// An orthonormal basis whose first column is `normal` (unit). Robust for any normal:
/// the helper axis is the world axis least aligned with the normal, so the cross
/// products never degenerate (Millington's construction picks x or y by a fixed
/// threshold and, as printed, makes a second tangent that is not orthogonal to tilted
/// normals; issue 4 notes the typo). Inline: the soft step builds one per manifold
/// twice a step.
inline Mat3 contactBasis(const Vec3& normal) {
    // Cross the normal with the world axis it is least aligned with: that cross product
    // is at least sqrt(2/3) long, so nothing degenerates for any normal.
    // The axis is chosen without a jump (a pile's normals point every way, so a jump
    // there is mispredicted about half the time); crossing with a 0/1 vector gives the
    // same bits as crossing with the unit axis itself.
    const Vec3 a = normal.cwiseAbs();
    const int useX = static_cast<int>(a.x() <= a.y()) & static_cast<int>(a.x() <= a.z());
    const int useY = (1 - useX) & static_cast<int>(a.y() <= a.z());
    const Vec3 helper(static_cast<real>(useX), static_cast<real>(useY), static_cast<real>(1 - useX - useY));
    const Vec3 tangent = normal.cross(helper).normalized();
    const Vec3 bitangent = normal.cross(tangent); // unit: normal and tangent are orthonormal
    Mat3 basis;
    basis.col(0) = normal;
    basis.col(1) = tangent;
    basis.col(2) = bitangent;
    return basis;
}

} // namespace jounce
