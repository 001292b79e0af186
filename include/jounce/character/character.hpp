// SPDX-License-Identifier: MIT
#pragma once
/// \file character.hpp
/// A kinematic capsule character: walks on slopes up to a maximum angle and slides down
/// steeper ones, steps up stairs, snaps down to the ground when walking down, rides
/// moving and turning platforms, pushes dynamic bodies with a limited force and is pushed
/// by them, and never passes through a wall at any speed (docs/character.md).
///
/// It is a geometric mover, as Box2D v3's and Box3D's mover and Jolt's CharacterVirtual
/// are: not a body the solver moves, but a capsule moved by the game each frame through
/// the world's queries. Each update gathers the planes of what the capsule touches,
/// solves for the position nearest the wanted one that keeps clear of every plane, and
/// sweeps the capsule's core (the capsule less `CharacterDesc::encroach` of radius) to
/// that position, so no motion ever skips a surface. A kinematic capsule body follows
/// it in the world (the core's size, so it never touches what the capsule merely
/// rests against), so falling and sliding bodies meet the character; the impulses they
/// give that body push the character back.
///
/// Use: create it beside the world, then once a frame, before World::step, call
/// `update(world, dt, walkVelocity)`; `jump(speed)` when the game wants a jump.

#include <jounce/world/world.hpp>

#include <numbers>
#include <vector>

namespace jounce {

struct CharacterDesc {
    Vec3 position = Vec3::Zero();  ///< the feet: the capsule's lowest point [m]
    real radius = real(0.3);       ///< [m] > 0
    real height = real(1.8);       ///< feet to top [m] > 2 radius
    real mass = 80;                ///< [kg] > 0: how hard bodies push it, and it presses what it stands on
    /// The steepest ground it walks on [rad] in [0, pi/2): steeper slopes are walls to
    /// walk into and it slides down them.
    real maxSlope = std::numbers::pi_v<real> / 4;
    real stepHeight = real(0.3);   ///< the highest stair it steps onto [m] >= 0
    /// How far below its feet it looks for ground to stay on when the ground falls away
    /// while walking (down stairs or a ramp's crest) [m] >= 0.
    real snapDistance = real(0.4);
    /// The largest force it pushes a dynamic body with [N] >= 0 (0: it pushes nothing).
    real maxPushForce = 1000;
    /// How fast a push it took from a body dies away [1/s] >= 0 (its feet brake it).
    real pushDamping = 4;
    /// How deep the capsule may sink into a surface while sliding along it [m], in
    /// (0, radius / 2]: its core is swept without this much of its radius, so a sweep
    /// that starts touching a surface is not stopped by it.
    real encroach = real(0.02);
    /// The collision categories it meets (CollisionFilter::category bits); its body is
    /// of `category`.
    std::uint32_t mask = 0xffffffffu;
    std::uint32_t category = 1;
    /// Gravity along which it falls and "up" is measured: the world's, unless set (a
    /// zero vector means the world's WorldSettings::gravity).
    Vec3 gravity = Vec3::Zero();
};

/// One surface the capsule touches (or comes within the gathering margin of).
struct CharacterContact {
    BodyId body{};
    ColliderId collider{};
    Vec3 point = Vec3::Zero();    ///< on the surface [world]
    Vec3 normal = Vec3::UnitY();  ///< unit, out of the surface toward the character
    real separation = 0;          ///< gap (> 0) or overlap (< 0) along the normal [m]
};

/// A plane the mover keeps clear of: normal . delta + separation >= 0 for the capsule's
/// move `delta` from where the planes were gathered. `push` is what solvePlanes moved
/// along it; `pushLimit` bounds that (a soft plane), `clip` says whether clipVelocity
/// stops motion into it.
struct CharacterPlane {
    Vec3 normal = Vec3::UnitY();
    real separation = 0;
    real push = 0;
    real pushLimit = std::numeric_limits<real>::infinity();
    bool clip = true;
};

/// The move nearest `target` that keeps clear of every plane: Gauss-Seidel over the
/// planes' accumulated pushes, each kept in [0, pushLimit] (Box2D v3's plane solver in
/// 3D). Sets each plane's push; returns the move. At most 20 sweeps, stopping when the
/// pushes change by less than 0.1 mm.
Vec3 solvePlanes(const Vec3& target, std::vector<CharacterPlane>& planes);
/// `v` without its parts into the planes that pushed (push > 0) and clip.
Vec3 clipVelocity(const Vec3& v, const std::vector<CharacterPlane>& planes);

class Character {
public:
    /// Validates `desc` (throws jounce::Error naming the field, CharacterDesc.radius, ...,
    /// the world unchanged) and creates its kinematic capsule body in `world`.
    Character(World& world, const CharacterDesc& desc);

    /// Moves the character over `dt` [s] (in (0, 1]): carried by the platform it stands
    /// on, walking at the part of `walkVelocity` across gravity (its part along gravity
    /// is ignored), falling under gravity when not on walkable ground, pushed by what
    /// pushed its body in the last step; then aims its body at the new place for the
    /// next World::step. Throws jounce::Error (update.dt, update.walkVelocity,
    /// update.world: its body was destroyed) and changes nothing when an argument is bad.
    void update(World& world, real dt, const Vec3& walkVelocity);
    /// Leaves the ground upward at `speed` [m/s] >= 0 at the next update.
    void jump(real speed);
    /// Places the feet at `position` (no sweep; the body follows at once), stopping it.
    void teleport(World& world, const Vec3& position);

    const CharacterDesc& desc() const { return desc_; }
    Vec3 position() const { return position_; }  ///< the feet [m]
    Vec3 centre() const;                         ///< the capsule's centre [m]
    Vec3 up() const { return up_; }
    /// Its velocity over the last update: the walk, the fall, a push, a platform's carry.
    Vec3 velocity() const { return velocity_; }
    real verticalSpeed() const { return fall_.dot(up_); } ///< its fall's (or jump's) along up() [m/s]
    bool onGround() const { return onGround_; }  ///< standing on walkable ground
    BodyId ground() const { return ground_; }    ///< what it stands on (null in the air)
    Vec3 groundNormal() const { return groundNormal_; }
    Vec3 groundVelocity() const { return groundVelocity_; } ///< its platform's, where it stands
    BodyId body() const { return body_; }        ///< its kinematic capsule in the world
    /// The surfaces it touched at the end of the last update.
    const std::vector<CharacterContact>& contacts() const { return contacts_; }
    Vec3 pushVelocity() const { return push_; }  ///< what bodies' pushes left it [m/s]

private:
    CharacterDesc desc_;
    BodyId body_{};
    Vec3 up_ = Vec3::UnitY();
    real gravity_ = real(9.81);
    Vec3 position_ = Vec3::Zero();
    Vec3 velocity_ = Vec3::Zero();
    Vec3 fall_ = Vec3::Zero(); ///< gravity's integral since it left the ground, less what surfaces stopped
    real jumpSpeed_ = -1;
    Vec3 push_ = Vec3::Zero();
    std::uint64_t pushesRead_ = ~std::uint64_t{0}; ///< the world's stepCount() when its body's pushes were last read
    bool onGround_ = false;
    BodyId ground_{};
    Vec3 groundNormal_ = Vec3::UnitY();
    Vec3 groundVelocity_ = Vec3::Zero();
    Vec3 groundAnchor_ = Vec3::Zero(); ///< the feet in the ground body's frame
    std::vector<CharacterContact> contacts_;
};

} // namespace jounce
