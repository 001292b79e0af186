// SPDX-License-Identifier: MIT
#include <jounce/common/error.hpp>

#include "common/guard.hpp"

#include <charconv>
#include <cmath>

namespace jounce {

Error::Error(std::string field, std::string value, const std::string& rule)
    : std::invalid_argument("jounce: " + field + " = " + value + ": " + rule),
      field_(std::move(field)), value_(std::move(value)) {}

namespace detail {
bool& insideGuardedCall() {
    thread_local bool inside = false;
    return inside;
}
} // namespace detail

std::string toText(real x) {
    if (std::isnan(x)) return "nan";
    if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
    char buffer[64];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, x);
    return std::string(buffer, result.ptr);
}

std::string toText(const Vec3& v) {
    return "(" + toText(v.x()) + ", " + toText(v.y()) + ", " + toText(v.z()) + ")";
}

std::string toText(const Quat& q) {
    return "(w " + toText(q.w()) + ", x " + toText(q.x()) + ", y " + toText(q.y()) + ", z " +
           toText(q.z()) + ")";
}

std::string toText(const Mat3& m) {
    std::string s = "[";
    for (int r = 0; r < 3; ++r) {
        for (int c = 0; c < 3; ++c) s += toText(m(r, c)) + (c < 2 ? " " : "");
        s += r < 2 ? "; " : "]";
    }
    return s;
}

} // namespace jounce
