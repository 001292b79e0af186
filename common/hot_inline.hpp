// SPDX-License-Identifier: MIT
#pragma once

/// Inner-loop helpers the compiler must inline: GCC at -O2 keeps small Eigen-heavy
/// functions out of line, and the call (arguments through memory) lengthens the chain
/// of dependent operations each contact update waits on.
#if defined(__GNUC__)
#define JOUNCE_HOT_INLINE [[gnu::always_inline]] inline
#else
#define JOUNCE_HOT_INLINE inline
#endif
