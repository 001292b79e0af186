// SPDX-License-Identifier: MIT
// The default task system (jounce/common/tasks.hpp): a task's items are cut into
// ranges, a few per worker, and each worker, the caller included, walks the ranges from
// its own share on (worker w of n starts w/n of the way along), claiming every range it
// reaches that no one has, then round to where it started. Unhindered, worker w runs
// the same part of the items in every task: the step's parallel loops pass over the
// same bodies and contacts in the same order, so each core finds its part in its own
// cache (on the machine of docs/benchmarks.md, "Two threads", a cache line another core
// wrote takes ~170 ns to fetch). Workers wait for the next task spinning for
// a while (the solver runs many short tasks a step) and then on a condition variable.
//
// Each job carries the caller's floating-point control state (rounding, flush-to-zero,
// the exceptions that trap), which the workers take on before they run a range: a game
// that sets flush-to-zero gets the same bits from a range whichever thread ran it. An
// exception thrown by a range is kept (the first one) and rethrown by run() once every
// range is over, on the caller's thread.

#include <jounce/common/error.hpp>
#include <jounce/common/tasks.hpp>

#include "common/parallel.hpp"

#include <algorithm>
#include <cfenv>
#include <exception>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace jounce {

namespace detail {

/// The floating-point control state a job runs under (not the raised flags).
struct FloatControl {
    int rounding = FE_TONEAREST;
#if defined(__x86_64__)
    unsigned csr = 0x1f80; ///< MXCSR with its flag bits cleared: masks, rounding, FTZ, DAZ
#endif
    static FloatControl current() {
        FloatControl c;
        c.rounding = std::fegetround();
#if defined(__x86_64__)
        c.csr = _mm_getcsr() & ~0x3fu;
#endif
        return c;
    }
    void apply() const {
#if defined(__x86_64__)
        _mm_setcsr(csr);
#endif
        std::fesetround(rounding);
    }
};

} // namespace detail

struct ThreadPool::State {
    /// A task as run() posts it (read and written under the mutex).
    struct Job {
        TaskFunction fn = nullptr;
        void* context = nullptr;
        std::uint32_t count = 0, range = 1, ranges = 0;
        std::uint64_t generation = 0; ///< 64 bits: never wraps round to an old job's
        detail::FloatControl control;
    };
    /// Per range: the generation of the last job that claimed it. One to a cache line: the
    /// workers claim at the same moments.
    struct alignas(64) Claim {
        std::atomic<std::uint64_t> generation{0};
    };
    static constexpr std::uint32_t rangesPerWorker = 4;
    std::uint32_t workers = 1;
    std::vector<std::thread> threads;
    std::mutex mutex;
    std::condition_variable wake;
    Job job;
    std::atomic<std::uint64_t> posted{0};  ///< the last job's generation
    /// rangesPerWorker * workers of them (a job has at most that many ranges). A range
    /// is claimed by raising its generation to the job's: a worker still holding an older
    /// job finds every range at its own generation or above and claims nothing.
    std::unique_ptr<Claim[]> claims;
    std::atomic<std::uint32_t> done{0};     ///< ranges of the current job finished
    std::atomic<bool> stop{false};
    std::mutex running;                     ///< one run() at a time (two worlds may share a pool)
    std::exception_ptr failure;             ///< the first exception of the current job (under `mutex`)

    /// Whether this worker takes range r of job j (no one else has).
    bool claim(const Job& j, std::uint32_t r) {
        std::atomic<std::uint64_t>& c = claims[r].generation;
        std::uint64_t seen = c.load(std::memory_order_relaxed);
        while (seen < j.generation)
            if (c.compare_exchange_weak(seen, j.generation, std::memory_order_acq_rel, std::memory_order_relaxed)) return true;
        return false;
    }

    /// Runs the ranges of `j` no one has claimed, from this worker's share on.
    void work(const Job& j, std::uint32_t worker) {
        const auto start = static_cast<std::uint32_t>(std::uint64_t{worker} * j.ranges / workers);
        for (std::uint32_t k = 0; k < j.ranges; ++k) {
            const std::uint32_t r = start + k < j.ranges ? start + k : start + k - j.ranges;
            if (!claim(j, r)) continue;
            const std::uint32_t begin = r * j.range;
            try {
                j.fn(begin, std::min(j.count, begin + j.range), worker, j.context);
            } catch (...) {
                std::lock_guard lock(mutex);
                if (!failure) failure = std::current_exception();
            }
            done.fetch_add(1, std::memory_order_acq_rel);
        }
    }

    void loop(std::uint32_t worker) {
        std::uint64_t seen = 0;
        for (;;) {
            // Spin a little for the next job (the step runs several, close together),
            // then sleep until run() or the destructor wakes us.
            for (int spin = 0; posted.load(std::memory_order_acquire) == seen && spin < 20000; ++spin)
                if (stop.load(std::memory_order_relaxed))
                    return;
                else
                    detail::waitTurn(spin, 10000);
            Job j;
            {
                std::unique_lock lock(mutex);
                wake.wait(lock, [&] { return stop.load() || job.generation != seen; });
                if (stop.load()) return;
                j = job;
            }
            seen = j.generation;
            j.control.apply();
            work(j, worker);
        }
    }
};

ThreadPool::ThreadPool(std::uint32_t threads) : state_(std::make_unique<State>()) {
    if (threads < 1 || threads > 256)
        throw Error("threads", std::to_string(threads), "must be 1 to 256");
    state_->workers = threads;
    state_->claims = std::make_unique<State::Claim[]>(State::rangesPerWorker * threads);
    try {
        for (std::uint32_t w = 1; w < threads; ++w) state_->threads.emplace_back([this, w] { state_->loop(w); });
    } catch (const std::exception& e) { // the system would not start another thread
        stopAll();
        throw Error("threads", std::to_string(threads), std::string("could not start the threads: ") + e.what());
    }
}

void ThreadPool::stopAll() {
    {
        std::lock_guard lock(state_->mutex);
        state_->stop = true;
    }
    state_->wake.notify_all();
    for (std::thread& t : state_->threads) t.join();
    state_->threads.clear();
}

ThreadPool::~ThreadPool() { stopAll(); }

std::uint32_t ThreadPool::workerCount() const { return state_->workers; }

void ThreadPool::run(std::uint32_t count, std::uint32_t minRange, TaskFunction fn, void* context) {
    if (count == 0) return;
    State& s = *state_;
    std::lock_guard one(s.running);
    using Job = State::Job;
    const std::uint32_t range = std::max<std::uint32_t>(minRange, 1);
    if (s.workers == 1 || count <= range) {
        fn(0, count, 0, context);
        return;
    }
    // A few ranges per worker: a slow worker then holds up the rest by a small part.
    Job j;
    j.fn = fn;
    j.context = context;
    j.count = count;
    const std::uint32_t most = State::rangesPerWorker * s.workers;
    j.range = std::max(range, (count + most - 1) / most);
    j.ranges = (count + j.range - 1) / j.range;
    // Evened out: 1500 items in ranges of 1024 would be 1024 and 476, the worker that
    // took the first running twice as long as the other.
    j.range = (count + j.ranges - 1) / j.ranges;
    j.control = detail::FloatControl::current();
    {
        std::lock_guard lock(s.mutex);
        j.generation = s.job.generation + 1;
        s.job = j;
        s.failure = nullptr;
        s.done.store(0, std::memory_order_relaxed);
        s.posted.store(j.generation, std::memory_order_release);
    }
    s.wake.notify_all();
    s.work(j, 0);
    for (int spin = 0; s.done.load(std::memory_order_acquire) < j.ranges; ++spin) detail::waitTurn(spin);
    std::exception_ptr failure;
    {
        std::lock_guard lock(s.mutex);
        std::swap(failure, s.failure);
    }
    if (failure) std::rethrow_exception(failure);
}

} // namespace jounce
