// SPDX-License-Identifier: MIT
#pragma once
// Direct solves of acyclic groups of distance constraints (ropes, chains, hair, a
// pendulum of many links): Gauss-Seidel needs many iterations to carry a heavy
// particle's weight up a light chain (a 1:100 chain stretched 1.4% at 20 substeps);
// solving the group's linearised system at once is exact whatever the masses
// (Deul, Kugelstadt, Weiler, Bender 2018, "Direct position-based solver for stiff
// rods", for tree-structured constraints). A group that closes a loop (cloth, tets)
// stays with Gauss-Seidel, where a sparse factorisation would fill in.

#include <jounce/particles/particles.hpp>

#include <Eigen/Sparse>

#include <cstdint>
#include <memory>
#include <vector>

namespace jounce::detail {

/// One acyclic group: its constraints (distance slots) and the pairs of them that
/// share a movable particle, which are the off-diagonal entries of its matrix.
struct DirectGroup {
    std::vector<std::uint32_t> constraints;
    struct Sharing {
        std::uint32_t i = 0, j = 0; ///< positions in `constraints`
        std::uint32_t particle = 0;
        real sign = 1;              ///< s_i s_j: +1 when the particle is the same end of both
    };
    std::vector<Sharing> sharing;
    Eigen::SparseMatrix<real> matrix;
    /// Analysed once per topology (the pattern stays), factorised every iteration.
    std::unique_ptr<Eigen::SimplicialLDLT<Eigen::SparseMatrix<real>>> ldlt;
};

struct DirectSolver {
    std::uint64_t builtFor = ~std::uint64_t(0); ///< ParticleSystem::topologyVersion it was built for
    std::vector<DirectGroup> groups;
    std::vector<std::uint8_t> solvedDirectly;   ///< per distance slot
};

/// Finds the acyclic groups (again, when the constraint topology changed).
void buildDirectGroups(const ParticleSystem& ps, DirectSolver& solver);

/// One XPBD (or PBD) iteration of every acyclic group, each solved exactly:
///   (J W J^T + alpha~) dlambda = -C - alpha~ lambda,  dp = W J^T dlambda,
/// J the rows grad C_i (n_i at a, -n_i at b), W the inverse masses.
void projectDirect(ParticleSystem& ps, DirectSolver& solver, const ParticleSettings& settings, real h);

} // namespace jounce::detail
