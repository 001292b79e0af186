// SPDX-License-Identifier: MIT
#include "scenes/scene.hpp"

#include "scenes/builtin.hpp"

#include <jounce/collision/convex_hull.hpp>
#include <jounce/collision/triangle_mesh.hpp>

#include <algorithm>
#include <map>
#include <type_traits>

namespace jounce::scenes {

void Scene::step() {
    update(timeStep());
    applyDrag();
    world_.step(timeStep(), substeps());
}

bool Scene::grab(BodyId body, const Vec3& worldPoint) {
    release();
    if (!world_.contains(body) || world_.body(body).type == BodyType::Static) return false;
    const BodyState b = world_.body(body);
    grab_.body = body;
    grab_.localPoint = b.transform().toLocal(worldPoint);
    grab_.target = worldPoint;
    if (b.isDynamic()) {
        // About 3 Hz, 70% of critical damping, whatever the mass.
        const real mass = 1 / b.inverseMass;
        const real omega = 2 * real(3.14159) * 3;
        grab_.spring = world_.createForceGenerator(
            Spring{{body, grab_.localPoint}, {BodyId{}, worldPoint}, mass * omega * omega, 0, real(1.4) * mass * omega});
    }
    return true;
}

bool Scene::grab(DeformableId deformable, std::uint32_t vertex, const Vec3& worldPoint) {
    release();
    if (!world_.contains(deformable) || vertex >= world_.deformable(deformable).restVertices.size()) return false;
    DeformableHandleDesc h;
    h.vertex = vertex;
    h.target = world_.deformableVertices(deformable)[vertex]; // where it is: nothing jumps
    grab_.deformable = deformable;
    grab_.handle = world_.createDeformableHandle(deformable, h);
    grab_.localPoint = h.target - worldPoint;
    grab_.target = worldPoint;
    return true;
}

void Scene::dragTo(const Vec3& target) {
    if (!isFinite(target)) return;
    if (world_.contains(grab_.deformable)) {
        grab_.target = target;
        world_.setDeformableHandleTarget(grab_.deformable, grab_.handle, target + grab_.localPoint);
        return;
    }
    if (grab_.body.isNull()) return;
    grab_.target = target;
    if (world_.contains(grab_.spring)) {
        Spring s = std::get<Spring>(world_.forceGenerator(grab_.spring));
        s.b.point = target;
        world_.setForceGenerator(grab_.spring, s);
        world_.setAwake(grab_.body, true);
    }
}

void Scene::release() {
    if (world_.contains(grab_.deformable) && world_.deformable(grab_.deformable).handles.contains(grab_.handle))
        world_.destroyDeformableHandle(grab_.deformable, grab_.handle);
    if (world_.contains(grab_.spring)) world_.destroyForceGenerator(grab_.spring);
    if (world_.contains(grab_.body) && world_.body(grab_.body).type == BodyType::Kinematic) {
        world_.setLinearVelocity(grab_.body, Vec3::Zero());
        world_.setAngularVelocity(grab_.body, Vec3::Zero());
    }
    grab_ = Grab{};
}

void Scene::applyDrag() {
    if (grab_.body.isNull()) return;
    if (!world_.contains(grab_.body)) {
        grab_ = Grab{};
        return;
    }
    const BodyState b = world_.body(grab_.body);
    if (b.type != BodyType::Kinematic) return; // the spring does it
    const Vec3 held = b.transform().toWorld(grab_.localPoint);
    world_.setLinearVelocity(grab_.body, (grab_.target - held) / timeStep());
    world_.setAngularVelocity(grab_.body, Vec3::Zero());
}

BodyId Scene::addBody(const BodyDesc& desc, const Visual& visual) {
    const BodyId id = world_.createBody(desc);
    Visual v = visual;
    v.body = id;
    visuals_.push_back(v);
    return id;
}

void Scene::removeBody(BodyId id) {
    world_.destroyBody(id);
    std::erase_if(visuals_, [id](const Visual& v) { return v.body == id; });
}

BodyId Scene::addGround(real halfSize) {
    BodyDesc ground;
    ground.type = BodyType::Static;
    return addBody(ground, {BodyId{}, Primitive::Plane, Vec3(halfSize, 0, halfSize), {0.35f, 0.37f, 0.4f}});
}

namespace {

/// The triangles of a hull (each face as a fan) or a mesh, built once per shape data
/// and shared by every frame that draws it.
std::shared_ptr<const std::vector<Vec3>> trianglesOf(const Shape& shape) {
    // Keyed by the shape data's address, but an entry counts only while that data
    // lives: once it dies, another hull or mesh may be built at the same address, and
    // the renderer (which holds lists across frames) would otherwise keep the old one.
    struct Entry {
        std::weak_ptr<const void> source;
        std::weak_ptr<const std::vector<Vec3>> triangles;
    };
    static std::map<const void*, Entry> cache; // lookup only
    std::shared_ptr<const void> source;
    if (const auto* h = std::get_if<ConvexHull>(&shape)) source = h->hull;
    if (const auto* m = std::get_if<TriangleMesh>(&shape)) source = m->mesh;
    const void* key = source.get();
    if (!cache.contains(key)) // the map grows: drop entries of dead shapes first
        std::erase_if(cache, [](const auto& e) { return e.second.source.expired(); });
    Entry& entry = cache[key];
    const bool sameSource = !entry.source.owner_before(source) && !source.owner_before(entry.source);
    if (sameSource)
        if (auto cached = entry.triangles.lock()) return cached;
    auto list = std::make_shared<std::vector<Vec3>>();
    if (const auto* h = std::get_if<ConvexHull>(&shape)) {
        for (const HullFace& f : h->hull->faces)
            for (std::size_t k = 1; k + 1 < f.vertices.size(); ++k)
                for (std::uint32_t v : {f.vertices[0], f.vertices[k], f.vertices[k + 1]}) list->push_back(h->hull->vertices[v]);
    } else if (const auto* m = std::get_if<TriangleMesh>(&shape)) {
        for (std::uint32_t t = 0; t < m->mesh->triangleCount(); ++t)
            for (const Vec3& c : m->mesh->corners(t)) list->push_back(c);
    }
    entry = {source, list};
    return list;
}

/// How a collider's shape is drawn: the primitive and its size convention (scene.hpp).
DrawItem colliderItem(const Shape& shape, const Transform& pose, const Colour& colour) {
    return std::visit(
        [&](const auto& s) -> DrawItem {
            using S = std::decay_t<decltype(s)>;
            if constexpr (std::is_same_v<S, Sphere>) return {Primitive::Sphere, pose, Vec3(s.radius, 0, 0), colour, {}};
            else if constexpr (std::is_same_v<S, Box>) return {Primitive::Box, pose, s.halfExtents, colour, {}};
            else if constexpr (std::is_same_v<S, Capsule>) return {Primitive::Capsule, pose, Vec3(s.radius, s.halfHeight, 0), colour, {}};
            else if constexpr (std::is_same_v<S, Cylinder>) return {Primitive::Cylinder, pose, Vec3(s.radius, s.halfHeight, 0), colour, {}};
            else if constexpr (std::is_same_v<S, ConvexHull> || std::is_same_v<S, TriangleMesh>)
                return {Primitive::Triangles, pose, Vec3::Ones(), colour, trianglesOf(shape)};
            else {
                // A half-space drawn as a 100 m square of its plane, normal = the plane's +y.
                const Quat turn = Quat::FromTwoVectors(Vec3::UnitY(), s.normal);
                const Transform plane{pose.toWorld(s.normal * s.offset), pose.orientation * turn};
                return {Primitive::Plane, plane, Vec3(50, 0, 50), colour, {}};
            }
        },
        shape);
}

/// debugDraw into a DrawList (a point as a small particle, a line as a line, a shape as
/// its collider's item, triangles gathered into one item per colour by flush()). `overlay`: the solver's kinds (contacts, joints, boxes),
/// drawn over the bodies they sit inside, each point marked by a cross; otherwise the
/// scene's own parts (particles, deformables' skins, springs), drawn with depth.
class DrawListDebugDraw final : public DebugDraw {
public:
    DrawListDebugDraw(DrawList& out, bool overlay) : out_(out), overlay_(overlay) {}
    /// The triangles gathered, one item per colour, both faces.
    void flush() {
        for (auto& [c, corners] : surfaces_) out_.items.push_back({Primitive::Triangles, Transform{}, Vec3::Ones(), colour(c), corners});
        surfaces_.clear();
    }
    void shape(const Shape& shape, const Transform& pose, DebugColour c) override {
        out_.items.push_back(colliderItem(shape, pose, colour(c)));
    }
    void line(const Vec3& a, const Vec3& b, DebugColour c) override { out_.lines.push_back({a, b, colour(c), overlay_}); }
    void point(const Vec3& p, real size, DebugColour c) override {
        out_.items.push_back({Primitive::Particle, Transform{p, Quat::Identity()}, Vec3(size, 0, 0), colour(c), {}});
        if (!overlay_) return;
        for (int axis = 0; axis < 3; ++axis)
            out_.lines.push_back({p - Vec3::Unit(axis) * (size + real(0.01)), p + Vec3::Unit(axis) * (size + real(0.01)), colour(c), true});
    }
    void triangle(const Vec3& a, const Vec3& b, const Vec3& c, DebugColour colour) override {
        auto surface = std::find_if(surfaces_.begin(), surfaces_.end(), [&](const auto& s) { return s.first == colour; });
        if (surface == surfaces_.end()) surface = surfaces_.insert(surfaces_.end(), {colour, std::make_shared<std::vector<Vec3>>()});
        surface->second->insert(surface->second->end(), {a, b, c, a, c, b});
    }

private:
    DrawList& out_;
    bool overlay_;
    std::vector<std::pair<DebugColour, std::shared_ptr<std::vector<Vec3>>>> surfaces_;
    static Colour colour(DebugColour c) { return {c.r, c.g, c.b}; }
};

} // namespace

std::vector<std::array<std::uint32_t, 3>> gridTriangles(int cells) {
    std::vector<std::array<std::uint32_t, 3>> triangles;
    const auto at = [cells](int i, int k) { return static_cast<std::uint32_t>(i * (cells + 1) + k); };
    for (int i = 0; i < cells; ++i)
        for (int k = 0; k < cells; ++k) {
            triangles.push_back({at(i, k), at(i, k + 1), at(i + 1, k)});
            triangles.push_back({at(i + 1, k), at(i, k + 1), at(i + 1, k + 1)});
        }
    return triangles;
}

BodyId Scene::addStaticBox(const Vec3& at, const Vec3& half, const Quat& q, const Colour& colour, real friction) {
    BodyDesc d;
    d.type = BodyType::Static;
    d.position = at;
    d.orientation = q;
    d.colliders.push_back(makeCollider(Box{half}, 1000, {.friction = friction}));
    return addBody(d, {BodyId{}, Primitive::Box, half, colour});
}

void Scene::draw(DrawList& out) const {
    for (const Visual& v : visuals_) {
        const BodyState b = world_.body(v.body);
        const std::vector<ColliderId> colliders = world_.colliderIdsOf(v.body);
        if (colliders.empty()) {
            out.items.push_back({v.shape, b.transform(), v.size, v.colour, {}});
            continue;
        }
        for (const ColliderId c : colliders)
            out.items.push_back(colliderItem(world_.collider(c).shape, world_.colliderPose(c), v.colour));
    }
    // The debug kinds asked for (the scene draws its own shapes, in its own colours).
    // (the scene's own parts, below, drawn once whatever the panel asks)
    const std::uint32_t parts = DebugDrawFlags::forces | DebugDrawFlags::deformables | DebugDrawFlags::particles;
    const std::uint32_t debug = (debugFlags | (showContacts ? DebugDrawFlags::contacts | DebugDrawFlags::normals : 0u)) &
                                ~(DebugDrawFlags::shapes | parts);
    if (debug != 0) {
        DrawListDebugDraw adapter(out, true);
        debugDraw(world_, adapter, {.flags = debug});
    }
    // The scene's own parts, through debugDraw too: springs, particles and their links
    // (while there are at most 2000 links), deformables' skins.
    DrawListDebugDraw adapter(out, false);
    debugDraw(world_, adapter, {.flags = showParticles ? parts : parts & ~DebugDrawFlags::particles, .maxParticleLinks = 2000});
    adapter.flush();
    // Cables, rods, distance and 6-DOF joints are visible parts of a scene (a bridge's
    // hangers, a winch's line, a crane's hoist); ball, hinge and fixed joints sit inside
    // the bodies they join.
    const Colour cableColour{0.75f, 0.75f, 0.7f};
    for (const JointId id : world_.jointIds()) {
        const JointDesc& j = world_.joint(id).desc;
        if (j.type == JointType::Cable || j.type == JointType::Rod || j.type == JointType::Distance || j.type == JointType::SixDof)
            out.lines.push_back({world_.attachmentPoint(j.a), world_.attachmentPoint(j.b), cableColour});
    }
}

namespace {
struct Entry {
    const char* name;
    std::unique_ptr<Scene> (*make)();
};
constexpr Entry registry[] = {
    {"showcase", makeShowcase}, // first: the demo opens on it
    {"ballistic", makeBallistic},
    {"contacts", makeContacts},
    {"fireworks", makeFireworks},
    {"spinning", makeSpinning},
    {"springs", makeSprings},
    {"column", makeColumn},
    {"pyramid10", makePyramid10},
    {"pyramid20", makePyramid20},
    {"pile1000", makePile1000},
    {"spheres4096", makeSpheres4096},
    {"incline", makeIncline},
    {"two-boxes", makeTwoBoxes},
    {"cradle", makeCradle},
    {"ragdolls", makeRagdolls},
    {"explosion", makeExplosion},
    {"bigballistic", makeBigBallistic},
    {"fracture", makeFracture},
    {"bridge", makeBridge},
    {"hinges", makeHinges},
    {"car", makeCar},
    {"crane", makeCrane},
    {"character", makeCharacterLevel},
    {"raycar", makeRaycastCar},
    {"terrain", makeTerrain},
    {"barrels", makeBarrels},
    {"surfaces", makeSurfaces},
    {"rope", makeRope},
    {"cloth", makeHangingCloth},
    {"cloth64", makeCloth64},
    {"sandpile", makeSandpile},
    {"balloon", makeBalloon},
    {"softcube", makeSoftCube},
    {"mixed", makeMixed},
    {"flag", makeFlag},
    {"ropebridge", makeRopeBridge},
    {"blob", makeBlob},
    {"folds", makeFolds},
    {"drape", makeDrape},
    {"arap_bar", makeArapBar},
    {"arap_bars", makeArapBars},
    {"arap_twist", makeArapTwist},
    {"arap_creature", makeArapCreature},
    {"arap_fall", makeArapFall},
};
} // namespace

std::vector<std::string> sceneNames() {
    std::vector<std::string> names;
    for (const Entry& e : registry) names.emplace_back(e.name);
    return names;
}

std::unique_ptr<Scene> makeScene(std::string_view name) {
    if (isSceneFile(name)) return loadSceneFile(std::string(name));
    for (const Entry& e : registry)
        if (name == e.name) return e.make();
    std::string known;
    for (const Entry& e : registry) known += std::string(known.empty() ? "" : ", ") + e.name;
    throw Error("scene", std::string(name), "unknown scene; known: " + known);
}

} // namespace jounce::scenes
