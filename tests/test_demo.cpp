/// \file test_demo.cpp
/// Runs the real jounce-demo binary: headless under xvfb-run (Mesa's software
/// OpenGL is enough), then checks the PNG it wrote shows a scene rather than an
/// empty or garbage frame. Also checks the command line's exit statuses.

#include <catch2/catch.hpp>

#include <stb/stb_image.h>

// Relative: the shared clear colour lives with the demo, and this test target
// adds no include directories of its own.
#include "../demo/background.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <set>
#include <string>
#include <vector>

#ifndef JOUNCE_DEMO_PATH
#error "JOUNCE_DEMO_PATH must name the jounce-demo executable (tests/CMakeLists.txt sets it)"
#endif

namespace {

constexpr int kWidth = 1280;
constexpr int kHeight = 720;

// Exit status of a shell command, or -1 when it did not exit normally.
int shell(const std::string& command) {
    const int status = std::system(command.c_str());
    return status != -1 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string quoted(const std::string& text) { return "'" + text + "'"; }

// A shell command running jounce-demo with `args`, under xvfb-run when `display`.
//
// In the sanitizer build LeakSanitizer flags allocations that SDL's libdbus and
// Mesa's (unloaded) driver never free at exit, which no code of ours can fix. Leak
// checking is switched off for the demo process only (xvfb-run passes the
// environment on); ASan's memory errors and UBSan stay on, and our own leaks are
// still caught by jounce-tests.
std::string demoCommand(const std::string& args, bool display) {
    std::string command = "ASAN_OPTIONS=\"${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0\" ";
    if (display) command += "xvfb-run -a -s \"-screen 0 1280x720x24\" ";
    return command + quoted(JOUNCE_DEMO_PATH) + " " + args;
}

struct Image {
    int width = 0;
    int height = 0;
    std::vector<std::uint8_t> rgb;
};

Image loadPng(const std::filesystem::path& path) {
    Image image;
    int channels = 0;
    const std::unique_ptr<stbi_uc, void (*)(void*)> data(
        stbi_load(path.c_str(), &image.width, &image.height, &channels, 3), stbi_image_free);
    if (data) {
        image.rgb.assign(data.get(), data.get() + static_cast<std::size_t>(image.width) *
                                                      static_cast<std::size_t>(image.height) * 3);
    }
    return image;
}

struct Coverage {
    double share = 0;          ///< fraction of pixels not exactly the clear colour
    double rightHalfShare = 0; ///< the same, over the right half of the image only
    std::size_t colours = 0;   ///< distinct colours among those pixels
};

Coverage coverage(const Image& image) {
    Coverage c;
    std::set<std::uint32_t> colours;
    std::size_t drawn = 0;
    std::size_t drawnRight = 0;
    for (int y = 0; y < image.height; ++y) {
        for (int x = 0; x < image.width; ++x) {
            const auto index = static_cast<std::size_t>(y) * static_cast<std::size_t>(image.width) +
                               static_cast<std::size_t>(x);
            const std::uint8_t* p = &image.rgb[index * 3];
            if (p[0] == jounce::demo::kBackground[0] && p[1] == jounce::demo::kBackground[1] &&
                p[2] == jounce::demo::kBackground[2]) {
                continue;
            }
            ++drawn;
            if (x >= image.width / 2) ++drawnRight;
            colours.insert(std::uint32_t{p[0]} << 16 | std::uint32_t{p[1]} << 8 | p[2]);
        }
    }
    const double pixels = static_cast<double>(image.width) * image.height;
    c.share = static_cast<double>(drawn) / pixels;
    c.rightHalfShare = static_cast<double>(drawnRight) / (pixels / 2);
    c.colours = colours.size();
    return c;
}

void checkScreenshot(const std::string& scene) {
    const auto png = std::filesystem::temp_directory_path() /
                     ("jounce-demo-" + scene + "-" + std::to_string(::getpid()) + ".png");
    std::filesystem::remove(png);
    const std::string command = demoCommand(
        "--scene " + scene + " --frames 120 --screenshot " + quoted(png.string()), true);
    INFO(command);
    REQUIRE(shell(command) == 0);

    const Image image = loadPng(png);
    std::filesystem::remove(png);
    REQUIRE(image.width == kWidth);
    REQUIRE(image.height == kHeight);

    // The clear colour is written exactly (no multisampling headless), so any other
    // value means something was drawn there. Over 2%: the grid, the bodies and the
    // panel together cover far more; less means the scene or panel is missing.
    // Under 98%: something must leave the background visible, else the camera sits
    // inside a body or the clear failed. The right half: the panel sits at the top
    // left and never reaches it, so drawing there (over 0.5%) is the 3D scene itself.
    // Two colours at least: lit shading and the panel give many; one would be a
    // flat fill.
    const Coverage c = coverage(image);
    INFO("drawn share " << c.share << ", right half " << c.rightHalfShare << ", colours "
                        << c.colours);
    CHECK(c.share > 0.02);
    CHECK(c.share < 0.98);
    CHECK(c.rightHalfShare > 0.005);
    CHECK(c.colours >= 2);
}

bool haveXvfb() { return shell("command -v xvfb-run > /dev/null 2>&1") == 0; }

} // namespace

TEST_CASE("jounce-demo renders scenes headless to a PNG", "[demo]") {
    {
        INFO("xvfb-run is missing: apt-get install xvfb xauth");
        REQUIRE(haveXvfb());
    }
    SECTION("ballistic") { checkScreenshot("ballistic"); }
    SECTION("springs") { checkScreenshot("springs"); }
}

TEST_CASE("jounce-demo reports bad arguments with exit status 2", "[demo]") {
    // Arguments are checked before any window opens, so no display is needed.
    const auto status = [](const std::string& args) {
        return shell(demoCommand(args + " > /dev/null 2>&1", false));
    };
    CHECK(status("--help") == 0);
    CHECK(status("--scene no-such-scene --frames 1 --screenshot x.png") == 2);
    CHECK(status("--scene ballistic --frames -1 --screenshot x.png") == 2);
    CHECK(status("--scene ballistic --frames") == 2);
    CHECK(status("--scene") == 2);
    CHECK(status("--frames 3") == 2);
    CHECK(status("--size 0x10") == 2);
    CHECK(status("--bogus") == 2);
}
