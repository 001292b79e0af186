// SPDX-License-Identifier: MIT
#pragma once
/// \file shape_cast.hpp
/// Where does a convex shape, moved along a straight line without turning, first touch
/// another shape? The question a character mover asks before each move, and the world's
/// shape casts (World::shapeCastClosest, shapeCastAll) ask of each candidate the broad
/// phase's trees name. Conservative advancement (time_of_impact.hpp) with the moving
/// shape's translation as the whole motion: the answer is never past the first contact,
/// and the shape stands between half the skin and the skin away from the other there.

#include <jounce/collision/shapes.hpp>
#include <jounce/common/math.hpp>

#include <optional>

namespace jounce {

/// How close a shape cast's hit pose comes to touching: between half this and this [m].
inline constexpr real shapeCastSkin = real(1e-3);

struct ShapeCastContact {
    real fraction = 1;           ///< the moving shape's position at the hit: pose.position + fraction * translation
    Vec3 point = Vec3::Zero();   ///< midway between the two surfaces there [world]
    Vec3 normal = Vec3::UnitY(); ///< unit, from `other` toward the moving shape (moving along it separates them)
};

/// The fraction of `translation` at which box `moving`, translated by it, first meets
/// `target` (slabs on the boxes' Minkowski sum; 0 if they overlap already), +infinity if
/// it never does. A shape inside `moving` cannot touch anything inside `target` sooner.
real sweptAabbEntry(const Aabb& moving, const Vec3& translation, const Aabb& target);

/// The first contact of convex `shape` (sphere, capsule, box, hull or cylinder) moved from `pose`
/// by `translation` with `other` (any shape, placed at `otherPose`), if it comes within
/// the skin; a shape already that close is hit at fraction 0 if they overlap or the
/// translation closes on it (resting on a floor and moving along it or away is no hit). The caller validates
/// (World::shapeCastAll does); a non-convex moving shape has no answer (nullopt).
std::optional<ShapeCastContact> shapeCast(const Shape& shape, const Transform& pose, const Vec3& translation,
                                          const Shape& other, const Transform& otherPose);

} // namespace jounce
