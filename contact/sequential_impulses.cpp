// Sequential impulses in Millington's contact space (Catto, "Iterative Dynamics with
// Temporal Coherence", GDC 2005): each contact keeps the total impulse applied to it
// this step. An update computes the impulse that would make the point's velocity right,
// adds it to the total, clamps the total (normal >= 0, friction inside the cone mu j_n)
// and applies only the difference. Clamping the total, not each increment, is what lets
// later sweeps take back impulse an earlier sweep over-applied, so a stack converges to
// the impulses that hold it instead of bouncing on the order of resolution. The totals
// are kept for the next step (warm starting): a resting stack starts from last step's
// answer and needs few sweeps.

#include "contact/stages.hpp"

#include <algorithm>
#include <cmath>

namespace jounce::detail {
namespace {

/// Velocity of body 0's contact point relative to body 1's along one axis. The world
/// (entry 0) and static bodies have zero velocity, so both sides are always summed.
JOUNCE_HOT_INLINE real speedAlong(const ImpulseAxis& axis, const SolverBody& a, const SolverBody& b) {
    return axis.direction.dot(a.linearVelocity - b.linearVelocity) + axis.lever[0].dot(a.angularVelocity) -
           axis.lever[1].dot(b.angularVelocity);
}

/// Impulse j along `axis` on body 0 and -j on body 1 (a held side does not move).
/// Bodies that do not move have zero inverse mass and turn, so adding leaves them as
/// they were.
JOUNCE_HOT_INLINE void applyAlong(const ImpulseAxis& axis, SolverBody& a, SolverBody& b, real j, int holdSide) {
    if (holdSide != 0) {
        a.linearVelocity += axis.direction * (j * a.inverseMass);
        a.angularVelocity += axis.turn[0] * j;
    }
    if (holdSide != 1) {
        b.linearVelocity -= axis.direction * (j * b.inverseMass);
        b.angularVelocity -= axis.turn[1] * j;
    }
}

} // namespace

Vec3 relativeVelocity(const ImpulseRow& row, std::span<const SolverBody> solver) {
    const SolverBody& a = solver[row.body[0]];
    const SolverBody& b = solver[row.body[1]];
    return Vec3(speedAlong(row.axis[0], a, b), speedAlong(row.axis[1], a, b), speedAlong(row.axis[2], a, b));
}

Vec3 sequentialImpulse(ImpulseRow& row, std::span<SolverBody> solver, real slidingSpeed, int holdSide) {
    SolverBody& a = solver[row.body[0]];
    SolverBody& b = solver[row.body[1]];
    // Shock propagation's last sweep leaves the held body out of the response.
    Mat3 held;
    if (holdSide >= 0) held = velocityPerImpulse(row, solver, holdSide);
    const real normalMass = holdSide < 0 ? row.normalMass : 1 / held(0, 0);
    const Vec3 before = row.total;
    Vec3& total = row.total;
    // Friction first, so the normal impulse (which friction's bound depends on) has the
    // last word in each update.
    if (row.friction > 0) {
        const Eigen::Matrix<real, 2, 1> sliding(speedAlong(row.axis[1], a, b), speedAlong(row.axis[2], a, b));
        // The planar block of D: velocity change per unit planar impulse; its inverse
        // gives the impulse that stops the sliding.
        const Eigen::Matrix<real, 2, 2> planarInverse =
            holdSide < 0 ? row.planarInverse : Eigen::Matrix<real, 2, 2>(held.block<2, 2>(1, 1).inverse());
        const Eigen::Matrix<real, 2, 1> want = planarInverse * -sliding;
        Eigen::Matrix<real, 2, 1> t(total.y() + want.x(), total.z() + want.y());
        const real limit = row.friction * total.x();
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
        total.y() = t.x();
        total.z() = t.y();
        applyAlong(row.axis[1], a, b, total.y() - before.y(), holdSide);
        applyAlong(row.axis[2], a, b, total.z() - before.z(), holdSide);
    }
    const real vn = speedAlong(row.axis[0], a, b);
    total.x() = std::max(real(0), total.x() + (row.target - vn) * normalMass);
    applyAlong(row.axis[0], a, b, total.x() - before.x(), holdSide);
    return total - before;
}

} // namespace jounce::detail
