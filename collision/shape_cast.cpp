// SPDX-License-Identifier: MIT
// A convex shape cast against one other shape (include/jounce/collision/shape_cast.hpp):
// conservative advancement along the translation (along the closest points' normal
// against a convex shape, by the translation's length against a half-space or a mesh),
// then the narrow phase where it stops for the contact's normal and point.

#include <jounce/collision/shape_cast.hpp>

#include <jounce/collision/gjk.hpp>
#include <jounce/collision/narrow_phase.hpp>
#include <jounce/collision/time_of_impact.hpp>

#include <algorithm>
#include <type_traits>
#include <vector>

namespace jounce {
namespace {

/// Against a half-space or a mesh: the fraction of `translation` at which the cast first
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

/// Two convex shapes: conservative advancement along the closest points' normal
/// (Mirtich 1996; van den Bergen's GJK ray cast, "Ray casting against general convex
/// objects", 2004, is the same walk on the Minkowski difference). At distance d with
/// unit normal n from `other` toward the shape, the plane between them keeps them apart
/// until the translation has closed d along -n: the shape advances by d / (-n . r) of
/// it (r the translation), exactly onto the plane, and a translation that does not
/// close along -n never meets the other shape. A graze along a wall stops at once.
std::optional<real> convexContact(const Shape& shape, const Transform& pose, const Vec3& translation, const Shape& other,
                                  const Transform& otherPose) {
    // (Each returns a Vec3, not an Eigen expression: one over temporaries would dangle.)
    const auto supportB = [&](const Vec3& d) -> Vec3 { return otherPose.toWorld(support(other, otherPose.directionToLocal(d))); };
    // The normal's rounding: closing by less than this share of the move cannot be told
    // from sliding along (GJK stops at a relative tolerance, 1e-5 in float).
    constexpr real rounding = std::is_same_v<real, double> ? real(1e-6) : real(1e-3);
    real t = 0;
    for (int i = 0; i < 256; ++i) {
        const Vec3 at = pose.position + t * translation;
        const auto supportA = [&](const Vec3& d) -> Vec3 { return at + pose.orientation * support(shape, pose.directionToLocal(d)); };
        const Vec3 towardB = otherPose.position - at;
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
            if (closing > rounding * translation.norm()) return t;
            // Within the skin and moving away or along (a shape resting on a floor,
            // moving across it): no hit, unless they overlap (GJK's walk on a curved
            // shape nears the origin only slowly, and may stop short of saying so).
            Manifold m;
            const Transform here{at, pose.orientation};
            if (collide(shape, here, other, otherPose, 0, m) && m.count > 0 && m.deepest().depth > 0) return t;
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

} // namespace

std::optional<ShapeCastContact> shapeCast(const Shape& shape, const Transform& pose, const Vec3& translation,
                                          const Shape& other, const Transform& otherPose) {
    if (!convex(shape)) return std::nullopt;
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
