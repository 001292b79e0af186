// SPDX-License-Identifier: MIT
#include "app.hpp"

#include "panel.hpp"
#include "screenshot.hpp"

#include <epoxy/gl.h>
#include <imgui.h>
#include <imgui_impl_sdl.h>

#include <algorithm>
#include <cmath>
#include <iostream>

namespace jounce::demo {
namespace {

// A frame longer than this (a stall, a breakpoint) counts as this long, on top of
// the step cap in Simulation.
constexpr double kMaxFrameSeconds = 0.25;

// Frames drawn after the last headless step: Dear ImGui hides an auto-sizing
// window on its first frame while it measures it, so the panel shows up only in a
// later one. The extra frames draw without stepping.
constexpr int kHeadlessFramesToDraw = 3;

Eigen::Vector3f toFloat(const Vec3& v) { return v.cast<float>(); }

} // namespace

App::App(const GlWindow& window, const ImGuiSession& imgui, std::vector<std::string> sceneNames,
         std::string_view scene)
    : window_(window), imgui_(imgui), sceneNames_(std::move(sceneNames)), sim_(scene) {
    aimCamera();
}

void App::aimCamera() {
    camera_ = OrbitCamera(toFloat(sim_.scene().cameraTarget()),
                          static_cast<float>(sim_.scene().cameraDistance()),
                          static_cast<float>(sim_.scene().cameraYaw()));
}

bool App::handleEvent(const SDL_Event& event) {
    ImGui_ImplSDL2_ProcessEvent(&event);
    const ImGuiIO& io = ImGui::GetIO();
    switch (event.type) {
    case SDL_QUIT:
        return false;
    case SDL_WINDOWEVENT:
        return !(event.window.event == SDL_WINDOWEVENT_CLOSE &&
                 event.window.windowID == SDL_GetWindowID(window_.window()));
    case SDL_KEYDOWN:
        if (!io.WantCaptureKeyboard) handleKey(event.key);
        return true;
    case SDL_MOUSEMOTION:
        if (!io.WantCaptureMouse || dragging_) handleMouseMotion(event.motion);
        return true;
    case SDL_MOUSEBUTTONDOWN:
    case SDL_MOUSEBUTTONUP:
        if (!io.WantCaptureMouse || dragging_) handleMouseButton(event.button);
        return true;
    case SDL_MOUSEWHEEL:
        if (!io.WantCaptureMouse) camera_.zoom(static_cast<float>(event.wheel.y));
        return true;
    default:
        return true;
    }
}

void App::handleKey(const SDL_KeyboardEvent& key) {
    switch (key.keysym.sym) {
    case SDLK_SPACE:
        if (key.repeat == 0) sim_.setPaused(!sim_.paused());
        break;
    case SDLK_PERIOD:
    case SDLK_KP_PERIOD:
    case SDLK_n:
        // Held down, the key repeats: a slow-motion walk through the steps.
        sim_.setPaused(true);
        sim_.stepOnce();
        break;
    case SDLK_c:
        // Held down, the key repeats: a walk through the step's records.
        sim_.stepContact();
        break;
    case SDLK_f:
        if (key.repeat == 0) sim_.finishContactStep();
        break;
    default:
        break;
    }
}

void App::readControls() {
    const Uint8* keys = SDL_GetKeyboardState(nullptr);
    const bool free = !ImGui::GetIO().WantCaptureKeyboard;
    const auto held = [&](SDL_Scancode k) { return free && keys[k] != 0 ? 1.0f : 0.0f; };
    const float throttle = held(SDL_SCANCODE_UP) - held(SDL_SCANCODE_DOWN);
    const float steer = held(SDL_SCANCODE_LEFT) - held(SDL_SCANCODE_RIGHT);
    if (throttle == throttle_ && steer == steer_) return;
    throttle_ = throttle;
    steer_ = steer;
    sim_.scene().control(static_cast<real>(throttle), static_cast<real>(steer));
}

bool App::dragPoint(int x, int y, Vec3& point) const {
    int width = 0;
    int height = 0;
    SDL_GetWindowSize(window_.window(), &width, &height);
    Eigen::Vector3f from, to;
    camera_.rayThrough(static_cast<float>(x), static_cast<float>(y), width, height, from, to);
    const Vec3 a = from.cast<real>(), b = to.cast<real>();
    const Vec3 n = camera_.forward().cast<real>();
    const real rate = n.dot(b - a);
    if (std::abs(rate) < real(1e-9)) return false;
    point = a + (b - a) * (n.dot(dragPlanePoint_ - a) / rate);
    return true;
}

// A left press on a body or a deformable grabs it (whichever the world's ray casts meet
// first); on empty space the left button orbits as before.
void App::handleMouseButton(const SDL_MouseButtonEvent& button) {
    if (button.button != SDL_BUTTON_LEFT) return;
    if (button.type == SDL_MOUSEBUTTONUP) {
        if (dragging_) sim_.scene().release();
        dragging_ = false;
        return;
    }
    int width = 0;
    int height = 0;
    SDL_GetWindowSize(window_.window(), &width, &height);
    Eigen::Vector3f from, to;
    camera_.rayThrough(static_cast<float>(button.x), static_cast<float>(button.y), width, height, from, to);
    const World& world = sim_.scene().world();
    const auto hit = world.rayCastClosest(from.cast<real>(), to.cast<real>());
    const auto soft = world.rayCastDeformables(from.cast<real>(), to.cast<real>());
    if (soft && (!hit || soft->fraction < hit->fraction)) {
        if (!sim_.scene().grab(soft->deformable, soft->vertex, soft->point)) return;
        dragPlanePoint_ = soft->point;
    } else {
        if (!hit || !sim_.scene().grab(hit->body, hit->point)) return;
        dragPlanePoint_ = hit->point;
    }
    dragging_ = true;
}

void App::handleMouseMotion(const SDL_MouseMotionEvent& motion) {
    const auto dx = static_cast<float>(motion.xrel);
    const auto dy = static_cast<float>(motion.yrel);
    if (dragging_) {
        Vec3 target;
        if (dragPoint(motion.x, motion.y, target)) sim_.scene().dragTo(target);
    } else if ((motion.state & SDL_BUTTON_LMASK) != 0) {
        camera_.orbit(dx, dy);
    } else if ((motion.state & (SDL_BUTTON_RMASK | SDL_BUTTON_MMASK)) != 0) {
        int width = 0;
        int height = 0;
        // Motion comes in window coordinates, not drawable pixels.
        SDL_GetWindowSize(window_.window(), &width, &height);
        camera_.pan(dx, dy, height);
    }
}

void App::renderFrame(int width, int height) {
    // The panel runs first: it may switch the scene that is about to be drawn.
    imgui_.newFrame();
    const PanelResult panel = drawPanel(sim_, sceneNames_);
    if (panel.sceneChanged) dragging_ = false; // the grabbed body went with the old scene
    if (panel.sceneChanged || panel.resetCamera) aimCamera();

    drawList_.clear();
    sim_.scene().draw(drawList_);
    drawRecord(sim_.scene().world(), sim_.contactStepper(), drawList_);
    renderer_.draw(drawList_, camera_, width, height);
    imgui_.render();
}

int runInteractive(const Options& options, const std::vector<std::string>& sceneNames) {
    const SdlSession sdl;
    const GlWindow window({options.width, options.height, false, 4});
    const ImGuiSession imgui(window);
    App app(window, imgui, sceneNames, options.scene);

    const double ticksPerSecond = static_cast<double>(SDL_GetPerformanceFrequency());
    Uint64 last = SDL_GetPerformanceCounter();
    for (;;) {
        SDL_Event event;
        bool running = true;
        while (SDL_PollEvent(&event) != 0) running = app.handleEvent(event) && running;
        if (!running) return 0;

        const Uint64 now = SDL_GetPerformanceCounter();
        app.readControls();
        app.advance(std::min(static_cast<double>(now - last) / ticksPerSecond, kMaxFrameSeconds));
        last = now;

        int width = 0;
        int height = 0;
        window.drawableSize(width, height);
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        app.renderFrame(width, height);
        window.swap();
    }
}

int runHeadless(const Options& options, const std::vector<std::string>& sceneNames) {
    const SdlSession sdl;
    const GlWindow window({options.width, options.height, true, 0});
    const ImGuiSession imgui(window);
    App app(window, imgui, sceneNames, options.scene);
    const OffscreenTarget target(options.width, options.height);

    // One step per frame, and nothing on screen to see in between, so only the
    // frames after the last step are drawn.
    const int frames = options.frames.value_or(0);
    for (int frame = 0; frame < frames; ++frame) {
        if (!app.simulation().stepOnce()) {
            std::cerr << "jounce-demo: step " << frame + 1 << " of scene '" << options.scene
                      << "' failed: " << app.simulation().error() << "\n";
            return 1;
        }
    }
    // Then the step-contact key, pressed as often as asked: the first press records
    // the next step, each further press shows the next record.
    for (int press = 0; press < options.stepContacts; ++press) {
        if (!app.simulation().stepContact() && !app.simulation().error().empty()) {
            std::cerr << "jounce-demo: the recorded step of scene '" << options.scene
                      << "' failed: " << app.simulation().error() << "\n";
            return 1;
        }
    }
    for (int frame = 0; frame < kHeadlessFramesToDraw; ++frame) {
        target.bind();
        app.renderFrame(target.width(), target.height());
    }
    writePng(*options.screenshot, target.width(), target.height(), target.readRgb());
    return 0;
}

} // namespace jounce::demo
