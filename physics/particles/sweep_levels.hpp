// SPDX-License-Identifier: MIT
#pragma once
// A Gauss-Seidel sweep in levels. Each constraint (row) reads and moves its own
// particles; in a sweep it must see what the earlier rows sharing a particle did, and
// nothing else. So give each row the level one above the highest level of the earlier
// rows it shares a particle with: rows of one level then share no particle, and a sweep
// level by level visits every row after all the earlier rows it depends on. That is the
// same sweep, bit for bit, as the one in the rows' own order, but the rows of a level are
// independent: the processor overlaps their square roots and divisions instead of
// waiting on a chain of them (a cloth's stretch links along a row share a particle with
// the next), and SIMD lanes could take several at once.

#include <jounce/config.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

namespace jounce::detail {

/// Whether two reals have the same bits (+0 and -0 differ): the packs compare a fresh
/// listing of their rows with the last one this way, and keep the last order and arrays
/// only for exactly the same numbers.
inline bool sameReal(real a, real b) { return std::memcmp(&a, &b, sizeof(real)) == 0; }

struct SweepLevels {
    std::vector<std::uint32_t> order;      ///< row indices, level by level; within a level in row order
    std::vector<std::uint32_t> levelStart; ///< level k: order[levelStart[k] .. levelStart[k + 1])
    std::vector<std::uint32_t> lastLevel;  ///< scratch: per particle, one past the level of its last row
    std::vector<std::uint32_t> rowLevel;   ///< scratch: per row
};

/// Orders rows 0 .. rows - 1; particlesOf(r) gives row r's particles (slots below
/// `particles`) as something iterable.
template <class ParticlesOf>
void orderSweep(std::size_t particles, std::size_t rows, const ParticlesOf& particlesOf, SweepLevels& out) {
    out.lastLevel.assign(particles, 0);
    out.rowLevel.resize(rows);
    std::uint32_t levels = 0;
    for (std::size_t r = 0; r < rows; ++r) {
        std::uint32_t level = 0;
        for (const std::uint32_t i : particlesOf(r)) level = std::max(level, out.lastLevel[i]);
        for (const std::uint32_t i : particlesOf(r)) out.lastLevel[i] = level + 1;
        out.rowLevel[r] = level;
        levels = std::max(levels, level + 1);
    }
    // Counting sort by level, stable.
    out.levelStart.assign(levels + 1, 0);
    for (std::size_t r = 0; r < rows; ++r) ++out.levelStart[out.rowLevel[r] + 1];
    for (std::uint32_t l = 0; l < levels; ++l) out.levelStart[l + 1] += out.levelStart[l];
    out.order.resize(rows);
    // lastLevel is free again: reuse it as each level's next free place.
    out.lastLevel.assign(out.levelStart.begin(), out.levelStart.end() - 1);
    for (std::size_t r = 0; r < rows; ++r) out.order[out.lastLevel[out.rowLevel[r]]++] = static_cast<std::uint32_t>(r);
}

} // namespace jounce::detail
