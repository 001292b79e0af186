// SPDX-License-Identifier: MIT
// jounce-bench --compare: the same benchmark scene in Jounce, Bullet and ODE, run
// interleaved (J B O J B O ...: the machine is shared and noisy, so each engine sees the
// same noise), with BENCH_SCENES.md's figures per engine and the ratio of Jounce's step
// time to each other engine's, per pair of runs, as a median.

#include "bench/engines.hpp"
#include "bench/report.hpp"

#include <chrono>
#include <cstdio>
#include <functional>
#include <map>

namespace jounce::bench {
namespace {

/// BENCH_SCENES.md's figures of one run of one engine.
struct RunFigures : StepTimes {
    long steps = 0;
    std::size_t dynamic = 0, asleep = 0;
    long allAsleepFrom = -1; ///< -1: never
    double topDy = 0, topDrift = 0, maxOverlap = 0, maxSpeed = 0;
    bool nonFinite = false;
    std::size_t escaped = 0;
    std::size_t contacts = 0;           ///< contact points of the last step
    double heapBuilt = 0, heapEnd = 0;  ///< heap bytes the engine holds after building the scene, after the run
    bool exploded() const { return nonFinite || maxSpeed > 50; }
};

/// Index of the top body among the dynamic ones (they are sampled in creation order).
long topIndex(const scenes::BenchSceneDesc& d) {
    if (!d.hasTop()) return -1;
    long k = 0;
    for (std::size_t i = 0; i < d.top; ++i) k += d.bodies[i].dynamic ? 1 : 0;
    return k;
}

/// The column's overlap: max over 0.5 - y0 and 1 - (y[i] - y[i-1]).
double columnOverlap(const std::vector<BodySample>& s) {
    double worst = s.empty() ? 0 : 0.5 - s[0].y;
    for (std::size_t i = 1; i < s.size(); ++i) worst = std::max(worst, 1 - (s[i].y - s[i - 1].y));
    return worst;
}

RunFigures runOnce(Engine& engine, const scenes::BenchSceneDesc& d, long steps) {
    RunFigures f;
    const long top = topIndex(d);
    const bool column = d.name == "column";
    std::vector<BodySample> s;
    engine.sample(s);
    f.dynamic = s.size();
    const BodySample start = top >= 0 ? s[static_cast<std::size_t>(top)] : BodySample{};
    std::vector<double> ms;
    ms.reserve(static_cast<std::size_t>(steps));
    long lastAwake = 0;
    for (long i = 0; i < steps; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        engine.step();
        ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
        ++f.steps;
        engine.sample(s);
        bool allAsleep = !s.empty();
        for (const BodySample& b : s) {
            if (!std::isfinite(b.x) || !std::isfinite(b.y) || !std::isfinite(b.z) || !std::isfinite(b.speed)) f.nonFinite = true;
            else f.maxSpeed = std::max(f.maxSpeed, b.speed);
            allAsleep = allAsleep && b.asleep;
        }
        if (!allAsleep) lastAwake = f.steps;
        if (column) f.maxOverlap = std::max(f.maxOverlap, columnOverlap(s));
    }
    static_cast<StepTimes&>(f) = stepTimes(ms);
    f.allAsleepFrom = lastAwake < f.steps ? lastAwake + 1 : -1;
    const double w = double(d.binHalfWidth);
    for (const BodySample& b : s) {
        f.asleep += b.asleep ? 1 : 0;
        const bool outside = w > 0 && (std::abs(b.x) > w || std::abs(b.z) > w);
        if (!(b.y >= -1) || outside) ++f.escaped;
    }
    if (top >= 0) {
        const BodySample& end = s[static_cast<std::size_t>(top)];
        f.topDy = end.y - start.y;
        f.topDrift = std::hypot(end.x - start.x, end.z - start.z);
    }
    f.contacts = engine.contacts();
    return f;
}

/// One engine's figures over all runs: step times as medians over the runs; the rest
/// from the last run (each engine is deterministic, so every run gives the same).
std::vector<std::pair<std::string, std::string>> fields(const std::vector<RunFigures>& runs, const scenes::BenchSceneDesc& d) {
    const StepTimes times = medianStepTimes(runs);
    const RunFigures& f = runs.back();
    const bool top = d.hasTop();
    return {{"steps", std::to_string(f.steps)},
            {"ms_per_step_median", number(times.msMedian)},
            {"ms_per_step_max", number(times.msMax)},
            {"ms_total", number(times.msTotal)},
            {"dynamic", std::to_string(f.dynamic)},
            {"asleep", std::to_string(f.asleep)},
            {"all_asleep_from", f.allAsleepFrom < 0 ? "null" : std::to_string(f.allAsleepFrom)},
            {"top_dy", top ? number(f.topDy) : "null"},
            {"top_drift", top ? number(f.topDrift) : "null"},
            {"max_overlap", d.name == "column" ? number(f.maxOverlap) : "null"},
            {"max_speed", number(f.maxSpeed)},
            {"exploded", f.exploded() ? "true" : "false"},
            {"any_nan", f.nonFinite ? "true" : "false"},
            {"escaped", std::to_string(f.escaped)},
            {"contacts", std::to_string(f.contacts)},
            // Memory: what building the scene added to the heap, per body (static ones
            // included), and what the run added since, per contact point of its last step.
            {"heap_bytes", number(f.heapEnd)},
            {"bytes_per_body", number(f.heapBuilt / double(d.bodies.size()))},
            {"bytes_per_contact", f.contacts ? number((f.heapEnd - f.heapBuilt) / double(f.contacts)) : "null"}};
}

} // namespace

int compareEngines(const std::string& scene, long steps, bool sleep, int runs, bool json, const JounceOptions& jounce) {
    const scenes::BenchSceneDesc desc = scenes::benchSceneDesc(scene);
    using Make = std::function<std::unique_ptr<Engine>(const scenes::BenchSceneDesc&, bool)>;
    const Make makeJounce = [&jounce](const scenes::BenchSceneDesc& d, bool s) { return makeJounceEngine(d, s, jounce); };
    const std::vector<std::pair<std::string, Make>> engines{
        {"jounce", makeJounce}, {"bullet", makeBulletEngine}, {"ode", makeOdeEngine}};
    std::map<std::string, std::vector<RunFigures>> results;
    for (int r = 0; r < runs; ++r)
        for (const auto& [name, make] : engines) {
            const double heapBefore = heapBytesInUse();
            const std::unique_ptr<Engine> engine = make(desc, sleep); // setup is not timed
            const double heapBuilt = heapBytesInUse();
            RunFigures f = runOnce(*engine, desc, steps);
            f.heapBuilt = heapBuilt - heapBefore;
            f.heapEnd = heapBytesInUse() - heapBefore;
            results[name].push_back(f);
            if (!json) std::fprintf(stderr, "run %d/%d %-7s %.3f ms/step\n", r + 1, runs, name.c_str(), results[name].back().msMedian);
        }
    // Jounce's median step time over the other engine's, per pair of runs, then the median.
    std::map<std::string, double> ratio;
    for (const char* other : {"bullet", "ode"}) {
        std::vector<double> pairs;
        for (int r = 0; r < runs; ++r)
            pairs.push_back(results["jounce"][static_cast<std::size_t>(r)].msMedian / results[other][static_cast<std::size_t>(r)].msMedian);
        ratio[other] = median(pairs);
    }
    bool bad = false;
    for (const auto& [name, rs] : results) bad = bad || rs.back().nonFinite;
    if (json) {
        std::string line = "{\"scene\": " + jsonString(scene) + ", \"sleep\": " + (sleep ? "true" : "false") +
                           ", \"runs\": " + std::to_string(runs) + ", \"engines\": {";
        for (std::size_t e = 0; e < engines.size(); ++e) {
            const std::string& name = engines[e].first;
            line += (e ? ", " : "") + jsonString(name) + ": {";
            const auto fs = fields(results[name], desc);
            for (std::size_t k = 0; k < fs.size(); ++k) line += (k ? ", " : "") + jsonString(fs[k].first) + ": " + fs[k].second;
            line += "}";
        }
        line += "}, \"ratio\": {\"bullet\": " + number(ratio["bullet"]) + ", \"ode\": " + number(ratio["ode"]) +
                "}, \"jounce_threads\": " + std::to_string(jounce.threads) + ", \"jounce_set\": " + jsonString(jounce.described) + "}";
        std::printf("%s\n", line.c_str());
        return bad ? 1 : 0;
    }
    std::printf("%s, sleep %s, %d runs interleaved, %ld steps of 1/60 s; Jounce on %u thread%s%s%s\n", scene.c_str(),
                sleep ? "on" : "off", runs, steps, jounce.threads, jounce.threads == 1 ? "" : "s",
                jounce.described.empty() ? "" : ", set ", jounce.described.c_str());
    std::printf("%-20s %14s %14s %14s\n", "figure", "jounce", "bullet", "ode");
    const auto j = fields(results["jounce"], desc), b = fields(results["bullet"], desc), o = fields(results["ode"], desc);
    for (std::size_t k = 0; k < j.size(); ++k)
        std::printf("%-20s %14s %14s %14s\n", j[k].first.c_str(), j[k].second.c_str(), b[k].second.c_str(), o[k].second.c_str());
    std::printf("%-20s %14s %14s %14s\n", "jounce / engine", "1", number(ratio["bullet"]).c_str(), number(ratio["ode"]).c_str());
    return bad ? 1 : 0;
}

} // namespace jounce::bench
