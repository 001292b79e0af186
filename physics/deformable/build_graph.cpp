// SPDX-License-Identifier: MIT
// The deformation graph of oriented particles (Choi 2017 sec. 3.1): each particle's
// rest pose, volume v = 4/3 pi a b c, mass rho v and moment matrix A = 0.2 v
// diag(a^2, b^2, c^2) (the second moment of a solid ellipsoid about its centre,
// sec. 3.2), turned into the world frame as A-bar = E-bar A E-bar^T; the neighbour
// lists of the edges; and the render mesh's skinning (eq. 1).

#include "physics/deformable/stages.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace jounce::detail {

OrientedParticleRest orientedParticleRest(const Vec3& radii, const Mat3& axes, real density) {
    OrientedParticleRest rest;
    rest.volume = real(4) / 3 * std::numbers::pi_v<real> * radii.x() * radii.y() * radii.z();
    rest.mass = density * rest.volume;
    const Vec3 moments = radii.cwiseProduct(radii) * (real(0.2) * rest.volume);
    rest.moment = axes * moments.asDiagonal() * axes.transpose();
    return rest;
}

void buildDeformable(const DeformableDesc& desc, Deformable& d) {
    const std::size_t n = desc.particles.size();
    d = Deformable{};
    d.density = desc.density;
    d.stiffness = desc.stiffness;
    d.damping = desc.damping;
    d.friction = desc.friction;
    d.iterations = desc.iterations;
    for (const OrientedParticleDesc& p : desc.particles) {
        const Mat3 axes = p.orientation.normalized().toRotationMatrix();
        const OrientedParticleRest rest = orientedParticleRest(p.radii, axes, desc.density);
        d.restPosition.push_back(p.position);
        d.restAxes.push_back(axes);
        d.radii.push_back(p.radii);
        d.volume.push_back(rest.volume);
        d.mass.push_back(rest.mass);
        d.restMoment.push_back(rest.moment);
    }
    d.position = d.restPosition;
    d.velocity.assign(n, Vec3::Zero());
    d.rotation.assign(n, Mat3::Identity());
    d.angularVelocity.assign(n, Vec3::Zero());
    // Neighbour lists, sorted, each edge both ways (eq. 3 sums over i and j in N_i).
    d.edges = desc.edges;
    std::vector<std::vector<std::uint32_t>> lists(n);
    for (const auto& [a, b] : desc.edges) {
        lists[a].push_back(b);
        lists[b].push_back(a);
    }
    d.neighbourStart.push_back(0);
    for (auto& list : lists) {
        std::sort(list.begin(), list.end());
        list.erase(std::unique(list.begin(), list.end()), list.end());
        d.neighbours.insert(d.neighbours.end(), list.begin(), list.end());
        d.neighbourStart.push_back(static_cast<std::uint32_t>(d.neighbours.size()));
    }
    d.restVertices = desc.vertices.empty() ? d.restPosition : desc.vertices;
    d.restNormals = desc.normals;
    d.triangles = desc.triangles;
    d.skinningNeighbours = desc.skinningNeighbours;
    computeSkinning(d, desc.skinningNeighbours);
}

void computeSkinning(Deformable& d, int neighbours) {
    const std::size_t n = d.size();
    const std::size_t m = std::min<std::size_t>(static_cast<std::size_t>(neighbours), n);
    d.skinStart.assign(1, 0);
    d.skinParticles.clear();
    d.skinWeights.clear();
    std::vector<std::pair<real, std::uint32_t>> byDistance(n);
    for (const Vec3& vertex : d.restVertices) {
        for (std::uint32_t j = 0; j < n; ++j) byDistance[j] = {(vertex - d.restPosition[j]).norm(), j};
        // The m nearest, ties by index (deterministic), and the (m+1)-th's distance.
        const std::size_t keep = std::min(m + 1, n);
        std::partial_sort(byDistance.begin(), byDistance.begin() + static_cast<std::ptrdiff_t>(keep), byDistance.end());
        const real reach = keep > m ? byDistance[m].first : byDistance[m - 1].first * 2;
        real total = 0;
        const std::size_t first = d.skinWeights.size();
        for (std::size_t k = 0; k < m; ++k) {
            const real fall = reach > 0 ? 1 - byDistance[k].first / reach : 1;
            const real weight = std::max(fall * fall, real(1e-6)); // equal distances: all still count
            d.skinParticles.push_back(byDistance[k].second);
            d.skinWeights.push_back(weight);
            total += weight;
        }
        for (std::size_t k = first; k < d.skinWeights.size(); ++k) d.skinWeights[k] /= total;
        d.skinStart.push_back(static_cast<std::uint32_t>(d.skinParticles.size()));
    }
}

Vec3 skinnedOffset(const Deformable& d, std::size_t k) {
    Vec3 turned = Vec3::Zero();
    for (std::uint32_t s = d.skinStart[k]; s < d.skinStart[k + 1]; ++s) {
        const std::uint32_t j = d.skinParticles[s];
        turned += d.skinWeights[s] * (d.rotation[j] * (d.restVertices[k] - d.restPosition[j]));
    }
    return turned;
}

Vec3 skinnedVertex(const Deformable& d, std::size_t k) {
    Vec3 p = skinnedOffset(d, k);
    for (std::uint32_t s = d.skinStart[k]; s < d.skinStart[k + 1]; ++s) p += d.skinWeights[s] * d.position[d.skinParticles[s]];
    return p;
}

Vec3 skinnedNormal(const Deformable& d, std::size_t k) {
    if (k >= d.restNormals.size()) return Vec3::UnitY();
    Vec3 n = Vec3::Zero();
    for (std::uint32_t s = d.skinStart[k]; s < d.skinStart[k + 1]; ++s)
        n += d.skinWeights[s] * (d.rotation[d.skinParticles[s]] * d.restNormals[k]);
    const real length = n.norm();
    return length > 0 ? Vec3(n / length) : d.restNormals[k];
}

} // namespace jounce::detail
