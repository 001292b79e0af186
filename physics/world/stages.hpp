// SPDX-License-Identifier: MIT
#pragma once
// The world's view of every stage of World::step (physics/world/step.cpp runs them in
// the order of docs/architecture.md): each room declares its own stages; this header
// gathers them and the scratch buffers the world keeps for them.

#include "collision/stages.hpp"
#include "contact/contact_resolver.hpp"
#include "contact/soft_step.hpp"
#include "contact/stages.hpp"
#include "physics/dynamics/stages.hpp"

#include <jounce/world/world.hpp>

#include <atomic>
#include <cmath>
#include <mutex>

namespace jounce::detail {

/// Buffers the stages reuse from step to step (their capacity is what matters: once a
/// scene has settled, a step allocates nothing).
struct StepScratch {
    CollisionScratch collision;
    ContactScratch contact;
    SoftStepSolver soft;             ///< ContactSolver::SoftStep, and its scratch
    std::vector<JointMotionRow> motions; ///< soft step: the hinges' motion rows this substep
    std::vector<std::uint8_t> place; ///< soft step: by body, 1 where its motion is placed as solved
    std::vector<std::pair<Vec3, Vec3>> keptVelocity; ///< soft step: velocities kept while continuous collision sweeps
    std::vector<std::uint8_t> sweptMotion; ///< soft step: by body, 1 where continuous collision reads its solved motion
    std::vector<std::uint8_t> outOfBox; ///< indexQueries: by collider proxy, whether it left the box the trees hold
    std::vector<ContactManifold> lastManifolds; ///< narrow phase: last substep's manifolds, which this one's continue
    /// The manifolds as the step found them (World::contacts_ set aside by a swap): the
    /// first substep's to continue, and what a failed step puts back.
    std::vector<ContactManifold> stepStartManifolds;
    /// Set when the last solve left the coloured blocks' contacts unwritten
    /// (World::resolvedContacts writes them on the first read, under `describing`).
    std::atomic<bool> contactsPending{false};
    std::mutex describing;
};

/// What collision reads of the world's settings.
inline CollisionSettings collisionSettings(const WorldSettings& s) {
    return CollisionSettings{s.collisionMargin, s.aabbMargin, s.continuous, s.contactCache.distance, s.contactCache.angle,
                             std::pow(std::sin(s.contactCache.angle / 2), 2)};
}

} // namespace jounce::detail
