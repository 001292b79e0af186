// SPDX-License-Identifier: MIT
#pragma once
/// \file error.hpp
/// Jounce reports bad input with one exception type, jounce::Error, thrown before
/// anything is changed: when a call throws, the world is exactly as it was.
/// `field()` names the offending input (e.g. "BodyDesc.mass") and `value()` shows
/// what was given; what() gives both plus the rule that was broken.
///
/// The same errors reach a game built without exceptions through an ErrorHandler
/// (docs/integration.md, "Errors without exceptions"): World::setErrorHandler, and the
/// overloads of the free functions that take one. The library catches the error
/// itself (it is always built with exceptions), so none crosses the game's frames.

#include <jounce/common/math.hpp>

#include <functional>
#include <stdexcept>
#include <string>

namespace jounce {

class Error : public std::invalid_argument {
public:
    Error(std::string field, std::string value, const std::string& rule);

    const std::string& field() const noexcept { return field_; }
    const std::string& value() const noexcept { return value_; }

private:
    std::string field_;
    std::string value_;
};

/// Receives every error instead of a throw: the call that failed then changes nothing
/// and returns an empty value (a null handle, an empty container or optional, zero,
/// false, or a reference to a default-constructed object).
using ErrorHandler = std::function<void(const Error&)>;

/// Text forms used in error messages (shortest round-trip decimal).
std::string toText(real x);
std::string toText(const Vec3& v);
std::string toText(const Quat& q);
std::string toText(const Mat3& m);

} // namespace jounce
