// SPDX-License-Identifier: MIT
// jounce-bench: runs a scene headless and prints its figures.
//   jounce-bench --scene NAME [--steps N] [--json] [--no-sleep] [--solver sequential|worst-first]
//                [--set NAME=VALUE ...] [--observe]
//   jounce-bench --compare --scene NAME [--runs N] [--steps N] [--json] [--no-sleep]
//                the same benchmark scene in Jounce, Bullet and ODE, interleaved (compare.cpp)
//   jounce-bench --scene-file PATH [...]   runs a scene file (docs/integration.md, "Scene files")
//   jounce-bench --export-scene NAME       writes a built-in scene as a scene file to stdout
// The benchmark scenes (column, pyramid10, pyramid20, pile1000, spheres4096) report the
// figures of ../shared/BENCH_SCENES.md; any other demo scene reports the general ones.
// Step time is a steady clock around Scene::step() only (setup is not timed).

#include "bench/engines.hpp"
#include "bench/report.hpp"
#include "bench/task_trace.hpp"
#include "scenes/bench_scenes.hpp"
#include "scenes/scene.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace {

using jounce::real;
using jounce::bench::BenchScene;
using jounce::bench::jsonString;
using jounce::bench::median;
using jounce::bench::number;
using jounce::bench::StepTimes;
using jounce::bench::stepTimes;

struct Options {
    std::string scene;
    long steps = 600;
    bool json = false;
    bool noSleep = false;
    bool compare = false;
    bool observe = false; ///< install a resolver observer (docs/debugging.md)
    long observeStep = 0; ///< --observe-step N: watch step N alone (1 = the first; 0: every step)
    int runs = 3;
    std::uint32_t threads = 1; ///< World::setThreads
    bool traceTasks = false;   ///< --trace-tasks: the threads' pool timed (bench/task_trace.hpp)
    std::string simd;          ///< cap on the SIMD width (empty: the processor's widest)
    std::vector<std::pair<std::string, std::string>> sets; ///< resolver settings to override
};

/// The particle settings --set can change: particles.substeps, particles.iterations, particles.rigidSweeps,
/// particles.solveLines (0, 1),
/// particles.integrator (0 Euler, 1 BDF2), particles.solver (0 XPBD, 1 PBD).
bool applyParticleSet(jounce::ParticleSettings& p, const std::string& name, double v) {
    if (name == "particles.substeps") p.substeps = static_cast<int>(v);
    else if (name == "particles.iterations") p.iterations = static_cast<int>(v);
    else if (name == "particles.rigidSweeps") p.rigidSweeps = static_cast<int>(v);
    else if (name == "particles.solveLines") p.solveLines = v != 0;
    else if (name == "particles.integrator") p.integrator = v != 0 ? jounce::ParticleIntegrator::BDF2 : jounce::ParticleIntegrator::Euler;
    else if (name == "particles.solver") p.solver = v != 0 ? jounce::ParticleSolver::PBD : jounce::ParticleSolver::XPBD;
    else return false;
    return true;
}

/// The resolver and particle settings --set can change, by name (for experiments from the shell).
bool applySet(jounce::WorldSettings& settings, const std::string& name, const std::string& value) {
    char* end = nullptr;
    const double v = std::strtod(value.c_str(), &end);
    if (value.empty() || *end != '\0') return false;
    if (applyParticleSet(settings.particles, name, v)) return true;
    jounce::ResolverSettings& r = settings.resolver;
    const std::map<std::string, real*> reals{{"restitutionThreshold", &r.restitutionThreshold},
                                             {"maxProjectionAngle", &r.maxProjectionAngle},
                                             {"penetrationTolerance", &r.penetrationTolerance},
                                             {"velocityTolerance", &r.velocityTolerance},
                                             {"projectionRelaxation", &r.projectionRelaxation},
                                             {"allowedPenetration", &r.allowedPenetration},
                                             {"sequentialTolerance", &r.sequentialTolerance},
                                             {"slidingSpeed", &r.slidingSpeed}};
    const std::map<std::string, int*> ints{{"positionIterationsPerContact", &r.positionIterationsPerContact},
                                           {"velocityIterationsPerContact", &r.velocityIterationsPerContact},
                                           {"sequentialIterations", &r.sequentialIterations},
                                           {"sequentialPositionIterations", &r.sequentialPositionIterations},
                                           {"shockIterations", &r.shockIterations}};
    if (auto it = reals.find(name); it != reals.end()) {
        *it->second = static_cast<real>(v);
        return true;
    }
    if (auto it = ints.find(name); it != ints.end()) {
        *it->second = static_cast<int>(v);
        return true;
    }
    if (name == "solver") {
        r.solver = v != 0 ? jounce::ContactSolver::SoftStep : jounce::ContactSolver::Resolver;
        return true;
    }
    const std::map<std::string, int*> softInts{{"soft.substeps", &r.soft.substeps},
                                               {"soft.jointSubsteps", &r.soft.jointSubsteps},
                                               {"soft.relaxIterations", &r.soft.relaxIterations}};
    if (auto it = softInts.find(name); it != softInts.end()) {
        *it->second = static_cast<int>(v);
        return true;
    }
    const std::map<std::string, real*> soft{{"soft.contactHertz", &r.soft.contactHertz},
                                            {"soft.contactDampingRatio", &r.soft.contactDampingRatio},
                                            {"soft.jointHertz", &r.soft.jointHertz},
                                            {"soft.jointDampingRatio", &r.soft.jointDampingRatio},
                                            {"soft.maxPushOut", &r.soft.maxPushOut},
                                            {"soft.holdMassRatio", &r.soft.holdMassRatio}};
    if (auto it = soft.find(name); it != soft.end()) {
        *it->second = static_cast<real>(v);
        return true;
    }
    if (name == "contactCache.distance" || name == "contactCache.angle") {
        (name == "contactCache.distance" ? settings.contactCache.distance : settings.contactCache.angle) = static_cast<real>(v);
        return true;
    }
    if (name == "positionSolver") {
        r.positionSolver = v != 0 ? jounce::PositionSolver::Sequential : jounce::PositionSolver::WorstFirst;
        return true;
    }
    if (name == "warmStart") {
        r.warmStart = v != 0;
        return true;
    }
    return false;
}

int usage(const char* problem) {
    if (problem) std::cerr << "jounce-bench: " << problem << "\n";
    std::cerr << "usage: jounce-bench --scene NAME [--steps N] [--json] [--no-sleep]\n"
                 "                    [--solver sequential|worst-first] [--set NAME=VALUE ...]\n"
                 "                    [--observe | --observe-step N] [--threads N] [--trace-tasks] [--simd scalar|sse2|avx2]\n"
                 "       jounce-bench --scene-file PATH.json [the options above]\n"
                 "       jounce-bench --export-scene NAME > PATH.json\n"
                 "       jounce-bench --compare --scene NAME [--runs N] [--steps N] [--json] [--no-sleep]\n"
                 "                    [--threads N] [--set NAME=VALUE ...]\n"
                 "  --compare runs a benchmark scene (column, pyramid10, pyramid20, pileN, spheres4096)\n"
                 "        in Jounce, Bullet and ODE interleaved, --runs times (default 3, at least 1);\n"
                 "        --set and --threads change Jounce alone (the others run at their defaults, one thread);\n"
                 "        cloth64 and softcube in Jounce and Bullet's soft bodies, sandpile beside as many\n"
                 "        rigid spheres in Bullet (sleeping off)\n"
                 "  --solver picks the resolver's velocity solver (with --set solver=0: the default solver\n"
                 "        is the soft step)\n"
                 "  --threads N shares each step among N workers (World::setThreads; the same bits for any N)\n"
                 "  --trace-tasks times the workers' pool (World::setTaskSystem): tasks a step, the time in them, each\n"
                 "        worker's time running ranges, and the time the calling thread runs alone between them\n"
                 "  --simd caps the soft step's SIMD width (jounce::limitSimd; the same bits at any width)\n"
                 "  --observe-step N watches step N alone (as --observe; a breakpoint in the observer then\n"
                 "        stops only in that step)\n"
                 "  --observe watches the solver (World::setResolverObserver): every visit of a contact\n"
                 "        then makes a ResolutionRecord (SoftStepSolver::report; the resolver: ContactResolver::notify), where a\n"
                 "        debugger can stop (docs/debugging.md); it prints how many there were\n"
                 "  --set changes a resolver setting: restitutionThreshold, maxProjectionAngle, penetrationTolerance,\n"
                 "        velocityTolerance, positionIterationsPerContact, velocityIterationsPerContact,\n"
                 "        sequentialIterations, warmStart, positionSolver (0 worst-first, 1 sequential),\n"
                 "        sequentialPositionIterations, projectionRelaxation, allowedPenetration,\n"
                 "        sequentialTolerance, slidingSpeed, shockIterations; solver (0 resolver, 1 soft step),\n"
                 "        soft.substeps, soft.jointSubsteps, soft.contactHertz, soft.contactDampingRatio, soft.jointHertz,\n"
                 "        soft.jointDampingRatio, soft.maxPushOut, soft.relaxIterations,\n"
                 "        soft.holdMassRatio; contactCache.distance, contactCache.angle;\n"
                 "        particles.substeps, particles.iterations, particles.rigidSweeps, particles.solveLines (0, 1),\n"
                 "        particles.integrator (0 Euler, 1 BDF2), particles.solver (0 XPBD, 1 PBD)\n"
                 "scenes:";
    for (const std::string& n : jounce::scenes::sceneNames()) std::cerr << " " << n;
    std::cerr << "\n";
    return 2;
}

struct Figures : StepTimes {
    long steps = 0;
    std::map<std::string, double> msPerPhase; ///< medians
    std::map<std::string, double> msPerPhaseTotal; ///< sums over the run (where a sleep-on run's time goes)
    std::size_t bodies = 0, dynamic = 0;
    std::size_t asleep = 0;
    long allAsleepFrom = -1; ///< -1: never
    bool hasTop = false;
    double topDy = 0, topDrift = 0;
    bool column = false;
    double maxOverlap = 0;
    double maxSpeed = 0;
    double maxParticleSpeed = 0;
    std::size_t particlesBelow = 0; ///< particles under y = -1 at the end
    std::size_t particlesAsleep = 0; ///< at the end
    bool nonFinite = false;
    std::size_t escaped = 0;
    std::size_t contacts = 0, islands = 0;
    std::size_t particles = 0, constraints = 0;
    std::size_t deformableParticles = 0, deformableEdges = 0;
    double maxPenetration = 0;
    double positionIterations = 0, velocityIterations = 0; ///< medians per step
    int positionIterationsMax = 0, velocityIterationsMax = 0;
    int shardsMax = 1; ///< the most shards of whole islands a step's coloured blocks were cut into
    std::optional<jounce::bench::TaskTrace::Figures> tasks; ///< --trace-tasks
    long resolutionRecords = -1; ///< --observe: records the resolver made over the run (-1: not observed)
    /// FNV-1a over the world's snapshot at the end (World::saveState): equal for equal
    /// worlds, so runs with different --threads or --simd can be checked for the same bits.
    std::uint64_t stateHash = 0;
    std::string error;
    bool exploded() const { return nonFinite || maxSpeed > 50 || maxParticleSpeed > 50; }
};

std::vector<jounce::BodyId> dynamicBodies(const jounce::World& world) {
    std::vector<jounce::BodyId> out;
    for (const jounce::BodyId id : world.bodyIds())
        if (world.body(id).isDynamic()) out.push_back(id);
    return out;
}

/// Per step: speeds, overlaps, sleep.
void sample(const jounce::World& world, const std::vector<jounce::BodyId>& dynamic, bool column, Figures& f,
            bool& allAsleep) {
    allAsleep = !dynamic.empty();
    for (const jounce::BodyId id : dynamic) {
        const jounce::BodyState b = world.body(id);
        const double speed = static_cast<double>(b.linearVelocity.norm());
        if (!std::isfinite(speed) || !b.position.allFinite()) f.nonFinite = true;
        else f.maxSpeed = std::max(f.maxSpeed, speed);
        allAsleep = allAsleep && !b.awake;
    }
    // Particles count as moving parts too: the same speed figure and NaN check.
    const jounce::ParticleSystem& ps = world.particles();
    for (std::size_t i = 0; i < ps.slotCount(); ++i) {
        if (!ps.isAlive(i)) continue;
        const double speed = static_cast<double>(ps.v[i].norm());
        if (!std::isfinite(speed) || !ps.x[i].allFinite()) f.nonFinite = true;
        else f.maxParticleSpeed = std::max(f.maxParticleSpeed, speed);
    }
    if (column && !dynamic.empty()) {
        // BENCH_SCENES.md: max over 0.5 - y0 and 1 - (y[i] - y[i-1]), over the whole run.
        double below = 0.5 - static_cast<double>(world.body(dynamic[0]).position.y());
        for (std::size_t i = 1; i < dynamic.size(); ++i)
            below = std::max(below, 1 - static_cast<double>(world.body(dynamic[i]).position.y() -
                                                             world.body(dynamic[i - 1]).position.y()));
        f.maxOverlap = std::max(f.maxOverlap, below);
    }
}

Figures run(jounce::scenes::Scene& scene, const jounce::scenes::BenchLayout* layout, long steps,
            const std::string& name, long observeStep, const std::function<void(const jounce::ResolutionRecord&)>& observer,
            jounce::bench::TaskTrace* trace) {
    Figures f;
    jounce::World& world = scene.world();
    const std::vector<jounce::BodyId> dynamic = layout ? layout->dynamic : dynamicBodies(world);
    f.column = name == "column";
    f.hasTop = layout && !layout->top.isNull();
    const jounce::Vec3 topStart = f.hasTop ? world.body(layout->top).position : jounce::Vec3::Zero();
    std::vector<double> ms, positionIterations, velocityIterations;
    std::map<std::string, std::vector<double>> phases;
    long lastNotAllAsleep = 0;
    for (long i = 0; i < steps; ++i) {
        // --observe-step: the observer is set for that step alone.
        if (observeStep == i + 1) world.setResolverObserver(observer);
        if (observeStep > 0 && observeStep == i) world.setResolverObserver({});
        const auto start = std::chrono::steady_clock::now();
        if (trace) trace->beginStep();
        try {
            scene.step();
        } catch (const jounce::Error& e) {
            f.error = e.what();
            f.nonFinite = true;
            break;
        }
        if (trace) trace->endStep();
        ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
        ++f.steps;
        const jounce::Profile& p = world.profile();
        for (const auto& [phase, value] : {std::pair{"forces", p.forces}, {"integrate", p.integrate},
                                           {"broad_phase", p.broadPhase}, {"narrow_phase", p.narrowPhase},
                                           {"group", p.group}, {"resolve", p.resolve}, {"finish", p.finish},
                                           {"particles", p.particles}, {"particle_contacts", p.particleContacts},
                                           {"particle_project", p.particleProject},
                                           {"particle_integrate", p.particleIntegrate}, {"deformables", p.deformables}, {"sleep", p.sleep},
                                           {"backup", p.backup}, {"events", p.events}})
            phases[phase].push_back(value);
        const jounce::ResolverStats& rs = world.resolverStats();
        positionIterations.push_back(rs.positionIterations);
        velocityIterations.push_back(rs.velocityIterations);
        f.positionIterationsMax = std::max(f.positionIterationsMax, rs.positionIterations);
        f.velocityIterationsMax = std::max(f.velocityIterationsMax, rs.velocityIterations);
        f.shardsMax = std::max(f.shardsMax, rs.shards);
        f.maxPenetration = std::max(f.maxPenetration, static_cast<double>(rs.maxPenetrationBefore));
        bool allAsleep = false;
        sample(world, dynamic, f.column, f, allAsleep);
        if (!allAsleep) lastNotAllAsleep = f.steps;
    }
    static_cast<StepTimes&>(f) = stepTimes(ms);
    for (const auto& [phase, values] : phases) {
        f.msPerPhase[phase] = median(values);
        for (const double v : values) f.msPerPhaseTotal[phase] += v;
    }
    f.positionIterations = median(positionIterations);
    f.velocityIterations = median(velocityIterations);
    f.allAsleepFrom = lastNotAllAsleep < f.steps ? lastNotAllAsleep + 1 : -1;
    f.bodies = world.bodyCount();
    f.dynamic = dynamic.size();
    const double w = layout ? static_cast<double>(layout->binHalfWidth) : 0;
    for (const jounce::BodyId id : dynamic) {
        const jounce::BodyState b = world.body(id);
        if (!b.awake) ++f.asleep;
        const jounce::Vec3& x = b.position;
        const bool outside = w > 0 && (std::abs(static_cast<double>(x.x())) > w || std::abs(static_cast<double>(x.z())) > w);
        if (!(x.y() >= -1) || outside) ++f.escaped;
    }
    if (f.hasTop) {
        const jounce::Vec3 d = world.body(layout->top).position - topStart;
        f.topDy = static_cast<double>(d.y());
        f.topDrift = std::hypot(static_cast<double>(d.x()), static_cast<double>(d.z()));
    }
    f.contacts = world.resolvedContacts().size();
    f.particles = world.particleCount();
    for (std::size_t i = 0; i < world.particles().slotCount(); ++i)
        if (world.particles().isAlive(i)) {
            if (!(world.particles().x[i].y() >= -1)) ++f.particlesBelow;
            if (world.particles().asleep[i]) ++f.particlesAsleep;
        }
    f.constraints = world.distanceConstraintIds().size() + world.particleAttachmentIds().size() +
                    world.particleConstraintIds().size() + world.particleVolumeIds().size() + world.particleClusterIds().size();
    for (const jounce::DeformableId id : world.deformableIds()) {
        f.deformableParticles += world.deformable(id).size();
        f.deformableEdges += world.deformable(id).edges.size();
    }
    f.islands = world.islands().count();
    f.stateHash = 14695981039346656037ull; // FNV-1a: xor a byte in, multiply by the prime
    for (const std::uint8_t byte : world.saveState()) f.stateHash = (f.stateHash ^ byte) * 1099511628211ull;
    return f;
}

std::string hexText(std::uint64_t v) {
    char text[19];
    std::snprintf(text, sizeof text, "0x%016llx", static_cast<unsigned long long>(v));
    return text;
}

void print(const Options& o, const Figures& f) {
    std::vector<std::pair<std::string, std::string>> fields{
        {"scene", jsonString(o.scene)},
        {"sleep", o.noSleep ? "false" : "true"},

        {"steps", std::to_string(f.steps)},
        {"ms_per_step_median", number(f.msMedian)},
        {"ms_per_step_max", number(f.msMax)},
        {"ms_total", number(f.msTotal)},
        {"bodies", std::to_string(f.bodies)},
        {"dynamic", std::to_string(f.dynamic)},
        {"particles", std::to_string(f.particles)},
        {"constraints", std::to_string(f.constraints)},
        {"deformable_particles", std::to_string(f.deformableParticles)},
        {"deformable_edges", std::to_string(f.deformableEdges)},
        {"asleep", std::to_string(f.asleep)},
        {"all_asleep_from", f.allAsleepFrom < 0 ? "null" : std::to_string(f.allAsleepFrom)},
        {"top_dy", f.hasTop ? number(f.topDy) : "null"},
        {"top_drift", f.hasTop ? number(f.topDrift) : "null"},
        {"max_overlap", f.column ? number(f.maxOverlap) : "null"},
        {"max_speed", number(f.maxSpeed)},
        {"max_particle_speed", number(f.maxParticleSpeed)},
        {"particles_escaped", std::to_string(f.particlesBelow)},
        {"particles_asleep", std::to_string(f.particlesAsleep)},
        {"exploded", f.exploded() ? "true" : "false"},
        {"any_nan", f.nonFinite ? "true" : "false"},
        {"escaped", std::to_string(f.escaped)},
        {"contacts", std::to_string(f.contacts)},
        {"islands", std::to_string(f.islands)},
        {"state_hash", jsonString(hexText(f.stateHash))},
        {"threads", std::to_string(o.threads)},
        {"simd", jsonString(jounce::simdName(jounce::simdLevel()))},
        {"max_penetration", number(f.maxPenetration)},
        {"position_iterations", number(f.positionIterations)},
        {"velocity_iterations", number(f.velocityIterations)},
        {"position_iterations_max", std::to_string(f.positionIterationsMax)},
        {"velocity_iterations_max", std::to_string(f.velocityIterationsMax)},
        {"shards", std::to_string(f.shardsMax)},
    };
    if (f.tasks) {
        std::string busy = "[";
        for (const double us : f.tasks->usBusy) busy += (busy.size() > 1 ? ", " : "") + number(us);
        busy += "]";
        fields.emplace_back("tasks_per_step", number(f.tasks->tasksPerStep));
        fields.emplace_back("us_in_tasks_per_step", number(f.tasks->usInTasks));
        fields.emplace_back("us_alone_per_step", number(f.tasks->usAlone));
        fields.emplace_back("us_busy_per_step", busy);
    }
    std::string phases = "{";
    for (const auto& [phase, value] : f.msPerPhase)
        phases += (phases.size() > 1 ? ", " : "") + jsonString(phase) + ": " + number(value);
    phases += "}";
    fields.emplace_back("ms_per_phase", phases);
    std::string totals = "{";
    for (const auto& [phase, value] : f.msPerPhaseTotal)
        totals += (totals.size() > 1 ? ", " : "") + jsonString(phase) + ": " + number(value);
    totals += "}";
    fields.emplace_back("ms_per_phase_total", totals);
    if (f.resolutionRecords >= 0) fields.emplace_back("resolution_records", std::to_string(f.resolutionRecords));
    fields.emplace_back("error", f.error.empty() ? "null" : jsonString(f.error));
    if (o.json) {
        std::string line = "{";
        for (const auto& [key, value] : fields) line += (line.size() > 1 ? ", " : "") + jsonString(key) + ": " + value;
        std::printf("%s}\n", line.c_str());
        return;
    }
    for (const auto& [key, value] : fields) std::printf("%-24s %s\n", key.c_str(), value.c_str());
}

} // namespace

int main(int argc, char** argv) {
    Options o;
    std::string solver;
    bool exportOnly = false;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        auto value = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
        if (arg == "--scene" || arg == "--export-scene") {
            const char* v = value();
            if (!v) return usage((arg + " needs a name").c_str());
            o.scene = v;
            exportOnly = arg == "--export-scene";
        } else if (arg == "--scene-file") {
            const char* v = value();
            if (!v || !jounce::scenes::isSceneFile(v)) return usage("--scene-file needs a path ending in .json");
            o.scene = v;
        } else if (arg == "--steps") {
            const char* v = value();
            char* end = nullptr;
            o.steps = v ? std::strtol(v, &end, 10) : -1;
            if (!v || *end != '\0' || o.steps < 0) return usage("--steps needs a whole number >= 0");
        } else if (arg == "--json") {
            o.json = true;
        } else if (arg == "--no-sleep") {
            o.noSleep = true;
        } else if (arg == "--compare") {
            o.compare = true;
        } else if (arg == "--observe") {
            o.observe = true;
        } else if (arg == "--observe-step") {
            if (i + 1 >= argc) return usage("--observe-step needs a step number");
            o.observeStep = std::atol(argv[++i]);
            if (o.observeStep < 1) return usage("--observe-step counts steps from 1");
            o.observe = true;
        } else if (arg == "--threads") {
            const char* v = value();
            char* end = nullptr;
            const long n = v ? std::strtol(v, &end, 10) : -1;
            if (!v || *end != '\0' || n < 1 || n > 256) return usage("--threads needs a whole number in [1, 256]");
            o.threads = static_cast<std::uint32_t>(n);
        } else if (arg == "--trace-tasks") {
            o.traceTasks = true;
        } else if (arg == "--simd") {
            const char* v = value();
            o.simd = v ? v : "";
            if (o.simd != "scalar" && o.simd != "sse2" && o.simd != "avx2") return usage("--simd is scalar, sse2 or avx2");
        } else if (arg == "--runs") {
            const char* v = value();
            char* end = nullptr;
            const long runs = v ? std::strtol(v, &end, 10) : -1;
            if (!v || *end != '\0' || runs < 1 || runs > 1000) return usage("--runs needs a whole number in [1, 1000]");
            o.runs = static_cast<int>(runs);
        } else if (arg == "--solver") {
            const char* v = value();
            solver = v ? v : "";
            if (solver != "sequential" && solver != "worst-first") return usage("--solver is sequential or worst-first");
        } else if (arg == "--set") {
            const char* v = value();
            const std::string s = v ? v : "";
            const std::size_t eq = s.find('=');
            if (eq == std::string::npos) return usage("--set needs NAME=VALUE");
            o.sets.emplace_back(s.substr(0, eq), s.substr(eq + 1));
        } else if (arg == "--help" || arg == "-h") {
            usage(nullptr);
            return 0;
        } else {
            return usage(("unknown argument " + arg).c_str());
        }
    }
    if (o.scene.empty()) return usage("--scene is required");
    if (o.compare) {
        const bool soft = o.scene == "cloth64" || o.scene == "softcube" || o.scene == "sandpile" || o.scene == "mixed";
        if (!soft && !jounce::scenes::isBenchScene(o.scene)) return usage("--compare runs the benchmark scenes only");
        if (!solver.empty() || o.observe || o.simd != "")
            return usage("--compare runs the other engines at their defaults (no --solver, --simd or --observe; "
                         "--set and --threads change Jounce alone)");
        jounce::bench::JounceOptions jounceOptions;
        jounceOptions.threads = o.threads;
        for (const auto& [name, value] : o.sets) {
            jounce::WorldSettings probe;
            if (!applySet(probe, name, value)) return usage(("cannot set " + name + " to " + value).c_str());
            jounceOptions.described += (jounceOptions.described.empty() ? "" : " ") + name + "=" + value;
        }
        jounceOptions.adjust = [sets = o.sets](jounce::WorldSettings& s) {
            for (const auto& [name, value] : sets) applySet(s, name, value);
        };
#ifdef JOUNCE_BENCH_COMPARE
        if (soft) return jounce::bench::compareSoftBodies(o.scene, o.steps, o.runs, o.json, jounceOptions); // Jounce and Bullet
        return jounce::bench::compareEngines(o.scene, o.steps, !o.noSleep, o.runs, o.json, jounceOptions);
#else
        std::cerr << "jounce-bench: --compare needs Bullet and ODE at build time: apt-get install libbullet-dev "
                     "libode-dev, then build again (./jounce bench installs them)\n";
        return 2;
#endif
    }

    std::unique_ptr<jounce::scenes::Scene> scene;
    const jounce::scenes::BenchLayout* layout = nullptr;
    try {
        if (jounce::scenes::isBenchScene(o.scene)) {
            auto bench = std::make_unique<BenchScene>();
            bench->layout = jounce::scenes::buildBenchScene(*bench, o.scene);
            layout = &bench->layout;
            scene = std::move(bench);
        } else {
            scene = jounce::scenes::makeScene(o.scene);
        }
    } catch (const jounce::Error& e) {
        return usage(e.what());
    }
    if (exportOnly) {
        std::cout << jounce::scenes::exportScene(*scene);
        return 0;
    }
    jounce::WorldSettings settings = scene->world().settings();
    if (o.noSleep) settings.sleep.enabled = false;
    if (solver == "worst-first") settings.resolver.velocitySolver = jounce::VelocitySolver::WorstFirst;
    if (solver == "sequential") settings.resolver.velocitySolver = jounce::VelocitySolver::SequentialImpulses;
    for (const auto& [name, value] : o.sets)
        if (!applySet(settings, name, value)) return usage(("cannot set " + name + " to " + value).c_str());
    try {
        scene->world().setSettings(settings);
    } catch (const jounce::Error& e) {
        return usage(e.what());
    }
    std::optional<jounce::bench::TaskTrace> trace;
    if (o.traceTasks) {
        trace.emplace(o.threads);
        scene->world().setTaskSystem(&*trace);
    } else {
        scene->world().setThreads(o.threads);
    }
    if (o.simd == "scalar") jounce::limitSimd(jounce::SimdLevel::Scalar);
    if (o.simd == "sse2") jounce::limitSimd(jounce::SimdLevel::Sse2);
    // Without an observer the resolver makes no records and never calls notify (its
    // sweeps run in one tight loop); with one, the same updates go one by one.
    long records = 0;
    const auto count = [&records](const jounce::ResolutionRecord&) { ++records; };
    if (o.observe && o.observeStep == 0) scene->world().setResolverObserver(count);
    Figures f = run(*scene, layout, o.steps, o.scene, o.observeStep, count, trace ? &*trace : nullptr);
    if (trace) {
        f.tasks = trace->figures();
        scene->world().setTaskSystem(nullptr); // (the trace goes before the world)
    }
    if (o.observe) f.resolutionRecords = records;
    print(o, f);
    // Non-zero only for a non-finite state or an error: a fast body is a figure
    // (`exploded` follows BENCH_SCENES.md's 50 m/s rule), not a failure of the run.
    return f.nonFinite ? 1 : 0;
}
