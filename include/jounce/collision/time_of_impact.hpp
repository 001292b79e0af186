// SPDX-License-Identifier: MIT
#pragma once
/// \file time_of_impact.hpp
/// When do two moving shapes first come within a distance of each other during a step?
/// Conservative advancement (Mirtich, "Impulse-based Dynamic Simulation of Rigid Body
/// Systems", 1996, ch. 5; van den Bergen ch. 5): at distance d, no point of either
/// shape moves faster than the bound
///     mu = |dx_a - dx_b| + |dtheta_a| R_a + |dtheta_b| R_b
/// (R: how far the shape reaches from the point it turns about), so the shapes cannot
/// meet before the fraction d / mu of the step has passed. Step forward by that much,
/// measure again, repeat: the fraction only grows, and never past the first contact.
///
/// The world uses it to keep speculative contacts honest (docs/collision.md, "Fast
/// bodies"): a contact reported for shapes still apart is kept only when their sweep
/// over the step really brings them together.

#include <jounce/collision/manifold.hpp>
#include <jounce/collision/shapes.hpp>
#include <jounce/common/math.hpp>

#include <vector>

namespace jounce {

/// How a shape moves over one step: from pose `start`, its point `centre` moves by
/// `linear` while the shape turns by the rotation vector `angular` about that point.
/// The pose at fraction t of the step applies t times each.
struct Sweep {
    Transform start;             ///< the shape's pose at t = 0
    Vec3 centre = Vec3::Zero();  ///< world point it turns about (the body's centre of mass) [m]
    Vec3 linear = Vec3::Zero();  ///< displacement of `centre` over the step [m]
    Vec3 angular = Vec3::Zero(); ///< rotation vector over the step [rad]

    Transform at(real t) const;
};

/// How far the shape placed at `pose` reaches from the point `centre` (to the farthest
/// corner of its bounding box; for a sphere, to its centre: turning about its own
/// centre does not move its surface): the R of the bound mu. Only for shapes that can
/// move (a half-space's box is unbounded).
real reachFrom(const Shape& shape, const Transform& pose, const Vec3& centre);
/// The same, with the shape's box at `pose` (computeAabb) already made.
real reachFrom(const Shape& shape, const Transform& pose, const Aabb& box, const Vec3& centre);

struct TimeOfImpact {
    bool hit = false;   ///< the shapes come within the target distance during the step
    real fraction = 1;  ///< of the step, when they first do (1 when they do not)
    real distance = 0;  ///< last measured separation (a lower bound for polytopes) [m]
    int iterations = 0;
};

/// The first fraction t in [0, 1] of the step at which shapes `a` and `b` are at most
/// `target` apart (the walk lands at a distance between target / 2 and target).
/// Shapes already that close at t = 0 hit at 0. Separations come from the narrow
/// phase (exact for spheres and capsules, the separating-axis distance, a lower bound,
/// for boxes and hulls), so the answer is never later than the true first contact.
/// After `maxIterations` without an answer the walk reports a hit where it stands (the
/// safe side: a contact too many, never a pass-through). `scratch`, if given, holds
/// the narrow phase's manifolds between calls (no allocation once it has grown).
/// Throws jounce::Error naming the field for a target that is not finite and > 0,
/// maxIterations outside [1, 1000], or a sweep with non-finite numbers or a
/// non-unit orientation.
TimeOfImpact timeOfImpact(const Shape& a, const Sweep& sweepA, const Shape& b, const Sweep& sweepB, real target,
                          int maxIterations = 32, std::vector<Manifold>* scratch = nullptr);

} // namespace jounce
