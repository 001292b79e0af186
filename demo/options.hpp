// SPDX-License-Identifier: MIT
#pragma once
/// \file options.hpp
/// The demo's command line. Parsing is kept apart from SDL so mistakes are reported
/// (exit status 2) before any window opens.

#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace jounce::demo {

struct Options {
    std::string scene;                     ///< validated against sceneNames(), or a scene file's path (.json)
    std::optional<int> frames;             ///< headless: steps before the screenshot
    std::optional<std::string> screenshot; ///< headless when set: PNG path
    int stepContacts = 0;                  ///< headless: presses of 'c' after the frames
    int width = 1280;                      ///< window / screenshot size [px]
    int height = 720;
    bool help = false;

    bool headless() const { return screenshot.has_value(); }
};

/// A mistake on the command line; what() is the message for the user.
class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Parses the arguments after the program name. `sceneNames` are the valid --scene
/// values; the first is the default. Throws UsageError.
Options parseOptions(std::span<const std::string_view> args,
                     const std::vector<std::string>& sceneNames);

std::string usage(std::string_view program, const std::vector<std::string>& sceneNames);

} // namespace jounce::demo
