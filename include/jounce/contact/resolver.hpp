// SPDX-License-Identifier: MIT
#pragma once
/// \file resolver.hpp
/// The contact-space resolver (Millington, seeds/004 ch. 14-16): for each island,
///  1. prepare every contact: basis, relative positions, closing velocity, desired
///     velocity change (prepare_contacts.cpp);
///  2. adjustPositions: nonlinear projection, either Millington's deepest-first
///     (adjust_positions.cpp) or sweeps of accumulated, clamped pushes
///     (sequential_projection.cpp);
///  3. adjustVelocities: impulses, either Millington's largest-closing-velocity-first
///     (adjust_velocities.cpp) or sequential impulses with accumulated, clamped and
///     warm-started impulses in the same contact space (sequential_impulses.cpp).
///
/// Two ways to run it: resolve() does everything; the stepping form begin(), then
/// stepPosition() / stepVelocity() resolves exactly one contact per call and returns a
/// plain record of what it changed, for a debugger or the demo's 'step contact' mode.
/// resolve() is the stepping form run to the end, so both give bit-identical results.
///
/// This header holds what a game and a debugger see of it: its settings, its per-step
/// statistics and the record of one resolution step (World::setResolverObserver). The
/// resolver itself and its scratch rows are the library's (contact/contact_resolver.hpp).

#include <jounce/contact/contact.hpp>

#include <array>
#include <cstdint>

namespace jounce {


/// Which solver resolves a step's contacts and joints.
enum class ContactSolver : std::uint8_t {
    /// Millington's resolver (the passes above): position projection, then impulses, once
    /// per world substep.
    Resolver,
    /// The soft step (Catto's "Soft Step", Box2D v3, Box3D; contact/soft_step.cpp): the
    /// contacts found once, then `soft.substeps` solver substeps, each integrating the
    /// velocities, warm starting, one biased soft sweep, integrating the positions and
    /// one relaxing sweep, and the bounces of the contacts that met in it.
    SoftStep,
};

/// The soft step's settings (ContactSolver::SoftStep). Box2D v3's defaults.
struct SoftStepSettings {
    /// Solver substeps per world substep: each integrates velocities and positions
    /// and sweeps the rows twice (biased, then relaxed).
    int substeps = 4;
    /// Substeps for an island with ball, hinge or fixed joints held exactly (tolerance 0),
    /// at least `substeps`: a light link's spin over a
    /// substep must stay small (a chain of 1 kg links swinging 100 kg from 30 degrees
    /// held at 8, came apart at 4).
    int jointSubsteps = 8;
    /// Stiffness of a contact as a spring [Hz], held to at most an eighth of the
    /// substep rate (a contact with a static body gets twice this).
    real contactHertz = 30;
    real contactDampingRatio = 10; ///< over-damped: overlap is removed without a bounce
    /// Stiffness of a joint's rows [Hz], held to at most a quarter of the substep rate.
    real jointHertz = 60;
    real jointDampingRatio = 2;
    /// The cap on a soft contact's push-out bias, massScale biasRate s [m/s] (Box2D's
    /// contactSpeed: overlapping bodies part at about this speed, at most).
    real maxPushOut = 3;
    /// Relaxing sweeps per substep (no bias: removes the velocity the push-out added).
    int relaxIterations = 1;
    /// Heavy on light (docs/contact.md): a body at least this many times heavier than
    /// the one gravity presses it onto rests on it as on something that cannot move
    /// (islands without joints; friction too: the light body does not feel the heavy
    /// one through that contact). 0 turns it off; else >= 1.
    real holdMassRatio = 10;
};

enum class VelocitySolver : std::uint8_t {
    WorstFirst,          ///< Millington: the contact with the largest desired change next
    SequentialImpulses,  ///< sweeps in fixed order, accumulated and clamped impulses
};

enum class PositionSolver : std::uint8_t {
    WorstFirst, ///< Millington: project the deepest contact fully, then the next deepest
    Sequential, ///< sweeps in fixed order, accumulated and clamped pushes, relaxed
};

/// Millington's constants as named settings, his values as defaults; each named for what
/// it does, his name beside it.
struct ResolverSettings {
    /// The solver: Millington's resolver, or the soft step.
    ContactSolver solver = ContactSolver::SoftStep;
    SoftStepSettings soft; ///< ContactSolver::SoftStep's
    /// Contacts closing slower than this do not bounce (restitution 0) [m/s]: resting
    /// contacts stay put. Millington's velocityLimit (ch. 15.1).
    real restitutionThreshold = real(0.25);
    /// WorstFirst projection: the largest turn one push may give a body, as a move of at
    /// most this times the lever arm [rad]. Millington's angularLimit (ch. 14.3).
    real maxProjectionAngle = real(0.2);
    /// WorstFirst projection: penetrations below this are left alone [m]. Millington's
    /// positionEpsilon.
    real penetrationTolerance = real(0.01);
    /// WorstFirst velocities: desired velocity changes below this are left alone [m/s].
    /// Millington's velocityEpsilon.
    real velocityTolerance = real(0.01);
    int positionIterationsPerContact = 4; ///< cap: this times the island's contact count
    int velocityIterationsPerContact = 4; ///< cap for WorstFirst
    VelocitySolver velocitySolver = VelocitySolver::SequentialImpulses;
    /// Sweeps over the island for SequentialImpulses, at most (then shock propagation).
    /// 20: a 210-box pyramid's top drifts 0.5 mm in 10 s, and boxes 10 to 1000 times
    /// heavier than the box they rest on stay on it (docs/contact.md).
    int sequentialIterations = 20;
    /// SequentialImpulses stops sweeping an island early once a whole sweep changed no
    /// contact's relative velocity by more than this [m/s] (0: always run every sweep).
    real sequentialTolerance = real(1e-4);
    /// SequentialImpulses: a contact sliding faster than this gets its friction impulse
    /// opposite the sliding velocity (Coulomb's maximal dissipation) [m/s].
    real slidingSpeed = real(0.05);
    bool warmStart = true;              ///< start from last step's impulses (SequentialImpulses)
    PositionSolver positionSolver = PositionSolver::Sequential;
    int sequentialPositionIterations = 4; ///< sweeps over the island for PositionSolver::Sequential
    real projectionRelaxation = real(0.5); ///< Sequential: share of the excess penetration removed per step
    real allowedPenetration = real(0.0005); ///< Sequential: penetration left in place [m]
    /// Sequential solvers: the body nearer the ground (fewer contacts from a static
    /// body) holds still while the contacts above it are resolved, so heavy-on-light
    /// stacks are carried bottom up (shock propagation, Guendelman, Bridson and Fedkiw
    /// 2003): on the last position sweep, and for velocities after the sweeps, one
    /// level at a time (docs/contact.md). Momentum is not conserved there: the held body
    /// acts as part of the ground.
    bool shockPropagation = true;
    /// SequentialImpulses with shock propagation: passes over each level's contacts at
    /// most, each level settled on the one below before the next (docs/contact.md).
    int shockIterations = 8;
};

/// A body's velocities, as a record sees them before and after its visit.
struct BodyVelocity {
    Vec3 linear = Vec3::Zero();  ///< [m/s]
    Vec3 angular = Vec3::Zero(); ///< [rad/s], world
};

/// What one resolution step did, in plain numbers: one contact of the resolver (a
/// position or a velocity update), or one visit of the soft step (docs/debugging.md).
struct ResolutionRecord {
    enum class Kind : std::uint8_t {
        Position, ///< resolver: one contact's projection
        Velocity, ///< resolver: one contact's impulse
        WarmStart, ///< soft step: last step's impulses applied again at a substep's start
        Solve,    ///< soft step: the biased (soft, pushing out) visit
        Relax,    ///< soft step: the relaxing visit (rigid, no push-out), with friction
        Bounce,   ///< soft step: restitution at a substep's end
    };
    static constexpr std::uint32_t noColour = 0xffffffffu;
    static constexpr std::uint32_t noJoint = 0xffffffffu;
    Kind kind = Kind::Position;
    /// Index into the contact array (World::resolvedContacts); a soft visit solves
    /// contacts [contact, contact + points): a manifold's points, or one row.
    std::uint32_t contact = 0;
    std::uint32_t points = 1;
    std::uint32_t island = 0;
    /// Soft step: a hinge's or slider's own rows (limits, motor, spring, friction:
    /// JointMotion; a slider's orientation lock) visited together: the joint's slot
    /// (noJoint for contacts and joint points). `contact` is then its island's first
    /// contact, `points` 0, `before` and `after` A's speed relative to B's about or along
    /// the axis [rad/s or m/s], and the impulse on A along the axis: `impulseWorld` for a
    /// slider, `angularImpulseWorld` for a hinge.
    std::uint32_t joint = noJoint;
    std::array<std::uint32_t, 2> body{noBody, noBody}; ///< body slots (noBody: the world)
    /// Soft step: the solver substep, and where the visit sits in the coloured solver:
    /// its colour (a batch of lanes sharing no body), block and lane; noColour for an
    /// island solved row by row (joints, or a light body held under a heavy one).
    std::uint32_t substep = 0;
    std::uint32_t colour = noColour;
    std::uint32_t block = 0;
    std::uint32_t lane = 0;
    /// Position: penetration [m]; the others: normal closing velocity at the first
    /// contact [m/s] (< 0 closing). Before and after the visit.
    real before = 0;
    real after = 0;
    std::array<BodyVelocity, 2> velocityBefore{}; ///< the bodies' velocities before the visit
    std::array<BodyVelocity, 2> velocityAfter{};  ///< and after
    std::array<Vec3, 2> linearChange{Vec3::Zero(), Vec3::Zero()};  ///< [m] or [m/s]
    std::array<Vec3, 2> angularChange{Vec3::Zero(), Vec3::Zero()}; ///< [rad] or [rad/s], world
    Vec3 impulseContact = Vec3::Zero(); ///< velocity visits: impulse in the first contact's frame [N s]
    Vec3 impulseWorld = Vec3::Zero();   ///< the same in world coordinates, on body 0
    Vec3 angularImpulseWorld = Vec3::Zero(); ///< a hinge's own rows: the angular impulse on body 0 [N m s]
};

struct ResolverStats {
    int positionIterations = 0;
    int velocityIterations = 0;
    real maxPenetrationBefore = 0; ///< deepest penetration handed to the resolver [m]
    real maxPenetrationAfter = 0;  ///< deepest left after projection [m]
    /// The soft step's coloured blocks: how many shards of whole islands they were cut
    /// into, each solved by one worker from start to end (1: one, its colours shared
    /// among the workers; docs/contact.md, "Coloured blocks").
    int shards = 1;
};

} // namespace jounce
