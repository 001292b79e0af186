// SPDX-License-Identifier: MIT
#pragma once
// The rigid-body benchmark scenes of ../shared/BENCH_SCENES.md, defined exactly, in one
// place: the demo shows them, the tests assert figures on them, jounce-bench times
// them (and maps them to Bullet and ODE).

#include "scenes/scene.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace jounce::scenes {

/// What a benchmark scene is made of, for the figures a run reports.
struct BenchLayout {
    std::vector<BodyId> dynamic; ///< in creation order
    BodyId top{};                ///< the scene's "top body" (column, pyramids), or null
    real binHalfWidth = 0;       ///< W of the bin, 0 without one
};

/// One body of a benchmark scene, engine-neutral, so that Jounce, Bullet and ODE build
/// the very same scene from it (bench/ maps it to each engine).
struct BenchBody {
    enum class Shape { Box, Sphere } shape = Shape::Box;
    Vec3 size = Vec3::Constant(real(0.5)); ///< Box: half extents; Sphere: (radius, radius, radius)
    Vec3 position = Vec3::Zero();          ///< centre [m]; every body starts at rest, unrotated
    bool dynamic = true;                   ///< dynamic: density benchDensity; else static
};

/// A benchmark scene as data: the bodies in creation order (ground, walls, then the
/// dynamic bodies in the loop order of BENCH_SCENES.md), the top body and the bin.
struct BenchSceneDesc {
    std::string name;
    std::vector<BenchBody> bodies;
    std::size_t top = ~std::size_t(0); ///< index into bodies, or ~0 for none
    real binHalfWidth = 0;             ///< W of the bin, 0 without one
    bool hasTop() const { return top < bodies.size(); }
};
constexpr real benchDensity = 1000;       ///< [kg/m^3], every dynamic body
constexpr real benchFriction = real(0.5); ///< for every contact pair
constexpr real benchGravity = real(-9.81);

/// Names: column, pyramid10, pyramid20, pile1000, spheres4096, and for scaling pileN
/// with N = 10 n^2 (pile250, pile4000, pile16000): n x n columns of 10 layers on the
/// pile1000 rule, in a bin of W = 0.55 n + 0.5 (pile1000: n = 10, W = 6).
bool isBenchScene(std::string_view name);
/// The scene as data; throws jounce::Error for an unknown name.
BenchSceneDesc benchSceneDesc(std::string_view name);

/// Adds the named scene's bodies to `scene` (ground, walls, dynamic bodies; friction
/// 0.5, restitution 0, density 1000) and returns its layout. Throws jounce::Error for an
/// unknown name.
BenchLayout buildBenchScene(Scene& scene, std::string_view name);
BenchLayout buildBenchScene(Scene& scene, const BenchSceneDesc& desc);

} // namespace jounce::scenes
