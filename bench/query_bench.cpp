// SPDX-License-Identifier: MIT
// The world's queries among many bodies (part of jounce-collision-bench):
//   jounce-collision-bench --benchmark_filter='Query'
// A ray cast, a sphere cast and a box cast, each 5 m long from a random point, among N boxes and
// spheres scattered over a square (one step taken, so the broad phase's trees hold them),
// through World::rayCastClosest / shapeCastClosest, and by a scan of every collider (its
// box, kept in an array, then the shape test) beside them: the trees' cost grows with log N, the scan's
// with N. And a box cast across heightfield terrain (meshes are cast triangle by triangle).

#include <jounce/jounce.hpp>

#include <benchmark/benchmark.h>

#include <cmath>
#include <memory>
#include <optional>
#include <random>
#include <vector>

using namespace jounce;

namespace {

/// N bodies, boxes and spheres of 0.2-0.6 m, resting apart on a square whose side
/// grows with sqrt(N) (the same density at every N), with 256 queries' starts and
/// directions.
struct QueryWorld {
    World world;
    std::vector<Vec3> from, along;
    std::vector<Shape> shapes; ///< every collider's shape, pose and box, for the scans
    std::vector<Transform> poses;
    std::vector<Aabb> boxes;
    explicit QueryWorld(int n) {
        std::mt19937 rng(7);
        std::uniform_real_distribution<double> unit(0, 1);
        const real side = 4 * std::sqrt(static_cast<real>(n));
        for (int i = 0; i < n; ++i) {
            BodyDesc d;
            d.type = BodyType::Static;
            d.position = Vec3(real(unit(rng)) * side, real(unit(rng)) * 3, real(unit(rng)) * side);
            const real size = real(0.2) + real(0.4) * real(unit(rng));
            d.colliders.push_back(makeCollider(i % 2 == 0 ? Shape(Box{Vec3::Constant(size)}) : Shape(Sphere{size}), 1000));
            world.createBody(d);
        }
        world.step(real(1) / 60);
        for (const ColliderId id : world.colliderIds()) {
            shapes.push_back(world.collider(id).shape);
            poses.push_back(world.colliderPose(id));
            boxes.push_back(computeAabb(shapes.back(), poses.back()));
        }
        for (int q = 0; q < 256; ++q) {
            from.emplace_back(real(unit(rng)) * side, real(unit(rng)) * 3, real(unit(rng)) * side);
            const real angle = real(unit(rng)) * real(6.283185307179586);
            along.emplace_back(5 * std::cos(angle), real(unit(rng)) - real(0.5), 5 * std::sin(angle));
        }
    }
};

/// One world per size, made once.
QueryWorld& worldOf(int n) {
    static std::vector<std::pair<int, std::unique_ptr<QueryWorld>>> made;
    for (auto& [size, w] : made)
        if (size == n) return *w;
    made.emplace_back(n, std::make_unique<QueryWorld>(n));
    return *made.back().second;
}

void QueryRayTrees(benchmark::State& state) {
    QueryWorld& q = worldOf(static_cast<int>(state.range(0)));
    std::size_t k = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(q.world.rayCastClosest(q.from[k], q.from[k] + q.along[k]));
        k = (k + 1) % q.from.size();
    }
}

void QueryRayScan(benchmark::State& state) {
    QueryWorld& q = worldOf(static_cast<int>(state.range(0)));
    std::size_t k = 0;
    for (auto _ : state) {
        const Vec3 a = q.from[k], b = q.from[k] + q.along[k];
        real best = 2;
        for (std::size_t i = 0; i < q.shapes.size(); ++i) {
            ShapeRayHit h;
            if (rayHitsAabb(q.boxes[i], a, b) && rayCast(q.shapes[i], q.poses[i], a, b, h)) best = std::min(best, h.fraction);
        }
        benchmark::DoNotOptimize(best);
        k = (k + 1) % q.from.size();
    }
}

/// The 256 rays as one batch (World::rayCastBatch) on the calling thread (Arg 1) or a
/// pool of two workers (Arg 2): the time is per batch.
void QueryRayBatch(benchmark::State& state) {
    QueryWorld& q = worldOf(10000);
    std::vector<World::RayQuery> rays;
    for (std::size_t k = 0; k < q.from.size(); ++k) rays.push_back({q.from[k], q.from[k] + q.along[k]});
    ThreadPool pool(static_cast<std::uint32_t>(state.range(0)));
    for (auto _ : state) benchmark::DoNotOptimize(q.world.rayCastBatch(rays, &pool));
}

void QueryCastTrees(benchmark::State& state) {
    QueryWorld& q = worldOf(static_cast<int>(state.range(0)));
    const Shape ball = Sphere{real(0.3)};
    std::size_t k = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(q.world.shapeCastClosest(ball, Transform{q.from[k], Quat::Identity()}, q.along[k]));
        k = (k + 1) % q.from.size();
    }
}

/// The same casts with a box (0.3 m half extents, turned 30 degrees about y): the
/// polytope path of every pair.
void QueryBoxCastTrees(benchmark::State& state) {
    QueryWorld& q = worldOf(static_cast<int>(state.range(0)));
    const Shape box = Box{Vec3::Constant(real(0.3))};
    const Quat turned(Eigen::AngleAxis<real>(real(0.5236), Vec3::UnitY()));
    std::size_t k = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(q.world.shapeCastClosest(box, Transform{q.from[k], turned}, q.along[k]));
        k = (k + 1) % q.from.size();
    }
}

/// A box cast 5 m across rolling terrain (a 257 x 257 heightfield of 0.5 m cells), just
/// above it or grazing it: the per-triangle cast over the cells its swept box covers.
void QueryTerrainCast(benchmark::State& state) {
    static const std::unique_ptr<World> world = [] {
        auto w = std::make_unique<World>();
        HeightfieldDesc d;
        d.columns = d.rows = 257;
        d.spacingX = d.spacingZ = real(0.5);
        std::vector<real> heights;
        for (std::uint32_t z = 0; z < d.rows; ++z)
            for (std::uint32_t x = 0; x < d.columns; ++x)
                heights.push_back(real(0.6) * std::sin(real(0.35) * real(x)) + real(0.4) * std::cos(real(0.45) * real(z)));
        d.heights = heights;
        BodyDesc terrain;
        terrain.type = BodyType::Static;
        terrain.colliders.push_back(makeCollider(makeHeightfield(d), 1000));
        w->createBody(terrain);
        w->step(real(1) / 60);
        return w;
    }();
    const Shape box = Box{Vec3(real(0.4), real(0.2), real(0.4))};
    std::mt19937 rng(11);
    std::uniform_real_distribution<double> unit(0, 1);
    std::vector<Vec3> from, along;
    for (int q = 0; q < 256; ++q) {
        from.emplace_back(10 + real(unit(rng)) * 100, real(0.8) + real(unit(rng)), 10 + real(unit(rng)) * 100);
        const real angle = real(unit(rng)) * real(6.283185307179586);
        along.emplace_back(5 * std::cos(angle), real(-0.5) * real(unit(rng)), 5 * std::sin(angle));
    }
    std::size_t k = 0, hits = 0;
    for (auto _ : state) {
        const auto hit = world->shapeCastClosest(box, Transform{from[k], Quat::Identity()}, along[k]);
        hits += hit ? 1 : 0;
        k = (k + 1) % from.size();
    }
    state.counters["hit share"] = static_cast<double>(hits) / static_cast<double>(state.iterations());
}

void QueryCastScan(benchmark::State& state) {
    QueryWorld& q = worldOf(static_cast<int>(state.range(0)));
    const Shape ball = Sphere{real(0.3)};
    std::size_t k = 0;
    for (auto _ : state) {
        const Transform start{q.from[k], Quat::Identity()};
        const Aabb box = computeAabb(ball, start);
        const Aabb swept{box.min.cwiseMin(box.min + q.along[k]), box.max.cwiseMax(box.max + q.along[k])};
        real best = 2;
        for (std::size_t i = 0; i < q.shapes.size(); ++i) {
            if (!q.boxes[i].overlaps(swept)) continue;
            if (const std::optional<ShapeCastContact> h = shapeCast(ball, start, q.along[k], q.shapes[i], q.poses[i]))
                best = std::min(best, h->fraction);
        }
        benchmark::DoNotOptimize(best);
        k = (k + 1) % q.from.size();
    }
}

} // namespace

/// A character's update (jounce::Character::update: its casts, contacts, planes, ground
/// probe) walking in a circle at 3 m/s on a floor among N static boxes and spheres
/// (QueryWorld's, set on the floor), the world stepped between updates (not timed).
void CharacterUpdate(benchmark::State& state) {
    const int n = static_cast<int>(state.range(0));
    World world;
    const real side = 4 * std::sqrt(static_cast<real>(n));
    BodyDesc floor;
    floor.type = BodyType::Static;
    floor.position = Vec3(side / 2, real(-0.5), side / 2);
    floor.colliders.push_back(makeCollider(Box{Vec3(side, real(0.5), side)}, 1000));
    world.createBody(floor);
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> unit(0, 1);
    for (int i = 0; i < n; ++i) {
        BodyDesc d;
        d.type = BodyType::Static;
        const real size = real(0.2) + real(0.4) * real(unit(rng));
        d.position = Vec3(real(unit(rng)) * side, size, real(unit(rng)) * side);
        d.colliders.push_back(makeCollider(i % 2 == 0 ? Shape(Box{Vec3::Constant(size)}) : Shape(Sphere{size}), 1000));
        world.createBody(d);
    }
    CharacterDesc hero;
    hero.position = Vec3(side / 2, 0, side / 2);
    Character character(world, hero);
    world.step(real(1) / 60);
    real angle = 0;
    for (auto _ : state) {
        angle += real(0.02);
        character.update(world, real(1) / 60, Vec3(3 * std::cos(angle), 0, 3 * std::sin(angle)));
        state.PauseTiming();
        world.step(real(1) / 60);
        state.ResumeTiming();
    }
}

BENCHMARK(QueryRayTrees)->Arg(1000)->Arg(10000)->Arg(100000);
BENCHMARK(QueryRayScan)->Arg(1000)->Arg(10000)->Arg(100000);
BENCHMARK(QueryRayBatch)->Arg(1)->Arg(2)->UseRealTime();
BENCHMARK(QueryCastTrees)->Arg(1000)->Arg(10000)->Arg(100000);
BENCHMARK(QueryBoxCastTrees)->Arg(1000)->Arg(10000)->Arg(100000);
BENCHMARK(QueryCastScan)->Arg(1000)->Arg(10000)->Arg(100000);
BENCHMARK(QueryTerrainCast);
BENCHMARK(CharacterUpdate)->Arg(100)->Arg(10000);
