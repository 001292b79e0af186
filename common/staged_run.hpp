// SPDX-License-Identifier: MIT
#pragma once
// Stages that must run one after another (a sweep's colours, a substep's passes over the
// contact blocks), each cut into items that may run at once, all in one TaskSystem::run:
// the workers go from stage to stage themselves, without a run() and its hand-over for
// every stage (Box2D v3's solver stages work this way). The particle sweeps
// (sweep_levels.hpp) and the contact solver (SoftStepSolver::runStages) run on it.
//
// Each worker walks a stage's items from its own share on (worker w of n starts at item
// w/n of the way), claiming each it reaches that no one has, then the rest around to
// where it started: unhindered, a worker takes the same items stage after stage, and
// their particles stay in its core's cache. It adds what it ran to the stage's count
// once it has been round; whoever completes the count opens the next stage, which the
// others wait for. One worker alone (or a job system that runs the workers one after
// the other) runs every item itself: nothing waits on a worker that is not running.
// What an item computes does not depend on who runs it, so the bits do not either.

#include "common/parallel.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

namespace jounce::detail {

class StagedRun {
public:
    StagedRun() = default;
    /// Scratch: a copy starts empty (its claims belong to the runs of the original).
    StagedRun(const StagedRun&) {}
    StagedRun& operator=(const StagedRun&) { return *this; }

    /// Forgets the stages (keeps the capacity).
    void clear() { stageStart_.assign(1, 0); }
    /// Adds a stage of `items` items (none is allowed: the first worker to reach it
    /// opens the next).
    void addStage(std::uint32_t items) { stageStart_.push_back(stageStart_.back() + items); }
    std::uint32_t stageCount() const { return static_cast<std::uint32_t>(stageStart_.size() - 1); }
    /// Stage s's first item, counted over every stage.
    std::uint32_t firstItem(std::uint32_t s) const { return stageStart_[s]; }

    /// Runs runItem(stage, item) for every item of every stage (item counted from the
    /// stage's first), stage after stage, on the task system's workers. An item that
    /// throws still counts as run (the others go on); the first exception is thrown here
    /// once every worker is done.
    template <class RunItem> void execute(TaskSystem& tasks, const RunItem& runItem) {
        prepare();
        struct Work {
            StagedRun* self;
            const RunItem* runItem;
            std::uint32_t workers;
        } work{this, &runItem, tasks.workerCount()};
        try {
            tasks.run(work.workers, 1, [](std::uint32_t begin, std::uint32_t end, std::uint32_t, void* raw) {
                const Work& w = *static_cast<const Work*>(raw);
                for (std::uint32_t worker = begin; worker < end; ++worker) w.self->walk(worker, w.workers, *w.runItem);
            }, &work);
        } catch (...) {
            failure_ = nullptr; // the job system's own failure: ours is stale
            throw;
        }
        if (failure_) std::rethrow_exception(std::exchange(failure_, nullptr));
    }

private:
    void prepare() {
        const std::size_t items = stageStart_.back(), stages = stageCount();
        // Claims hold the run they were made in, so a new run needs no clearing; a fresh
        // array (or the count wrapping round) starts every claim at 0, which no run is.
        // (The sizes are set after the allocations: one that throws leaves them true.)
        if (claimCount_ < items || ++run_ == 0) {
            const std::size_t grown = std::max(claimCount_, items);
            claims_ = std::make_unique<Counter[]>(grown);
            claimCount_ = grown;
            run_ = 1;
        }
        if (finishedCount_ < stages) {
            finished_ = std::make_unique<Counter[]>(stages);
            finishedCount_ = stages;
        }
        for (std::size_t s = 0; s < stages; ++s) finished_[s].value.store(0, std::memory_order_relaxed);
        stageNow_.store(0, std::memory_order_release);
    }

    template <class RunItem> void walk(std::uint32_t worker, std::uint32_t workers, const RunItem& runItem) {
        const std::uint32_t count = stageCount();
        std::uint32_t s = stageNow_.load(std::memory_order_acquire);
        while (s < count) {
            const std::uint32_t first = stageStart_[s], items = stageStart_[s + 1] - first;
            const auto start = static_cast<std::uint32_t>(std::uint64_t{worker} * items / workers);
            std::uint32_t ran = 0;
            for (std::uint32_t k = 0; k < items; ++k) {
                const std::uint32_t item = first + (start + k < items ? start + k : start + k - items);
                std::atomic<std::uint32_t>& claim = claims_[item].value;
                if (claim.load(std::memory_order_relaxed) == run_ || claim.exchange(run_, std::memory_order_relaxed) == run_)
                    continue; // another worker's
                try {
                    runItem(s, item - first);
                } catch (...) {
                    const std::lock_guard<std::mutex> lock(failureLock_);
                    if (!failure_) failure_ = std::current_exception();
                }
                ++ran;
            }
            // Whoever completes the count (for a stage of none, whoever comes first) opens
            // the next stage: stageNow_ only ever moves from s to s + 1.
            if (items == 0 || (ran > 0 && finished_[s].value.fetch_add(ran, std::memory_order_acq_rel) + ran == items)) {
                std::uint32_t open = s;
                stageNow_.compare_exchange_strong(open, s + 1, std::memory_order_acq_rel, std::memory_order_acquire);
            }
            std::uint32_t now = stageNow_.load(std::memory_order_acquire);
            for (int spin = 0; now == s; ++spin) {
                waitTurn(spin);
                now = stageNow_.load(std::memory_order_acquire);
            }
            s = now;
        }
    }

    /// One to a cache line: the workers claim neighbouring items and count stages at the
    /// same moments, and a shared line would travel between their cores each time.
    struct alignas(64) Counter {
        std::atomic<std::uint32_t> value{0};
    };
    std::vector<std::uint32_t> stageStart_ = {0}; ///< stage s: items [stageStart_[s], stageStart_[s + 1])
    std::unique_ptr<Counter[]> claims_;   ///< per item: the run that claimed it
    std::size_t claimCount_ = 0;
    std::uint32_t run_ = 0;
    std::unique_ptr<Counter[]> finished_; ///< per stage: items run
    std::size_t finishedCount_ = 0;
    std::atomic<std::uint32_t> stageNow_{0};
    std::mutex failureLock_;
    std::exception_ptr failure_;
};

} // namespace jounce::detail
