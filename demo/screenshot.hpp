// SPDX-License-Identifier: MIT
#pragma once
/// \file screenshot.hpp
/// Headless capture: an offscreen framebuffer to render into and a PNG writer.
/// Rendering into our own framebuffer rather than the hidden window's back buffer
/// keeps the result defined: a window that is never shown may own no pixels.

#include "gl_util.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace jounce::demo {

/// An RGBA8 + depth framebuffer of a fixed size. Needs a current context.
class OffscreenTarget {
public:
    OffscreenTarget(int width, int height);

    void bind() const;
    int width() const { return width_; }
    int height() const { return height_; }
    /// RGB bytes, top row first (OpenGL reads bottom row first).
    std::vector<std::uint8_t> readRgb() const;

private:
    int width_;
    int height_;
    Framebuffer framebuffer_;
    Renderbuffer colour_;
    Renderbuffer depth_;
};

/// Writes tightly packed RGB rows, top row first; throws std::runtime_error.
void writePng(const std::string& path, int width, int height,
              const std::vector<std::uint8_t>& rgb);

} // namespace jounce::demo
