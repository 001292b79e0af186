// SPDX-License-Identifier: MIT
#include "simulation.hpp"

#include <algorithm>
#include <exception>

namespace jounce::demo {
namespace {

constexpr float kMinTimeScale = 0.01f;
constexpr float kMaxTimeScale = 10.0f;

} // namespace

Simulation::Simulation(std::string_view sceneName) { load(sceneName); }

void Simulation::load(std::string_view sceneName) {
    // Build first: if makeScene throws, the current scene stays.
    auto scene = scenes::makeScene(sceneName);
    stepper_.leave();
    scene_ = std::move(scene);
    sceneName_ = std::string(sceneName);
    accumulator_ = 0;
    error_.clear();
}

bool Simulation::tryLoad(std::string_view sceneName) {
    try {
        load(sceneName);
        return true;
    } catch (const std::exception& e) {
        error_ = e.what();
        return false;
    }
}

void Simulation::act(std::size_t index) {
    try {
        scene_->act(index);
    } catch (const std::exception& e) {
        error_ = e.what();
    }
}

void Simulation::setParameter(std::size_t index, real value) {
    try {
        scene_->setParameter(index, value);
    } catch (const std::exception& e) {
        error_ = e.what();
    }
}

void Simulation::setTimeScale(float scale) {
    timeScale_ = std::clamp(scale, kMinTimeScale, kMaxTimeScale);
}

int Simulation::advance(double realSeconds) {
    if (paused_) return 0;
    const double h = static_cast<double>(scene_->timeStep());
    accumulator_ += std::max(realSeconds, 0.0) * static_cast<double>(timeScale_);
    int steps = 0;
    while (accumulator_ >= h && steps < kMaxStepsPerFrame) {
        if (!tryStep()) return steps;
        accumulator_ -= h;
        ++steps;
    }
    // Keep at most a partial step, so a stall is forgotten rather than replayed.
    accumulator_ = std::min(accumulator_, h);
    return steps;
}

bool Simulation::stepOnce() { return tryStep(); }

bool Simulation::stepContact() {
    if (stepper_.active()) return stepper_.next();
    paused_ = true;
    accumulator_ = 0;
    try {
        stepper_.record(*scene_);
        return true;
    } catch (const std::exception& e) {
        error_ = e.what();
        return false;
    }
}

bool Simulation::tryStep() {
    stepper_.leave();
    try {
        scene_->step();
        return true;
    } catch (const std::exception& e) {
        error_ = e.what();
        paused_ = true;
        accumulator_ = 0;
        return false;
    }
}

} // namespace jounce::demo
