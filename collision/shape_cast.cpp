// SPDX-License-Identifier: MIT
// A convex shape cast against one other shape (include/jounce/collision/shape_cast.hpp):
// conservative advancement along the translation (along the closest points' normal
// against a convex shape and against each triangle of a mesh or heightfield, by the
// translation's length against a half-space), then the narrow phase where it stops for
// the contact's normal and point.

#include <jounce/collision/shape_cast.hpp>

#include <jounce/collision/convex_hull.hpp>
#include <jounce/collision/gjk.hpp>
#include <jounce/collision/narrow_phase.hpp>
#include <jounce/collision/time_of_impact.hpp>
#include <jounce/collision/triangle_mesh.hpp>

#include <algorithm>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

namespace jounce {
namespace {

/// Against a half-space: the fraction of `translation` at which the cast first
/// comes within the skin, if it does (time_of_impact.hpp: the bound on the closing speed
/// is the whole translation's length, as for any sweep). A walk that runs out of iterations (a long graze past the other shape, each
/// advance no longer than the gap) goes on from where it stands, up to 4096 advances;
/// the narrow phase then says whether it stands within the skin.
std::optional<real> firstContact(const Shape& shape, const Transform& pose, const Vec3& translation, const Shape& other,
                                 const Transform& otherPose, std::vector<Manifold>& scratch) {
    constexpr int iterations = 64;
    const Sweep still{otherPose, otherPose.position, Vec3::Zero(), Vec3::Zero()};
    real t = 0;
    for (int round = 0; round < 64; ++round) {
        Transform from = pose;
        from.position += t * translation;
        const Sweep cast{from, from.position, (1 - t) * translation, Vec3::Zero()};
        const TimeOfImpact toi = timeOfImpact(shape, cast, other, still, shapeCastSkin, iterations, &scratch);
        if (!toi.hit) return std::nullopt;
        t += toi.fraction * (1 - t);
        if (toi.iterations <= iterations) return t; // within the skin
    }
    return t;
}

bool convex(const Shape& s) { return !std::holds_alternative<HalfSpace>(s) && !std::holds_alternative<TriangleMesh>(s); }

/// Closing by less than this share of the move cannot be told from sliding along (GJK
/// stops at a relative tolerance, 1e-5 in float).
constexpr real castRounding = std::is_same_v<real, double> ? real(1e-6) : real(1e-3);

/// Two convex shapes: conservative advancement along the closest points' normal
/// (Mirtich 1996; van den Bergen's GJK ray cast, "Ray casting against general convex
/// objects", 2004, is the same walk on the Minkowski difference). At distance d with
/// unit normal n from `other` toward the shape, the plane between them keeps them apart
/// until the translation has closed d along -n: the shape advances by d / (-n . r) of
/// it (r the translation), exactly onto the plane, and a translation that does not
/// close along -n never meets the other shape. A graze along a wall stops at once.
/// The other shape is its support function (world) and a point inside it (a mesh's
/// triangle, or a whole convex shape); within the skin and not closing, the narrow phase
/// against `other` (the whole shape or mesh) says whether they overlap (GJK's walk on a
/// curved shape nears the origin only slowly, and may stop short of saying so).
template <class SupportB>
std::optional<real> advanceConvex(const Shape& shape, const Transform& pose, const Vec3& translation, const Vec3& insideB,
                                  const SupportB& supportB, const Shape& other, const Transform& otherPose) {
    real t = 0;
    for (int i = 0; i < 256; ++i) {
        const Vec3 at = pose.position + t * translation;
        // (Each returns a Vec3, not an Eigen expression: one over temporaries would dangle.)
        const auto supportA = [&](const Vec3& d) -> Vec3 { return at + pose.orientation * support(shape, pose.directionToLocal(d)); };
        const Vec3 towardB = insideB - at;
        const GjkResult g = gjkDistance(supportA, supportB, towardB.squaredNorm() > 0 ? towardB : Vec3(Vec3::UnitX()));
        if (g.overlap) return t;
        // n, the unit normal from the other shape toward this one, from GJK's closest
        // points; the gap along it between the two shapes' support planes, a lower bound
        // on their distance whatever GJK's rounding (its |v| is an upper bound: advancing
        // by it, a float cast ended 0.13 mm inside a wall 4 m away).
        const Vec3 between = g.pointA - g.pointB;
        const real length = between.norm();
        const Vec3 n = length > 0 ? Vec3(between / length) : Vec3(-translation.normalized());
        const real gap = n.dot(supportA(-n)) - n.dot(supportB(n));
        const real closing = -n.dot(translation); // the gap closed per unit fraction
        if (gap <= shapeCastSkin) {
            if (closing > castRounding * translation.norm()) return t;
            // Within the skin and moving away or along (a shape resting on a floor,
            // moving across it): no hit, unless they overlap.
            Manifold m;
            if (collide(shape, Transform{at, pose.orientation}, other, otherPose, 0, m) && m.count > 0 && m.deepest().depth > 0) return t;
            return std::nullopt;
        }
        // Moving away or along: the plane between them stays between them.
        if (!(closing > 0)) return std::nullopt;
        if (t == 1) return std::nullopt; // at the end of the move, still short of the skin
        // Aim at half the skin: the walk lands between half the skin and the skin (or at
        // the end of the move, which may stand within the skin).
        t = std::min(real(1), t + (gap - shapeCastSkin / 2) / closing);
    }
    return t; // still closing after 256 advances: where it stands (the caller checks the contact)
}

std::optional<real> convexContact(const Shape& shape, const Transform& pose, const Vec3& translation, const Shape& other,
                                  const Transform& otherPose) {
    const auto supportB = [&](const Vec3& d) -> Vec3 { return otherPose.toWorld(support(other, otherPose.directionToLocal(d))); };
    return advanceConvex(shape, pose, translation, otherPose.position, supportB, other, otherPose);
}

/// Whether a manifold found where a cast stopped is a hit: the shapes overlap, or the
/// translation closes along its normal (not a graze along a floor, nor a normal from an
/// internal edge of the mesh, which the narrow phase replaces by the face's).
bool stops(const Manifold& m, const Vec3& translation) {
    return m.count > 0 && (m.deepest().depth > 0 || -m.normal.dot(translation) > castRounding * translation.norm());
}

/// Against a triangle mesh or heightfield, triangle by triangle (each a convex shape:
/// the support of its three corners), over the triangles the swept box touches; a
/// triangle the shape starts behind is left out (the mesh is one-sided, as in the narrow
/// phase). The triangles' first contacts are then taken in order of fraction (ties: the
/// lower triangle), and the first where the narrow phase against the whole mesh finds a
/// hit (stops) is the answer: a contact from a triangle's internal edge, met sliding
/// across a flat floor onto its neighbour, is a graze there, and the cast goes on.
/// The point the mesh's one-sided rule judges a shape by, as the narrow phase does: a
/// hull's centroid (a hull built off its origin), any other shape's origin.
Vec3 sidedCentre(const Shape& shape, const Transform& pose) {
    if (const auto* h = std::get_if<ConvexHull>(&shape)) return pose.toWorld(h->hull->centroid);
    return pose.position;
}

std::optional<ShapeCastContact> meshCast(const Shape& shape, const Transform& pose, const Vec3& translation, const Shape& other,
                                         const Transform& meshPose) {
    const MeshData& mesh = *std::get<TriangleMesh>(other).mesh;
    const Transform start = meshPose.inverse() * pose; // in the mesh's frame
    Transform end = start;
    end.position += meshPose.directionToLocal(translation);
    const Aabb from = computeAabb(shape, start);
    std::vector<std::uint32_t> triangles;
    mesh.overlapping(from.merged(computeAabb(shape, end)).fattened(shapeCastSkin), triangles);
    const Vec3 centre = sidedCentre(shape, start);
    const Vec3 localMove = end.position - start.position;
    std::vector<std::pair<real, std::uint32_t>> firsts;
    for (const std::uint32_t k : triangles) {
        const std::array<Vec3, 3> c = mesh.corners(k);
        if (mesh.normal(k).dot(centre - c[0]) < 0) continue; // behind: one-sided
        // Off the path: the shape's box, moved along it, never comes within the skin of the
        // triangle's box (a long diagonal cast's swept box holds many such triangles).
        const Aabb box{c[0].cwiseMin(c[1]).cwiseMin(c[2]), c[0].cwiseMax(c[1]).cwiseMax(c[2])};
        if (!(sweptAabbEntry(from, localMove, box.fattened(2 * shapeCastSkin)) <= 1)) continue;
        const std::array<Vec3, 3> w{meshPose.toWorld(c[0]), meshPose.toWorld(c[1]), meshPose.toWorld(c[2])};
        const auto supportB = [&](const Vec3& d) -> Vec3 {
            const real a = d.dot(w[0]), b = d.dot(w[1]), e = d.dot(w[2]);
            return a >= b && a >= e ? w[0] : b >= e ? w[1] : w[2];
        };
        if (const std::optional<real> t = advanceConvex(shape, pose, translation, (w[0] + w[1] + w[2]) / 3, supportB, other, meshPose))
            firsts.emplace_back(*t, k);
    }
    std::sort(firsts.begin(), firsts.end());
    std::vector<Manifold> manifolds;
    real tried = -1;
    for (const auto& [t, k] : firsts) {
        if (t == tried) continue; // the same pose: the same answer
        tried = t;
        Transform at = pose;
        at.position += t * translation;
        manifolds.clear();
        collideAll(shape, at, other, meshPose, 2 * shapeCastSkin, manifolds);
        const Manifold* best = nullptr;
        for (const Manifold& m : manifolds)
            if (stops(m, translation) && (best == nullptr || m.deepest().depth > best->deepest().depth)) best = &m;
        if (best != nullptr) return ShapeCastContact{t, best->deepest().point, best->normal};
    }
    return std::nullopt;
}

} // namespace

real sweptAabbEntry(const Aabb& moving, const Vec3& translation, const Aabb& target) {
    real enter = 0;
    for (int k = 0; k < 3; ++k) {
        const real low = target.min[k] - moving.max[k], high = target.max[k] - moving.min[k]; // the gaps to close along k
        if (translation[k] == 0) {
            if (low > 0 || high < 0) return std::numeric_limits<real>::infinity();
            continue;
        }
        const real a = low / translation[k], b = high / translation[k];
        if (std::max(a, b) < 0) return std::numeric_limits<real>::infinity();
        enter = std::max(enter, std::min(a, b));
    }
    return enter;
}

std::optional<ShapeCastContact> shapeCast(const Shape& shape, const Transform& pose, const Vec3& translation,
                                          const Shape& other, const Transform& otherPose) {
    if (!convex(shape)) return std::nullopt;
    if (std::holds_alternative<TriangleMesh>(other)) return meshCast(shape, pose, translation, other, otherPose);
    std::vector<Manifold> scratch;
    const std::optional<real> t = convex(other) ? convexContact(shape, pose, translation, other, otherPose)
                                                : firstContact(shape, pose, translation, other, otherPose, scratch);
    if (!t) return std::nullopt;
    Transform at = pose;
    at.position += *t * translation;
    Manifold m;
    if (!collide(shape, at, other, otherPose, 2 * shapeCastSkin, m) || m.count == 0) return std::nullopt;
    // Apart within the skin and not closing (a shape resting on a half-space, moving
    // along it): no hit, as against a convex shape.
    if (m.deepest().depth < 0 && !(-m.normal.dot(translation) > 0) && std::holds_alternative<HalfSpace>(other)) return std::nullopt;
    return ShapeCastContact{*t, m.deepest().point, m.normal};
}

} // namespace jounce
