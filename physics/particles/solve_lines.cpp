// SPDX-License-Identifier: MIT
// Lines of rigid distance constraints (distance_lines.hpp, found by find_lines.cpp):
// each solved exactly every rigid sweep, colour by colour, in SIMD lanes.

#include "physics/particles/distance_lines.hpp"
#include "physics/particles/line_kernel.hpp"

#include "common/parallel.hpp"

#include <jounce/common/simd.hpp>
#include <jounce/particles/particles.hpp>

#include <algorithm>

namespace jounce::detail {

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
        if (lines.slot[e] != noLineSlot) ps.distances.atSlot(lines.slot[e]).lambda = lines.lambda[e];
}

} // namespace jounce::detail
