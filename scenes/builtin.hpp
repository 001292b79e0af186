#pragma once
// Factories of the built-in scenes (one file each), listed by scene.cpp's registry.

#include "scenes/scene.hpp"

namespace jounce::scenes {

std::unique_ptr<Scene> makeBallistic();
std::unique_ptr<Scene> makeContacts();
std::unique_ptr<Scene> makeFireworks();
std::unique_ptr<Scene> makeSpinning();
std::unique_ptr<Scene> makeSprings();

} // namespace jounce::scenes
