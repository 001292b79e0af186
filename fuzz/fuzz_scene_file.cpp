// SPDX-License-Identifier: MIT
// Fuzz target: the scene-file loader (docs/fuzzing.md).
//
// The input is JSON text. loadScene either throws jounce::Error (which names the JSON
// path or line and column) or gives a world that
//  - exports to text that loads again (a file the loader accepts, the exporter must
//    be able to write back), and
//  - stays finite for a few steps at the file's own time step.
// addScene into a world that already holds a body is all or nothing: after a throw the
// world's snapshot is byte for byte what it was.

#include "fuzz/world_checks.hpp"

#include <jounce/io/scene_file.hpp>

#include <string_view>

using namespace jounce;

namespace {

/// Substeps are capped so one input stays fast; the stepping code is the same.
constexpr int maxSubsteps = 4;
constexpr int steps = 3;

void loadRoundTripAndStep(std::string_view text) {
    LoadedScene scene = loadScene(text);
    const std::string exported = exportScene(scene.world, scene.info);
    try {
        (void)loadScene(exported);
    } catch (const Error& e) {
        std::fprintf(stderr, "%s\n", e.what());
        fuzz::finding("an accepted scene exports to text the loader rejects", "exportScene/loadScene");
    }
    fuzz::stepAndCheck(scene.world, scene.info.timeStep, std::min(scene.info.substeps, maxSubsteps), steps);
}

World worldWithGround() {
    World w;
    BodyDesc ground;
    ground.type = BodyType::Static;
    ground.colliders.push_back({Box{Vec3(10, real(0.5), 10)}, Transform{}, 1, {}, {}});
    w.createBody(ground);
    return w;
}

void addAllOrNothing(std::string_view text) {
    World w = worldWithGround();
    const std::vector<std::uint8_t> before = w.saveState();
    SceneInfo info;
    try {
        addScene(w, text, &info);
    } catch (const Error&) {
        if (w.saveState() != before) fuzz::finding("addScene threw but changed the world", "addScene");
        return;
    }
    fuzz::stepAndCheck(w, info.timeStep, std::min(info.substeps, maxSubsteps), steps);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        loadRoundTripAndStep(text);
    } catch (const Error&) {
        // Flagged: the loader named what was wrong.
    }
    addAllOrNothing(text);
    return 0;
}
