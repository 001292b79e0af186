// SPDX-License-Identifier: MIT
#pragma once
// Shared by the fuzz targets: reading the fuzzer's bytes as raw numbers, and the checks
// whose failure is a finding. A finding prints what was wrong and aborts, so libFuzzer
// saves the input as a crash; a thrown jounce::Error is the library flagging bad input
// and is a valid outcome (each target catches it).

#include <jounce/common/error.hpp>
#include <jounce/common/math.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <span>

namespace jounce::fuzz {

/// Hands out the input front to back. Each real is 8 bytes copied bit for bit into a
/// double, so NaN, infinities, denormals and huge values all occur; past the end it
/// gives zeros (a short input still builds something instead of being thrown away). The
/// float build rounds that double to a float (beyond float's range, to infinity; below
/// it, to a denormal or 0), so one corpus serves both precisions: a seed found in double
/// means the nearest shape in float. Build 1 replays the corpus in double
/// (fuzz/replay_main.cpp).
class Input {
public:
    Input(const std::uint8_t* data, std::size_t size) : bytes_(data, size) {}

    std::uint8_t byte() { return at_ < bytes_.size() ? bytes_[at_++] : 0; }
    real number() {
        double raw = 0;
        const std::size_t n = std::min(sizeof raw, bytes_.size() - at_);
        std::memcpy(&raw, bytes_.data() + at_, n);
        at_ += n;
        // Beyond the float range the conversion is left undefined by C++: infinity by hand.
        constexpr real top = std::numeric_limits<real>::max(), inf = std::numeric_limits<real>::infinity();
        const real x = raw > top ? inf : raw < -top ? -inf : static_cast<real>(raw);
        huge_ = huge_ || (std::isfinite(x) && std::abs(x) > domain);
        return x;
    }
    /// Whether every finite number read so far lies in the domain below. Beyond it the
    /// library is still run (the sanitizers watch it) but its outputs are not checked.
    bool inDomain() const { return !huge_; }

    /// Lengths and coordinates up to the fourth root of the largest real (over 1e76 in
    /// double, 1e9 in float), divided by 4: the narrow phase squares differences of
    /// coordinates and takes squared norms of cross products of them (fourth powers),
    /// which overflow beyond it whatever the algorithm. The library accepts any finite
    /// size; this bound is the fuzzer's, and docs/fuzzing.md says why.
    static inline const real domain = std::sqrt(std::sqrt(std::numeric_limits<real>::max())) / 4;
    Vec3 vec3() {
        const real x = number(), y = number(), z = number();
        return {x, y, z};
    }
    /// The rest of the input, for targets that parse it as text or a blob.
    std::span<const std::uint8_t> rest() const { return bytes_.subspan(at_); }

private:
    std::span<const std::uint8_t> bytes_;
    std::size_t at_ = 0;
    bool huge_ = false;
};

/// Tolerance on |n| - 1 for normals the library says are unit: float builds round at
/// about 1e-7 per operation, and normals come out of a few of them.
constexpr real unitTolerance = sizeof(real) == 4 ? real(1e-3) : real(1e-4);

/// Whether to print the decoded input (JOUNCE_FUZZ_VERBOSE=1 when replaying a crash:
/// `fuzz_x crash-file` runs it once).
inline bool verbose() {
    static const bool on = std::getenv("JOUNCE_FUZZ_VERBOSE") != nullptr;
    return on;
}
inline void show(const char* name, real x) {
    if (verbose()) std::fprintf(stderr, "  %s = %.17g\n", name, double(x));
}
inline void show(const char* name, const Vec3& v) {
    if (verbose()) std::fprintf(stderr, "  %s = (%.17g, %.17g, %.17g)\n", name, double(v.x()), double(v.y()), double(v.z()));
}
inline void show(const char* name, const Quat& q) {
    if (verbose())
        std::fprintf(stderr, "  %s = (w %.17g, x %.17g, y %.17g, z %.17g)\n", name, double(q.w()), double(q.x()), double(q.y()),
                     double(q.z()));
}

[[noreturn]] inline void finding(const char* what, const char* where) {
    std::fprintf(stderr, "jounce fuzz finding: %s (%s)\n", what, where);
    std::abort();
}
inline void requireFinite(real x, const char* where) {
    if (!std::isfinite(x)) finding("non-finite number", where);
}
inline void requireFinite(const Vec3& v, const char* where) {
    if (!v.allFinite()) finding("non-finite vector", where);
}
inline void requireUnit(const Vec3& n, const char* where) {
    requireFinite(n, where);
    if (std::abs(n.norm() - 1) > unitTolerance) finding("normal not unit length", where);
}

/// A unit quaternion from four raw numbers, or false when they cannot make one (not
/// finite, or too short to normalise): such input is rejected, not a finding.
inline bool unitQuaternion(real w, real x, real y, real z, Quat& out) {
    const Quat q(w, x, y, z);
    const real n = q.norm();
    if (!q.coeffs().allFinite() || !std::isfinite(n) || !(n > real(1e-6))) return false;
    out = q.normalized();
    return true;
}

/// Runs `body` on the input; a jounce::Error is the library flagging bad input, a valid
/// outcome. Any other exception escapes, and libFuzzer reports it as a crash.
template <typename Body> int runFlagged(const std::uint8_t* data, std::size_t size, Body body) {
    Input in(data, size);
    try {
        body(in);
    } catch (const Error&) {
    }
    return 0;
}

} // namespace jounce::fuzz
