#pragma once
// Small rigid-body scenes with something to measure: the demo shows them, the tests
// assert their figures, jounce-bench runs them. Each builder adds bodies to a scene
// and returns the ids a test needs.

#include "scenes/scene.hpp"

namespace jounce::scenes {

/// A static ramp tilted by `angleDegrees` about z (rising toward -x) and a 1 m box
/// resting on it, both with friction `friction` (pairs combine as sqrt(fa fb), so the
/// pair's coefficient is `friction`), restitution 0. Returns the box; its start is
/// on the ramp's surface, 3 m up the slope from the ramp's centre.
BodyId buildIncline(Scene& scene, real angleDegrees, real friction);

/// A 1 m box resting on the ground and another dropped onto it from 1 m above.
/// Returns {lower, upper}.
std::array<BodyId, 2> buildTwoBoxes(Scene& scene);

/// A box of `upperMass` resting on a 1 m box of `lowerMass` on the ground.
std::array<BodyId, 2> buildMassRatio(Scene& scene, real lowerMass, real upperMass);

/// `count` spheres of radius 0.5 in a row along x on a frictionless floor, touching,
/// restitution `restitution`; the first one moves toward the rest at `speed`.
std::vector<BodyId> buildCradle(Scene& scene, int count, real restitution, real speed);

/// A ragdoll of 8 boxes (torso, head, arms, thighs, shins) on ball joints, its pelvis
/// at `pelvis`. Returns its bodies, torso first.
std::vector<BodyId> buildRagdoll(Scene& scene, const Vec3& pelvis);

/// The ground and `steps` static steps 0.4 m high and 0.8 m deep, rising toward -x.
std::vector<BodyId> buildStairs(Scene& scene, int steps);

} // namespace jounce::scenes
