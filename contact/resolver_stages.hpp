// SPDX-License-Identifier: MIT
#pragma once
// Internal: the stages of contact resolution as free functions on plain data, one file
// each (DESIGN.md: one stage of the step per file). The resolver (resolver.cpp) only
// decides the order.

#include "contact/contact_resolver.hpp"
#include "contact/locked_mass.hpp"
#include "common/hot_inline.hpp"

namespace jounce::detail {

/// The body a contact side refers to, or null for the world.
inline Body* bodyOf(std::span<Body> bodies, std::uint32_t i) { return i == noBody ? nullptr : &bodies[i]; }

/// What one resolution did to the two bodies (world frame).
struct BodyChange {
    std::array<Vec3, 2> linear{Vec3::Zero(), Vec3::Zero()};
    std::array<Vec3, 2> angular{Vec3::Zero(), Vec3::Zero()};
};

/// Ch. 14.1: basis, relative positions, closing velocity (with the planar part of last
/// step's acceleration removed: the slope-creep fix, ch. 16.1) and the desired change.
void prepareContact(Contact& c, std::span<const Body> bodies, real dt, const ResolverSettings& settings);

/// Ch. 15.1: the normal velocity change that resolves the contact, from its current
/// closing velocity: bounce with restitution (none below restitutionThreshold); a
/// contact touching at the start of the step does not bounce the velocity last step's
/// acceleration built up. A contact still apart by a gap lets the bodies close it this
/// step and no faster (a speculative contact); one that closes it bounces all of it.
void updateDesiredVelocity(Contact& c, std::span<const Body> bodies, real dt, const ResolverSettings& settings);

/// The solver-body index of a contact side: body + 1, and 0 (the world) for noBody.
inline std::uint32_t solverIndex(std::uint32_t body) { return body == noBody ? 0 : body + 1; }

/// Copies the bodies `touched` (those some contact touches) into `solver` and
/// `inverseInertia` (index body + 1; entry 0 is the world): velocities, inverse mass and
/// world inverse inertia, zero for bodies that do not move. Other entries are left as
/// they were and never read.
void gatherSolverBodies(std::span<const Body> bodies, std::span<const std::uint32_t> touched, std::vector<SolverBody>& solver,
                        std::vector<Mat3>& inverseInertia);

/// Ch. 14.3: nonlinear projection of one contact out of penetration.
BodyChange projectContact(const Contact& c, std::span<Body> bodies, real maxProjectionAngle);

/// Sequential projection's constants for contact c (ch. 14.3's inertias per side).
void preparePushRow(const Contact& c, std::span<const SolverBody> solver, std::span<const Mat3> inverseInertia, PushRow& row);

/// Sequential projection: one accumulated, clamped push of contact c toward gaining
/// `target` of separation since the resolver began, given each body's move so far
/// (linearised: linear + angular x r; moves indexed like solver bodies). Records the
/// moves; the bodies themselves are placed by placeBody. `holdSide` (0 or 1) names a
/// body that must not move (-1: none).
BodyChange pushContact(Contact& c, const PushRow& row, std::span<const SolverBody> solver, std::span<Vec3> moveLinear,
                       std::span<Vec3> moveAngular, real target, int holdSide);

/// Separation contact c gained from the bodies' moves so far (linearised).
real separationGained(const Contact& c, const PushRow& row, std::span<const Vec3> moveLinear,
                      std::span<const Vec3> moveAngular);

/// Moves and turns a body by a small displacement, refreshing its world inertia.
void displaceBody(Body& b, const Vec3& linear, const Vec3& angular);

/// Puts body b where a displacement (linear, angular) takes it from a start pose.
void placeBody(Body& b, const Vec3& startPosition, const Quat& startOrientation, const Vec3& linear, const Vec3& angular);

/// After body b moved by `change` (as side `side` of some contact), the penetration of
/// contact k, which also touches b.
void updatePenetration(Contact& k, std::uint32_t b, const Vec3& linear, const Vec3& angular);

/// The contact frame of c as three axes with their lever arms and turns, the inverses
/// of its response D, its friction, warm-start total and target (ch. 15.3).
void prepareImpulseRow(const Contact& c, std::span<const SolverBody> solver, std::span<const Mat3> inverseInertia,
                       ImpulseRow& row);

/// The 3x3 velocity change per unit impulse in the contact frame (ch. 15.3): the
/// inverse of the impulse needed per unit of velocity change,
///     D_ij = sum over sides (1/m delta_ij + lever_i . turn_j).
/// `holdSide` (0 or 1) leaves that body out, as if it could not move (-1: none).
Mat3 velocityPerImpulse(const ImpulseRow& row, std::span<const SolverBody> solver, int holdSide = -1);

/// The inverse of D's planar (friction) block. When that block is singular to working
/// precision (a lever arm so long that its terms swamp the others and the determinant
/// cancels to zero), the inverse of its diagonal: each friction axis on its own.
Eigen::Matrix<real, 2, 2> planarInverse(const Mat3& d);

/// 1 / D_00, or 0 when nothing can move the point along the normal.
inline real normalMassOf(const Mat3& d) { return d(0, 0) > 0 ? 1 / d(0, 0) : 0; }

/// Ch. 14.2 / 15.3: the impulse that makes c's desired change (frictionless, static or
/// dynamic friction), applied to both bodies.
BodyChange impulseContact(Contact& c, const ImpulseRow& row, std::span<SolverBody> solver, Vec3& impulse);

/// After body b's velocity changed, the closing velocity of contact k (in its frame).
void updateContactVelocity(Contact& k, std::uint32_t b, const Vec3& linear, const Vec3& angular);

/// Current velocity of body 0's contact point relative to body 1's, contact frame
/// (x < 0: closing).
Vec3 relativeVelocity(const ImpulseRow& row, std::span<const SolverBody> solver);

/// Sequential impulses: one accumulated, clamped update of a contact. Returns the
/// impulse it applied (contact frame). `holdSide` (0 or 1): that body does not move
/// (shock propagation; -1: none); the row's response must then be the held one
/// (holdLowerSide).
Vec3 sequentialImpulse(ImpulseRow& row, std::span<SolverBody> solver, real slidingSpeed, int holdSide);

/// Shock propagation: the row's response (1 / D_00, the planar inverse, D_01, D_02)
/// recomputed with its lower body held, once for all the passes (the inertias stay
/// fixed through them). Rows with no lower side are left as they are.
void holdLowerSide(ImpulseRow& row, std::span<const SolverBody> solver);

/// Velocity of body 0's contact point relative to body 1's along one axis. The world
/// (entry 0) and static bodies have zero velocity, so both sides are always summed.
JOUNCE_HOT_INLINE real speedAlong(const ImpulseAxis& axis, const SolverBody& a, const SolverBody& b) {
    return axis.direction.dot(a.linearVelocity - b.linearVelocity) + axis.lever[0].dot(a.angularVelocity) -
           axis.lever[1].dot(b.angularVelocity);
}

/// The three impulses of one update at once (contact frame: normal, tangent,
/// bitangent): one pass over each body.
JOUNCE_HOT_INLINE void applyAll(const ImpulseRow& row, SolverBody& a, SolverBody& b, const Vec3& j, int holdSide) {
    const Vec3 linear = row.axis[0].direction * j.x() + row.axis[1].direction * j.y() + row.axis[2].direction * j.z();
    if (holdSide != 0) {
        a.linearVelocity += lockedChange(a, linear * a.inverseMass);
        a.angularVelocity += row.axis[0].turn[0] * j.x() + row.axis[1].turn[0] * j.y() + row.axis[2].turn[0] * j.z();
    }
    if (holdSide != 1) {
        b.linearVelocity -= lockedChange(b, linear * b.inverseMass);
        b.angularVelocity -= row.axis[0].turn[1] * j.x() + row.axis[1].turn[1] * j.y() + row.axis[2].turn[1] * j.z();
    }
}

/// Applies impulse `j` (contact frame) to both bodies: +j on body 0, -j on body 1.
BodyChange applyImpulse(const ImpulseRow& row, std::span<SolverBody> solver, const Vec3& j, int holdSide = -1);

} // namespace jounce::detail
