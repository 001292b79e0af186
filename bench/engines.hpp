// SPDX-License-Identifier: MIT
#pragma once
// The engines jounce-bench --compare runs side by side: each builds the same benchmark
// scene from scenes/bench_scenes.hpp's engine-neutral description and steps it at
// 1/60 s, one step per frame, single thread. Only what BENCH_SCENES.md's figures need
// crosses this interface: the dynamic bodies' positions, speeds and sleep, in the
// scene's creation order.

#include "scenes/bench_scenes.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace jounce::bench {

/// A benchmark scene as jounce-bench runs it: the scene module's world, none of the
/// demo's extras.
class BenchScene final : public scenes::Scene {
public:
    const char* name() const override { return "bench"; }
    const char* description() const override { return "benchmark scene"; }
    scenes::BenchLayout layout;
};

struct BodySample {
    double x = 0, y = 0, z = 0; ///< centre [m]
    double speed = 0;           ///< |linear velocity| [m/s]
    bool asleep = false;
};

class Engine {
public:
    virtual ~Engine() = default;
    virtual const char* name() const = 0;
    /// One step of 1/60 s (what is timed).
    virtual void step() = 0;
    /// The dynamic bodies, in the description's order.
    virtual void sample(std::vector<BodySample>& out) const = 0;
    /// Contact points the last step solved.
    virtual std::size_t contacts() const = 0;
};

/// What --compare may change of Jounce alone (the others run at their defaults, on one
/// thread: Debian's Bullet and ODE are built without threads).
struct JounceOptions {
    std::function<void(WorldSettings&)> adjust; ///< --set, applied after `sleep`
    std::uint32_t threads = 1;                  ///< World::setThreads
    std::string described;                      ///< what was changed, for the report ("" for nothing)
};

/// `sleep`: the engine's sleeping (Jounce's islands, Bullet's deactivation, ODE's
/// auto-disable) on or off.
std::unique_ptr<Engine> makeJounceEngine(const scenes::BenchSceneDesc& desc, bool sleep, const JounceOptions& options = {});
std::unique_ptr<Engine> makeBulletEngine(const scenes::BenchSceneDesc& desc, bool sleep);
std::unique_ptr<Engine> makeOdeEngine(const scenes::BenchSceneDesc& desc, bool sleep);

/// The particle scenes against Bullet (soft_compare.cpp), sleeping off: cloth64 and softcube
/// against its soft bodies, sandpile against rigid spheres, mixed against its three parts.
/// `jounce` changes Jounce's settings and threads; btSoftBody's position iterations
/// follow Jounce's particle substeps x sweeps, so both make as many passes.
int compareSoftBodies(const std::string& scene, long steps, int runs, bool json, const JounceOptions& jounce = {});

/// jounce-bench --compare: runs the three engines interleaved `runs` times and prints
/// one table (or, with `json`, one JSON line) of every BENCH_SCENES.md figure per engine
/// and the ratios of Jounce's step time to the others'. Returns the exit status.
int compareEngines(const std::string& scene, long steps, bool sleep, int runs, bool json, const JounceOptions& jounce = {});

} // namespace jounce::bench
