// SPDX-License-Identifier: MIT
#pragma once
// Byte archives for World::saveState / restoreState (physics/io/snapshot.cpp).
//
// One function per type lists its fields once, `io(ar, x)`, and serves both
// directions: a ByteWriter appends the bytes of each field, a ByteReader fills them
// back. Numbers are stored as their bytes in this machine's order (a snapshot is for the
// same build on the same kind of machine: the header records the size of `real` and
// the byte order and rejects others). The reader never trusts a length: every read is
// checked against the bytes left, so a truncated or forged blob ends in jounce::Error,
// never in a read past the end or a huge allocation.

#include <jounce/common/error.hpp>
#include <jounce/common/handle.hpp>
#include <jounce/common/math.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <span>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

namespace jounce::detail {

/// FNV-1a, 64 bits: every change of a single byte changes the result (each step is a
/// bijection of the running value), which is what a snapshot's checksum must catch.
inline std::uint64_t fnv1a(std::span<const std::uint8_t> bytes, std::uint64_t h = 0xcbf29ce484222325ull) {
    for (const std::uint8_t b : bytes) {
        h ^= b;
        h *= 0x100000001b3ull;
    }
    return h;
}

template <typename T>
concept Number = (std::is_arithmetic_v<T> || std::is_enum_v<T>) && !std::is_same_v<T, bool>;

class ByteWriter {
public:
    static constexpr bool reading = false;

    void raw(const void* data, std::size_t n) {
        if (used_ + n > bytes_.size()) bytes_.resize(std::max(2 * bytes_.size(), used_ + n)); // amortised growth
        std::memcpy(bytes_.data() + used_, data, n);
        used_ += n;
    }
    template <Number T> void number(T& x) { raw(&x, sizeof x); }
    void boolean(bool& b) {
        const std::uint8_t v = b ? 1 : 0;
        raw(&v, 1);
    }
    /// A container's length: written as 64 bits.
    void length(std::size_t n) {
        const std::uint64_t v = n;
        raw(&v, sizeof v);
    }
    std::span<const std::uint8_t> written() const { return std::span(bytes_).first(used_); }
    /// The bytes written, handed over.
    std::vector<std::uint8_t> take() {
        bytes_.resize(used_);
        used_ = 0;
        return std::move(bytes_);
    }

private:
    std::vector<std::uint8_t> bytes_;
    std::size_t used_ = 0;
};

/// NaN, told from the bits: a forged blob may hold a signalling NaN, and even
/// std::isnan's comparison raises the invalid-operation flag on one (a trap, in a game
/// that runs with feenableexcept).
template <typename T> bool isNanBits(T x) {
    using Bits = std::conditional_t<sizeof(T) == 8, std::uint64_t, std::uint32_t>;
    static_assert(std::numeric_limits<T>::is_iec559 && sizeof(T) == sizeof(Bits));
    constexpr int mantissaBits = std::numeric_limits<T>::digits - 1;
    constexpr Bits mantissa = (Bits(1) << mantissaBits) - 1;
    constexpr Bits exponent = ~Bits(0) >> 1 & ~mantissa;
    const Bits bits = std::bit_cast<Bits>(x);
    return (bits & exponent) == exponent && (bits & mantissa) != 0;
}

class ByteReader {
public:
    static constexpr bool reading = true;

    explicit ByteReader(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}

    void raw(void* data, std::size_t n) {
        if (n > remaining()) fail("truncated: " + std::to_string(n) + " bytes wanted, " +
                                  std::to_string(remaining()) + " left");
        std::memcpy(data, bytes_.data() + at_, n);
        at_ += n;
    }
    template <Number T> void number(T& x) {
        raw(&x, sizeof x);
        // No state of a world is NaN (every entry point rejects it), so a NaN here
        // means a forged or damaged blob. Infinities are legal: empty boxes use them.
        if constexpr (std::is_floating_point_v<T>)
            if (isNanBits(x)) fail("a NaN where a number was stored");
    }
    void boolean(bool& b) {
        std::uint8_t v = 0;
        raw(&v, 1);
        if (v > 1) fail("a bool stored as " + std::to_string(v));
        b = v == 1;
    }
    /// A container's length, at most what the bytes left could hold (`minBytes` per
    /// element): no allocation larger than the blob itself.
    std::size_t length(std::size_t minBytes) {
        std::uint64_t n = 0;
        raw(&n, sizeof n);
        if (minBytes > 0 && n > remaining() / minBytes)
            fail("a length of " + std::to_string(n) + " that the " + std::to_string(remaining()) +
                 " bytes left cannot hold");
        return static_cast<std::size_t>(n);
    }
    std::size_t remaining() const { return bytes_.size() - at_; }
    std::size_t offset() const { return at_; }
    [[noreturn]] void fail(const std::string& why) const {
        throw Error("restoreState.blob", "byte " + std::to_string(at_), why);
    }

private:
    std::span<const std::uint8_t> bytes_;
    std::size_t at_ = 0;
};

// ---- The generic parts: numbers, Eigen values, handles, containers ------------------

template <typename Ar, Number T> void io(Ar& ar, T& x) { ar.number(x); }
template <typename Ar> void io(Ar& ar, bool& b) { ar.boolean(b); }
template <typename Ar> void io(Ar& ar, Vec3& v) {
    for (int k = 0; k < 3; ++k) ar.number(v[k]);
}
template <typename Ar> void io(Ar& ar, Mat3& m) {
    for (int k = 0; k < 9; ++k) ar.number(m.data()[k]);
}
template <typename Ar> void io(Ar& ar, Quat& q) {
    for (int k = 0; k < 4; ++k) ar.number(q.coeffs()[k]);
}
template <typename Ar> void io(Ar& ar, Vec3f& v) {
    for (int k = 0; k < 3; ++k) ar.number(v[k]);
}
template <typename Ar> void io(Ar& ar, Quatf& q) {
    for (int k = 0; k < 4; ++k) ar.number(q.coeffs()[k]);
}
template <typename Ar, typename Tag> void io(Ar& ar, Handle<Tag>& h) {
    ar.number(h.index);
    ar.number(h.generation);
}
template <typename Ar, typename T, std::size_t N> void io(Ar& ar, std::array<T, N>& a) {
    for (T& x : a) io(ar, x);
}
template <typename Ar, typename T> void io(Ar& ar, std::vector<T>& v) {
    if constexpr (Ar::reading) {
        v.clear();
        v.resize(ar.length(1)); // every element takes at least a byte
    } else {
        ar.length(v.size());
    }
    for (T& x : v) io(ar, x);
}
template <typename Ar> void io(Ar& ar, std::vector<bool>&) = delete; // not stored anywhere
/// Makes alternative `index` of `v` current (default-constructed).
template <std::size_t I, typename... Ts> void emplaceAlternative(std::variant<Ts...>& v, std::size_t index) {
    if constexpr (I < sizeof...(Ts)) {
        if (index == I) v.template emplace<I>();
        else emplaceAlternative<I + 1>(v, index);
    }
}
/// A variant: the index of its alternative, then that alternative.
template <typename Ar, typename... Ts> void io(Ar& ar, std::variant<Ts...>& v) {
    std::uint8_t index = static_cast<std::uint8_t>(v.index());
    ar.number(index);
    if constexpr (Ar::reading) {
        if (index >= sizeof...(Ts)) ar.fail("a variant alternative " + std::to_string(index) + " of " +
                                           std::to_string(sizeof...(Ts)));
        emplaceAlternative<0>(v, index);
    }
    std::visit([&](auto& alternative) { io(ar, alternative); }, v);
}
template <typename Ar, typename T, typename Tag> void io(Ar& ar, SlotArray<T, Tag>& slots) {
    slots.serialize([&](auto& field) { io(ar, field); });
}

} // namespace jounce::detail
