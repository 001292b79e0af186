// SPDX-License-Identifier: MIT
// The default task system (jounce::ThreadPool, common/thread_pool.cpp): every range
// runs once, a range's exception reaches the caller after the rest have run, the
// workers run under the caller's floating-point rounding, two callers take turns.

#include <jounce/jounce.hpp>

#include "common/staged_run.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <cfenv>
#include <chrono>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

using namespace jounce;

namespace {

struct Record {
    std::vector<std::atomic<int>> runs;
    std::atomic<int> otherRounding{0};
    int rounding = FE_TONEAREST;
    std::uint32_t throwAt = ~0u;
    explicit Record(std::size_t n) : runs(n) {}
};

void visit(std::uint32_t begin, std::uint32_t end, std::uint32_t, void* context) {
    Record& r = *static_cast<Record*>(context);
    for (std::uint32_t i = begin; i < end; ++i) {
        r.runs[i].fetch_add(1);
        if (std::fegetround() != r.rounding) r.otherRounding.fetch_add(1);
        if (i == r.throwAt) throw std::runtime_error("range failed");
    }
}

} // namespace

TEST_CASE("the thread pool runs every item once, on every worker count", "[physics]") {
    for (const std::uint32_t threads : {1u, 2u, 3u, 8u}) {
        ThreadPool pool(threads);
        Record r(1000);
        pool.run(1000, 7, &visit, &r);
        int wrong = 0;
        for (const auto& n : r.runs) wrong += n.load() != 1;
        INFO(threads << " threads");
        CHECK(wrong == 0);
    }
}

TEST_CASE("the thread pool evens its ranges out, none shorter than half the least range", "[physics]") {
    // 1500 items at 1024 a range: two of 750, not 1024 and 476 (the worker with the
    // first would run twice as long as the other). 1000 at 7 on 2 threads: 8 ranges of 125.
    struct Lengths {
        std::mutex mutex;
        std::vector<std::uint32_t> seen;
    };
    const auto record = [](std::uint32_t begin, std::uint32_t end, std::uint32_t, void* context) {
        Lengths& l = *static_cast<Lengths*>(context);
        std::lock_guard lock(l.mutex);
        l.seen.push_back(end - begin);
    };
    ThreadPool pool(2);
    Lengths big;
    pool.run(1500, 1024, record, &big);
    CHECK(big.seen == std::vector<std::uint32_t>{750, 750});
    Lengths small;
    pool.run(1000, 7, record, &small);
    CHECK(small.seen == std::vector<std::uint32_t>(8, 125));
}

TEST_CASE("the thread pool gives each worker its own share first, and back-to-back jobs run every range once", "[physics]") {
    // Worker w of n starts w/n of the way along: with ranges slow enough that the other
    // worker is up before the caller gets there, the caller runs the first range and
    // worker 1 the fifth of eight (the same items go to the same worker job after job).
    struct Owners {
        std::mutex mutex;
        std::vector<std::uint32_t> worker = std::vector<std::uint32_t>(8, 99);
    };
    const auto slow = [](std::uint32_t begin, std::uint32_t, std::uint32_t worker, void* context) {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
        Owners& o = *static_cast<Owners*>(context);
        std::lock_guard lock(o.mutex);
        o.worker[begin] = worker;
    };
    ThreadPool pool(2);
    bool ownShare = false;
    for (int attempt = 0; attempt < 5 && !ownShare; ++attempt) { // a loaded machine may hold the worker back
        Owners o;
        pool.run(8, 1, slow, &o);
        ownShare = o.worker[0] == 0u && o.worker[4] == 1u;
    }
    CHECK(ownShare);
    // A worker still walking the last job when the next is posted claims nothing of it:
    // jobs of 1 to 12 ranges, back to back, each range once.
    for (const std::uint32_t threads : {2u, 3u}) {
        ThreadPool many(threads);
        int wrong = 0;
        for (int job = 0; job < 3000; ++job) {
            const auto count = static_cast<std::uint32_t>(1 + job % 12);
            Record r(count);
            many.run(count, 1, &visit, &r);
            for (const auto& n : r.runs) wrong += n.load() != 1;
        }
        INFO(threads << " threads");
        CHECK(wrong == 0);
    }
}

TEST_CASE("a range's exception reaches run()'s caller once every other range has run", "[physics]") {
    ThreadPool pool(3);
    Record r(500);
    r.throwAt = 123;
    CHECK_THROWS_WITH(pool.run(500, 5, &visit, &r), "range failed");
    // Every item ran once but the failed range's after 123 (the range stops at its
    // throw): those are the ones right after it, and the ranges after that all ran.
    int missed = 0;
    std::uint32_t i = 0;
    for (; i <= 123; ++i) missed += r.runs[i].load() != 1;
    while (i < 500 && r.runs[i].load() == 0) ++i; // the rest of the failed range
    CHECK(i - 124 < 42);                          // at most a range's worth
    for (; i < 500; ++i) missed += r.runs[i].load() != 1;
    CHECK(missed == 0);
    Record again(100); // the pool still works
    pool.run(100, 1, &visit, &again);
    for (const auto& n : again.runs) CHECK(n.load() == 1);
}

TEST_CASE("the workers run under the caller's rounding mode", "[physics]") {
    ThreadPool pool(2);
    const int before = std::fegetround();
    std::fesetround(FE_DOWNWARD);
    Record r(4000);
    r.rounding = FE_DOWNWARD;
    pool.run(4000, 1, &visit, &r);
    std::fesetround(before);
    CHECK(r.otherRounding.load() == 0);
}

TEST_CASE("two threads may call run() on one pool at once", "[physics]") {
    ThreadPool pool(2);
    Record a(3000), b(3000);
    std::thread other([&] { pool.run(3000, 3, &visit, &b); });
    pool.run(3000, 3, &visit, &a);
    other.join();
    int wrong = 0;
    for (std::uint32_t i = 0; i < 3000; ++i) wrong += (a.runs[i].load() != 1) + (b.runs[i].load() != 1);
    CHECK(wrong == 0);
}

TEST_CASE("a bad thread count is an error naming threads", "[physics]") {
    CHECK_THROWS_WITH(ThreadPool(0), Catch::Contains("threads"));
    CHECK_THROWS_WITH(ThreadPool(257), Catch::Contains("threads"));
}

namespace {

/// A job system that runs the workers' ranges one after the other on the caller (a
/// game's may): a stage's waiting worker must not hold the run up.
class OneAfterAnother final : public TaskSystem {
public:
    explicit OneAfterAnother(std::uint32_t workers) : workers_(workers) {}
    std::uint32_t workerCount() const override { return workers_; }
    void run(std::uint32_t count, std::uint32_t minRange, TaskFunction fn, void* context) override {
        for (std::uint32_t begin = 0; begin < count; begin += minRange) fn(begin, std::min(count, begin + minRange), 0, context);
    }

private:
    std::uint32_t workers_;
};

/// Stage s's item k adds every earlier stage's items (any item run early reads a stage
/// not yet done) to 1: the sums are right only if every stage waits for the last, empty
/// stages included.
std::vector<std::uint64_t> runChain(TaskSystem& tasks, detail::StagedRun& staged, const std::vector<std::uint32_t>& items) {
    staged.clear();
    std::vector<std::uint32_t> first;
    std::uint32_t total = 0;
    for (const std::uint32_t n : items) {
        first.push_back(total);
        staged.addStage(n);
        total += n;
    }
    std::vector<std::uint64_t> value(total, 0);
    for (std::uint32_t s = 0; s < items.size(); ++s) REQUIRE(staged.firstItem(s) == first[s]);
    staged.execute(tasks, [&](std::uint32_t s, std::uint32_t k) { // (no Catch2 assertion on a worker)
        std::uint64_t sum = 1;
        for (std::uint32_t i = 0; i < first[s]; ++i) sum += value[i];
        value[first[s] + k] = sum;
    });
    return value;
}

} // namespace

TEST_CASE("staged runs: every stage after the last, on any worker count and job system", "[particles]") {
    // The particle sweeps' colours run as stages of one hand-over (common/staged_run.hpp).
    // A stage of 1 waits like any other; a stage of none (first, between, last) is
    // opened past by the first worker to reach it.
    const std::vector<std::uint32_t> items = {0, 3, 1, 4, 0, 1, 5, 9, 0, 0, 2, 6, 0};
    ThreadPool one(1);
    detail::StagedRun staged;
    const std::vector<std::uint64_t> expected = runChain(one, staged, items);
    // By hand: each item 1 + the sum of every earlier stage's items.
    std::vector<std::uint64_t> byHand;
    std::uint64_t before = 0;
    for (std::size_t s = 0; s < items.size(); ++s) {
        const std::uint64_t each = 1 + before;
        for (std::uint32_t k = 0; k < items[s]; ++k) byHand.push_back(each);
        before += each * items[s];
    }
    CHECK(staged.stageCount() == items.size());
    REQUIRE(expected == byHand);
    for (const std::uint32_t threads : {2u, 3u, 4u}) {
        ThreadPool pool(threads);
        for (int run = 0; run < 50; ++run) REQUIRE(runChain(pool, staged, items) == byHand);
        OneAfterAnother serial(threads);
        REQUIRE(runChain(serial, staged, items) == byHand);
    }
}

TEST_CASE("staged runs: an item's exception reaches the caller after every item has run", "[particles]") {
    ThreadPool pool(2);
    detail::StagedRun staged;
    staged.clear();
    for (int s = 0; s < 4; ++s) staged.addStage(8);
    std::vector<std::atomic<int>> ran(32);
    REQUIRE_THROWS_AS(staged.execute(pool, [&](std::uint32_t stage, std::uint32_t item) {
        ++ran[8 * stage + item];
        if (stage == 1 && item == 1) throw std::runtime_error("item 9");
    }), std::runtime_error);
    for (const std::atomic<int>& r : ran) CHECK(r.load() == 1);
    // And the next run starts clean.
    for (std::atomic<int>& r : ran) r = 0;
    staged.execute(pool, [&](std::uint32_t stage, std::uint32_t item) { ++ran[8 * stage + item]; });
    for (const std::atomic<int>& r : ran) CHECK(r.load() == 1);
}
