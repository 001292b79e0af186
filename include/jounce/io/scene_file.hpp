// SPDX-License-Identifier: MIT
#pragma once
/// \file scene_file.hpp
/// Scene files: a world written as JSON text and read back (docs/integration.md,
/// "Scene files", has the format). A file is the Descs the create calls take (bodies
/// with their colliders, force generators, joints, particles and their constraints,
/// deformables and their handles) plus the settings and the state the public setters
/// reach (velocities, sleep). Loading goes through the same create calls, so a value
/// the API rejects is rejected in a file too, with the JSON path of the bad field:
///
///     jounce: bodies[3].colliders[0].shape.halfExtents = (0.5, -1, 0.5): each must be > 0
///
/// Objects refer to each other by their index in the file. Unknown fields are errors
/// (a typo must not pass silently); missing fields take the Descs' defaults.
///
/// The JSON library stays inside Jounce: this header needs nothing beyond the World.

#include <jounce/world/world.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace jounce {

/// What a scene file holds beside the world: how to step it and where to look from.
/// Optional in a file; a game may ignore it.
struct SceneInfo {
    std::string name;
    std::string description;
    real timeStep = real(1) / 60;  ///< the fixed step the scene was made for [s]
    int substeps = 1;              ///< World::step's substeps
    Vec3 cameraTarget = Vec3(0, 2, 0);
    real cameraDistance = 20;      ///< [m]
    real cameraYaw = real(0.6);    ///< heading about +y [rad]; 0 looks along -z
};

/// The handles of what a scene file created, in file order (entry k of `bodies` is
/// the file's bodies[k]).
struct SceneObjects {
    std::vector<BodyId> bodies;
    std::vector<ForceGeneratorId> forceGenerators;
    std::vector<JointId> joints;
    std::vector<ParticleId> particles;
    std::vector<DistanceConstraintId> distanceConstraints;
    std::vector<ParticleAttachmentId> particleAttachments;
    std::vector<ParticleConstraintId> particleConstraints;
    std::vector<ParticleVolumeId> particleVolumes;
    std::vector<ParticleClusterId> particleClusters;
    std::vector<ParticleSurfaceId> particleSurfaces;
    std::vector<ParticleHierarchyId> particleHierarchies;
    std::vector<DeformableId> deformables;
};

/// A loaded file: a new world with the file's settings, and its SceneInfo.
struct LoadedScene {
    World world;
    SceneInfo info;
    SceneObjects objects;
};

/// The world as it is now, as scene-file text (deterministic: the same world gives
/// the same text).
std::string exportScene(const World& world, const SceneInfo& info = {});

/// A new world from scene-file text. Throws jounce::Error naming the JSON path (or
/// line and column for a syntax error), the value and the rule.
LoadedScene loadScene(std::string_view json);

/// Adds a file's objects to an existing world (its settings stay; the file's are
/// checked but not applied). All or nothing: after a throw the world is unchanged.
SceneObjects addScene(World& world, std::string_view json, SceneInfo* info = nullptr);

/// File helpers: read or write the whole file; jounce::Error names the path on failure.
std::string readTextFile(const std::string& path);
void writeTextFile(const std::string& path, std::string_view text);

/// Without exceptions (error.hpp): the error goes to `onError` and the call returns an
/// empty value (a LoadedScene with an empty world, an empty string). The loaded world
/// keeps `onError` as its error handler. addScene reports to the world's handler.
LoadedScene loadScene(std::string_view json, const ErrorHandler& onError);
std::string readTextFile(const std::string& path, const ErrorHandler& onError);
void writeTextFile(const std::string& path, std::string_view text, const ErrorHandler& onError);

} // namespace jounce
