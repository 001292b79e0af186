// SPDX-License-Identifier: MIT
#pragma once
// What the snippets of docs/integration.md may use without declaring it (see
// extract_snippets.cmake): a world, the fixed step, and stubs for the game's side
// (sound, drawing, scoring) that the page calls but that are no part of Jounce.
#include <jounce/jounce.hpp>

#include <array>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <future>
#include <numbers>
#include <stdexcept>
#include <string>
#include <vector>

namespace snippets {

inline jounce::World world;                            // the world the `cpp` snippets share, in page order
inline constexpr jounce::real dt = jounce::real(1) / 60; // the fixed step [s]

inline void playThud(const jounce::Vec3&, jounce::real) {}
inline void stopScrape(jounce::ColliderId, jounce::ColliderId) {}
inline void score(jounce::BodyId) {}
inline void spawnSparks(const jounce::Vec3&, jounce::real) {}
inline void drawBody(jounce::BodyId, const jounce::Transform&) {}
inline void drawTriangles(const std::vector<jounce::ParticleId>&, const std::vector<std::array<std::uint32_t, 3>>&) {}

/// A claim the page makes, checked: false fails the test.
inline void expect(bool condition, const char* what) {
    if (!condition) throw std::runtime_error(std::string("expected: ") + what);
}

inline int failures = 0;
/// Runs one snippet; an exception fails the test, naming the snippet's first line.
inline void run(int line, void (*snippet)()) {
    try {
        snippet();
        std::printf("docs/integration.md:%d ran\n", line);
    } catch (const std::exception& e) {
        std::printf("docs/integration.md:%d threw: %s\n", line, e.what());
        ++failures;
    }
}

} // namespace snippets
