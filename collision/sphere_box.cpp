// SPDX-License-Identifier: MIT
// Sphere against box: the closest point of the box to the sphere's centre, found by
// clamping the centre into the box in the box's frame (Millington 13.3.4). A centre
// inside the box is pushed out through the nearest face.

#include <jounce/collision/narrow_phase.hpp>

#include <cmath>
#include <limits>

namespace jounce {

bool collideSphereBox(const Sphere& a, const Transform& pa, const Box& b, const Transform& pb, real margin,
                      Manifold& out) {
    out.count = 0;
    const Vec3 c = pb.toLocal(pa.position);
    const Vec3& h = b.halfExtents;
    const Vec3 clamped = c.cwiseMax(-h).cwiseMin(h);
    // Feature: for each axis, 0 below the box, 1 within, 2 above (vertex, edge or face region).
    std::uint32_t feature = 0;
    for (int k = 0; k < 3; ++k) feature |= std::uint32_t(c[k] < -h[k] ? 0 : (c[k] > h[k] ? 2 : 1)) << (2 * k);

    const Vec3 d = c - clamped;
    const real distance = d.norm();
    // Centre outside the box. A centre outside by a denormal has a distance that
    // underflows to 0 (and d / 0 is no normal): it counts as on the face, inside.
    if (distance > 0) {
        const real separation = distance - a.radius;
        if (separation > margin) return false;
        // Outside by so little (1e-161 m, fuzz_narrow_phase) that d's square is a
        // denormal, |d| has lost its digits and d / |d| is not unit: rescale first.
        const bool tiny = distance * distance < std::numeric_limits<real>::min();
        const Vec3 n = tiny ? Vec3((d / d.cwiseAbs().maxCoeff()).normalized()) : Vec3(d / distance);
        out.normal = pb.directionToWorld(n);
        out.add(pb.toWorld(clamped + n * (separation / 2)), -separation, feature);
        return true;
    }
    // Inside (or on a face): leave through the face with the least depth (lowest axis
    // on ties).
    int axis = 0;
    real best = h[0] - std::abs(c[0]);
    for (int k = 1; k < 3; ++k) {
        const real depth = h[k] - std::abs(c[k]);
        if (depth < best) {
            best = depth;
            axis = k;
        }
    }
    Vec3 n = Vec3::Zero();
    n[axis] = c[axis] < 0 ? -1 : 1;
    Vec3 face = c;
    face[axis] = n[axis] * h[axis];
    const real depth = best + a.radius;
    out.normal = pb.directionToWorld(n);
    // Midway between the face point and the sphere's deepest point c - n r.
    out.add(pb.toWorld((face + c - n * a.radius) / 2), depth, feature | (1u << 8) | (std::uint32_t(axis) << 9));
    return true;
}

} // namespace jounce
