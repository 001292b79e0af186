// SPDX-License-Identifier: MIT
#pragma once
// The distance constraints of one world substep as flat rows (packDistances,
// project_constraints.cpp): what every visit reads, in arrays a SIMD lane loads in one
// instruction, level by level (sweep_levels.hpp). Rows marked solved directly are left
// to projectDirect, and those between two pinned particles out.

#include "physics/particles/sweep_levels.hpp"

#include <jounce/config.hpp>

#include <cstdint>
#include <vector>

namespace jounce::detail {

/// One row as packDistances first lists it, in slot order.
struct DistanceRow {
    std::uint32_t a = 0, b = 0;
    std::uint32_t slot = 0; ///< in ParticleSystem::distances
    real wa = 0, wb = 0;
    real restLength = 0;
    real alphaTilde = 0; ///< alpha / h^2, h the constraint step
};

/// The rows, one entry per row in each array, level by level. The multipliers start
/// each small step at 0 and are stored back in the constraints after the last
/// (World::distanceTension reads them).
struct DistanceRows {
    std::vector<std::uint32_t> a, b, slot;
    std::vector<real> wa, wb, restLength, alphaTilde, lambda;
    /// The multiplier change per unit of -(C + alpha~ lambda) (XPBD: 1 / (wa + wb +
    /// alpha~)) or of -C (PBD: k' / (wa + wb)), fixed for the substep. A multiplication in
    /// every visit instead of a division (a SIMD division takes ~4x a multiplication's
    /// time, and the sweep did four per row).
    std::vector<real> scale;
    SweepLevels levels;
    /// The rows in slot order as last packed, and this substep's listing to compare with
    /// them: the same rows with the same bits keep their order and arrays (ordering them
    /// again, a scattered read of every row, took 4 % of cloth64's step).
    std::vector<DistanceRow> listed, fresh;
    bool pbd = false;
    real pbdStiffness = 0; ///< PBD's k' = 1 - (1 - k)^(1/n)
    bool scaledForPbd = false; ///< the solver and k' `scale` was computed for
    real scaledForStiffness = 0;
    std::size_t size() const { return a.size(); }
};

/// What a kernel (distance_kernel.hpp) reads and writes: the rows' arrays and the
/// particles' positions as x y z triples.
struct DistanceRowView {
    real* p = nullptr;
    const std::uint32_t *a = nullptr, *b = nullptr;
    const real *wa = nullptr, *wb = nullptr, *restLength = nullptr, *alphaTilde = nullptr, *scale = nullptr;
    real* lambda = nullptr;
    bool pbd = false;
};

/// A SIMD kernel: rows [begin, end) of one level, end - begin a multiple of `width`.
struct DistanceLanes {
    int width = 0; ///< 0: not built for this processor family
    void (*project)(const DistanceRowView&, std::size_t begin, std::size_t end) = nullptr;
};
DistanceLanes sse2DistanceLanes();
DistanceLanes avx2DistanceLanes();

} // namespace jounce::detail
