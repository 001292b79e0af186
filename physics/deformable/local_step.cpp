// SPDX-License-Identifier: MIT
// The local step (Choi 2017 sec. 3.3-3.5): with all positions and the other particles'
// rotations held, particle i's rotation minimising the energy is the rotation of the
// polar decomposition of
//   C_i = k sum_{j in N_i} [ R_j (A-bar_j + A-bar_i) + v_j (x_j - x_i)(xb_j - xb_i)^T ]   (eq. 4)
//       + rho / h^2 T_i A-bar_i                                                         (eq. 13)
//       + w_p u_i ub_i^T per position handle, w_d r_i rb_i^T per direction handle     (sec. 3.4)
// where T_i = R_i + h [w_i]x R_i is the inertial target. (The paper's eq. 13 has no rho:
// its eq. 11 integrates rho over the ellipsoid, which puts rho on the moment term as it
// puts m = rho v on the position term; with rho left out the particles would turn as if
// 1000x lighter than they move.) The rotation is that of the polar decomposition, with
// the smallest singular direction flipped when det(U V^T) < 0, so an inverted
// neighbourhood still gives a proper rotation (Umeyama 1991); it is found by Newton's
// method on the rotation group warm-started from the last rotation, several times
// cheaper than a 3 x 3 SVD (tests/test_deformable.cpp compares the two).

#include "physics/deformable/stages.hpp"
#include "common/polar.hpp"

#include <algorithm>
#include <cmath>

namespace jounce::detail {
namespace {

/// Adds the terms of the handles whose skinning holds particle i to its covariance C_i
/// (sec. 3.4), from the current rotations.
void addHandleTerms(const Deformable& d, std::size_t i, Mat3& c) {
    for (std::size_t h = 0; h < d.handles.slotCount(); ++h) {
        if (!d.handles.isAlive(h)) continue;
        const DeformableHandleDesc& handle = d.handles.atSlot(h).desc;
        const std::size_t k = handle.vertex;
        std::uint32_t own = d.skinStart[k + 1];
        for (std::uint32_t s = d.skinStart[k]; s < d.skinStart[k + 1]; ++s)
            if (d.skinParticles[s] == i) own = s;
        if (own == d.skinStart[k + 1]) continue; // i does not move this vertex
        const real weight = d.skinWeights[own];
        const Vec3& restPoint = d.restVertices[k];
        if (handle.kind == DeformableHandleDesc::Kind::Position) {
            // E = w_p/2 |R_i ub_i - u_i|^2 with ub_i = w_i (vb_c - xb_i) and u_i what the
            // other particles leave for R_i to cover.
            const Vec3 ub = weight * (restPoint - d.restPosition[i]);
            const Vec3 u = handle.target - skinnedVertex(d, k) + d.rotation[i] * ub;
            c += handle.weight * u * ub.transpose();
            continue;
        }
        // Direction: the skinned direction's length l held for the step (eq. 10).
        Vec3 skinned = Vec3::Zero();
        for (std::uint32_t s = d.skinStart[k]; s < d.skinStart[k + 1]; ++s)
            skinned += d.skinWeights[s] * (d.rotation[d.skinParticles[s]] * handle.restDirection);
        const real length = skinned.norm();
        if (!(length > 0)) continue;
        const Vec3 rb = handle.restDirection * (weight / length);
        const Vec3 r = handle.target - skinned / length + d.rotation[i] * rb;
        c += handle.weight * r * rb.transpose();
    }
}

} // namespace

void localStep(Deformable& d, const InertialTargets& targets, real h, DeformableStats& stats) {
    // Gauss-Seidel over the particles: each R_i from its neighbours' latest rotations.
    // Every update minimises the energy over R_i exactly, so the iteration only goes
    // down (block coordinate descent); a Jacobi sweep of the same updates overshoots
    // a handle shared by m particles m times and can oscillate for ever.
    const real inertia = d.density / (h * h);
    for (std::size_t i = 0; i < d.size(); ++i) {
        Mat3 sum = Mat3::Zero();
        for (std::uint32_t s = d.neighbourStart[i]; s < d.neighbourStart[i + 1]; ++s) {
            const std::uint32_t j = d.neighbours[s];
            sum += d.rotation[j] * (d.restMoment[j] + d.restMoment[i]) +
                   d.volume[j] * (d.position[j] - d.position[i]) * (d.restPosition[j] - d.restPosition[i]).transpose();
        }
        Mat3 c = d.stiffness * sum + inertia * targets.rotation[i] * d.restMoment[i];
        addHandleTerms(d, i, c);
        d.rotation[i] = extractRotation(c, d.rotation[i]);
        stats.worstDeterminant = std::min(stats.worstDeterminant, d.rotation[i].determinant());
        stats.worstOrthogonality =
            std::max(stats.worstOrthogonality, (d.rotation[i].transpose() * d.rotation[i] - Mat3::Identity()).cwiseAbs().maxCoeff());
    }
}

} // namespace jounce::detail
