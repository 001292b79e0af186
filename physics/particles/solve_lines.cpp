// SPDX-License-Identifier: MIT
// Lines of rigid distance constraints (distance_lines.hpp): found once per set of rigid
// rows, solved exactly every sweep.

#include "physics/particles/distance_lines.hpp"
#include "physics/particles/line_kernel.hpp"

#include "common/parallel.hpp"

#include <jounce/common/simd.hpp>
#include <jounce/particles/particles.hpp>

#include <algorithm>
#include <bit>
#include <cmath>

namespace jounce::detail {
namespace {

constexpr std::uint32_t none = ~std::uint32_t(0);

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

/// Each row's continuation at its end a (side 0) and its end b (side 1), or `none`.
std::vector<std::uint32_t> pairLinks(const std::vector<DistanceRow>& rows, const LinkGraph& g, std::size_t particles) {
    std::vector<std::uint32_t> next(2 * rows.size(), none);
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

} // namespace

void findDistanceLines(const std::vector<DistanceRow>& rigid, std::size_t particles, DistanceLines& lines) {
    lines = DistanceLines{};
    const LinkGraph graph(rigid, particles);
    const std::vector<std::uint32_t> next = pairLinks(rigid, graph, particles);

    // Walk each line from an end (a row with no continuation at one side), in row order.
    struct Found {
        std::vector<std::uint32_t> particles, rows;
    };
    std::vector<Found> found;
    std::vector<std::uint8_t> taken(rigid.size(), 0);
    std::vector<std::uint32_t> seen(particles, none);
    for (std::uint32_t r = 0; r < rigid.size(); ++r) {
        if (taken[r] || (next[2 * r] != none && next[2 * r + 1] != none)) continue;
        Found line;
        std::uint32_t row = r, from = next[2 * r] == none ? rigid[r].a : rigid[r].b;
        line.particles.push_back(from);
        bool distinct = true;
        while (row != none && !taken[row]) {
            taken[row] = 1;
            line.rows.push_back(row);
            const std::uint32_t to = rigid[row].a == from ? rigid[row].b : rigid[row].a;
            line.particles.push_back(to);
            const std::uint32_t after = next[2 * row + (rigid[row].a == to ? 0 : 1)];
            from = to;
            row = after;
        }
        for (const std::uint32_t i : line.particles) { // stamped with the walk's first row: one stamp a walk
            distinct &= seen[i] != r;
            seen[i] = r;
        }
        if (!distinct) {
            for (const std::uint32_t k : line.rows) taken[k] = 0; // back to the point sweep
            continue;
        }
        // Cut at pinned particles: a piece between two pins is a chain with fixed ends,
        // singular when straight (line_kernel.hpp), and stays with the point sweep,
        // whose moves are bounded by its errors; a piece with one pinned end or none is
        // a line. (A pin in the line decouples its two sides anyway.)
        const auto pinned = [&](std::size_t i) {
            const DistanceRow& row = rigid[line.rows[i < line.rows.size() ? i : i - 1]];
            return (row.a == line.particles[i] ? row.wa : row.wb) == 0;
        };
        for (std::size_t first = 0; first < line.rows.size();) {
            std::size_t last = first + 1; // the piece's rows [first, last), particles [first, last]
            while (last < line.rows.size() && !pinned(last)) ++last;
            if (last - first >= 2 && !(pinned(first) && pinned(last))) {
                Found piece;
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
    // (Rows of closed loops were never walked: every one continues at both ends.)

    // Colours: the lowest that none of the line's particles has yet; lines past the
    // last colour go back to the point sweep.
    constexpr std::uint32_t colours = 64;
    std::vector<std::uint64_t> used(particles, 0);
    std::vector<std::uint32_t> colour(found.size());
    for (std::size_t k = 0; k < found.size(); ++k) {
        std::uint64_t taken64 = 0;
        for (const std::uint32_t i : found[k].particles) taken64 |= used[i];
        colour[k] = static_cast<std::uint32_t>(std::countr_zero(~taken64));
        if (colour[k] >= colours) {
            for (const std::uint32_t row : found[k].rows) taken[row] = 0;
            continue;
        }
        for (const std::uint32_t i : found[k].particles) used[i] |= std::uint64_t{1} << colour[k];
    }
    // Bundles: each colour's lines by length (stable: found order among equals), up to
    // bundleWidth of one length side by side.
    constexpr std::uint32_t noSlot = ~std::uint32_t(0);
    std::uint32_t particleEntries = 0, linkEntries = 0;
    for (std::uint32_t c = 0; c < colours; ++c) {
        std::vector<std::uint32_t> of;
        for (std::uint32_t k = 0; k < found.size(); ++k)
            if (colour[k] == c) of.push_back(k);
        if (of.empty()) break; // colours are taken lowest first: none above an empty one
        std::stable_sort(of.begin(), of.end(), [&](std::uint32_t x, std::uint32_t y) { return found[x].rows.size() < found[y].rows.size(); });
        lines.colourStart.push_back(static_cast<std::uint32_t>(lines.links.size()));
        for (std::size_t i = 0; i < of.size();) {
            const auto n = static_cast<std::uint32_t>(found[of[i]].rows.size());
            std::uint32_t count = 1;
            while (count < bundleWidth && i + count < of.size() && found[of[i + count]].rows.size() == n) ++count;
            lines.links.push_back(n);
            lines.used.push_back(count);
            lines.particleBase.push_back(particleEntries);
            lines.linkBase.push_back(linkEntries);
            particleEntries += n + 1;
            linkEntries += n;
            lines.particle.resize(std::size_t{particleEntries} * bundleWidth);
            lines.w.resize(std::size_t{particleEntries} * bundleWidth);
            lines.slot.resize(std::size_t{linkEntries} * bundleWidth, noSlot);
            lines.restLength.resize(std::size_t{linkEntries} * bundleWidth);
            for (std::uint32_t l = 0; l < bundleWidth; ++l) {
                const Found& f = found[of[i + (l < count ? l : 0)]]; // past the last line: the first again
                const std::size_t pb = std::size_t{lines.particleBase.back()} * bundleWidth + l;
                const std::size_t lb = std::size_t{lines.linkBase.back()} * bundleWidth + l;
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
            i += count;
        }
    }
    lines.colourStart.push_back(static_cast<std::uint32_t>(lines.links.size()));
    if (lines.links.empty()) lines.colourStart.clear();
    for (std::uint32_t r = 0; r < rigid.size(); ++r)
        if (!taken[r]) lines.rest.push_back(rigid[r]);
    for (std::vector<real>* v : {&lines.lambda, &lines.nx, &lines.ny, &lines.nz, &lines.upper, &lines.rhs})
        v->assign(lines.slot.size(), 0);
    for (std::vector<real>* v : {&lines.px, &lines.py, &lines.pz}) v->assign(lines.particle.size(), 0);
}

void solveDistanceLines(std::vector<Vec3>& p, DistanceLines& lines, TaskSystem* tasks) {
    static_assert(sizeof(Vec3) == 3 * sizeof(real), "positions are packed x y z triples");
    if (lines.bundles() == 0) return;
    LineView view;
    view.p = reinterpret_cast<real*>(p.data());
    view.particle = lines.particle.data();
    view.w = lines.w.data();
    view.px = lines.px.data();
    view.py = lines.py.data();
    view.pz = lines.pz.data();
    view.restLength = lines.restLength.data();
    view.lambda = lines.lambda.data();
    view.nx = lines.nx.data();
    view.ny = lines.ny.data();
    view.nz = lines.nz.data();
    view.upper = lines.upper.data();
    view.rhs = lines.rhs.data();
    // The widest lanes the processor has (and limitSimd allows): every width gives the
    // same bits, lane for lane.
    const SimdLevel level = simdLevel();
    LineLanes wide = level == SimdLevel::Avx2 ? avx2LineLanes() : LineLanes{};
    if (wide.width == 0 && level >= SimdLevel::Sse2) wide = sse2LineLanes();
    if (wide.width == 0) wide = {1, &LineKernel<ScalarLanes<real>>::solve};
    for (std::size_t c = 0; c + 1 < lines.colourStart.size(); ++c) {
        const std::uint32_t first = lines.colourStart[c], last = lines.colourStart[c + 1];
        parallelShares(tasks, last - first, 2, [&](std::uint32_t begin, std::uint32_t end) {
            for (std::uint32_t k = first + begin; k < first + end; ++k)
                for (std::uint32_t lane = 0; lane < lines.used[k]; lane += static_cast<std::uint32_t>(wide.width))
                    wide.solve(view, lines.particleBase[k], lines.linkBase[k], lines.links[k], lane,
                               static_cast<int>(std::min<std::uint32_t>(static_cast<std::uint32_t>(wide.width), lines.used[k] - lane)));
        });
    }
}

void storeLineMultipliers(ParticleSystem& ps, const DistanceLines& lines) {
    for (std::size_t e = 0; e < lines.slot.size(); ++e)
        if (lines.slot[e] != ~std::uint32_t(0)) ps.distances.atSlot(lines.slot[e]).lambda = lines.lambda[e];
}

} // namespace jounce::detail
