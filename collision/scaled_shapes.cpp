// SPDX-License-Identifier: MIT
// Scaled shapes: a shape stretched along its own axes, made once as a shape of its own
// kind (so every pair, query, file and snapshot meets it as that kind, exactly). A box
// scales freely; a cylinder's radius needs equal x and z factors; a sphere and a capsule
// need one factor (a stretched sphere is an ellipsoid, which no shape here is); a hull or
// mesh is rebuilt from its scaled points, a mirror turning the triangles round so their
// fronts stay outside; a heightfield scales its spacing and heights (positive factors);
// a half-space's plane goes through the scale as a normal does (by the inverse).

#include <jounce/collision/convex_hull.hpp>
#include <jounce/collision/heightfield.hpp>
#include <jounce/collision/shapes.hpp>
#include <jounce/collision/triangle_mesh.hpp>

#include "common/guard.hpp"
#include "common/validate.hpp"

#include <cmath>
#include <optional>
#include <type_traits>

namespace jounce {
namespace {

[[noreturn]] void refuse(const Vec3& scale, const char* rule) { throw Error("scale", toText(scale), rule); }

/// Whether |a| and |b| agree to a few parts in a million (factors typed as the same
/// number are equal; computed ones may differ in their last digits).
bool sameFactor(real a, real b) { return std::abs(std::abs(a) - std::abs(b)) <= real(1e-6) * std::max(std::abs(a), std::abs(b)); }

/// The points stretched; a scale that puts one beyond maxCoordinate is refused (a hull or
/// mesh would otherwise be built from numbers whose products overflow).
std::vector<Vec3> scaledPoints(const std::vector<Vec3>& points, const Vec3& scale) {
    std::vector<Vec3> out;
    out.reserve(points.size());
    for (const Vec3& p : points) {
        out.push_back(p.cwiseProduct(scale));
        if (!(out.back().cwiseAbs().maxCoeff() <= detail::maxCoordinate))
            refuse(scale, "puts a point of the shape beyond maxCoordinate (1e6 m)");
    }
    return out;
}

TriangleMesh scaledMesh(const MeshData& mesh, const Vec3& scale) {
    if (const HeightfieldGrid* g = mesh.heightfield()) {
        if (!(scale.minCoeff() > 0)) refuse(scale, "a heightfield scales by positive factors (its grid cannot be mirrored)");
        std::vector<real> heights;
        heights.reserve(g->heights.size());
        for (const real h : g->heights) heights.push_back(h * scale.y());
        return makeHeightfield({g->columns, g->rows, g->spacingX * scale.x(), g->spacingZ * scale.z(),
                                g->origin.cwiseProduct(scale), heights, g->holes});
    }
    // A mirror (an odd number of negative factors) turns each triangle's corners from
    // counter-clockwise to clockwise seen from the front: swap two to keep the front.
    const bool mirrored = ((scale.x() < 0) + (scale.y() < 0) + (scale.z() < 0)) % 2 == 1;
    std::vector<std::array<std::uint32_t, 3>> triangles = mesh.triangles();
    if (mirrored)
        for (auto& t : triangles) std::swap(t[1], t[2]);
    return makeTriangleMesh(scaledPoints(mesh.vertices(), scale), triangles);
}

} // namespace

Shape scaled(const Shape& shape, const Vec3& scale) {
    validateShape(shape, "shape");
    detail::requireFinite(scale, "scale");
    if (!(scale.cwiseAbs().minCoeff() > 0)) refuse(scale, "every factor must be non-zero");
    const Vec3 size = scale.cwiseAbs();
    Shape out = std::visit(
        [&](const auto& s) -> Shape {
            using S = std::decay_t<decltype(s)>;
            if constexpr (std::is_same_v<S, Sphere>) {
                if (!sameFactor(size.x(), size.y()) || !sameFactor(size.x(), size.z()))
                    refuse(scale, "a sphere scales by one factor on every axis");
                return Sphere{s.radius * size.x()};
            } else if constexpr (std::is_same_v<S, Capsule>) {
                if (!sameFactor(size.x(), size.y()) || !sameFactor(size.x(), size.z()))
                    refuse(scale, "a capsule scales by one factor on every axis (its ends would be ellipsoids)");
                return Capsule{s.radius * size.x(), s.halfHeight * size.x()};
            } else if constexpr (std::is_same_v<S, Cylinder>) {
                if (!sameFactor(size.x(), size.z())) refuse(scale, "a cylinder scales its radius by one factor: x and z must agree");
                return Cylinder{s.radius * size.x(), s.halfHeight * size.y()};
            } else if constexpr (std::is_same_v<S, Box>) {
                return Box{s.halfExtents.cwiseProduct(size)};
            } else if constexpr (std::is_same_v<S, HalfSpace>) {
                // x' = S x: the plane n . x = d becomes (S^-1 n) . x' = d, then normalised
                // (by its largest component first, so extreme factors neither overflow
                // nor underflow the length).
                const Vec3 n = s.normal.cwiseQuotient(scale);
                const real largest = n.cwiseAbs().maxCoeff();
                const Vec3 unit = (n / largest).normalized();
                const real length = (n / largest).norm();
                return HalfSpace{unit, s.offset / largest / length};
            } else if constexpr (std::is_same_v<S, ConvexHull>) {
                return makeConvexHull(scaledPoints(s.hull->vertices, scale));
            } else {
                return scaledMesh(*s.mesh, scale);
            }
        },
        shape);
    validateShape(out, "scaled");
    return out;
}

Shape scaled(const Shape& shape, const Vec3& scale, const ErrorHandler& onError) {
    const std::optional<Shape> out = detail::guarded(onError, [&] { return std::optional<Shape>(scaled(shape, scale)); });
    return out ? *out : Shape(ConvexHull{}); // empty (a null hull): every call taking a shape rejects it
}

} // namespace jounce
