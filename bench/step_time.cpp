// SPDX-License-Identifier: MIT
// jounce-step-time: the time of the same steps, again and again, for comparing two
// builds on a noisy machine. The scene runs `--warm` steps, its state is saved, and
// `--reps` times the state is restored, one step is taken to rebuild the caches, and
// the next `--steps` steps are timed; the fastest
// repetition is the figure (what the machine lets through when nothing else runs), the
// median beside it. The hash of the state after the timed steps says whether two builds
// computed the same bits.
//
// usage: jounce-step-time --scene S [--warm N] [--steps K] [--reps R] [--threads T] [--sleep]

#include "bench/engines.hpp"

#include <jounce/jounce.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace {

struct Options {
    std::string scene = "cloth64";
    int warm = 60, steps = 10, reps = 15;
    unsigned threads = 1;
    bool sleep = false;
};

/// FNV-1a over the saved state: equal for equal bits.
std::uint64_t hashBytes(const std::vector<std::uint8_t>& bytes) {
    std::uint64_t h = 1469598103934665603ull;
    for (const std::uint8_t b : bytes) h = (h ^ b) * 1099511628211ull;
    return h;
}

std::unique_ptr<jounce::scenes::Scene> makeNamedScene(const std::string& name) {
    if (!jounce::scenes::isBenchScene(name)) return jounce::scenes::makeScene(name);
    auto bench = std::make_unique<jounce::bench::BenchScene>();
    bench->layout = jounce::scenes::buildBenchScene(*bench, name);
    return bench;
}

bool parse(int argc, char** argv, Options& o) {
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        const char* v = i + 1 < argc ? argv[i + 1] : nullptr;
        if (arg == "--sleep") o.sleep = true;
        else if (v == nullptr) return false;
        else if (arg == "--scene") o.scene = argv[++i];
        else if (arg == "--warm") o.warm = std::atoi(argv[++i]);
        else if (arg == "--steps") o.steps = std::atoi(argv[++i]);
        else if (arg == "--reps") o.reps = std::atoi(argv[++i]);
        else if (arg == "--threads") o.threads = static_cast<unsigned>(std::atoi(argv[++i]));
        else return false;
    }
    return o.warm >= 0 && o.steps > 0 && o.reps > 0 && o.threads > 0;
}

} // namespace

int main(int argc, char** argv) {
    Options o;
    if (!parse(argc, argv, o)) {
        std::fprintf(stderr, "usage: jounce-step-time --scene S [--warm N] [--steps K] [--reps R] [--threads T] [--sleep]\n");
        return 2;
    }
    try {
        std::unique_ptr<jounce::scenes::Scene> scene = makeNamedScene(o.scene);
        jounce::World& world = scene->world();
        jounce::WorldSettings settings = world.settings();
        settings.sleep.enabled = o.sleep;
        world.setSettings(settings);
        world.setThreads(o.threads);
        for (int s = 0; s < o.warm; ++s) scene->step();
        const std::vector<std::uint8_t> start = world.saveState();
        std::vector<double> ms;
        std::uint64_t hash = 0;
        for (int r = 0; r < o.reps; ++r) {
            // A restored world is a fresh one: its task system is set again, and one
            // step untimed rebuilds the caches a running world keeps (packs, colours).
            world.restoreState(start);
            world.setThreads(o.threads);
            scene->step();
            const auto t0 = std::chrono::steady_clock::now();
            for (int s = 0; s < o.steps; ++s) scene->step();
            const auto t1 = std::chrono::steady_clock::now();
            ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count() / o.steps);
            const std::uint64_t h = hashBytes(world.saveState());
            if (r > 0 && h != hash) std::fprintf(stderr, "jounce-step-time: repetition %d computed other bits\n", r);
            hash = h;
        }
        std::sort(ms.begin(), ms.end());
        std::printf("%s threads %u steps %d..%d: min %.4g ms, median %.4g ms per step, state %016llx\n", o.scene.c_str(),
                    o.threads, o.warm + 1, o.warm + 1 + o.steps, ms.front(), ms[ms.size() / 2], static_cast<unsigned long long>(hash));
    } catch (const jounce::Error& e) {
        std::fprintf(stderr, "jounce-step-time: %s\n", e.what());
        return 1;
    }
    return 0;
}
