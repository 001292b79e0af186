// SPDX-License-Identifier: MIT
#pragma once
/// \file background.hpp
/// The colour the demo clears to. tests/test_demo.cpp includes this header too, so
/// the test counts "pixels that show something" against the exact same bytes.

#include <array>
#include <cstdint>

namespace jounce::demo {

/// sRGB bytes, written to the framebuffer unchanged (clears bypass the shaders'
/// gamma step), so a screenshot holds exactly these values where nothing was drawn.
inline constexpr std::array<std::uint8_t, 3> kBackground{28, 31, 38};

} // namespace jounce::demo
