// SPDX-License-Identifier: MIT
#pragma once
// The stages of World::step that move bodies (dynamics): forces, the two halves of
// semi-implicit Euler, and the mass properties a body takes from its colliders. Only
// the world calls them, in the order of docs/architecture.md; each works on the
// world's plain arrays.

#include <jounce/collision/mass_properties.hpp>
#include <jounce/common/tasks.hpp>
#include <jounce/common/handle.hpp>
#include <jounce/dynamics/body.hpp>
#include <jounce/dynamics/collider.hpp>
#include <jounce/dynamics/force_generators.hpp>
#include <jounce/dynamics/step_context.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace jounce::detail {

/// A material's coefficients and combine rules, or jounce::Error naming `prefix`.friction,
/// .restitution, .frictionCombine or .restitutionCombine (world.cpp).
void validateMaterial(const Material& m, const std::string& prefix);

using BodyArray = SlotArray<Body, BodyTag>;
using GeneratorArray = SlotArray<ForceGenerator, ForceGeneratorTag>;

/// Stage 1: gravity, API forces and every force generator into each awake dynamic
/// body's forceAccum and torqueAccum.
void applyForces(BodyArray& bodies, const GeneratorArray& generators, const StepContext& ctx, TaskSystem* tasks = nullptr);

/// The least bodies a worker takes at a time in the per-body stages (integration,
/// placing, proxies): below it, handing out the work costs more than it saves.
constexpr std::uint32_t bodiesPerRange = 256;

/// Stage 2: the velocity half of semi-implicit Euler for every awake dynamic body
/// (forces and torques into v and w, damping; see GyroscopicMode), except those a solver
/// already integrated (`solved`, by slot, may be empty: the soft step's). Every body's
/// impulse accumulators are cleared.
void integrateVelocities(BodyArray& bodies, const StepContext& ctx, const std::vector<std::uint8_t>& solved = {},
                         TaskSystem* tasks = nullptr);

/// Stage 7: the position half for every awake dynamic and every kinematic body: move
/// and turn with the velocities the resolver left, refresh the world inertia.
/// Bodies flagged in `skip` (by slot, may be empty) are left to the particle layer,
/// which moves them in its small steps.
/// `fraction` (by slot, may be empty) shortens a body's move to that share of the
/// step (continuous collision stops a fast body where it first touches something).
void integratePositions(BodyArray& bodies, const StepContext& ctx, const std::vector<std::uint8_t>& skip = {},
                        const std::vector<real>& fraction = {}, TaskSystem* tasks = nullptr);
/// Stage 7 for a body whose motion over the step a solver already integrated (the soft
/// step): moved by `displacement`, turned by `rotation` (world: q = rotation q), or
/// that `share` of both (continuous collision stopped it short).
void placeBody(Body& body, const Vec3& displacement, const Quat& rotation, real share = 1);
/// Stage 7 for one body over ctx.h (the particle layer's small steps use it).
void integrateBodyPosition(Body& body, const StepContext& ctx, real fraction = 1);

/// Mass, inertia (about the centre of mass, body frame) and centre of mass of a set of
/// colliders, each of uniform density. Half-spaces are skipped (static bodies only).
MassProperties massFromColliders(const std::vector<const Collider*>& colliders);


/// I^-1 of a body-frame inertia, symmetrised first (what World keeps for a dynamic body).
Mat3 bodyInverseInertia(const Mat3& inertia);

} // namespace jounce::detail
