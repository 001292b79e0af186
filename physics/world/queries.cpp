// SPDX-License-Identifier: MIT
// The world's queries between steps (ray casts, shape casts, overlaps, closest points): the broad
// phase's trees find the candidates, the shape tests of collision/ answer
// (docs/collision.md, "World queries"). Read only: several threads may query at once.

#include <jounce/world/world.hpp>

#include <jounce/collision/narrow_phase.hpp>
#include <jounce/collision/point_queries.hpp>
#include <jounce/collision/ray_cast.hpp>
#include <jounce/collision/shape_cast.hpp>

#include "common/guard.hpp"
#include "common/parallel.hpp"
#include "common/validate.hpp"
#include "physics/world/stages.hpp"

#include <algorithm>
#include <limits>
#include <string>
#include <optional>
#include <vector>

namespace jounce {

/// After a successful step: the colliders whose box has left the fat box the broad
/// phase's trees hold for them (their body moved in the last substep, after the boxes
/// were made, farther than the margin and the sweep allowed). These, the colliders
/// created since and those of the bodies the API moved since are all the queries must
/// add to what the trees find.
void World::indexQueries() {
    unindexed_.clear();
    movedBodies_.clear();
    // Where the last substep's boxes were made: a collider whose body has not moved
    // since is still inside its box (a sleeping pile is never placed again here). One
    // that moved is placed where the step left it, pose and tight box, which is where
    // the next step's broad phase finds it placed already (unless the game moves it).
    // Each collider checked on the workers, the ones out of their boxes listed here in
    // proxy order.
    std::vector<detail::PlacedCollider>& placed = scratch_->collision.placed;
    std::vector<std::uint8_t>& out = scratch_->outOfBox;
    out.resize(proxyColliders_.size());
    detail::parallelFor(tasks(), static_cast<std::uint32_t>(proxyColliders_.size()), 512, [&](std::uint32_t first, std::uint32_t last) {
        for (std::uint32_t k = first; k < last; ++k) {
            const ColliderId id = proxyColliders_[k];
            const Collider& c = colliders_[id];
            const Body& body = bodies_[c.body];
            detail::PlacedCollider& p = placed[id.index];
            out[k] = !p.place(body, c, id.generation) && !c.fatBox.contains(p.tight);
        }
    });
    for (std::size_t k = 0; k < out.size(); ++k)
        if (out[k]) unindexed_.push_back(proxyColliders_[k]);
    queriesScanAll_ = false;
}

/// A query's filter names a live body, if any (a stale handle is a bug in the caller:
/// it would silently ignore nothing).
void World::validateFilter(const QueryFilter& filter, const char* field) const {
    if (filter.ignore.isNull()) return;
    requireLiveBody(filter.ignore, (std::string(field) + ".ignore").c_str());
}

/// The world queries' shared sweep: every live collider `filter` admits and
/// whose box may meet `region`, with its world pose and box, in index order. The broad
/// phase's trees name the candidates, with the colliders they do not cover; when they
/// cannot be trusted, or `region` has no bounds, every collider is visited. The
/// visitors test the box themselves, so both ways give the same answers.
template <typename Visit> void World::forEachCollider(const Aabb& region, const QueryFilter& filter, Visit visit) const {
    const auto visitSlot = [&](std::size_t i) {
        const Collider& c = colliders_.atSlot(i);
        if ((c.filter.category & filter.mask) == 0 || c.body == filter.ignore || (c.sensor && !filter.sensors)) return;
        const ColliderId id = colliders_.idOf(i);
        if (filter.accept && !filter.accept(id)) return;
        const Transform pose = bodies_[c.body].origin() * c.local;
        visit(id, c, pose, computeAabb(c.shape, pose));
    };
    if (queriesScanAll_ || !isFinite(region.min) || !isFinite(region.max)) {
        for (std::size_t i = 0; i < colliders_.slotCount(); ++i)
            if (colliders_.isAlive(i)) visitSlot(i);
        return;
    }
    // Grown by a few rounding errors: a candidate too many costs a test, one too few
    // would change an answer (a ray's hit point rounds off the segment's box).
    const real pad = 16 * std::numeric_limits<real>::epsilon() *
                     (1 + std::max(region.min.cwiseAbs().maxCoeff(), region.max.cwiseAbs().maxCoeff()));
    std::vector<std::uint32_t> found;
    broadPhase_.query(region.fattened(pad), found);
    std::vector<std::uint32_t> slots;
    for (const std::uint32_t p : found)
        if (p < proxyColliders_.size() && colliders_.contains(proxyColliders_[p])) slots.push_back(proxyColliders_[p].index);
    for (const ColliderId id : unindexed_)
        if (colliders_.contains(id)) slots.push_back(id.index);
    if (!movedBodies_.empty()) { // one pass comparing bodies, no boxes: far cheaper than visiting all
        std::vector<std::uint32_t> moved;
        for (const BodyId b : movedBodies_) moved.push_back(b.index);
        std::sort(moved.begin(), moved.end());
        for (std::size_t i = 0; i < colliders_.slotCount(); ++i)
            if (colliders_.isAlive(i) && std::binary_search(moved.begin(), moved.end(), colliders_.atSlot(i).body.index))
                slots.push_back(static_cast<std::uint32_t>(i));
    }
    std::sort(slots.begin(), slots.end());
    slots.erase(std::unique(slots.begin(), slots.end()), slots.end());
    for (const std::uint32_t i : slots) visitSlot(i);
}

std::vector<World::RayHit> World::rayCastAll(const Vec3& from, const Vec3& to, const QueryFilter& filter) const { return detail::guarded(errorHandler_, [&] {
    detail::requireFinite(from, "rayCast.from");
    detail::requireFinite(to, "rayCast.to");
    validateFilter(filter, "rayCast.filter");
    std::vector<RayHit> hits;
    const Aabb segment{from.cwiseMin(to), from.cwiseMax(to)};
    forEachCollider(segment, filter, [&](ColliderId id, const Collider& c, const Transform& pose, const Aabb& box) {
        ShapeRayHit h;
        if (rayHitsAabb(box, from, to) && rayCast(c.shape, pose, from, to, h))
            hits.push_back({c.body, id, h.fraction, h.point, h.normal});
    });
    std::stable_sort(hits.begin(), hits.end(), [](const RayHit& a, const RayHit& b) { return a.fraction < b.fraction; });
    return hits;
}); }

std::optional<World::RayHit> World::rayCastClosest(const Vec3& from, const Vec3& to, const QueryFilter& filter) const { return detail::guarded(errorHandler_, [&]() -> std::optional<RayHit> {
    const std::vector<RayHit> hits = rayCastAll(from, to, filter);
    if (hits.empty()) return std::nullopt;
    return hits.front();
}); }

std::vector<std::optional<World::RayHit>> World::rayCastBatch(std::span<const RayQuery> rays, TaskSystem* tasks) const { return detail::guarded(errorHandler_, [&] {
    for (std::size_t k = 0; k < rays.size(); ++k) {
        if (isFinite(rays[k].from) && isFinite(rays[k].to)) continue; // (the field's name only for a bad one)
        const std::string at = "rayCastBatch.rays[" + std::to_string(k) + "]";
        detail::requireFinite(rays[k].from, (at + ".from").c_str());
        detail::requireFinite(rays[k].to, (at + ".to").c_str());
    }
    std::vector<std::optional<RayHit>> hits(rays.size());
    // Each ray writes its own answer: any split among workers gives the same answers.
    detail::parallelFor(tasks, static_cast<std::uint32_t>(rays.size()), 16, [&](std::uint32_t begin, std::uint32_t end) {
        for (std::uint32_t k = begin; k < end; ++k) hits[k] = rayCastClosest(rays[k].from, rays[k].to, QueryFilter(rays[k].mask));
    });
    return hits;
}); }


void World::checkShapeCast(const Shape& shape, const Transform& pose, const Vec3& translation, const QueryFilter& filter) const {
    validateShape(shape, "shapeCast.shape");
    if (std::holds_alternative<HalfSpace>(shape) || std::holds_alternative<TriangleMesh>(shape))
        throw Error("shapeCast.shape", "a half-space or triangle mesh", "must be convex (a sphere, capsule, box, hull or cylinder)");
    detail::requirePoint(pose.position, "shapeCast.pose.position");
    detail::requireUnit(pose.orientation, "shapeCast.pose.orientation");
    detail::requireWithin(translation, detail::maxCoordinate, "maxCoordinate", "shapeCast.translation");
    validateFilter(filter, "shapeCast.filter");
}

std::vector<World::ShapeCastHit> World::shapeCastAll(const Shape& shape, const Transform& pose, const Vec3& translation,
                                                     const QueryFilter& filter) const { return detail::guarded(errorHandler_, [&] {
    checkShapeCast(shape, pose, translation, filter);
    // Every collider whose box meets the box the shape sweeps (its boxes at both ends).
    const Aabb start = computeAabb(shape, pose);
    // (grown by the skin: a collider within it of the path is hit too)
    const Aabb region = Aabb{start.min.cwiseMin(start.min + translation), start.max.cwiseMax(start.max + translation)}.fattened(shapeCastSkin);
    std::vector<ShapeCastHit> hits;
    forEachCollider(region, filter, [&](ColliderId id, const Collider& c, const Transform& cp, const Aabb& box) {
        if (!box.overlaps(region)) return;
        if (const std::optional<ShapeCastContact> h = shapeCast(shape, pose, translation, c.shape, cp))
            hits.push_back({c.body, id, h->fraction, h->point, h->normal});
    });
    std::stable_sort(hits.begin(), hits.end(), [](const ShapeCastHit& a, const ShapeCastHit& b) { return a.fraction < b.fraction; });
    return hits;
}); }

std::optional<World::ShapeCastHit> World::shapeCastClosest(const Shape& shape, const Transform& pose, const Vec3& translation,
                                                           const QueryFilter& filter) const { return detail::guarded(errorHandler_, [&]() -> std::optional<ShapeCastHit> {
    // shapeCastAll's first hit, without casting at colliders whose boxes the shape's box
    // reaches only after the best hit so far (each such hit comes later still): the same
    // answer, ties to the lower index (colliders come in index order).
    checkShapeCast(shape, pose, translation, filter);
    const Aabb start = computeAabb(shape, pose);
    const Aabb region = Aabb{start.min.cwiseMin(start.min + translation), start.max.cwiseMax(start.max + translation)}.fattened(shapeCastSkin);
    // (grown by a few rounding errors of the coordinates too, as forEachCollider's query is)
    const real pad = 64 * std::numeric_limits<real>::epsilon() *
                     (1 + std::max(region.min.cwiseAbs().maxCoeff(), region.max.cwiseAbs().maxCoeff()));
    std::optional<ShapeCastHit> best;
    forEachCollider(region, filter, [&](ColliderId id, const Collider& c, const Transform& cp, const Aabb& box) {
        if (!box.overlaps(region)) return;
        if (best && sweptAabbEntry(start, translation, box.fattened(2 * shapeCastSkin + pad)) > best->fraction) return;
        if (const std::optional<ShapeCastContact> h = shapeCast(shape, pose, translation, c.shape, cp))
            if (!best || h->fraction < best->fraction) best = ShapeCastHit{c.body, id, h->fraction, h->point, h->normal};
    });
    return best;
}); }

std::vector<ColliderId> World::overlap(const Shape& shape, const Transform& pose, const QueryFilter& filter) const { return detail::guarded(errorHandler_, [&] {
    validateShape(shape, "overlap.shape");
    detail::requireFinite(pose.position, "overlap.pose.position");
    detail::requireUnit(pose.orientation, "overlap.pose.orientation");
    validateFilter(filter, "overlap.filter");
    const Aabb query = computeAabb(shape, pose);
    std::vector<ColliderId> found;
    forEachCollider(query, filter, [&](ColliderId id, const Collider& c, const Transform& cp, const Aabb& box) {
        Manifold m;
        if (box.overlaps(query) && collide(shape, pose, c.shape, cp, 0, m)) found.push_back(id);
    });
    return found;
}); }

std::optional<World::ClosestPoint> World::closestPoint(const Vec3& point, real maxDistance, const QueryFilter& filter) const { return detail::guarded(errorHandler_, [&] {
    detail::requireFinite(point, "closestPoint.point");
    detail::requireNonNegative(maxDistance, "closestPoint.maxDistance");
    validateFilter(filter, "closestPoint.filter");
    std::optional<ClosestPoint> best;
    const Aabb reach{point.array() - maxDistance, point.array() + maxDistance};
    forEachCollider(reach, filter, [&](ColliderId id, const Collider& c, const Transform& cp, const Aabb& box) {
        if (!box.overlaps(reach)) return;
        const PointProximity p = signedDistance(c.shape, cp, point);
        if (p.distance <= maxDistance && (!best || p.distance < best->proximity.distance))
            best = ClosestPoint{c.body, id, p};
    });
    return best;
}); }

} // namespace jounce
