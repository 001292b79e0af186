// SPDX-License-Identifier: MIT
// Lines of rigid distance constraints (distance_lines.hpp), found once per set of rigid
// rows: the links paired into straight runs, walked end to end, cut at pinned
// particles, coloured, and bundled side by side for the solve (solve_lines.cpp).

#include "physics/particles/distance_lines.hpp"

#include <algorithm>
#include <bit>
#include <cstddef>

namespace jounce::detail {
namespace {

constexpr std::uint32_t noRow = ~std::uint32_t(0); ///< no continuation

/// The rigid rows as a graph: each particle's links (neighbour, row), by neighbour.
struct LinkGraph {
    std::vector<std::uint32_t> first;                            ///< per particle, into `links`; one more at the end
    std::vector<std::pair<std::uint32_t, std::uint32_t>> links; ///< (neighbour, row)

    LinkGraph(const std::vector<DistanceRow>& rows, std::size_t particles) : first(particles + 1, 0), links(2 * rows.size()) {
        for (const DistanceRow& r : rows) {
            ++first[r.a + 1];
            ++first[r.b + 1];
        }
        for (std::size_t i = 0; i < particles; ++i) first[i + 1] += first[i];
        std::vector<std::uint32_t> next(first.begin(), first.end() - 1);
        for (std::size_t k = 0; k < rows.size(); ++k) {
            const auto row = static_cast<std::uint32_t>(k);
            links[next[rows[k].a]++] = {rows[k].b, row};
            links[next[rows[k].b]++] = {rows[k].a, row};
        }
        for (std::size_t i = 0; i < particles; ++i) std::sort(links.begin() + first[i], links.begin() + first[i + 1]);
    }
    std::uint32_t degree(std::uint32_t i) const { return first[i + 1] - first[i]; }

    /// Whether a and c have b as their only common neighbour, and are not linked.
    bool straightThrough(std::uint32_t a, std::uint32_t b, std::uint32_t c) const {
        std::uint32_t i = first[a], j = first[c];
        int common = 0;
        while (i < first[a + 1] && j < first[c + 1]) {
            const std::uint32_t x = links[i].first, y = links[j].first;
            if (x == c || y == a) return false; // a triangle, not a line
            if (x < y) ++i;
            else if (y < x) ++j;
            else {
                if (x != b || ++common > 1) return false;
                ++i;
                ++j;
            }
        }
        for (; i < first[a + 1]; ++i) if (links[i].first == c) return false;
        for (; j < first[c + 1]; ++j) if (links[j].first == a) return false;
        return common == 1;
    }
};

/// Each row's continuation at its end a (side 0) and its end b (side 1), or `noRow`.
std::vector<std::uint32_t> pairLinks(const std::vector<DistanceRow>& rows, const LinkGraph& g, std::size_t particles) {
    std::vector<std::uint32_t> next(2 * rows.size(), noRow);
    const auto side = [&](std::uint32_t row, std::uint32_t at) { return rows[row].a == at ? 0u : 1u; };
    constexpr std::uint32_t maxDegree = 8; // a grid's particle has 4; busier ones pair nothing
    for (std::uint32_t b = 0; b < particles; ++b) {
        const std::uint32_t d = g.degree(b);
        if (d < 2 || d > maxDegree) continue;
        const auto* link = g.links.data() + g.first[b];
        bool repeated = false; // two rows between the same two particles: leave them be
        for (std::uint32_t i = 1; i < d; ++i) repeated |= link[i].first == link[i - 1].first;
        if (repeated) continue;
        std::uint32_t partner[maxDegree] = {}, partners[maxDegree] = {};
        for (std::uint32_t i = 0; i < d; ++i)
            for (std::uint32_t j = i + 1; j < d; ++j)
                if (g.straightThrough(link[i].first, b, link[j].first)) {
                    partner[i] = j;
                    partner[j] = i;
                    ++partners[i];
                    ++partners[j];
                }
        for (std::uint32_t i = 0; i < d; ++i) {
            if (partners[i] != 1 || partners[partner[i]] != 1) continue; // ambiguous: no line through b here
            const std::uint32_t row = link[i].second;
            next[2 * row + side(row, b)] = link[partner[i]].second;
        }
    }
    return next;
}

/// A line as walked: its particles in order, and the rows between them.
struct WalkedLine {
    std::vector<std::uint32_t> particles, rows;
};

/// Appends the pieces of `line` between its pinned particles that are lines to `found`:
/// a piece between two pins is a chain with fixed ends, singular when straight
/// (line_kernel.hpp), and stays with the point sweep, whose moves are bounded by its
/// errors; a piece with one pinned end or noRow is a line. (A pin in a line decouples its
/// two sides anyway.) The rows of the rest go back to the point sweep (`taken` cleared).
void cutAtPins(const std::vector<DistanceRow>& rigid, const WalkedLine& line, std::vector<std::uint8_t>& taken, std::vector<WalkedLine>& found) {
    const auto pinned = [&](std::size_t i) {
        const DistanceRow& row = rigid[line.rows[i < line.rows.size() ? i : i - 1]];
        return (row.a == line.particles[i] ? row.wa : row.wb) == 0;
    };
    for (std::size_t first = 0; first < line.rows.size();) {
        std::size_t last = first + 1; // the piece's rows [first, last), particles [first, last]
        while (last < line.rows.size() && !pinned(last)) ++last;
        if (last - first >= 2 && !(pinned(first) && pinned(last))) {
            WalkedLine piece;
            piece.particles.assign(line.particles.begin() + static_cast<std::ptrdiff_t>(first),
                                   line.particles.begin() + static_cast<std::ptrdiff_t>(last + 1));
            piece.rows.assign(line.rows.begin() + static_cast<std::ptrdiff_t>(first), line.rows.begin() + static_cast<std::ptrdiff_t>(last));
            found.push_back(std::move(piece));
        } else {
            for (std::size_t k = first; k < last; ++k) taken[line.rows[k]] = 0;
        }
        first = last;
    }
}

/// Walks each line from an end (a row with no continuation at one side), in row order,
/// marking its rows `taken`. Rows of closed loops are never walked: every one continues
/// at both ends. A walk that meets a particle twice goes back to the point sweep.
std::vector<WalkedLine> walkLines(const std::vector<DistanceRow>& rigid, const std::vector<std::uint32_t>& next, std::size_t particles,
                             std::vector<std::uint8_t>& taken) {
    std::vector<WalkedLine> found;
    std::vector<std::uint32_t> seen(particles, noRow);
    for (std::uint32_t r = 0; r < rigid.size(); ++r) {
        if (taken[r] || (next[2 * r] != noRow && next[2 * r + 1] != noRow)) continue;
        WalkedLine line;
        std::uint32_t row = r, from = next[2 * r] == noRow ? rigid[r].a : rigid[r].b;
        line.particles.push_back(from);
        while (row != noRow && !taken[row]) {
            taken[row] = 1;
            line.rows.push_back(row);
            const std::uint32_t to = rigid[row].a == from ? rigid[row].b : rigid[row].a;
            line.particles.push_back(to);
            const std::uint32_t after = next[2 * row + (rigid[row].a == to ? 0 : 1)];
            from = to;
            row = after;
        }
        bool distinct = true;
        for (const std::uint32_t i : line.particles) { // stamped with the walk's first row: one stamp a walk
            distinct &= seen[i] != r;
            seen[i] = r;
        }
        if (distinct) {
            cutAtPins(rigid, line, taken, found);
        } else {
            for (const std::uint32_t k : line.rows) taken[k] = 0;
        }
    }
    return found;
}

constexpr std::uint32_t lineColours = 64;

/// Each line's colour: the lowest that noRow of its particles has yet. A line past the
/// last colour gets `lineColours` and goes back to the point sweep.
std::vector<std::uint32_t> colourLines(const std::vector<WalkedLine>& found, std::size_t particles, std::vector<std::uint8_t>& taken) {
    std::vector<std::uint64_t> used(particles, 0);
    std::vector<std::uint32_t> colour(found.size());
    for (std::size_t k = 0; k < found.size(); ++k) {
        std::uint64_t mask = 0;
        for (const std::uint32_t i : found[k].particles) mask |= used[i];
        colour[k] = static_cast<std::uint32_t>(std::countr_zero(~mask));
        if (colour[k] >= lineColours) {
            for (const std::uint32_t row : found[k].rows) taken[row] = 0;
            continue;
        }
        for (const std::uint32_t i : found[k].particles) used[i] |= std::uint64_t{1} << colour[k];
    }
    return colour;
}

/// Lines `of` (count of them, all of n links) as the next bundle, side by side.
void addBundle(const std::vector<DistanceRow>& rigid, const std::vector<WalkedLine>& found, const std::uint32_t* of, std::uint32_t count,
               std::uint32_t n, DistanceLines& lines) {
    const std::uint32_t particleBase = lines.particleBase.empty() ? 0 : lines.particleBase.back() + lines.links.back() + 1;
    const std::uint32_t linkBase = lines.linkBase.empty() ? 0 : lines.linkBase.back() + lines.links.back();
    lines.links.push_back(n);
    lines.used.push_back(count);
    lines.particleBase.push_back(particleBase);
    lines.linkBase.push_back(linkBase);
    lines.particle.resize(std::size_t{particleBase + n + 1} * bundleWidth);
    lines.w.resize(std::size_t{particleBase + n + 1} * bundleWidth);
    lines.slot.resize(std::size_t{linkBase + n} * bundleWidth, noLineSlot);
    lines.restLength.resize(std::size_t{linkBase + n} * bundleWidth);
    for (std::uint32_t l = 0; l < bundleWidth; ++l) {
        const WalkedLine& f = found[of[l < count ? l : 0]]; // past the last line: the first again
        const std::size_t pb = std::size_t{particleBase} * bundleWidth + l;
        const std::size_t lb = std::size_t{linkBase} * bundleWidth + l;
        for (std::uint32_t j = 0; j <= n; ++j) {
            const DistanceRow& row = rigid[f.rows[j < n ? j : n - 1]];
            lines.particle[pb + j * bundleWidth] = f.particles[j];
            lines.w[pb + j * bundleWidth] = row.a == f.particles[j] ? row.wa : row.wb;
        }
        for (std::uint32_t j = 0; j < n; ++j) {
            if (l < count) lines.slot[lb + j * bundleWidth] = rigid[f.rows[j]].slot;
            lines.restLength[lb + j * bundleWidth] = rigid[f.rows[j]].restLength;
        }
    }
}

/// Bundles: each colour's lines by length (stable: found order among equals), up to
/// bundleWidth of one length side by side.
void bundleLines(const std::vector<DistanceRow>& rigid, const std::vector<WalkedLine>& found, const std::vector<std::uint32_t>& colour,
                 DistanceLines& lines) {
    for (std::uint32_t c = 0; c < lineColours; ++c) {
        std::vector<std::uint32_t> of;
        for (std::uint32_t k = 0; k < found.size(); ++k)
            if (colour[k] == c) of.push_back(k);
        if (of.empty()) break; // lineColours are taken lowest first: noRow above an empty one
        std::stable_sort(of.begin(), of.end(), [&](std::uint32_t x, std::uint32_t y) { return found[x].rows.size() < found[y].rows.size(); });
        lines.colourStart.push_back(static_cast<std::uint32_t>(lines.links.size()));
        for (std::size_t i = 0; i < of.size();) {
            const auto n = static_cast<std::uint32_t>(found[of[i]].rows.size());
            std::uint32_t count = 1;
            while (count < bundleWidth && i + count < of.size() && found[of[i + count]].rows.size() == n) ++count;
            addBundle(rigid, found, of.data() + i, count, n, lines);
            i += count;
        }
    }
    if (!lines.links.empty()) lines.colourStart.push_back(static_cast<std::uint32_t>(lines.links.size()));
}

} // namespace

void findDistanceLines(const std::vector<DistanceRow>& rigid, std::size_t particles, DistanceLines& lines) {
    lines = DistanceLines{};
    const LinkGraph graph(rigid, particles);
    const std::vector<std::uint32_t> next = pairLinks(rigid, graph, particles);
    std::vector<std::uint8_t> taken(rigid.size(), 0);
    const std::vector<WalkedLine> found = walkLines(rigid, next, particles, taken);
    bundleLines(rigid, found, colourLines(found, particles, taken), lines);
    for (std::uint32_t r = 0; r < rigid.size(); ++r)
        if (!taken[r]) lines.rest.push_back(rigid[r]);
    for (std::vector<real>* v : {&lines.lambda, &lines.nx, &lines.ny, &lines.nz, &lines.upper, &lines.rhs})
        v->assign(lines.slot.size(), 0);
    for (std::vector<real>* v : {&lines.px, &lines.py, &lines.pz}) v->assign(lines.particle.size(), 0);
}

} // namespace jounce::detail
