// SPDX-License-Identifier: MIT
// Ray crossings of a closed triangle mesh: the parity test behind insideMesh, and a grid
// of the triangles' shadows that answers it for many points (sampleDeformable's
// candidates) testing a few triangles each.
#pragma once

#include <jounce/deformable/deformable_builders.hpp>

#include <utility>
#include <vector>

namespace jounce::detail {

/// The direction of insideMesh's rays: one no mesh edge or face is likely to share.
Vec3 crossingRay();

/// Whether the ray from p along `dir` crosses triangle t (Moller-Trumbore, in front of p only).
bool rayCrosses(const ClosedMesh& mesh, std::size_t t, const Vec3& dir, const Vec3& p);

/// The mesh's triangles bucketed by their shadow on the plane across crossingRay(), so a
/// point tests only the triangles whose shadow's box holds its own shadow. The boxes are
/// padded far beyond round-off: every triangle the full scan would count is tested, with
/// the same arithmetic, so the answers are insideMesh's exactly. Triangles seen nearly
/// edge-on along the ray (whose test's round-off no pad bounds) are tested for every
/// point. The grid reads the mesh it was made from: the mesh must outlive it.
class CrossingGrid {
public:
    explicit CrossingGrid(const ClosedMesh& mesh);

    /// insideMesh(mesh, p): the same answer for every point.
    bool inside(const Vec3& p) const;

private:
    using Vec2 = Eigen::Matrix<real, 2, 1>;
    Vec2 shadow(const Vec3& x) const { return Vec2(x.dot(u_), x.dot(v_)); }
    std::pair<int, int> cellOf(const Vec2& s) const;
    bool edgeOn(std::size_t t) const;

    const ClosedMesh& mesh_;
    Vec3 dir_, u_, v_;
    Vec2 lo_, cell_;
    int side_ = 1;
    std::vector<std::vector<std::size_t>> cells_;
    std::vector<std::size_t> everywhere_; ///< the edge-on triangles
};

} // namespace jounce::detail
