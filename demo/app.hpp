// SPDX-License-Identifier: MIT
#pragma once
/// \file app.hpp
/// The demo proper: a simulation, a camera, the renderer and the panel, wired to
/// SDL input. main.cpp owns the platform objects and runs one of the two loops.

#include "camera.hpp"
#include "options.hpp"
#include "platform.hpp"
#include "renderer.hpp"
#include "simulation.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace jounce::demo {

class App {
public:
    /// Needs `window`'s context current and `imgui` started; both must outlive it.
    App(const GlWindow& window, const ImGuiSession& imgui, std::vector<std::string> sceneNames,
        std::string_view scene);

    /// Feeds one SDL event to the panel, camera and keys; false when the user asked
    /// to quit.
    bool handleEvent(const SDL_Event& event);
    /// Spends wall-clock time on fixed steps (see Simulation).
    void advance(double realSeconds) { sim_.advance(realSeconds); }
    /// Hands the arrow keys held now to the scene (Scene::control) when they changed.
    void readControls();
    Simulation& simulation() { return sim_; }

    /// Builds the panel and draws scene and panel into the bound framebuffer.
    void renderFrame(int width, int height);

private:
    void handleKey(const SDL_KeyboardEvent& key);
    float throttle_ = 0, steer_ = 0; ///< the arrow keys the scene was last given
    void handleMouseMotion(const SDL_MouseMotionEvent& motion);
    void handleMouseButton(const SDL_MouseButtonEvent& button);
    /// Where the mouse ray meets the drag plane (through the grabbed point, facing the
    /// camera), or false when it runs parallel to it.
    bool dragPoint(int x, int y, Vec3& point) const;
    void aimCamera();

    const GlWindow& window_;
    const ImGuiSession& imgui_;
    std::vector<std::string> sceneNames_;
    Simulation sim_;
    OrbitCamera camera_;
    Renderer renderer_;
    scenes::DrawList drawList_; ///< reused each frame to keep its capacity
    bool dragging_ = false;     ///< the left button holds a body (else it orbits)
    Vec3 dragPlanePoint_ = Vec3::Zero();
};

/// The windowed demo; returns the process exit status.
int runInteractive(const Options& options, const std::vector<std::string>& sceneNames);
/// Steps options.frames times, writes options.screenshot; returns the exit status.
int runHeadless(const Options& options, const std::vector<std::string>& sceneNames);

} // namespace jounce::demo
