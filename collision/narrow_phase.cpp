// SPDX-License-Identifier: MIT
// Narrow-phase dispatch: orders each pair canonically (sphere < capsule < box < hull <
// cylinder < half-space < mesh; two shapes of one type by pose, then size), calls the pair function,
// and flips the manifold when it swapped. collide(a, b) and collide(b, a) therefore
// run the same computation and differ only in the sign of the normal.

#include <jounce/collision/narrow_phase.hpp>

#include <jounce/collision/convex_hull.hpp>

#include <array>
#include <limits>
#include <type_traits>

namespace jounce {
namespace {

std::array<real, 3> sizeKey(const Sphere& s) { return {s.radius, 0, 0}; }
std::array<real, 3> sizeKey(const Capsule& c) { return {c.radius, c.halfHeight, 0}; }
std::array<real, 3> sizeKey(const Box& b) { return {b.halfExtents.x(), b.halfExtents.y(), b.halfExtents.z()}; }
std::array<real, 3> sizeKey(const HalfSpace& h) { return {h.normal.x(), h.normal.y(), h.normal.z()}; }
std::array<real, 3> sizeKey(const ConvexHull& h) {
    const Vec3& v = h.hull->vertices[0];
    return {static_cast<real>(h.hull->vertices.size()) + v.x(), v.y(), v.z()};
}
std::array<real, 3> sizeKey(const TriangleMesh&) { return {0, 0, 0}; }
std::array<real, 3> sizeKey(const Cylinder& c) { return {c.radius, c.halfHeight, 0}; }

/// Whether (b, pb) comes before (a, pa) in the canonical order of same-type shapes.
template <typename S> bool comesBefore(const S& b, const Transform& pb, const S& a, const Transform& pa) {
    const std::array<real, 10> kb{pb.position.x(), pb.position.y(), pb.position.z(), pb.orientation.w(),
                                  pb.orientation.x(), pb.orientation.y(), pb.orientation.z(),
                                  sizeKey(b)[0], sizeKey(b)[1], sizeKey(b)[2]};
    const std::array<real, 10> ka{pa.position.x(), pa.position.y(), pa.position.z(), pa.orientation.w(),
                                  pa.orientation.x(), pa.orientation.y(), pa.orientation.z(),
                                  sizeKey(a)[0], sizeKey(a)[1], sizeKey(a)[2]};
    return kb < ka;
}

template <typename A, typename B>
bool collideOrdered(const A& a, const Transform& pa, const B& b, const Transform& pb, real margin, Manifold& out) {
    if constexpr (std::is_same_v<A, Sphere> && std::is_same_v<B, Sphere>) return collideSpheres(a, pa, b, pb, margin, out);
    else if constexpr (std::is_same_v<A, Sphere> && std::is_same_v<B, Capsule>) return collideSphereCapsule(a, pa, b, pb, margin, out);
    else if constexpr (std::is_same_v<A, Sphere> && std::is_same_v<B, Box>) return collideSphereBox(a, pa, b, pb, margin, out);
    else if constexpr (std::is_same_v<A, Sphere> && std::is_same_v<B, HalfSpace>) return collideSphereHalfSpace(a, pa, b, pb, margin, out);
    else if constexpr (std::is_same_v<A, Capsule> && std::is_same_v<B, Capsule>) return collideCapsules(a, pa, b, pb, margin, out);
    else if constexpr (std::is_same_v<A, Capsule> && std::is_same_v<B, Box>) return collideCapsuleBox(a, pa, b, pb, margin, out);
    else if constexpr (std::is_same_v<A, Capsule> && std::is_same_v<B, HalfSpace>) return collideCapsuleHalfSpace(a, pa, b, pb, margin, out);
    else if constexpr (std::is_same_v<A, Box> && std::is_same_v<B, Box>) return collideBoxes(a, pa, b, pb, margin, out);
    else if constexpr (std::is_same_v<A, Box> && std::is_same_v<B, HalfSpace>) return collideBoxHalfSpace(a, pa, b, pb, margin, out);
    else if constexpr (std::is_same_v<A, Sphere> && std::is_same_v<B, ConvexHull>) return collideSphereHull(a, pa, b, pb, margin, out);
    else if constexpr (std::is_same_v<A, Capsule> && std::is_same_v<B, ConvexHull>) return collideCapsuleHull(a, pa, b, pb, margin, out);
    else if constexpr (std::is_same_v<A, Box> && std::is_same_v<B, ConvexHull>) return collideBoxHull(a, pa, b, pb, margin, out);
    else if constexpr (std::is_same_v<A, ConvexHull> && std::is_same_v<B, ConvexHull>) return collideHulls(a, pa, b, pb, margin, out);
    else if constexpr (std::is_same_v<A, ConvexHull> && std::is_same_v<B, HalfSpace>) return collideHullHalfSpace(a, pa, b, pb, margin, out);
    else if constexpr (std::is_same_v<B, Cylinder> && !std::is_same_v<A, HalfSpace> && !std::is_same_v<A, TriangleMesh>)
        return collideCylinder(Shape(a), pa, b, pb, margin, out);
    else if constexpr (std::is_same_v<A, Cylinder> && std::is_same_v<B, HalfSpace>) return collideCylinderHalfSpace(a, pa, b, pb, margin, out);
    else if constexpr ((std::is_same_v<A, HalfSpace> || std::is_same_v<A, TriangleMesh>) &&
                       (std::is_same_v<B, HalfSpace> || std::is_same_v<B, TriangleMesh>)) {
        out.count = 0; // two static shapes: nothing to resolve
        return false;
    } else if constexpr (std::is_same_v<B, TriangleMesh>) {
        // The deepest of the manifolds with the mesh.
        std::vector<Manifold> all;
        collideMesh(Shape(a), pa, b, pb, margin, all);
        out.count = 0;
        real deepest = -std::numeric_limits<real>::infinity();
        for (const Manifold& m : all)
            if (m.count > 0 && m.deepest().depth > deepest) {
                deepest = m.deepest().depth;
                out = m;
            }
        return out.count > 0;
    } else {
        // Reversed order: collide (b, a) and turn the normal around.
        const bool hit = collideOrdered(b, pb, a, pa, margin, out);
        out.flip();
        return hit;
    }
}

} // namespace

bool collide(const Shape& a, const Transform& pa, const Shape& b, const Transform& pb, real margin, Manifold& out) {
    return std::visit(
        [&](const auto& sa, const auto& sb) {
            using A = std::decay_t<decltype(sa)>;
            using B = std::decay_t<decltype(sb)>;
            if constexpr (std::is_same_v<A, B>) {
                if (comesBefore(sb, pb, sa, pa)) {
                    const bool hit = collideOrdered(sb, pb, sa, pa, margin, out);
                    out.flip();
                    return hit;
                }
            }
            return collideOrdered(sa, pa, sb, pb, margin, out);
        },
        a, b);
}

int collideAll(const Shape& a, const Transform& pa, const Shape& b, const Transform& pb, real margin,
               std::vector<Manifold>& out) {
    const bool meshA = std::holds_alternative<TriangleMesh>(a), meshB = std::holds_alternative<TriangleMesh>(b);
    if (meshA != meshB && !isStaticOnly(meshA ? b : a)) {
        const std::size_t first = out.size();
        const int n = meshB ? collideMesh(a, pa, std::get<TriangleMesh>(b), pb, margin, out)
                            : collideMesh(b, pb, std::get<TriangleMesh>(a), pa, margin, out);
        if (meshA)
            for (std::size_t k = first; k < out.size(); ++k) out[k].flip();
        return n;
    }
    Manifold m;
    if (!collide(a, pa, b, pb, margin, m)) return 0;
    out.push_back(m);
    return 1;
}

} // namespace jounce
