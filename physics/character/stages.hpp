// SPDX-License-Identifier: MIT
#pragma once
/// \file stages.hpp
/// The character mover's stages (docs/character.md), each in its own file:
/// character_contacts.cpp (what the capsule touches, and sweeping its core),
/// solve_planes.cpp (the plane solver), move_character.cpp (one update).

#include <jounce/character/character.hpp>

#include <optional>
#include <vector>

namespace jounce::detail {

/// The capsule and its core (less `encroach` of radius), standing upright along `up`.
struct CharacterShape {
    Capsule capsule;
    Capsule core;
    Quat orientation = Quat::Identity(); ///< the capsule's y axis onto up
    Vec3 up = Vec3::UnitY();
    real centreHeight = 0;               ///< feet to centre [m]
    Transform pose(const Vec3& feet) const { return Transform{feet + up * centreHeight, orientation}; }
};
CharacterShape characterShape(const CharacterDesc& desc, const Vec3& up);

/// Whether the character meets collider `id` at all: not its own body, not a sensor,
/// and the filters agree both ways.
bool characterMeets(const World& world, const CharacterDesc& desc, BodyId self, ColliderId id);

/// The surfaces within `margin` of the capsule with its feet at `feet`: one contact per
/// manifold (its deepest point), in collider order.
std::vector<CharacterContact> gatherCharacterContacts(const World& world, const CharacterDesc& desc, BodyId self,
                                                      const CharacterShape& shape, const Vec3& feet, real margin);

/// A sweep of the core from `feet` along `delta`: how far it may go (fraction of delta),
/// the first surface it met, and the small step out of a surface it started touching
/// and moves away from (a mesh reports such a touch first; the sweep steps out and
/// looks again so a farther triangle of the same mesh is not missed).
struct CharacterSweep {
    real fraction = 1;
    Vec3 nudge = Vec3::Zero();
    std::optional<World::ShapeCastHit> hit;
};
CharacterSweep sweepCharacter(const World& world, const CharacterDesc& desc, BodyId self, const CharacterShape& shape,
                              const Vec3& feet, const Vec3& delta);

/// Whether the ground at contact `c` is walkable: its normal within maxSlope of up, or,
/// for a contact on an edge (a stair's nosing), the face a short ray finds just beyond
/// the edge. Writes that face's normal to `surface`.
bool walkableContact(const World& world, const CharacterDesc& desc, const CharacterShape& shape, const Vec3& feet,
                     const CharacterContact& c, Vec3& surface);

} // namespace jounce::detail
