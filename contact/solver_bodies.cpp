// SPDX-License-Identifier: MIT
// The resolver's compact copy of the bodies it works on (see SolverBody).

#include "contact/resolver_stages.hpp"

namespace jounce::detail {

void gatherSolverBodies(std::span<const Body> bodies, std::span<const std::uint32_t> touched, std::vector<SolverBody>& solver,
                        std::vector<Mat3>& inverseInertia) {
    solver.resize(bodies.size() + 1);
    inverseInertia.resize(bodies.size() + 1);
    solver[0] = SolverBody{}; // the world: never moves
    inverseInertia[0] = Mat3::Zero();
    for (const std::uint32_t i : touched) {
        const Body& b = bodies[i];
        SolverBody& s = solver[i + 1];
        s.linearVelocity = b.linearVelocity;
        s.angularVelocity = b.angularVelocity;
        // A kinematic body keeps its velocity but takes no impulse.
        s.inverseMass = b.isDynamic() ? b.inverseMass : 0;
        s.linearLocked = b.isDynamic() && b.locks.anyLinear();
        s.linearFree = b.locks.linearFree();
        inverseInertia[i + 1] = b.isDynamic() ? b.inverseInertiaWorld : Mat3::Zero();
    }
}

} // namespace jounce::detail
