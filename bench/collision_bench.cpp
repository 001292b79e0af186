// Microbenchmarks of the collision layer (Google Benchmark):
//   jounce-collision-bench [--benchmark_filter=REGEX]
// Pair functions run on fixed touching configurations; the broad phase runs on N boxes
// in a cube of side 2 cbrt(N) m (about one box per 8 m^3), each moving 2 cm per step in
// a random direction, with fat boxes refreshed as the world does.

#include <jounce/jounce.hpp>

#include <benchmark/benchmark.h>

#include <random>

using namespace jounce;

namespace {

Transform at(const Vec3& p, real degreesAboutY = 0) {
    return {p, Quat(Eigen::AngleAxis<real>(degreesAboutY * real(3.14159265358979) / 180, Vec3::UnitY()))};
}

template <typename A, typename B>
void runPair(benchmark::State& state, const A& a, const Transform& pa, const B& b, const Transform& pb) {
    Manifold m;
    for (auto _ : state) {
        benchmark::DoNotOptimize(collide(a, pa, b, pb, real(0.01), m));
        benchmark::DoNotOptimize(m);
    }
}

void SphereSphere(benchmark::State& s) { runPair(s, Shape{Sphere{real(0.5)}}, at(Vec3(0, real(0.95), 0)), Shape{Sphere{real(0.5)}}, at(Vec3::Zero())); }
void SphereCapsule(benchmark::State& s) { runPair(s, Shape{Sphere{real(0.5)}}, at(Vec3(real(0.95), real(0.3), 0)), Shape{Capsule{real(0.5), 1}}, at(Vec3::Zero())); }
void CapsuleCapsule(benchmark::State& s) { runPair(s, Shape{Capsule{real(0.5), 1}}, at(Vec3(real(0.95), 0, 0), 30), Shape{Capsule{real(0.5), 1}}, at(Vec3::Zero())); }
void SphereBox(benchmark::State& s) { runPair(s, Shape{Sphere{real(0.5)}}, at(Vec3(real(0.2), real(0.99), 0)), Shape{Box{Vec3::Constant(real(0.5))}}, at(Vec3::Zero())); }
void CapsuleBox(benchmark::State& s) { runPair(s, Shape{Capsule{real(0.25), real(0.5)}}, at(Vec3(real(0.2), real(1.24), 0)), Shape{Box{Vec3::Constant(real(0.5))}}, at(Vec3::Zero())); }
void BoxBoxFace(benchmark::State& s) { runPair(s, Shape{Box{Vec3::Constant(real(0.5))}}, at(Vec3(0, real(0.99), 0), 20), Shape{Box{Vec3::Constant(real(0.5))}}, at(Vec3::Zero())); }
void BoxBoxEdge(benchmark::State& s) {
    const Transform a{Vec3(0, real(1.39), 0), Quat(Eigen::AngleAxis<real>(real(0.785398), Vec3::UnitZ()))};
    const Transform b{Vec3::Zero(), Quat(Eigen::AngleAxis<real>(real(0.785398), Vec3::UnitX()))};
    runPair(s, Shape{Box{Vec3::Constant(real(0.5))}}, a, Shape{Box{Vec3::Constant(real(0.5))}}, b);
}
void BoxHalfSpace(benchmark::State& s) { runPair(s, Shape{Box{Vec3::Constant(real(0.5))}}, at(Vec3(0, real(0.49), 0), 10), Shape{HalfSpace{}}, at(Vec3::Zero())); }
void SphereHalfSpace(benchmark::State& s) { runPair(s, Shape{Sphere{real(0.5)}}, at(Vec3(0, real(0.49), 0)), Shape{HalfSpace{}}, at(Vec3::Zero())); }
void CapsuleHalfSpace(benchmark::State& s) { runPair(s, Shape{Capsule{real(0.5), 1}}, at(Vec3(0, real(0.49), 0)), Shape{HalfSpace{}}, at(Vec3::Zero())); }

void BroadPhaseMoving(benchmark::State& state) {
    const auto n = static_cast<std::size_t>(state.range(0));
    std::mt19937 rng(42);
    const real side = 2 * std::cbrt(static_cast<real>(n));
    std::uniform_real_distribution<real> where(0, side), dir(-1, 1);
    std::vector<Vec3> centres(n), velocity(n);
    std::vector<BroadPhaseProxy> proxies(n);
    for (std::size_t i = 0; i < n; ++i) {
        centres[i] = Vec3(where(rng), where(rng), where(rng));
        velocity[i] = Vec3(dir(rng), dir(rng), dir(rng)).normalized() * real(0.02);
        proxies[i].owner = static_cast<std::uint32_t>(i);
    }
    BroadPhase bp;
    std::vector<ProxyPair> pairs;
    for (auto _ : state) {
        for (std::size_t i = 0; i < n; ++i) {
            centres[i] += velocity[i];
            fattenAabb(proxies[i].box, Aabb{centres[i].array() - real(0.5), centres[i].array() + real(0.5)}, real(0.1));
        }
        bp.findPairs(proxies, pairs);
        benchmark::DoNotOptimize(pairs.data());
    }
    state.counters["pairs"] = static_cast<double>(pairs.size());
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(n));
}

void RayCastBox(benchmark::State& state) {
    ShapeRayHit hit;
    const Shape box = Box{Vec3(1, 2, 3)};
    const Transform pose = at(Vec3(0, 0, 10), 30);
    for (auto _ : state) benchmark::DoNotOptimize(rayCast(box, pose, Vec3(real(0.1), real(0.2), 0), Vec3(0, 0, 20), hit));
}

} // namespace

BENCHMARK(SphereSphere);
BENCHMARK(SphereCapsule);
BENCHMARK(CapsuleCapsule);
BENCHMARK(SphereBox);
BENCHMARK(CapsuleBox);
BENCHMARK(BoxBoxFace);
BENCHMARK(BoxBoxEdge);
BENCHMARK(BoxHalfSpace);
BENCHMARK(SphereHalfSpace);
BENCHMARK(CapsuleHalfSpace);
BENCHMARK(RayCastBox);
BENCHMARK(BroadPhaseMoving)->Arg(1000)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
