// SPDX-License-Identifier: MIT
#include "screenshot.hpp"

#include <stb/stb_image_write.h>

#include <algorithm>
#include <stdexcept>

namespace jounce::demo {
namespace {

Renderbuffer makeRenderbuffer(GLenum format, int width, int height) {
    GLuint name = 0;
    glGenRenderbuffers(1, &name);
    Renderbuffer buffer(name);
    glBindRenderbuffer(GL_RENDERBUFFER, name);
    glRenderbufferStorage(GL_RENDERBUFFER, format, width, height);
    return buffer;
}

Framebuffer makeFramebuffer() {
    GLuint name = 0;
    glGenFramebuffers(1, &name);
    return Framebuffer(name);
}

} // namespace

OffscreenTarget::OffscreenTarget(int width, int height)
    : width_(width), height_(height), framebuffer_(makeFramebuffer()),
      colour_(makeRenderbuffer(GL_RGBA8, width, height)),
      depth_(makeRenderbuffer(GL_DEPTH_COMPONENT24, width, height)) {
    bind();
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, colour_.get());
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, depth_.get());
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
        throw std::runtime_error("offscreen framebuffer of " + std::to_string(width) + "x" +
                                 std::to_string(height) + " is incomplete");
    }
}

void OffscreenTarget::bind() const { glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_.get()); }

std::vector<std::uint8_t> OffscreenTarget::readRgb() const {
    const auto rowBytes = static_cast<std::size_t>(width_) * 3;
    std::vector<std::uint8_t> pixels(rowBytes * static_cast<std::size_t>(height_));
    bind();
    glReadBuffer(GL_COLOR_ATTACHMENT0);
    glPixelStorei(GL_PACK_ALIGNMENT, 1); // rows of width*3 bytes, no padding
    glReadPixels(0, 0, width_, height_, GL_RGB, GL_UNSIGNED_BYTE, pixels.data());

    for (std::size_t top = 0, bottom = static_cast<std::size_t>(height_) - 1; top < bottom;
         ++top, --bottom) {
        std::swap_ranges(pixels.begin() + static_cast<std::ptrdiff_t>(top * rowBytes),
                         pixels.begin() + static_cast<std::ptrdiff_t>((top + 1) * rowBytes),
                         pixels.begin() + static_cast<std::ptrdiff_t>(bottom * rowBytes));
    }
    return pixels;
}

void writePng(const std::string& path, int width, int height,
              const std::vector<std::uint8_t>& rgb) {
    if (stbi_write_png(path.c_str(), width, height, 3, rgb.data(), width * 3) == 0) {
        throw std::runtime_error("could not write PNG '" + path + "'");
    }
}

} // namespace jounce::demo
