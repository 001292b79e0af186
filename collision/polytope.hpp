// SPDX-License-Identifier: MIT
#pragma once
// Internal: convex polytopes (hulls, boxes) placed in the world, the separating axis
// test between two of them (Gregorius, "The Separating Axis Test between Convex
// Polyhedra", GDC 2013: face axes of each, and edge pairs that form a face of the
// Minkowski difference, found on the Gauss map), reference-face clipping, and the
// reduction of a contact set to four points.

#include <jounce/collision/convex_hull.hpp>
#include <jounce/collision/manifold.hpp>
#include <jounce/collision/shapes.hpp>

#include <vector>

namespace jounce::detail {

/// A hull in world space. `scale` stretches the hull's own axes first (a box is the
/// unit cube's hull scaled by its half extents; axis scaling keeps a box's normals).
struct WorldPolytope {
    const HullData* hull = nullptr;
    std::vector<Vec3> vertices;
    std::vector<Vec3> normals;
    std::vector<real> offsets;
    Vec3 centroid = Vec3::Zero();

    void place(const HullData& h, const Transform& pose, const Vec3& scale = Vec3::Ones());
    /// Smallest projection of the vertices on `axis`.
    real minAlong(const Vec3& axis) const;
};

/// The hull of the cube [-1, 1]^3 (6 quads, 12 edges), built once.
const HullData& unitCubeHull();

/// Places `shape` if it is a box or a hull; returns false for other shapes.
bool placePolytope(const Shape& shape, const Transform& pose, WorldPolytope& out);

struct FaceQuery {
    int face = -1;
    real separation = -std::numeric_limits<real>::infinity();
};
struct EdgeQuery {
    int edgeA = -1, edgeB = -1;
    real separation = -std::numeric_limits<real>::infinity();
    Vec3 axis = Vec3::Zero(); ///< unit, from A toward B
};

/// Largest separation of B from the face planes of A.
FaceQuery queryFaces(const WorldPolytope& a, const WorldPolytope& b);
/// Largest separation along the cross products of edge pairs that are faces of the
/// Minkowski difference (the others cannot be separating axes, so they are skipped).
EdgeQuery queryEdges(const WorldPolytope& a, const WorldPolytope& b);

/// The separating axis test between two polytopes: the largest separation over every
/// candidate axis. > 0 apart (a lower bound on the distance), <= 0 overlapping (then
/// -separation is the exact penetration depth: the smallest translation that parts them).
struct SatResult {
    FaceQuery faceA, faceB;
    EdgeQuery edge;
    real separation() const { return std::max({faceA.separation, faceB.separation, edge.separation}); }
};
SatResult separatingAxisTest(const WorldPolytope& a, const WorldPolytope& b);

/// A contact before reduction.
struct Candidate {
    Vec3 point;
    real depth;
    std::uint32_t feature;
};

/// Keeps at most 4: the deepest, the one farthest from it, and the two spanning the
/// largest triangles on either side of that diagonal (the rule of box_box.cpp). With
/// `depthTies` > 0 the first point within that of the deepest counts as the deepest, so
/// a level set (a cylinder's cap) keeps the same four whichever way noise tips it.
void reduceToFour(std::vector<Candidate>& set, const Vec3& normal, real depthTies = 0);

/// Contacts of `incident` against face `refFace` of `reference`: the incident face
/// (most anti-parallel) clipped by the reference face's side planes (Sutherland-
/// Hodgman), points within `margin` of the reference plane, reduced to 4. The manifold
/// normal points from B to A; `referenceIsA` says which one the reference is.
bool clipFaceContact(const WorldPolytope& reference, int refFace, const WorldPolytope& incident, bool referenceIsA,
                     real margin, Manifold& out);

/// Manifold for two polytopes after the SAT (prefers faces over edges by small
/// tolerances so a resting contact does not flicker between them).
bool polytopeContact(const WorldPolytope& a, const WorldPolytope& b, real margin, Manifold& out);

/// Packs feature numbers into a 32-bit contact id (8 bits each, wrapping).
inline std::uint32_t packFeature(std::uint32_t kind, std::uint32_t p, std::uint32_t q, std::uint32_t r) {
    return (kind & 0xffu) << 24 | (p & 0xffu) << 16 | (q & 0xffu) << 8 | (r & 0xffu);
}

/// Sutherland-Hodgman against one plane: keeps the part with n . x <= offset.
struct ClipPoint {
    Vec3 x;
    std::uint32_t id;
};
void clipPolygon(std::vector<ClipPoint>& polygon, const Vec3& n, real offset, std::uint32_t planeId,
                 std::vector<ClipPoint>& scratch);

} // namespace jounce::detail
