// The checks a restored state passes before it replaces a world's (physics/snapshot.cpp).
// The checksum catches damage; these catch a blob that is well-formed but wrong (a
// forged one, or a bug): every slot array is consistent, and every index and handle
// the step will follow names something that exists, so no stage reads out of bounds.
// Values are the entry points' business: shapes and bodies get the same checks the
// create calls give them.

#include <jounce/physics/world.hpp>

#include "physics/validate.hpp"

#include <cmath>
#include <string>

namespace jounce {
namespace {

[[noreturn]] void inconsistent(const std::string& what, const std::string& why) {
    throw Error("restoreState.blob", what, why + "; the world was left as it was");
}

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
        if (ps.isAlive(i) && !(isFinite(ps.x[i]) && isFinite(ps.p[i]) && isFinite(ps.v[i]) && std::isfinite(ps.w[i]) &&
                               ps.w[i] >= 0 && std::isfinite(ps.radius[i]) && ps.radius[i] > 0))
            inconsistent("particle slot " + std::to_string(i), "a state that is not finite, or a bad mass or radius");
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
        for (std::size_t k = 0; k < c.count; ++k) checkParticleIndex(ps, c.p[k], what);
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
    for (std::size_t i = 0; ok && i < n; ++i)
        ok = isFinite(d.position[i]) && isFinite(d.velocity[i]) && isFinite(d.rotation[i]) &&
             isFinite(d.angularVelocity[i]) && isFinite(d.restPosition[i]) && std::isfinite(d.mass[i]) && d.mass[i] > 0;
    // The drawn vertices are skinned from these (World::deformableVertices): a NaN in
    // any of them gave NaN vertices from a blob that passed (fuzz_snapshot).
    for (std::size_t k = 0; ok && k < m; ++k) ok = isFinite(d.restVertices[k]);
    for (std::size_t k = 0; ok && k < d.skinWeights.size(); ++k) ok = std::isfinite(d.skinWeights[k]);
    if (!ok) inconsistent(what, "arrays that disagree or point past each other, or a state that is not finite");
}

} // namespace

void World::checkRestored() const {
    requireConsistent(bodies_, "bodies");
    requireConsistent(colliders_, "colliders");
    requireConsistent(generators_, "force generators");
    requireConsistent(joints_, "joints");
    requireConsistent(deformables_, "deformables");
    for (const BodyId id : bodies_.ids()) {
        const Body& b = bodies_[id];
        const std::string what = "body " + detail::handleText(id);
        if (b.type != BodyType::Static && b.type != BodyType::Kinematic && b.type != BodyType::Dynamic)
            inconsistent(what, "a body type " + std::to_string(static_cast<int>(b.type)));
        detail::requireUnit(b.orientation, (what + ".orientation").c_str());
        if (!(isFinite(b.position) && isFinite(b.linearVelocity) && isFinite(b.angularVelocity) &&
              std::isfinite(b.inverseMass) && b.inverseMass >= 0 && isFinite(b.inverseInertiaWorld)))
            inconsistent(what, "a state or mass that is not finite");
        // Speeds the setters would refuse (and a step never leaves: limitSpeeds), a blob
        // may not bring in either (fuzz finding 8: a body restored at 1e228 rad/s).
        // Positions are not bounded: a world may drift a body past maxCoordinate.
        detail::requireSpeed(b.linearVelocity, (what + ".linearVelocity").c_str());
        detail::requireSpeed(b.angularVelocity, (what + ".angularVelocity").c_str());
    }
    for (const ColliderId id : colliders_.ids()) {
        const Collider& c = colliders_[id];
        const std::string what = "collider " + detail::handleText(id);
        if (!bodies_.contains(c.body)) inconsistent(what, "belongs to a body that is not live");
        ColliderDesc desc;
        desc.shape = c.shape;
        desc.local = c.local;
        desc.density = c.density;
        desc.material = c.material;
        validateColliderDesc(desc, bodies_[c.body].type, what.c_str());
    }
    for (const ForceGeneratorId id : generators_.ids())
        validateGenerator(generators_[id], ("force generator " + detail::handleText(id)).c_str());
    for (const JointId id : joints_.ids()) {
        const Joint& j = joints_[id];
        const bool ok = bodies_.contains(j.desc.a.body) && (j.desc.b.body.isNull() || bodies_.contains(j.desc.b.body)) &&
                        j.pointCount >= 0 && j.pointCount <= 3;
        if (!ok) inconsistent("joint " + detail::handleText(id), "joins a body that is not live, or has a bad point count");
    }
    const std::size_t bodySlots = bodies_.slotCount();
    for (const auto& [a, b] : sleepingLinks_)
        if (a >= bodySlots || b >= bodySlots) inconsistent("sleeping link", "names a body slot past the last");
    for (const ContactManifold& m : contacts_)
        if (m.manifold.count < 0 || m.manifold.count > Manifold::maxPoints)
            inconsistent("contact manifold", std::to_string(m.manifold.count) + " points");
    for (const SensorEvent& e : sensorEvents_.overlaps)
        if (!bodies_.contains(e.visitorBody) || !bodies_.contains(e.sensorBody))
            inconsistent("sensor overlap", "names a body that is not live");
    checkParticles(particles_);
    for (const auto id : particles_.attachments.ids()) {
        const BodyId target = particles_.attachments[id].target.body;
        if (!target.isNull() && !bodies_.contains(target))
            inconsistent("particle attachment " + detail::handleText(id), "hangs on a body that is not live");
    }
    for (const DeformableId id : deformables_.ids()) checkDeformable(deformables_[id], "deformable " + detail::handleText(id));
}

} // namespace jounce
