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

Vec3 relativeVelocity(const Contact& c, std::span<const Body> bodies) {
    Vec3 v = Vec3::Zero();
    for (std::size_t side = 0; side < 2; ++side) {
        const std::uint32_t i = c.body[side];
        if (i == noBody) continue;
        const Body& b = bodies[i];
        const Vec3 at = b.linearVelocity + b.angularVelocity.cross(c.relative[side]);
        v += side == 0 ? at : Vec3(-at);
    }
    return c.contactToWorld.transpose() * v;
}

BodyChange sequentialImpulse(Contact& c, std::span<Body> bodies, real slidingSpeed, int holdSide, Vec3& impulse) {
    const Mat3 d = holdSide < 0 ? c.impulseResponse : velocityPerImpulse(c, bodies, holdSide);
    const Vec3 before = c.accumulatedImpulse;
    Vec3 total = before;
    // Friction first, so the normal impulse (which friction's bound depends on) has the
    // last word in each update.
    if (c.friction > 0) {
        const Vec3 v = relativeVelocity(c, bodies);
        // The planar block of D: velocity change per unit planar impulse.
        const Eigen::Matrix<real, 2, 2> planar = d.block<2, 2>(1, 1);
        const Eigen::Matrix<real, 2, 1> want = planar.inverse() * Eigen::Matrix<real, 2, 1>(-v.y(), -v.z());
        Eigen::Matrix<real, 2, 1> t(total.y() + want.x(), total.z() + want.y());
        const real limit = c.friction * total.x();
        if (t.norm() > limit) {
            // Sliding: Coulomb friction opposes the sliding velocity, at mu times the
            // normal impulse. (Clamping t along its own direction would keep a part
            // that the coupling through D turned sideways: it does work, and spins a
            // box sliding down a ramp faster and faster.) Below slidingSpeed the
            // direction of sliding is noise from the iteration, and the clamped
            // impulse keeps its own direction.
            const Eigen::Matrix<real, 2, 1> sliding(v.y(), v.z());
            const real speed = sliding.norm();
            t = speed > slidingSpeed ? Eigen::Matrix<real, 2, 1>(-sliding * (limit / speed)) : Eigen::Matrix<real, 2, 1>(t * (limit / t.norm()));
        }
        total.y() = t.x();
        total.z() = t.y();
        applyImpulse(c, bodies, Vec3(0, total.y() - before.y(), total.z() - before.z()), holdSide);
    }
    const Vec3 v = relativeVelocity(c, bodies);
    total.x() = std::max(real(0), total.x() + (c.targetNormalVelocity - v.x()) / d(0, 0));
    applyImpulse(c, bodies, Vec3(total.x() - before.x(), 0, 0), holdSide);
    c.accumulatedImpulse = total;
    impulse = total - before;
    // The record reports the net change over both applications.
    BodyChange change;
    const Vec3 world = c.contactToWorld * impulse;
    for (std::size_t side = 0; side < 2; ++side) {
        const Body* b = bodyOf(bodies, c.body[side]);
        if (b == nullptr || !b->isDynamic() || static_cast<int>(side) == holdSide) continue;
        const Vec3 j = side == 0 ? world : Vec3(-world);
        change.linear[side] = j * b->inverseMass;
        change.angular[side] = b->inverseInertiaWorld * c.relative[side].cross(j);
    }
    return change;
}

} // namespace jounce::detail
