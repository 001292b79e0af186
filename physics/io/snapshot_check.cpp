// SPDX-License-Identifier: MIT
// The checks a restored state passes before it replaces a world's (physics/io/snapshot.cpp).
// The checksum catches damage; these catch a blob that is well-formed but wrong (a
// forged one, or a bug): every slot array is consistent, and every index and handle
// the step will follow names something that exists, so no stage reads out of bounds.
// Values are the entry points' business: shapes and bodies get the same checks the
// create calls give them.

#include <jounce/collision/mass_properties.hpp>
#include <jounce/world/world.hpp>

#include "physics/deformable/stages.hpp"
#include "physics/world/stages.hpp"
#include "common/validate.hpp"

#include <cmath>
#include <string>
#include <type_traits>
#include <utility>

namespace jounce {
namespace {

[[noreturn]] void inconsistent(const std::string& what, const std::string& why) {
    throw Error("restoreState.blob", what, why + "; the world was left as it was");
}

/// Positions a step may have carried past maxCoordinate (a body falling for minutes),
/// but not this far: 1e9 m takes over four hours of free fall. A forged body at 1e121 m
/// on a joint gave the joint a lever arm whose square overflowed (test_snapshot.cpp).
constexpr real maxRestoredCoordinate = 1000 * detail::maxCoordinate;

void requireRestoredPoint(const Vec3& p, const std::string& field) {
    detail::requireWithin(p, maxRestoredCoordinate, "1000 maxCoordinate", field.c_str());
}

bool isRestoredPoint(const Vec3& p) { return isFinite(p) && p.cwiseAbs().maxCoeff() <= maxRestoredCoordinate; }

template <typename Array> void requireConsistent(const Array& array, const std::string& what) {
    if (!array.consistent()) inconsistent(what, "slot array whose lengths, free list or generations disagree");
}

/// Whether `starts` is a CSR start array for `count` rows over `entries` values.
bool validStarts(const std::vector<std::uint32_t>& starts, std::size_t count, std::size_t entries) {
    if (starts.size() != count + 1 || starts.front() != 0 || starts.back() != entries) return false;
    for (std::size_t i = 0; i + 1 < starts.size(); ++i)
        if (starts[i] > starts[i + 1]) return false;
    return true;
}

template <typename Container> bool allBelow(const Container& indices, std::size_t n) {
    for (const auto i : indices)
        if (i >= n) return false;
    return true;
}

void checkParticleIndex(const ParticleSystem& ps, std::uint32_t slot, const std::string& what) {
    if (slot >= ps.slotCount() || !ps.isAlive(slot)) inconsistent(what, "names particle slot " + std::to_string(slot) + ", which is not live");
}

template <std::size_t N> void checkParticleIndices(const ParticleSystem& ps, const std::vector<std::array<std::uint32_t, N>>& items,
                                                   const std::string& what) {
    for (const auto& item : items)
        for (const std::uint32_t slot : item) checkParticleIndex(ps, slot, what);
}

void checkHierarchy(const ParticleSystem& ps, const ParticleHierarchy& h, const std::string& what) {
    for (const std::uint32_t slot : h.meshParticles) checkParticleIndex(ps, slot, what);
    for (const auto& edge : h.meshEdges)
        if (!allBelow(edge, h.meshParticles.size())) inconsistent(what, "a mesh edge past its particles");
    for (const ParticleHierarchyLevel& l : h.levels) {
        for (const std::uint32_t slot : l.particles) checkParticleIndex(ps, slot, what);
        for (const std::uint32_t slot : l.children) checkParticleIndex(ps, slot, what);
        bool ok = l.inverseMass.size() == l.particles.size() && l.restLength.size() == l.links.size() &&
                  validStarts(l.parentStart, l.children.size(), l.parents.size()) && l.weights.size() == l.parents.size() &&
                  allBelow(l.parents, l.particles.size());
        for (const auto& link : l.links) ok = ok && allBelow(link, l.particles.size());
        if (!ok) inconsistent(what, "a level whose arrays disagree");
    }
}

void checkParticles(const ParticleSystem& ps) {
    requireConsistent(ps.slots, "particles");
    const std::size_t n = ps.slotCount();
    const bool sized = ps.x.size() == n && ps.p.size() == n && ps.v.size() == n && ps.w.size() == n &&
                       ps.radius.size() == n && ps.group.size() == n && ps.staticFriction.size() == n &&
                       ps.kineticFriction.size() == n && ps.restitution.size() == n && ps.userData.size() == n &&
                       ps.force.size() == n && ps.fatBox.size() == n && ps.asleep.size() == n && ps.motion.size() == n &&
                       ps.stepVelocity.size() == n && ps.previousVelocity.size() == n && ps.hasHistory.size() == n;
    if (!sized) inconsistent("particles", "per-particle arrays of different lengths");
    for (std::size_t i = 0; i < n; ++i)
        if (ps.isAlive(i)) {
            const std::string what = "particle slot " + std::to_string(i);
            if (!isFinite(ps.v[i])) inconsistent(what, "a velocity that is not finite");
            if (ps.w[i] != 0) detail::requireInverseMass(ps.w[i], (what + ".inverseMass").c_str()); // 0: pinned
            detail::requireExtent(ps.radius[i], (what + ".radius").c_str()); // as createParticle
            requireRestoredPoint(ps.x[i], what + ".position");
            requireRestoredPoint(ps.p[i], what + ".predicted");
        }
    requireConsistent(ps.distances, "distance constraints");
    requireConsistent(ps.attachments, "particle attachments");
    requireConsistent(ps.constraints, "particle constraints");
    requireConsistent(ps.volumes, "particle volumes");
    requireConsistent(ps.clusters, "particle clusters");
    requireConsistent(ps.surfaces, "particle surfaces");
    requireConsistent(ps.hierarchies, "particle hierarchies");
    for (const auto id : ps.distances.ids()) {
        checkParticleIndex(ps, ps.distances[id].a, "distance constraint " + detail::handleText(id));
        checkParticleIndex(ps, ps.distances[id].b, "distance constraint " + detail::handleText(id));
    }
    for (const auto id : ps.attachments.ids())
        checkParticleIndex(ps, ps.attachments[id].particle, "particle attachment " + detail::handleText(id));
    for (const auto id : ps.constraints.ids()) {
        const ParticleConstraint& c = ps.constraints[id];
        const std::string what = "particle constraint " + detail::handleText(id);
        if (c.count < 3 || c.count > 4) inconsistent(what, "uses " + std::to_string(c.count) + " particles");
        // All four: a three-particle kind repeats its first in the fourth, which the
        // projection reads too (project_small_constraints.cpp).
        for (std::size_t k = 0; k < c.p.size(); ++k) checkParticleIndex(ps, c.p[k], what);
    }
    for (const auto id : ps.volumes.ids()) {
        const std::string what = "particle volume " + detail::handleText(id);
        checkParticleIndices(ps, ps.volumes[id].triangles, what);
        for (const std::uint32_t slot : ps.volumes[id].particles) checkParticleIndex(ps, slot, what);
    }
    for (const auto id : ps.clusters.ids()) {
        const ParticleCluster& c = ps.clusters[id];
        const std::string what = "particle cluster " + detail::handleText(id);
        if (c.rest.size() != c.particles.size()) inconsistent(what, "rest positions and particles of different counts");
        for (const std::uint32_t slot : c.particles) checkParticleIndex(ps, slot, what);
    }
    for (const auto id : ps.surfaces.ids())
        checkParticleIndices(ps, ps.surfaces[id].triangles, "particle surface " + detail::handleText(id));
    for (const auto id : ps.hierarchies.ids())
        checkHierarchy(ps, ps.hierarchies[id], "particle hierarchy " + detail::handleText(id));
}

/// Whether `m` is a rotation up to the polar decomposition's rounding (bounded first:
/// the product of a forged 1e200 overflows).
bool isRotation(const Mat3& m) {
    return isFinite(m) && m.cwiseAbs().maxCoeff() <= real(1.01) &&
           (m.transpose() * m - Mat3::Identity()).cwiseAbs().maxCoeff() <= real(0.01);
}

/// Whether `stored` is `derived` up to rounding (both came from the same formula when
/// the blob was written; a tolerance keeps the check from depending on how).
bool sameDerived(const Mat3& stored, const Mat3& derived) {
    const real tolerance = std::sqrt(std::numeric_limits<real>::epsilon()) * std::max(derived.cwiseAbs().maxCoeff(), real(1e-30));
    return isFinite(stored) && (stored - derived).cwiseAbs().maxCoeff() <= tolerance;
}

bool sameDerived(real stored, real derived) {
    return std::isfinite(stored) && std::abs(stored - derived) <= std::sqrt(std::numeric_limits<real>::epsilon()) * std::abs(derived);
}

/// A deformable's values (its arrays are consistent): what createDeformable checks of
/// its description, the state a step leaves (positions where bodies may be, speeds
/// within maxSpeed, rotations), and the data derived from them as buildDeformable
/// derives it (volume, mass, rest moment). Fuzz finding 11: a rest vertex forged to
/// 1e307 skinned to an infinite vertex.
void checkDeformableValues(const Deformable& d, const std::string& what) {
    const auto field = [&](const char* name, std::size_t i) { return what + "." + name + "[" + std::to_string(i) + "]"; };
    detail::validateDeformableMaterial(d.density, d.stiffness, d.damping, d.friction, d.iterations, what);
    for (std::size_t i = 0; i < d.size(); ++i) {
        requireRestoredPoint(d.restPosition[i], field("restPosition", i));
        requireRestoredPoint(d.position[i], field("position", i));
        detail::requireSpeed(d.velocity[i], field("velocity", i).c_str());
        detail::requireSpeed(d.angularVelocity[i], field("angularVelocity", i).c_str());
        for (int c = 0; c < 3; ++c) detail::requireExtent(d.radii[i][c], field("radii", i).c_str());
        if (!isRotation(d.restAxes[i]) || !isRotation(d.rotation[i]))
            inconsistent(field("rotation", i), "rest axes or a rotation that is not one");
        const detail::OrientedParticleRest rest = detail::orientedParticleRest(d.radii[i], d.restAxes[i], d.density);
        if (!sameDerived(d.volume[i], rest.volume) || !sameDerived(d.mass[i], rest.mass) ||
            !sameDerived(d.restMoment[i], rest.moment))
            inconsistent(field("volume", i), "a volume, mass or rest moment its radii and density do not give");
    }
    for (std::size_t k = 0; k < d.restVertices.size(); ++k) requireRestoredPoint(d.restVertices[k], field("restVertices", k));
    for (std::size_t k = 0; k < d.restNormals.size(); ++k) detail::requirePoint(d.restNormals[k], field("restNormals", k).c_str());
    for (std::size_t k = 0; k < d.skinWeights.size(); ++k)
        detail::requireInRange(d.skinWeights[k], 0, 1, field("skinWeights", k).c_str());
    for (const auto h : d.handles.ids()) {
        const DeformableHandleDesc& desc = d.handles[h].desc;
        detail::requirePoint(desc.target, (what + ".handle.target").c_str());
        detail::requirePoint(desc.restDirection, (what + ".handle.restDirection").c_str());
        detail::requireInRange(desc.weight, 0, detail::maxHandleWeight, (what + ".handle.weight").c_str());
    }
}

void checkDeformable(const Deformable& d, const std::string& what) {
    const std::size_t n = d.restPosition.size();
    const std::size_t m = d.restVertices.size();
    bool ok = n > 0 && d.restAxes.size() == n && d.radii.size() == n && d.volume.size() == n && d.mass.size() == n &&
              d.restMoment.size() == n && d.position.size() == n && d.velocity.size() == n && d.rotation.size() == n &&
              d.angularVelocity.size() == n && validStarts(d.neighbourStart, n, d.neighbours.size()) &&
              allBelow(d.neighbours, n) && (d.restNormals.empty() || d.restNormals.size() == m) &&
              validStarts(d.skinStart, m, d.skinParticles.size()) && allBelow(d.skinParticles, n) &&
              d.skinWeights.size() == d.skinParticles.size() && d.handles.consistent() && d.iterations >= 1;
    for (const auto& e : d.edges) ok = ok && allBelow(e, n);
    for (const auto& t : d.triangles) ok = ok && allBelow(t, m);
    // Only a consistent slot array may be walked: a forged live count sizes ids()'s
    // vector (fuzz_snapshot: an allocation of exabytes).
    if (ok)
        for (const auto h : d.handles.ids()) ok = ok && d.handles[h].desc.vertex < m;
    if (!ok) inconsistent(what, "arrays that disagree or point past each other");
    // The values, the drawn vertices are skinned from too (World::deformableVertices:
    // a NaN rest vertex, skin weight or angular velocity, or a 1e307 rest vertex, gave
    // non-finite vertices from blobs that passed; fuzz_snapshot).
    checkDeformableValues(d, what);
}

/// A body's values get the checks the create call and the setters give them, and the
/// data derived from them (inverse inertia, body and world frame) must be what the
/// setters derive: fuzz finding 10 forged one entry of a box's world-frame inverse
/// inertia to 5e41, which threw it to 1e120 m in one step.
void checkBody(const Body& b, const std::string& what) {
    const auto field = [&](const char* name) { return what + "." + name; };
    if (b.type != BodyType::Static && b.type != BodyType::Kinematic && b.type != BodyType::Dynamic)
        inconsistent(what, "a body type " + std::to_string(static_cast<int>(b.type)));
    detail::requireUnit(b.orientation, field("orientation").c_str());
    requireRestoredPoint(b.position, field("position"));
    // Speeds the setters would refuse (and a step never leaves: limitSpeeds), a blob
    // may not bring in either (fuzz finding 8: a body restored at 1e228 rad/s).
    detail::requireSpeed(b.linearVelocity, field("linearVelocity").c_str());
    detail::requireSpeed(b.angularVelocity, field("angularVelocity").c_str());
    if (b.type == BodyType::Static && !(b.linearVelocity.isZero(0) && b.angularVelocity.isZero(0)))
        inconsistent(what, "a static body that moves");
    detail::requirePoint(b.localCentroid, field("localCentroid").c_str());
    detail::validateDamping(b.linearDamping, b.angularDamping, field("linearDamping").c_str(), field("angularDamping").c_str());
    detail::requireInRange(b.gravityScale, -detail::maxGravityScale, detail::maxGravityScale, field("gravityScale").c_str());
    for (const auto& [load, name] : {std::pair{&b.userForce, "userForce"}, {&b.userTorque, "userTorque"},
                                     {&b.forceAccum, "forceAccum"}, {&b.torqueAccum, "torqueAccum"},
                                     {&b.impulseAccum, "impulseAccum"}, {&b.angularImpulseAccum, "angularImpulseAccum"}})
        detail::requireLoad(*load, field(name).c_str());
    detail::requireFinite(b.lastFrameAcceleration, field("lastFrameAcceleration").c_str());
    detail::requireNonNegative(b.motion, field("motion").c_str());
    if (b.hasTarget) {
        if (b.type != BodyType::Kinematic) inconsistent(what, "a target on a body that is not kinematic");
        requireRestoredPoint(b.target.position, field("target.position"));
        detail::requireUnit(b.target.orientation, field("target.orientation").c_str());
    }
    if (b.isDynamic()) {
        detail::requireInverseMass(b.inverseMass, field("inverseMass").c_str()); // as setMass sets it
        validateInertia(b.inertiaBody, field("inertiaBody").c_str());
        if (!sameDerived(b.inverseInertiaBody, detail::bodyInverseInertia(b.inertiaBody)))
            inconsistent(field("inverseInertiaBody"), "not the inverse of inertiaBody");
    } else if (b.inverseMass != 0 || !b.inverseInertiaBody.isZero(0)) {
        inconsistent(what, "a static or kinematic body with a finite mass");
    }
    if (!sameDerived(b.inverseInertiaWorld, detail::worldInverseInertia(b)))
        inconsistent(field("inverseInertiaWorld"), "not R inverseInertiaBody R^T");
}

/// Unit up to rounding; bounded before it is squared (the norm of a forged 1e200
/// overflows).
bool isUnitNormal(const Vec3& n) {
    return isFinite(n) && n.cwiseAbs().maxCoeff() <= 2 && std::abs(n.norm() - 1) <= real(1e-3);
}

/// A joint's description gets createJoint's checks; its points must be the ones it
/// derives from them (a Fixed joint's B points come from the poses when it was made,
/// which may have drifted past maxCoordinate since: those are only bounded, loosely).
void checkJoint(const Joint& j, const Body& a, const Body* b, const std::string& what) {
    if (j.desc.a.body == j.desc.b.body) inconsistent(what, "joins a body to itself");
    const Joint made = detail::makeJoint(j.desc, a, b, what + ".desc");
    bool ok = j.pointCount == made.pointCount && std::isfinite(j.force) && j.force >= 0 && std::abs(j.torque) <= detail::maxLoad;
    for (const real impulse : j.motionImpulse) ok = ok && std::abs(impulse) <= detail::maxLoad; // NaN fails too
    ok = ok && isFinite(j.lockImpulse) && j.lockImpulse.cwiseAbs().maxCoeff() <= detail::maxLoad;
    for (const real impulse : j.suspensionImpulse) ok = ok && std::abs(impulse) <= detail::maxLoad;
    ok = ok && std::abs(j.suspensionForce) <= detail::maxLoad && j.totalTorque >= 0 && j.totalTorque <= detail::maxLoad;
    for (const auto& axis : j.dofImpulse)
        for (const real impulse : axis) ok = ok && std::abs(impulse) <= detail::maxLoad;
    for (const real force : j.dofForce) ok = ok && std::abs(force) <= detail::maxLoad;
    ok = ok && isFinite(j.swingDriveImpulse) && j.swingDriveImpulse.cwiseAbs().maxCoeff() <= detail::maxLoad;
    // A wheel's suspension axis as createJoint leaves it: unit and across the axle.
    ok = ok && isUnitNormal(j.desc.suspensionAxis) && (j.desc.suspensionAxis - made.desc.suspensionAxis).norm() <= real(1e-3);
    // Normals as createJoint leaves them: unit and across the axes (made again, the same
    // to rounding), or zero on joints that have none.
    for (const auto& [given, remade] : {std::pair{j.desc.normalA, made.desc.normalA}, std::pair{j.desc.normalB, made.desc.normalB}})
        ok = ok && (given.isZero() ? remade.isZero() : isUnitNormal(given) && (given - remade).norm() <= real(1e-3));
    for (int k = 0; ok && k < j.pointCount; ++k) {
        const auto i = static_cast<std::size_t>(k);
        ok = j.pointsA[i] == made.pointsA[i] &&
             (j.desc.type == JointType::Fixed ? isRestoredPoint(j.pointsB[i])
                                               : j.pointsB[i] == made.pointsB[i]);
    }
    if (!ok) inconsistent(what, "points or force that its description does not give");
}

/// What the next step reads of the last one's contacts: points where bodies may be and
/// unit normals.
void checkContacts(const std::vector<ContactManifold>& manifolds) {
    for (const ContactManifold& m : manifolds) {
        bool ok = m.manifold.count >= 0 && m.manifold.count <= Manifold::maxPoints && isUnitNormal(m.manifold.normal) && std::isfinite(m.friction) &&
                  std::isfinite(m.restitution) && std::isfinite(m.approachSpeed) && isFinite(m.surfaceVelocity) &&
                  m.surfaceVelocity.cwiseAbs().maxCoeff() <= detail::maxSpeed && m.rollingResistance >= 0 &&
                  m.rollingResistance <= detail::maxRate * detail::maxCoordinate;
        for (int k = 0; ok && k < m.manifold.count; ++k) {
            const auto i = static_cast<std::size_t>(k);
            const ContactPoint& p = m.manifold.points[i];
            ok = isRestoredPoint(p.point) && std::isfinite(p.depth) &&
                 std::abs(p.depth) <= maxRestoredCoordinate;
            // What persists: impulses within the loads an entry point accepts, anchors
            // where a collider's surface may be.
            ok = ok && std::isfinite(m.normalImpulse[i]) && std::abs(m.normalImpulse[i]) <= detail::maxLoad &&
                 isFinite(m.frictionImpulse[i]) && m.frictionImpulse[i].cwiseAbs().maxCoeff() <= detail::maxLoad &&
                 isRestoredPoint(m.anchorA[i].cast<real>()) && isRestoredPoint(m.anchorB[i].cast<real>());
        }
        ok = ok && isUnitNormal(m.normalInB.cast<real>()) && isRestoredPoint(m.poseAInB.position.cast<real>()) &&
             isFinite(m.poseAInB.orientation.coeffs()) && m.poseAInB.orientation.coeffs().cwiseAbs().maxCoeff() <= 2 &&
             std::abs(m.poseAInB.orientation.norm() - 1) <= real(1e-3) &&
             (m.origin == ContactManifold::Origin::Found || m.origin == ContactManifold::Origin::Refreshed ||
              m.origin == ContactManifold::Origin::Speculative || m.origin == ContactManifold::Origin::Moving);
        if (!ok) inconsistent("contact manifold", "a point count, normal, point, impulse, anchor or pose that no step gives");
    }
    // The narrow phase finds each pair's last manifolds by walking both lists in
    // collider order.
    for (std::size_t k = 1; k < manifolds.size(); ++k) {
        const ContactManifold& a = manifolds[k - 1];
        const ContactManifold& b = manifolds[k];
        if (std::pair{a.colliderA.index, a.colliderB.index} > std::pair{b.colliderA.index, b.colliderB.index} ||
            !(b.colliderA.index < b.colliderB.index))
            inconsistent("contact manifold", "manifolds out of collider order");
    }
}

/// The warm-start cache: points where bodies may be, unit normals, and impulses within
/// the loads an entry point accepts (warmStart squares the distance to a cached point: a
/// forged 1e200 m overflowed it).
void checkWarmStart(const std::vector<KeptContact>& cache) {
    for (const KeptContact& c : cache)
        if (!(isRestoredPoint(c.point) && isUnitNormal(c.normal) &&
              isFinite(c.accumulatedImpulse) && c.accumulatedImpulse.cwiseAbs().maxCoeff() <= detail::maxLoad))
            inconsistent("warm-start contact", "a point, normal or impulse that no step gives");
}

/// A set of lambdas as one overloaded function object.
template <class... Lambdas> struct Overloaded : Lambdas... {
    using Lambdas::operator()...;
};
template <class... Lambdas> Overloaded(Lambdas...) -> Overloaded<Lambdas...>;

/// Fails to compile: a member declared in World::visitState whose type no check covers.
template <class T> struct NoCheckFor : std::false_type {};

} // namespace

/// One check per type of member the state declares (World::visitState), run over the
/// declaration in its order: a check may read the members declared before its own (the
/// bodies come first). A member of a new type does not compile until it has a check
/// here, even if that check is "nothing to check, because...".
void World::checkRestored() const {
    const auto check = Overloaded{
        [](const WorldSettings&) {}, // restoreState validates them as setSettings does
        [&](const SlotArray<Body, BodyTag>& bodies) {
            requireConsistent(bodies, "bodies");
            for (const BodyId id : bodies.ids()) checkBody(bodies[id], "body " + detail::handleText(id));
        },
        [&](const SlotArray<Collider, ColliderTag>& colliders) {
            requireConsistent(colliders, "colliders");
            for (const ColliderId id : colliders.ids()) {
                const Collider& c = colliders[id];
                const std::string what = "collider " + detail::handleText(id);
                if (!bodies_.contains(c.body)) inconsistent(what, "belongs to a body that is not live");
                ColliderDesc desc;
                desc.shape = c.shape;
                desc.local = c.local;
                desc.density = c.density;
                desc.material = c.material;
                validateColliderDesc(desc, bodies_[c.body].type, what.c_str());
            }
        },
        [&](const SlotArray<ForceGenerator, ForceGeneratorTag>& generators) {
            requireConsistent(generators, "force generators");
            for (const ForceGeneratorId id : generators.ids())
                validateGenerator(generators[id], ("force generator " + detail::handleText(id)).c_str());
        },
        [&](const SlotArray<Joint, JointTag>& joints) {
            requireConsistent(joints, "joints");
            for (const JointId id : joints.ids()) {
                const Joint& j = joints[id];
                const std::string what = "joint " + detail::handleText(id);
                const bool live = bodies_.contains(j.desc.a.body) && (j.desc.b.body.isNull() || bodies_.contains(j.desc.b.body));
                if (!live) inconsistent(what, "joins a body that is not live");
                checkJoint(j, bodies_[j.desc.a.body], j.desc.b.body.isNull() ? nullptr : &bodies_[j.desc.b.body], what);
            }
        },
        [](const std::vector<ContactManifold>& manifolds) { checkContacts(manifolds); },
        [](const std::vector<KeptContact>& cache) { checkWarmStart(cache); },
        [&](const std::vector<std::pair<std::uint32_t, std::uint32_t>>& sleepingLinks) {
            const std::size_t bodySlots = bodies_.slotCount();
            for (const auto& [a, b] : sleepingLinks)
                if (a >= bodySlots || b >= bodySlots) inconsistent("sleeping link", "names a body slot past the last");
        },
        // Touching and near pairs, contact and joint events: compared with the next
        // step's pairs by handle and handed to the game, never followed into an array.
        [](const std::vector<ContactEvent>&) {},
        [](const ContactEvents&) {},
        [](const JointEvents&) {},
        [&](const SensorEvents& events) { // the overlaps are: the sleep stage reads their bodies
            for (const SensorEvent& e : events.overlaps)
                if (!bodies_.contains(e.visitorBody) || !bodies_.contains(e.sensorBody))
                    inconsistent("sensor overlap", "names a body that is not live");
        },
        [&](const ParticleSystem& particles) {
            checkParticles(particles);
            for (const auto id : particles.attachments.ids()) {
                const BodyId target = particles.attachments[id].target.body;
                if (!target.isNull() && !bodies_.contains(target))
                    inconsistent("particle attachment " + detail::handleText(id), "hangs on a body that is not live");
            }
        },
        [](const SlotArray<Deformable, DeformableTag>& deformables) {
            requireConsistent(deformables, "deformables");
            for (const DeformableId id : deformables.ids()) checkDeformable(deformables[id], "deformable " + detail::handleText(id));
        },
        [](const std::uint64_t&) {}, // the step count: any value is one
        [](const auto& member) { static_assert(NoCheckFor<decltype(member)>::value, "a state member without a restore check"); },
    };
    visitState(*this, [&](const char*, const auto& member, detail::Step) { check(member); });
}

} // namespace jounce
