// SPDX-License-Identifier: MIT
#pragma once
/// \file simd.hpp
/// Which SIMD width the kernels use: the soft step's contact blocks
/// (contact/soft_blocks.hpp) and the particle layer's distance rows
/// (physics/particles/distance_kernel.hpp). The widest the processor has is chosen at
/// run time (SSE2 on every x86-64, AVX2 where the processor has it); every width gives
/// the same bits as the scalar kernels, so a cap changes only the speed: tests and
/// benchmarks use it to compare the widths.

#include <cstdint>

namespace jounce {

enum class SimdLevel : std::uint8_t {
    Scalar, ///< one lane at a time (what a debugger steps through)
    Sse2,   ///< 2 doubles or 4 floats per instruction
    Avx2,   ///< 4 doubles or 8 floats
};

/// The width in use: the processor's widest, at most the cap.
SimdLevel simdLevel();
/// Caps the width for the whole process (default: no cap, Avx2). Set it between steps,
/// not while a world steps on another thread.
void limitSimd(SimdLevel cap);
/// "scalar", "sse2" or "avx2".
const char* simdName(SimdLevel level);

} // namespace jounce
