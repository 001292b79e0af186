#include "panel.hpp"

#include <imgui.h>

#include <array>
#include <utility>

namespace jounce::demo {
namespace {

constexpr float kMinSliderScale = 0.05f;
constexpr float kMaxSliderScale = 4.0f;
const ImVec4 kErrorColour(1.0f, 0.4f, 0.35f, 1.0f);

// Returns true when another scene was loaded.
bool sceneChooser(Simulation& sim, const std::vector<std::string>& names) {
    bool changed = false;
    if (ImGui::BeginCombo("Scene", sim.sceneName().c_str())) {
        for (const auto& name : names) {
            const bool current = name == sim.sceneName();
            if (ImGui::Selectable(name.c_str(), current) && !current) changed = sim.tryLoad(name);
            if (current) ImGui::SetItemDefaultFocus();
        }
        ImGui::EndCombo();
    }
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 24);
    ImGui::TextDisabled("%s", sim.scene().description());
    ImGui::PopTextWrapPos();
    return changed;
}

void runControls(Simulation& sim) {
    bool paused = sim.paused();
    if (ImGui::Checkbox("Paused (space)", &paused)) sim.setPaused(paused);
    ImGui::SameLine();
    if (ImGui::Button("Step (.)")) {
        sim.setPaused(true);
        sim.stepOnce();
    }
    ImGui::SameLine();
    if (ImGui::Button("Restart")) sim.tryLoad(sim.sceneName());

    float scale = sim.timeScale();
    if (ImGui::SliderFloat("Time scale", &scale, kMinSliderScale, kMaxSliderScale, "%.2fx",
                           ImGuiSliderFlags_Logarithmic)) {
        sim.setTimeScale(scale);
    }
}

void statistics(const Simulation& sim) {
    const World& world = sim.scene().world();
    const auto steps = world.stepCount();
    ImGui::Text("Bodies      %zu", world.bodyCount());
    ImGui::Text("Contacts    %zu manifolds", world.contacts().size());
    ImGui::Text("Steps       %llu", static_cast<unsigned long long>(steps));
    const double seconds = static_cast<double>(steps) * static_cast<double>(sim.scene().timeStep());
    ImGui::Text("Sim time    %.2f s", seconds);
    ImGui::Text("Frame rate  %.0f fps", static_cast<double>(ImGui::GetIO().Framerate));
}

void profile(const Simulation& sim) {
    // Listed in the order the stages run in World::step.
    static constexpr std::array<std::pair<const char*, double Profile::*>, 10> kStages{{
        {"forces", &Profile::forces},
        {"integrate", &Profile::integrate},
        {"broad phase", &Profile::broadPhase},
        {"narrow phase", &Profile::narrowPhase},
        {"group", &Profile::group},
        {"resolve", &Profile::resolve},
        {"finish", &Profile::finish},
        {"sleep", &Profile::sleep},
        {"report", &Profile::report},
        {"total", &Profile::total},
    }};
    if (!ImGui::CollapsingHeader("Last step [ms]", ImGuiTreeNodeFlags_DefaultOpen)) return;
    const Profile& p = sim.scene().world().profile();
    for (const auto& [label, field] : kStages) ImGui::Text("%-12s %8.4f", label, p.*field);
}

void actions(Simulation& sim) {
    const auto names = sim.scene().actions();
    if (names.empty()) return;
    ImGui::Separator();
    for (std::size_t i = 0; i < names.size(); ++i) {
        ImGui::PushID(static_cast<int>(i));
        if (ImGui::Button(names[i].c_str())) sim.act(i);
        ImGui::PopID();
        // Buttons share a line until about the panel's width.
        if (i + 1 < names.size() && ImGui::GetItemRectMax().x - ImGui::GetWindowPos().x <
                                        ImGui::GetFontSize() * 16) {
            ImGui::SameLine();
        }
    }
}

void errorLine(const Simulation& sim) {
    if (sim.error().empty()) return;
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 24);
    ImGui::TextColored(kErrorColour, "%s", sim.error().c_str());
    ImGui::PopTextWrapPos();
}

} // namespace

PanelResult drawPanel(Simulation& sim, const std::vector<std::string>& sceneNames) {
    PanelResult result;
    ImGui::SetNextWindowPos(ImVec2(10, 10), ImGuiCond_FirstUseEver);
    ImGui::Begin("Jounce", nullptr, ImGuiWindowFlags_AlwaysAutoResize);
    result.sceneChanged = sceneChooser(sim, sceneNames);
    runControls(sim);
    ImGui::Checkbox("Show contacts", &sim.scene().showContacts);
    ImGui::Separator();
    statistics(sim);
    profile(sim);
    actions(sim);
    errorLine(sim);
    ImGui::Separator();
    result.resetCamera = ImGui::Button("Reset camera");
    ImGui::End();
    return result;
}

} // namespace jounce::demo
