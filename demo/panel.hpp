// SPDX-License-Identifier: MIT
#pragma once
/// \file panel.hpp
/// The Dear ImGui control panel. Call between ImGui::NewFrame() and ImGui::Render().

#include "simulation.hpp"

#include <string>
#include <vector>

namespace jounce::demo {

/// What the panel asks of the rest of the demo.
struct PanelResult {
    bool sceneChanged = false; ///< another scene was loaded: aim the camera at it
    bool resetCamera = false;
};

/// Draws the panel and applies what the user did to `sim` (pause, step, time scale,
/// scene switch, scene actions).
PanelResult drawPanel(Simulation& sim, const std::vector<std::string>& sceneNames);

} // namespace jounce::demo
