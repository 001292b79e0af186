// SPDX-License-Identifier: MIT
#pragma once
// Bad-input tests: a call must throw jounce::Error naming `field`.

#include <jounce/common/error.hpp>

#include <catch2/catch.hpp>

#include <string>

namespace testing {

template <typename Call> void expectError(Call call, const std::string& field) {
    try {
        call();
        FAIL("no error for " << field);
    } catch (const jounce::Error& e) {
        INFO(e.what());
        CHECK(e.field() == field);
    }
}

} // namespace testing
