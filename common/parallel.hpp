// SPDX-License-Identifier: MIT
#pragma once
// parallelFor: a loop over [0, count) shared among a task system's workers
// (jounce/common/tasks.hpp), for loops whose iterations write disjoint data. Without a
// task system, with one worker or with little work, it is the plain loop.

#include <jounce/common/tasks.hpp>

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

/// Calls body(begin, end) over ranges covering [0, count), each at least `minRange` long.
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

} // namespace jounce::detail
