// SPDX-License-Identifier: MIT
#pragma once
// A bare scene for tests: a world with the scenes' conventions (their grab, draw and
// step), built up by the test itself.

#include "scenes/scene.hpp"

namespace testing {

class TestScene final : public jounce::scenes::Scene {
public:
    explicit TestScene(bool sleep = true) {
        jounce::WorldSettings s = world_.settings();
        s.sleep.enabled = sleep;
        world_.setSettings(s);
    }
    const char* name() const override { return "test"; }
    const char* description() const override { return "test"; }
};

} // namespace testing
