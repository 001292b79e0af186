// SPDX-License-Identifier: MIT
// The world: owns the arrays and validates every call that changes them (bodies,
// colliders, forces, generators, joints). The step is step.cpp, the queries queries.cpp.

#include <jounce/world/world.hpp>

#include <jounce/collision/narrow_phase.hpp>
#include <jounce/collision/ray_cast.hpp>
#include <jounce/collision/mass_properties.hpp>

#include "physics/deformable/stages.hpp"
#include "common/guard.hpp"
#include "physics/particles/direct_solve.hpp"
#include "physics/particles/stages.hpp"
#include "physics/world/stages.hpp"
#include "common/validate.hpp"
#include "physics/world/world_state.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <limits>
#include <type_traits>
#include <variant>
#include <string>

namespace jounce {
namespace {

using detail::handleText;
using detail::requireLive;
using detail::validateDamping;

void validateBodyDesc(const BodyDesc& d) {
    if (d.type != BodyType::Static && d.type != BodyType::Kinematic && d.type != BodyType::Dynamic)
        throw Error("BodyDesc.type", std::to_string(static_cast<int>(d.type)), "not a BodyType");
    detail::requirePoint(d.position, "BodyDesc.position");
    detail::requireUnit(d.orientation, "BodyDesc.orientation");
    detail::requireSpeed(d.linearVelocity, "BodyDesc.linearVelocity");
    detail::requireSpeed(d.angularVelocity, "BodyDesc.angularVelocity");
    validateDamping(d.linearDamping, d.angularDamping, "BodyDesc.linearDamping", "BodyDesc.angularDamping");
    detail::requireInRange(d.gravityScale, -detail::maxGravityScale, detail::maxGravityScale, "BodyDesc.gravityScale");
    if (d.type == BodyType::Static) {
        if (!d.linearVelocity.isZero(0)) throw Error("BodyDesc.linearVelocity", toText(d.linearVelocity), "must be zero for a static body");
        if (!d.angularVelocity.isZero(0)) throw Error("BodyDesc.angularVelocity", toText(d.angularVelocity), "must be zero for a static body");
    }
    const bool massFromShapes = d.massFromColliders && !d.colliders.empty();
    if (d.type == BodyType::Dynamic && !massFromShapes) {
        detail::requireMass(d.mass, "BodyDesc.mass"); // a dynamic body's: 1/m is used every step
        validateInertia(d.inertia, "BodyDesc.inertia");
    }
}

void setMass(Body& b, real mass, const Mat3& inertia) {
    const Mat3 symmetric = (inertia + inertia.transpose()) / 2;
    b.inertiaBody = symmetric;
    if (b.isDynamic()) {
        b.inverseMass = 1 / mass;
        b.inverseInertiaBody = detail::bodyInverseInertia(inertia);
    } else {
        b.inverseMass = 0;
        b.inverseInertiaBody.setZero();
    }
    b.inverseInertiaWorld = detail::worldInverseInertia(b);
}


const char* typeName(BodyType t) {
    switch (t) {
    case BodyType::Static: return "static";
    case BodyType::Kinematic: return "kinematic";
    case BodyType::Dynamic: return "dynamic";
    }
    return "?";
}

/// Adding `delta` to `sum` must stay finite (a finite input can still overflow it).
void requireAccumulates(const Vec3& sum, const Vec3& delta, const char* field) {
    if (!isFinite(Vec3(sum + delta)))
        throw Error(field, toText(delta), "would overflow the body's accumulated value " + toText(sum));
}

/// The velocity change of an impulse must stay within maxSpeed, linear and angular.
/// Checked before the change is computed, in long double, whose range no product of
/// two reals can overflow: an absurd impulse on a feather-light body is refused, not
/// turned into an infinite velocity (or a floating-point trap) here.
void requireBoundedChange(const Body& b, const Vec3& impulse, const Vec3& arm, const char* field) {
    using Wide = long double;
    const Wide linear = static_cast<Wide>(impulse.cwiseAbs().maxCoeff()) * b.inverseMass;
    const Wide angular = 3 * static_cast<Wide>(b.inverseInertiaWorld.cwiseAbs().maxCoeff()) *
                         static_cast<Wide>(arm.cross(impulse).cwiseAbs().maxCoeff());
    if (linear > detail::maxSpeed || angular > detail::maxSpeed)
        throw Error(field, toText(impulse),
                    "would change the body's velocity by more than maxSpeed = " + toText(detail::maxSpeed));
}

/// What of a description counts toward its body's mass, as a Collider.
Collider massPart(const ColliderDesc& c) {
    Collider part;
    part.shape = c.shape;
    part.local = c.local;
    part.density = c.density;
    return part;
}

} // namespace

World::World(const WorldSettings& settings)
    : resolver_(std::make_unique<ContactResolver>()),
      deformableSolvers_(std::make_unique<detail::DeformableSolvers>()),
      deformableCandidates_(std::make_unique<detail::DeformableCandidates>()),
      deformableIslands_(std::make_unique<detail::DeformableIslands>()),
      scratch_(std::make_unique<detail::StepScratch>()),
      directSolver_(std::make_unique<detail::DirectSolver>()),
      particleScratch_(std::make_unique<detail::ParticleStepScratch>()),
      backup_(std::make_unique<detail::StepBackup>()) {
    setSettings(settings);
}

World::World(const WorldSettings& settings, ErrorHandler onError) : World() {
    errorHandler_ = std::move(onError);
    setSettings(settings);
}

const std::vector<Contact>& World::resolvedContacts() const {
    describeColouredContacts();
    return resolverContacts_;
}

std::size_t World::resolvedContactCount() const {
    if (scratch_ && scratch_->contactsPending.load(std::memory_order_acquire)) return scratch_->soft.placeCount();
    return resolverContacts_.size();
}

void World::describeColouredContacts() const {
    if (!scratch_) return; // a moved-from world: nothing to write
    detail::StepScratch& s = *scratch_;
    if (!s.contactsPending.load(std::memory_order_acquire)) return;
    const std::lock_guard<std::mutex> lock(s.describing); // two readers at once: one writes them
    if (!s.contactsPending.load(std::memory_order_relaxed)) return;
    // A step whose blocks took every island gathered no contact: every place is theirs.
    if (resolverContacts_.size() != s.soft.placeCount()) resolverContacts_.resize(s.soft.placeCount());
    s.soft.describeColoured(resolverContacts_, contacts_);
    s.contactsPending.store(false, std::memory_order_release);
}

const ResolverStats& World::resolverStats() const {
    return settings_.resolver.solver == ContactSolver::SoftStep ? scratch_->soft.stats() : resolver_->stats();
}

void World::setResolverObserver(std::function<void(const ResolutionRecord&)> observer) {
    scratch_->soft.setObserver(observer);
    resolver_->setObserver(std::move(observer));
}

void World::setThreads(std::uint32_t threads) { return detail::guarded(errorHandler_, [&] {
    if (threads < 1 || threads > 256) throw Error("threads", std::to_string(threads), "must be 1 to 256");
    if (threads == 1) {
        gameTasks_ = nullptr;
        ownTasks_.reset();
        return;
    }
    if (ownTasks_ && ownTasks_->workerCount() == threads) return;
    auto pool = std::make_unique<ThreadPool>(threads); // may fail: the world is unchanged then
    gameTasks_ = nullptr;
    ownTasks_ = std::move(pool);
}); }

void World::setTaskSystem(TaskSystem* tasks) {
    gameTasks_ = tasks;
    ownTasks_.reset();
}

/// step(dt, n) takes n up to maxSubsteps: a million substeps is already minutes of work.
constexpr int maxSubstepsBound = 1 << 20;

void World::setSettings(const WorldSettings& s) { return detail::guarded(errorHandler_, [&] {
    // Every number gets a bound a game never reaches, as the setters' inputs do
    // (common/validate.hpp): a snapshot or scene file brings settings in too, and a
    // finite 1e200 m margin or gravity overflows the first square taken of it.
    const auto requireLength = [](real x, const char* field) { detail::requireInRange(x, 0, detail::maxCoordinate, field); };
    const auto requireSpeedBound = [](real x, const char* field) { detail::requireInRange(x, 0, detail::maxSpeed, field); };
    detail::requireWithin(s.gravity, detail::maxAcceleration, "maxAcceleration", "WorldSettings.gravity");
    if (s.gyroscopic != GyroscopicMode::ConserveMomentum && s.gyroscopic != GyroscopicMode::Explicit &&
        s.gyroscopic != GyroscopicMode::None)
        throw Error("WorldSettings.gyroscopic", std::to_string(static_cast<int>(s.gyroscopic)), "not a GyroscopicMode");
    detail::requirePositive(s.minTimeStep, "WorldSettings.minTimeStep");
    detail::requirePositive(s.maxTimeStep, "WorldSettings.maxTimeStep");
    if (s.maxTimeStep > 1) throw Error("WorldSettings.maxTimeStep", toText(s.maxTimeStep), "must be at most 1 s");
    if (s.maxTimeStep < s.minTimeStep)
        throw Error("WorldSettings.maxTimeStep", toText(s.maxTimeStep), "must be >= minTimeStep " + toText(s.minTimeStep));
    if (s.maxSubsteps < 1 || s.maxSubsteps > maxSubstepsBound)
        throw Error("WorldSettings.maxSubsteps", std::to_string(s.maxSubsteps),
                    "must lie in [1, " + std::to_string(maxSubstepsBound) + "]");
    // The margin is the time of impact's target distance and the speculative contacts'
    // reach: at 0, the first step with a fast body threw an error naming
    // timeOfImpact.target, a parameter no game sets.
    requireLength(s.collisionMargin, "WorldSettings.collisionMargin");
    if (!(s.collisionMargin > 0))
        throw Error("WorldSettings.collisionMargin", toText(s.collisionMargin), "must be > 0 (a distance in metres)");
    requireLength(s.aabbMargin, "WorldSettings.aabbMargin");
    requireLength(s.contactCache.distance, "WorldSettings.contactCache.distance");
    detail::requireInRange(s.contactCache.angle, 0, std::numbers::pi_v<real>, "WorldSettings.contactCache.angle");
    const ResolverSettings& r = s.resolver;
    requireSpeedBound(r.restitutionThreshold, "WorldSettings.resolver.restitutionThreshold");
    detail::requireInRange(r.maxProjectionAngle, 0, detail::maxRate, "WorldSettings.resolver.maxProjectionAngle");
    requireLength(r.penetrationTolerance, "WorldSettings.resolver.penetrationTolerance");
    requireSpeedBound(r.velocityTolerance, "WorldSettings.resolver.velocityTolerance");
    const auto requireCount = [](int n, const char* field) {
        if (n < 0 || n > 1000000) throw Error(field, std::to_string(n), "must lie in [0, 1000000]");
    };
    // The solvers' iteration counts: at 0 a solver does nothing and bodies fall through
    // the ground or sink into each other, so each needs one at least. The shock pass
    // may be 0 (the velocity levels skipped; shockPropagation turns all of it off).
    const auto requireIterations = [](int n, const char* field) {
        if (n < 1 || n > 1000000) throw Error(field, std::to_string(n), "must lie in [1, 1000000]");
    };
    requireIterations(r.positionIterationsPerContact, "WorldSettings.resolver.positionIterationsPerContact");
    requireIterations(r.velocityIterationsPerContact, "WorldSettings.resolver.velocityIterationsPerContact");
    requireIterations(r.sequentialIterations, "WorldSettings.resolver.sequentialIterations");
    requireIterations(r.sequentialPositionIterations, "WorldSettings.resolver.sequentialPositionIterations");
    requireCount(r.shockIterations, "WorldSettings.resolver.shockIterations");
    detail::requireInRange(r.projectionRelaxation, 0, 1, "WorldSettings.resolver.projectionRelaxation");
    if (!(r.projectionRelaxation > 0)) // 0 removes no penetration at all
        throw Error("WorldSettings.resolver.projectionRelaxation", toText(r.projectionRelaxation), "must be > 0");
    requireLength(r.allowedPenetration, "WorldSettings.resolver.allowedPenetration");
    requireSpeedBound(r.sequentialTolerance, "WorldSettings.resolver.sequentialTolerance"); // squared: 1e30 overflowed a float
    requireSpeedBound(r.slidingSpeed, "WorldSettings.resolver.slidingSpeed");
    if (r.positionSolver != PositionSolver::WorstFirst && r.positionSolver != PositionSolver::Sequential)
        throw Error("WorldSettings.resolver.positionSolver", std::to_string(static_cast<int>(r.positionSolver)),
                    "not a PositionSolver");
    if (r.solver != ContactSolver::Resolver && r.solver != ContactSolver::SoftStep)
        throw Error("WorldSettings.resolver.solver", std::to_string(static_cast<int>(r.solver)), "not a ContactSolver");
    const SoftStepSettings& soft = r.soft;
    if (soft.substeps < 1 || soft.substeps > 1000)
        throw Error("WorldSettings.resolver.soft.substeps", std::to_string(soft.substeps), "must lie in [1, 1000]");
    if (soft.jointSubsteps < 1 || soft.jointSubsteps > 1000)
        throw Error("WorldSettings.resolver.soft.jointSubsteps", std::to_string(soft.jointSubsteps), "must lie in [1, 1000]");
    if (soft.relaxIterations < 0 || soft.relaxIterations > 1000)
        throw Error("WorldSettings.resolver.soft.relaxIterations", std::to_string(soft.relaxIterations),
                    "must lie in [0, 1000]");
    // Stiffness is held to a share of the substep rate anyway; beyond maxRate a number is
    // a typo. A damping ratio of 0 is an undamped spring: allowed, if bouncy.
    detail::requireInRange(soft.contactHertz, 0, detail::maxRate, "WorldSettings.resolver.soft.contactHertz");
    detail::requireInRange(soft.jointHertz, 0, detail::maxRate, "WorldSettings.resolver.soft.jointHertz");
    if (!(soft.contactHertz > 0)) // 0 would push nothing out
        throw Error("WorldSettings.resolver.soft.contactHertz", toText(soft.contactHertz), "must be > 0");
    if (!(soft.jointHertz > 0))
        throw Error("WorldSettings.resolver.soft.jointHertz", toText(soft.jointHertz), "must be > 0");
    detail::requireInRange(soft.contactDampingRatio, 0, detail::maxRate, "WorldSettings.resolver.soft.contactDampingRatio");
    detail::requireInRange(soft.jointDampingRatio, 0, detail::maxRate, "WorldSettings.resolver.soft.jointDampingRatio");
    requireSpeedBound(soft.maxPushOut, "WorldSettings.resolver.soft.maxPushOut");
    detail::requireInRange(soft.holdMassRatio, 0, detail::maxRate, "WorldSettings.resolver.soft.holdMassRatio");
    if (soft.holdMassRatio != 0 && soft.holdMassRatio < 1) // below 1 no two masses are "the same"
        throw Error("WorldSettings.resolver.soft.holdMassRatio", toText(soft.holdMassRatio), "must be 0 (off) or >= 1");
    if (r.velocitySolver != VelocitySolver::WorstFirst && r.velocitySolver != VelocitySolver::SequentialImpulses)
        throw Error("WorldSettings.resolver.velocitySolver", std::to_string(static_cast<int>(r.velocitySolver)),
                    "not a VelocitySolver");
    const ParticleSettings& ps = s.particles;
    if (ps.solver != ParticleSolver::XPBD && ps.solver != ParticleSolver::PBD)
        throw Error("WorldSettings.particles.solver", std::to_string(static_cast<int>(ps.solver)), "not a ParticleSolver");
    if (ps.integrator != ParticleIntegrator::Euler && ps.integrator != ParticleIntegrator::BDF2)
        throw Error("WorldSettings.particles.integrator", std::to_string(static_cast<int>(ps.integrator)),
                    "not a ParticleIntegrator");
    if (ps.substeps < 1 || ps.substeps > 1000)
        throw Error("WorldSettings.particles.substeps", std::to_string(ps.substeps), "must lie in [1, 1000]");
    if (ps.iterations < 1 || ps.iterations > 1000)
        throw Error("WorldSettings.particles.iterations", std::to_string(ps.iterations), "must lie in [1, 1000]");
    if (ps.rigidSweeps < 1 || ps.rigidSweeps > 100)
        throw Error("WorldSettings.particles.rigidSweeps", std::to_string(ps.rigidSweeps), "must lie in [1, 100]");
    detail::requireInRange(ps.pbdStiffness, 0, 1, "WorldSettings.particles.pbdStiffness");
    if (!(ps.pbdStiffness > 0)) throw Error("WorldSettings.particles.pbdStiffness", toText(ps.pbdStiffness), "must be > 0");
    detail::requireInRange(ps.damping, 0, detail::maxRate, "WorldSettings.particles.damping");
    requireLength(ps.contactMargin, "WorldSettings.particles.contactMargin");
    requireSpeedBound(ps.restitutionThreshold, "WorldSettings.particles.restitutionThreshold");
    detail::requirePositive(s.sleep.sleepThreshold, "WorldSettings.sleep.sleepThreshold");
    if (s.sleep.sleepThreshold > detail::maxSpeed * detail::maxSpeed) // compared with v.v + w.w
        throw Error("WorldSettings.sleep.sleepThreshold", toText(s.sleep.sleepThreshold), "must be at most maxSpeed^2");
    detail::requireInRange(s.sleep.motionBias, 0, 1, "WorldSettings.sleep.motionBias");
    detail::requireInRange(s.sleep.motionCap, 1, 1e6, "WorldSettings.sleep.motionCap");
    settings_ = s;
}); }

// ---- Bodies --------------------------------------------------------------------------

BodyId World::createBody(const BodyDesc& d) { return detail::guarded(errorHandler_, [&] {
    refuseWhileStepping("createBody");
    validateBodyDesc(d);
    for (std::size_t i = 0; i < d.colliders.size(); ++i)
        validateColliderDesc(d.colliders[i], d.type, ("BodyDesc.colliders[" + std::to_string(i) + "]").c_str());
    if (d.type == BodyType::Dynamic && d.massFromColliders && !d.colliders.empty()) {
        std::vector<Collider> parts;
        for (const ColliderDesc& c : d.colliders) parts.push_back(massPart(c));
        std::vector<const Collider*> all;
        for (const Collider& c : parts) all.push_back(&c);
        validateDerivedMass(all, "BodyDesc.colliders");
    }
    Body b;
    b.type = d.type;
    b.position = d.position;
    b.orientation = detail::keptUnit(d.orientation);
    b.linearVelocity = d.type == BodyType::Static ? Vec3::Zero() : d.linearVelocity;
    b.angularVelocity = d.type == BodyType::Static ? Vec3::Zero() : d.angularVelocity;
    b.linearDamping = d.linearDamping;
    b.angularDamping = d.angularDamping;
    b.gravityScale = d.gravityScale;
    b.canSleep = d.canSleep;
    b.awake = d.awake;
    b.motion = 2 * settings_.sleep.sleepThreshold; // Millington: start above the threshold
    b.userData = d.userData;
    b.bullet = d.bullet;
    b.locks = d.type == BodyType::Dynamic ? d.locks : MotionLocks{};
    if (d.type == BodyType::Dynamic) applyLocks(b.locks, b.linearVelocity, b.angularVelocity);
    b.massFromColliders = d.massFromColliders && !d.colliders.empty();
    setMass(b, d.mass, d.type == BodyType::Dynamic && !b.massFromColliders ? d.inertia : Mat3::Identity());
    const BodyId id = bodies_.insert(b);
    for (const ColliderDesc& c : d.colliders)
        unindexed_.push_back(colliders_.insert(Collider{id, c.shape, c.local, c.density, c.material, c.filter, Aabb{}, c.sensor}));
    if (bodies_[id].massFromColliders) refreshMassFromColliders(bodies_[id], id);
    return id;
}); }

void World::validateColliderDesc(const ColliderDesc& c, BodyType type, const char* field) const {
    const std::string f = field;
    validateShape(c.shape, field);
    if (type != BodyType::Static && isStaticOnly(c.shape))
        throw Error(f + ".shape", std::holds_alternative<HalfSpace>(c.shape) ? "HalfSpace" : "TriangleMesh",
                    "half-spaces and meshes are level geometry and belong on static bodies");
    detail::requirePoint(c.local.position, (f + ".local.position").c_str());
    detail::requireUnit(c.local.orientation, (f + ".local.orientation").c_str());
    detail::requireInRange(c.density, detail::minDensity, detail::maxDensity, (f + ".density").c_str());
    // A dynamic body may take its mass from this collider: it must lie in the range of
    // a body's mass (the sum of several is checked when they are added up).
    // (In long double: density times volume must not overflow while it is checked.)
    const long double mass = static_cast<long double>(c.density) * computeVolume(c.shape);
    if (type == BodyType::Dynamic && !(mass >= detail::minMass && mass <= detail::maxMass))
        throw Error(f + ".density", toText(c.density),
                    "gives this collider a mass (density times volume) of " + toText(static_cast<real>(mass)) +
                        " kg, outside [minMass, maxMass] = [" + toText(detail::minMass) + ", " +
                        toText(detail::maxMass) + "]");
    // Its own inertia too: a needle of a capsule can have a mass in range and an axial
    // moment far below minMoment. Several colliders only add inertia (about their common
    // centroid every part's term is positive semi-definite), so the moments of any set
    // of checked colliders are at least those of each.
    if (type == BodyType::Dynamic && !isStaticOnly(c.shape))
        validateInertia(computeMassProperties(c.shape, c.density).inertia, (f + ".shape").c_str());
    detail::validateMaterial(c.material, f + ".material");
}


namespace detail {
void validateMaterial(const Material& m, const std::string& prefix) {
    requireInRange(m.friction, 0, maxRate, (prefix + ".friction").c_str());
    requireInRange(m.restitution, 0, 1, (prefix + ".restitution").c_str());
    requireInRange(m.rollingResistance, 0, maxRate, (prefix + ".rollingResistance").c_str());
    for (const auto& [rule, name] : {std::pair{m.frictionCombine, ".frictionCombine"}, std::pair{m.restitutionCombine, ".restitutionCombine"}})
        if (rule > CombineRule::Max)
            throw Error(prefix + name, std::to_string(static_cast<int>(rule)), "not a CombineRule (Default to Max)");
}
} // namespace detail

/// The mass a dynamic body would take from `colliders` (its own plus one to add):
/// within [minMass, maxMass] and an inertia validateInertia accepts, or an error
/// naming `field`. Each collider alone passed validateColliderDesc; their sum may not.
void World::validateDerivedMass(const std::vector<const Collider*>& colliders, const char* field) const {
    const MassProperties mp = detail::massFromColliders(colliders);
    if (!(mp.mass >= detail::minMass && mp.mass <= detail::maxMass))
        throw Error(field, toText(mp.mass),
                    "the colliders' masses add up to a body mass outside [minMass, maxMass] = [" +
                        toText(detail::minMass) + ", " + toText(detail::maxMass) + "] kg");
    validateInertia(mp.inertia, field);
}

/// Mass, inertia and centre of mass from the body's colliders; the body's origin (where
/// its colliders sit) stays where it was.
std::vector<const Collider*> World::collidersOf(BodyId id) const {
    std::vector<const Collider*> mine;
    for (std::size_t i = 0; i < colliders_.slotCount(); ++i)
        if (colliders_.isAlive(i) && colliders_.atSlot(i).body == id) mine.push_back(&colliders_.atSlot(i));
    return mine;
}

void World::refreshMassFromColliders(Body& b, BodyId id) {
    if (!b.isDynamic() || !b.massFromColliders) return;
    const MassProperties mp = detail::massFromColliders(collidersOf(id));
    if (!(mp.mass > 0)) return; // the last collider went: keep the mass it had
    const Vec3 origin = b.origin().position;
    setMass(b, mp.mass, mp.inertia);
    b.localCentroid = mp.centroid;
    b.position = origin + b.orientation * b.localCentroid;
}

ColliderId World::createCollider(BodyId id, const ColliderDesc& desc) { return detail::guarded(errorHandler_, [&] {
    refuseWhileStepping("createCollider");
    Body& b = checkedBody(id, "createCollider.body");
    validateColliderDesc(desc, b.type, "createCollider.desc");
    if (b.isDynamic() && b.massFromColliders) {
        const Collider added = massPart(desc);
        std::vector<const Collider*> all = collidersOf(id);
        all.push_back(&added);
        validateDerivedMass(all, "createCollider.desc");
    }
    const ColliderId cid = colliders_.insert(Collider{id, desc.shape, desc.local, desc.density, desc.material, desc.filter, Aabb{}, desc.sensor});
    unindexed_.push_back(cid);
    if (b.isDynamic() && b.massFromColliders) movedBodies_.push_back(id); // its origin is recomputed: it may round
    refreshMassFromColliders(b, id);
    b.awake = true;
    b.motion = std::max(b.motion, 2 * settings_.sleep.sleepThreshold);
    return cid;
}); }

std::vector<ColliderId> World::colliderIdsOf(BodyId id) const {
    std::vector<ColliderId> ids;
    for (std::size_t i = 0; i < colliders_.slotCount(); ++i)
        if (colliders_.isAlive(i) && colliders_.atSlot(i).body == id) ids.push_back(colliders_.idOf(i));
    return ids;
}

void World::destroyCollider(ColliderId id) { return detail::guarded(errorHandler_, [&] {
    refuseWhileStepping("destroyCollider");
    requireLive(colliders_, id, "destroyCollider.id", "collider");
    const BodyId owner = colliders_[id].body;
    colliders_.erase(id);
    Body& b = bodies_[owner];
    if (b.isDynamic() && b.massFromColliders) movedBodies_.push_back(owner); // its origin is recomputed: it may round
    refreshMassFromColliders(b, owner);
    b.awake = true;
    b.motion = std::max(b.motion, 2 * settings_.sleep.sleepThreshold);
}); }

const Collider& World::collider(ColliderId id) const { return detail::guarded(errorHandler_, [&]() -> const Collider& {
    requireLive(colliders_, id, "collider.id", "collider");
    return colliders_[id];
}); }

std::vector<ColliderId> World::colliderIds() const { return colliders_.ids(); }

Transform World::colliderPose(ColliderId id) const { return detail::guarded(errorHandler_, [&] {
    const Collider& c = collider(id);
    return bodies_[c.body].origin() * c.local;
}); }

void World::refuseWhileStepping(const char* field) const {
    if (stepping_)
        throw Error(field, "called during step()", "the world cannot change while it steps (a contact filter or modifier may only read it)");
}

Body& World::checkedBody(BodyId id, const char* field) {
    refuseWhileStepping(field);
    requireLiveBody(id, field);
    return bodies_[id];
}

void World::requireLiveBody(BodyId id, const char* field) const { requireLive(bodies_, id, field, "body"); }

BodyState World::body(BodyId id) const { return detail::guarded(errorHandler_, [&] {
    requireLiveBody(id, "body.id");
    return stateOf(bodies_[id]);
}); }

void World::destroyBody(BodyId id) { return detail::guarded(errorHandler_, [&] {
    refuseWhileStepping("destroyBody");
    checkedBody(id, "destroyBody.id");
    for (std::size_t i = 0; i < generators_.slotCount(); ++i) {
        if (!generators_.isAlive(i)) continue;
        bool refers = false;
        std::visit(
            [&](const auto& g) {
                using G = std::decay_t<decltype(g)>;
                if constexpr (std::is_same_v<G, Spring> || std::is_same_v<G, Bungee>)
                    refers = g.a.body == id || g.b.body == id;
                else
                    refers = g.body == id;
            },
            generators_.atSlot(i));
        if (refers) generators_.erase(generators_.idOf(i));
    }
    for (const ColliderId c : colliderIdsOf(id)) colliders_.erase(c);
    for (const ParticleAttachmentId a : particles_.attachments.ids())
        if (particles_.attachments[a].target.body == id) particles_.attachments.erase(a);
    for (const JointId j : joints_.ids()) {
        const JointDesc& d = joints_[j].desc;
        if (d.a.body == id || d.b.body == id) destroyJoint(j);
    }
    bodies_.erase(id);
}); }

std::vector<BodyId> World::bodyIds() const { return bodies_.ids(); }

void World::setPosition(BodyId id, const Vec3& p) { return detail::guarded(errorHandler_, [&] {
    Body& b = checkedBody(id, "setPosition.id");
    b.hasTarget = false; // set by hand: a pending moveKinematic target is dropped
    detail::requirePoint(p, "setPosition.position");
    b.position = p + b.orientation * b.localCentroid; // the origin goes to p; the body keeps its orientation
    movedBodies_.push_back(id); // the trees' boxes of its colliders may no longer hold them
    b.awake = true;
    b.motion = std::max(b.motion, 2 * settings_.sleep.sleepThreshold);
}); }

void World::setOrientation(BodyId id, const Quat& q) { return detail::guarded(errorHandler_, [&] {
    Body& b = checkedBody(id, "setOrientation.id");
    b.hasTarget = false; // set by hand: a pending moveKinematic target is dropped
    detail::requireUnit(q, "setOrientation.orientation");
    // Turns about the body origin, which stays put (the centre of mass moves with the
    // turn when it is off the origin).
    const Vec3 origin = b.origin().position;
    b.orientation = detail::keptUnit(q);
    b.position = origin + b.orientation * b.localCentroid;
    b.inverseInertiaWorld = detail::worldInverseInertia(b);
    movedBodies_.push_back(id);
    b.awake = true;
    b.motion = std::max(b.motion, 2 * settings_.sleep.sleepThreshold);
}); }

void World::setLinearVelocity(BodyId id, const Vec3& v) { return detail::guarded(errorHandler_, [&] {
    Body& b = checkedBody(id, "setLinearVelocity.id");
    b.hasTarget = false; // set by hand: a pending moveKinematic target is dropped
    detail::requireSpeed(v, "setLinearVelocity.velocity");
    if (b.type == BodyType::Static && !v.isZero(0))
        throw Error("setLinearVelocity.velocity", toText(v), "a static body cannot move");
    b.linearVelocity = v;
    if (b.isDynamic()) applyLocks(b.locks, b.linearVelocity, b.angularVelocity); // none along a locked axis
    b.awake = true;
    b.motion = std::max(b.motion, 2 * settings_.sleep.sleepThreshold);
}); }

void World::moveKinematic(BodyId id, const Transform& target) { return detail::guarded(errorHandler_, [&] {
    Body& b = checkedBody(id, "moveKinematic.id");
    if (b.type != BodyType::Kinematic)
        throw Error("moveKinematic.id", handleText(id.index, id.generation), "must name a kinematic body (set a dynamic one's velocity, or apply forces)");
    detail::requirePoint(target.position, "moveKinematic.target.position");
    detail::requireUnit(target.orientation, "moveKinematic.target.orientation");
    b.hasTarget = true;
    b.target = {target.position, detail::keptUnit(target.orientation)};
    b.awake = true;
    b.motion = std::max(b.motion, 2 * settings_.sleep.sleepThreshold);
}); }

void World::setAngularVelocity(BodyId id, const Vec3& w) { return detail::guarded(errorHandler_, [&] {
    Body& b = checkedBody(id, "setAngularVelocity.id");
    b.hasTarget = false; // set by hand: a pending moveKinematic target is dropped
    detail::requireSpeed(w, "setAngularVelocity.velocity");
    if (b.type == BodyType::Static && !w.isZero(0))
        throw Error("setAngularVelocity.velocity", toText(w), "a static body cannot move");
    b.angularVelocity = w;
    if (b.isDynamic()) applyLocks(b.locks, b.linearVelocity, b.angularVelocity);
    b.awake = true;
    b.motion = std::max(b.motion, 2 * settings_.sleep.sleepThreshold);
}); }

void World::setDamping(BodyId id, real linear, real angular) { return detail::guarded(errorHandler_, [&] {
    Body& b = checkedBody(id, "setDamping.id");
    validateDamping(linear, angular, "setDamping.linear", "setDamping.angular");
    b.linearDamping = linear;
    b.angularDamping = angular;
}); }

void World::setGravityScale(BodyId id, real scale) { return detail::guarded(errorHandler_, [&] {
    Body& b = checkedBody(id, "setGravityScale.id");
    detail::requireInRange(scale, -detail::maxGravityScale, detail::maxGravityScale, "setGravityScale.scale");
    b.gravityScale = scale;
}); }

void World::setMotionLocks(BodyId id, const MotionLocks& locks) { return detail::guarded(errorHandler_, [&] {
    Body& b = checkedBody(id, "setMotionLocks.id");
    if (!b.isDynamic())
        throw Error("setMotionLocks.id", handleText(id.index, id.generation), "must name a dynamic body (only they move by forces)");
    b.locks = locks;
    b.inverseInertiaWorld = detail::worldInverseInertia(b);
    applyLocks(b.locks, b.linearVelocity, b.angularVelocity);
    b.awake = true;
    b.motion = std::max(b.motion, 2 * settings_.sleep.sleepThreshold);
}); }

void World::setMassProperties(BodyId id, real mass, const Mat3& inertia) { return detail::guarded(errorHandler_, [&] {
    Body& b = checkedBody(id, "setMassProperties.id");
    if (!b.isDynamic())
        throw Error("setMassProperties.id", handleText(id.index, id.generation),
                    std::string("mass applies to dynamic bodies; this one is ") + typeName(b.type));
    detail::requireMass(mass, "setMassProperties.mass");
    validateInertia(inertia, "setMassProperties.inertia");
    setMass(b, mass, inertia);
    b.massFromColliders = false; // the user's numbers win from now on
}); }

void World::setAwake(BodyId id, bool awake) { return detail::guarded(errorHandler_, [&] {
    Body& b = checkedBody(id, "setAwake.id");
    b.awake = awake;
    if (awake) b.motion = 2 * settings_.sleep.sleepThreshold; // so it does not fall straight back asleep
}); }

void World::setUserData(BodyId id, std::uint64_t data) { detail::guarded(errorHandler_, [&] { checkedBody(id, "setUserData.id").userData = data; }); }

void World::setBullet(BodyId id, bool bullet) { detail::guarded(errorHandler_, [&] { checkedBody(id, "setBullet.id").bullet = bullet; }); }

// Forces on static and kinematic bodies are accepted and ignored, so a game can push
// everything in a blast radius without sorting bodies first.
void World::applyForce(BodyId id, const Vec3& f) { return detail::guarded(errorHandler_, [&] {
    Body& b = checkedBody(id, "applyForce.id");
    detail::requireLoad(f, "applyForce.force");
    if (!b.isDynamic()) return;
    requireAccumulates(b.userForce, f, "applyForce.force");
    b.userForce += f;
    b.awake = true;
    b.motion = std::max(b.motion, 2 * settings_.sleep.sleepThreshold);
}); }

void World::applyForceAtPoint(BodyId id, const Vec3& f, const Vec3& p) { return detail::guarded(errorHandler_, [&] {
    Body& b = checkedBody(id, "applyForceAtPoint.id");
    detail::requireLoad(f, "applyForceAtPoint.force");
    detail::requirePoint(p, "applyForceAtPoint.point");
    if (!b.isDynamic()) return;
    const Vec3 torque = (p - b.position).cross(f);
    requireAccumulates(b.userForce, f, "applyForceAtPoint.force");
    requireAccumulates(b.userTorque, torque, "applyForceAtPoint.force");
    b.userForce += f;
    b.userTorque += torque;
    b.awake = true;
    b.motion = std::max(b.motion, 2 * settings_.sleep.sleepThreshold);
}); }

void World::applyTorque(BodyId id, const Vec3& t) { return detail::guarded(errorHandler_, [&] {
    Body& b = checkedBody(id, "applyTorque.id");
    detail::requireLoad(t, "applyTorque.torque");
    if (!b.isDynamic()) return;
    requireAccumulates(b.userTorque, t, "applyTorque.torque");
    b.userTorque += t;
    b.awake = true;
    b.motion = std::max(b.motion, 2 * settings_.sleep.sleepThreshold);
}); }

void World::applyImpulse(BodyId id, const Vec3& j, const Vec3& p) { return detail::guarded(errorHandler_, [&] {
    Body& b = checkedBody(id, "applyImpulse.id");
    detail::requireLoad(j, "applyImpulse.impulse");
    detail::requirePoint(p, "applyImpulse.point");
    if (!b.isDynamic()) return;
    requireBoundedChange(b, j, p - b.position, "applyImpulse.impulse");
    const Vec3 dv = b.locks.anyLinear() ? Vec3((j * b.inverseMass).cwiseProduct(b.locks.linearFree())) : Vec3(j * b.inverseMass); // MotionLocks
    const Vec3 dw = b.inverseInertiaWorld * (p - b.position).cross(j);
    requireAccumulates(b.linearVelocity, dv, "applyImpulse.impulse");
    requireAccumulates(b.angularVelocity, dw, "applyImpulse.impulse");
    b.linearVelocity += dv;
    b.angularVelocity += dw;
    b.awake = true;
    b.motion = std::max(b.motion, 2 * settings_.sleep.sleepThreshold);
}); }

// ---- Force generators ------------------------------------------------------------

void World::validateGenerator(const ForceGenerator& generator, const char* field) const {
    const std::string f = field;
    auto requireBody = [&](BodyId id, const std::string& name) {
        if (!bodies_.contains(id))
            throw Error(f + name, handleText(id.index, id.generation), "not a live body of this world");
    };
    auto requireAttachment = [&](const Attachment& a, const std::string& name) {
        detail::requirePoint(a.point, (f + name + ".point").c_str());
        if (!a.body.isNull()) requireBody(a.body, name + ".body");
    };
    auto requireSpringLike = [&](const auto& s, const char* kind) {
        requireAttachment(s.a, std::string(".") + kind + ".a");
        requireAttachment(s.b, std::string(".") + kind + ".b");
        if (s.a.body.isNull() && s.b.body.isNull())
            throw Error(f + "." + kind + ".a.body", "null", "at least one end must be on a body");
        if (!s.a.body.isNull() && s.a.body == s.b.body)
            throw Error(f + "." + kind + ".b.body", handleText(s.b.body.index, s.b.body.generation),
                        "both ends on one body exert no net force");
        // Bounded by maxLoad (per metre, per m/s): stiffer explicit springs only explode.
        detail::requireInRange(s.stiffness, 0, detail::maxLoad, (f + "." + kind + ".stiffness").c_str());
        detail::requireNonNegative(s.restLength, (f + "." + kind + ".restLength").c_str());
        detail::requireInRange(s.damping, 0, detail::maxLoad, (f + "." + kind + ".damping").c_str());
    };
    std::visit(
        [&](const auto& g) {
            using G = std::decay_t<decltype(g)>;
            if constexpr (std::is_same_v<G, GravityForce>) {
                requireBody(g.body, ".GravityForce.body");
                detail::requireLoad(g.acceleration, (f + ".GravityForce.acceleration").c_str());
            } else if constexpr (std::is_same_v<G, Spring>) {
                requireSpringLike(g, "Spring");
            } else if constexpr (std::is_same_v<G, Bungee>) {
                requireSpringLike(g, "Bungee");
            } else if constexpr (std::is_same_v<G, Buoyancy>) {
                requireBody(g.body, ".Buoyancy.body");
                detail::requireFinite(g.centreOfBuoyancy, (f + ".Buoyancy.centreOfBuoyancy").c_str());
                detail::requirePositive(g.maxDepth, (f + ".Buoyancy.maxDepth").c_str());
                detail::requirePositive(g.volume, (f + ".Buoyancy.volume").c_str());
                detail::requireFinite(g.waterHeight, (f + ".Buoyancy.waterHeight").c_str());
                detail::requirePositive(g.liquidDensity, (f + ".Buoyancy.liquidDensity").c_str());
            } else if constexpr (std::is_same_v<G, Aero>) {
                requireBody(g.body, ".Aero.body");
                detail::requireFinite(g.point, (f + ".Aero.point").c_str());
                detail::requireFinite(g.wind, (f + ".Aero.wind").c_str());
                for (const auto* m : {&g.tensor, &g.tensorMin, &g.tensorMax})
                    if (!isFinite(*m)) throw Error(f + ".Aero.tensor", toText(*m), "every entry must be finite");
                detail::requireInRange(g.control, -1, 1, (f + ".Aero.control").c_str());
            } else if constexpr (std::is_same_v<G, Drag>) {
                requireBody(g.body, ".Drag.body");
                detail::requireInRange(g.k1, 0, detail::maxLoad, (f + ".Drag.k1").c_str());
                detail::requireInRange(g.k2, 0, detail::maxLoad, (f + ".Drag.k2").c_str());
            } else if constexpr (std::is_same_v<G, FakeSpring>) {
                requireBody(g.body, ".FakeSpring.body");
                detail::requirePoint(g.anchor, (f + ".FakeSpring.anchor").c_str());
                detail::requirePositive(g.stiffness, (f + ".FakeSpring.stiffness").c_str());
                detail::requireNonNegative(g.damping, (f + ".FakeSpring.damping").c_str());
            }
        },
        generator);
}

ForceGeneratorId World::createForceGenerator(const ForceGenerator& g) { return detail::guarded(errorHandler_, [&] {
    validateGenerator(g, "createForceGenerator");
    return generators_.insert(g);
}); }

void World::setForceGenerator(ForceGeneratorId id, const ForceGenerator& g) { return detail::guarded(errorHandler_, [&] {
    requireLive(generators_, id, "setForceGenerator.id", "force generator");
    validateGenerator(g, "setForceGenerator");
    generators_[id] = g;
}); }

void World::destroyForceGenerator(ForceGeneratorId id) { return detail::guarded(errorHandler_, [&] {
    requireLive(generators_, id, "destroyForceGenerator.id", "force generator");
    generators_.erase(id);
}); }

const ForceGenerator& World::forceGenerator(ForceGeneratorId id) const { return detail::guarded(errorHandler_, [&]() -> const ForceGenerator& {
    requireLive(generators_, id, "forceGenerator.id", "force generator");
    return generators_[id];
}); }

std::vector<ForceGeneratorId> World::forceGeneratorIds() const { return generators_.ids(); }

// ---- Joints --------------------------------------------------------------------------

JointId World::createJoint(const JointDesc& desc) { return detail::guarded(errorHandler_, [&] {
    refuseWhileStepping("createJoint");
    requireLiveBody(desc.a.body, "createJoint.a.body");
    if (!desc.b.body.isNull()) requireLiveBody(desc.b.body, "createJoint.b.body");
    if (desc.a.body == desc.b.body)
        throw Error("createJoint.b.body", handleText(desc.b.body.index, desc.b.body.generation),
                    "a joint needs two different bodies (or the world)");
    const Body* b = desc.b.body.isNull() ? nullptr : &bodies_[desc.b.body];
    const Joint joint = detail::makeJoint(desc, bodies_[desc.a.body], b, "createJoint");
    const JointId id = joints_.insert(joint);
    for (const BodyId end : {desc.a.body, desc.b.body})
        if (!end.isNull() && bodies_[end].isDynamic()) setAwake(end, true);
    detail::jointLinks(joints_, jointLinks_, noCollision_);
    return id;
}); }

void World::destroyJoint(JointId id) { return detail::guarded(errorHandler_, [&] {
    refuseWhileStepping("destroyJoint");
    requireLive(joints_, id, "destroyJoint.id", "joint");
    const JointDesc d = joints_[id].desc;
    joints_.erase(id);
    for (const BodyId end : {d.a.body, d.b.body})
        if (!end.isNull() && bodies_.contains(end) && bodies_[end].isDynamic()) setAwake(end, true);
    detail::jointLinks(joints_, jointLinks_, noCollision_);
}); }

void World::setJointMotion(JointId id, const JointMotion& motion) { return detail::guarded(errorHandler_, [&] {
    Joint& j = requireLive(joints_, id, "setJointMotion.id", "joint");
    if (j.desc.type != JointType::Hinge && j.desc.type != JointType::Slider && j.desc.type != JointType::SwingTwist &&
        j.desc.type != JointType::Wheel && j.desc.type != JointType::Distance)
        throw Error("setJointMotion.id", handleText(id.index, id.generation),
                    "only a hinge, slider, swing-twist, wheel or distance joint moves as its motion says");
    detail::validateMotion(motion, j.desc.type, "setJointMotion.motion");
    j.desc.motion = motion;
    for (const BodyId end : {j.desc.a.body, j.desc.b.body})
        if (!end.isNull() && bodies_[end].isDynamic()) setAwake(end, true);
}); }

void World::setJointSuspension(JointId id, const JointMotion& suspension) { return detail::guarded(errorHandler_, [&] {
    Joint& j = requireLive(joints_, id, "setJointSuspension.id", "joint");
    if (j.desc.type != JointType::Wheel)
        throw Error("setJointSuspension.id", handleText(id.index, id.generation), "only a wheel joint has a suspension");
    detail::validateMotion(suspension, JointType::Slider, "setJointSuspension.suspension");
    j.desc.suspension = suspension;
    for (const BodyId end : {j.desc.a.body, j.desc.b.body})
        if (!end.isNull() && bodies_[end].isDynamic()) setAwake(end, true);
}); }

void World::setJointSwingDrive(JointId id, const JointMotion& drive, const Vec3& target) { return detail::guarded(errorHandler_, [&] {
    Joint& j = requireLive(joints_, id, "setJointSwingDrive.id", "joint");
    if (j.desc.type != JointType::SwingTwist)
        throw Error("setJointSwingDrive.id", handleText(id.index, id.generation), "only a swing-twist joint has a swing drive");
    detail::validateSwingDrive(drive, target, "setJointSwingDrive");
    j.desc.swingDrive = drive;
    j.desc.swingTarget = target;
    for (const BodyId end : {j.desc.a.body, j.desc.b.body})
        if (!end.isNull() && bodies_[end].isDynamic()) setAwake(end, true);
}); }

void World::setJointDofMotion(JointId id, int axis, const JointMotion& motion) { return detail::guarded(errorHandler_, [&] {
    Joint& j = requireLive(joints_, id, "setJointDofMotion.id", "joint");
    if (j.desc.type != JointType::SixDof)
        throw Error("setJointDofMotion.id", handleText(id.index, id.generation), "only a 6-DOF joint has axes of its own");
    if (axis < 0 || axis > 5) throw Error("setJointDofMotion.axis", std::to_string(axis), "must name a SixDofAxis (0-5)");
    JointDesc desc = j.desc;
    const auto k = static_cast<std::size_t>(axis);
    desc.dofMotion[k] = motion;
    detail::validateSixDof(desc, "setJointDofMotion");
    j.desc = desc;
    // Freed (a translation's limits are contacts, not rows): nothing it carried is carried on.
    if (!detail::hasRows(motion, axis >= RotationX) && !desc.dofLocked[k]) {
        j.dofImpulse[k] = {0, 0, 0, 0};
        j.dofForce[k] = 0;
    }
    for (const BodyId end : {j.desc.a.body, j.desc.b.body})
        if (!end.isNull() && bodies_[end].isDynamic()) setAwake(end, true);
}); }

real World::jointDofCoordinate(JointId id, int axis) const { return detail::guarded(errorHandler_, [&] {
    const Joint& j = requireLive(joints_, id, "jointDofCoordinate.id", "joint");
    if (j.desc.type != JointType::SixDof)
        throw Error("jointDofCoordinate.id", handleText(id.index, id.generation), "only a 6-DOF joint has axes of its own");
    if (axis < 0 || axis > 5) throw Error("jointDofCoordinate.axis", std::to_string(axis), "must name a SixDofAxis (0-5)");
    const bool world = j.desc.b.body.isNull();
    const Quat qa = bodies_[j.desc.a.body].orientation;
    const Quat qb = world ? Quat::Identity() : bodies_[j.desc.b.body].orientation;
    const Vec3 xa = qa * j.desc.axisA.normalized(), ya = qa * j.desc.normalA;
    const Vec3 xb = qb * j.desc.axisB.normalized(), yb = qb * j.desc.normalB;
    if (axis >= RotationX) return detail::eulerAngles(xa, ya, xb, yb)(axis - RotationX);
    const Vec3 pa = bodies_[j.desc.a.body].origin().toWorld(j.desc.a.point);
    const Vec3 pb = world ? j.desc.b.point : bodies_[j.desc.b.body].origin().toWorld(j.desc.b.point);
    const std::array<Vec3, 3> frame{xb, yb, xb.cross(yb)};
    return frame[static_cast<std::size_t>(axis)].dot(pa - pb);
}); }

real World::jointAngle(JointId id) const { return detail::guarded(errorHandler_, [&] {
    const Joint& j = requireLive(joints_, id, "jointAngle.id", "joint");
    const bool swingTwist = j.desc.type == JointType::SwingTwist;
    if (j.desc.type != JointType::Hinge && j.desc.type != JointType::Wheel && !swingTwist)
        throw Error("jointAngle.id", handleText(id.index, id.generation), "only a hinge, wheel or swing-twist joint has an angle");
    const Quat qa = bodies_[j.desc.a.body].orientation;
    const Quat qb = j.desc.b.body.isNull() ? Quat::Identity() : bodies_[j.desc.b.body].orientation;
    const Vec3 nb = qb * j.desc.axisB.normalized();
    const Vec3 n = swingTwist ? detail::twistAxis(qa * j.desc.axisA.normalized(), nb) : nb;
    return detail::twistAngle(n, qa * j.desc.normalA, qb * j.desc.normalB);
}); }

real World::jointTranslation(JointId id) const { return detail::guarded(errorHandler_, [&] {
    const Joint& j = requireLive(joints_, id, "jointTranslation.id", "joint");
    if (j.desc.type != JointType::Slider && j.desc.type != JointType::Wheel && j.desc.type != JointType::Distance)
        throw Error("jointTranslation.id", handleText(id.index, id.generation), "only a slider, wheel or distance joint has a translation");
    const bool world = j.desc.b.body.isNull();
    if (j.desc.type == JointType::Distance) {
        const Vec3 pa = bodies_[j.desc.a.body].origin().toWorld(j.desc.a.point);
        return (pa - (world ? j.desc.b.point : bodies_[j.desc.b.body].origin().toWorld(j.desc.b.point))).norm();
    }
    const Vec3 local = j.desc.type == JointType::Wheel ? j.desc.suspensionAxis : Vec3(j.desc.axisB.normalized());
    const Vec3 n = world ? local : Vec3(bodies_[j.desc.b.body].orientation * local);
    const Vec3 pa = bodies_[j.desc.a.body].origin().toWorld(j.desc.a.point);
    const Vec3 pb = world ? j.desc.b.point : bodies_[j.desc.b.body].origin().toWorld(j.desc.b.point);
    return n.dot(pa - pb);
}); }

void World::breakJoints(const std::vector<JointId>& broken) {
    for (const JointId id : broken) {
        const Joint& j = joints_[id];
        jointEvents_.broken.push_back({id, j.desc, j.force, j.totalTorque});
        joints_.erase(id);
    }
    detail::jointLinks(joints_, jointLinks_, noCollision_);
}

const Joint& World::joint(JointId id) const { return detail::guarded(errorHandler_, [&]() -> const Joint& {
    requireLive(joints_, id, "joint.id", "joint");
    return joints_[id];
}); }

Vec3 World::attachmentPoint(const Attachment& a) const { return detail::guarded(errorHandler_, [&] {
    if (a.body.isNull()) return a.point;
    requireLiveBody(a.body, "attachmentPoint.body");
    return bodies_[a.body].origin().toWorld(a.point);
}); }

} // namespace jounce
