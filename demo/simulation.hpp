// SPDX-License-Identifier: MIT
#pragma once
/// \file simulation.hpp
/// Runs one scene at a fixed time step, decoupled from the frame rate: real time
/// (times the time scale) fills an accumulator that is spent in whole steps of
/// scene->timeStep(). Every step has the same length, so a run is the same sequence
/// of states on a fast or a slow machine; only how many steps land on each frame
/// differs.

#include "contact_inspect.hpp"

#include "scenes/scene.hpp"

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace jounce::demo {

class Simulation {
public:
    /// Most steps taken in one frame. After a long stall (a breakpoint, a dragged
    /// window) the backlog is dropped rather than replayed, so one slow frame
    /// cannot snowball into ever slower ones.
    static constexpr int kMaxStepsPerFrame = 8;

    /// Builds the scene; throws jounce::Error for an unknown name.
    explicit Simulation(std::string_view sceneName);

    /// Replaces the scene with a fresh one (also used to restart it). Throws
    /// jounce::Error for an unknown name, keeping the current scene.
    void load(std::string_view sceneName);
    /// load() for the panel: on failure keeps the current scene, records error()
    /// and returns false.
    bool tryLoad(std::string_view sceneName);
    /// Runs scene action `index`; a throw is recorded in error().
    void act(std::size_t index);
    /// Spends `realSeconds` of wall-clock time; returns the steps taken.
    int advance(double realSeconds);
    /// One step now, whether paused or not; false if the step threw (see error()).
    /// Any step (and any load) leaves the step-contact mode first.
    bool stepOnce();

    /// The 'step contact' key (C). Outside the mode: pauses, takes the next step with
    /// every resolution record kept (ContactStepper::record) and shows the first
    /// record. In the mode: shows the next record. False if the step threw (see
    /// error()) or the last record is already shown.
    bool stepContact();
    /// The 'finish' key (F): leaves the mode. The world already stands at the end of
    /// the recorded step, which was an ordinary step, so nothing more is stepped.
    void finishContactStep() { stepper_.leave(); }
    const ContactStepper& contactStepper() const { return stepper_; }
    ContactStepper& contactStepper() { return stepper_; }

    scenes::Scene& scene() { return *scene_; }
    /// Sets a scene parameter (a slider); an error is shown, not thrown.
    void setParameter(std::size_t index, real value);
    const scenes::Scene& scene() const { return *scene_; }
    const std::string& sceneName() const { return sceneName_; }

    bool paused() const { return paused_; }
    void setPaused(bool paused) { paused_ = paused; }
    float timeScale() const { return timeScale_; }
    void setTimeScale(float scale);

    /// The message of the last step, load or action that threw, or empty. A failed
    /// step pauses the run: the world rolled back, and stepping again would just
    /// fail again.
    const std::string& error() const { return error_; }

private:
    bool tryStep();

    std::string sceneName_;
    std::unique_ptr<scenes::Scene> scene_;
    double accumulator_ = 0; ///< unspent simulated time [s]
    bool paused_ = false;
    float timeScale_ = 1;
    std::string error_;
    ContactStepper stepper_;
};

} // namespace jounce::demo
