// SPDX-License-Identifier: MIT
/// \file character_contacts.cpp
/// What the character's capsule touches, and how far its core may sweep: the two world
/// queries every stage of the mover is built on (Box2D v3's CollideMover and CastMover,
/// here on the world's overlap and shape-cast queries and the narrow phase).

#include "physics/character/stages.hpp"

#include <jounce/collision/narrow_phase.hpp>

#include <cmath>

namespace jounce::detail {

CharacterShape characterShape(const CharacterDesc& desc, const Vec3& up) {
    CharacterShape s;
    s.up = up;
    s.capsule = Capsule{desc.radius, desc.height / 2 - desc.radius};
    s.core = Capsule{desc.radius - desc.encroach, s.capsule.halfHeight};
    s.orientation = Quat::FromTwoVectors(Vec3::UnitY(), up).normalized();
    // + 0 turns the -0 components FromTwoVectors leaves (for up = y) into +0: a scene
    // file writes -0 as 0, and its character's body would load one bit different.
    s.orientation.coeffs().array() += real(0);
    s.centreHeight = desc.height / 2;
    return s;
}

bool characterMeets(const World& world, const CharacterDesc& desc, BodyId self, ColliderId id) {
    const Collider& c = world.collider(id);
    if (c.body == self || c.sensor) return false;
    return (c.filter.category & desc.mask) != 0 && (c.filter.mask & desc.category) != 0;
}

namespace {

/// What the character's queries see: its mask's categories, not its own body, no sensors
/// (characterMeets' rule, checked again on each hit where the pair's other way matters).
QueryFilter characterFilter(const CharacterDesc& desc, BodyId self) {
    QueryFilter f(desc.mask);
    f.ignore = self;
    f.sensors = false;
    return f;
}

} // namespace

std::vector<CharacterContact> gatherCharacterContacts(const World& world, const CharacterDesc& desc, BodyId self,
                                                      const CharacterShape& shape, const Vec3& feet, real margin) {
    const Transform pose = shape.pose(feet);
    // The colliders the capsule grown by the margin overlaps, then each one's manifolds.
    const Capsule reach{shape.capsule.radius + margin, shape.capsule.halfHeight};
    std::vector<CharacterContact> out;
    std::vector<Manifold> manifolds;
    for (const ColliderId id : world.overlap(reach, pose, characterFilter(desc, self))) {
        if (!characterMeets(world, desc, self, id)) continue;
        const Collider& c = world.collider(id);
        manifolds.clear();
        collideAll(shape.capsule, pose, c.shape, world.colliderPose(id), margin, manifolds);
        for (const Manifold& m : manifolds) {
            if (m.count == 0) continue;
            const ContactPoint& p = m.deepest();
            out.push_back({c.body, id, p.point, m.normal, -p.depth});
        }
    }
    return out;
}

namespace {

bool convexCollider(const Collider& c) { return !std::holds_alternative<TriangleMesh>(c.shape); }

} // namespace

CharacterSweep sweepCharacter(const World& world, const CharacterDesc& desc, BodyId self, const CharacterShape& shape,
                              const Vec3& feet, const Vec3& delta) {
    CharacterSweep sweep;
    if (delta.squaredNorm() == 0) return sweep;
    // A few tries: each mesh the core starts touching and leaves is stepped out of (two
    // skins along its normal) and swept again.
    for (int attempt = 0; attempt < 4; ++attempt) {
        const std::vector<World::ShapeCastHit> hits =
            world.shapeCastAll(shape.core, shape.pose(feet + sweep.nudge), delta, characterFilter(desc, self));
        bool again = false;
        for (const World::ShapeCastHit& h : hits) {
            if (!characterMeets(world, desc, self, h.collider)) continue;
            const bool leaving = h.fraction <= 0 && h.normal.dot(delta) >= 0;
            if (leaving) {
                // Moving along or away from a convex shape it touches never meets it
                // (the distance along a line between convex shapes is convex in the
                // line's parameter): skip it. A mesh may still lie ahead elsewhere.
                if (convexCollider(world.collider(h.collider))) continue;
                sweep.nudge += h.normal * (2 * shapeCastSkin);
                again = true;
                break;
            }
            sweep.fraction = h.fraction;
            sweep.hit = h;
            return sweep;
        }
        if (!again) return sweep;
    }
    sweep.fraction = 0; // still touching meshes it leaves: stay (the planes push it out)
    return sweep;
}

bool walkableContact(const World& world, const CharacterDesc& desc, const CharacterShape& shape, const Vec3& feet,
                     const CharacterContact& c, Vec3& surface) {
    const real minUp = std::cos(desc.maxSlope);
    surface = c.normal;
    // Only what lies under the lower end's centre can carry the character.
    if ((c.point - feet).dot(shape.up) > desc.radius) return false;
    if (c.normal.dot(shape.up) >= minUp) return true;
    if (c.normal.dot(shape.up) <= real(0.05)) return false;
    // An edge: its contact normal leans between the faces that meet there. A short ray
    // straight down just beyond the edge (away from the character) finds the face the
    // character would stand on.
    Vec3 across = c.normal - shape.up * c.normal.dot(shape.up);
    across.normalize();
    const Vec3 probe = c.point - across * real(0.01);
    const real reach = real(0.02);
    const std::optional<World::RayHit> hit = world.rayCastClosest(probe + shape.up * reach, probe - shape.up * reach, desc.mask);
    if (!hit || hit->collider != c.collider || hit->fraction <= 0) return false;
    surface = hit->normal;
    return hit->normal.dot(shape.up) >= minUp;
}

} // namespace jounce::detail
