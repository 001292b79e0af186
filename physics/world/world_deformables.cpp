// SPDX-License-Identifier: MIT
// The World's API for ARAP deformables (deformable.hpp): validation, then the solver
// in physics/deformable/. Every call checks all of its input before changing anything.

#include <jounce/world/world.hpp>

#include "physics/deformable/stages.hpp"
#include "common/guard.hpp"
#include "common/validate.hpp"
#include "physics/world/world_state.hpp"

#include <jounce/collision/ray_cast.hpp>

#include <algorithm>
#include <cmath>
#include <string>

namespace jounce {
namespace {

std::string indexed(const char* base, std::size_t i) { return std::string(base) + "[" + std::to_string(i) + "]"; }

void requireConnected(const DeformableDesc& d) {
    const std::size_t n = d.particles.size();
    std::vector<std::vector<std::uint32_t>> adjacent(n);
    for (std::size_t e = 0; e < d.edges.size(); ++e) {
        const auto [a, b] = d.edges[e];
        if (a >= n || b >= n)
            throw Error(indexed("DeformableDesc.edges", e), std::to_string(a) + " - " + std::to_string(b),
                        "names a particle past the last (" + std::to_string(n) + " particles)");
        if (a == b) throw Error(indexed("DeformableDesc.edges", e), std::to_string(a) + " - " + std::to_string(b), "joins a particle to itself");
        adjacent[a].push_back(b);
        adjacent[b].push_back(a);
    }
    std::vector<std::uint8_t> seen(n, 0);
    std::vector<std::uint32_t> stack{0};
    seen[0] = 1;
    std::size_t reached = 1;
    while (!stack.empty()) {
        const std::uint32_t i = stack.back();
        stack.pop_back();
        for (const std::uint32_t j : adjacent[i])
            if (!seen[j]) {
                seen[j] = 1;
                ++reached;
                stack.push_back(j);
            }
    }
    if (reached != n)
        throw Error("DeformableDesc.edges", std::to_string(reached) + " of " + std::to_string(n) + " particles reachable",
                    "the deformation graph must be connected");
}

void validate(const DeformableDesc& d) {
    if (d.particles.size() < 2 || d.particles.size() > 100000)
        throw Error("DeformableDesc.particles", std::to_string(d.particles.size()) + " particles",
                    "a deformation graph needs 2 to 100000 particles");
    for (std::size_t i = 0; i < d.particles.size(); ++i) {
        const OrientedParticleDesc& p = d.particles[i];
        detail::requirePoint(p.position, (indexed("DeformableDesc.particles", i) + ".position").c_str());
        detail::requireUnit(p.orientation, (indexed("DeformableDesc.particles", i) + ".orientation").c_str());
        for (int c = 0; c < 3; ++c) detail::requireExtent(p.radii[c], (indexed("DeformableDesc.particles", i) + ".radii").c_str());
    }
    if (d.edges.empty()) throw Error("DeformableDesc.edges", "no edges", "the deformation graph needs edges");
    requireConnected(d);
    detail::validateDeformableMaterial(d.density, d.stiffness, d.damping, d.friction, d.iterations, "DeformableDesc");
    if (d.skinningNeighbours < 1 || d.skinningNeighbours > 16)
        throw Error("DeformableDesc.skinningNeighbours", std::to_string(d.skinningNeighbours), "must lie in [1, 16]");
    for (std::size_t k = 0; k < d.vertices.size(); ++k) detail::requirePoint(d.vertices[k], indexed("DeformableDesc.vertices", k).c_str());
    if (!d.normals.empty() && d.normals.size() != d.vertices.size())
        throw Error("DeformableDesc.normals", std::to_string(d.normals.size()) + " normals",
                    "one per vertex (" + std::to_string(d.vertices.size()) + "), or none");
    for (std::size_t k = 0; k < d.normals.size(); ++k) {
        detail::requireFinite(d.normals[k], indexed("DeformableDesc.normals", k).c_str());
        if (!(d.normals[k].norm() > 0)) throw Error(indexed("DeformableDesc.normals", k), "zero", "a normal needs a direction");
    }
    for (std::size_t t = 0; t < d.triangles.size(); ++t)
        for (const std::uint32_t v : d.triangles[t])
            if (v >= d.vertices.size())
                throw Error(indexed("DeformableDesc.triangles", t), "vertex " + std::to_string(v),
                            "past the last vertex (" + std::to_string(d.vertices.size()) + ")");
}

} // namespace

Deformable& World::liveDeformable(DeformableId id, const char* field) {
    return detail::requireLive(deformables_, id, field, "deformable");
}

void World::wakeDeformable(Deformable& d) const {
    d.asleep = false;
    d.motion = std::max(d.motion, 2 * settings_.sleep.sleepThreshold); // Millington: not straight back to sleep
}

DeformableId World::createDeformable(const DeformableDesc& desc) { return detail::guarded(errorHandler_, [&] {
    validate(desc);
    Deformable d;
    detail::buildDeformable(desc, d);
    d.motion = 2 * settings_.sleep.sleepThreshold; // as a new body: awake for a while
    const DeformableId id = deformables_.insert(std::move(d));
    if (deformableSolvers_->bySlot.size() <= id.index) deformableSolvers_->bySlot.resize(id.index + 1);
    deformableSolvers_->bySlot[id.index] = detail::DeformableSolver{}; // a reused slot starts afresh
    return id;
}); }

void World::destroyDeformable(DeformableId id) { return detail::guarded(errorHandler_, [&] {
    liveDeformable(id, "destroyDeformable.id");
    deformables_.erase(id);
    deformableSolvers_->bySlot[id.index] = detail::DeformableSolver{};
}); }

const Deformable& World::deformable(DeformableId id) const { return detail::guarded(errorHandler_, [&]() -> const Deformable& {
    return detail::requireLive(deformables_, id, "deformable.id", "deformable");
}); }

DeformableHandleId World::createDeformableHandle(DeformableId id, const DeformableHandleDesc& desc) { return detail::guarded(errorHandler_, [&] {
    Deformable& d = liveDeformable(id, "createDeformableHandle.id");
    if (desc.vertex >= d.restVertices.size())
        throw Error("DeformableHandleDesc.vertex", std::to_string(desc.vertex),
                    "no such vertex (the deformable has " + std::to_string(d.restVertices.size()) + ")");
    if (desc.kind != DeformableHandleDesc::Kind::Position && desc.kind != DeformableHandleDesc::Kind::Direction)
        throw Error("DeformableHandleDesc.kind", std::to_string(static_cast<int>(desc.kind)), "not a handle kind");
    detail::requirePoint(desc.target, "DeformableHandleDesc.target"); // a direction's is unit: within the bound too
    detail::requireInRange(desc.weight, 0, detail::maxHandleWeight, "DeformableHandleDesc.weight");
    DeformableHandle handle{desc};
    if (desc.weight == 0)
        handle.desc.weight = std::min(detail::maxHandleWeight, 1000 * d.stiffness * *std::max_element(d.volume.begin(), d.volume.end()));
    if (desc.kind == DeformableHandleDesc::Kind::Direction) {
        detail::requireFinite(desc.restDirection, "DeformableHandleDesc.restDirection");
        if (!(desc.target.norm() > 0)) throw Error("DeformableHandleDesc.target", "zero", "a direction needs a length");
        if (!(desc.restDirection.norm() > 0)) throw Error("DeformableHandleDesc.restDirection", "zero", "a direction needs a length");
        handle.desc.target.normalize();
        handle.desc.restDirection.normalize();
    }
    ++d.systemVersion;
    wakeDeformable(d);
    return d.handles.insert(handle);
}); }

void World::destroyDeformableHandle(DeformableId id, DeformableHandleId handle) { return detail::guarded(errorHandler_, [&] {
    Deformable& d = liveDeformable(id, "destroyDeformableHandle.id");
    detail::requireLive(d.handles, handle, "destroyDeformableHandle.handle", "deformable handle");
    d.handles.erase(handle);
    ++d.systemVersion;
    wakeDeformable(d);
}); }

void World::setDeformableHandleTarget(DeformableId id, DeformableHandleId handle, const Vec3& target) { return detail::guarded(errorHandler_, [&] {
    Deformable& d = liveDeformable(id, "setDeformableHandleTarget.id");
    DeformableHandle& h = detail::requireLive(d.handles, handle, "setDeformableHandleTarget.handle", "deformable handle");
    detail::requirePoint(target, "setDeformableHandleTarget.target");
    if (h.desc.kind == DeformableHandleDesc::Kind::Direction) {
        if (!(target.norm() > 0)) throw Error("setDeformableHandleTarget.target", "zero", "a direction needs a length");
        h.desc.target = target.normalized();
    } else {
        h.desc.target = target;
    }
    wakeDeformable(d);
}); }

void World::setDeformableParticlePose(DeformableId id, std::size_t index, const Vec3& position, const Quat& orientation) { return detail::guarded(errorHandler_, [&] {
    Deformable& d = liveDeformable(id, "setDeformableParticlePose.id");
    if (index >= d.size())
        throw Error("setDeformableParticlePose.index", std::to_string(index),
                    "no such particle (the deformable has " + std::to_string(d.size()) + ")");
    detail::requirePoint(position, "setDeformableParticlePose.position");
    detail::requireUnit(orientation, "setDeformableParticlePose.orientation");
    d.position[index] = position;
    d.rotation[index] = orientation.normalized().toRotationMatrix() * d.restAxes[index].transpose();
    d.velocity[index].setZero();
    d.angularVelocity[index].setZero();
    wakeDeformable(d);
}); }

void World::setDeformableVelocity(DeformableId id, const Vec3& velocity) { return detail::guarded(errorHandler_, [&] {
    Deformable& d = liveDeformable(id, "setDeformableVelocity.id");
    detail::requireSpeed(velocity, "setDeformableVelocity.velocity");
    for (std::size_t i = 0; i < d.size(); ++i) {
        d.velocity[i] = velocity;
        d.angularVelocity[i].setZero();
    }
    wakeDeformable(d);
}); }

std::vector<Vec3> World::deformableVertices(DeformableId id) const { return detail::guarded(errorHandler_, [&] {
    const Deformable& d = deformable(id);
    std::vector<Vec3> out(d.restVertices.size());
    for (std::size_t k = 0; k < out.size(); ++k) out[k] = detail::skinnedVertex(d, k);
    return out;
}); }

std::vector<Vec3> World::deformableNormals(DeformableId id) const { return detail::guarded(errorHandler_, [&] {
    const Deformable& d = deformable(id);
    std::vector<Vec3> out(d.restNormals.size());
    for (std::size_t k = 0; k < out.size(); ++k) out[k] = detail::skinnedNormal(d, k);
    return out;
}); }

namespace {

/// Where the segment first meets the deformable's skinned triangles (or, with none,
/// its ellipsoids), as a fraction; 2 for a miss.
real firstHit(const Deformable& d, const std::vector<Vec3>& skinned, const Vec3& from, const Vec3& to) {
    real best = 2;
    for (const auto& t : d.triangles) {
        real f = 1;
        if (rayTriangle(from, to, skinned[t[0]], skinned[t[1]], skinned[t[2]], f)) best = std::min(best, f);
    }
    if (!d.triangles.empty()) return best;
    for (std::size_t i = 0; i < d.size(); ++i) {
        real f = 1;
        if (rayEllipsoid(d.position[i], d.rotation[i] * d.restAxes[i], d.radii[i], from, to, f)) best = std::min(best, f);
    }
    return best;
}

} // namespace

std::optional<World::DeformableRayHit> World::rayCastDeformables(const Vec3& from, const Vec3& to) const { return detail::guarded(errorHandler_, [&] {
    detail::requireFinite(from, "rayCastDeformables.from");
    detail::requireFinite(to, "rayCastDeformables.to");
    std::optional<DeformableRayHit> hit;
    for (std::size_t k = 0; k < deformables_.slotCount(); ++k) {
        if (!deformables_.isAlive(k)) continue;
        const Deformable& d = deformables_.atSlot(k);
        std::vector<Vec3> skinned(d.restVertices.size());
        for (std::size_t v = 0; v < skinned.size(); ++v) skinned[v] = detail::skinnedVertex(d, v);
        const real f = firstHit(d, skinned, from, to);
        if (f > 1 || (hit && f >= hit->fraction)) continue;
        const Vec3 point = from + f * (to - from);
        std::uint32_t nearest = 0;
        for (std::uint32_t v = 1; v < skinned.size(); ++v)
            if ((skinned[v] - point).squaredNorm() < (skinned[nearest] - point).squaredNorm()) nearest = v;
        hit = DeformableRayHit{deformables_.idOf(k), nearest, f, point};
    }
    return hit;
}); }

DeformableStats World::deformableStats(DeformableId id) const { return detail::guarded(errorHandler_, [&] {
    deformable(id);
    return deformableSolvers_->bySlot[id.index].stats;
}); }

} // namespace jounce
