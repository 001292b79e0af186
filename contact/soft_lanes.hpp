// SPDX-License-Identifier: MIT
#pragma once
// The scalar "lane" the block kernels (contact/soft_block_kernel.hpp) are written for:
// the shared lane types and their vector algebra (common/lanes.hpp) at the coloured
// solver's precision, lane_real. The SIMD files (soft_kernel_sse2.cpp,
// soft_kernel_avx2.cpp) take the wider types of the same family, so every width
// computes the same bits.

#include "common/lanes.hpp"
#include "contact/soft_blocks.hpp"

namespace jounce::detail {

using ScalarLane = ScalarLanes<lane_real>;

} // namespace jounce::detail
