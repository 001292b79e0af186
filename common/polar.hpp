// SPDX-License-Identifier: MIT
#pragma once
// Rotations from polar decompositions, shared by shape matching (particle clusters) and
// the ARAP local step (deformables): the rotation R maximising tr(R^T A), which is the
// rotation factor of A's polar decomposition, made proper (det R = +1) when A is
// inverted (Umeyama 1991).

#include <jounce/common/math.hpp>

namespace jounce::detail {

/// By SVD: A = U S V^T, R = U V^T, with the smallest singular direction flipped when
/// det(U V^T) < 0. Always a proper rotation, for any A (singular too).
Mat3 properRotation(const Mat3& a);

/// The same rotation by Newton's method on the rotation group, warm-started from
/// `start` (a rotation); falls back to properRotation when it does not settle.
Mat3 extractRotation(const Mat3& a, const Mat3& start);

} // namespace jounce::detail
