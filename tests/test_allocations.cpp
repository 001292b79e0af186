// SPDX-License-Identifier: MIT
// Allocations inside World::step, counted by replacing the global operator new in this
// test binary (its own executable, so the other tests run with the plain allocator).
// Issue 7: once a scene has settled, a step allocates nothing: every buffer the step
// uses keeps its capacity from one step to the next.
//
// JOUNCE_ALLOC_TRACE=1 prints a backtrace for every counted allocation (to find one).

#include "helpers.hpp"
#include "scene_helpers.hpp"
#include "scenes/bench_scenes.hpp"

#include <catch2/catch.hpp>

#include <atomic>
#include <cstdlib>
#include <execinfo.h>
#include <new>
#include <string_view>
#include <unistd.h>

namespace {

std::atomic<bool> counting{false};
std::atomic<long> allocations{0};

void* allocate(std::size_t size) {
    if (counting.load(std::memory_order_relaxed)) {
        allocations.fetch_add(1, std::memory_order_relaxed);
        static const bool trace = std::getenv("JOUNCE_ALLOC_TRACE") != nullptr;
        if (trace) {
            counting = false; // backtrace itself may allocate
            void* frames[24];
            const int n = backtrace(frames, 24);
            backtrace_symbols_fd(frames, n, STDERR_FILENO);
            (void)write(STDERR_FILENO, "----\n", 5);
            counting = true;
        }
    }
    if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
    throw std::bad_alloc();
}

} // namespace

// Every form of new and delete is replaced, so none mixes with the runtime's own (the
// sanitizers check that what operator new handed out goes back through operator delete).
void* operator new(std::size_t size) { return allocate(size); }
void* operator new[](std::size_t size) { return allocate(size); }
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
    try {
        return allocate(size);
    } catch (...) {
        return nullptr;
    }
}
void* operator new[](std::size_t size, const std::nothrow_t& tag) noexcept { return operator new(size, tag); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }

using namespace jounce;

namespace {

/// Allocations made by `steps` steps of a scene after `settle` steps.
long allocationsAfterSettling(const char* name, bool sleep, int settle, int steps, bool softStep = false,
                              std::uint32_t threads = 1) {
    testing::TestScene scene(sleep);
    scenes::buildBenchScene(scene, name);
    if (softStep) {
        WorldSettings s = scene.world().settings();
        s.resolver.solver = ContactSolver::SoftStep;
        scene.world().setSettings(s);
    }
    scene.world().setThreads(threads);
    for (int i = 0; i < settle; ++i) scene.step();
    allocations = 0;
    counting = true;
    for (int i = 0; i < steps; ++i) scene.step();
    counting = false;
    return allocations.load();
}

} // namespace

TEST_CASE("no allocation inside World::step once a scene has settled", "[physics][scene]") {
    // The counter counts: the control allocates under it.
    counting = true;
    auto* probe = new std::vector<int>(100);
    counting = false;
    delete probe;
    REQUIRE(allocations.load() >= 1);

    // Settled: the stacks stand still, and the pile is asleep (falling asleep itself
    // records links between the sleeping bodies). Awake, a pile is never quite settled:
    // in single precision a box of pile250 still finds a new neighbour after 480 steps,
    // and the contact buffers grow once. Sanitized builds run the column only (what
    // they check, the allocator's bookkeeping, does not depend on the scene).
    const bool sanitized = testing::sanitizedStepDivisor > 1;
    for (const bool sleep : {false, true}) {
        for (const char* name : {"column", "pyramid10", "pile250"}) {
            if ((sanitized || !sleep) && std::string_view(name) == "pile250") continue;
            if (sanitized && std::string_view(name) != "column") continue;
            INFO(name << (sleep ? ", sleep on" : ", sleep off"));
            CHECK(allocationsAfterSettling(name, sleep, sanitized ? 120 : 480, sanitized ? 20 : 60) == 0);
        }
    }
    // The soft step's coloured blocks on two threads (pyramid20 is past every threshold
    // for sharing the work out): the blocks, stages and the pool's tasks reuse their
    // buffers too.
    if (!sanitized) {
        INFO("pyramid20, soft step, two threads, sleep off");
        CHECK(allocationsAfterSettling("pyramid20", false, 480, 60, true, 2) == 0);
    }
}
