// SPDX-License-Identifier: MIT
// Snapshots: World::saveState writes everything a step reads from the steps before it
// into one blob; World::restoreState brings it back, so that the restored world's steps
// are bit-identical to the original's (tests/test_snapshot.cpp runs the two in lockstep).
//
// Blob = header + payload. The header: the magic "JOUNCESN", the format version, the
// byte size of `real` and a byte-order mark (a blob moves between runs of one build,
// not between builds of different precision or machines of different byte order), the
// payload's length and its FNV-1a checksum. The payload: the world's state as
// World::visitState declares it (world.hpp), member by member, each through its io()
// below.
//
// What is stored: settings; every slot array whole (dead slots and free lists too, so
// the handles a restored world hands out are the ones the original would); bodies,
// colliders with their shapes (each hull and mesh once, however many colliders share
// it), force generators, joints; last step's contacts and the warm-start cache;
// sleeping links; the event state (what touched after the last step); particles with
// every constraint kind; deformables with their handles; the step count.
// What is not: callbacks (the contact filter and the resolver observer stay the
// world's own), caches rebuilt on demand (factorisations, free groups, direct-solver
// groups), per-substep scratch, profile figures and the last step's resolver record.
//
// A new member of the world's state is declared in World::visitState (and gets an io()
// here if its type is new). A new field in any of these structs must be added to its
// io() below, or a restored world drifts from the original (the lockstep test finds it).

#include <jounce/world/world.hpp>

#include <jounce/collision/convex_hull.hpp>
#include <jounce/collision/heightfield.hpp>
#include <jounce/collision/triangle_mesh.hpp>

#include "physics/io/archive.hpp"
#include "physics/deformable/stages.hpp"
#include "common/guard.hpp"
#include "physics/particles/direct_solve.hpp"
#include "physics/world/stages.hpp"
#include "physics/world/world_state.hpp"

#include <memory>

namespace jounce {
namespace detail {
namespace {

constexpr char magic[8] = {'J', 'O', 'U', 'N', 'C', 'E', 'S', 'N'};
// 2: ResolverSettings::shockIterations. 3: a body's damping is a rate c [1/s] (velocity
// times exp(-c h)), no longer the share d kept per second. 4: ResolverSettings::solver and
// ::soft (the soft step). 13: SleepSettings::motionCap. 14: ParticleSettings::rigidSweeps.
// 15: ParticleSettings::solveLines. 16: a manifold's impulses, anchors and pose in float.
constexpr std::uint32_t formatVersion = 16;
constexpr std::uint32_t byteOrderMark = 0x01020304u;

/// The writer with the table of shared shape data seen so far.
struct SnapshotWriter : ByteWriter {
    std::vector<const HullData*> hulls;
    std::vector<const MeshData*> meshes;
};
struct SnapshotReader : ByteReader {
    using ByteReader::ByteReader;
    std::vector<std::shared_ptr<const HullData>> hulls;
    std::vector<std::shared_ptr<const MeshData>> meshes;
};

/// Each field in turn, in the order listed (the order is the format).
template <typename Ar, typename... Fields> void ioEach(Ar& ar, Fields&... f) { (io(ar, f), ...); }

// ---- Shapes --------------------------------------------------------------------------

template <typename Ar> void io(Ar& ar, Sphere& s) { io(ar, s.radius); }
template <typename Ar> void io(Ar& ar, Box& b) { io(ar, b.halfExtents); }
template <typename Ar> void io(Ar& ar, Capsule& c) {
    ioEach(ar, c.radius, c.halfHeight);
}
template <typename Ar> void io(Ar& ar, Cylinder& c) {
    ioEach(ar, c.radius, c.halfHeight);
}
template <typename Ar> void io(Ar& ar, HalfSpace& h) {
    ioEach(ar, h.normal, h.offset);
}
template <typename Ar> void io(Ar& ar, HullFace& f) {
    ioEach(ar, f.normal, f.offset, f.vertices);
}
template <typename Ar> void io(Ar& ar, HullEdge& e) {
    ioEach(ar, e.a, e.b, e.faceLeft, e.faceRight);
}
template <typename Ar> void io(Ar& ar, HullData& h) {
    ioEach(ar, h.vertices, h.faces, h.edges, h.centroid, h.tolerance);
}

/// Every index a hull holds points into its own arrays (a forged blob must not make
/// the narrow phase read past them).
void checkHull(const HullData& h) {
    const auto nv = h.vertices.size();
    bool ok = nv >= 4 && h.faces.size() >= 4;
    for (const HullFace& f : h.faces) {
        ok = ok && f.vertices.size() >= 3;
        for (const std::uint32_t v : f.vertices) ok = ok && v < nv;
    }
    for (const HullEdge& e : h.edges)
        ok = ok && e.a < nv && e.b < nv && e.faceLeft < h.faces.size() && e.faceRight < h.faces.size();
    for (const Vec3& v : h.vertices) ok = ok && isFinite(v);
    if (!ok) throw Error("restoreState.blob", "convex hull", "its faces or edges name corners or faces it does not have");
}

constexpr std::uint32_t nullShape = ~std::uint32_t(0);

/// Shape data many colliders share (hulls, meshes) is stored once: its index in the
/// table of those seen so far, followed by the data the first time it is seen.
/// `readData` builds it from the blob, `writeData` stores it.
template <typename Ar, typename Data, typename Table, typename ReadData, typename WriteData>
void sharedData(Ar& ar, std::shared_ptr<const Data>& data, Table& table, ReadData readData, WriteData writeData) {
    std::uint32_t index = nullShape;
    if constexpr (Ar::reading) {
        io(ar, index);
        if (index == nullShape) {
            data.reset();
        } else if (index < table.size()) {
            data = table[index];
        } else if (index == table.size()) {
            data = readData();
            table.push_back(data);
        } else {
            ar.fail("shared shape " + std::to_string(index) + " before shape " + std::to_string(table.size()));
        }
    } else {
        if (data) {
            index = 0;
            while (index < table.size() && table[index] != data.get()) ++index; // pointers compared, never ordered
        }
        io(ar, index);
        if (data && index == table.size()) {
            table.push_back(data.get());
            writeData(*data);
        }
    }
}

template <typename Ar> void io(Ar& ar, ConvexHull& shape) {
    sharedData(
        ar, shape.hull, ar.hulls,
        [&] {
            auto hull = std::make_shared<HullData>();
            io(ar, *hull);
            checkHull(*hull);
            return std::shared_ptr<const HullData>(std::move(hull));
        },
        [&](const HullData& hull) { io(ar, const_cast<HullData&>(hull)); }); // the writer only reads
}

template <typename Ar> void io(Ar& ar, TriangleMesh& shape) {
    // A heightfield is stored as its grid, any other mesh as its vertices and triangles;
    // either is built again (validated, indexed) and gives the same triangles in the same order.
    using Triangles = std::vector<std::array<std::uint32_t, 3>>;
    sharedData(
        ar, shape.mesh, ar.meshes,
        [&] {
            std::uint8_t isGrid = 0;
            io(ar, isGrid);
            if (isGrid != 0) {
                HeightfieldGrid g;
                ioEach(ar, g.columns, g.rows, g.spacingX, g.spacingZ, g.origin, g.heights, g.holes);
                return makeHeightfield({g.columns, g.rows, g.spacingX, g.spacingZ, g.origin, g.heights, g.holes}).mesh;
            }
            std::vector<Vec3> vertices;
            Triangles triangles;
            ioEach(ar, vertices, triangles);
            return makeTriangleMesh(vertices, triangles).mesh;
        },
        [&](const MeshData& mesh) {
            std::uint8_t isGrid = mesh.heightfield() ? 1 : 0;
            io(ar, isGrid);
            if (const HeightfieldGrid* grid = mesh.heightfield()) {
                HeightfieldGrid g = *grid; // the writer only reads
                ioEach(ar, g.columns, g.rows, g.spacingX, g.spacingZ, g.origin, g.heights, g.holes);
                return;
            }
            std::vector<Vec3> vertices = mesh.vertices();
            Triangles triangles = mesh.triangles();
            ioEach(ar, vertices, triangles);
        });
}

// ---- Bodies, colliders, generators, joints --------------------------------------------

template <typename Ar> void io(Ar& ar, Transform& t) {
    ioEach(ar, t.position, t.orientation);
}
template <typename Ar> void io(Ar& ar, Transformf& t) { ioEach(ar, t.position, t.orientation); }
template <typename Ar> void io(Ar& ar, Aabb& b) {
    ioEach(ar, b.min, b.max);
}
template <typename Ar> void io(Ar& ar, MotionLocks& l) {
    ioEach(ar, l.linearX, l.linearY, l.linearZ, l.angularX, l.angularY, l.angularZ);
}
template <typename Ar> void io(Ar& ar, Body& b) {
    ioEach(ar, b.type, b.inverseMass, b.inertiaBody, b.inverseInertiaBody, b.inverseInertiaWorld, b.localCentroid,
           b.position, b.orientation, b.linearVelocity, b.angularVelocity, b.userForce, b.userTorque, b.forceAccum,
           b.torqueAccum, b.lastFrameAcceleration, b.impulseAccum, b.angularImpulseAccum, b.linearDamping,
           b.angularDamping, b.gravityScale, b.awake, b.canSleep, b.massFromColliders, b.bullet, b.locks, b.motion,
           b.userData, b.hasTarget, b.target);
}
template <typename Ar> void io(Ar& ar, Collider& c) {
    ioEach(ar, c.body, c.shape, c.local, c.density, c.material.friction, c.material.restitution,
           c.material.frictionCombine, c.material.restitutionCombine, c.material.rollingResistance, c.filter.category,
           c.filter.mask, c.fatBox, c.sensor);
}
template <typename Ar> void io(Ar& ar, Attachment& a) {
    ioEach(ar, a.body, a.point);
}
template <typename Ar> void io(Ar& ar, GravityForce& g) {
    ioEach(ar, g.body, g.acceleration);
}
template <typename Ar, typename SpringLike>
    requires std::is_same_v<SpringLike, Spring> || std::is_same_v<SpringLike, Bungee>
void io(Ar& ar, SpringLike& s) {
    ioEach(ar, s.a, s.b, s.stiffness, s.restLength, s.damping);
}
template <typename Ar> void io(Ar& ar, Buoyancy& b) {
    ioEach(ar, b.body, b.centreOfBuoyancy, b.maxDepth, b.volume, b.waterHeight, b.liquidDensity);
}
template <typename Ar> void io(Ar& ar, Aero& a) {
    ioEach(ar, a.body, a.point, a.wind, a.tensor, a.tensorMin, a.tensorMax, a.control);
}
template <typename Ar> void io(Ar& ar, Drag& d) {
    ioEach(ar, d.body, d.k1, d.k2);
}
template <typename Ar> void io(Ar& ar, FakeSpring& f) {
    ioEach(ar, f.body, f.anchor, f.stiffness, f.damping);
}
template <typename Ar> void io(Ar& ar, JointMotion& m) {
    ioEach(ar, m.limited, m.lower, m.upper, m.motor, m.motorSpeed, m.maxMotorForce, m.springHertz, m.springDampingRatio,
           m.springTarget, m.springStiffness, m.springDamping, m.friction);
}
template <typename Ar> void io(Ar& ar, JointDesc& d) {
    ioEach(ar, d.type, d.a, d.b, d.axisA, d.axisB, d.span, d.tolerance, d.length, d.restitution, d.collide);
    ioEach(ar, d.breakForce, d.normalA, d.normalB, d.swingLimit, d.motion, d.suspensionAxis, d.suspension, d.breakTorque);
    ioEach(ar, d.dofLocked, d.dofMotion, d.swingDrive, d.swingTarget);
}
template <typename Ar> void io(Ar& ar, Joint& j) {
    ioEach(ar, j.desc, j.pointCount, j.pointsA, j.pointsB, j.force, j.motionImpulse, j.lockImpulse, j.torque);
    ioEach(ar, j.suspensionImpulse, j.suspensionForce, j.totalTorque, j.dofImpulse, j.dofForce, j.swingDriveImpulse);
}
template <typename Ar> void io(Ar& ar, JointBreakEvent& e) { ioEach(ar, e.joint, e.desc, e.force, e.torque); }

// ---- Contacts and events -------------------------------------------------------------

template <typename Ar> void io(Ar& ar, ContactPoint& p) {
    ioEach(ar, p.point, p.depth, p.feature);
}
template <typename Ar> void io(Ar& ar, ContactManifold& m) {
    ioEach(ar, m.bodyA, m.bodyB, m.colliderA, m.colliderB, m.friction, m.restitution, m.approachSpeed, m.surfaceVelocity, m.rollingResistance,
           m.manifold.normal, m.manifold.points, m.manifold.count);
    ioEach(ar, m.normalImpulse, m.frictionImpulse, m.anchorA, m.anchorB, m.normalInB, m.poseAInB, m.origin);
}
/// The warm-start cache: what warmStart() reads of last step's contacts (the key that
/// matches them, the point that finds the nearest, the normal that says whether the
/// frame turned, the impulse). The bounce impulse is this step's only (read by the
/// joint forces right after it is kept), so it is not saved.
template <typename Ar> void io(Ar& ar, KeptContact& c) {
    ioEach(ar, c.key, c.point, c.normal, c.accumulatedImpulse);
}
template <typename Ar> void io(Ar& ar, std::pair<std::uint32_t, std::uint32_t>& link) {
    ioEach(ar, link.first, link.second);
}
template <typename Ar> void io(Ar& ar, ContactEvent& e) {
    ioEach(ar, e.colliderA, e.colliderB, e.bodyA, e.bodyB, e.point, e.normal, e.depth, e.approachSpeed);
}
template <typename Ar> void io(Ar& ar, SensorEvent& e) {
    ioEach(ar, e.sensor, e.visitor, e.sensorBody, e.visitorBody);
}
template <typename Ar> void io(Ar& ar, ContactEvents& e) { ioEach(ar, e.begin, e.persist, e.end); }
template <typename Ar> void io(Ar& ar, SensorEvents& e) { ioEach(ar, e.begin, e.end, e.overlaps); }
template <typename Ar> void io(Ar& ar, JointEvents& e) { io(ar, e.broken); }

// ---- Particles -----------------------------------------------------------------------

template <typename Ar> void io(Ar& ar, DistanceConstraint& c) {
    ioEach(ar, c.a, c.b, c.restLength, c.compliance, c.lambda);
}
template <typename Ar> void io(Ar& ar, ParticleAttachment& a) {
    ioEach(ar, a.particle, a.target, a.restLength, a.compliance, a.lambda);
}
template <typename Ar> void io(Ar& ar, ParticleConstraint& c) {
    ioEach(ar, c.kind, c.count, c.p, c.rest, c.compliance, c.lambda, c.c);
}
template <typename Ar> void io(Ar& ar, ParticleVolume& v) {
    ioEach(ar, v.triangles, v.particles, v.restVolume, v.pressure, v.compliance, v.mode, v.globalShare, v.lambda);
}
template <typename Ar> void io(Ar& ar, ParticleCluster& c) {
    ioEach(ar, c.particles, c.rest, c.shapeStiffness, c.rigidDamping, c.rotation);
}
template <typename Ar> void io(Ar& ar, ParticleSurface& s) {
    ioEach(ar, s.triangles, s.group, s.thickness);
}
template <typename Ar> void io(Ar& ar, ParticleHierarchyLevel& l) {
    ioEach(ar, l.particles, l.inverseMass, l.links, l.restLength, l.children, l.parentStart, l.parents, l.weights);
}
template <typename Ar> void io(Ar& ar, ParticleHierarchy& h) {
    ioEach(ar, h.levels, h.meshParticles, h.meshEdges, h.levelsAsked, h.parents);
}
template <typename Ar> void io(Ar& ar, ParticleSystem& ps) {
    ioEach(ar, ps.x, ps.p, ps.v, ps.w, ps.radius, ps.group, ps.staticFriction, ps.kineticFriction, ps.restitution,
           ps.userData, ps.force, ps.fatBox, ps.asleep, ps.motion, ps.stepVelocity, ps.previousVelocity,
           ps.hasHistory, ps.slots, ps.distances, ps.attachments, ps.constraints, ps.volumes, ps.clusters,
           ps.surfaces, ps.hierarchies, ps.topologyVersion, ps.groupsIssued, ps.lastSubstep);
}

// ---- Deformables ---------------------------------------------------------------------

template <typename Ar> void io(Ar& ar, DeformableHandle& h) {
    ioEach(ar, h.desc.vertex, h.desc.kind, h.desc.target, h.desc.restDirection, h.desc.weight);
}
template <typename Ar> void io(Ar& ar, Deformable& d) {
    ioEach(ar, d.restPosition, d.restAxes, d.radii, d.volume, d.mass, d.restMoment, d.neighbourStart,
           d.neighbours, d.edges, d.position, d.velocity, d.rotation, d.angularVelocity, d.restVertices,
           d.restNormals, d.triangles, d.skinStart, d.skinParticles, d.skinWeights, d.skinningNeighbours,
           d.handles, d.density, d.stiffness, d.damping, d.friction, d.iterations, d.systemVersion, d.asleep,
           d.motion);
}

// ---- Settings ------------------------------------------------------------------------

template <typename Ar> void io(Ar& ar, SoftStepSettings& s) {
    ioEach(ar, s.substeps, s.jointSubsteps, s.contactHertz, s.contactDampingRatio, s.jointHertz, s.jointDampingRatio, s.maxPushOut,
           s.relaxIterations, s.holdMassRatio);
}
template <typename Ar> void io(Ar& ar, ResolverSettings& r) {
    ioEach(ar, r.solver, r.soft, r.restitutionThreshold, r.maxProjectionAngle, r.penetrationTolerance, r.velocityTolerance,
           r.positionIterationsPerContact, r.velocityIterationsPerContact, r.velocitySolver, r.sequentialIterations,
           r.sequentialTolerance, r.slidingSpeed, r.warmStart, r.positionSolver, r.sequentialPositionIterations,
           r.projectionRelaxation, r.allowedPenetration, r.shockPropagation, r.shockIterations);
}
template <typename Ar> void io(Ar& ar, ParticleSettings& p) {
    ioEach(ar, p.solver, p.integrator, p.substeps, p.iterations, p.rigidSweeps, p.directChains, p.solveLines, p.pbdStiffness,
           p.keepAngularMomentum, p.damping, p.contactMargin, p.restitutionThreshold);
}
template <typename Ar> void io(Ar& ar, WorldSettings& s) {
    ioEach(ar, s.gravity, s.gyroscopic, s.minTimeStep, s.maxTimeStep, s.maxSubsteps, s.collisionMargin,
           s.aabbMargin, s.continuous, s.contactCache.distance, s.contactCache.angle, s.resolver, s.sleep.enabled, s.sleep.sleepThreshold, s.sleep.motionBias, s.sleep.motionCap,
           s.particles);
}

struct Header {
    std::uint32_t version = formatVersion;
    std::uint8_t realBytes = sizeof(real);
    std::uint32_t byteOrder = byteOrderMark;
    std::uint64_t payloadBytes = 0;
    std::uint64_t checksum = 0;
};
constexpr std::size_t headerBytes = sizeof magic + 4 + 1 + 4 + 8 + 8;

template <typename Ar> void io(Ar& ar, Header& h) {
    ioEach(ar, h.version, h.realBytes, h.byteOrder, h.payloadBytes, h.checksum);
}

void writeHeader(ByteWriter& out, Header h) {
    out.raw(magic, sizeof magic);
    io(out, h);
}

/// The payload of a blob whose header, length and checksum are right.
std::span<const std::uint8_t> checkedPayload(std::span<const std::uint8_t> blob) {
    auto reject = [](const std::string& value, const std::string& why) {
        throw Error("restoreState.blob", value, why + "; the world was left as it was");
    };
    if (blob.size() < headerBytes)
        reject(std::to_string(blob.size()) + " bytes", "shorter than a snapshot header (" + std::to_string(headerBytes) + ")");
    ByteReader in(blob.first(headerBytes));
    char m[sizeof magic];
    in.raw(m, sizeof m);
    if (std::memcmp(m, magic, sizeof magic) != 0) reject("magic", "not a Jounce snapshot");
    Header h;
    io(in, h);
    if (h.version != formatVersion)
        reject("version " + std::to_string(h.version), "this build reads version " + std::to_string(formatVersion));
    if (h.realBytes != sizeof(real))
        reject("real of " + std::to_string(h.realBytes) + " bytes",
               "this build's real has " + std::to_string(sizeof(real)) + " (JOUNCE_DOUBLE differs)");
    if (h.byteOrder != byteOrderMark) reject("byte order", "written on a machine of the other byte order");
    const std::span<const std::uint8_t> payload = blob.subspan(headerBytes);
    if (h.payloadBytes != payload.size())
        reject(std::to_string(payload.size()) + " payload bytes",
               "the header says " + std::to_string(h.payloadBytes) + " (truncated or padded)");
    if (fnv1a(payload) != h.checksum) reject("checksum", "the payload does not match its checksum (damaged)");
    return payload;
}

} // namespace

std::vector<StateMember> stateMembers(const World& world) {
    std::vector<StateMember> members;
    SnapshotWriter out; // one writer for all, so a shared hull is stored at its first use, as in a blob
    StateAccess::visit(world, [&](const char* name, const auto& member, Step step) {
        const std::size_t start = out.written().size();
        io(out, const_cast<std::remove_cvref_t<decltype(member)>&>(member)); // the writer only reads
        const auto bytes = out.written().subspan(start);
        members.push_back({name, step, std::vector<std::uint8_t>(bytes.begin(), bytes.end())});
    });
    return members;
}

} // namespace detail

std::vector<std::uint8_t> World::saveState() const {
    detail::SnapshotWriter payload;
    detail::writeState(payload, *this);
    detail::Header h;
    h.payloadBytes = payload.written().size();
    h.checksum = detail::fnv1a(payload.written());
    detail::ByteWriter out;
    detail::writeHeader(out, h);
    out.raw(payload.written().data(), payload.written().size());
    return out.take();
}

void World::restoreState(std::span<const std::uint8_t> blob) { return detail::guarded(errorHandler_, [&] {
    refuseWhileStepping("restoreState");
    detail::SnapshotReader in(detail::checkedPayload(blob));
    World fresh;
    detail::readState(in, fresh);
    if (in.remaining() != 0) in.fail(std::to_string(in.remaining()) + " bytes after the last field");
    fresh.setSettings(fresh.settings_); // validates them
    fresh.checkRestored();
    detail::jointLinks(fresh.joints_, fresh.jointLinks_, fresh.noCollision_);
    fresh.deformableSolvers_->bySlot.resize(fresh.deformables_.slotCount()); // factorised at the next step
    // Callbacks, the observer and the threads belong to the game, not to the state: they stay.
    fresh.contactFilter_ = std::move(contactFilter_);
    fresh.contactModifier_ = std::move(contactModifier_);
    fresh.resolver_ = std::move(resolver_);
    fresh.scratch_->soft.setObserver(scratch_->soft.observer());
    fresh.errorHandler_ = std::move(errorHandler_);
    fresh.ownTasks_ = std::move(ownTasks_);
    fresh.gameTasks_ = gameTasks_;
    *this = std::move(fresh);
}); }

} // namespace jounce
