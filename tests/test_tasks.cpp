// SPDX-License-Identifier: MIT
// The default task system (jounce::ThreadPool, common/thread_pool.cpp): every range
// runs once, a range's exception reaches the caller after the rest have run, the
// workers run under the caller's floating-point rounding, two callers take turns.

#include <jounce/jounce.hpp>

#include <catch2/catch.hpp>

#include <atomic>
#include <cfenv>
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
