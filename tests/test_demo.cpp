// SPDX-License-Identifier: MIT
/// \file test_demo.cpp
/// Runs the real jounce-demo binary: headless under xvfb-run (Mesa's software
/// OpenGL is enough), then checks the PNG it wrote shows a scene rather than an
/// empty or garbage frame. Also checks the command line's exit statuses, and the
/// GL-free logic of the panel's statistics and the step-contact mode.

#include <catch2/catch.hpp>

#include <stb/stb_image.h>

// Relative: the shared clear colour lives with the demo, and this test target
// adds no include directories of its own.
#include "../demo/background.hpp"
#include "../demo/contact_inspect.hpp"
#include "../demo/simulation.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
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

void checkScreenshot(const std::string& scene, const std::string& extraArgs = "") {
    const auto png = std::filesystem::temp_directory_path() /
                     ("jounce-demo-" + scene + "-" + std::to_string(::getpid()) + ".png");
    std::filesystem::remove(png);
    const std::string command = demoCommand(
        "--scene " + scene + " --frames 120 " + extraArgs + " --screenshot " + quoted(png.string()), true);
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
    SECTION("column in the step-contact mode") { checkScreenshot("column", "--step-contacts 5"); }
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
    CHECK(status("--step-contacts 3") == 2);
    CHECK(status("--scene column --frames 1 --step-contacts -1 --screenshot x.png") == 2);
}

namespace {

using jounce::demo::ContactStepper;
using jounce::demo::Simulation;
using jounce::demo::SteppedRecord;

// Every body's state, to compare two worlds exactly.
std::vector<jounce::real> bodyState(const jounce::World& world) {
    std::vector<jounce::real> state;
    for (const jounce::BodyId id : world.bodyIds()) {
        const jounce::BodyState b = world.body(id);
        for (const jounce::Vec3* v : {&b.position, &b.linearVelocity, &b.angularVelocity})
            state.insert(state.end(), v->data(), v->data() + 3);
        state.insert(state.end(), b.orientation.coeffs().data(), b.orientation.coeffs().data() + 4);
    }
    return state;
}

} // namespace

TEST_CASE("the step-contact mode records one ordinary step of the column", "[demo]") {
    Simulation recorded("column");
    Simulation plain("column");
    // Step 11: the column sleeps from step 24 (no contacts to record then).
    for (int i = 0; i < 10; ++i) {
        REQUIRE(recorded.stepOnce());
        REQUIRE(plain.stepOnce());
    }
    REQUIRE(recorded.stepContact());
    const ContactStepper& stepper = recorded.contactStepper();
    const jounce::World& world = recorded.scene().world();
    REQUIRE(stepper.active());
    CHECK(recorded.paused());
    CHECK(stepper.step() == 11);
    CHECK(world.stepCount() == 11);

    // One step, resolved contact by contact: every record names a contact of that step
    // (one substep here, so the array is the world's resolvedContacts()).
    const auto& records = stepper.records();
    REQUIRE(!records.empty());
    CHECK(stepper.total() == records.size());
    CHECK(stepper.index() == 0);
    for (const SteppedRecord& r : records) {
        CHECK(r.contactCount == world.resolvedContacts().size());
        CHECK(r.record.contact < r.contactCount);
    }
    CHECK(records.back().record.contact < world.resolvedContacts().size());
    // The default solver, the soft step: each substep's warm start, biased solve and
    // relaxing sweep, every manifold of the column in a coloured block.
    const auto relaxing = std::count_if(records.begin(), records.end(), [](const SteppedRecord& r) {
        return r.record.kind == jounce::ResolutionRecord::Kind::Relax;
    });
    CHECK(relaxing > 0);
    for (const SteppedRecord& r : records) {
        CHECK(r.record.colour != jounce::ResolutionRecord::noColour);
        CHECK(r.record.substep < static_cast<std::uint32_t>(world.settings().resolver.soft.substeps));
    }

    // The observer only reads: the recorded step is the same as a plain one.
    REQUIRE(plain.stepOnce());
    CHECK(bodyState(world) == bodyState(plain.scene().world()));

    // C walks the records one by one and stops at the last; F leaves without stepping.
    REQUIRE(recorded.stepContact());
    CHECK(stepper.index() == 1);
    recorded.contactStepper().show(records.size() + 10);
    CHECK(stepper.index() == records.size() - 1);
    CHECK_FALSE(recorded.stepContact());
    CHECK(stepper.index() == records.size() - 1);
    recorded.finishContactStep();
    CHECK_FALSE(stepper.active());
    CHECK(stepper.current() == nullptr);
    CHECK(world.stepCount() == 11);

    // Any ordinary step leaves the mode too.
    REQUIRE(recorded.stepContact());
    REQUIRE(stepper.active());
    REQUIRE(recorded.stepOnce());
    CHECK_FALSE(stepper.active());
    CHECK(world.stepCount() == 13);
}

TEST_CASE("the step-contact mode draws the shown record", "[demo]") {
    Simulation sim("column");
    for (int i = 0; i < 10; ++i) REQUIRE(sim.stepOnce());
    REQUIRE(sim.stepContact());
    const SteppedRecord* shown = sim.contactStepper().current();
    REQUIRE(shown != nullptr);
    const jounce::World& world = sim.scene().world();
    // Body A of a column contact is a dynamic box: its 12 edges, then the point's
    // cross (3 lines) and the normal; the impulse line only for a non-zero impulse.
    REQUIRE(shown->record.body[0] != jounce::noBody);
    jounce::scenes::DrawList list;
    jounce::demo::drawRecord(world, sim.contactStepper(), list);
    CHECK(list.lines.size() >= 12 + 4);
    for (const auto& line : list.lines) {
        CHECK(line.overlay);
        CHECK(line.a.allFinite());
        CHECK(line.b.allFinite());
    }
    // The normal starts at the contact point, which lies between the two boxes.
    const jounce::Vec3 a = world.body(sim.contactStepper().bodyId(shown->record.body[0])).position;
    CHECK((shown->point - a).norm() < 1.0);

    sim.finishContactStep();
    list.clear();
    jounce::demo::drawRecord(world, sim.contactStepper(), list);
    CHECK(list.lines.empty());
}

TEST_CASE("the panel's record lines and body counts", "[demo]") {
    SteppedRecord position;
    position.record.kind = jounce::ResolutionRecord::Kind::Position;
    position.record.contact = 3;
    position.record.island = 1;
    position.record.body = {2, jounce::noBody};
    position.record.before = jounce::real(0.01);
    position.record.after = jounce::real(0.002);
    position.record.linearChange[0] = jounce::Vec3(0, jounce::real(0.008), 0);
    position.contactCount = 7;
    const auto lines = jounce::demo::describeRecord(position);
    REQUIRE(lines.size() == 5); // kind, bodies, depth, body A's linear and angular change
    CHECK(lines[0] == "Position  contact 3 of 7, island 1");
    CHECK(lines[1] == "bodies    #2 (A), world (B)");
    CHECK(lines[2] == "depth     10.0000 -> 2.0000 mm");
    CHECK(lines[3] == "A moved  (0.0000, 8.0000, 0.0000) mm");

    SteppedRecord velocity = position;
    velocity.record.kind = jounce::ResolutionRecord::Kind::Velocity;
    velocity.record.body = {2, 5};
    velocity.record.before = jounce::real(-0.5);
    velocity.record.after = 0;
    velocity.record.impulseWorld = jounce::Vec3(0, 40, 0);
    velocity.record.velocityBefore[0].linear = jounce::Vec3(0, jounce::real(-0.5), 0);
    const auto vlines = jounce::demo::describeRecord(velocity);
    REQUIRE(vlines.size() == 9); // both bodies' velocities before -> after, the impulse in both frames
    CHECK(vlines[0] == "Velocity  contact 3 of 7, island 1");
    CHECK(vlines[2] == "v normal  -0.5000 -> 0.0000 m/s");
    CHECK(vlines[3] == "A v  (0.000, -0.500, 0.000) -> (0.000, 0.000, 0.000) m/s");
    CHECK(vlines[8] == "J world   (0.000, 40.000, 0.000) N s");

    // A soft-step visit: a manifold's contacts, and where it sits in the coloured solver.
    SteppedRecord solve = velocity;
    solve.record.kind = jounce::ResolutionRecord::Kind::Relax;
    solve.record.points = 4;
    solve.record.substep = 2;
    solve.record.colour = 5;
    solve.record.block = 17;
    solve.record.lane = 3;
    const auto slines = jounce::demo::describeRecord(solve);
    REQUIRE(slines.size() == 10);
    CHECK(slines[0] == "Relax     contacts 3-6 of 7, island 1");
    CHECK(slines[1] == "substep 2, colour 5, block 17, lane 3");
    solve.record.colour = jounce::ResolutionRecord::noColour;
    CHECK(jounce::demo::describeRecord(solve)[1] == "substep 2, row by row (an island with joints or a held body)");

    Simulation sim("column");
    auto counts = jounce::demo::countBodies(sim.scene().world());
    CHECK(counts.dynamicBodies == 10);
    CHECK(counts.sleepingBodies == 0);
    const auto ids = sim.scene().world().bodyIds();
    for (const jounce::BodyId id : ids)
        if (sim.scene().world().body(id).isDynamic()) {
            sim.scene().world().setAwake(id, false);
            break;
        }
    counts = jounce::demo::countBodies(sim.scene().world());
    CHECK(counts.sleepingBodies == 1);
}
