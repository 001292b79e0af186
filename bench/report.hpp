// SPDX-License-Identifier: MIT
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

/// Step times of one run [ms]: BENCH_SCENES.md's median, maximum and total.
struct StepTimes {
    double msMedian = 0, msMax = 0, msTotal = 0;
};

inline StepTimes stepTimes(const std::vector<double>& ms) {
    StepTimes t;
    t.msMedian = median(ms);
    for (const double m : ms) {
        t.msMax = std::max(t.msMax, m);
        t.msTotal += m;
    }
    return t;
}

/// Over several runs: the median of each of the three.
template <typename Run>
StepTimes medianStepTimes(const std::vector<Run>& runs) {
    std::vector<double> med, mx, total;
    for (const Run& r : runs) {
        med.push_back(r.msMedian);
        mx.push_back(r.msMax);
        total.push_back(r.msTotal);
    }
    return {median(med), median(mx), median(total)};
}

/// Bytes the C heap has handed out and not taken back (glibc's mallinfo2: small blocks
/// in the arena plus large ones mapped on their own): what a program holds, whichever
/// engine allocated it.
inline double heapBytesInUse() {
    const struct mallinfo2 m = mallinfo2();
    return static_cast<double>(m.uordblks + m.hblkhd);
}

} // namespace jounce::bench
