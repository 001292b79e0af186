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

/// A constraint whose summed weights sum_i w_i |grad_i C|^2 are at most this has no
/// direction to move along (every particle pinned, or no gradient): it is skipped.
inline constexpr real minWeights = real(1e-12) * real(1e-12);

struct SmallRows {
    /// Constraint slots in sweep order; the arrays below have one entry per place in it
    /// (filled for the places of the lane kinds; the others name a live particle and
    /// carry no weight).
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
    /// Each live constraint in slot order with everything the pack reads of it: the
    /// last pack's listing, and this world substep's. The same listing, bit for bit,
    /// packs to the same order and arrays, so they are kept (softcube's 4374 tetrahedra
    /// were ordered again every world substep, 4 % of its step).
    struct Listed {
        std::uint32_t slot = 0;
        std::array<std::uint32_t, 4> p{};
        std::uint8_t count = 0;
        std::uint8_t kind = 0;     ///< 0 tetrahedron, 1 isometric bending, 2 one at a time (rowKind)
        std::array<real, 4> w{}, c{}; ///< the lane kinds': inverse masses, bending coefficients
        real rest = 0, alphaTilde = 0;
    };
    std::vector<Listed> listed, fresh;
    SweepLevels levels;
};

/// What a kernel (small_kernel.hpp) reads and writes: the arrays and the particles'
/// positions as x y z triples.
struct SmallRowView {
    real* p = nullptr;
    // Plain arrays, not std::array: the -mavx2 file must not emit a shared instance of a
    // standard template other files could link to (common/lanes_avx2.hpp).
    const std::uint32_t* index[4] = {};
    const real* w[4] = {};
    const real* c[4] = {};
    const real *rest = nullptr, *alphaTilde = nullptr;
    real* lambda = nullptr;
    bool pbd = false;
    real pbdStiffness = 0;
};

/// A SIMD kernel's two entry points: rows [begin, end) of one level's tetrahedra or
/// isometric bending stencils.
struct SmallLanes {
    int width = 0; ///< 0: not built for this processor family
    void (*tetrahedra)(const SmallRowView&, std::size_t begin, std::size_t end) = nullptr;
    void (*bending)(const SmallRowView&, std::size_t begin, std::size_t end) = nullptr;
};
SmallLanes sse2SmallLanes();
SmallLanes avx2SmallLanes();

} // namespace jounce::detail
