// SPDX-License-Identifier: MIT
// Heightfield terrain against the same triangles as a free mesh (an R-tree): the cost
// of building each, the heap each takes (glibc's mallinfo2), a vertical ray, a long
// slanting ray, and a box resting on it. A 512 x 512 cell grid (524 288 triangles).

#include <jounce/collision/heightfield.hpp>
#include <jounce/collision/narrow_phase.hpp>
#include <jounce/collision/ray_cast.hpp>
#include <jounce/collision/triangle_mesh.hpp>

#include <benchmark/benchmark.h>

#include <cmath>
#include <malloc.h>

using namespace jounce;

namespace {

constexpr std::uint32_t samples = 513;

const std::vector<real>& heights() {
    static const std::vector<real> h = [] {
        std::vector<real> out;
        for (std::uint32_t z = 0; z < samples; ++z)
            for (std::uint32_t x = 0; x < samples; ++x)
                out.push_back(real(3) * std::sin(real(x) / 23) * std::cos(real(z) / 31) + real(0.5) * std::sin(real(x + 2 * z) / 5));
        return out;
    }();
    return h;
}

HeightfieldDesc desc() { return {samples, samples, 1, 1, Vec3(-256, 0, -256), heights(), {}}; }

const TriangleMesh& grid() {
    static const TriangleMesh m = makeHeightfield(desc());
    return m;
}
const TriangleMesh& tree() {
    static const TriangleMesh m = makeTriangleMesh(grid().mesh->vertices(), grid().mesh->triangles());
    return m;
}

std::size_t heapInUse() { return mallinfo2().uordblks; }

template <typename Make> void build(benchmark::State& state, Make make) {
    (void)heights();
    std::size_t bytes = 0;
    for (auto _ : state) {
        const std::size_t before = heapInUse();
        TriangleMesh m = make();
        bytes = heapInUse() - before;
        benchmark::DoNotOptimize(m);
    }
    state.counters["bytes_per_cell"] = static_cast<double>(bytes) / ((samples - 1) * (samples - 1));
}
void TerrainBuildGrid(benchmark::State& s) { build(s, [] { return makeHeightfield(desc()); }); }
void TerrainBuildTree(benchmark::State& s) {
    build(s, [] { return makeTriangleMesh(grid().mesh->vertices(), grid().mesh->triangles()); });
}

template <typename Ray> void rays(benchmark::State& state, const TriangleMesh& mesh, Ray ray) {
    std::uint32_t k = 0;
    ShapeRayHit hit;
    int hits = 0;
    for (auto _ : state) {
        const auto [from, to] = ray(k++);
        hits += rayCast(mesh, Transform{}, from, to, hit) ? 1 : 0;
    }
    benchmark::DoNotOptimize(hits);
}
std::pair<Vec3, Vec3> vertical(std::uint32_t k) {
    const real x = real((k * 7919u) % 500) - 250 + real(0.37), z = real((k * 104729u) % 500) - 250 + real(0.61);
    return {Vec3(x, 20, z), Vec3(x, -20, z)};
}
std::pair<Vec3, Vec3> slanting(std::uint32_t k) { // 100 m, grazing the hills
    const real x = real((k * 7919u) % 400) - 200, z = real((k * 104729u) % 400) - 200;
    return {Vec3(x, 4, z), Vec3(x + 80, -2, z + 60)};
}
void TerrainRayDownGrid(benchmark::State& s) { rays(s, grid(), vertical); }
void TerrainRayDownTree(benchmark::State& s) { rays(s, tree(), vertical); }
void TerrainRaySlantGrid(benchmark::State& s) { rays(s, grid(), slanting); }
void TerrainRaySlantTree(benchmark::State& s) { rays(s, tree(), slanting); }

void boxOn(benchmark::State& state, const TriangleMesh& mesh) {
    std::vector<Manifold> out;
    const Transform pose{Vec3(real(10.3), real(3) * std::sin(real(266.3) / 23) * std::cos(real(256.2) / 31), real(0.2)), Quat::Identity()};
    for (auto _ : state) {
        out.clear();
        benchmark::DoNotOptimize(collideAll(Box{Vec3::Constant(real(0.5))}, pose, mesh, Transform{}, real(0.02), out));
    }
}
void TerrainBoxGrid(benchmark::State& s) { boxOn(s, grid()); }
void TerrainBoxTree(benchmark::State& s) { boxOn(s, tree()); }

} // namespace

BENCHMARK(TerrainBuildGrid)->Unit(benchmark::kMillisecond)->Iterations(2);
BENCHMARK(TerrainBuildTree)->Unit(benchmark::kMillisecond)->Iterations(2);
BENCHMARK(TerrainRayDownGrid);
BENCHMARK(TerrainRayDownTree);
BENCHMARK(TerrainRaySlantGrid);
BENCHMARK(TerrainRaySlantTree);
BENCHMARK(TerrainBoxGrid);
BENCHMARK(TerrainBoxTree);
