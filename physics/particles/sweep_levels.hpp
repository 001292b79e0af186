// SPDX-License-Identifier: MIT
#pragma once
// A Gauss-Seidel sweep in colours. Each constraint (row) reads and moves its own
// particles. Rows that share no particle may be projected in any order, at once in SIMD
// lanes or on different threads, with the same result. So the rows are coloured, greedily
// in row order as Box2D v3 colours its constraint graph: each row takes the lowest colour
// that none of the rows before it sharing a particle has. A sweep then projects colour
// after colour, each colour's rows by their lowest particle (then in row order): rows
// near each other in the particle arrays come together, so a SIMD register's gathers
// and a worker's share of a colour touch few cache lines, and the same ones colour
// after colour (a cloth lists all its stretch links, then all its shear links). That
// sweep is Gauss-Seidel in the colour order rather than the row order: a different
// sweep, but a fixed one, the same bits for any SIMD width and any number of threads.
// (The names say levels: a colour is a level whose rows share no particle.)
//
// Why colours and not the row order's own levels (each row one level above the earlier
// rows it shares a particle with, which keeps the row order's sweep bit for bit): a
// 64 x 64 cloth's rows chain along its rows and columns, and the levels of that chain
// were 257 of about 126 rows each. A colour of a cloth holds thousands: enough for
// several threads between two waits, and fewer part-full SIMD registers.
//
// Colours are 64 bits of a mask per particle. Rows whose particles' masks together
// hold all 64 go after the colours, in levels of the row order's rule among themselves.

#include "common/parallel.hpp"
#include "common/staged_run.hpp"

#include <jounce/config.hpp>

#include <algorithm>
#include <bit>
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
    std::vector<std::uint32_t> order;      ///< row indices, colour by colour; within a colour by lowest particle, then row
    std::vector<std::uint32_t> levelStart; ///< colour (level) k: order[levelStart[k] .. levelStart[k + 1])
    std::vector<std::uint64_t> taken;      ///< scratch: per particle, the colours of its rows so far
    std::vector<std::uint32_t> lastLevel;  ///< scratch: per particle, one past the overflow level of its last row
    std::vector<std::uint32_t> rowLevel;   ///< scratch: per row
    std::vector<std::uint32_t> lowest;     ///< scratch: per row, its lowest particle
    std::vector<std::uint32_t> rowGroup;   ///< scratch: per row, its block (or the block count: a boundary row)
    std::vector<std::uint32_t> blockCut;   ///< scratch: block b holds the particles [blockCut[b], blockCut[b + 1])
    /// Block b's levels are [blockLevels[b], blockLevels[b + 1]) for b below the block
    /// count, then the boundary rows' levels up to blockLevels.back(), the level count.
    std::vector<std::uint32_t> blockLevels;
    std::uint32_t blockCount() const { return blockLevels.size() < 2 ? 0 : static_cast<std::uint32_t>(blockLevels.size() - 2); }
    /// rowsBelow[i]: how many rows have their lowest particle below particle i (i from 0
    /// to the particle count): where planLevel cuts the particles so that each worker
    /// gets as many rows in all.
    std::vector<std::uint32_t> rowsBelow;
    /// Scratch of a shared sweep: its shares (rows [begin, end), and which pass of the
    /// caller's), colour after colour, run in one StagedRun.
    struct Share {
        std::uint32_t begin = 0, end = 0, pass = 0;
    };
    mutable std::vector<Share> shares;
    mutable StagedRun staged;
};

/// How many blocks orderSweep cuts `rows` rows into: a fixed function of the rows, never
/// of the thread count, so the sweep (and its bits) is the same on any number of threads.
/// Each cut adds boundary rows (a cloth's links across it, a soft body's cells), swept
/// by one worker after the blocks: a small set only pays above a few thousand rows.
inline std::uint32_t sweepBlocks(std::size_t rows) { return rows >= 8192 ? 4 : rows >= 2048 ? 2 : 1; }

/// Orders rows 0 .. rows - 1; particlesOf(r) gives row r's particles (slots below
/// `particles`) as something iterable. With `blocks` > 1 the particles are cut into that
/// many ranges holding about as many rows each (by their lowest particle); a row whose
/// particles all lie in one range is that block's, any other a boundary row. The sweep
/// is then every block's rows (block after block, each coloured among its own), then the
/// boundary rows (coloured among themselves). Two blocks' rows share no particle, so
/// their blocks may be swept at once on different workers, each through all its colours
/// without waiting for the other (blockLevels): the same sweep, bit for bit, in any
/// interleaving. One block gives the plain colouring.
template <class ParticlesOf>
void orderSweep(std::size_t particles, std::size_t rows, const ParticlesOf& particlesOf, SweepLevels& out, std::uint32_t blocks = 1) {
    constexpr std::uint32_t colours = 64;
    blocks = std::max<std::uint32_t>(blocks, 1);
    out.rowLevel.resize(rows);
    out.lowest.resize(rows);
    out.rowGroup.assign(rows, 0);
    for (std::size_t r = 0; r < rows; ++r) {
        std::uint32_t lowest = ~std::uint32_t{0};
        for (const std::uint32_t i : particlesOf(r)) lowest = std::min(lowest, i);
        out.lowest[r] = lowest;
    }
    out.rowsBelow.assign(particles + 1, 0);
    for (std::size_t r = 0; r < rows; ++r) ++out.rowsBelow[out.lowest[r] + 1];
    for (std::size_t i = 0; i < particles; ++i) out.rowsBelow[i + 1] += out.rowsBelow[i];
    // Block b: the particles from the first with rows * b / blocks rows below it.
    out.blockCut.assign(blocks + 1, static_cast<std::uint32_t>(particles));
    out.blockCut[0] = 0;
    for (std::uint32_t b = 1; b < blocks; ++b) {
        const std::uint64_t wanted = std::uint64_t{rows} * b / blocks;
        out.blockCut[b] = static_cast<std::uint32_t>(
            std::lower_bound(out.rowsBelow.begin(), out.rowsBelow.end(), wanted, [](std::uint32_t a, std::uint64_t w) { return a < w; }) -
            out.rowsBelow.begin());
        out.blockCut[b] = std::min(out.blockCut[b], static_cast<std::uint32_t>(particles));
    }
    if (blocks > 1)
        for (std::size_t r = 0; r < rows; ++r) {
            const auto b = static_cast<std::uint32_t>(
                std::upper_bound(out.blockCut.begin(), out.blockCut.end() - 1, out.lowest[r]) - out.blockCut.begin() - 1);
            std::uint32_t highest = 0;
            for (const std::uint32_t i : particlesOf(r)) highest = std::max(highest, i);
            out.rowGroup[r] = highest < out.blockCut[b + 1] ? b : blocks;
        }
    // Colours, greedily in row order: a block's rows touch no other block's particles, so
    // one mask per particle serves them all; the boundary rows' colours are their own
    // (the masks cleared between the two passes).
    std::uint32_t levels = 0;
    const auto colourRows = [&](bool boundary) {
        out.taken.assign(particles, 0);
        out.lastLevel.assign(particles, 0);
        for (std::size_t r = 0; r < rows; ++r) {
            if ((out.rowGroup[r] == blocks) != boundary) continue;
            std::uint64_t taken = 0;
            for (const std::uint32_t i : particlesOf(r)) taken |= out.taken[i];
            std::uint32_t level = 0;
            if (~taken != 0) {
                level = static_cast<std::uint32_t>(std::countr_one(taken));
                for (const std::uint32_t i : particlesOf(r)) out.taken[i] |= std::uint64_t{1} << level;
            } else { // overflow: after every colour, one level above its earlier overflow rows
                for (const std::uint32_t i : particlesOf(r)) level = std::max(level, out.lastLevel[i]);
                for (const std::uint32_t i : particlesOf(r)) out.lastLevel[i] = level + 1;
                level += colours;
            }
            out.rowLevel[r] = level;
            levels = std::max(levels, level + 1);
        }
    };
    colourRows(false);
    if (blocks > 1) colourRows(true);
    // Counting sort by (group, level), stable; empty levels dropped.
    std::vector<std::uint32_t>& count = out.lastLevel; // free again
    const std::size_t keys = std::size_t{blocks + 1} * levels;
    count.assign(keys, 0);
    const auto keyOf = [&](std::size_t r) { return std::size_t{out.rowGroup[r]} * levels + out.rowLevel[r]; };
    for (std::size_t r = 0; r < rows; ++r) ++count[keyOf(r)];
    out.levelStart.assign(1, 0);
    out.blockLevels.assign(1, 0);
    for (std::size_t k = 0; k < keys; ++k) {
        if (k > 0 && k % levels == 0) out.blockLevels.push_back(static_cast<std::uint32_t>(out.levelStart.size() - 1));
        const std::uint32_t first = out.levelStart.back();
        if (count[k] > 0) out.levelStart.push_back(first + count[k]);
        count[k] = first; // now the level's next free place
    }
    while (out.blockLevels.size() < std::size_t{blocks} + 2)
        out.blockLevels.push_back(static_cast<std::uint32_t>(out.levelStart.size() - 1));
    out.order.resize(rows);
    for (std::size_t r = 0; r < rows; ++r) out.order[count[keyOf(r)]++] = static_cast<std::uint32_t>(r);
    // Each level by lowest particle, then row (rows that come sorted, as pair contacts
    // by their first particle, are left as they are; std::sort needs no buffer).
    const auto byLowest = [&](std::uint32_t a, std::uint32_t b) {
        return out.lowest[a] != out.lowest[b] ? out.lowest[a] < out.lowest[b] : a < b;
    };
    for (std::size_t l = 0; l + 1 < out.levelStart.size(); ++l) {
        const auto first = out.order.begin() + out.levelStart[l], last = out.order.begin() + out.levelStart[l + 1];
        if (!std::is_sorted(first, last, byLowest)) std::sort(first, last, byLowest);
    }
}

/// Rows [begin, end) of one level cut into shares for the workers (its rows share no
/// particle, so its shares may run at once), each of about `minRows` or more, cut only
/// at multiples of `registerRows` rows from `begin` (8: a multiple of every SIMD width),
/// so only a level's last share ends in a part-full register, which costs a copy of its
/// rows (small_kernel.hpp) or a row at a time (distance_kernel.hpp). A level of fewer
/// than about 2 minRows is one share. The shares are appended
/// to levels.shares with `pass`, and make one stage of levels.staged; the count is
/// returned.
///
/// Share k takes the rows whose lowest particle lies in the k-th part of the particles,
/// the parts cut so that each holds as many of all the levels' rows (`levels.rowsBelow`;
/// a level's rows come by lowest particle, lowestOf(row) gives it): each worker then
/// moves mostly the same particles level after level, and their cache lines stay in its
/// core. (Cut by each level's row count, the shares of successive levels fell on
/// different particles: softcube's tetrahedra took 1.7 times as long in all on two
/// workers as on one. Cut at the middle particle, a pile's pairs, counted at their lower
/// particle, gave the first worker three quarters of them.)
template <class LowestOf>
std::uint32_t planLevel(std::uint32_t workers, std::size_t begin, std::size_t end, std::uint32_t minRows, std::uint32_t pass,
                        const SweepLevels& levels, const LowestOf& lowestOf) {
    if (end <= begin) return 0;
    constexpr std::size_t registerRows = 8;
    const auto shares = static_cast<std::uint32_t>(
        std::max<std::size_t>(1, std::min<std::size_t>(workers, (end - begin) / std::max<std::uint32_t>(minRows, 1))));
    // Share k: rows [cut(k), cut(k + 1)), cut(k) the first row whose lowest particle is
    // in part k, rounded up to whole registers from `begin`.
    const auto cut = [&](std::uint32_t k) {
        if (k == 0) return begin;
        if (k == shares) return end;
        const std::vector<std::uint32_t>& below = levels.rowsBelow;
        const std::uint64_t wanted = std::uint64_t{below.back()} * k / shares;
        const std::size_t target = static_cast<std::size_t>( // first particle with that many rows below it
            std::lower_bound(below.begin(), below.end(), wanted, [](std::uint32_t a, std::uint64_t b) { return a < b; }) - below.begin());
        std::size_t low = begin, high = end; // first row with lowestOf >= target
        while (low < high) {
            const std::size_t mid = low + (high - low) / 2;
            if (lowestOf(mid) < target) low = mid + 1;
            else high = mid;
        }
        return std::min(end, begin + (low - begin + registerRows - 1) / registerRows * registerRows);
    };
    std::uint32_t made = 0;
    for (std::uint32_t k = 0; k < shares; ++k) {
        const std::size_t from = cut(k), to = std::max(from, cut(k + 1));
        if (to == from) continue;
        levels.shares.push_back({static_cast<std::uint32_t>(from), static_cast<std::uint32_t>(to), pass});
        ++made;
    }
    levels.staged.addStage(made);
    return made;
}

/// Plans a sweep cut into blocks (orderSweep): one stage of a share per block (its levels
/// [begin, end), in order, with `pass`), then one share for all the boundary rows' levels.
/// A worker sweeps a block through all its colours without waiting for another, and the
/// boundary rows go on one worker after every block: two hand-overs a sweep, where colour
/// by colour took one per colour and the blocks' shared particles moved between the
/// cores' caches at each (softcube on two threads: a quarter of its tetrahedra's time
/// stalled on the stores to them). If the boundary rows are more than a quarter of the
/// sweep (particle slots that do not follow space: a hub particle, slots reused out of
/// order), planColour(level) plans each boundary colour shared among the workers instead
/// (planLevel): the same rows in the same order, so the same bits.
template <class PlanColour> void planBlocks(const SweepLevels& levels, std::uint32_t pass, const PlanColour& planColour) {
    const std::uint32_t blocks = levels.blockCount();
    const std::vector<std::uint32_t>& at = levels.blockLevels;
    std::uint32_t made = 0;
    for (std::uint32_t b = 0; b < blocks; ++b)
        if (at[b] < at[b + 1]) {
            levels.shares.push_back({at[b], at[b + 1], pass});
            ++made;
        }
    levels.staged.addStage(made);
    const std::uint32_t first = levels.levelStart[at[blocks]], total = levels.levelStart.back();
    if (first == total) return;
    if (std::uint64_t{4} * (total - first) <= total) {
        levels.shares.push_back({at[blocks], at[blocks + 1], pass});
        levels.staged.addStage(1);
        return;
    }
    for (std::uint32_t l = at[blocks]; l < at[blocks + 1]; ++l) planColour(l);
}

/// Starts a plan of shares (planLevel) for this sweep.
inline void startPlan(const SweepLevels& levels) {
    levels.shares.clear();
    levels.staged.clear();
}

/// Runs the planned shares stage after stage on the workers, project(share) for each;
/// on the calling thread, in order, when no stage has two shares (nothing to share).
/// (A share that throws stops the calling thread's loop but not the workers' stages,
/// which run to the end: the projections throw nothing, and a step that fails is
/// undone whole.)
template <class Project> void runPlan(TaskSystem* tasks, const SweepLevels& levels, const Project& project) {
    if (tasks == nullptr || tasks->workerCount() < 2 || levels.shares.size() <= levels.staged.stageCount()) {
        for (const SweepLevels::Share& share : levels.shares) project(share);
        return;
    }
    levels.staged.execute(*tasks, [&](std::uint32_t stage, std::uint32_t item) {
        project(levels.shares[levels.staged.firstItem(stage) + item]);
    });
}

/// A sweep: each level in turn, shared among the workers in one run: block by block
/// (planBlocks) when orderSweep cut it into blocks, else colour by colour (planLevel).
template <class LowestOf, class Project>
void sweepLevels(TaskSystem* tasks, const SweepLevels& levels, std::uint32_t minRows, const LowestOf& lowestOf, const Project& project) {
    const std::uint32_t workers = tasks == nullptr ? 1 : tasks->workerCount();
    if (workers < 2) {
        for (std::size_t l = 0; l + 1 < levels.levelStart.size(); ++l) project(levels.levelStart[l], levels.levelStart[l + 1]);
        return;
    }
    // A share is rows [begin, end) of one colour, or (blocks) the levels [begin, end).
    enum Pass : std::uint32_t { Rows, Levels };
    const auto planColour = [&](std::size_t l) {
        planLevel(workers, levels.levelStart[l], levels.levelStart[l + 1], minRows, Rows, levels, lowestOf);
    };
    startPlan(levels);
    if (levels.blockCount() > 1) planBlocks(levels, Levels, planColour);
    else
        for (std::size_t l = 0; l + 1 < levels.levelStart.size(); ++l) planColour(l);
    runPlan(tasks, levels, [&](const SweepLevels::Share& share) {
        if (share.pass == Rows) project(share.begin, share.end);
        else
            for (std::uint32_t l = share.begin; l < share.end; ++l) project(levels.levelStart[l], levels.levelStart[l + 1]);
    });
}

} // namespace jounce::detail
