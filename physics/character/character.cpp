// SPDX-License-Identifier: MIT
/// \file character.cpp
/// Making a character: its description checked field by field, its kinematic capsule
/// body placed in the world; jumping and teleporting.

#include "physics/character/stages.hpp"

#include "common/guard.hpp"
#include "common/validate.hpp"

#include <cmath>

namespace jounce {

namespace {

void validate(const CharacterDesc& d) {
    detail::requirePoint(d.position, "CharacterDesc.position");
    detail::requireExtent(d.radius, "CharacterDesc.radius");
    detail::requireFinite(d.height, "CharacterDesc.height");
    if (!(d.height > 2 * d.radius) || d.height > detail::maxCoordinate)
        throw Error("CharacterDesc.height", toText(d.height), "must be more than twice the radius (" + toText(2 * d.radius) + ")");
    detail::requireMass(d.mass, "CharacterDesc.mass");
    detail::requireFinite(d.maxSlope, "CharacterDesc.maxSlope");
    if (!(d.maxSlope >= 0 && d.maxSlope < std::numbers::pi_v<real> / 2))
        throw Error("CharacterDesc.maxSlope", toText(d.maxSlope), "must be in [0, pi/2) [rad]");
    detail::requireNonNegative(d.stepHeight, "CharacterDesc.stepHeight");
    if (d.stepHeight > d.height) throw Error("CharacterDesc.stepHeight", toText(d.stepHeight), "must be at most the height");
    detail::requireNonNegative(d.snapDistance, "CharacterDesc.snapDistance");
    if (d.snapDistance > d.height) throw Error("CharacterDesc.snapDistance", toText(d.snapDistance), "must be at most the height");
    detail::requireNonNegative(d.maxPushForce, "CharacterDesc.maxPushForce");
    if (d.maxPushForce > detail::maxLoad) throw Error("CharacterDesc.maxPushForce", toText(d.maxPushForce), "must be at most maxLoad");
    detail::requireNonNegative(d.pushDamping, "CharacterDesc.pushDamping");
    if (d.pushDamping > detail::maxRate) throw Error("CharacterDesc.pushDamping", toText(d.pushDamping), "must be at most maxRate");
    detail::requireFinite(d.encroach, "CharacterDesc.encroach");
    if (!(d.encroach > 0 && d.encroach <= d.radius / 2))
        throw Error("CharacterDesc.encroach", toText(d.encroach), "must be in (0, radius / 2]");
    detail::requireWithin(d.gravity, detail::maxAcceleration, "maxAcceleration", "CharacterDesc.gravity");
}

} // namespace

Character::Character(World& world, const CharacterDesc& desc) : desc_(desc) { detail::guarded(world.errorHandler(), [&] {
    validate(desc);
    const Vec3 g = desc.gravity.squaredNorm() > 0 ? desc.gravity : world.settings().gravity;
    const real magnitude = g.norm();
    const Vec3 up = magnitude > 0 ? Vec3(-g / magnitude) : Vec3(Vec3::UnitY());
    const detail::CharacterShape shape = detail::characterShape(desc_, up);
    const Transform pose = shape.pose(desc.position);
    detail::requirePoint(pose.position, "CharacterDesc.position"); // its centre too
    BodyDesc body;
    body.type = BodyType::Kinematic;
    body.position = pose.position;
    body.orientation = pose.orientation;
    body.canSleep = false; // it moves every frame; a sleeping kinematic body would not
    ColliderDesc collider;
    collider.shape = shape.core;
    collider.filter = CollisionFilter{desc.category, desc.mask};
    body.colliders.push_back(collider);
    const BodyId made = world.createBody(body);
    if (!world.contains(made)) throw Error("Character.world", "createBody", "refused the character's body");
    body_ = made;
    gravity_ = magnitude;
    up_ = up;
    position_ = desc.position;
}); }

Vec3 Character::centre() const { return position_ + up_ * (desc_.height / 2); }

void Character::jump(real speed) {
    detail::requireNonNegative(speed, "jump.speed");
    if (speed > detail::maxSpeed) throw Error("jump.speed", toText(speed), "must be at most maxSpeed");
    jumpSpeed_ = speed;
}

void Character::teleport(World& world, const Vec3& position) { detail::guarded(world.errorHandler(), [&] {
    detail::requirePoint(position, "teleport.position");
    if (!world.contains(body_)) throw Error("teleport.world", "", "the character's body is not in this world (destroyed?)");
    const Transform pose = detail::characterShape(desc_, up_).pose(position);
    detail::requirePoint(pose.position, "teleport.position"); // its centre too
    world.setPosition(body_, pose.position);
    world.setLinearVelocity(body_, Vec3::Zero());
    position_ = position;
    velocity_ = push_ = fall_ = groundVelocity_ = Vec3::Zero();
    jumpSpeed_ = -1;
    onGround_ = false;
    ground_ = BodyId{};
    contacts_.clear();
}); }

} // namespace jounce
