// SPDX-License-Identifier: MIT
// The world's particle API: every call validates first and changes nothing when it
// throws (the same rule as bodies). The particles live in flat arrays (particles.hpp);
// a ParticleId's index is the slot in all of them.

#include <jounce/world/world.hpp>

#include "physics/deformable/stages.hpp"
#include "physics/particles/stages.hpp"
#include "common/guard.hpp"
#include "physics/particles/direct_solve.hpp"
#include "common/validate.hpp"
#include "physics/world/world_state.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace jounce {
namespace {

template <typename T> void putAt(std::vector<T>& array, std::size_t slot, const T& value) {
    if (slot == array.size()) array.push_back(value);
    else array[slot] = value;
}

} // namespace

// The direct solver's cache, the particle solve's buffers and the step's backup are
// complete here, so the world's special members are.
World::World(World&&) noexcept = default;
World& World::operator=(World&&) noexcept = default;
World::~World() = default;

void World::requireLiveParticle(ParticleId id, const char* field) const {
    detail::requireLive(particles_.slots, id, field, "particle");
}

ParticleId World::createParticle(const ParticleDesc& d) { return detail::guarded(errorHandler_, [&] {
    detail::requirePoint(d.position, "ParticleDesc.position");
    detail::requireSpeed(d.velocity, "ParticleDesc.velocity");
    if (!d.pinned) detail::requireMass(d.mass, "ParticleDesc.mass");
    detail::requireExtent(d.radius, "ParticleDesc.radius");
    detail::requireNonNegative(d.staticFriction, "ParticleDesc.staticFriction");
    detail::requireNonNegative(d.kineticFriction, "ParticleDesc.kineticFriction");
    detail::requireInRange(d.restitution, 0, 1, "ParticleDesc.restitution");
    ParticleSystem& ps = particles_;
    const ParticleId id = ps.slots.insert(0);
    ++ps.topologyVersion;
    const std::size_t i = id.index;
    putAt(ps.x, i, d.position);
    putAt(ps.p, i, d.position);
    putAt(ps.v, i, d.pinned ? Vec3(Vec3::Zero()) : d.velocity);
    putAt(ps.w, i, d.pinned ? real(0) : 1 / d.mass);
    putAt(ps.radius, i, d.radius);
    putAt(ps.group, i, d.group);
    putAt(ps.staticFriction, i, d.staticFriction);
    putAt(ps.kineticFriction, i, d.kineticFriction);
    putAt(ps.restitution, i, d.restitution);
    putAt(ps.userData, i, d.userData);
    putAt(ps.force, i, Vec3(Vec3::Zero()));
    putAt(ps.fatBox, i, Aabb{});
    putAt(ps.asleep, i, std::uint8_t{0});
    putAt(ps.stepVelocity, i, Vec3(Vec3::Zero()));
    putAt(ps.previousVelocity, i, Vec3(Vec3::Zero()));
    putAt(ps.hasHistory, i, std::uint8_t{0});
    putAt(ps.motion, i, 2 * settings_.sleep.sleepThreshold); // as a woken body: not asleep at once
    return id;
}); }

void World::destroyParticle(ParticleId id) { return detail::guarded(errorHandler_, [&] {
    requireLiveParticle(id, "destroyParticle.id");
    for (const DistanceConstraintId c : particles_.distances.ids()) {
        const DistanceConstraint& d = particles_.distances[c];
        if (d.a == id.index || d.b == id.index) particles_.distances.erase(c);
    }
    for (const ParticleAttachmentId a : particles_.attachments.ids())
        if (particles_.attachments[a].particle == id.index) particles_.attachments.erase(a);
    const auto holds = [&](const auto& slots) { return std::find(slots.begin(), slots.end(), id.index) != slots.end(); };
    for (const ParticleConstraintId c : particles_.constraints.ids()) {
        const ParticleConstraint& k = particles_.constraints[c];
        if (std::find(k.p.begin(), k.p.begin() + k.count, id.index) != k.p.begin() + k.count) particles_.constraints.erase(c);
    }
    for (const ParticleVolumeId v : particles_.volumes.ids())
        if (holds(particles_.volumes[v].particles)) particles_.volumes.erase(v);
    for (const ParticleClusterId c : particles_.clusters.ids())
        if (holds(particles_.clusters[c].particles)) particles_.clusters.erase(c);
    for (const ParticleHierarchyId h : particles_.hierarchies.ids()) {
        const auto& levels = particles_.hierarchies[h].levels;
        const bool uses = std::any_of(levels.begin(), levels.end(), [&](const ParticleHierarchyLevel& l) {
            return holds(l.particles) || holds(l.children);
        });
        if (uses) particles_.hierarchies.erase(h);
    }
    for (const ParticleSurfaceId s : particles_.surfaces.ids()) {
        auto& triangles = particles_.surfaces[s].triangles;
        std::erase_if(triangles, [&](const std::array<std::uint32_t, 3>& t) { return holds(t); });
        if (triangles.empty()) particles_.surfaces.erase(s);
    }
    particles_.slots.erase(id);
    ++particles_.topologyVersion;
}); }

bool World::isParticleAsleep(ParticleId id) const { return detail::guarded(errorHandler_, [&] {
    requireLiveParticle(id, "isParticleAsleep.id");
    return particles_.asleep[id.index] != 0;
}); }

Particle World::particle(ParticleId id) const { return detail::guarded(errorHandler_, [&] {
    requireLiveParticle(id, "particle.id");
    const ParticleSystem& ps = particles_;
    const std::size_t i = id.index;
    return Particle{ps.x[i], ps.v[i], ps.w[i], ps.radius[i], ps.group[i], ps.staticFriction[i], ps.kineticFriction[i],
                    ps.restitution[i], ps.userData[i]};
}); }

void World::setParticlePosition(ParticleId id, const Vec3& position) { return detail::guarded(errorHandler_, [&] {
    requireLiveParticle(id, "setParticlePosition.id");
    detail::requirePoint(position, "setParticlePosition.position");
    particles_.x[id.index] = position;
    particles_.p[id.index] = position;
    particles_.hasHistory[id.index] = 0;
    wakeParticle(id.index);
}); }

void World::setParticleVelocity(ParticleId id, const Vec3& velocity) { return detail::guarded(errorHandler_, [&] {
    requireLiveParticle(id, "setParticleVelocity.id");
    detail::requireSpeed(velocity, "setParticleVelocity.velocity");
    if (particles_.w[id.index] == 0 && !velocity.isZero(0))
        throw Error("setParticleVelocity.velocity", toText(velocity), "a pinned particle cannot move");
    particles_.v[id.index] = velocity;
    particles_.hasHistory[id.index] = 0;
    wakeParticle(id.index);
}); }

void World::applyParticleForce(ParticleId id, const Vec3& force) { return detail::guarded(errorHandler_, [&] {
    requireLiveParticle(id, "applyParticleForce.id");
    detail::requireLoad(force, "applyParticleForce.force");
    particles_.force[id.index] += force;
    wakeParticle(id.index);
}); }

void World::wakeParticle(std::uint32_t slot) {
    // Its island wakes with it at the next step (groupParticles).
    if (!particles_.asleep[slot]) return;
    particles_.asleep[slot] = 0;
    particles_.motion[slot] = 2 * settings_.sleep.sleepThreshold;
}

// ---- Distance constraints ------------------------------------------------------------

DistanceConstraintId World::createDistanceConstraint(const DistanceConstraintDesc& d) { return detail::guarded(errorHandler_, [&] {
    requireLiveParticle(d.a, "DistanceConstraintDesc.a");
    requireLiveParticle(d.b, "DistanceConstraintDesc.b");
    if (d.a == d.b) throw Error("DistanceConstraintDesc.b", detail::handleText(d.b), "must differ from a");
    detail::requireFinite(d.restLength, "DistanceConstraintDesc.restLength");
    if (d.restLength > detail::maxCoordinate) // negative: the distance now
        throw Error("DistanceConstraintDesc.restLength", toText(d.restLength), "must be at most maxCoordinate " + toText(detail::maxCoordinate));
    detail::requireNonNegative(d.compliance, "DistanceConstraintDesc.compliance");
    const real rest = d.restLength < 0 ? (particles_.x[d.a.index] - particles_.x[d.b.index]).norm() : d.restLength;
    // A zero length has no direction to correct along (and particles that coincide).
    if (!(rest > real(1e-9)))
        throw Error("DistanceConstraintDesc.restLength", toText(rest), "must be > 0 (the particles coincide or it was given as 0)");
    DistanceConstraint c;
    c.a = d.a.index;
    c.b = d.b.index;
    c.restLength = rest;
    c.compliance = d.compliance;
    ++particles_.topologyVersion;
    return particles_.distances.insert(c);
}); }

void World::destroyDistanceConstraint(DistanceConstraintId id) { return detail::guarded(errorHandler_, [&] {
    detail::requireLive(particles_.distances, id, "destroyDistanceConstraint.id", "distance constraint");
    particles_.distances.erase(id);
    ++particles_.topologyVersion;
}); }

const DistanceConstraint& World::distanceConstraint(DistanceConstraintId id) const { return detail::guarded(errorHandler_, [&]() -> const DistanceConstraint& {
    return detail::requireLive(particles_.distances, id, "distanceConstraint.id", "distance constraint");
}); }

void World::setDistanceCompliance(DistanceConstraintId id, real compliance) { return detail::guarded(errorHandler_, [&] {
    detail::requireLive(particles_.distances, id, "setDistanceCompliance.id", "distance constraint");
    detail::requireNonNegative(compliance, "setDistanceCompliance.compliance");
    particles_.distances[id].compliance = compliance;
}); }

real World::distanceTension(DistanceConstraintId id) const { return detail::guarded(errorHandler_, [&]() -> real {
    const DistanceConstraint& c = distanceConstraint(id);
    const real h = particles_.lastSubstep;
    if (settings_.particles.solver != ParticleSolver::XPBD || !(h > 0)) return 0;
    return -c.lambda / (h * h);
}); }

// ---- Attachments ---------------------------------------------------------------------

ParticleAttachmentId World::createParticleAttachment(const ParticleAttachmentDesc& d) { return detail::guarded(errorHandler_, [&] {
    requireLiveParticle(d.particle, "ParticleAttachmentDesc.particle");
    if (!d.target.body.isNull()) requireLiveBody(d.target.body, "ParticleAttachmentDesc.target.body");
    detail::requirePoint(d.target.point, "ParticleAttachmentDesc.target.point");
    detail::requireInRange(d.restLength, 0, detail::maxCoordinate, "ParticleAttachmentDesc.restLength");
    detail::requireNonNegative(d.compliance, "ParticleAttachmentDesc.compliance");
    ParticleAttachment a;
    a.particle = d.particle.index;
    a.target = d.target;
    a.restLength = d.restLength;
    a.compliance = d.compliance;
    return particles_.attachments.insert(a);
}); }

void World::destroyParticleAttachment(ParticleAttachmentId id) { return detail::guarded(errorHandler_, [&] {
    detail::requireLive(particles_.attachments, id, "destroyParticleAttachment.id", "particle attachment");
    particles_.attachments.erase(id);
}); }

const ParticleAttachment& World::particleAttachment(ParticleAttachmentId id) const { return detail::guarded(errorHandler_, [&]() -> const ParticleAttachment& {
    return detail::requireLive(particles_.attachments, id, "particleAttachment.id", "particle attachment");
}); }

} // namespace jounce
