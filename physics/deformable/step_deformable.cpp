// SPDX-License-Identifier: MIT
// One step of a deformable (Choi 2017 sec. 3.5 and 4): the inertial targets from the
// state (x, v) and (R, w x R), `iterations` alternations of the local and the global
// step, then the new poses become the velocities: v = (x' - x) / h and w from the
// rotation R' R^T over h; damping takes exp(-damping h) of both.

#include "physics/deformable/stages.hpp"

#include <cmath>

namespace jounce::detail {

void predictTargets(const Deformable& d, const Vec3& gravity, real h, InertialTargets& out) {
    const std::size_t n = d.size();
    out.position.resize(n);
    out.rotation.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        out.position[i] = d.position[i] + h * d.velocity[i] + (h * h) * gravity;
        out.rotation[i] = d.rotation[i] + h * skew(d.angularVelocity[i]) * d.rotation[i];
    }
}

void stepDeformable(Deformable& d, DeformableSolver& solver, const Vec3& gravity, real h) {
    InertialTargets targets;
    predictTargets(d, gravity, h, targets);
    const std::vector<Vec3> startPosition = d.position;
    const std::vector<Mat3> startRotation = d.rotation;
    solver.stats.worstDeterminant = 1;
    solver.stats.worstOrthogonality = 0;
    for (int it = 0; it < d.iterations; ++it) {
        localStep(d, targets, h, solver.stats);
        globalStep(d, solver, targets, h);
    }
    const real keep = std::exp(-d.damping * h);
    for (std::size_t i = 0; i < d.size(); ++i) {
        d.velocity[i] = (d.position[i] - startPosition[i]) * (keep / h);
        const Eigen::AngleAxis<real> turn(Mat3(d.rotation[i] * startRotation[i].transpose()));
        d.angularVelocity[i] = turn.axis() * (turn.angle() * keep / h);
    }
}

} // namespace jounce::detail
