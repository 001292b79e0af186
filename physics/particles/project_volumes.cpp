// SPDX-License-Identifier: MIT
// Closed-mesh volume constraints (survey seeds/000, "cloth balloon" and "surface
// meshes"). The volume of a closed, outward-oriented triangle mesh is, by the
// divergence theorem, V = 1/6 sum_t (x_t1 x x_t2) . x_t3, and
//   grad_i V = 1/6 sum over triangles t holding i of (the cross product of t's other
//   two vertices, in cyclic order),
// which sums to zero over the mesh (V does not change when it translates). The
// constraint C = V - k_pressure V0 is projected by XPBD with per-particle weights:
// inverse masses (Global) or Diziol et al. 2011's local/global blend.

#include "physics/particles/stages.hpp"

#include <algorithm>

namespace jounce::detail {

real meshVolume(const ParticleSystem& ps, const ParticleVolume& volume) {
    real six = 0;
    for (const auto& t : volume.triangles) six += ps.p[t[0]].cross(ps.p[t[1]]).dot(ps.p[t[2]]);
    return six / 6;
}

namespace {

/// grad_i V for every particle slot of the mesh, in `grad` (indexed by slot).
void volumeGradient(const ParticleSystem& ps, const ParticleVolume& volume, std::vector<Vec3>& grad) {
    for (const std::uint32_t i : volume.particles) grad[i].setZero();
    for (const auto& t : volume.triangles) {
        grad[t[0]] += ps.p[t[1]].cross(ps.p[t[2]]) / 6;
        grad[t[1]] += ps.p[t[2]].cross(ps.p[t[0]]) / 6;
        grad[t[2]] += ps.p[t[0]].cross(ps.p[t[1]]) / 6;
    }
}

/// Diziol's weights omega_i = w_i n ((1 - alpha) l_i + alpha / n), l_i = |dx_i| / sum |dx_j|
/// with dx_i how far the other constraints moved particle i from its prediction
/// x + h v in this small step; touching particles get 0 so the volume does not push
/// them into what they touch. With alpha = 1 and nothing touching, omega = w (Global).
void diziolWeights(const ParticleSystem& ps, const ParticleVolume& volume, const std::vector<std::uint8_t>& touching,
                   real h, std::vector<real>& omega) {
    real total = 0;
    for (const std::uint32_t i : volume.particles) total += (ps.p[i] - (ps.x[i] + h * ps.v[i])).norm();
    const real n = static_cast<real>(volume.particles.size());
    const real alpha = volume.globalShare;
    for (const std::uint32_t i : volume.particles) {
        const real local = total > 0 ? (ps.p[i] - (ps.x[i] + h * ps.v[i])).norm() / total : 1 / n;
        const bool blocked = i < touching.size() && touching[i];
        omega[i] = blocked ? 0 : ps.w[i] * n * ((1 - alpha) * local + alpha / n);
    }
}

} // namespace

void projectVolumes(ParticleSystem& ps, const ParticleSettings& settings, real h,
                    const std::vector<std::uint8_t>& touching, VolumeScratch& scratch) {
    if (ps.volumes.size() == 0) return;
    scratch.grad.resize(ps.slotCount());
    scratch.omega.resize(ps.slotCount());
    for (std::size_t s = 0; s < ps.volumes.slotCount(); ++s) {
        if (!ps.volumes.isAlive(s)) continue;
        ParticleVolume& volume = ps.volumes.atSlot(s);
        volumeGradient(ps, volume, scratch.grad);
        if (volume.mode == VolumeMode::Diziol) diziolWeights(ps, volume, touching, h, scratch.omega);
        else
            for (const std::uint32_t i : volume.particles) scratch.omega[i] = ps.w[i];
        real weights = 0;
        for (const std::uint32_t i : volume.particles) weights += scratch.omega[i] * scratch.grad[i].squaredNorm();
        if (!(weights > 0)) continue;
        const real value = meshVolume(ps, volume) - volume.pressure * volume.restVolume;
        const real dlambda = multiplierChange(value, weights, volume.compliance, volume.lambda, settings, h);
        volume.lambda += dlambda;
        for (const std::uint32_t i : volume.particles) ps.p[i] += scratch.grad[i] * (scratch.omega[i] * dlambda);
    }
}

} // namespace jounce::detail
