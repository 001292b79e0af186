// SPDX-License-Identifier: MIT
// The world's API for the particle constraints beyond distance: bending, tet volume
// and triangle area (ParticleConstraint), closed-mesh volumes (ParticleVolume) and
// clusters (ParticleCluster). As everywhere: validate every field first, then store;
// a throw leaves the world as it was.

#include <jounce/world/world.hpp>

#include "common/guard.hpp"
#include "physics/particles/stages.hpp"
#include "common/validate.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numbers>
#include <string>
#include <utility>

namespace jounce {
namespace {

int particlesUsed(ParticleConstraintKind kind) { return kind == ParticleConstraintKind::TriangleArea ? 3 : 4; }

const char* kindName(ParticleConstraintKind kind) {
    switch (kind) {
    case ParticleConstraintKind::Bending: return "bending";
    case ParticleConstraintKind::IsometricBending: return "isometric bending";
    case ParticleConstraintKind::TetVolume: return "tet volume";
    case ParticleConstraintKind::TriangleArea: return "triangle area";
    }
    return "?";
}

/// The longest edge between the constraint's particles (the scale for "degenerate").
real longestEdge(const std::array<Vec3, 4>& x, int count) {
    real longest = 0;
    for (int i = 0; i < count; ++i)
        for (int j = i + 1; j < count; ++j) longest = std::max(longest, (x[i] - x[j]).norm());
    return longest;
}

std::string fieldOf(const char* base, std::size_t index) { return std::string(base) + "[" + std::to_string(index) + "]"; }

/// A rest value the constraint can reach: an angle atan2 gives, or a volume or area of
/// a shape within the world's bound.
void requireRest(ParticleConstraintKind kind, real rest) {
    const char* field = "ParticleConstraintDesc.rest";
    const real size = detail::maxCoordinate;
    switch (kind) {
    case ParticleConstraintKind::Bending: detail::requireInRange(rest, -std::numbers::pi_v<real>, std::numbers::pi_v<real>, field); break;
    case ParticleConstraintKind::TetVolume: detail::requireInRange(rest, -size * size * size, size * size * size, field); break;
    case ParticleConstraintKind::TriangleArea: detail::requireInRange(rest, 0, size * size, field); break;
    default: detail::requireFinite(rest, field); break; // isometric bending: checked below
    }
}

} // namespace

// ---- Bending, tet volume, triangle area ----------------------------------------------

ParticleConstraintId World::createParticleConstraint(const ParticleConstraintDesc& d) { return detail::guarded(errorHandler_, [&] {
    if (static_cast<int>(d.kind) > static_cast<int>(ParticleConstraintKind::TriangleArea))
        throw Error("ParticleConstraintDesc.kind", std::to_string(static_cast<int>(d.kind)), "not a ParticleConstraintKind");
    const int count = particlesUsed(d.kind);
    std::array<Vec3, 4> x;
    ParticleConstraint k;
    k.kind = d.kind;
    k.count = static_cast<std::uint8_t>(count);
    for (int i = 0; i < count; ++i) {
        const std::string field = fieldOf("ParticleConstraintDesc.particles", static_cast<std::size_t>(i));
        requireLiveParticle(d.particles[static_cast<std::size_t>(i)], field.c_str());
        for (int j = 0; j < i; ++j)
            if (d.particles[static_cast<std::size_t>(j)] == d.particles[static_cast<std::size_t>(i)])
                throw Error(field, detail::handleText(d.particles[static_cast<std::size_t>(i)]),
                            "names the same particle as particles[" + std::to_string(j) + "]");
        k.p[static_cast<std::size_t>(i)] = d.particles[static_cast<std::size_t>(i)].index;
        x[static_cast<std::size_t>(i)] = particles_.x[k.p[static_cast<std::size_t>(i)]];
    }
    if (count == 3) {
        k.p[3] = k.p[0]; // unused; a valid slot so the projection can read it
        x[3] = x[0];
    }
    if (!std::isnan(d.rest)) requireRest(d.kind, d.rest);
    detail::requireNonNegative(d.compliance, "ParticleConstraintDesc.compliance");
    k.compliance = d.compliance;
    // The shape now must have a size: a flat tet, a collapsed triangle or a bending
    // stencil with a degenerate wing has no direction to correct along.
    const real edge = longestEdge(x, count);
    if (d.kind == ParticleConstraintKind::IsometricBending) {
        if (!std::isnan(d.rest) && d.rest != 0)
            throw Error("ParticleConstraintDesc.rest", toText(d.rest), "isometric bending's rest state is flat (leave NaN or give 0)");
        k.c = detail::isometricBendingCoefficients(x);
    }
    real value = 0;
    // Zeroed: constraintValue leaves the gradients unset for a degenerate stencil, and
    // measuring uninitialised stack bytes raised an FP exception (their squares
    // overflowed) before the degenerate check below could name the problem.
    std::array<Vec3, 4> grad;
    grad.fill(Vec3::Zero());
    k.rest = 0;
    const bool hasDirection = detail::constraintValue(k, x, value, grad);
    real gradientSize = 0;
    for (int i = 0; hasDirection && i < count; ++i)
        gradientSize = std::max(gradientSize, grad[static_cast<std::size_t>(i)].norm());
    const bool degenerate = !(edge > real(1e-9)) || !hasDirection ||
                            (d.kind == ParticleConstraintKind::TetVolume && !(std::abs(value) > real(1e-9) * edge * edge * edge)) ||
                            (d.kind == ParticleConstraintKind::TriangleArea && !(value > real(1e-9) * edge * edge)) ||
                            (d.kind != ParticleConstraintKind::IsometricBending && !(gradientSize > 0));
    if (degenerate)
        throw Error("ParticleConstraintDesc.particles", std::string(kindName(d.kind)) + " of size " + toText(value),
                    "the particles are degenerate (coincide, or lie on a line or in a plane) and give no direction to correct along");
    if (d.kind != ParticleConstraintKind::IsometricBending) k.rest = std::isnan(d.rest) ? value : d.rest;
    ++particles_.topologyVersion;
    return particles_.constraints.insert(k);
}); }

void World::destroyParticleConstraint(ParticleConstraintId id) { return detail::guarded(errorHandler_, [&] {
    detail::requireLive(particles_.constraints, id, "destroyParticleConstraint.id", "particle constraint");
    particles_.constraints.erase(id);
    ++particles_.topologyVersion;
}); }

const ParticleConstraint& World::particleConstraint(ParticleConstraintId id) const { return detail::guarded(errorHandler_, [&]() -> const ParticleConstraint& {
    return detail::requireLive(particles_.constraints, id, "particleConstraint.id", "particle constraint");
}); }

real World::particleConstraintValue(ParticleConstraintId id) const { return detail::guarded(errorHandler_, [&] {
    const ParticleConstraint& k = particleConstraint(id);
    std::array<Vec3, 4> x, grad;
    for (std::size_t i = 0; i < 4; ++i) x[i] = particles_.x[k.p[i]];
    real value = 0;
    return detail::constraintValue(k, x, value, grad) ? value : std::numeric_limits<real>::quiet_NaN();
}); }

// ---- Closed-mesh volumes -------------------------------------------------------------

std::array<std::uint32_t, 3> World::triangleSlots(const std::array<ParticleId, 3>& triangle, const char* base,
                                                 std::size_t index) const {
    std::array<std::uint32_t, 3> slots{};
    for (std::size_t c = 0; c < 3; ++c) {
        requireLiveParticle(triangle[c], (fieldOf(base, index) + "[" + std::to_string(c) + "]").c_str());
        slots[c] = triangle[c].index;
    }
    if (slots[0] == slots[1] || slots[1] == slots[2] || slots[0] == slots[2])
        throw Error(fieldOf(base, index), "a repeated particle", "a triangle needs three different particles");
    return slots;
}

ParticleVolumeId World::createParticleVolume(const ParticleVolumeDesc& d) { return detail::guarded(errorHandler_, [&] {
    if (d.triangles.size() < 4 || d.triangles.size() > 1000000)
        throw Error("ParticleVolumeDesc.triangles", std::to_string(d.triangles.size()) + " triangles",
                    "a closed mesh needs 4 to 1000000 triangles");
    ParticleVolume volume;
    // Every directed edge once and its reverse once: the mesh is closed and its
    // triangles are oriented alike (each edge is walked both ways by its two triangles).
    std::map<std::pair<std::uint32_t, std::uint32_t>, int> edges;
    for (std::size_t t = 0; t < d.triangles.size(); ++t) {
        const std::array<std::uint32_t, 3> slots = triangleSlots(d.triangles[t], "ParticleVolumeDesc.triangles", t);
        for (std::size_t c = 0; c < 3; ++c) ++edges[{slots[c], slots[(c + 1) % 3]}];
        volume.triangles.push_back(slots);
    }
    for (const auto& [edge, uses] : edges)
        if (uses != 1 || edges.count({edge.second, edge.first}) == 0)
            throw Error("ParticleVolumeDesc.triangles",
                        "edge " + std::to_string(edge.first) + " -> " + std::to_string(edge.second) + " used " + std::to_string(uses) + " time(s)",
                        "the mesh must be closed and consistently oriented (each edge walked once each way)");
    detail::requireInRange(d.pressure, std::numeric_limits<real>::min(), detail::maxRate, "ParticleVolumeDesc.pressure");
    detail::requireNonNegative(d.compliance, "ParticleVolumeDesc.compliance");
    detail::requireInRange(d.globalShare, 0, 1, "ParticleVolumeDesc.globalShare");
    if (d.mode != VolumeMode::Global && d.mode != VolumeMode::Diziol)
        throw Error("ParticleVolumeDesc.mode", std::to_string(static_cast<int>(d.mode)), "not a VolumeMode");
    for (const auto& t : volume.triangles) volume.particles.insert(volume.particles.end(), t.begin(), t.end());
    std::sort(volume.particles.begin(), volume.particles.end());
    volume.particles.erase(std::unique(volume.particles.begin(), volume.particles.end()), volume.particles.end());
    real six = 0;
    for (const auto& t : volume.triangles) six += particles_.x[t[0]].cross(particles_.x[t[1]]).dot(particles_.x[t[2]]);
    volume.restVolume = six / 6;
    if (!(volume.restVolume > 0))
        throw Error("ParticleVolumeDesc.triangles", "volume " + toText(volume.restVolume),
                    "must enclose a positive volume (triangles counter-clockwise seen from outside)");
    volume.pressure = d.pressure;
    volume.compliance = d.compliance;
    volume.mode = d.mode;
    volume.globalShare = d.globalShare;
    ++particles_.topologyVersion;
    return particles_.volumes.insert(std::move(volume));
}); }

void World::destroyParticleVolume(ParticleVolumeId id) { return detail::guarded(errorHandler_, [&] {
    detail::requireLive(particles_.volumes, id, "destroyParticleVolume.id", "particle volume");
    particles_.volumes.erase(id);
    ++particles_.topologyVersion;
}); }

const ParticleVolume& World::particleVolume(ParticleVolumeId id) const { return detail::guarded(errorHandler_, [&]() -> const ParticleVolume& {
    return detail::requireLive(particles_.volumes, id, "particleVolume.id", "particle volume");
}); }

real World::enclosedVolume(ParticleVolumeId id) const { return detail::guarded(errorHandler_, [&] {
    const ParticleVolume& volume = particleVolume(id);
    real six = 0;
    for (const auto& t : volume.triangles) six += particles_.x[t[0]].cross(particles_.x[t[1]]).dot(particles_.x[t[2]]);
    return six / 6;
}); }

void World::setVolumePressure(ParticleVolumeId id, real pressure) { return detail::guarded(errorHandler_, [&] {
    detail::requireLive(particles_.volumes, id, "setVolumePressure.id", "particle volume");
    detail::requireInRange(pressure, std::numeric_limits<real>::min(), detail::maxRate, "setVolumePressure.pressure");
    particles_.volumes[id].pressure = pressure;
}); }

// ---- Clusters ------------------------------------------------------------------------

ParticleClusterId World::createParticleCluster(const ParticleClusterDesc& d) { return detail::guarded(errorHandler_, [&] {
    if (d.particles.size() < 2 || d.particles.size() > 1000000)
        throw Error("ParticleClusterDesc.particles", std::to_string(d.particles.size()) + " particles", "a cluster needs 2 to 1000000");
    ParticleCluster cluster;
    bool anyMovable = false;
    for (std::size_t i = 0; i < d.particles.size(); ++i) {
        requireLiveParticle(d.particles[i], fieldOf("ParticleClusterDesc.particles", i).c_str());
        cluster.particles.push_back(d.particles[i].index);
        anyMovable = anyMovable || particles_.w[d.particles[i].index] > 0;
    }
    std::vector<std::uint32_t> sorted = cluster.particles;
    std::sort(sorted.begin(), sorted.end());
    if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
        throw Error("ParticleClusterDesc.particles", "a repeated particle", "each particle may appear once");
    if (!anyMovable) throw Error("ParticleClusterDesc.particles", "all pinned", "a cluster needs a particle that can move");
    detail::requireInRange(d.shapeStiffness, 0, 1, "ParticleClusterDesc.shapeStiffness");
    detail::requireInRange(d.rigidDamping, 0, 1, "ParticleClusterDesc.rigidDamping");
    cluster.shapeStiffness = d.shapeStiffness;
    cluster.rigidDamping = d.rigidDamping;
    detail::setClusterRest(particles_, cluster);
    ++particles_.topologyVersion;
    return particles_.clusters.insert(std::move(cluster));
}); }

void World::destroyParticleCluster(ParticleClusterId id) { return detail::guarded(errorHandler_, [&] {
    detail::requireLive(particles_.clusters, id, "destroyParticleCluster.id", "particle cluster");
    particles_.clusters.erase(id);
    ++particles_.topologyVersion;
}); }

const ParticleCluster& World::particleCluster(ParticleClusterId id) const { return detail::guarded(errorHandler_, [&]() -> const ParticleCluster& {
    return detail::requireLive(particles_.clusters, id, "particleCluster.id", "particle cluster");
}); }

// ---- Surfaces ----------------------------------------------------------------------

ParticleSurfaceId World::createParticleSurface(const ParticleSurfaceDesc& d) { return detail::guarded(errorHandler_, [&] {
    if (d.triangles.empty() || d.triangles.size() > 1000000)
        throw Error("ParticleSurfaceDesc.triangles", std::to_string(d.triangles.size()) + " triangles",
                    "a surface needs 1 to 1000000 triangles");
    detail::requireExtent(d.thickness, "ParticleSurfaceDesc.thickness");
    ParticleSurface surface;
    surface.thickness = d.thickness;
    for (std::size_t t = 0; t < d.triangles.size(); ++t) {
        const std::array<std::uint32_t, 3> slots = triangleSlots(d.triangles[t], "ParticleSurfaceDesc.triangles", t);
        for (std::size_t c = 0; c < 3; ++c) {
            const std::uint32_t group = particles_.group[slots[c]];
            if (t == 0 && c == 0) surface.group = group;
            if (group == 0 || group != surface.group)
                throw Error(fieldOf("ParticleSurfaceDesc.triangles", t) + "[" + std::to_string(c) + "]", "group " + std::to_string(group),
                            "a surface's particles share one non-zero group (ParticleDesc.group)");
        }
        surface.triangles.push_back(slots);
    }
    return particles_.surfaces.insert(std::move(surface));
}); }

void World::destroyParticleSurface(ParticleSurfaceId id) { return detail::guarded(errorHandler_, [&] {
    detail::requireLive(particles_.surfaces, id, "destroyParticleSurface.id", "particle surface");
    particles_.surfaces.erase(id);
}); }

const ParticleSurface& World::particleSurface(ParticleSurfaceId id) const { return detail::guarded(errorHandler_, [&]() -> const ParticleSurface& {
    return detail::requireLive(particles_.surfaces, id, "particleSurface.id", "particle surface");
}); }

// ---- Hierarchies ---------------------------------------------------------------------

ParticleHierarchyId World::createParticleHierarchy(const ParticleHierarchyDesc& d) { return detail::guarded(errorHandler_, [&] {
    if (d.particles.size() < 3 || d.particles.size() > 1000000)
        throw Error("ParticleHierarchyDesc.particles", std::to_string(d.particles.size()) + " particles",
                    "a hierarchy needs 3 to 1000000 particles");
    if (d.levels < 1 || d.levels > 8)
        throw Error("ParticleHierarchyDesc.levels", std::to_string(d.levels), "must lie in [1, 8]");
    if (d.parents < 1 || d.parents > 8)
        throw Error("ParticleHierarchyDesc.parents", std::to_string(d.parents), "must lie in [1, 8]");
    std::map<std::uint32_t, std::uint32_t> indexOf; // slot -> index in d.particles
    std::vector<std::uint32_t> slots;
    for (std::size_t i = 0; i < d.particles.size(); ++i) {
        requireLiveParticle(d.particles[i], fieldOf("ParticleHierarchyDesc.particles", i).c_str());
        if (!indexOf.emplace(d.particles[i].index, static_cast<std::uint32_t>(i)).second)
            throw Error(fieldOf("ParticleHierarchyDesc.particles", i), "a repeated particle", "each particle may appear once");
        slots.push_back(d.particles[i].index);
    }
    std::vector<std::array<std::uint32_t, 2>> edges;
    for (std::size_t e = 0; e < d.edges.size(); ++e) {
        std::array<std::uint32_t, 2> edge{};
        for (std::size_t c = 0; c < 2; ++c) {
            const std::string field = fieldOf("ParticleHierarchyDesc.edges", e) + "[" + std::to_string(c) + "]";
            requireLiveParticle(d.edges[e][c], field.c_str());
            const auto it = indexOf.find(d.edges[e][c].index);
            if (it == indexOf.end()) throw Error(field, detail::handleText(d.edges[e][c]), "not one of ParticleHierarchyDesc.particles");
            edge[c] = it->second;
        }
        if (edge[0] == edge[1]) throw Error(fieldOf("ParticleHierarchyDesc.edges", e), "a loop", "an edge joins two different particles");
        edges.push_back(edge);
    }
    ParticleHierarchy h = detail::buildHierarchy(particles_, slots, edges, d.levels, d.parents);
    if (h.levels.empty())
        throw Error("ParticleHierarchyDesc.edges", std::to_string(d.edges.size()) + " edges",
                    "the mesh has no coarser level (too few particles joined by edges)");
    h.meshParticles = std::move(slots);
    h.meshEdges = std::move(edges);
    h.levelsAsked = d.levels;
    h.parents = d.parents;
    return particles_.hierarchies.insert(std::move(h));
}); }

void World::destroyParticleHierarchy(ParticleHierarchyId id) { return detail::guarded(errorHandler_, [&] {
    detail::requireLive(particles_.hierarchies, id, "destroyParticleHierarchy.id", "particle hierarchy");
    particles_.hierarchies.erase(id);
}); }

const ParticleHierarchy& World::particleHierarchy(ParticleHierarchyId id) const { return detail::guarded(errorHandler_, [&]() -> const ParticleHierarchy& {
    return detail::requireLive(particles_.hierarchies, id, "particleHierarchy.id", "particle hierarchy");
}); }

} // namespace jounce
