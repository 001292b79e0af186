// SPDX-License-Identifier: MIT
#pragma once
/// \file particles.hpp
/// The position-based particle layer: particles in flat arrays, the constraints
/// between them (each kind in its own flat array), and the solver's settings.
/// Müller et al. 2007 "Position Based Dynamics" (seeds/002) gives the loop; XPBD
/// (Macklin, Müller, Chentanez 2016; survey seeds/000 eq. 22-24) gives compliance with
/// accumulated multipliers; Macklin et al. 2019 "Small Steps" gives the substeps.
///
/// This header is state only (Eigen and handles): the world owns a ParticleSystem,
/// validates what goes into it, and runs the solver (physics/particles/) in its step.

#include <jounce/collision/shapes.hpp>
#include <jounce/dynamics/collider.hpp>
#include <jounce/dynamics/force_generators.hpp>
#include <jounce/common/handle.hpp>
#include <jounce/common/math.hpp>
#include <jounce/particles/particle_constraints.hpp>

#include <cstdint>
#include <utility>
#include <vector>

namespace jounce {

struct ParticleTag;
struct DistanceConstraintTag;
struct ParticleAttachmentTag;
using ParticleId = Handle<ParticleTag>;
using DistanceConstraintId = Handle<DistanceConstraintTag>;
using ParticleAttachmentId = Handle<ParticleAttachmentTag>;

struct ParticleDesc {
    Vec3 position = Vec3::Zero();
    Vec3 velocity = Vec3::Zero();
    real mass = 1;                 ///< [kg], > 0 unless pinned
    bool pinned = false;           ///< inverse mass 0: constraints never move it
    real radius = real(0.05);      ///< collision radius [m], > 0
    /// Particles that share a non-zero group never collide with each other (a cloth's
    /// or a rope's own particles, whose constraints already space them). Group 0
    /// collides with everything.
    std::uint32_t group = 0;
    real staticFriction = real(0.3);  ///< Coulomb coefficients (Macklin 2014): sticks below mu_s d,
    real kineticFriction = real(0.3); ///< slides with mu_k d beyond (d: the penetration corrected)
    real restitution = 0;          ///< normal bounce in the velocity pass, [0, 1]
    std::uint64_t userData = 0;
};

/// |x_a - x_b| = restLength, with compliance alpha [m/N] (0: rigid). A negative
/// rest length means "as the particles are now".
struct DistanceConstraintDesc {
    ParticleId a, b;
    real restLength = -1;
    real compliance = 0;
};

/// Holds a particle at a point fixed in the world (target.body null) or on a body
/// (target.point in the body-origin frame, where its colliders are placed). The particle is pulled
/// to within restLength of it with compliance [m/N]. With a dynamic body the pull is
/// shared between particle and body by their generalized inverse masses.
struct ParticleAttachmentDesc {
    ParticleId particle;
    Attachment target;
    real restLength = 0;
    real compliance = 0;
};

/// How the layer solves its constraints.
enum class ParticleSolver : std::uint8_t {
    /// Default. XPBD: each constraint keeps its multiplier lambda over the substep's
    /// iterations and is exactly as stiff as its compliance says, whatever the
    /// substep or iteration count (survey eq. 22-24).
    XPBD,
    /// Müller 2007: every distance constraint has stiffness `pbdStiffness` k in (0, 1],
    /// corrected for the iteration count n as k' = 1 - (1 - k)^(1/n) so the result
    /// does not depend on n (seeds/002); compliance is ignored.
    PBD,
};

/// How a small step predicts and turns positions into velocities.
enum class ParticleIntegrator : std::uint8_t {
    /// Default. The implicit Euler of PBD (survey eq. 11-16): p = x + h v + h^2 a,
    /// v = (p - x) / h. First order: it damps oscillations by 1 / sqrt(1 + (omega h)^2)
    /// per step.
    Euler,
    /// BDF2, second order (survey eq. 17-21, [EB08]): p from the last two steps,
    /// x~ = 4/3 x^n - 1/3 x^(n-1) + 8/9 h v^n - 2/9 h v^(n-1) + 4/9 h^2 a, constraints
    /// as if the step were 2/3 h (M (x - x~) = 4/9 h^2 f), and
    /// v = (3/2 x^(n+1) - 2 x^n + 1/2 x^(n-1)) / h. Much less numerical damping; exact
    /// for a projectile. Assumes equal small steps (a changed dt starts no new history).
    BDF2,
};

struct ParticleSettings {
    ParticleSolver solver = ParticleSolver::XPBD;
    ParticleIntegrator integrator = ParticleIntegrator::Euler;
    /// Substeps of each world (sub)step: the default spends the work on small steps
    /// rather than iterations (Macklin 2019), which converges better per unit of work.
    int substeps = 10;
    /// Gauss-Seidel sweeps per substep. 2 by default: with 1, a cloth of zero-compliance
    /// constraints that folds onto a shape (64 x 64 onto a sphere, 32 x 32 hanging onto
    /// the ground) gained energy until it blew up, at 20, 40 and 80 substeps alike; with
    /// 2 x 10 it settles (docs/particles.md).
    int iterations = 2;
    /// Sweeps over the rigid distance constraints (compliance 0, such as a cloth's stretch
    /// links) in each iteration, after the one over the compliant ones (shear, bending).
    /// Each extra sweep costs about a third of the distance sweep and takes the strain
    /// that the nearly rigid shear and bending links push into the stretch links: a cloth
    /// draped on a sphere (cloth64, 10 x 2) keeps its worst stretch link 3.9 % long at 2
    /// against 8.3 % at 1, where a third iteration gives 7.5 % (docs/particles.md). [1, 100];
    /// XPBD only (PBD's pbdStiffness is per iteration: more sweeps would stiffen it).
    int rigidSweeps = 1;
    /// Groups of distance constraints that close no loop (ropes, chains, hair) are
    /// solved exactly each iteration instead of by Gauss-Seidel, so a heavy weight on
    /// a light rope does not stretch it (Deul et al. 2018). Loops (cloth) stay
    /// Gauss-Seidel.
    bool directChains = true;
    /// Straight runs of rigid distance links (a cloth's rows and columns, where
    /// directChains leaves them) are solved a line at a time, each exactly (the Thomas
    /// algorithm on its tridiagonal system), after the other rigid links in every rigid
    /// sweep: a correction then crosses the whole line in one visit instead of one link
    /// per sweep. cloth64 (10 x 2) keeps its worst stretch link 2.2 % long instead of
    /// 8.3 % (docs/particles.md, "Lines"). The lines are found from the links' topology
    /// alone; a run between two pinned particles stays with the point sweep (its system is
    /// singular when straight). XPBD only (PBD's pbdStiffness is a per-sweep fraction,
    /// not an exact solve).
    bool solveLines = true;
    real pbdStiffness = 1;              ///< PBD only: k in (0, 1] for every distance constraint
    /// After each sweep over the internal constraints, give each free group of particles
    /// (joined by internal constraints, none pinned) back the angular momentum the sweep
    /// took or gave by a small rigid turn (physics/particles/conserve_momentum.cpp).
    /// Gauss-Seidel's corrections are torque-free where each is evaluated, not about the
    /// positions the step started from; without this, a spinning body slows and a
    /// balloon at over-pressure spins itself up.
    bool keepAngularMomentum = true;
    /// Velocity damping: v *= exp(-damping h) each substep [1/s]. 0 by default (XPBD
    /// substeps lose little energy of their own).
    real damping = 0;
    /// A particle that starts a small step within its radius plus its step's travel plus
    /// this of a shape gets a contact (the closest point's tangent plane) even when its
    /// own path misses: constraints may pull it in during the projection [m].
    real contactMargin = real(0.01);
    /// Speed below which a particle contact does not bounce [m/s] (as the rigid
    /// resolver's restitutionThreshold, Millington's velocityLimit).
    real restitutionThreshold = real(0.25);
};

/// A distance constraint as the solver keeps it: particle slots, rest length,
/// compliance and the multiplier of the last substep (force = lambda / h^2).
struct DistanceConstraint {
    std::uint32_t a = 0, b = 0;
    real restLength = 0;
    real compliance = 0;
    real lambda = 0;
};

struct ParticleAttachment {
    std::uint32_t particle = 0;
    Attachment target;          ///< body handle (null: world) and the point in its frame
    real restLength = 0;
    real compliance = 0;
    real lambda = 0;
};

/// Every particle in flat arrays, indexed by slot (a ParticleId's index). Slots of
/// removed particles stay in the arrays with alive 0 and are reused last-in first-out.
struct ParticleSystem {
    std::vector<Vec3> x;            ///< position at the start of the substep
    std::vector<Vec3> p;            ///< predicted position, moved by the projection
    std::vector<Vec3> v;            ///< velocity
    std::vector<real> w;            ///< inverse mass (0: pinned)
    std::vector<real> radius;
    std::vector<std::uint32_t> group;
    std::vector<real> staticFriction;
    std::vector<real> kineticFriction;
    std::vector<real> restitution;
    std::vector<std::uint64_t> userData;
    std::vector<Vec3> force;        ///< applied through the API for the next step [N]
    std::vector<Aabb> fatBox;       ///< the broad phase's box (see fattenAabb)
    std::vector<std::uint8_t> asleep; ///< 1: its island sleeps (it stays where it is)
    std::vector<real> motion;       ///< recency-weighted v.v, as a body's (Millington ch. 16)
    /// BDF2's history (kept by either integrator): the mean velocity of the last small
    /// step, (x^n - x^(n-1)) / h, and the velocity before it, v^(n-1). hasHistory 0
    /// (new, set or woken particles) starts it afresh from v and the applied acceleration.
    std::vector<Vec3> stepVelocity;
    std::vector<Vec3> previousVelocity;
    std::vector<std::uint8_t> hasHistory;
    SlotArray<char, ParticleTag> slots; ///< handles and liveness (the char is unused)

    SlotArray<DistanceConstraint, DistanceConstraintTag> distances;
    SlotArray<ParticleAttachment, ParticleAttachmentTag> attachments;
    SlotArray<ParticleConstraint, ParticleConstraintTag> constraints; ///< bending, volume, area
    SlotArray<ParticleVolume, ParticleVolumeTag> volumes;             ///< closed meshes
    SlotArray<ParticleCluster, ParticleClusterTag> clusters;          ///< shape matching, rigid damping
    SlotArray<ParticleSurface, ParticleSurfaceTag> surfaces;          ///< collision meshes (cloth self-collision)
    SlotArray<ParticleHierarchy, ParticleHierarchyTag> hierarchies;   ///< hierarchical PBD levels

    /// Bumped whenever particles or internal constraints come or go (the direct
    /// solver's groups and the free groups are rebuilt from it).
    std::uint64_t topologyVersion = 0;
    /// Free groups: particles joined by internal constraints with none pinned, each
    /// group's slots members[groupStart[g] .. groupStart[g + 1]) (conserve_momentum.cpp).
    struct FreeGroups {
        std::uint64_t builtFor = ~std::uint64_t(0);
        std::vector<std::uint32_t> groupStart, members;
    } freeGroups;
    std::uint32_t groupsIssued = 65536;  ///< next group World::newParticleGroup() hands out
    /// The step the constraints of the last small step were solved with [s]: its length
    /// h for Euler, 2/3 h for BDF2 (force = lambda / step^2).
    real lastSubstep = 0;

    std::size_t slotCount() const { return slots.slotCount(); }
    bool isAlive(std::size_t i) const { return slots.isAlive(i); }
    /// Alive, not pinned and not asleep: the solver moves it.
    bool moves(std::size_t i) const { return slots.isAlive(i) && w[i] > 0 && !asleep[i]; }
};

/// Particle islands: particles joined by internal constraints, touching each other or
/// touching dynamic bodies, together with the body islands they touch. Pinned particles
/// join nothing (like static bodies). Rebuilt every world substep.
struct ParticleIslands {
    std::vector<std::uint32_t> particles;      ///< particle slots grouped by island
    std::vector<std::uint32_t> particleStarts; ///< island k: particles[particleStarts[k] .. particleStarts[k + 1])
    std::vector<std::uint32_t> bodyIslands;    ///< body islands (contact/'s Islands) grouped likewise
    std::vector<std::uint32_t> bodyIslandStarts;
    std::vector<std::uint32_t> unionFind, islandOf; ///< scratch of groupParticles, kept for its capacity
    /// Each particle's root after the internal links alone, kept while the topology
    /// (ParticleSystem::topologyVersion, which also fixes which particles are pinned)
    /// stays: a step adds only its contacts to them.
    std::vector<std::uint32_t> internalRoot;
    std::uint64_t internalFor = ~std::uint64_t(0);
    std::size_t count() const { return particleStarts.empty() ? 0 : particleStarts.size() - 1; }
};

/// Collision candidates from the shared broad phase, found once per world substep:
/// a particle and a collider, or two particles (slots, a < b).
struct ParticleShapePair {
    std::uint32_t particle = 0;
    ColliderId collider{};
};
struct ParticlePair {
    std::uint32_t a = 0, b = 0;
};
/// A particle near a triangle of a particle surface (not one of its corners).
struct ParticleTrianglePair {
    std::uint32_t particle = 0;
    std::uint32_t surface = 0;  ///< slot in ParticleSystem::surfaces
    std::uint32_t triangle = 0; ///< index in the surface's triangles
};
struct ParticleCandidates {
    std::vector<ParticleShapePair> shapes;
    std::vector<ParticlePair> particles;
    std::vector<ParticleTrianglePair> triangles;
    /// The particles' broad-phase proxies: proxy firstProxy + k holds the particles
    /// members[memberStart[k] .. memberStart[k + 1]) (one for a group-0 particle, every
    /// particle of the group for a non-zero group).
    std::uint32_t firstProxy = 0;
    std::uint32_t endProxy = 0;  ///< one past the particles' last proxy (deformables' follow)
    std::vector<std::uint32_t> memberStart, members;
    /// Per particle proxy, made when a pair needs it (particleCandidates): its members
    /// by their boxes' lowest x, and the widest box along x.
    struct MembersByX {
        std::vector<std::pair<real, std::uint32_t>> byMinX;
        real widest = 0;
    };
    std::vector<MembersByX> byX;
    std::vector<std::uint8_t> byXBuilt;
    /// Awake dynamic bodies that particles may touch or hang on in this world substep
    /// (body slots, sorted). They move in the particle layer's small steps instead of
    /// in one step of the world substep, so a particle's push changes their velocity
    /// as it does the particle's (two-way coupling; coupledMask flags them by slot).
    std::vector<std::uint32_t> coupledBodies;
    std::vector<std::uint8_t> coupledMask;
    /// (particle slot, body slot) of every attachment to a body, sorted: such a pair
    /// makes no contact (particleCandidates).
    std::vector<std::pair<std::uint32_t, std::uint32_t>> attached;
    void clear() {
        shapes.clear();
        particles.clear();
        triangles.clear();
    }
};

/// A particle as the API shows it (a copy of its slot in the flat arrays).
struct Particle {
    Vec3 position = Vec3::Zero();
    Vec3 velocity = Vec3::Zero();
    real inverseMass = 0;
    real radius = 0;
    std::uint32_t group = 0;
    real staticFriction = 0;
    real kineticFriction = 0;
    real restitution = 0;
    std::uint64_t userData = 0;
};

} // namespace jounce
