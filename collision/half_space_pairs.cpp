// SPDX-License-Identifier: MIT
// Every primitive against a half-space: test the shape's deepest features against
// the plane n . x = d (world frame), n pointing out of the solid.

#include <jounce/collision/narrow_phase.hpp>

#include <algorithm>

namespace jounce {
namespace {

struct Plane {
    Vec3 normal;
    real offset;
    real distance(const Vec3& x) const { return normal.dot(x) - offset; }
};

Plane worldPlane(const HalfSpace& h, const Transform& pose) {
    const Vec3 n = pose.directionToWorld(h.normal);
    return {n, h.offset + n.dot(pose.position)};
}

/// A point of shape A whose surface point `x` lies `distance` above the plane:
/// the contact is midway between x and its foot on the plane.
void addPlaneContact(const Plane& plane, const Vec3& x, real distance, std::uint32_t feature, Manifold& out) {
    out.add(x - plane.normal * (distance / 2), -distance, feature);
}

} // namespace

bool collideSphereHalfSpace(const Sphere& a, const Transform& pa, const HalfSpace& b, const Transform& pb,
                            real margin, Manifold& out) {
    out.count = 0;
    const Plane plane = worldPlane(b, pb);
    out.normal = plane.normal;
    const Vec3 deepest = pa.position - plane.normal * a.radius;
    const real distance = plane.distance(deepest);
    if (distance > margin) return false;
    addPlaneContact(plane, deepest, distance, 0, out);
    return true;
}

bool collideCapsuleHalfSpace(const Capsule& a, const Transform& pa, const HalfSpace& b, const Transform& pb,
                             real margin, Manifold& out) {
    out.count = 0;
    const Plane plane = worldPlane(b, pb);
    out.normal = plane.normal;
    for (std::uint32_t end = 0; end < 2; ++end) {
        const Vec3 centre = pa.toWorld(Vec3(0, end == 0 ? -a.halfHeight : a.halfHeight, 0));
        const Vec3 deepest = centre - plane.normal * a.radius;
        const real distance = plane.distance(deepest);
        if (distance <= margin) addPlaneContact(plane, deepest, distance, end, out);
    }
    return out.count > 0;
}

bool collideBoxHalfSpace(const Box& a, const Transform& pa, const HalfSpace& b, const Transform& pb, real margin,
                         Manifold& out) {
    out.count = 0;
    const Plane plane = worldPlane(b, pb);
    out.normal = plane.normal;
    // All eight corners within the margin, deepest first; at most four are kept (a box
    // face has four, and four deepest corners always include a supporting face's).
    struct Corner {
        real distance;
        std::uint32_t index;
        Vec3 x;
    };
    std::array<Corner, 8> corners;
    int n = 0;
    for (std::uint32_t i = 0; i < 8; ++i) {
        const Vec3 local((i & 1 ? 1 : -1) * a.halfExtents.x(), (i & 2 ? 1 : -1) * a.halfExtents.y(),
                         (i & 4 ? 1 : -1) * a.halfExtents.z());
        const Vec3 x = pa.toWorld(local);
        const real distance = plane.distance(x);
        if (distance <= margin) corners[static_cast<std::size_t>(n++)] = {distance, i, x};
    }
    // Insertion sort by depth, then corner index (eight items; std::sort trips GCC 12's
    // -Warray-bounds on a fixed array this small).
    for (int i = 1; i < n; ++i) {
        for (int j = i; j > 0; --j) {
            Corner& p = corners[static_cast<std::size_t>(j - 1)];
            Corner& q = corners[static_cast<std::size_t>(j)];
            if (p.distance < q.distance || (p.distance == q.distance && p.index < q.index)) break;
            std::swap(p, q);
        }
    }
    for (int i = 0; i < std::min(n, Manifold::maxPoints); ++i) {
        const Corner& c = corners[static_cast<std::size_t>(i)];
        addPlaneContact(plane, c.x, c.distance, c.index, out);
    }
    return out.count > 0;
}

} // namespace jounce
