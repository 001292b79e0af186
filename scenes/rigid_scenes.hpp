// SPDX-License-Identifier: MIT
#pragma once
// Small rigid-body scenes with something to measure: the demo shows them, the tests
// assert their figures, jounce-bench runs them. Each builder adds bodies to a scene
// and returns the ids a test needs.

#include "scenes/scene.hpp"

#include <vector>

namespace jounce::scenes {

/// The static ground: a 100 m x 100 m slab whose top is y = 0.
void addGroundSlab(Scene& scene, real friction, real restitution = 0);

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
std::vector<BodyId> buildBoxRagdoll(Scene& scene, const Vec3& pelvis);

/// The ground and `steps` static steps 0.4 m high and 0.8 m deep, rising toward -x.
std::vector<BodyId> buildStairs(Scene& scene, int steps);

/// A suspension bridge after Millington's particle bridge (ch. 7): `planks` rigid
/// planks (0.5 x 0.1 x 1.6 m) in a row along x at height `deck`, each hanging from two
/// fixed anchors 3 m above it by cables, linked to its neighbours (and the end planks to
/// the static banks) by a cable at each side. Returns the planks, left to right.
struct Bridge {
    std::vector<BodyId> planks;
    real deck = 0;          ///< height of the planks' centres when the cables are just taut
    real hangerLength = 0;  ///< length of each hanger cable
};
Bridge buildBridge(Scene& scene, int planks, real deck);

/// A sphere of `mass` and `radius` fired from `from` at `velocity` (it never sleeps).
BodyId fireRound(Scene& scene, const Vec3& from, const Vec3& velocity, real mass, real radius);

/// Replaces a one-box body by its eight octants (Millington's fracture demo, cut at the
/// middle), each moving as that part of the block moved. Returns the pieces.
std::vector<BodyId> splitBox(Scene& scene, BodyId block);

/// An explosion as Millington's explosion force generator describes it (ch. 8): a
/// shock-wave front leaves the centre at `speed` and, as it passes a body's centre,
/// gives it an impulse along the line from the centre: mass times `peakSpeed`, falling
/// linearly to zero at `reach`. Call advance() once per step.
class ShockWave {
public:
    real speed = 30;      ///< front speed [m/s]
    real reach = 8;       ///< no effect beyond [m]
    real peakSpeed = 12;  ///< velocity change at the centre [m/s]

    void detonate(const Vec3& centre);
    void advance(World& world, real h);
    /// The impulse on a body of `mass` whose centre is at `at`.
    Vec3 impulseOn(const Vec3& at, real mass) const;
    bool active() const { return active_; }
    const std::vector<BodyId>& hit() const { return hit_; } ///< bodies reached so far

private:
    Vec3 centre_ = Vec3::Zero();
    real radius_ = 0;
    bool active_ = false;
    std::vector<BodyId> hit_;
};

} // namespace jounce::scenes
