// SPDX-License-Identifier: MIT
// Scenes from scene files (docs/integration.md, "Scene files"): a file holds a world
// and its SceneInfo (name, time step, camera), not a built-in scene's game-side logic
// (rounds fired, fireworks spawned, handles moved each frame) or its colours.

#include "scenes/scene.hpp"

#include <jounce/io/scene_file.hpp>

namespace jounce::scenes {
namespace {

class FileScene final : public Scene {
public:
    explicit FileScene(LoadedScene loaded) : info_(std::move(loaded.info)) {
        world_ = std::move(loaded.world);
        if (info_.name.empty()) info_.name = "scene file";
        // Every body is drawn: by its colliders, or as a small sphere when it has none.
        const Colour palette[] = {{0.85f, 0.45f, 0.3f}, {0.35f, 0.6f, 0.85f}, {0.45f, 0.75f, 0.4f}, {0.85f, 0.75f, 0.3f}};
        std::size_t n = 0;
        for (const BodyId id : loaded.objects.bodies) {
            const bool fixed = world_.body(id).type == BodyType::Static;
            visuals_.push_back({id, Primitive::Sphere, Vec3::Constant(real(0.1)),
                                fixed ? Colour{0.6f, 0.6f, 0.62f} : palette[n++ % 4]});
        }
    }
    const char* name() const override { return info_.name.c_str(); }
    const char* description() const override { return info_.description.c_str(); }
    real timeStep() const override { return info_.timeStep; }
    int substeps() const override { return info_.substeps; }
    Vec3 cameraTarget() const override { return info_.cameraTarget; }
    real cameraDistance() const override { return info_.cameraDistance; }
    real cameraYaw() const override { return info_.cameraYaw; }

private:
    SceneInfo info_;
};

} // namespace

bool isSceneFile(std::string_view name) { return name.ends_with(".json"); }

std::unique_ptr<Scene> sceneFromText(std::string_view json) { return std::make_unique<FileScene>(loadScene(json)); }

std::unique_ptr<Scene> loadSceneFile(const std::string& path) { return sceneFromText(readTextFile(path)); }

std::string exportScene(const Scene& scene) {
    SceneInfo info;
    info.name = scene.name();
    info.description = scene.description();
    info.timeStep = scene.timeStep();
    info.substeps = scene.substeps();
    info.cameraTarget = scene.cameraTarget();
    info.cameraDistance = scene.cameraDistance();
    info.cameraYaw = scene.cameraYaw();
    return jounce::exportScene(scene.world(), info);
}

} // namespace jounce::scenes
