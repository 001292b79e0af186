// SPDX-License-Identifier: MIT
#pragma once
/// \file config.hpp
/// Precision of the whole engine. CMake option JOUNCE_DOUBLE (default ON) picks
/// `double`; OFF defines JOUNCE_USE_FLOAT on the jounce target (PUBLIC, so a game
/// linking jounce::jounce sees the same type the library was built with).

namespace jounce {
#if defined(JOUNCE_USE_FLOAT)
using real = float;
#else
using real = double;
#endif
} // namespace jounce
