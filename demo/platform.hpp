// SPDX-License-Identifier: MIT
#pragma once
/// \file platform.hpp
/// Owners for the SDL, OpenGL and Dear ImGui lifetimes, so they shut down in the
/// reverse order of start-up on every path out of main. Each throws
/// std::runtime_error with the library's message when start-up fails.

#include <SDL.h>

namespace jounce::demo {

class SdlSession {
public:
    SdlSession();
    ~SdlSession();
    SdlSession(const SdlSession&) = delete;
    SdlSession& operator=(const SdlSession&) = delete;
};

struct WindowConfig {
    int width = 1280;
    int height = 720;
    bool hidden = false; ///< headless screenshots never show a window
    int samples = 4;     ///< multisampling; 0 = off (falls back to 0 if refused)
};

/// A window with a current OpenGL 3.3 core context.
class GlWindow {
public:
    explicit GlWindow(const WindowConfig& config);
    ~GlWindow();
    GlWindow(const GlWindow&) = delete;
    GlWindow& operator=(const GlWindow&) = delete;

    SDL_Window* window() const { return window_; }
    SDL_GLContext context() const { return context_; }
    /// Size of the default framebuffer in pixels (differs from the window size on
    /// high-DPI screens).
    void drawableSize(int& width, int& height) const;
    void swap() const { SDL_GL_SwapWindow(window_); }

private:
    SDL_Window* window_ = nullptr;
    SDL_GLContext context_ = nullptr;
};

/// Dear ImGui with its SDL2 and OpenGL3 backends on `window`.
class ImGuiSession {
public:
    explicit ImGuiSession(const GlWindow& window);
    ~ImGuiSession();
    ImGuiSession(const ImGuiSession&) = delete;
    ImGuiSession& operator=(const ImGuiSession&) = delete;

    void newFrame() const;
    /// Draws what was built since newFrame() into the bound framebuffer.
    void render() const;
};

} // namespace jounce::demo
