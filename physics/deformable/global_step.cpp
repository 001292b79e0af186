// SPDX-License-Identifier: MIT
// The global step (Choi 2017 eq. 5-7, 9, 14): with the rotations held, the positions
// minimising the energy solve L x = b, one row per particle:
//   L_ii = m_i / h^2 + k sum_{j in N_i} (v_i + v_j),   L_ij = -k (v_i + v_j)  (j in N_i)
//        + w_p w_i w_j for every position handle whose skinning holds i and j   (eq. 9)
//   b_i  = m_i / h^2 y_i + k sum_{j in N_i} (v_j R_i + v_i R_j)(xb_i - xb_j)
//        + w_p w_i (v_c - sum_j w_j R_j (vb_c - xb_j)) per such handle.
// L is the same for x, y and z, so it is an n x n matrix solved for three right-hand
// sides; it depends on the graph, the masses, k, h and the handles' weights only, so
// it is factorised (sparse LDL^T) once and each iteration is a back substitution.
// Rows sum to m_i / h^2 and the elastic terms of b sum to zero over all i, so
// sum m x = sum m y: without handles the step keeps linear momentum.

#include "physics/deformable/stages.hpp"

namespace jounce::detail {
namespace {

template <typename Visit> void forEachPositionHandle(const Deformable& d, Visit visit) {
    for (std::size_t h = 0; h < d.handles.slotCount(); ++h)
        if (d.handles.isAlive(h) && d.handles.atSlot(h).desc.kind == DeformableHandleDesc::Kind::Position)
            visit(d.handles.atSlot(h).desc);
}

void assemble(const Deformable& d, real h, Eigen::SparseMatrix<double>& out) {
    const std::size_t n = d.size();
    std::vector<Eigen::Triplet<double>> entries;
    for (std::size_t i = 0; i < n; ++i) {
        double diagonal = double(d.mass[i]) / (double(h) * h);
        for (std::uint32_t s = d.neighbourStart[i]; s < d.neighbourStart[i + 1]; ++s) {
            const std::uint32_t j = d.neighbours[s];
            const double link = double(d.stiffness) * (double(d.volume[i]) + d.volume[j]);
            diagonal += link;
            entries.emplace_back(static_cast<int>(i), static_cast<int>(j), -link);
        }
        entries.emplace_back(static_cast<int>(i), static_cast<int>(i), diagonal);
    }
    forEachPositionHandle(d, [&](const DeformableHandleDesc& handle) {
        const std::size_t k = handle.vertex;
        for (std::uint32_t a = d.skinStart[k]; a < d.skinStart[k + 1]; ++a)
            for (std::uint32_t b = d.skinStart[k]; b < d.skinStart[k + 1]; ++b)
                entries.emplace_back(static_cast<int>(d.skinParticles[a]), static_cast<int>(d.skinParticles[b]),
                                     double(handle.weight) * d.skinWeights[a] * d.skinWeights[b]);
    });
    out.resize(static_cast<int>(n), static_cast<int>(n));
    out.setFromTriplets(entries.begin(), entries.end()); // duplicates summed
}

} // namespace

void globalStep(Deformable& d, DeformableSolver& solver, const InertialTargets& targets, real h) {
    const std::size_t n = d.size();
    if (solver.builtFor != d.systemVersion || solver.builtForStep != h || !solver.ldlt) {
        assemble(d, h, solver.matrix);
        solver.ldlt = std::make_unique<Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>>>(solver.matrix);
        solver.builtFor = d.systemVersion;
        solver.builtForStep = h;
        ++solver.stats.factorisations;
    }
    Eigen::Matrix<double, Eigen::Dynamic, 3> b(static_cast<int>(n), 3);
    for (std::size_t i = 0; i < n; ++i) {
        Eigen::Vector3d row = targets.position[i].cast<double>() * (double(d.mass[i]) / (double(h) * h));
        for (std::uint32_t s = d.neighbourStart[i]; s < d.neighbourStart[i + 1]; ++s) {
            const std::uint32_t j = d.neighbours[s];
            row += double(d.stiffness) *
                   (double(d.volume[j]) * d.rotation[i].cast<double>() + double(d.volume[i]) * d.rotation[j].cast<double>()) *
                   (d.restPosition[i] - d.restPosition[j]).cast<double>();
        }
        b.row(static_cast<int>(i)) = row.transpose();
    }
    forEachPositionHandle(d, [&](const DeformableHandleDesc& handle) {
        const std::size_t k = handle.vertex;
        const Eigen::Vector3d turned = skinnedOffset(d, k).cast<double>();
        for (std::uint32_t s = d.skinStart[k]; s < d.skinStart[k + 1]; ++s)
            b.row(static_cast<int>(d.skinParticles[s])) +=
                (double(handle.weight) * d.skinWeights[s] * (handle.target.cast<double>() - turned)).transpose();
    });
    const Eigen::Matrix<double, Eigen::Dynamic, 3> x = solver.ldlt->solve(b);
    const double scale = b.norm();
    solver.stats.globalResidual = scale > 0 ? static_cast<real>((solver.matrix * x - b).norm() / scale) : 0;
    for (std::size_t i = 0; i < n; ++i) d.position[i] = x.row(static_cast<int>(i)).transpose().cast<real>();
}

} // namespace jounce::detail
