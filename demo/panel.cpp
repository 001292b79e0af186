// SPDX-License-Identifier: MIT
#include "panel.hpp"

#include <imgui.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
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
    ImGui::Text("Steps       %llu", static_cast<unsigned long long>(steps));
    const double seconds = static_cast<double>(steps) * static_cast<double>(sim.scene().timeStep());
    ImGui::Text("Sim time    %.2f s", seconds);
    ImGui::Text("Frame rate  %.0f fps", static_cast<double>(ImGui::GetIO().Framerate));

    // The contact stage of the last step (its last substep, for the resolver's figures).
    ImGui::Text("Contacts    %zu points, %zu manifolds", world.resolvedContacts().size(), world.contacts().size());
    ImGui::Text("Islands     %zu", world.islands().count());
    const WorldCounts counts = countBodies(world);
    ImGui::Text("Sleeping    %zu of %zu dynamic", counts.sleepingBodies, counts.dynamicBodies);
    const ResolverStats& resolver = world.resolverStats();
    ImGui::Text("Iterations  %d position, %d velocity", resolver.positionIterations, resolver.velocityIterations);
    ImGui::Text("Max depth   %.2f -> %.2f mm", static_cast<double>(resolver.maxPenetrationBefore) * 1000,
                static_cast<double>(resolver.maxPenetrationAfter) * 1000);
}

// The step-contact mode (keys C and F; see ContactStepper).
void contactStep(Simulation& sim) {
    if (!ImGui::CollapsingHeader("Step contact (C, F)", ImGuiTreeNodeFlags_DefaultOpen)) return;
    ContactStepper& stepper = sim.contactStepper();
    // Which solver the records come from: the soft step (the default) or Millington's
    // resolver, the one a learner steps through first (docs/debugging.md).
    World& world = sim.scene().world();
    int solver = world.settings().resolver.solver == ContactSolver::SoftStep ? 0 : 1;
    if (ImGui::Combo("Solver", &solver, "Soft step\0Resolver (Millington)\0")) {
        WorldSettings s = world.settings();
        s.resolver.solver = solver == 0 ? ContactSolver::SoftStep : ContactSolver::Resolver;
        sim.finishContactStep(); // its records are the other solver's
        world.setSettings(s);
    }
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 24);
    if (!stepper.active()) {
        if (ImGui::Button("Record next step (C)")) sim.stepContact();
        ImGui::TextDisabled("C pauses, takes the next step keeping every resolution record, and shows "
                            "them one per press; F leaves.");
        ImGui::PopTextWrapPos();
        return;
    }
    if (ImGui::Button("Next (C)")) sim.stepContact();
    ImGui::SameLine();
    if (ImGui::Button("Finish (F)")) sim.finishContactStep();
    if (!stepper.active()) {
        ImGui::PopTextWrapPos();
        return;
    }
    const auto& records = stepper.records();
    ImGui::Text("Step %llu: record %zu of %zu", static_cast<unsigned long long>(stepper.step()),
                records.empty() ? std::size_t{0} : stepper.index() + 1, stepper.total());
    if (stepper.total() > records.size()) ImGui::TextDisabled("(only the first %zu are kept)", records.size());
    if (records.size() > 1) {
        int number = static_cast<int>(stepper.index()) + 1; // numbered from 1, as above
        if (ImGui::SliderInt("Record", &number, 1, static_cast<int>(records.size())))
            stepper.show(static_cast<std::size_t>(std::max(number, 1) - 1));
    }
    // The legend first, in the drawing's own colours, so a short panel never cuts it off.
    const std::vector<LegendItem> legend = recordLegend();
    for (std::size_t k = 0; k < legend.size(); ++k) {
        const scenes::Colour& c = legend[k].colour;
        if (k % 2 == 1) ImGui::SameLine(ImGui::GetContentRegionAvail().x * 0.5f);
        ImGui::TextColored(ImVec4(c[0], c[1], c[2], 1.0f), "%s", legend[k].text);
    }
    if (const SteppedRecord* record = stepper.current()) {
        for (const std::string& line : describeRecord(*record)) ImGui::TextUnformatted(line.c_str());
    } else {
        ImGui::TextUnformatted("No records: this step resolved no contact (none touches an awake dynamic body).");
    }
    ImGui::TextDisabled("World is not copyable: the step already ran, the scene is drawn at its end and F steps "
                        "no more. Velocities and the impulse are drawn at 0.5 m per m/s.");
    ImGui::PopTextWrapPos();
}

void profile(const Simulation& sim) {
    // Listed in the order the stages run in World::step.
    static constexpr std::array<std::pair<const char*, double Profile::*>, 16> kStages{{
        {"backup", &Profile::backup},
        {"forces", &Profile::forces},
        {"integrate", &Profile::integrate},
        {"broad phase", &Profile::broadPhase},
        {"narrow phase", &Profile::narrowPhase},
        {"group", &Profile::group},
        {"resolve", &Profile::resolve},
        {"finish", &Profile::finish},
        {"particles", &Profile::particles},
        {" contacts", &Profile::particleContacts},
        {" project", &Profile::particleProject},
        {" integrate", &Profile::particleIntegrate},
        {"deformables", &Profile::deformables},
        {"sleep", &Profile::sleep},
        {"events", &Profile::events},
        {"total", &Profile::total},
    }};
    // Folded while contacts are stepped: the record's lines need the room.
    ImGui::SetNextItemOpen(!sim.contactStepper().active(), ImGuiCond_Always);
    if (!ImGui::CollapsingHeader("Last step [ms]")) return;
    const Profile& p = sim.scene().world().profile();
    // Two stages per line, to keep the panel short.
    for (std::size_t i = 0; i < kStages.size(); i += 2) {
        const auto& [left, leftField] = kStages[i];
        if (i + 1 == kStages.size()) {
            ImGui::Text("%-12s %7.4f", left, p.*leftField);
            break;
        }
        const auto& [right, rightField] = kStages[i + 1];
        ImGui::Text("%-12s %7.4f  %-12s %7.4f", left, p.*leftField, right, p.*rightField);
    }
}

/// The particle solver's settings (WorldSettings::particles) and one compliance for every
/// distance constraint, shown when the scene has particles.
void particleControls(Simulation& sim) {
    World& world = sim.scene().world();
    if (world.particleCount() == 0) return;
    if (!ImGui::CollapsingHeader("Particles", ImGuiTreeNodeFlags_DefaultOpen)) return;
    ImGui::Text("Particles   %zu, %zu distance constraints", world.particleCount(), world.distanceConstraintIds().size());
    WorldSettings s = world.settings();
    ParticleSettings& p = s.particles;
    bool changed = false;
    int solver = p.solver == ParticleSolver::XPBD ? 0 : 1;
    if (ImGui::Combo("Solver", &solver, "XPBD\0PBD\0")) {
        p.solver = solver == 0 ? ParticleSolver::XPBD : ParticleSolver::PBD;
        changed = true;
    }
    int integrator = p.integrator == ParticleIntegrator::Euler ? 0 : 1;
    if (ImGui::Combo("Integrator", &integrator, "Euler\0BDF2\0")) {
        p.integrator = integrator == 0 ? ParticleIntegrator::Euler : ParticleIntegrator::BDF2;
        changed = true;
    }
    changed |= ImGui::SliderInt("Substeps", &p.substeps, 1, 60);
    changed |= ImGui::SliderInt("Iterations", &p.iterations, 1, 30);
    if (p.solver == ParticleSolver::PBD) {
        float k = static_cast<float>(p.pbdStiffness);
        if (ImGui::SliderFloat("Stiffness k", &k, 0.01f, 1.0f)) {
            p.pbdStiffness = static_cast<real>(k);
            changed = true;
        }
    } else {
        changed |= ImGui::SliderInt("Rigid sweeps", &p.rigidSweeps, 1, 8); // per iteration, over compliance-0 links (XPBD only)
        changed |= ImGui::Checkbox("Solve lines", &p.solveLines);          // rigid links in straight runs, each solved exactly
        // One compliance for every distance constraint, on a log scale [m/N].
        static float exponent = -8;
        if (ImGui::SliderFloat("Compliance 10^", &exponent, -10.0f, -1.0f, "%.1f")) {
            const real alpha = std::pow(real(10), static_cast<real>(exponent));
            for (const DistanceConstraintId id : world.distanceConstraintIds()) world.setDistanceCompliance(id, alpha);
        }
    }
    if (changed) world.setSettings(s);
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

void parameters(Simulation& sim) {
    const auto list = sim.scene().parameters();
    for (std::size_t i = 0; i < list.size(); ++i) {
        float value = static_cast<float>(list[i].value);
        ImGui::PushID(static_cast<int>(100 + i));
        if (ImGui::SliderFloat(list[i].name.c_str(), &value, static_cast<float>(list[i].min),
                               static_cast<float>(list[i].max)))
            sim.setParameter(i, static_cast<real>(value));
        ImGui::PopID();
    }
}

void errorLine(const Simulation& sim) {
    if (sim.error().empty()) return;
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 24);
    ImGui::TextColored(kErrorColour, "%s", sim.error().c_str());
    ImGui::PopTextWrapPos();
}

} // namespace

/// The world's debug drawing (jounce::debugDraw), kind by kind, over the scene.
void debugDrawControls(Simulation& sim) {
    if (!ImGui::CollapsingHeader("Debug draw")) return;
    static constexpr std::pair<const char*, std::uint32_t> kinds[] = {
        {"Contact impulses", jounce::DebugDrawFlags::impulses},   {"Joints", jounce::DebugDrawFlags::joints},
        {"Bounding boxes", jounce::DebugDrawFlags::boundingBoxes}, {"Islands", jounce::DebugDrawFlags::islands},
        {"Centres of mass", jounce::DebugDrawFlags::centresOfMass}};
    std::uint32_t& flags = sim.scene().debugFlags;
    for (const auto& [label, bit] : kinds) {
        bool on = (flags & bit) != 0;
        if (ImGui::Checkbox(label, &on)) flags = on ? (flags | bit) : (flags & ~bit);
    }
}

PanelResult drawPanel(Simulation& sim, const std::vector<std::string>& sceneNames) {
    PanelResult result;
    ImGui::SetNextWindowPos(ImVec2(10, 10), ImGuiCond_FirstUseEver);
    ImGui::Begin("Jounce", nullptr, ImGuiWindowFlags_AlwaysAutoResize);
    result.sceneChanged = sceneChooser(sim, sceneNames);
    runControls(sim);
    ImGui::Checkbox("Show contacts", &sim.scene().showContacts);
    debugDrawControls(sim);
    ImGui::Separator();
    statistics(sim);
    profile(sim);
    contactStep(sim);
    particleControls(sim);
    actions(sim);
    parameters(sim);
    errorLine(sim);
    ImGui::Separator();
    result.resetCamera = ImGui::Button("Reset camera");
    ImGui::End();
    return result;
}

} // namespace jounce::demo
