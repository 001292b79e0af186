// SPDX-License-Identifier: MIT
/// \file debug_draw.cpp
/// debugDraw: the world handed to a game's renderer kind by kind (debug_draw.hpp),
/// read through World's public interface only.

#include <jounce/world/debug_draw.hpp>

#include "common/guard.hpp"
#include "common/validate.hpp"

#include <algorithm>
#include <array>

namespace jounce {

namespace {

void checkLength(real x, const char* field) {
    detail::requireNonNegative(x, field);
    if (x > detail::maxCoordinate) throw Error(field, toText(x), "must be at most maxCoordinate");
}

DebugColour bodyColour(const BodyState& b, bool showSleep) {
    switch (b.type) {
    case BodyType::Static: return DebugColours::staticBody;
    case BodyType::Kinematic: return DebugColours::kinematicBody;
    case BodyType::Dynamic: break;
    }
    return showSleep && !b.awake ? DebugColours::sleepingBody : DebugColours::dynamicBody;
}

/// A box's twelve edges.
void drawBox(DebugDraw& out, const Aabb& box, DebugColour colour) {
    const auto corner = [&](int k) {
        return Vec3((k & 1) ? box.max.x() : box.min.x(), (k & 2) ? box.max.y() : box.min.y(), (k & 4) ? box.max.z() : box.min.z());
    };
    for (int k = 0; k < 8; ++k)
        for (const int bit : {1, 2, 4})
            if (!(k & bit)) out.line(corner(k), corner(k | bit), colour);
}

void drawShapes(const World& world, DebugDraw& out, const DebugDrawSettings& s) {
    for (const ColliderId id : world.colliderIds()) {
        const Collider& c = world.collider(id);
        const DebugColour colour = c.sensor ? DebugColours::sensor : bodyColour(world.body(c.body), (s.flags & DebugDrawFlags::sleep) != 0);
        out.shape(c.shape, world.colliderPose(id), colour);
    }
}

/// Boxes with infinite sides (a half-space's) are not drawn.
bool drawable(const Aabb& box) { return isFinite(box.min) && isFinite(box.max); }

/// The collider's broad-phase box; for one created or moved since the last step (its
/// box not made yet, or left where it was), the box around it now, fattened the same.
Aabb broadPhaseBox(const World& world, ColliderId id) {
    const Collider& c = world.collider(id);
    const Aabb now = computeAabb(c.shape, world.colliderPose(id));
    return c.fatBox.contains(now) ? c.fatBox : now.fattened(world.settings().aabbMargin);
}

void drawBoundingBoxes(const World& world, DebugDraw& out) {
    for (const ColliderId id : world.colliderIds()) {
        const Aabb box = broadPhaseBox(world, id);
        if (drawable(box)) drawBox(out, box, DebugColours::boundingBox);
    }
}

void drawIslands(const World& world, DebugDraw& out) {
    const Islands& islands = world.islands();
    std::vector<Aabb> boxes(islands.count());
    for (const BodyId body : world.bodyIds()) {
        if (body.index >= islands.bodyIsland.size()) continue;
        const std::uint32_t k = islands.bodyIsland[body.index];
        if (k == noIsland || k >= boxes.size()) continue;
        for (const ColliderId id : world.colliderIdsOf(body)) {
            const Aabb box = computeAabb(world.collider(id).shape, world.colliderPose(id)); // where it is now
            boxes[k].min = boxes[k].min.cwiseMin(box.min);
            boxes[k].max = boxes[k].max.cwiseMax(box.max);
        }
    }
    static constexpr std::array<DebugColour, 6> palette{{{0.9f, 0.3f, 0.3f}, {0.3f, 0.9f, 0.3f}, {0.3f, 0.5f, 0.95f},
                                                         {0.9f, 0.8f, 0.2f}, {0.8f, 0.3f, 0.9f}, {0.2f, 0.85f, 0.85f}}};
    for (std::size_t k = 0; k < boxes.size(); ++k)
        if (drawable(boxes[k])) drawBox(out, boxes[k], palette[k % palette.size()]);
}

void drawContacts(const World& world, DebugDraw& out, const DebugDrawSettings& s) {
    for (const ContactManifold& m : world.contacts())
        for (int k = 0; k < m.manifold.count; ++k) {
            const std::size_t i = static_cast<std::size_t>(k);
            const ContactPoint& p = m.manifold.points[i];
            if (s.flags & DebugDrawFlags::contacts)
                out.point(p.point, s.pointSize, p.depth > 0 ? DebugColours::overlapping : DebugColours::apart);
            if (s.flags & DebugDrawFlags::normals)
                out.line(p.point, p.point + m.manifold.normal * s.normalLength, DebugColours::normal);
            if ((s.flags & DebugDrawFlags::impulses) && m.normalImpulse[i] > 0)
                out.line(p.point, p.point + m.manifold.normal * (m.normalImpulse[i] * s.impulseScale), DebugColours::impulse);
        }
}

void drawJoints(const World& world, DebugDraw& out) {
    for (const JointId id : world.jointIds()) {
        const JointDesc& j = world.joint(id).desc;
        const Vec3 a = world.attachmentPoint(j.a), b = world.attachmentPoint(j.b);
        out.line(a, b, DebugColours::joint);
        for (const Attachment& end : {j.a, j.b})
            if (!end.body.isNull()) out.line(world.body(end.body).centerOfMass, world.attachmentPoint(end), DebugColours::joint);
    }
}

void drawCentresOfMass(const World& world, DebugDraw& out, const DebugDrawSettings& s) {
    for (const BodyId id : world.bodyIds()) {
        const BodyState b = world.body(id);
        if (!b.isDynamic()) continue;
        const Mat3 axes = b.orientation.toRotationMatrix();
        const std::array<DebugColour, 3> colours{DebugColours::axisX, DebugColours::axisY, DebugColours::axisZ};
        for (int k = 0; k < 3; ++k) out.line(b.centerOfMass, b.centerOfMass + axes.col(k) * s.axisLength, colours[static_cast<std::size_t>(k)]);
    }
}

void drawParticles(const World& world, DebugDraw& out, const DebugDrawSettings& s) {
    const ParticleSystem& ps = world.particles();
    for (std::size_t i = 0; i < ps.slotCount(); ++i)
        if (ps.isAlive(i)) out.point(ps.x[i], ps.radius[i], ps.w[i] == 0 ? DebugColours::pinnedParticle : DebugColours::particle);
    if (ps.distances.size() > s.maxParticleLinks) return;
    for (std::size_t k = 0; k < ps.distances.slotCount(); ++k)
        if (ps.distances.isAlive(k)) {
            const DistanceConstraint& d = ps.distances.atSlot(k);
            out.line(ps.x[d.a], ps.x[d.b], DebugColours::particleLink);
        }
}

void drawDeformables(const World& world, DebugDraw& out) {
    std::size_t n = 0;
    for (const DeformableId id : world.deformableIds()) {
        const std::vector<Vec3> v = world.deformableVertices(id); // the skinned surface (Choi 2017, eq. 1)
        const DebugColour colour = DebugColours::deformables[n++ % 4];
        for (const auto& t : world.deformable(id).triangles) out.triangle(v[t[0]], v[t[1]], v[t[2]], colour);
    }
}

void drawForces(const World& world, DebugDraw& out) {
    for (const ForceGeneratorId id : world.forceGeneratorIds()) {
        const ForceGenerator& g = world.forceGenerator(id);
        if (const auto* s = std::get_if<Spring>(&g)) out.line(world.attachmentPoint(s->a), world.attachmentPoint(s->b), DebugColours::spring);
        else if (const auto* b = std::get_if<Bungee>(&g)) out.line(world.attachmentPoint(b->a), world.attachmentPoint(b->b), DebugColours::bungee);
        else if (const auto* f = std::get_if<FakeSpring>(&g)) out.line(f->anchor, world.body(f->body).centerOfMass, DebugColours::fakeSpring); // it pulls the centre of mass
    }
}

} // namespace

void debugDraw(const World& world, DebugDraw& out, const DebugDrawSettings& settings) { detail::guarded(world.errorHandler(), [&] {
    checkLength(settings.normalLength, "debugDraw.settings.normalLength");
    checkLength(settings.impulseScale, "debugDraw.settings.impulseScale");
    checkLength(settings.axisLength, "debugDraw.settings.axisLength");
    checkLength(settings.pointSize, "debugDraw.settings.pointSize");
    const std::uint32_t f = settings.flags;
    if (f & DebugDrawFlags::shapes) drawShapes(world, out, settings);
    if (f & DebugDrawFlags::boundingBoxes) drawBoundingBoxes(world, out);
    if (f & DebugDrawFlags::islands) drawIslands(world, out);
    if (f & (DebugDrawFlags::contacts | DebugDrawFlags::normals | DebugDrawFlags::impulses)) drawContacts(world, out, settings);
    if (f & DebugDrawFlags::joints) drawJoints(world, out);
    if (f & DebugDrawFlags::centresOfMass) drawCentresOfMass(world, out, settings);
    if (f & DebugDrawFlags::particles) drawParticles(world, out, settings);
    if (f & DebugDrawFlags::deformables) drawDeformables(world, out);
    if (f & DebugDrawFlags::forces) drawForces(world, out);
}); }

} // namespace jounce
