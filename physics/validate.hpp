#pragma once
// Input checks shared by every public entry point. Each throws jounce::Error naming
// the field and the value; none changes anything.

#include <jounce/physics/error.hpp>

namespace jounce::detail {

void requireFinite(real x, const char* field);
void requireFinite(const Vec3& v, const char* field);
void requirePositive(real x, const char* field);    ///< finite and > 0
void requireNonNegative(real x, const char* field); ///< finite and >= 0
void requireInRange(real x, real lo, real hi, const char* field);
/// Finite and |q| within 1e-6 of 1 (1e-3 in float builds).
void requireUnit(const Quat& q, const char* field);

} // namespace jounce::detail
