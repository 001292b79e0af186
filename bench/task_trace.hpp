// SPDX-License-Identifier: MIT
#pragma once
// A task system that times what it runs (jounce-bench --trace-tasks): the default pool,
// with a clock around each task and each range. It tells how a step on several threads
// spends its time: in tasks (and how busy each worker was in them), or on the calling
// thread alone between tasks, while the workers wait (the step's serial part, which
// bounds what more threads can gain).

#include <jounce/common/tasks.hpp>

#include <chrono>
#include <cstdint>
#include <vector>

namespace jounce::bench {

class TaskTrace final : public TaskSystem {
public:
    explicit TaskTrace(std::uint32_t threads) : pool_(threads), busy_(threads) {}

    std::uint32_t workerCount() const override { return pool_.workerCount(); }

    void run(std::uint32_t count, std::uint32_t minRange, TaskFunction fn, void* context) override {
        const double start = now();
        alone_ += start - last_;
        ++tasks_;
        Call call{fn, context, this};
        pool_.run(count, minRange, [](std::uint32_t begin, std::uint32_t end, std::uint32_t worker, void* raw) {
            Call& c = *static_cast<Call*>(raw);
            const double from = now();
            c.fn(begin, end, worker, c.context);
            c.trace->busy_[worker].us += now() - from; // (each worker its own line)
        }, &call);
        last_ = now();
        inTasks_ += last_ - start;
    }

    /// Around each World::step: what the calling thread does between them is not counted.
    void beginStep() { last_ = now(); }
    void endStep() {
        alone_ += now() - last_;
        ++steps_;
    }

    struct Figures {
        double tasksPerStep = 0;
        double usInTasks = 0;        ///< a step's time inside tasks [us]
        double usAlone = 0;          ///< a step's time on the calling thread alone, between tasks [us]
        std::vector<double> usBusy;  ///< per worker, a step's time running ranges [us]
    };
    Figures figures() const {
        Figures f;
        const double steps = steps_ > 0 ? static_cast<double>(steps_) : 1;
        f.tasksPerStep = static_cast<double>(tasks_) / steps;
        f.usInTasks = inTasks_ / steps;
        f.usAlone = alone_ / steps;
        for (const Busy& b : busy_) f.usBusy.push_back(b.us / steps);
        return f;
    }

private:
    struct Call {
        TaskFunction fn;
        void* context;
        TaskTrace* trace;
    };
    struct alignas(64) Busy {
        double us = 0;
    };
    static double now() {
        return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count();
    }
    ThreadPool pool_;
    std::vector<Busy> busy_;
    double last_ = 0, alone_ = 0, inTasks_ = 0;
    long tasks_ = 0, steps_ = 0;
};

} // namespace jounce::bench
