// SPDX-License-Identifier: MIT
// Particle clusters: shape matching (Müller, Heidelberger, Teschner, Gross 2005,
// "Meshless deformations based on shape matching") and rigid-mode damping (Müller
// 2007 sec. 3.5).
//
// Shape matching: with masses m_i, the current centre of mass c, rest offsets r_i
// (about the rest centre of mass, so sum m_i r_i = 0) and A = sum m_i (p_i - c) r_i^T,
// the rotation R that best maps the rest shape onto the current one is the rotation
// factor of A's polar decomposition. Each particle is pulled towards its goal
// g_i = c + R r_i. Because sum m_i r_i = 0 the pulls carry no net momentum, and
// because A R^T is symmetric they carry no net torque.
//
// Rigid-mode damping: the cluster's rigid motion (v_cm, omega = I^-1 L) is what its
// velocities have in common; a share of each particle's deviation from it is removed,
// which leaves linear and angular momentum as they were.

#include "physics/particles/stages.hpp"
#include "common/polar.hpp"

#include <Eigen/SVD>

#include <cmath>
#include <type_traits>

namespace jounce::detail {
namespace {

/// A particle's mass for the cluster's centre and rotation fit: pinned particles (w = 0)
/// count with the cluster's mean movable mass, so a pinned corner still shapes the fit.
real clusterMass(real w, real meanMass) { return w > 0 ? 1 / w : meanMass; }

real meanMovableMass(const ParticleSystem& ps, const std::vector<std::uint32_t>& particles) {
    real total = 0;
    int count = 0;
    for (const std::uint32_t i : particles)
        if (ps.w[i] > 0) {
            total += 1 / ps.w[i];
            ++count;
        }
    return count > 0 ? total / static_cast<real>(count) : real(1);
}

/// The cluster's centre of mass at `positions` (x or p) with clusterMass weights.
Vec3 clusterCentre(const ParticleSystem& ps, const std::vector<std::uint32_t>& particles, const std::vector<Vec3>& positions,
                   real meanMass) {
    Vec3 centre = Vec3::Zero();
    real mass = 0;
    for (const std::uint32_t i : particles) {
        const real m = clusterMass(ps.w[i], meanMass);
        centre += m * positions[i];
        mass += m;
    }
    return centre / mass;
}

} // namespace

Vec3 pseudoInverseSolve(const Mat3& a, const Vec3& b) {
    // x = V S^+ U^T b, dropping singular values under 1e-9 (double) of the largest: the
    // least-squares solution of smallest norm when a is singular.
    const Eigen::JacobiSVD<Mat3> svd(a, Eigen::ComputeFullU | Eigen::ComputeFullV);
    const Vec3 s = svd.singularValues();
    const real cut = s[0] * (std::is_same_v<real, float> ? real(1e-5) : real(1e-9));
    Vec3 inUBasis = svd.matrixU().transpose() * b;
    for (int i = 0; i < 3; ++i) inUBasis[i] = s[i] > cut ? inUBasis[i] / s[i] : real(0);
    return svd.matrixV() * inUBasis;
}

void setClusterRest(const ParticleSystem& ps, ParticleCluster& cluster) {
    const Vec3 centre = clusterCentre(ps, cluster.particles, ps.x, meanMovableMass(ps, cluster.particles));
    cluster.rest.clear();
    for (const std::uint32_t i : cluster.particles) cluster.rest.push_back(ps.x[i] - centre);
}

void matchShapes(ParticleSystem& ps, const ParticleSettings& settings) {
    // k' = 1 - (1 - k)^(1/n): n iterations together take the share k of the way.
    const real iterations = static_cast<real>(settings.iterations);
    for (std::size_t s = 0; s < ps.clusters.slotCount(); ++s) {
        if (!ps.clusters.isAlive(s)) continue;
        ParticleCluster& cluster = ps.clusters.atSlot(s);
        if (cluster.shapeStiffness == 0) continue;
        const real mean = meanMovableMass(ps, cluster.particles);
        const Vec3 centre = clusterCentre(ps, cluster.particles, ps.p, mean);
        Mat3 a = Mat3::Zero();
        for (std::size_t k = 0; k < cluster.particles.size(); ++k) {
            const std::uint32_t i = cluster.particles[k];
            a += clusterMass(ps.w[i], mean) * (ps.p[i] - centre) * cluster.rest[k].transpose();
        }
        cluster.rotation = properRotation(a);
        const real share = 1 - std::pow(1 - cluster.shapeStiffness, 1 / iterations);
        for (std::size_t k = 0; k < cluster.particles.size(); ++k) {
            const std::uint32_t i = cluster.particles[k];
            if (ps.w[i] == 0) continue;
            const Vec3 goal = centre + cluster.rotation * cluster.rest[k];
            ps.p[i] += share * (goal - ps.p[i]);
        }
    }
}

void dampClusters(ParticleSystem& ps) {
    for (std::size_t s = 0; s < ps.clusters.slotCount(); ++s) {
        if (!ps.clusters.isAlive(s)) continue;
        const ParticleCluster& cluster = ps.clusters.atSlot(s);
        if (cluster.rigidDamping == 0) continue;
        // Pinned particles are left out: they have no finite mass and do not move.
        Vec3 centre = Vec3::Zero(), velocity = Vec3::Zero();
        real mass = 0;
        for (const std::uint32_t i : cluster.particles) {
            if (ps.w[i] == 0) continue;
            centre += ps.x[i] / ps.w[i];
            velocity += ps.v[i] / ps.w[i];
            mass += 1 / ps.w[i];
        }
        if (!(mass > 0)) continue;
        centre /= mass;
        velocity /= mass;
        Vec3 angularMomentum = Vec3::Zero();
        Mat3 inertia = Mat3::Zero();
        for (const std::uint32_t i : cluster.particles) {
            if (ps.w[i] == 0) continue;
            const Vec3 r = ps.x[i] - centre;
            angularMomentum += r.cross(ps.v[i]) / ps.w[i];
            inertia += (r.squaredNorm() * Mat3::Identity() - r * r.transpose()) / ps.w[i];
        }
        // Collinear particles have no inertia about their line: the pseudo-inverse
        // gives the spin about the other two axes and none about it.
        const Vec3 omega = pseudoInverseSolve(inertia, angularMomentum);
        for (const std::uint32_t i : cluster.particles) {
            if (ps.w[i] == 0) continue;
            const Vec3 rigid = velocity + omega.cross(ps.x[i] - centre);
            ps.v[i] += cluster.rigidDamping * (rigid - ps.v[i]);
        }
    }
}

} // namespace jounce::detail
