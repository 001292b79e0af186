// SPDX-License-Identifier: MIT
#pragma once
// Floating-point traps (tests/fp_traps.cpp turns them on for every test case).

#include <fenv.h> // feenableexcept, fedisableexcept, fegetexcept: glibc extensions

namespace testing {

/// Turns the traps off for its lifetime, for the few places that overflow on purpose
/// (a test that checks how the library handles an overflow it provoked). Say why at
/// each use: traps off anywhere else hide bugs.
class FpTrapsOff {
public:
    FpTrapsOff();
    ~FpTrapsOff();
    FpTrapsOff(const FpTrapsOff&) = delete;
    FpTrapsOff& operator=(const FpTrapsOff&) = delete;

private:
    int previous_;
};

} // namespace testing
