// Narrow-phase dispatch: orders each pair canonically (sphere < capsule < box <
// half-space; two shapes of one type by pose, then size), calls the pair function,
// and flips the manifold when it swapped. collide(a, b) and collide(b, a) therefore
// run the same computation and differ only in the sign of the normal.

#include <jounce/collision/narrow_phase.hpp>

#include <array>
#include <type_traits>

namespace jounce {
namespace {

std::array<real, 3> sizeKey(const Sphere& s) { return {s.radius, 0, 0}; }
std::array<real, 3> sizeKey(const Capsule& c) { return {c.radius, c.halfHeight, 0}; }
std::array<real, 3> sizeKey(const Box& b) { return {b.halfExtents.x(), b.halfExtents.y(), b.halfExtents.z()}; }
std::array<real, 3> sizeKey(const HalfSpace& h) { return {h.normal.x(), h.normal.y(), h.normal.z()}; }

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
    else if constexpr (std::is_same_v<A, HalfSpace> && std::is_same_v<B, HalfSpace>) {
        out.count = 0; // two static planes: nothing to resolve
        return false;
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

} // namespace jounce
