// SPDX-License-Identifier: MIT
#include "options.hpp"

#include <algorithm>
#include <charconv>
#include <sstream>

namespace jounce::demo {
namespace {

// Sizes past this are almost certainly typos, and would make the headless
// framebuffer allocation fail in a less readable way.
constexpr int kMaxSize = 8192;

int parseInt(std::string_view option, std::string_view text) {
    int value = 0;
    const auto* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (ec != std::errc{} || ptr != end) {
        throw UsageError(std::string(option) + " expects an integer, got '" + std::string(text) +
                         "'");
    }
    return value;
}

void parseSize(std::string_view text, Options& options) {
    const auto x = text.find('x');
    if (x == std::string_view::npos) {
        throw UsageError("--size expects WIDTHxHEIGHT, got '" + std::string(text) + "'");
    }
    options.width = parseInt("--size", text.substr(0, x));
    options.height = parseInt("--size", text.substr(x + 1));
    if (options.width < 1 || options.height < 1 || options.width > kMaxSize ||
        options.height > kMaxSize) {
        throw UsageError("--size must lie between 1x1 and " + std::to_string(kMaxSize) + "x" +
                         std::to_string(kMaxSize) + ", got '" + std::string(text) + "'");
    }
}

std::string joined(const std::vector<std::string>& names) {
    std::string out;
    for (const auto& name : names) {
        out += out.empty() ? "" : ", ";
        out += name;
    }
    return out;
}

void checkScene(const std::string& scene, const std::vector<std::string>& names) {
    if (std::find(names.begin(), names.end(), scene) == names.end()) {
        throw UsageError("unknown scene '" + scene + "' (known scenes: " + joined(names) + ")");
    }
}

// Cross-option rules, checked once every option is known.
void checkCombination(const Options& options) {
    if (options.frames && !options.screenshot) {
        throw UsageError("--frames only makes sense with --screenshot FILE.png");
    }
    if (options.stepContacts > 0 && !options.screenshot) {
        throw UsageError("--step-contacts only makes sense with --screenshot FILE.png");
    }
}

} // namespace

Options parseOptions(std::span<const std::string_view> args,
                     const std::vector<std::string>& sceneNames) {
    Options options;
    if (!sceneNames.empty()) options.scene = sceneNames.front();

    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string_view arg = args[i];
        if (arg == "--help" || arg == "-h") {
            options.help = true;
            return options; // --help wins over anything else on the line
        }
        const bool takesValue =
            arg == "--scene" || arg == "--scene-file" || arg == "--frames" || arg == "--screenshot" || arg == "--size" ||
            arg == "--step-contacts";
        if (!takesValue) throw UsageError("unknown argument '" + std::string(arg) + "'");
        if (i + 1 >= args.size()) throw UsageError(std::string(arg) + " needs a value");
        const std::string_view value = args[++i];

        if (arg == "--scene") {
            options.scene = std::string(value);
            checkScene(options.scene, sceneNames);
        } else if (arg == "--scene-file") {
            // The scenes module loads a name ending in .json as a scene file; a bad file is
            // reported when the demo loads it.
            if (!value.ends_with(".json")) throw UsageError("--scene-file needs a path ending in .json");
            options.scene = std::string(value);
        } else if (arg == "--frames") {
            options.frames = parseInt(arg, value);
            if (*options.frames < 0) {
                throw UsageError("--frames must be 0 or more, got " + std::string(value));
            }
        } else if (arg == "--step-contacts") {
            options.stepContacts = parseInt(arg, value);
            if (options.stepContacts < 0) {
                throw UsageError("--step-contacts must be 0 or more, got " + std::string(value));
            }
        } else if (arg == "--screenshot") {
            if (value.empty()) throw UsageError("--screenshot needs a file name");
            options.screenshot = std::string(value);
        } else {
            parseSize(value, options);
        }
    }
    checkCombination(options);
    if (options.scene.empty()) throw UsageError("no scenes are built into this demo");
    return options;
}

std::string usage(std::string_view program, const std::vector<std::string>& sceneNames) {
    std::ostringstream out;
    out << "Usage: " << program << " [--scene NAME] [--size WxH]\n"
        << "       " << program << " --scene NAME --frames N [--step-contacts K] --screenshot FILE.png\n"
        << "                  [--size WxH]\n"
        << "\n"
        << "Jounce demo: runs a built-in scene in a window with a control panel.\n"
        << "\n"
        << "  --scene NAME         scene to start with (default: first in the list)\n"
        << "  --scene-file PATH    start with a scene file (.json; docs/integration.md)\n"
        << "  --frames N           headless: step the scene N times, one step per frame\n"
        << "  --step-contacts K    headless: then press 'c' K times (record the next step,\n"
        << "                       show its K-th resolution record)\n"
        << "  --screenshot FILE    headless: render the last frame to FILE as PNG and exit\n"
        << "                       (hidden window; works under xvfb-run)\n"
        << "  --size WxH           window / screenshot size in pixels (default 1280x720)\n"
        << "  --help               show this text\n"
        << "\n"
        << "Mouse: left drag orbits, right or middle drag pans, wheel zooms.\n"
        << "Keys: space pauses, '.' or 'n' steps once; 'c' steps one contact (the first\n"
        << "press records the next step, each press shows its next resolution record),\n"
        << "'f' leaves that mode.\n"
        << "\n"
        << "Scenes: " << joined(sceneNames) << "\n"
        << "\n"
        << "Exit status: 0 success, 1 runtime failure, 2 bad arguments.\n";
    return out.str();
}

} // namespace jounce::demo
