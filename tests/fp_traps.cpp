// SPDX-License-Identifier: MIT
// Floating-point traps for the whole jounce-tests suite (docs/reliability.md): every
// test case runs with invalid (0/0, inf - inf, sqrt(-1), an ordered comparison with
// NaN), divide-by-zero and overflow raising SIGFPE where they happen, instead of a NaN
// turning up a thousand steps later. Underflow and inexact stay quiet: denormals and
// rounding are ordinary arithmetic.
//
// JOUNCE_FP_TRAPS=0 turns them off (to see a test's own failure message first).

#include "fp_traps.hpp"

#define CATCH_CONFIG_EXTERNAL_INTERFACES // Catch2 v2: declares the listener base class
#include <catch2/catch.hpp>

#include <cfenv>
#include <cstdlib>
#include <cstring>


namespace testing {

namespace {

constexpr int trappedExceptions = FE_INVALID | FE_DIVBYZERO | FE_OVERFLOW;

bool trapsWanted() {
    const char* env = std::getenv("JOUNCE_FP_TRAPS");
    return env == nullptr || std::strcmp(env, "0") != 0;
}

} // namespace

FpTrapsOff::FpTrapsOff() : previous_(fegetexcept()) {
    std::feclearexcept(FE_ALL_EXCEPT);
    fedisableexcept(FE_ALL_EXCEPT);
}

FpTrapsOff::~FpTrapsOff() {
    std::feclearexcept(FE_ALL_EXCEPT); // the flags raised while off must not fire later
    feenableexcept(previous_);
}

namespace {

class FpTrapListener : public Catch::TestEventListenerBase {
public:
    using TestEventListenerBase::TestEventListenerBase;

    void testCaseStarting(const Catch::TestCaseInfo& info) override {
        TestEventListenerBase::testCaseStarting(info);
        previous_ = fegetexcept();
        if (!trapsWanted()) return;
        std::feclearexcept(FE_ALL_EXCEPT);
        feenableexcept(trappedExceptions);
    }
    void testCaseEnded(const Catch::TestCaseStats& stats) override {
        fedisableexcept(FE_ALL_EXCEPT);
        std::feclearexcept(FE_ALL_EXCEPT);
        feenableexcept(previous_);
        TestEventListenerBase::testCaseEnded(stats);
    }

private:
    int previous_ = 0;
};

CATCH_REGISTER_LISTENER(FpTrapListener)

} // namespace

} // namespace testing
