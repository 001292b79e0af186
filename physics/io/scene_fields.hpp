// SPDX-License-Identifier: MIT
#pragma once
// The field list of every struct a scene file holds, written once and used both ways:
// `io` is a Writer when exporting (each field becomes a JSON field) and a Reader when
// loading (each JSON field is read into the struct). One list per struct keeps the
// two directions from drifting apart; the JSON names are the C++ names, so an error
// the API raises for "BodyDesc.mass" is reported at "bodies[3].mass".

#include "physics/io/scene_json.hpp"

#include <jounce/io/scene_file.hpp>

#include <array>
#include <utility>

namespace jounce::detail {

// ---- Enum names ---------------------------------------------------------------------

template <typename E, std::size_t N> using NameTable = std::array<std::pair<E, const char*>, N>;

inline constexpr NameTable<BodyType, 3> bodyTypeNames{
    {{BodyType::Static, "static"}, {BodyType::Kinematic, "kinematic"}, {BodyType::Dynamic, "dynamic"}}};
inline constexpr NameTable<GyroscopicMode, 3> gyroscopicNames{{{GyroscopicMode::ConserveMomentum, "conserveMomentum"},
                                                               {GyroscopicMode::Explicit, "explicit"},
                                                               {GyroscopicMode::None, "none"}}};
inline constexpr NameTable<CombineRule, 6> combineRuleNames{{{CombineRule::Default, "default"},
                                                             {CombineRule::GeometricMean, "geometricMean"},
                                                             {CombineRule::Average, "average"},
                                                             {CombineRule::Min, "min"},
                                                             {CombineRule::Multiply, "multiply"},
                                                             {CombineRule::Max, "max"}}};
inline constexpr NameTable<ContactSolver, 2> contactSolverNames{
    {{ContactSolver::Resolver, "resolver"}, {ContactSolver::SoftStep, "softStep"}}};
inline constexpr NameTable<VelocitySolver, 2> velocitySolverNames{
    {{VelocitySolver::WorstFirst, "worstFirst"}, {VelocitySolver::SequentialImpulses, "sequentialImpulses"}}};
inline constexpr NameTable<PositionSolver, 2> positionSolverNames{
    {{PositionSolver::WorstFirst, "worstFirst"}, {PositionSolver::Sequential, "sequential"}}};
inline constexpr NameTable<ParticleSolver, 2> particleSolverNames{{{ParticleSolver::XPBD, "xpbd"}, {ParticleSolver::PBD, "pbd"}}};
inline constexpr NameTable<ParticleIntegrator, 2> integratorNames{
    {{ParticleIntegrator::Euler, "euler"}, {ParticleIntegrator::BDF2, "bdf2"}}};
inline constexpr NameTable<JointType, 10> jointTypeNames{{{JointType::Ball, "ball"},
                                                         {JointType::Hinge, "hinge"},
                                                         {JointType::Fixed, "fixed"},
                                                         {JointType::Cable, "cable"},
                                                         {JointType::Rod, "rod"},
                                                         {JointType::Slider, "slider"},
                                                         {JointType::SwingTwist, "swingTwist"},
                                                         {JointType::Wheel, "wheel"},
                                                         {JointType::Distance, "distance"},
                                                         {JointType::SixDof, "sixDof"}}};
inline constexpr NameTable<ParticleConstraintKind, 4> constraintKindNames{
    {{ParticleConstraintKind::Bending, "bending"},
     {ParticleConstraintKind::IsometricBending, "isometricBending"},
     {ParticleConstraintKind::TetVolume, "tetVolume"},
     {ParticleConstraintKind::TriangleArea, "triangleArea"}}};
inline constexpr NameTable<VolumeMode, 2> volumeModeNames{{{VolumeMode::Global, "global"}, {VolumeMode::Diziol, "diziol"}}};
inline constexpr NameTable<DeformableHandleDesc::Kind, 2> handleKindNames{
    {{DeformableHandleDesc::Kind::Position, "position"}, {DeformableHandleDesc::Kind::Direction, "direction"}}};

template <typename E, std::size_t N> EnumNames<E> names(const NameTable<E, N>& table) { return EnumNames<E>(table); }

// ---- Settings -----------------------------------------------------------------------

template <typename Io> void fields(Io& io, SoftStepSettings& s) {
    io("substeps", s.substeps);
    io("jointSubsteps", s.jointSubsteps);
    io("contactHertz", s.contactHertz);
    io("contactDampingRatio", s.contactDampingRatio);
    io("jointHertz", s.jointHertz);
    io("jointDampingRatio", s.jointDampingRatio);
    io("maxPushOut", s.maxPushOut);
    io("relaxIterations", s.relaxIterations);
    io("holdMassRatio", s.holdMassRatio);
}

template <typename Io> void fields(Io& io, ResolverSettings& s) {
    io.enumeration("solver", s.solver, names(contactSolverNames));
    io.object("soft", s.soft);
    io("restitutionThreshold", s.restitutionThreshold);
    io("maxProjectionAngle", s.maxProjectionAngle);
    io("penetrationTolerance", s.penetrationTolerance);
    io("velocityTolerance", s.velocityTolerance);
    io("positionIterationsPerContact", s.positionIterationsPerContact);
    io("velocityIterationsPerContact", s.velocityIterationsPerContact);
    io.enumeration("velocitySolver", s.velocitySolver, names(velocitySolverNames));
    io("sequentialIterations", s.sequentialIterations);
    io("sequentialTolerance", s.sequentialTolerance);
    io("slidingSpeed", s.slidingSpeed);
    io("warmStart", s.warmStart);
    io.enumeration("positionSolver", s.positionSolver, names(positionSolverNames));
    io("sequentialPositionIterations", s.sequentialPositionIterations);
    io("projectionRelaxation", s.projectionRelaxation);
    io("allowedPenetration", s.allowedPenetration);
    io("shockPropagation", s.shockPropagation);
    io("shockIterations", s.shockIterations);
}

template <typename Io> void fields(Io& io, SleepSettings& s) {
    io("enabled", s.enabled);
    io("sleepThreshold", s.sleepThreshold);
    io("motionBias", s.motionBias);
    io("motionCap", s.motionCap);
}

template <typename Io> void fields(Io& io, ParticleSettings& s) {
    io.enumeration("solver", s.solver, names(particleSolverNames));
    io.enumeration("integrator", s.integrator, names(integratorNames));
    io("substeps", s.substeps);
    io("iterations", s.iterations);
    io("rigidSweeps", s.rigidSweeps);
    io("solveLines", s.solveLines);
    io("directChains", s.directChains);
    io("pbdStiffness", s.pbdStiffness);
    io("keepAngularMomentum", s.keepAngularMomentum);
    io("damping", s.damping);
    io("contactMargin", s.contactMargin);
    io("restitutionThreshold", s.restitutionThreshold);
}

template <typename Io> void fields(Io& io, ContactCacheSettings& s) {
    io("distance", s.distance);
    io("angle", s.angle);
}

template <typename Io> void fields(Io& io, WorldSettings& s) {
    io("gravity", s.gravity);
    io.enumeration("gyroscopic", s.gyroscopic, names(gyroscopicNames));
    io("minTimeStep", s.minTimeStep);
    io("maxTimeStep", s.maxTimeStep);
    io("maxSubsteps", s.maxSubsteps);
    io("collisionMargin", s.collisionMargin);
    io("aabbMargin", s.aabbMargin);
    io("continuous", s.continuous);
    io.object("contactCache", s.contactCache);
    io.object("resolver", s.resolver);
    io.object("sleep", s.sleep);
    io.object("particles", s.particles);
}

/// The camera as one nested object of SceneInfo.
struct CameraFields {
    Vec3 target = SceneInfo{}.cameraTarget;
    real distance = SceneInfo{}.cameraDistance;
    real yaw = SceneInfo{}.cameraYaw;
};
template <typename Io> void fields(Io& io, CameraFields& c) {
    io("target", c.target);
    io("distance", c.distance);
    io("yaw", c.yaw);
}

template <typename Io> void fields(Io& io, SceneInfo& s) {
    io("name", s.name);
    io("description", s.description);
    io("timeStep", s.timeStep);
    io("substeps", s.substeps);
    CameraFields camera{s.cameraTarget, s.cameraDistance, s.cameraYaw};
    io.object("camera", camera);
    s.cameraTarget = camera.target;
    s.cameraDistance = camera.distance;
    s.cameraYaw = camera.yaw;
}

// ---- Bodies -------------------------------------------------------------------------

template <typename Io> void fields(Io& io, Transform& t) {
    io("position", t.position);
    io("orientation", t.orientation);
}

template <typename Io> void fields(Io& io, Material& m) {
    io("friction", m.friction);
    io("restitution", m.restitution);
    io.enumeration("frictionCombine", m.frictionCombine, names(combineRuleNames));
    io.enumeration("restitutionCombine", m.restitutionCombine, names(combineRuleNames));
    io("rollingResistance", m.rollingResistance);
}

template <typename Io> void fields(Io& io, CollisionFilter& f) {
    io("category", f.category);
    io("mask", f.mask);
}

template <typename Io> void fields(Io& io, ColliderDesc& c) {
    io("shape", c.shape);
    io.object("local", c.local);
    io("density", c.density);
    io.object("material", c.material);
    io.object("filter", c.filter);
    io("sensor", c.sensor);
}

template <typename Io> void fields(Io& io, MotionLocks& l) {
    io("linearX", l.linearX);
    io("linearY", l.linearY);
    io("linearZ", l.linearZ);
    io("angularX", l.angularX);
    io("angularY", l.angularY);
    io("angularZ", l.angularZ);
}

template <typename Io> void fields(Io& io, BodyDesc& b) {
    io.enumeration("type", b.type, names(bodyTypeNames));
    io("position", b.position);
    io("orientation", b.orientation);
    io("linearVelocity", b.linearVelocity);
    io("angularVelocity", b.angularVelocity);
    io("massFromColliders", b.massFromColliders);
    io("mass", b.mass);
    io("inertia", b.inertia);
    io("linearDamping", b.linearDamping);
    io("angularDamping", b.angularDamping);
    io("gravityScale", b.gravityScale);
    io("canSleep", b.canSleep);
    io("awake", b.awake);
    io("bullet", b.bullet);
    io.object("locks", b.locks);
    io("userData", b.userData);
    io("colliders", b.colliders);
}

// ---- Force generators and joints ----------------------------------------------------

template <typename Io> void fields(Io& io, Attachment& a) {
    io("body", a.body);
    io("point", a.point);
}

template <typename Io> void fields(Io& io, GravityForce& g) {
    io("body", g.body);
    io("acceleration", g.acceleration);
}

/// Spring and Bungee have the same fields.
template <typename Io, typename S> void springFields(Io& io, S& s) {
    io.object("a", s.a);
    io.object("b", s.b);
    io("stiffness", s.stiffness);
    io("restLength", s.restLength);
    io("damping", s.damping);
}
template <typename Io> void fields(Io& io, Spring& s) { springFields(io, s); }
template <typename Io> void fields(Io& io, Bungee& s) { springFields(io, s); }

template <typename Io> void fields(Io& io, Buoyancy& b) {
    io("body", b.body);
    io("centreOfBuoyancy", b.centreOfBuoyancy);
    io("maxDepth", b.maxDepth);
    io("volume", b.volume);
    io("waterHeight", b.waterHeight);
    io("liquidDensity", b.liquidDensity);
}

template <typename Io> void fields(Io& io, Aero& a) {
    io("body", a.body);
    io("point", a.point);
    io("wind", a.wind);
    io("tensor", a.tensor);
    io("tensorMin", a.tensorMin);
    io("tensorMax", a.tensorMax);
    io("control", a.control);
}

template <typename Io> void fields(Io& io, Drag& d) {
    io("body", d.body);
    io("k1", d.k1);
    io("k2", d.k2);
}

template <typename Io> void fields(Io& io, FakeSpring& f) {
    io("body", f.body);
    io("anchor", f.anchor);
    io("stiffness", f.stiffness);
    io("damping", f.damping);
}

/// The "type" of each ForceGenerator alternative, in the variant's order.
inline constexpr std::array<const char*, std::variant_size_v<ForceGenerator>> generatorTypeNames{
    "gravity", "spring", "bungee", "buoyancy", "aero", "drag", "fakeSpring"};

template <typename Io> void fields(Io& io, JointMotion& m) {
    io("limited", m.limited);
    io("lower", m.lower);
    io("upper", m.upper);
    io("motor", m.motor);
    io("motorSpeed", m.motorSpeed);
    io("maxMotorForce", m.maxMotorForce);
    io("springHertz", m.springHertz);
    io("springDampingRatio", m.springDampingRatio);
    io("springTarget", m.springTarget);
    io("springStiffness", m.springStiffness);
    io("springDamping", m.springDamping);
    io("friction", m.friction);
}

template <typename Io> void fields(Io& io, JointDesc& j) {
    io.enumeration("type", j.type, names(jointTypeNames));
    io.requireKey("a");
    io.object("a", j.a);
    io.object("b", j.b);
    io("axisA", j.axisA);
    io("axisB", j.axisB);
    io("span", j.span);
    io("tolerance", j.tolerance);
    io("length", j.length);
    io("restitution", j.restitution);
    io("collide", j.collide);
    io("breakForce", j.breakForce); // infinity, the default, is never written
    io("breakTorque", j.breakTorque);
    io("normalA", j.normalA);
    io("normalB", j.normalB);
    io("swingLimit", j.swingLimit);
    io.object("swingDrive", j.swingDrive);
    io("swingTarget", j.swingTarget);
    io.object("motion", j.motion);
    io("suspensionAxis", j.suspensionAxis);
    io.object("suspension", j.suspension);
    io("dofLocked", j.dofLocked);
    io.object("translationX", j.dofMotion[TranslationX]);
    io.object("translationY", j.dofMotion[TranslationY]);
    io.object("translationZ", j.dofMotion[TranslationZ]);
    io.object("rotationX", j.dofMotion[RotationX]);
    io.object("rotationY", j.dofMotion[RotationY]);
    io.object("rotationZ", j.dofMotion[RotationZ]);
}

// ---- Particles ----------------------------------------------------------------------

template <typename Io> void fields(Io& io, ParticleDesc& p) {
    io("position", p.position);
    io("velocity", p.velocity);
    io("mass", p.mass);
    io("pinned", p.pinned);
    io("radius", p.radius);
    io("group", p.group);
    io("staticFriction", p.staticFriction);
    io("kineticFriction", p.kineticFriction);
    io("restitution", p.restitution);
    io("userData", p.userData);
}

template <typename Io> void fields(Io& io, DistanceConstraintDesc& d) {
    io.requireKey("a");
    io("a", d.a);
    io.requireKey("b");
    io("b", d.b);
    io("restLength", d.restLength);
    io("compliance", d.compliance);
}

template <typename Io> void fields(Io& io, ParticleAttachmentDesc& a) {
    io.requireKey("particle");
    io("particle", a.particle);
    io.object("target", a.target);
    io("restLength", a.restLength);
    io("compliance", a.compliance);
}

template <typename Io> void fields(Io& io, ParticleConstraintDesc& c) {
    io.enumeration("kind", c.kind, names(constraintKindNames));
    io.requireKey("particles");
    io("particles", c.particles);
    io("rest", c.rest);
    io("compliance", c.compliance);
}

template <typename Io> void fields(Io& io, ParticleVolumeDesc& v) {
    io.requireKey("triangles");
    io("triangles", v.triangles);
    io("pressure", v.pressure);
    io("compliance", v.compliance);
    io.enumeration("mode", v.mode, names(volumeModeNames));
    io("globalShare", v.globalShare);
}

template <typename Io> void fields(Io& io, ParticleClusterDesc& c) {
    io.requireKey("particles");
    io("particles", c.particles);
    io("shapeStiffness", c.shapeStiffness);
    io("rigidDamping", c.rigidDamping);
}

template <typename Io> void fields(Io& io, ParticleSurfaceDesc& s) {
    io.requireKey("triangles");
    io("triangles", s.triangles);
    io("thickness", s.thickness);
}

template <typename Io> void fields(Io& io, ParticleHierarchyDesc& h) {
    io.requireKey("particles");
    io("particles", h.particles);
    io("edges", h.edges);
    io("levels", h.levels);
    io("parents", h.parents);
}

// ---- Deformables --------------------------------------------------------------------

template <typename Io> void fields(Io& io, OrientedParticleDesc& p) {
    io("position", p.position);
    io("orientation", p.orientation);
    io("radii", p.radii);
}

template <typename Io> void fields(Io& io, DeformableHandleDesc& h) {
    io("vertex", h.vertex);
    io.enumeration("kind", h.kind, names(handleKindNames));
    io("target", h.target);
    io("restDirection", h.restDirection);
    io("weight", h.weight);
}

template <typename Io> void fields(Io& io, DeformableDesc& d) {
    io.requireKey("particles");
    io("particles", d.particles);
    io("edges", d.edges);
    io("density", d.density);
    io("stiffness", d.stiffness);
    io("iterations", d.iterations);
    io("damping", d.damping);
    io("friction", d.friction);
    io("vertices", d.vertices);
    io("normals", d.normals);
    io("triangles", d.triangles);
    io("skinningNeighbours", d.skinningNeighbours);
}

} // namespace jounce::detail
