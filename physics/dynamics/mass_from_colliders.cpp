// SPDX-License-Identifier: MIT
// A body's mass, inertia and centre of mass from its colliders: each shape's own
// (collision/mass_properties.cpp), turned into the body frame and summed about the
// common centre with the parallel-axis theorem (Millington ch. 10.2).

#include "physics/dynamics/stages.hpp"

#include <jounce/dynamics/collider.hpp>

#include <vector>

namespace jounce::detail {

MassProperties massFromColliders(const std::vector<const Collider*>& colliders) {
    MassProperties total;
    Vec3 moment = Vec3::Zero();
    std::vector<MassProperties> parts;
    for (const Collider* c : colliders) {
        if (isStaticOnly(c->shape)) continue;
        MassProperties mp = computeMassProperties(c->shape, c->density);
        const Mat3 r = c->local.orientation.toRotationMatrix();
        mp.inertia = r * mp.inertia * r.transpose();
        mp.centroid = c->local.toWorld(mp.centroid);
        total.mass += mp.mass;
        moment += mp.mass * mp.centroid;
        parts.push_back(mp);
    }
    if (total.mass <= 0) return total;
    total.centroid = moment / total.mass;
    for (const MassProperties& mp : parts) total.inertia += shiftInertia(mp.inertia, mp.mass, mp.centroid - total.centroid);
    return total;
}

} // namespace jounce::detail
