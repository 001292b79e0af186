// SPDX-License-Identifier: MIT
// Microbenchmarks of hull and mesh pairs (part of jounce-collision-bench): a 12-point
// rock hull against the other shapes, and each shape resting on a 64 x 64-cell terrain
// mesh (8192 triangles, gentle bumps) so the R-tree query is part of the cost.

#include <jounce/jounce.hpp>
#include <jounce/collision/convex_hull.hpp>
#include <jounce/collision/gjk.hpp>

#include <benchmark/benchmark.h>

#include <cmath>
#include <numbers>
#include <vector>

using namespace jounce;

namespace {

Shape rock() {
    std::vector<Vec3> points;
    for (int k = 0; k < 6; ++k) {
        const real a = std::numbers::pi_v<real> * static_cast<real>(k) / 3;
        points.emplace_back(real(0.5) * std::cos(a), real(-0.3), real(0.5) * std::sin(a));
        points.emplace_back(real(0.35) * std::cos(a + real(0.5)), real(0.3), real(0.35) * std::sin(a + real(0.5)));
    }
    return makeConvexHull(points);
}

Shape terrain() {
    constexpr int n = 64;
    std::vector<Vec3> v;
    std::vector<std::array<std::uint32_t, 3>> t;
    for (int i = 0; i <= n; ++i)
        for (int j = 0; j <= n; ++j) {
            const real x = static_cast<real>(i) - n / 2, z = static_cast<real>(j) - n / 2;
            v.emplace_back(x, real(0.2) * std::sin(x / 5) * std::cos(z / 7), z);
        }
    const auto at = [](int i, int j) { return static_cast<std::uint32_t>(i * (n + 1) + j); };
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            t.push_back({at(i, j), at(i, j + 1), at(i + 1, j + 1)});
            t.push_back({at(i, j), at(i + 1, j + 1), at(i + 1, j)});
        }
    return makeTriangleMesh(v, t);
}

void runPair(benchmark::State& state, const Shape& a, const Transform& pa, const Shape& b, const Transform& pb) {
    std::vector<Manifold> out;
    for (auto _ : state) {
        out.clear();
        benchmark::DoNotOptimize(collideAll(a, pa, b, pb, real(0.01), out));
        benchmark::DoNotOptimize(out.data());
    }
}

Transform placed(const Vec3& p, real angle = 0) {
    return {p, Quat(Eigen::AngleAxis<real>(angle, Vec3(1, 2, 3).normalized()))};
}

void SphereHull(benchmark::State& s) { runPair(s, Sphere{real(0.3)}, placed(Vec3(real(0.1), real(0.58), 0)), rock(), placed(Vec3::Zero())); }
void CapsuleHull(benchmark::State& s) { runPair(s, Capsule{real(0.2), real(0.3)}, placed(Vec3(real(0.1), real(0.95), 0)), rock(), placed(Vec3::Zero())); }
void BoxHull(benchmark::State& s) { runPair(s, Box{Vec3::Constant(real(0.3))}, placed(Vec3(real(0.1), real(0.59), 0)), rock(), placed(Vec3::Zero())); }
void HullHull(benchmark::State& s) { runPair(s, rock(), placed(Vec3(real(0.1), real(0.58), 0), real(0.4)), rock(), placed(Vec3::Zero())); }
void HullHalfSpace(benchmark::State& s) { runPair(s, rock(), placed(Vec3(0, real(0.29), 0)), HalfSpace{}, placed(Vec3::Zero())); }
void GjkHulls(benchmark::State& s) {
    const Shape a = rock(), b = rock();
    const Transform pa = placed(Vec3(real(1.3), real(0.4), 0), real(0.4)), pb = placed(Vec3::Zero());
    for (auto _ : s) {
        const GjkResult g = gjkDistance([&](const Vec3& d) { return pa.toWorld(support(a, pa.directionToLocal(d))); },
                                        [&](const Vec3& d) { return pb.toWorld(support(b, pb.directionToLocal(d))); });
        benchmark::DoNotOptimize(g);
    }
}
void SphereMesh(benchmark::State& s) { runPair(s, Sphere{real(0.5)}, placed(Vec3(real(0.3), real(0.45), real(0.2))), terrain(), placed(Vec3::Zero())); }
void CapsuleMesh(benchmark::State& s) { runPair(s, Capsule{real(0.3), real(0.5)}, placed(Vec3(real(0.3), real(0.75), real(0.2))), terrain(), placed(Vec3::Zero())); }
void BoxMesh(benchmark::State& s) { runPair(s, Box{Vec3::Constant(real(0.5))}, placed(Vec3(real(0.3), real(0.45), real(0.2))), terrain(), placed(Vec3::Zero())); }
void HullMesh(benchmark::State& s) { runPair(s, rock(), placed(Vec3(real(0.3), real(0.25), real(0.2))), terrain(), placed(Vec3::Zero())); }

} // namespace

BENCHMARK(SphereHull);
BENCHMARK(CapsuleHull);
BENCHMARK(BoxHull);
BENCHMARK(HullHull);
BENCHMARK(HullHalfSpace);
BENCHMARK(GjkHulls);
BENCHMARK(SphereMesh);
BENCHMARK(CapsuleMesh);
BENCHMARK(BoxMesh);
BENCHMARK(HullMesh);
