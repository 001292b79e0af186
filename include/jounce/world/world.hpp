// SPDX-License-Identifier: MIT
#pragma once
/// \file world.hpp
/// The world owns every body and force generator and runs the step. Nothing in
/// Jounce is global: two worlds run side by side, and a test builds one in a line.
///
/// Every public call validates its input first and throws jounce::Error (naming the
/// field and the value) before changing anything: after a throw the world is
/// exactly as it was. With an error handler set (setErrorHandler) no call throws: the
/// handler gets the Error, and the call changes nothing and returns an empty value
/// (docs/integration.md, "Errors without exceptions").

#include <jounce/collision/broad_phase.hpp>
#include <jounce/contact/joint.hpp>
#include <jounce/collision/point_queries.hpp>
#include <jounce/collision/shape_cast.hpp>
#include <jounce/contact/events.hpp>
#include <jounce/contact/islands.hpp>
#include <jounce/contact/resolver.hpp>
#include <jounce/dynamics/body.hpp>
#include <jounce/dynamics/step_context.hpp>
#include <jounce/dynamics/collider.hpp>
#include <jounce/deformable/deformable.hpp>
#include <jounce/common/error.hpp>
#include <jounce/dynamics/force_generators.hpp>
#include <jounce/common/handle.hpp>
#include <jounce/common/math.hpp>
#include <jounce/common/tasks.hpp>
#include <jounce/particles/particles.hpp>

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace jounce {

class ContactResolver;

namespace detail {
struct DirectSolver;
struct ParticleStepScratch;
struct DeformableSolvers;
struct DeformableCandidates;
struct DeformableIslands;
struct StepScratch;
class StepBackup;
struct StateAccess;

/// What a step does to a member of the world's state (World::visitState), and so how a
/// failed step puts it back as it was:
/// - keeps: never changes it;
/// - changes: changes it in place, so the step copies it first (StepBackup);
/// - rebuilds: builds it anew from the old one, which the step sets aside whole at its
///   start (a swap, not a copy: World::step) and swaps back if it fails;
/// - reports: writes it only in its last stage (the events), once it can no longer
///   fail: nothing to put back.
enum class Step : std::uint8_t { keeps, changes, rebuilds, reports };
}

/// Persistent contacts' refresh (docs/contact.md, "Persistent contacts"; Jolt's body
/// pair cache): a collider pair whose relative pose moved less than both bounds since
/// its manifold was found gets that manifold's points placed again on the colliders
/// where they are now, instead of the shape test. 0 in either turns it off. The bounds
/// are tighter than Jolt's (1 mm and 2 degrees): a refreshed point is off by at most half
/// the distance bound. With Millington's resolver set the distance to 1e-5: its
/// worst-first sweeps converge slower on points that lag by 0.1 mm (docs/contact.md has
/// the figures).
struct ContactCacheSettings {
    real distance = real(1e-4); ///< A's position in B's frame moved at most this [m]
    real angle = real(1e-4);    ///< A turned relative to B at most this [rad]
};

/// World settings. Millington's hard-coded values are the defaults.
struct WorldSettings {
    Vec3 gravity = Vec3(0, real(-9.81), 0);          ///< [m/s^2]
    GyroscopicMode gyroscopic = GyroscopicMode::ConserveMomentum;
    real minTimeStep = real(1e-6);  ///< step(dt) rejects dt below this [s]
    real maxTimeStep = 1;           ///< step(dt) rejects dt above this [s]
    int maxSubsteps = 1024;         ///< step(dt, n) rejects n above this
    /// Contacts are reported for shapes up to this far apart: Millington's pessimistic
    /// collision detection (seeds/004 ch. 16) [m].
    real collisionMargin = real(0.01);
    /// The broad phase's boxes are grown by this much, so they change only when a body
    /// has moved that far [m].
    real aabbMargin = real(0.1);
    /// Continuous collision (docs/collision.md, "Fast bodies"): the broad phase's box of a
    /// moving collider covers its path this step, and the narrow phase reports shapes as
    /// far apart as they can close in one step (speculative contacts), so a fast body
    /// stops at a thin wall instead of passing it. Off: only collisionMargin (the
    /// control the tunnelling test compares against).
    bool continuous = true;
    /// Stage 4: when a pair's last manifold is refreshed instead of found again.
    ContactCacheSettings contactCache;
    /// Stage 6: the contact resolver (Millington's constants, the velocity solver).
    ResolverSettings resolver;
    /// Stage 8: sleeping.
    SleepSettings sleep;
    /// The particle layer's solver (particles.hpp).
    ParticleSettings particles;
};

/// Milliseconds spent in each stage of the last step (summed over its substeps).
/// Stages not built yet stay 0; the names follow the step in docs/architecture.md.
struct Profile {
    double backup = 0; ///< the step's copy of what it may change (all or nothing)
    double forces = 0;
    double integrate = 0;
    double broadPhase = 0;
    double narrowPhase = 0;
    double group = 0;
    double resolve = 0;
    double finish = 0;
    double particles = 0;
    /// `particles` in three parts (their sum, give or take the clock's own reads):
    double particleContacts = 0;  ///< the contacts: making, colouring and packing the pairs; each small step's shapes and cloth surfaces
    double particleProject = 0;   ///< the sweeps: their groups, packing, multipliers and angular momentum's start, projecting
    double particleIntegrate = 0; ///< moving coupled bodies, predicting, velocities, bounces
    double deformables = 0;
    double sleep = 0;
    double events = 0; ///< contact and sensor events, the query index
    double total = 0;
};

class World {
public:
    explicit World(const WorldSettings& settings = {});
    /// Installs `onError` first, so bad settings go to it (the world keeps the defaults).
    World(const WorldSettings& settings, ErrorHandler onError);
    World(World&&) noexcept;
    World& operator=(World&&) noexcept;
    ~World();

    // ---- Errors ------------------------------------------------------------------
    /// With a handler set, a call that would throw jounce::Error hands it to `onError`
    /// instead, changes nothing, and returns an empty value: a null handle, an empty
    /// container or optional, 0 or false, or a reference to a default-constructed
    /// object (body(), joint(), ...). The error is caught inside the library, so a game
    /// built with -fno-exceptions can use it. Empty (the default): calls throw. Queries
    /// are const and may run on several threads at once: so may the handler then.
    /// Builders that take a World (particle_builders.hpp, deformable_builders.hpp,
    /// addScene) report through it too. Not part of saved state; restoreState keeps it.
    void setErrorHandler(ErrorHandler onError) { errorHandler_ = std::move(onError); }
    const ErrorHandler& errorHandler() const { return errorHandler_; }

    // ---- Bodies ------------------------------------------------------------------
    BodyId createBody(const BodyDesc& desc);
    void destroyBody(BodyId id);          ///< also removes generators attached to it
    bool contains(BodyId id) const { return bodies_.contains(id); }
    /// The body as a game reads it (a copy; origin and centre of mass, see BodyState).
    /// An error for a stale or null handle.
    BodyState body(BodyId id) const;
    std::size_t bodyCount() const { return bodies_.size(); }
    /// Live bodies in index order (the order every stage uses).
    std::vector<BodyId> bodyIds() const;

    /// Moves the body origin to `position` (world frame [m]), the frame BodyDesc::position
    /// gave; the centre of mass follows.
    void setPosition(BodyId id, const Vec3& position);
    /// Turns the body about its origin, which stays put.
    void setOrientation(BodyId id, const Quat& orientation);
    void setLinearVelocity(BodyId id, const Vec3& velocity);
    void setAngularVelocity(BodyId id, const Vec3& velocity);
    /// A kinematic body (a moving platform, a door on rails, an animated bone) reaches
    /// `target` (its body-origin pose, as BodyDesc::position and orientation) at the end
    /// of the next step: the step gives it the linear and angular velocity that take it
    /// there over its dt (so what rides on it is carried, and stays awake) and places it
    /// on the target exactly at the end. The velocities stay after it (call again each
    /// step to follow a path; set them to zero to stop). setPosition, setOrientation or
    /// setting a velocity before the step drops the pending target. Throws jounce::Error naming the
    /// field for a body that is not kinematic, a target beyond maxCoordinate or a non-unit
    /// orientation; step() refuses (step.dt) a target farther than maxSpeed allows in dt.
    void moveKinematic(BodyId id, const Transform& target);
    void setDamping(BodyId id, real linear, real angular);
    void setGravityScale(BodyId id, real scale);
    /// A dynamic body's motion locks (MotionLocks, world axes): its velocities lose their
    /// locked parts now, its inverse inertia the locked axes, and it is woken. Only for
    /// dynamic bodies (setMotionLocks.id otherwise).
    void setMotionLocks(BodyId id, const MotionLocks& locks);
    void setMassProperties(BodyId id, real mass, const Mat3& inertia);
    void setAwake(BodyId id, bool awake);
    void setUserData(BodyId id, std::uint64_t data);
    /// Always sweep this body for continuous collision (BodyDesc::bullet).
    void setBullet(BodyId id, bool bullet);

    /// Forces through the API act for the whole next step() and wake the body.
    void applyForce(BodyId id, const Vec3& force);
    /// A force at a world point also adds the torque (p - x) x f.
    void applyForceAtPoint(BodyId id, const Vec3& force, const Vec3& worldPoint);
    void applyTorque(BodyId id, const Vec3& torque);
    /// Instant change of momentum at a world point: dv = J/m, dw = I^-1 (r x J).
    void applyImpulse(BodyId id, const Vec3& impulse, const Vec3& worldPoint);

    // ---- Colliders -----------------------------------------------------------------
    /// Attaches a shape to a body. A dynamic body that takes its mass from colliders has
    /// its mass, inertia and centre of mass recomputed (its origin stays put).
    ColliderId createCollider(BodyId body, const ColliderDesc& desc);
    void destroyCollider(ColliderId id);
    bool contains(ColliderId id) const { return colliders_.contains(id); }
    const Collider& collider(ColliderId id) const;
    /// Live colliders in index order.
    std::vector<ColliderId> colliderIds() const;
    /// The colliders of one body, in index order.
    std::vector<ColliderId> colliderIdsOf(BodyId body) const;
    /// World pose of a collider's shape.
    Transform colliderPose(ColliderId id) const;

    /// A ray cast hit on a collider (ray_cast.hpp conventions).
    struct RayHit {
        BodyId body{};
        ColliderId collider{};
        real fraction = 1; ///< point = from + fraction (to - from)
        Vec3 point = Vec3::Zero();
        Vec3 normal = Vec3::UnitY();
    };
    /// The first collider the segment from -> to enters, if any. Ties in fraction go to
    /// the lower collider index. `filter` says which colliders count (a category mask, a
    /// body to ignore, sensors, a callback: QueryFilter); a stale `filter.ignore` throws
    /// naming rayCast.filter.ignore (shapeCast..., overlap..., closestPoint...).
    ///
    /// Cost of the queries (rayCast*, overlap, closestPoint): the broad phase's R-trees
    /// give the colliders whose fat boxes meet the query's box (the segment's box here),
    /// and only those are tested: logarithmic in the number of colliders, plus the ones
    /// found. Colliders created since the last step are tested too, and so are those of
    /// bodies moved by setPosition or setOrientation since then (found by one pass
    /// over the colliders comparing body handles, until the next step). A world not
    /// stepped since it was made, restored or failed a step, and a query box without
    /// bounds (a half-space's), test every collider. Queries only read the world:
    /// several threads may run them at once.
    std::optional<RayHit> rayCastClosest(const Vec3& from, const Vec3& to, const QueryFilter& filter = {}) const;
    /// Every collider the segment enters, nearest first.
    std::vector<RayHit> rayCastAll(const Vec3& from, const Vec3& to, const QueryFilter& filter = {}) const;
    /// One ray of a batch: the segment from -> to and its category mask.
    struct RayQuery {
        Vec3 from = Vec3::Zero();
        Vec3 to = Vec3::Zero();
        std::uint32_t mask = 0xffffffffu;
    };
    /// Each ray's closest hit, in the batch's order (rayCastClosest's answer for each):
    /// a vehicle's wheels, a sensor fan, an AI's lines of sight. Every ray is checked
    /// first (rayCastBatch.rays[K].from, .to: finite), so a bad one throws before any is
    /// cast. With `tasks` (a game's job system, or a jounce::ThreadPool) the rays are
    /// shared among its workers; the answers are the same for any number of them. Pass
    /// the world's own (tasks()) only from the thread that steps it. Under an error
    /// handler that returns, a bad batch gives an empty vector.
    std::vector<std::optional<RayHit>> rayCastBatch(std::span<const RayQuery> rays, TaskSystem* tasks = nullptr) const;

    /// A shape cast's hit (shape_cast.hpp): where the cast shape, moved from `pose` by
    /// `fraction` of `translation`, first comes within shapeCastSkin (1 mm) of a collider.
    struct ShapeCastHit {
        BodyId body{};
        ColliderId collider{};
        real fraction = 1;           ///< the cast shape's position at the hit: pose.position + fraction * translation
        Vec3 point = Vec3::Zero();   ///< midway between the two surfaces there [world]
        Vec3 normal = Vec3::UnitY(); ///< unit, from the hit collider toward the cast shape (moving along it separates them)
    };
    /// The first collider a convex shape (sphere, capsule, box, hull; not turning) placed at
    /// `pose` meets when moved by `translation`, if any; a collider it overlaps already
    /// is hit at fraction 0. Ties in fraction go to the lower collider index; `filter` as
    /// for ray casts. Throws jounce::Error naming the field (shapeCast.shape, .pose...,
    /// .translation) for a non-convex or invalid shape, non-finite numbers or a
    /// translation beyond maxCoordinate.
    std::optional<ShapeCastHit> shapeCastClosest(const Shape& shape, const Transform& pose, const Vec3& translation,
                                                 const QueryFilter& filter = {}) const;
    /// Every collider the cast meets, nearest first (each at its own first contact).
    std::vector<ShapeCastHit> shapeCastAll(const Shape& shape, const Transform& pose, const Vec3& translation,
                                           const QueryFilter& filter = {}) const;

    /// Colliders overlapping `shape` placed at `pose` (touching counts), in index order.
    std::vector<ColliderId> overlap(const Shape& shape, const Transform& pose, const QueryFilter& filter = {}) const;

    struct ClosestPoint {
        BodyId body{};
        ColliderId collider{};
        PointProximity proximity; ///< signed distance, surface point and normal
    };
    /// The collider surface nearest to `point` within `maxDistance` (a point inside a
    /// collider is nearest to it, with negative distance). Ties go to the lower index.
    std::optional<ClosestPoint> closestPoint(const Vec3& point, real maxDistance,
                                             const QueryFilter& filter = {}) const;

    /// Contacts found by the last step's narrow phase, in a deterministic order (by
    /// broad-phase pair). This is also the debug-draw stream: points, normals, depths.
    const std::vector<ContactManifold>& contacts() const { return contacts_; }

    /// The contact points the resolver worked on in the last substep, grouped by
    /// island (awake islands only), with the impulses it applied (accumulatedImpulse,
    /// contact frame; `body` holds body slot indices). The soft step's coloured blocks
    /// write theirs on the first call after a step (a step whose contacts nobody reads
    /// does not write them), from what the blocks keep: their anchors (`relative`) and
    /// closing velocities (`velocity`) to the blocks' float precision. Safe to call from
    /// several threads at once between steps; empty after a step that failed once it had
    /// begun (one refused before it began, for a bad time step, leaves the last list).
    const std::vector<Contact>& resolvedContacts() const;
    /// How many contacts resolvedContacts() lists, without writing them: a step whose
    /// islands the coloured blocks solved alone holds no contact list until it is read.
    std::size_t resolvedContactCount() const;
    /// The islands of the last substep: their bodies. They are built over the
    /// manifolds' and joints' body pairs (as links), so `contactOrder` and
    /// `contactStarts` stay empty; the contacts of the awake islands are
    /// resolvedContacts(), in island order.
    const Islands& islands() const { return islands_; }
    /// Iterations used and penetrations before and after, last substep.
    const ResolverStats& resolverStats() const;
    /// Sees every resolution record during step() (see ResolutionRecord). Empty: none.
    void setResolverObserver(std::function<void(const ResolutionRecord&)> observer);
    /// What touched what in the last step (begin, persist, end; see ContactEvent).
    const ContactEvents& contactEvents() const { return contactEvents_; }
    /// Sensor overlaps that began and ended in the last step, and all current ones.
    const SensorEvents& sensorEvents() const { return sensorEvents_; }
    /// Shares each step among `threads` workers of Jounce's own pool (ThreadPool,
    /// jounce/common/tasks.hpp): the calling thread and threads - 1 std::threads. 1 (the
    /// default): the calling thread alone. A step's result is the same bits for any
    /// count. threads: 1 to 256; anything else is an error naming "threads".
    void setThreads(std::uint32_t threads);
    /// Shares each step with the game's own job system instead (not owned: it must
    /// outlive the world, or be replaced first; nullptr: the calling thread alone).
    void setTaskSystem(TaskSystem* tasks);
    /// Workers the step may use (1 without a task system).
    std::uint32_t threads() const { return tasks() ? tasks()->workerCount() : 1; }
    /// Vetoes pairs before the narrow phase tests them (empty: none vetoed).
    void setContactFilter(ContactFilter filter) { contactFilter_ = std::move(filter); }
    /// Sees each pair's contact every substep before the solver (ContactModification): it
    /// may turn the pair off for that substep (a one-way platform: off while the body
    /// comes from below) or set its friction and restitution (ice on one face, a
    /// trampoline). Called on the stepping thread in pair order; bodies' contacts only
    /// (not particles' or deformables'); empty: none. A friction that is not finite and
    /// >= 0, or a restitution outside [0, 1], makes the step throw naming
    /// contactModifier.friction or .restitution (friction at most maxRate), with the
    /// world restored. It may read the world (body(), joint(), ...) but not change it:
    /// setters, creating or destroying anything and step() throw while the world steps.
    /// Not part of a snapshot (as the filter and observer).
    void setContactModifier(ContactModifier modifier) { contactModifier_ = std::move(modifier); }

    /// Contact points dropped in the last step because their data was not finite.
    const std::vector<std::string>& contactErrors() const { return contactErrors_; }

    // ---- Force generators --------------------------------------------------------
    ForceGeneratorId createForceGenerator(const ForceGenerator& generator);
    void setForceGenerator(ForceGeneratorId id, const ForceGenerator& generator);
    void destroyForceGenerator(ForceGeneratorId id);
    bool contains(ForceGeneratorId id) const { return generators_.contains(id); }
    const ForceGenerator& forceGenerator(ForceGeneratorId id) const;
    std::vector<ForceGeneratorId> forceGeneratorIds() const;

    // ---- Joints, cables and rods (joint.hpp) -------------------------------------
    /// Joins a.body (required) to b.body, or to the world when b.body is null. The
    /// bodies wake. Throws jounce::Error naming the field for a bad desc.
    JointId createJoint(const JointDesc& desc);
    void destroyJoint(JointId id); ///< wakes the bodies it joined
    bool contains(JointId id) const { return joints_.contains(id); }
    const Joint& joint(JointId id) const;
    std::vector<JointId> jointIds() const { return joints_.ids(); }
    /// The largest force one of its point pairs carried in the last substep [N] (what
    /// breakForce is compared with): a hanging 2 kg box pulls 19.6 N.
    real jointForce(JointId id) const { return joint(id).force; }
    /// A hinge's, slider's, swing-twist, wheel or distance joint's limits, motor, spring
    /// and friction (JointMotion), changed: a door's motor turned on, a wheel's speed set.
    /// The bodies wake; the rows keep their warm start. Throws jounce::Error naming the
    /// field (setJointMotion.motion.lower, ...) for another joint or a motion out of
    /// range, and changes nothing.
    void setJointMotion(JointId id, const JointMotion& motion);
    /// A wheel joint's suspension (JointDesc::suspension) changed, as setJointMotion.
    void setJointSuspension(JointId id, const JointMotion& suspension);
    /// A swing-twist joint's swing drive (JointDesc::swingDrive, a spring) and where it
    /// points A's twist axis (swingTarget, B's frame; zero: along axisB), changed: a
    /// ragdoll's pose drive retargeted, or turned off with a default JointMotion. Throws
    /// jounce::Error naming the field (setJointSwingDrive.swingDrive...) and changes nothing.
    void setJointSwingDrive(JointId id, const JointMotion& drive, const Vec3& target);
    /// A 6-DOF joint's axis `axis` (SixDofAxis, 0-5) moving as `motion` says (its
    /// limits, motor, spring, friction), as setJointMotion: a crane's winch started, a
    /// drive's target moved. A locked axis stays locked (unlocking is a new joint).
    /// Throws jounce::Error naming the field (setJointDofMotion.axis, ...motion...) and
    /// changes nothing.
    void setJointDofMotion(JointId id, int axis, const JointMotion& motion);
    /// A 6-DOF joint's coordinate along or about `axis` (SixDofAxis) now: A's anchor's
    /// offset from B's along B's frame axis [m], or the Euler angle of A's frame in B's
    /// [rad] (JointDesc::dofMotion).
    real jointDofCoordinate(JointId id, int axis) const;
    /// A hinge's (or wheel's) angle now: A's turn relative to B about B's axis from
    /// where the angle is 0 (JointDesc::normalA, normalB: by default the pose it was
    /// made in), in (-pi, pi] [rad]; a swing-twist joint's twist.
    real jointAngle(JointId id) const;
    /// A slider's translation now: A's anchor's offset from B's along B's axis; a
    /// wheel's along its suspension axis; a distance joint's length, the anchors'
    /// distance [m].
    real jointTranslation(JointId id) const;
    /// What a joint's motion rows (limits, motor, spring, friction) carried in the last
    /// substep about or along its axis, on A: a hinge's, swing-twist or wheel joint's
    /// torque [N m], a slider's or distance joint's force [N] (0 for joints without
    /// motion). A wheel's suspension: joint(id).suspensionForce; the torque a joint
    /// carried in all: joint(id).totalTorque.
    real jointTorque(JointId id) const { return joint(id).torque; }
    /// Joints that broke in the last step.
    const JointEvents& jointEvents() const { return jointEvents_; }

    // ---- Particles (particles.hpp) -------------------------------------------------
    ParticleId createParticle(const ParticleDesc& desc);
    void destroyParticle(ParticleId id); ///< also removes its constraints, attachments, and the volumes and clusters it is in
    bool contains(ParticleId id) const { return particles_.slots.contains(id); }
    Particle particle(ParticleId id) const;
    std::size_t particleCount() const { return particles_.slots.size(); }
    std::vector<ParticleId> particleIds() const { return particles_.slots.ids(); }
    void setParticlePosition(ParticleId id, const Vec3& position);
    void setParticleVelocity(ParticleId id, const Vec3& velocity);
    /// Acts for the whole next step() [N]. Setting a particle's position or velocity or
    /// applying a force wakes it (and its island with it).
    void applyParticleForce(ParticleId id, const Vec3& force);
    /// Whether the particle's island sleeps (it does not move until something wakes it).
    bool isParticleAsleep(ParticleId id) const;
    /// A collision group no particle has yet (particles of one non-zero group do not
    /// collide with each other). Counts up from 65536, above small hand-picked numbers.
    std::uint32_t newParticleGroup() { return particles_.groupsIssued++; }
    /// The flat arrays themselves (read only), for drawing and measuring.
    const ParticleSystem& particles() const { return particles_; }

    DistanceConstraintId createDistanceConstraint(const DistanceConstraintDesc& desc);
    void destroyDistanceConstraint(DistanceConstraintId id);
    bool contains(DistanceConstraintId id) const { return particles_.distances.contains(id); }
    const DistanceConstraint& distanceConstraint(DistanceConstraintId id) const;
    std::vector<DistanceConstraintId> distanceConstraintIds() const { return particles_.distances.ids(); }
    void setDistanceCompliance(DistanceConstraintId id, real compliance); ///< [m/N], >= 0
    /// Tension of a distance constraint over the last substep [N]: XPBD's -lambda / h^2
    /// (> 0 pulls the particles together). 0 under PBD, which has no forces.
    real distanceTension(DistanceConstraintId id) const;

    ParticleAttachmentId createParticleAttachment(const ParticleAttachmentDesc& desc);
    void destroyParticleAttachment(ParticleAttachmentId id);
    bool contains(ParticleAttachmentId id) const { return particles_.attachments.contains(id); }
    const ParticleAttachment& particleAttachment(ParticleAttachmentId id) const;
    std::vector<ParticleAttachmentId> particleAttachmentIds() const { return particles_.attachments.ids(); }

    /// Bending, tet volume and triangle area on three or four particles
    /// (particle_constraints.hpp).
    ParticleConstraintId createParticleConstraint(const ParticleConstraintDesc& desc);
    void destroyParticleConstraint(ParticleConstraintId id);
    bool contains(ParticleConstraintId id) const { return particles_.constraints.contains(id); }
    const ParticleConstraint& particleConstraint(ParticleConstraintId id) const;
    std::vector<ParticleConstraintId> particleConstraintIds() const { return particles_.constraints.ids(); }
    /// C now: angle, volume or area minus the rest value (isometric bending: its energy).
    real particleConstraintValue(ParticleConstraintId id) const;

    /// A closed triangle mesh that keeps (pressure times) its volume: a balloon.
    ParticleVolumeId createParticleVolume(const ParticleVolumeDesc& desc);
    void destroyParticleVolume(ParticleVolumeId id);
    bool contains(ParticleVolumeId id) const { return particles_.volumes.contains(id); }
    const ParticleVolume& particleVolume(ParticleVolumeId id) const;
    std::vector<ParticleVolumeId> particleVolumeIds() const { return particles_.volumes.ids(); }
    real enclosedVolume(ParticleVolumeId id) const;          ///< the mesh's volume now [m^3]
    void setVolumePressure(ParticleVolumeId id, real pressure); ///< k_pressure, > 0

    /// Shape matching and rigid-mode damping over a set of particles.
    ParticleClusterId createParticleCluster(const ParticleClusterDesc& desc);
    void destroyParticleCluster(ParticleClusterId id);
    bool contains(ParticleClusterId id) const { return particles_.clusters.contains(id); }
    const ParticleCluster& particleCluster(ParticleClusterId id) const;
    std::vector<ParticleClusterId> particleClusterIds() const { return particles_.clusters.ids(); }

    /// A triangle mesh over one particle group that particles do not pass through
    /// (cloth self-collision, grains on a cloth). Destroying a particle drops its
    /// triangles; the surface goes with its last one.
    ParticleSurfaceId createParticleSurface(const ParticleSurfaceDesc& desc);
    void destroyParticleSurface(ParticleSurfaceId id);
    bool contains(ParticleSurfaceId id) const { return particles_.surfaces.contains(id); }
    const ParticleSurface& particleSurface(ParticleSurfaceId id) const;
    std::vector<ParticleSurfaceId> particleSurfaceIds() const { return particles_.surfaces.ids(); }

    /// Coarse levels of a mesh for hierarchical PBD (Müller 2008), built from its edges.
    /// Destroying one of its particles removes the hierarchy.
    ParticleHierarchyId createParticleHierarchy(const ParticleHierarchyDesc& desc);
    void destroyParticleHierarchy(ParticleHierarchyId id);
    bool contains(ParticleHierarchyId id) const { return particles_.hierarchies.contains(id); }
    const ParticleHierarchy& particleHierarchy(ParticleHierarchyId id) const;
    std::vector<ParticleHierarchyId> particleHierarchyIds() const { return particles_.hierarchies.ids(); }

    // ---- ARAP deformables (deformable.hpp; Choi 2017) -----------------------------
    /// A deformation graph of oriented particles with its render mesh.
    DeformableId createDeformable(const DeformableDesc& desc);
    void destroyDeformable(DeformableId id);
    bool contains(DeformableId id) const { return deformables_.contains(id); }
    const Deformable& deformable(DeformableId id) const;
    std::vector<DeformableId> deformableIds() const { return deformables_.ids(); }
    /// A position or direction handle on one of its vertices (eq. 8-10).
    DeformableHandleId createDeformableHandle(DeformableId id, const DeformableHandleDesc& desc);
    void destroyDeformableHandle(DeformableId id, DeformableHandleId handle);
    /// Moves a handle's target (a point, or a unit direction): no refactorisation.
    void setDeformableHandleTarget(DeformableId id, DeformableHandleId handle, const Vec3& target);
    /// Puts particle `index` at a pose (orientation: its axes E = orientation's matrix,
    /// so R = E E-bar^T) at rest; wakes the deformable.
    void setDeformableParticlePose(DeformableId id, std::size_t index, const Vec3& position, const Quat& orientation);
    /// Gives every particle of it the velocity v (and no spin); wakes it.
    void setDeformableVelocity(DeformableId id, const Vec3& velocity);
    /// The render mesh's vertices and normals now (eq. 1; the normals normalised).
    std::vector<Vec3> deformableVertices(DeformableId id) const;
    std::vector<Vec3> deformableNormals(DeformableId id) const;
    /// What its last step did (residual, worst rotation, factorisations).
    DeformableStats deformableStats(DeformableId id) const;
    /// Whether it sleeps (with the bodies it rests on; anything that moves it wakes it).
    bool isDeformableAsleep(DeformableId id) const { return deformable(id).asleep; }
    /// The first deformable the segment from -> to meets: its skinned render mesh (either
    /// side of a triangle), or its ellipsoids when it has no triangles; `vertex` is the
    /// render vertex nearest the hit, for a handle (the demo's mouse grab).
    struct DeformableRayHit {
        DeformableId deformable{};
        std::uint32_t vertex = 0;
        real fraction = 1;
        Vec3 point = Vec3::Zero();
    };
    std::optional<DeformableRayHit> rayCastDeformables(const Vec3& from, const Vec3& to) const;

    // ---- Settings and the step ---------------------------------------------------
    const WorldSettings& settings() const { return settings_; }
    void setSettings(const WorldSettings& settings);

    /// Advance by dt seconds in `substeps` equal substeps. dt must lie in
    /// [minTimeStep, maxTimeStep] and 1 <= substeps <= maxSubsteps. If a step would
    /// produce a non-finite state (overflow from absurd forces), the world is
    /// restored to its state before the call and jounce::Error names the body.
    void step(real dt, int substeps = 1);

    // ---- Snapshots (docs/integration.md, "Saving and loading") --------------------
    /// The whole state as a binary blob: everything the next steps read (bodies,
    /// shapes, joints, generators, particles and their constraints, deformables, the
    /// warm-start cache, sleep state, event state, settings, handles' generations). A
    /// world restored from it steps bit-identically to this one. The blob carries a
    /// format version and a checksum; it is for the same build (precision) and byte
    /// order. Callbacks (contact filter, resolver observer, error handler) are not part of it.
    std::vector<std::uint8_t> saveState() const;
    /// Replaces this world's state by a blob saveState wrote (in this world or any
    /// other). A truncated, damaged, foreign or wrong-version blob throws jounce::Error
    /// saying what is wrong, and the world is left exactly as it was. Handles saved with
    /// the blob name the same objects again; this world's callbacks stay.
    void restoreState(std::span<const std::uint8_t> blob);

    const Profile& profile() const { return profile_; }
    std::uint64_t stepCount() const { return stepCount_; }
    /// World-space point of an attachment (bodies' points move with them).
    Vec3 attachmentPoint(const Attachment& a) const;

private:
    /// The world's persistent state, declared once: every member a later step reads, in
    /// snapshot order (the order is the format), each with its name and whether a step
    /// changes it. saveState and restoreState write and read it, checkRestored checks it,
    /// step() backs up the members it changes, and the tests hash it
    /// (physics/world/world_state.hpp). A member that keeps state from one step to the next is
    /// added here, with no other list to edit (a new type also needs its io() and its
    /// check: docs/architecture.md, "The world's state"). What is not here is a cache
    /// (rebuilt when missing), scratch (refilled every substep), derived (restoreState
    /// rebuilds it) or the game's (callbacks).
    template <class Self, class Visitor> static void visitState(Self& w, Visitor&& v) {
        using enum detail::Step;
        v("settings", w.settings_, keeps);
        v("bodies", w.bodies_, changes);
        v("colliders", w.colliders_, changes); // only their fat boxes (detail::Saved)
        v("forceGenerators", w.generators_, keeps);
        v("joints", w.joints_, changes);       // forces; breaking removes some
        v("contacts", w.contacts_, rebuilds);  // set aside whole, 0.5 kB a manifold (World::step)
        v("warmStartCache", w.previousContacts_, changes);
        v("sleepingLinks", w.sleepingLinks_, changes);
        v("touching", w.touching_, reports);
        v("near", w.near_, reports);
        v("contactEvents", w.contactEvents_, reports);
        v("sensorEvents", w.sensorEvents_, reports);
        v("jointEvents", w.jointEvents_, changes);
        v("particles", w.particles_, changes);
        v("deformables", w.deformables_, changes);
        v("stepCount", w.stepCount_, keeps);   // counted once the step has succeeded
    }
    friend struct detail::StateAccess;
    void checkRestored() const; ///< a restored state's indices and handles all point at something
    void substep(const StepContext& ctx);
    void stepDeformables(const StepContext& ctx);
    void placeSolvedBodies(const StepContext& ctx); ///< stage 7 after the soft step
    void aimKinematicTargets(real dt, bool apply);  ///< moveKinematic: checked (apply false), then the velocities set
    void landKinematicTargets();                     ///< moveKinematic: each body placed on its target
    void sweepSolvedMotion(real h, bool begin);     ///< continuous collision sweeps the soft step's moves
    void markSweptMotion(std::vector<std::uint8_t>& swept) const; ///< the bodies whose moves it reads
    void restoreBackup(); ///< the state a step changes, as it was before the step (backup_)
    void describeColouredContacts() const; ///< the coloured blocks' contacts, if the last solve left them unwritten
    void settleColouredContacts(); ///< before the manifolds are set aside: written if a callback may read them, else dropped
    void breakJoints(const std::vector<JointId>& broken); ///< removes them, with an event each
    void validateColliderDesc(const ColliderDesc& d, BodyType type, const char* field) const;
    void validateDerivedMass(const std::vector<const Collider*>& colliders, const char* field) const;
    std::vector<const Collider*> collidersOf(BodyId id) const;
    void refreshMassFromColliders(Body& b, BodyId id);
    template <typename Visit> void forEachCollider(const Aabb& region, const QueryFilter& filter, Visit visit) const;
    void validateFilter(const QueryFilter& filter, const char* field) const;
    void checkShapeCast(const Shape& shape, const Transform& pose, const Vec3& translation, const QueryFilter& filter) const;
    void indexQueries(); ///< after a step: which colliders the broad phase's trees do not cover
    void validateGenerator(const ForceGenerator& g, const char* field) const;
    Body& checkedBody(BodyId id, const char* field);
    /// Set for the whole of step(): a contact filter or modifier (called inside it) may
    /// read the world, but what would change it (a body's setter, creating or destroying
    /// bodies, colliders or joints, a nested step, restoreState) throws naming `field`.
    bool stepping_ = false;
    void refuseWhileStepping(const char* field) const;
    void requireLiveBody(BodyId id, const char* field) const;
    void requireLiveParticle(ParticleId id, const char* field) const;
    Deformable& liveDeformable(DeformableId id, const char* field);
    void wakeDeformable(Deformable& d) const;
    /// A triangle's particle slots: three live, different particles (field base[index][corner]).
    std::array<std::uint32_t, 3> triangleSlots(const std::array<ParticleId, 3>& triangle, const char* base, std::size_t index) const;
    void wakeParticle(std::uint32_t slot);

    WorldSettings settings_;
    ErrorHandler errorHandler_;
    SlotArray<Body, BodyTag> bodies_;
    SlotArray<ForceGenerator, ForceGeneratorTag> generators_;
    SlotArray<Collider, ColliderTag> colliders_;
    SlotArray<Joint, JointTag> joints_;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> jointLinks_;   ///< body slots each joint joins
    std::vector<std::pair<std::uint32_t, std::uint32_t>> noCollision_;  ///< sorted body-slot pairs that skip collision
    BroadPhase broadPhase_;
    std::vector<BroadPhaseProxy> proxies_;       ///< one per live collider, in slot order
    std::vector<ColliderId> proxyColliders_;     ///< proxies_[i] belongs to this collider
    /// The queries' use of the trees: colliders whose box has left the one the trees
    /// hold (or that are not in them), bodies the API moved since the last step, and
    /// whether the trees cannot be trusted at all (a new or restored world, a failed step).
    std::vector<ColliderId> unindexed_;
    std::vector<BodyId> movedBodies_;
    bool queriesScanAll_ = true;
    std::vector<ContactManifold> contacts_;
    /// This step's contact points, grouped by island; the coloured blocks' are written
    /// when first read (resolvedContacts: mutable for that alone).
    mutable std::vector<Contact> resolverContacts_;
    std::vector<KeptContact> previousContacts_; ///< last step's, sorted by key, for warm starting
    Islands islands_;
    std::vector<std::uint32_t> islandStarts_;   ///< ranges of resolverContacts_ per awake island
    std::vector<std::pair<std::uint32_t, std::uint32_t>> sleepingLinks_; ///< sleeping bodies that touched when they fell asleep
    std::unique_ptr<ContactResolver> resolver_; ///< the resolver and its scratch (contact/contact_resolver.hpp)
    std::vector<std::string> contactErrors_;    ///< contacts dropped in the last step, and why
    ContactFilter contactFilter_;
    ContactModifier contactModifier_;
    void modifyContacts();                          ///< setContactModifier's callback on each manifold
    ContactEvents contactEvents_;
    std::vector<ContactEvent> touching_;         ///< pairs touching after the last step, sorted by collider index
    std::vector<ContactEvent> near_;             ///< pairs with a speculative manifold (not touching yet) after the last step
    SensorEvents sensorEvents_;
    JointEvents jointEvents_;
    std::vector<SensorEvent> sensorOverlaps_;    ///< the narrow phase's sensor overlaps of this substep
    ParticleSystem particles_;
    ParticleCandidates particleCandidates_;
    ParticleIslands particleIslands_;
    std::vector<std::uint8_t> keepAwake_;        ///< body islands moving particles keep awake
    SlotArray<Deformable, DeformableTag> deformables_;
    std::unique_ptr<detail::DeformableSolvers> deformableSolvers_; ///< cache: each deformable's factorised system
    std::unique_ptr<detail::DeformableCandidates> deformableCandidates_; ///< this substep's deformable-collider pairs
    std::unique_ptr<detail::DeformableIslands> deformableIslands_; ///< this substep's deformables grouped with body islands
    std::unique_ptr<ThreadPool> ownTasks_;      ///< the pool setThreads made
    TaskSystem* gameTasks_ = nullptr;           ///< the game's task system (setTaskSystem), when there is no pool
    /// The task system in use (derived, never stored: a moved-from world must not keep
    /// the pool its successor owns).
    TaskSystem* tasks() const { return ownTasks_ ? ownTasks_.get() : gameTasks_; }
    std::unique_ptr<detail::StepScratch> scratch_; ///< buffers the stages reuse, so a settled step allocates nothing
    std::unique_ptr<detail::DirectSolver> directSolver_; ///< cache: factorisations of acyclic rope groups
    std::unique_ptr<detail::ParticleStepScratch> particleScratch_; ///< the particle solve's buffers, reused
    /// The members visitState marks Step::changes, as they were before this step: a
    /// failed step puts them back (the all-or-nothing rule, bit for bit).
    std::unique_ptr<detail::StepBackup> backup_;
    Profile profile_;
    std::uint64_t stepCount_ = 0;
};

} // namespace jounce
