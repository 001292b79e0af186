// SPDX-License-Identifier: MIT
#include "platform.hpp"

#include <epoxy/gl.h>
#include <imgui.h>
#include <imgui_impl_opengl3.h>
#include <imgui_impl_sdl.h>

#include <stdexcept>
#include <string>

namespace jounce::demo {
namespace {

[[noreturn]] void fail(const std::string& what) {
    throw std::runtime_error(what + ": " + SDL_GetError());
}

void setContextAttributes(int samples) {
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
    SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
    SDL_GL_SetAttribute(SDL_GL_DEPTH_SIZE, 24);
    SDL_GL_SetAttribute(SDL_GL_MULTISAMPLEBUFFERS, samples > 0 ? 1 : 0);
    SDL_GL_SetAttribute(SDL_GL_MULTISAMPLESAMPLES, samples > 0 ? samples : 0);
}

SDL_Window* createWindow(const WindowConfig& config, int samples) {
    setContextAttributes(samples);
    Uint32 flags = SDL_WINDOW_OPENGL | SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI;
    flags |= config.hidden ? SDL_WINDOW_HIDDEN : SDL_WINDOW_SHOWN;
    return SDL_CreateWindow("Jounce demo", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED,
                            config.width, config.height, flags);
}

} // namespace

SdlSession::SdlSession() {
    if (SDL_Init(SDL_INIT_VIDEO | SDL_INIT_TIMER) != 0) fail("SDL_Init failed");
}

SdlSession::~SdlSession() { SDL_Quit(); }

GlWindow::GlWindow(const WindowConfig& config) {
    // Some X servers (Xvfb among them) offer no multisampled visual; a plain window
    // beats no window.
    window_ = createWindow(config, config.samples);
    if (window_ == nullptr && config.samples > 0) window_ = createWindow(config, 0);
    if (window_ == nullptr) fail("could not create an OpenGL window");

    context_ = SDL_GL_CreateContext(window_);
    if (context_ == nullptr) {
        SDL_DestroyWindow(window_);
        fail("could not create an OpenGL 3.3 core context");
    }
    if (epoxy_gl_version() < 33) {
        SDL_GL_DeleteContext(context_);
        SDL_DestroyWindow(window_);
        throw std::runtime_error("OpenGL 3.3 is needed, the driver offers " +
                                 std::to_string(epoxy_gl_version() / 10) + "." +
                                 std::to_string(epoxy_gl_version() % 10));
    }
    // Vsync where the driver allows it; the fixed-step loop does not depend on it.
    SDL_GL_SetSwapInterval(config.hidden ? 0 : 1);
}

GlWindow::~GlWindow() {
    SDL_GL_DeleteContext(context_);
    SDL_DestroyWindow(window_);
}

void GlWindow::drawableSize(int& width, int& height) const {
    SDL_GL_GetDrawableSize(window_, &width, &height);
}

ImGuiSession::ImGuiSession(const GlWindow& window) {
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    // No imgui.ini: runs (and the tests) leave nothing behind in the working folder.
    ImGui::GetIO().IniFilename = nullptr;
    ImGui::StyleColorsDark();
    if (!ImGui_ImplSDL2_InitForOpenGL(window.window(), window.context())) {
        ImGui::DestroyContext();
        throw std::runtime_error("Dear ImGui SDL2 backend failed to start");
    }
    if (!ImGui_ImplOpenGL3_Init("#version 330 core")) {
        ImGui_ImplSDL2_Shutdown();
        ImGui::DestroyContext();
        throw std::runtime_error("Dear ImGui OpenGL3 backend failed to start");
    }
}

ImGuiSession::~ImGuiSession() {
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplSDL2_Shutdown();
    ImGui::DestroyContext();
}

void ImGuiSession::newFrame() const {
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplSDL2_NewFrame();
    ImGui::NewFrame();
}

void ImGuiSession::render() const {
    ImGui::Render();
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

} // namespace jounce::demo
