// SPDX-License-Identifier: MIT
#pragma once
/// \file scene.hpp
/// Scenes shared by the demo, the tests and jounce-bench: all three build the same
/// worlds from this module (STYLE.md 14). A scene owns a World, may run game-side
/// logic before each step (firing rounds, spawning fireworks), and describes what to
/// draw as a plain DrawList, so the renderer never touches physics internals.

#include <jounce/jounce.hpp>

#include <array>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace jounce::scenes {

enum class Primitive { Box, Sphere, Capsule, Cylinder, Plane, Particle, Triangles };

using Colour = std::array<float, 3>; ///< linear RGB in [0, 1]

/// How to draw one body. `size`: Box half extents; Sphere and Particle (radius, -, -);
/// Capsule and Cylinder (radius, half height of the straight part, -), axis = body y;
/// Plane (half size x, -, half size z), normal = body y.
struct Visual {
    BodyId body{};
    Primitive shape = Primitive::Box;
    Vec3 size = Vec3::Constant(real(0.5));
    Colour colour{0.8f, 0.8f, 0.8f};
};

struct DrawItem {
    Primitive shape = Primitive::Box;
    Transform transform;
    Vec3 size = Vec3::Zero();
    Colour colour{};
    /// Primitive::Triangles: corners in the item's frame, three per triangle,
    /// counter-clockwise seen from the front (hulls and meshes). Shared, not copied.
    std::shared_ptr<const std::vector<Vec3>> triangles;
};

struct DrawLine {
    Vec3 a = Vec3::Zero();
    Vec3 b = Vec3::Zero();
    Colour colour{};
    bool overlay = false; ///< drawn over everything (contact normals inside bodies)
};

struct DrawList {
    std::vector<DrawItem> items;
    std::vector<DrawLine> lines;
    void clear() {
        items.clear();
        lines.clear();
    }
};

/// The triangles of a square grid of (cells + 1)^2 vertices numbered i * (cells + 1) + k,
/// vertex (i, k) at x growing with i and z with k: two per cell, counter-clockwise seen
/// from above (+y), as a terrain mesh wants them.
std::vector<std::array<std::uint32_t, 3>> gridTriangles(int cells);

class Scene {
public:
    virtual ~Scene() = default;

    virtual const char* name() const = 0;
    virtual const char* description() const = 0;
    virtual real timeStep() const { return real(1) / 60; }
    virtual int substeps() const { return 1; }

    /// Game-side logic run before each world step (h = timeStep()).
    virtual void update(real /*h*/) {}
    /// Named actions a user can trigger from the demo panel (fire, reset a spin...).
    virtual std::vector<std::string> actions() const { return {}; }
    virtual void act(std::size_t /*action*/) {}
    /// Numbers a user can change from the demo panel (sliders): the scene rebuilds or
    /// adjusts itself in setParameter (the value is clamped to [min, max] first).
    struct Parameter {
        std::string name;
        real value = 0, min = 0, max = 1;
    };
    virtual std::vector<Parameter> parameters() const { return {}; }
    /// The arrow keys as the demo reads them each frame: `throttle` +1 (up), -1 (down)
    /// or 0, `steer` +1 (left), -1 (right) or 0. A scene with something to drive (the
    /// car) takes them; the others ignore them.
    virtual void control(real /*throttle*/, real /*steer*/) {}
    virtual void setParameter(std::size_t /*index*/, real /*value*/) {}

    /// One fixed step: update() then world().step(timeStep(), substeps()).
    void step();

    /// Appends what to draw: a body's colliders (or its visual's shape when it has
    /// none), a line per spring or bungee, and the contacts when showContacts is on.
    virtual void draw(DrawList& out) const;

    /// Where the demo camera starts looking, and from how far [m].
    virtual Vec3 cameraTarget() const { return Vec3(0, 2, 0); }
    virtual real cameraDistance() const { return 20; }
    /// Camera heading about +y [rad]; 0 looks along -z.
    virtual real cameraYaw() const { return real(0.6); }

    /// Mouse dragging (the demo picks with World::rayCastClosest). grab() holds a
    /// non-static body by a world point; dragTo() moves the target; each step a
    /// kinematic body is given the velocity that brings that point to the target, and a
    /// dynamic one is pulled by a stiff, damped spring (a Spring force generator).
    /// Returns false (and grabs nothing) for static or unknown bodies.
    bool grab(BodyId body, const Vec3& worldPoint);
    /// Holds a deformable, picked at `worldPoint`, by a stiff position handle on render
    /// vertex `vertex` (World::rayCastDeformables picks both); dragTo() moves the
    /// handle's target with the mouse (keeping the vertex's offset from the picked
    /// point), and the rest follows by its elasticity. Returns false (and grabs
    /// nothing) for an unknown deformable or vertex.
    bool grab(DeformableId deformable, std::uint32_t vertex, const Vec3& worldPoint);
    void dragTo(const Vec3& target);
    void release();
    BodyId grabbed() const { return grab_.body; }
    DeformableId grabbedDeformable() const { return grab_.deformable; }

    /// Draw each contact point and its normal (the world's contacts() stream, through
    /// debugDraw: red points overlap, green ones are speculative).
    bool showContacts = false;
    /// debugDraw's kinds drawn over the scene (DebugDrawFlags: bounding boxes, impulses,
    /// joints, islands, centres of mass...); its shapes flag is ignored (the scene draws
    /// its own).
    std::uint32_t debugFlags = 0;
    /// Draw particles as small spheres (cloth scenes draw their triangles instead), and
    /// distance constraints as lines while there are at most 2000 of them.
    bool showParticles = true;

    World& world() { return world_; }
    const World& world() const { return world_; }
    const std::vector<Visual>& visuals() const { return visuals_; }

    /// Creates a body and the visual that draws it (visual.body is filled in).
    BodyId addBody(const BodyDesc& desc, const Visual& visual);
    void removeBody(BodyId id);
    /// A static plane drawn at y = 0 (nothing collides with it before collision/ lands).
    BodyId addGround(real halfSize);
    /// A static box of half extents `half` at `at`, turned by `q`, and its visual.
    BodyId addStaticBox(const Vec3& at, const Vec3& half, const Quat& q, const Colour& colour, real friction);

protected:
    World world_;
    std::vector<Visual> visuals_;

private:
    void applyDrag();
    struct Grab {
        BodyId body{};
        Vec3 localPoint = Vec3::Zero(); ///< the held point, body-origin frame (deformable: vertex - picked point)
        Vec3 target = Vec3::Zero();
        ForceGeneratorId spring{};      ///< for dynamic bodies
        DeformableId deformable{};      ///< or a deformable, held by a handle
        DeformableHandleId handle{};
    };
    Grab grab_;
};

/// Names of every built-in scene, in menu order.
std::vector<std::string> sceneNames();
/// Builds a scene by name; a name ending in ".json" is a scene file's path
/// (loadSceneFile). Throws jounce::Error naming "scene" for an unknown name, and the
/// file's error for a bad file.
std::unique_ptr<Scene> makeScene(std::string_view name);

// ---- Scene files (scene_files.cpp; docs/integration.md, "Scene files") ------------
/// Whether makeScene takes `name` as a scene file's path (it ends in ".json").
bool isSceneFile(std::string_view name);
/// A scene from scene-file text or a file: its world, name, time step and camera;
/// every body drawn by its colliders. No per-frame logic, actions or parameters.
std::unique_ptr<Scene> sceneFromText(std::string_view json);
std::unique_ptr<Scene> loadSceneFile(const std::string& path);
/// The scene's world as it is now, with its name, time step and camera, as scene-file
/// text (what its update() does each frame is not part of it).
std::string exportScene(const Scene& scene);

} // namespace jounce::scenes
