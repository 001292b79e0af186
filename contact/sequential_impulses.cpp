// SPDX-License-Identifier: MIT
// Sequential impulses in Millington's contact space (Catto, "Iterative Dynamics with
// Temporal Coherence", GDC 2005): each contact keeps the total impulse applied to it
// this step. An update computes the impulse that would make the point's velocity right,
// adds it to the total, clamps the total (normal >= 0, friction inside the cone mu j_n)
// and applies only the difference. Clamping the total, not each increment, is what lets
// later sweeps take back impulse an earlier sweep over-applied, so a stack converges to
// the impulses that hold it instead of bouncing on the order of resolution. The totals
// are kept for the next step (warm starting): a resting stack starts from last step's
// answer and needs few sweeps.

#include "contact/resolver_stages.hpp"

#include <algorithm>
#include <cmath>

namespace jounce::detail {
Vec3 relativeVelocity(const ImpulseRow& row, std::span<const SolverBody> solver) {
    const SolverBody& a = solver[row.body[0]];
    const SolverBody& b = solver[row.body[1]];
    return Vec3(speedAlong(row.axis[0], a, b), speedAlong(row.axis[1], a, b), speedAlong(row.axis[2], a, b));
}

Vec3 sequentialImpulse(ImpulseRow& row, std::span<SolverBody> solver, real slidingSpeed, int holdSide) {
    SolverBody& a = solver[row.body[0]];
    SolverBody& b = solver[row.body[1]];
    // The response's parts this update uses (with the held body left out of them when
    // one is held: holdLowerSide).
    const real normalMass = row.normalMass;
    const Eigen::Matrix<real, 2, 2> planarInverse = row.planarInverse;
    const Eigen::Matrix<real, 1, 2> coupling = row.normalCoupling;
    // The totals in locals, written back once: storing one component and reading the
    // vector back (total - before) stalled every update on store forwarding.
    const real normal0 = row.total.x(), tangent0 = row.total.y(), bitangent0 = row.total.z();
    real tangent = tangent0, bitangent = bitangent0;
    // The contact's three relative speeds, read once: the friction update below
    // changes the normal speed by D_01 dj_t + D_02 dj_b (D is exact for the contact's
    // own impulses), so the normal update needs no second look at the bodies, and
    // all three impulses go to the bodies together at the end.
    real vn = speedAlong(row.axis[0], a, b);
    // Friction first, so the normal impulse (which friction's bound depends on) has the
    // last word in each update.
    if (row.friction > 0) {
        // Sliding relative to the surface's own velocity (zero but on a conveyor).
        const Eigen::Matrix<real, 2, 1> sliding =
            Eigen::Matrix<real, 2, 1>(speedAlong(row.axis[1], a, b), speedAlong(row.axis[2], a, b)) - row.slipTarget;
        // The planar block of D is the velocity change per unit planar impulse: its
        // inverse gives the impulse that stops the sliding.
        const Eigen::Matrix<real, 2, 1> want = planarInverse * -sliding;
        Eigen::Matrix<real, 2, 1> t(tangent0 + want.x(), bitangent0 + want.y());
        const real limit = row.friction * normal0;
        if (t.squaredNorm() > limit * limit) {
            // Sliding: Coulomb friction opposes the sliding velocity, at mu times the
            // normal impulse. (Clamping t along its own direction would keep a part
            // that the coupling through D turned sideways: it does work, and spins a
            // box sliding down a ramp faster and faster.) Below slidingSpeed the
            // direction of sliding is noise from the iteration, and the clamped
            // impulse keeps its own direction.
            const real speed = sliding.norm();
            t = speed > slidingSpeed ? Eigen::Matrix<real, 2, 1>(-sliding * (limit / speed))
                                     : Eigen::Matrix<real, 2, 1>(t * (limit / t.norm()));
        }
        tangent = t.x();
        bitangent = t.y();
        vn += coupling.dot(Eigen::Matrix<real, 1, 2>(tangent - tangent0, bitangent - bitangent0));
    }
    const real normal = std::max(real(0), normal0 + (row.target - vn) * normalMass);
    row.total = Vec3(normal, tangent, bitangent);
    const Vec3 impulse(normal - normal0, tangent - tangent0, bitangent - bitangent0);
    applyAll(row, a, b, impulse, holdSide);
    return impulse;
}

} // namespace jounce::detail
