// jounce-bench: runs a scene headless and prints its figures.
//   jounce-bench --scene NAME [--steps N] [--json]
// Step time is a steady clock around Scene::step() only (setup is not timed).

#include "scenes/scene.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

namespace {

struct Options {
    std::string scene;
    long steps = 600;
    bool json = false;
};

int usage(const char* problem) {
    if (problem) std::cerr << "jounce-bench: " << problem << "\n";
    std::cerr << "usage: jounce-bench --scene NAME [--steps N] [--json]\nscenes:";
    for (const std::string& n : jounce::scenes::sceneNames()) std::cerr << " " << n;
    std::cerr << "\n";
    return 2;
}

struct Figures {
    long steps = 0;
    double msMedian = 0, msMax = 0, msTotal = 0;
    std::size_t bodies = 0;
    double maxSpeed = 0;
    bool anyNan = false;
    std::string error;
};

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void sampleSpeeds(const jounce::World& world, Figures& f) {
    for (const jounce::BodyId id : world.bodyIds()) {
        const jounce::Body& b = world.body(id);
        if (!b.isDynamic()) continue;
        const double speed = static_cast<double>(b.linearVelocity.norm());
        if (!std::isfinite(speed) || !b.position.allFinite()) f.anyNan = true;
        else f.maxSpeed = std::max(f.maxSpeed, speed);
    }
}

Figures run(jounce::scenes::Scene& scene, long steps) {
    Figures f;
    std::vector<double> ms;
    ms.reserve(static_cast<std::size_t>(steps));
    for (long i = 0; i < steps; ++i) {
        const auto start = std::chrono::steady_clock::now();
        try {
            scene.step();
        } catch (const jounce::Error& e) {
            f.error = e.what();
            f.anyNan = true;
            break;
        }
        ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
        ++f.steps;
        sampleSpeeds(scene.world(), f);
    }
    f.msMedian = median(ms);
    for (double m : ms) {
        f.msMax = std::max(f.msMax, m);
        f.msTotal += m;
    }
    f.bodies = scene.world().bodyCount();
    return f;
}

std::string jsonString(const std::string& s) {
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out + "\"";
}

void print(const Options& o, const Figures& f) {
    if (o.json) {
        std::printf("{\"scene\": %s, \"steps\": %ld, \"ms_per_step_median\": %.6f, \"ms_per_step_max\": %.6f, "
                    "\"ms_total\": %.6f, \"bodies\": %zu, \"max_speed\": %.6f, \"any_nan\": %s, \"error\": %s}\n",
                    jsonString(o.scene).c_str(), f.steps, f.msMedian, f.msMax, f.msTotal, f.bodies, f.maxSpeed,
                    f.anyNan ? "true" : "false", f.error.empty() ? "null" : jsonString(f.error).c_str());
        return;
    }
    std::printf("scene %s: %ld steps, median %.4f ms/step, max %.4f ms, total %.2f ms, %zu bodies, "
                "max speed %.3f m/s%s\n",
                o.scene.c_str(), f.steps, f.msMedian, f.msMax, f.msTotal, f.bodies, f.maxSpeed,
                f.anyNan ? ", NON-FINITE STATE" : "");
    if (!f.error.empty()) std::printf("error: %s\n", f.error.c_str());
}

} // namespace

int main(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        auto value = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
        if (arg == "--scene") {
            const char* v = value();
            if (!v) return usage("--scene needs a name");
            o.scene = v;
        } else if (arg == "--steps") {
            const char* v = value();
            char* end = nullptr;
            o.steps = v ? std::strtol(v, &end, 10) : -1;
            if (!v || *end != '\0' || o.steps < 0) return usage("--steps needs a whole number >= 0");
        } else if (arg == "--json") {
            o.json = true;
        } else if (arg == "--help" || arg == "-h") {
            usage(nullptr);
            return 0;
        } else {
            return usage(("unknown argument " + arg).c_str());
        }
    }
    if (o.scene.empty()) return usage("--scene is required");
    std::unique_ptr<jounce::scenes::Scene> scene;
    try {
        scene = jounce::scenes::makeScene(o.scene);
    } catch (const jounce::Error& e) {
        return usage(e.what());
    }
    const Figures f = run(*scene, o.steps);
    print(o, f);
    return f.anyNan ? 1 : 0;
}
