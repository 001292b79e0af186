// SPDX-License-Identifier: MIT
// The block kernels one lane at a time (contact/soft_block_kernel.hpp): the twin every
// SIMD width must match bit for bit, the path a debugger steps through, and the one
// the overflow colour's blocks take (their lanes may share a body, so they go in order).

#include "contact/soft_block_kernel.hpp"

namespace jounce::detail {

const SoftKernels& scalarSoftKernels() {
    using K = SoftBlockKernel<ScalarLane>;
    static constexpr SoftKernels kernels{"scalar", &K::prepare, &K::finish, &K::warmStart, &K::solve, &K::noteApproach, &K::bounce};
    return kernels;
}

const SoftLaneVisits& scalarLaneVisits() {
    using K = SoftBlockKernel<ScalarLane>;
    static constexpr SoftLaneVisits visits{&K::warmStartLanes, &K::solveLanes, &K::noteApproachLanes, &K::bounceLanes};
    return visits;
}

} // namespace jounce::detail
