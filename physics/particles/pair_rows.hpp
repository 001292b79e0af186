// SPDX-License-Identifier: MIT
#pragma once
// Particle-particle contacts as rows for the SIMD kernel (pair_kernel.hpp): what its
// passes (projection, pre-stabilisation, bounce) read besides the particles, in one
// array per quantity, packed once per world substep in the contacts' colour order
// (orderPairContacts).

#include <jounce/config.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace jounce::detail {

struct PairRows {
    std::vector<std::uint32_t> a, b;                    ///< particle slots
    std::vector<real> staticFriction, kineticFriction;
    std::vector<real> nx, ny, nz;                       ///< the contact's normal at the world substep's start
    std::vector<real> restitution, normalVelocity;     ///< for the bounce (PairContact's)
    std::size_t size() const { return a.size(); }
};

/// What the kernel reads and writes: the rows, and the particles' positions p, start
/// positions x (written by the pre-stabilisation only), inverse masses w and radii.
struct PairRowView {
    real *p = nullptr, *x = nullptr;
    const real *w = nullptr, *radius = nullptr;
    const std::uint32_t *a = nullptr, *b = nullptr;
    const real *staticFriction = nullptr, *kineticFriction = nullptr, *nx = nullptr, *ny = nullptr, *nz = nullptr;
    // The bounce's: velocities (written), the history flags it clears, its rows' columns.
    real* v = nullptr;
    std::uint8_t* hasHistory = nullptr;
    const real *restitution = nullptr, *normalVelocity = nullptr;
    real restitutionThreshold = 0;
};

/// One of the kernel's passes over rows [begin, end) of one colour.
using PairPass = void (*)(const PairRowView&, std::size_t begin, std::size_t end);

/// A SIMD kernel's passes, each over a multiple of `width` rows.
struct PairLanes {
    int width = 0; ///< 0: not built for this processor family
    PairPass project = nullptr, preStabilize = nullptr, bounce = nullptr;
};
PairLanes sse2PairLanes();
PairLanes avx2PairLanes();

} // namespace jounce::detail
