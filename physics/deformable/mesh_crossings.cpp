// SPDX-License-Identifier: MIT
// Ray crossings of a closed triangle mesh (mesh_crossings.hpp).

#include "physics/deformable/mesh_crossings.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace jounce::detail {

/// The direction of insideMesh's rays: one no mesh edge or face is likely to share.
Vec3 crossingRay() { return Vec3(real(0.5773), real(0.5779), real(0.5770)).normalized(); }

/// Whether the ray from p along `dir` crosses triangle t (Moller-Trumbore, in front of p only).
bool rayCrosses(const ClosedMesh& mesh, std::size_t t, const Vec3& dir, const Vec3& p) {
    const auto& [ia, ib, ic] = mesh.triangles[t];
    const Vec3 a = mesh.vertices[ia], e1 = mesh.vertices[ib] - a, e2 = mesh.vertices[ic] - a;
    const Vec3 q = dir.cross(e2);
    const real det = e1.dot(q);
    if (std::abs(det) < real(1e-14)) return false;
    const Vec3 s = p - a;
    const real u = s.dot(q) / det;
    if (u < 0 || u > 1) return false;
    const Vec3 r = s.cross(e1);
    const real w = dir.dot(r) / det;
    if (w < 0 || u + w > 1) return false;
    return e2.dot(r) / det > 0;
}

CrossingGrid::CrossingGrid(const ClosedMesh& mesh) : mesh_(mesh), dir_(crossingRay()) {
    u_ = dir_.unitOrthogonal();
    v_ = dir_.cross(u_);
    lo_ = Vec2::Constant(std::numeric_limits<real>::infinity());
    Vec2 hi = -lo_;
    for (const Vec3& x : mesh.vertices) {
        lo_ = lo_.cwiseMin(shadow(x));
        hi = hi.cwiseMax(shadow(x));
    }
    // The pad: a thousandth of the shadow's extent, plus the round-off of coordinates
    // far from the origin.
    real farthest = 0;
    for (const Vec3& x : mesh.vertices) farthest = std::max(farthest, x.cwiseAbs().maxCoeff());
    const real pad = real(1e-3) * std::max((hi - lo_).maxCoeff(), real(1e-9)) +
                     64 * std::numeric_limits<real>::epsilon() * farthest;
    lo_ -= Vec2::Constant(pad);
    hi += Vec2::Constant(pad);
    side_ = std::clamp(static_cast<int>(std::sqrt(static_cast<real>(mesh.triangles.size()))), 1, 256);
    cell_ = (hi - lo_) / static_cast<real>(side_);
    cells_.assign(static_cast<std::size_t>(side_ * side_), {});
    for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
        if (edgeOn(t)) {
            everywhere_.push_back(t);
            continue;
        }
        Vec2 tlo = Vec2::Constant(std::numeric_limits<real>::infinity()), thi = -tlo;
        for (const std::uint32_t i : mesh.triangles[t]) {
            tlo = tlo.cwiseMin(shadow(mesh.vertices[i]));
            thi = thi.cwiseMax(shadow(mesh.vertices[i]));
        }
        const auto [i0, j0] = cellOf(tlo - Vec2::Constant(pad));
        const auto [i1, j1] = cellOf(thi + Vec2::Constant(pad));
        for (int i = i0; i <= i1; ++i)
            for (int j = j0; j <= j1; ++j) cells_[static_cast<std::size_t>(i * side_ + j)].push_back(t);
    }
}

bool CrossingGrid::inside(const Vec3& p) const {
    int crossings = 0;
    for (const std::size_t t : everywhere_)
        if (rayCrosses(mesh_, t, dir_, p)) ++crossings;
    const Vec2 s = shadow(p);
    const bool inBounds =
        !(s.array() < lo_.array()).any() && !(s.array() > (lo_ + cell_ * static_cast<real>(side_)).array()).any();
    if (inBounds) { // else its ray misses every bucketed triangle's padded shadow
        const auto [i, j] = cellOf(s);
        for (const std::size_t t : cells_[static_cast<std::size_t>(i * side_ + j)])
            if (rayCrosses(mesh_, t, dir_, p)) ++crossings;
    }
    return crossings % 2 == 1;
}

bool CrossingGrid::edgeOn(std::size_t t) const {
    // rayCrosses divides by det = e1 . (dir x e2), twice the shadow's area: when that is
    // small beside |e1| |e2|, its barycentric coordinates carry round-off of order
    // epsilon |e1| |e2| / det, which no fixed pad bounds.
    const auto& [ia, ib, ic] = mesh_.triangles[t];
    const Vec3 a = mesh_.vertices[ia], e1 = mesh_.vertices[ib] - a, e2 = mesh_.vertices[ic] - a;
    const real det = e1.dot(dir_.cross(e2));
    return !(std::abs(det) >= real(1e5) * std::numeric_limits<real>::epsilon() * e1.norm() * e2.norm());
}

std::pair<int, int> CrossingGrid::cellOf(const Vec2& s) const {
    const auto index = [this](real at) { // NaN and the outside go to the edge cells
        return at >= 1 ? static_cast<int>(std::min(std::floor(at), static_cast<real>(side_ - 1))) : 0;
    };
    return {index((s.x() - lo_.x()) / cell_.x()), index((s.y() - lo_.y()) / cell_.y())};
}

} // namespace jounce::detail
