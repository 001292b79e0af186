#pragma once
// The rigid-body benchmark scenes of ../shared/BENCH_SCENES.md, defined exactly, in one
// place: the demo shows them, the tests assert figures on them, jounce-bench times
// them (and maps them to Bullet and ODE).

#include "scenes/scene.hpp"

namespace jounce::scenes {

/// What a benchmark scene is made of, for the figures a run reports.
struct BenchLayout {
    std::vector<BodyId> dynamic; ///< in creation order
    BodyId top{};                ///< the scene's "top body" (column, pyramids), or null
    real binHalfWidth = 0;       ///< W of the bin, 0 without one
};

/// Names: column, pyramid10, pyramid20, pile1000, spheres4096.
bool isBenchScene(std::string_view name);

/// Adds the named scene's bodies to `scene` (ground, walls, dynamic bodies; friction
/// 0.5, restitution 0, density 1000) and returns its layout. Throws jounce::Error for an
/// unknown name.
BenchLayout buildBenchScene(Scene& scene, std::string_view name);

} // namespace jounce::scenes
