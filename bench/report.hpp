#pragma once
// Small helpers the benchmark programs share for their figures and JSON lines.

#include <malloc.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace jounce::bench {

inline double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

inline std::string jsonString(const std::string& s) {
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out + "\"";
}

/// A JSON number with 6 significant digits; null for NaN and infinities.
inline std::string number(double v) {
    if (!std::isfinite(v)) return "null";
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.6g", v);
    return buffer;
}

/// Bytes the C heap has handed out and not taken back (glibc's mallinfo2: small blocks
/// in the arena plus large ones mapped on their own): what a program holds, whichever
/// engine allocated it.
inline double heapBytesInUse() {
    const struct mallinfo2 m = mallinfo2();
    return static_cast<double>(m.uordblks + m.hblkhd);
}

} // namespace jounce::bench
