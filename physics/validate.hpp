#pragma once
// Input checks shared by every public entry point. Each throws jounce::Error naming
// the field and the value; none changes anything.

#include <jounce/physics/error.hpp>
#include <jounce/physics/handle.hpp>

#include <string>

namespace jounce::detail {

void requireFinite(real x, const char* field);
void requireFinite(const Vec3& v, const char* field);
void requirePositive(real x, const char* field);    ///< finite and > 0
void requireNonNegative(real x, const char* field); ///< finite and >= 0
void requireInRange(real x, real lo, real hi, const char* field);
/// Finite and |q| within 1e-6 of 1 (1e-3 in float builds).
void requireUnit(const Quat& q, const char* field);

/// "{index i, generation g}": how errors show a handle.
std::string handleText(std::uint32_t index, std::uint32_t generation);
template <typename Tag> std::string handleText(Handle<Tag> id) { return handleText(id.index, id.generation); }

/// Throws unless `id` names a live object of `array`; `kind` says what it should be.
/// Returns the object.
template <typename Array, typename Tag>
auto& requireLive(Array& array, Handle<Tag> id, const std::string& field, const char* kind) {
    if (!array.contains(id))
        throw Error(field, handleText(id), std::string("not a live ") + kind + " of this world (stale or null handle)");
    return array[id];
}

} // namespace jounce::detail
