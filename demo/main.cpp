// SPDX-License-Identifier: MIT
/// \file main.cpp
/// jounce-demo: runs the built-in scenes in a window, or headless to a PNG (the
/// [demo] test does the latter under xvfb-run). See usage() for the options.

#define SDL_MAIN_HANDLED // we own main(); SDL need not wrap it
#include "app.hpp"
#include "options.hpp"

#include "scenes/scene.hpp"

#include <exception>
#include <iostream>
#include <string_view>
#include <vector>

namespace {

constexpr int kExitFailure = 1;
constexpr int kExitUsage = 2;

int run(int argc, char** argv) {
    using namespace jounce::demo;
    const std::vector<std::string> names = jounce::scenes::sceneNames();
    const std::string_view program = argc > 0 ? argv[0] : "jounce-demo";
    const std::vector<std::string_view> args(argv + (argc > 0 ? 1 : 0), argv + argc);

    Options options;
    try {
        options = parseOptions(args, names);
    } catch (const UsageError& e) {
        std::cerr << "jounce-demo: " << e.what() << "\n"
                  << "Run '" << program << " --help' for usage.\n";
        return kExitUsage;
    }
    if (options.help) {
        std::cout << usage(program, names);
        return 0;
    }

    SDL_SetMainReady();
    return options.headless() ? runHeadless(options, names) : runInteractive(options, names);
}

} // namespace

int main(int argc, char** argv) {
    try {
        return run(argc, argv);
    } catch (const std::exception& e) {
        std::cerr << "jounce-demo: " << e.what() << "\n";
        return kExitFailure;
    }
}
