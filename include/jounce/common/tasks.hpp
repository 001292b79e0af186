// SPDX-License-Identifier: MIT
#pragma once
/// \file tasks.hpp
/// How a world shares its step among threads: a task system a game can plug its own
/// job system into (Box2D v3's enqueue/finish callbacks and Jolt's JobSystem are the
/// models), and a default pool on std::thread.
///
/// A task is a function over items [0, count); the system may run its ranges on any of
/// its workers, in any order, at once or one after the other. Jounce only gives tasks
/// whose items write to different data, and puts the results together in item order,
/// so a step's result is the same bits for any number of workers, and for any job
/// system that runs every range exactly once.

#include <cstdint>
#include <memory>

namespace jounce {

/// fn(begin, end, worker, context): the items [begin, end), run by worker `worker`
/// (< TaskSystem::workerCount()).
using TaskFunction = void (*)(std::uint32_t begin, std::uint32_t end, std::uint32_t worker, void* context);

class TaskSystem {
public:
    virtual ~TaskSystem() = default;
    /// How many workers may run ranges at once, the calling thread included (>= 1).
    virtual std::uint32_t workerCount() const = 0;
    /// Runs fn over [0, count) in ranges of about `minRange` items or more, never fewer
    /// than half of it (the last may be shorter: the default pool evens the ranges out, so
    /// 1500 items at 1024 go as two of 750), and returns when every range has run. Workers are numbered from 0 to
    /// workerCount() - 1; no two ranges run at once on the same worker number. A range
    /// may throw (a step that meets an overflow does): run() must still let every other
    /// range finish, then pass one of the exceptions on to its caller. The ranges must
    /// run under the caller's floating-point control state (rounding, flush-to-zero),
    /// or the results differ from a run on one thread.
    virtual void run(std::uint32_t count, std::uint32_t minRange, TaskFunction fn, void* context) = 0;
};

/// The default task system: `threads` workers in all, the calling thread and
/// threads - 1 std::threads, which spin briefly between tasks and then sleep. Several
/// threads may call run() on one pool (two worlds sharing it): the calls take turns.
class ThreadPool final : public TaskSystem {
public:
    /// threads: 1 to 256 (1: everything runs on the calling thread).
    explicit ThreadPool(std::uint32_t threads);
    ~ThreadPool() override;
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    std::uint32_t workerCount() const override;
    void run(std::uint32_t count, std::uint32_t minRange, TaskFunction fn, void* context) override;

private:
    void stopAll();
    struct State;
    std::unique_ptr<State> state_;
};

} // namespace jounce
