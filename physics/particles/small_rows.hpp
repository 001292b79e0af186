// SPDX-License-Identifier: MIT
#pragma once
// The constraints on three or four particles of one world substep in sweep order
// (packSmallConstraints, project_small_constraints.cpp): level by level
// (sweep_levels.hpp), and within each level the tetrahedral volumes first, then the
// isometric bending stencils, then the other kinds. Rows of one level share no
// particle, so this order within a level is the same sweep, bit for bit, and the first
// two kinds, whose projections have no branch (their value and gradients are sums and
// products of the positions), are laid out as flat arrays a SIMD lane loads in one
// instruction (small_kernel.hpp). The others (dihedral bending's atan2, triangle area's
// collapsed case) are projected one at a time from their constraints.

#include "physics/particles/sweep_levels.hpp"

#include <jounce/config.hpp>

#include <array>
#include <cstdint>
#include <vector>

namespace jounce::detail {

struct SmallRows {
    /// Constraint slots in sweep order; the arrays below have one entry per place in it
    /// (read only for the places of the lane kinds).
    std::vector<std::uint32_t> sequence;
    /// Level k: sequence[levelStart[k] .. tetEnd[k]) tetrahedra, [tetEnd[k] ..
    /// bendEnd[k]) isometric bending, [bendEnd[k] .. levelStart[k + 1]) the others.
    std::vector<std::uint32_t> levelStart, tetEnd, bendEnd;
    std::array<std::vector<std::uint32_t>, 4> p; ///< the four particles
    std::array<std::vector<real>, 4> w;          ///< their inverse masses
    std::array<std::vector<real>, 4> c;          ///< isometric bending's coefficients
    std::vector<real> rest;
    std::vector<real> alphaTilde; ///< compliance / h^2, h the constraint step
    std::vector<real> lambda;     ///< XPBD's multiplier, from 0 each small step
    bool pbd = false;
    real pbdStiffness = 0;        ///< PBD's k' = 1 - (1 - k)^(1/n)
    // Scratch of the ordering.
    std::vector<std::uint32_t> slots;
    std::vector<std::uint8_t> kind; ///< per entry of slots: 0 tetrahedron, 1 isometric bending, 2 other
    SweepLevels levels;
};

/// What a kernel (small_kernel.hpp) reads and writes: the arrays and the particles'
/// positions as x y z triples.
struct SmallRowView {
    real* p = nullptr;
    std::array<const std::uint32_t*, 4> index{};
    std::array<const real*, 4> w{}, c{};
    const real *rest = nullptr, *alphaTilde = nullptr;
    real* lambda = nullptr;
    bool pbd = false;
    real pbdStiffness = 0;
};

/// A SIMD kernel's two entry points: rows [begin, end) of one level's tetrahedra or
/// isometric bending stencils, end - begin a multiple of `width`.
struct SmallLanes {
    int width = 0; ///< 0: not built for this processor family
    void (*tetrahedra)(const SmallRowView&, std::size_t begin, std::size_t end) = nullptr;
    void (*bending)(const SmallRowView&, std::size_t begin, std::size_t end) = nullptr;
};
SmallLanes sse2SmallLanes();
SmallLanes avx2SmallLanes();

} // namespace jounce::detail
