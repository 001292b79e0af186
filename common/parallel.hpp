// SPDX-License-Identifier: MIT
#pragma once
// parallelFor: a loop over [0, count) shared among a task system's workers
// (jounce/common/tasks.hpp), for loops whose iterations write disjoint data. Without a
// task system, with one worker or with little work, it is the plain loop.

#include <jounce/common/tasks.hpp>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <type_traits>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif
#include <thread>

namespace jounce::detail {

/// One turn of a wait loop: the processor's pause hint (it saves power and lets the
/// other hyperthread run) for the first `spins`, then a yield to the scheduler.
inline void waitTurn(int spin, int spins = 2000) {
    if (spin < spins) {
#if defined(__x86_64__) || defined(__i386__)
        _mm_pause();
#endif
    } else {
        std::this_thread::yield();
    }
}

/// `value` into `kept` if it is lower (keepLowest) or higher (keepHighest) than what is
/// there: where the workers' finds meet. The result is the same whatever order they
/// arrive in (for reals, but for which of -0 and +0 stays when they tie).
template <class T> void keepLowest(std::atomic<T>& kept, T value) {
    T now = kept.load(std::memory_order_relaxed);
    while (value < now && !kept.compare_exchange_weak(now, value, std::memory_order_relaxed)) {
    }
}
template <class T> void keepHighest(std::atomic<T>& kept, T value) {
    T now = kept.load(std::memory_order_relaxed);
    while (value > now && !kept.compare_exchange_weak(now, value, std::memory_order_relaxed)) {
    }
}

/// Calls body(begin, end) over ranges covering [0, count), each about `minRange` long or
/// longer (TaskSystem::run).
template <class Body> void parallelFor(TaskSystem* tasks, std::uint32_t count, std::uint32_t minRange, Body&& body) {
    if (tasks == nullptr || tasks->workerCount() < 2 || count <= minRange) {
        body(std::uint32_t{0}, count);
        return;
    }
    using B = std::remove_reference_t<Body>;
    tasks->run(count, minRange, [](std::uint32_t begin, std::uint32_t end, std::uint32_t, void* context) {
        (*static_cast<B*>(context))(begin, end);
    }, const_cast<std::remove_const_t<B>*>(&body));
}

/// As parallelFor, with the number of the worker running the range (below
/// tasks->workerCount(); 0 without tasks) as body(begin, end, worker): for loops that
/// need scratch of their own per worker.
template <class Body> void parallelForWorkers(TaskSystem* tasks, std::uint32_t count, std::uint32_t minRange, Body&& body) {
    if (tasks == nullptr || tasks->workerCount() < 2 || count <= minRange) {
        body(std::uint32_t{0}, count, std::uint32_t{0});
        return;
    }
    using B = std::remove_reference_t<Body>;
    tasks->run(count, minRange, [](std::uint32_t begin, std::uint32_t end, std::uint32_t worker, void* context) {
        (*static_cast<B*>(context))(begin, end, worker);
    }, const_cast<std::remove_const_t<B>*>(&body));
}

/// Calls body(begin, end) over [0, count) cut into one share per worker (fewer if a
/// share would hold less than `minShare`), share k the k-th part: one share per worker
/// whatever the task system's ranges, so the same part of the data goes to the same
/// share every time, and with the default pool (each worker starting at its own share)
/// mostly to the same thread: for passes that run many times over the same data (a
/// sweep's colours, the particles in every small step), whose cache lines then mostly
/// stay in one core's cache.
template <class Body> void parallelShares(TaskSystem* tasks, std::uint32_t count, std::uint32_t minShare, Body&& body) {
    const std::uint32_t workers = tasks == nullptr ? 1 : tasks->workerCount();
    const std::uint32_t shares = std::min(workers, count / (minShare > 0 ? minShare : 1));
    if (shares < 2) {
        body(std::uint32_t{0}, count);
        return;
    }
    parallelFor(tasks, shares, 1, [&](std::uint32_t first, std::uint32_t last) {
        for (std::uint32_t k = first; k < last; ++k)
            body(static_cast<std::uint32_t>(std::uint64_t{count} * k / shares), static_cast<std::uint32_t>(std::uint64_t{count} * (k + 1) / shares));
    });
}

} // namespace jounce::detail
