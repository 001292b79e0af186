// SPDX-License-Identifier: MIT
#pragma once
// Lines of rigid distance constraints, each solved exactly in one go (found by
// find_lines.cpp, solved by solve_lines.cpp and line_kernel.hpp).
//
// Gauss-Seidel carries a correction one link per visit: the weight of a cloth hanging
// over a sphere's shoulder reaches the links at the top only after as many sweeps as
// there are links below, and what it leaves undone stays as stretch (cloth64's stretch
// links: 8 % at 10 small steps of 2 sweeps). A straight run of links, a cloth's row or
// column, a rope, is a chain: its linearised system (J W J^T) dlambda = -C is
// tridiagonal and solved exactly in O(n) (the Thomas algorithm), so one visit carries a
// correction the whole length of the line. Sweeping the rows, then the columns, is
// line Gauss-Seidel (block Gauss-Seidel with a line per block), the classic remedy for
// point relaxation's slow carry on grids; for one chain it is the direct solve of Deul
// et al. 2018 (direct_solve.hpp), without a sparse factorisation.
//
// The lines are found in the graph of the rigid rows (compliance 0, XPBD), from its
// topology alone: at a particle b, two of its links (a, b) and (b, c) continue each
// other when a and c have b as their only common neighbour and neither has another
// link at b that would do as well. On a quad grid that pairs left with right and up
// with down; a triangle fan pairs nothing. Lines are cut at pinned particles, and a run
// between two pins stays with the point sweep (line_kernel.hpp: singular when straight). The lines are coloured so that those of one
// colour share no particle (a cloth's rows take one colour, its columns the next) and
// may be solved on several workers with the same bits.

#include "physics/particles/distance_rows.hpp"

#include <jounce/common/math.hpp>
#include <jounce/config.hpp>

#include <cstdint>
#include <vector>

namespace jounce {
struct ParticleSystem;
class TaskSystem;
} // namespace jounce

namespace jounce::detail {

/// The lines in bundles of up to `bundleWidth` lines of one colour and one length,
/// side by side: entry (j, l) of a bundle's arrays, for its link or particle j and its
/// line l, is at its base + j * bundleWidth + l, so a SIMD register of 2, 4 or 8 lanes
/// loads lines l .. l + width - 1 of step j in one go (line_kernel.hpp). Lanes past a
/// bundle's last line repeat its first line's indices and numbers and are never
/// written back.
constexpr std::uint32_t bundleWidth = 8;
/// The slot of a link entry past a bundle's last line.
constexpr std::uint32_t noLineSlot = ~std::uint32_t(0);

struct DistanceLines {
    /// The rigid rows the lines were found among (packDistances compares: the same rows,
    /// bit for bit, keep their lines), and those of them in no line, which the point
    /// sweep keeps.
    std::vector<DistanceRow> foundAmong, rest;
    /// Per bundle: its links per line, how many lines it holds, and where its particle
    /// and link entries start (in units of bundleWidth entries).
    std::vector<std::uint32_t> links, used, particleBase, linkBase;
    /// Bundles [colourStart[c], colourStart[c + 1]) share no particle.
    std::vector<std::uint32_t> colourStart;
    /// Per particle entry: the particle's slot and inverse mass (as the rows gave it:
    /// rows whose masses changed find their lines again), and its position as the solve
    /// gathered it (read back when the particle moves: one gather a particle).
    std::vector<std::uint32_t> particle;
    std::vector<real> w, px, py, pz;
    /// Per link entry: its distance slot (noLineSlot past a bundle's last line), rest length
    /// and this small step's multiplier (stored back in the constraint at the end, as
    /// the point rows do), and the solve's scratch: direction, the elimination's upper
    /// diagonal and right-hand side.
    std::vector<std::uint32_t> slot;
    std::vector<real> restLength, lambda, nx, ny, nz, upper, rhs;

    std::size_t bundles() const { return links.size(); }
};

/// Finds the lines among `rigid` (rows between `particles` particle slots) and the rows
/// left out of them. Lines need two links or more and distinct particles; a closed loop
/// stays with the point sweep.
void findDistanceLines(const std::vector<DistanceRow>& rigid, std::size_t particles, DistanceLines& lines);

/// One exact solve of every line, colour after colour: for each line,
///   (J W J^T) dlambda = -C,  p += W J^T dlambda,
/// J its links' gradients (n_j at particle j, -n_j at particle j + 1), W the inverse
/// masses; rigid links, so no compliance term.
void solveDistanceLines(std::vector<Vec3>& p, DistanceLines& lines, TaskSystem* tasks);

/// The lines' multipliers back into their constraints (World::distanceTension).
void storeLineMultipliers(ParticleSystem& ps, const DistanceLines& lines);

} // namespace jounce::detail
