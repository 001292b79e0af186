// SPDX-License-Identifier: MIT
// Rolling resistance: a ball on a floor feels a torque against its rolling of at most
// c_rr r N (Material::rollingResistance; Box2D v3's rolling resistance, applied here once
// a step after the solver). For a solid ball rolling on a level floor, each step takes
// an angular impulse J = c_rr r m g h from it (dw = -J / I); friction then brings the
// slipping point back to rolling with f (1/m + r^2/I) = dw r, so the ball's speed drops by
// c_rr g h / (1 + I / (m r^2)) = (5/7) c_rr g h a step: it stops after v^2 / ((10/7) c_rr g).

#include "contact/stages.hpp"

#include <Eigen/Dense>

#include <algorithm>

namespace jounce::detail {
namespace {

/// I^-1 of a body that takes impulses (awake and dynamic), else zero.
Mat3 turnPerImpulse(const Body& b) { return b.isDynamic() && b.awake ? b.inverseInertiaWorld : Mat3::Zero(); }

} // namespace

void applyRollingResistance(BodyArray& bodies, const std::vector<ContactManifold>& manifolds,
                            const std::vector<Contact>& solved, std::vector<real>& normals) {
    if (std::none_of(manifolds.begin(), manifolds.end(), [](const ContactManifold& m) { return m.rollingResistance > 0; }))
        return;
    // Each manifold's whole normal impulse of the step (the soft step's kept and bounced
    // parts), summed in the solved contacts' order (fixed for a given world).
    normals.assign(manifolds.size(), 0);
    for (const Contact& c : solved)
        if (c.source != noSource && c.source / Manifold::maxPoints < normals.size())
            normals[c.source / Manifold::maxPoints] += c.accumulatedImpulse.x() + c.bounceImpulse.x();
    for (std::size_t k = 0; k < manifolds.size(); ++k) {
        const ContactManifold& m = manifolds[k];
        const real normal = normals[k];
        if (!(m.rollingResistance > 0) || !(normal > 0)) continue;
        Body* a = bodies.contains(m.bodyA) ? &bodies[m.bodyA] : nullptr;
        Body* b = bodies.contains(m.bodyB) ? &bodies[m.bodyB] : nullptr;
        const Mat3 ia = a ? turnPerImpulse(*a) : Mat3::Zero(), ib = b ? turnPerImpulse(*b) : Mat3::Zero();
        // The relative rolling: the relative angular velocity across the normal (the part
        // about the normal is twist, which friction's patch already resists), in the
        // tangent basis t, u.
        const Mat3 basis = contactBasis(m.manifold.normal);
        const Eigen::Matrix<real, 3, 2> tangent = basis.rightCols<2>();
        const Vec3 relative = (a ? a->angularVelocity : Vec3::Zero()) - (b ? b->angularVelocity : Vec3::Zero());
        const Eigen::Matrix<real, 2, 1> rolling = tangent.transpose() * relative;
        const Eigen::Matrix<real, 2, 2> response = tangent.transpose() * (ia + ib) * tangent;
        if (!(response.determinant() > 0)) continue; // neither side can turn across the normal
        Eigen::Matrix<real, 2, 1> impulse = -response.inverse() * rolling; // stops the rolling
        const real limit = m.rollingResistance * normal;
        const real size = impulse.norm();
        if (size > limit) impulse *= limit / size;
        const Vec3 angular = tangent * impulse;
        if (a) a->angularVelocity += ia * angular;
        if (b) b->angularVelocity -= ib * angular;
    }
}

} // namespace jounce::detail
