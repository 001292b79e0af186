// SPDX-License-Identifier: MIT
#pragma once
// Running a piece of work at every SIMD width the processor has, for the tests that
// check every width gives the scalar twin's bits.

#include <jounce/common/simd.hpp>

#include <catch2/catch.hpp>

namespace testing {

/// Runs `run` with the SIMD width capped at each width the processor has (scalar first),
/// restores the widest, then hands what it returned to `check` (a failed check must not
/// leave the width capped for the tests after it).
template <class Run, class Check> void atEverySimdWidth(const Run& run, const Check& check) {
    using jounce::SimdLevel;
    const SimdLevel best = jounce::simdLevel();
    for (SimdLevel level = SimdLevel::Scalar; level <= best; level = static_cast<SimdLevel>(static_cast<int>(level) + 1)) {
        INFO("width " << jounce::simdName(level));
        jounce::limitSimd(level);
        const auto result = run();
        jounce::limitSimd(best);
        check(result);
    }
}

} // namespace testing
