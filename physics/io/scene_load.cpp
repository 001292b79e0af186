// SPDX-License-Identifier: MIT
// loadScene and addScene: each JSON object is read into its Desc (scene_fields.hpp) and
// handed to the same create call a game would make. The API's own errors name a Desc
// field ("BodyDesc.colliders[0].shape.radius"); they are re-thrown naming the JSON
// path instead ("bodies[3].colliders[0].shape.radius").

#include "physics/io/scene_fields.hpp"

#include <jounce/collision/convex_hull.hpp>
#include <jounce/collision/heightfield.hpp>
#include <jounce/collision/triangle_mesh.hpp>

#include <map>

namespace jounce {
namespace detail {

// ---- Records without references -----------------------------------------------------

namespace {
/// A struct read through its field list, unknown fields rejected.
template <typename T> void readRecord(const Json& j, const std::string& path, T& out) {
    Reader r(j, path);
    fields(r, out);
    r.finish();
}

/// Calls make(), turning its jounce::Error into one at `path`.
template <typename Make> auto atPath(const std::string& path, Make make) {
    try {
        return make();
    } catch (const Error& e) {
        rethrowAt(e, path);
    }
}
} // namespace

void read(const Json& j, const std::string& path, Shape& out) {
    Reader r(j, path);
    std::string type;
    r.requireKey("type");
    r("type", type);
    if (type == "sphere") {
        Sphere s;
        r("radius", s.radius);
        out = s;
    } else if (type == "box") {
        Box s;
        r("halfExtents", s.halfExtents);
        out = s;
    } else if (type == "capsule") {
        Capsule s;
        r("radius", s.radius);
        r("halfHeight", s.halfHeight);
        out = s;
    } else if (type == "cylinder") {
        Cylinder s;
        r("radius", s.radius);
        r("halfHeight", s.halfHeight);
        out = s;
    } else if (type == "halfSpace") {
        HalfSpace s;
        r("normal", s.normal);
        r("offset", s.offset);
        out = s;
    } else if (type == "convexHull") {
        std::vector<Vec3> points;
        r.requireKey("points");
        r("points", points);
        out = atPath(path + ".points", [&] { return makeConvexHull(points); });
    } else if (type == "triangleMesh") {
        std::vector<Vec3> vertices;
        std::vector<std::array<std::uint32_t, 3>> triangles;
        r.requireKey("vertices");
        r("vertices", vertices);
        r.requireKey("triangles");
        r("triangles", triangles);
        out = atPath(path, [&] { return makeTriangleMesh(vertices, triangles); });
    } else if (type == "heightfield") {
        HeightfieldDesc d;
        std::vector<real> heights;
        std::vector<std::uint32_t> holeFlags;
        for (const char* key : {"columns", "rows", "heights"}) r.requireKey(key);
        r("columns", d.columns);
        r("rows", d.rows);
        r("spacingX", d.spacingX);
        r("spacingZ", d.spacingZ);
        r("origin", d.origin);
        r("heights", heights);
        r("holes", holeFlags);
        std::vector<std::uint8_t> holes; // non-zero = a hole
        for (const std::uint32_t h : holeFlags) holes.push_back(h != 0 ? 1 : 0);
        d.heights = heights;
        d.holes = holes;
        out = atPath(path, [&] { return makeHeightfield(d); });
    } else {
        fail(path + ".type", r.field("type"),
             "not one of sphere, box, capsule, cylinder, halfSpace, convexHull, triangleMesh, heightfield");
    }
    r.finish();
}

void read(const Json& j, const std::string& path, ColliderDesc& out) { readRecord(j, path, out); }
void read(const Json& j, const std::string& path, OrientedParticleDesc& out) { readRecord(j, path, out); }
void read(const Json& j, const std::string& path, DeformableHandleDesc& out) { readRecord(j, path, out); }

namespace {

// ---- The file's arrays, in the order they depend on each other ----------------------

/// Reads array `key` of the file (if present) entry by entry: read(reader, k) builds
/// entry k from its Reader and returns its handle, appended to `created`.
template <typename Id, typename Build>
void readArray(Reader& file, const char* key, std::vector<Id>& created, Build build) {
    if (!file.has(key)) return;
    const std::string path = file.pathOf(key);
    const Json& array = requireArray(file.field(key), path);
    for (std::size_t k = 0; k < array.size(); ++k) created.push_back(build(array[k], itemPath(path, k)));
}

/// An entry whose JSON is exactly a Desc: read it, then create(desc) at its path.
template <typename Desc, typename Create>
auto makeFrom(const Json& j, const std::string& path, const SceneObjects& objects, Create create) {
    Desc desc;
    Reader r(j, path, &objects);
    fields(r, desc);
    r.finish();
    return atPath(path, [&] { return create(desc); });
}

ForceGeneratorId makeGenerator(World& world, const Json& j, const std::string& path, const SceneObjects& objects) {
    Reader r(j, path, &objects);
    std::string type;
    r.requireKey("type");
    r("type", type);
    ForceGenerator g;
    std::size_t kind = 0;
    while (kind < generatorTypeNames.size() && type != generatorTypeNames[kind]) ++kind;
    switch (kind) {
    case 0: fields(r, g.emplace<GravityForce>()); break;
    case 1: fields(r, g.emplace<Spring>()); break;
    case 2: fields(r, g.emplace<Bungee>()); break;
    case 3: fields(r, g.emplace<Buoyancy>()); break;
    case 4: fields(r, g.emplace<Aero>()); break;
    case 5: fields(r, g.emplace<Drag>()); break;
    case 6: fields(r, g.emplace<FakeSpring>()); break;
    default: fail(path + ".type", r.field("type"), "not one of gravity, spring, bungee, buoyancy, aero, drag, fakeSpring");
    }
    r.finish();
    return atPath(path, [&] { return world.createForceGenerator(g); });
}

/// The file's particle groups from World::newParticleGroup (65536 and up) are issued
/// afresh, in increasing order, so a file added to a world with cloths of its own does
/// not share their groups (a fresh world gives them the same numbers back).
std::map<std::uint32_t, std::uint32_t> issueGroups(World& world, const Json& particles) {
    std::map<std::uint32_t, std::uint32_t> groups;
    if (!particles.is_array()) return groups;
    for (const Json& p : particles)
        if (p.is_object() && p.contains("group") && p["group"].is_number_unsigned() && p["group"].get<std::uint64_t>() >= 65536 &&
            p["group"].get<std::uint64_t>() <= 0xffffffffu)
            groups.emplace(p["group"].get<std::uint32_t>(), 0);
    for (auto& [from, to] : groups) to = world.newParticleGroup();
    return groups;
}

DeformableId makeDeformable(World& world, const Json& j, const std::string& path, const SceneObjects& objects) {
    DeformableDesc desc;
    Reader r(j, path, &objects);
    fields(r, desc);
    std::vector<DeformableHandleDesc> handles;
    r("handles", handles);
    struct Pose {
        Vec3 position = Vec3::Zero();
        Quat orientation = Quat::Identity();
    };
    std::vector<Pose> pose;
    if (r.has("pose")) {
        const Json& poses = requireArray(r.field("pose"), r.pathOf("pose"));
        for (std::size_t i = 0; i < poses.size(); ++i) {
            Reader p(poses[i], itemPath(r.pathOf("pose"), i));
            p.requireKey("position");
            p.requireKey("orientation");
            pose.push_back({});
            p("position", pose.back().position);
            p("orientation", pose.back().orientation);
            p.finish();
        }
    }
    r.finish();
    const DeformableId id = atPath(path, [&] { return world.createDeformable(desc); });
    for (std::size_t h = 0; h < handles.size(); ++h)
        atPath(itemPath(path + ".handles", h), [&] { return world.createDeformableHandle(id, handles[h]); });
    for (std::size_t i = 0; i < pose.size(); ++i)
        atPath(itemPath(path + ".pose", i), [&] {
            world.setDeformableParticlePose(id, i, pose[i].position, pose[i].orientation);
            return 0;
        });
    return id;
}

void readParticles(World& world, Reader& file, SceneObjects& o) {
    static const Json none;
    const auto groups = issueGroups(world, file.has("particles") ? file.field("particles") : none);
    readArray(file, "particles", o.particles, [&](const Json& j, const std::string& path) {
        return makeFrom<ParticleDesc>(j, path, o, [&](ParticleDesc d) {
            if (const auto it = groups.find(d.group); it != groups.end()) d.group = it->second;
            return world.createParticle(d);
        });
    });
    readArray(file, "distanceConstraints", o.distanceConstraints, [&](const Json& j, const std::string& path) {
        return makeFrom<DistanceConstraintDesc>(j, path, o, [&](const auto& d) { return world.createDistanceConstraint(d); });
    });
    readArray(file, "particleAttachments", o.particleAttachments, [&](const Json& j, const std::string& path) {
        return makeFrom<ParticleAttachmentDesc>(j, path, o, [&](const auto& d) { return world.createParticleAttachment(d); });
    });
    readArray(file, "particleConstraints", o.particleConstraints, [&](const Json& j, const std::string& path) {
        return makeFrom<ParticleConstraintDesc>(j, path, o, [&](const auto& d) { return world.createParticleConstraint(d); });
    });
    readArray(file, "particleVolumes", o.particleVolumes, [&](const Json& j, const std::string& path) {
        return makeFrom<ParticleVolumeDesc>(j, path, o, [&](const auto& d) { return world.createParticleVolume(d); });
    });
    readArray(file, "particleClusters", o.particleClusters, [&](const Json& j, const std::string& path) {
        return makeFrom<ParticleClusterDesc>(j, path, o, [&](const auto& d) { return world.createParticleCluster(d); });
    });
    readArray(file, "particleSurfaces", o.particleSurfaces, [&](const Json& j, const std::string& path) {
        return makeFrom<ParticleSurfaceDesc>(j, path, o, [&](const auto& d) { return world.createParticleSurface(d); });
    });
    readArray(file, "particleHierarchies", o.particleHierarchies, [&](const Json& j, const std::string& path) {
        return makeFrom<ParticleHierarchyDesc>(j, path, o, [&](const auto& d) { return world.createParticleHierarchy(d); });
    });
}

} // namespace

/// Every object of the file, created in `world` (settings and scene info already read).
SceneObjects readObjects(World& world, Reader& file) {
    SceneObjects o;
    readArray(file, "bodies", o.bodies, [&](const Json& j, const std::string& path) {
        return makeFrom<BodyDesc>(j, path, o, [&](const BodyDesc& d) { return world.createBody(d); });
    });
    readArray(file, "forceGenerators", o.forceGenerators,
              [&](const Json& j, const std::string& path) { return makeGenerator(world, j, path, o); });
    readArray(file, "joints", o.joints, [&](const Json& j, const std::string& path) {
        return makeFrom<JointDesc>(j, path, o, [&](const JointDesc& d) { return world.createJoint(d); });
    });
    readParticles(world, file, o);
    readArray(file, "deformables", o.deformables,
              [&](const Json& j, const std::string& path) { return makeDeformable(world, j, path, o); });
    return o;
}

/// The header, settings and scene info of a parsed file.
WorldSettings readHeader(Reader& file, SceneInfo& info) {
    std::string format;
    file.requireKey("format");
    file("format", format);
    if (format != "jounce-scene") fail("format", file.field("format"), "a scene file says \"format\": \"jounce-scene\"");
    int version = 0;
    file.requireKey("version");
    file("version", version);
    if (version == 1)
        fail("version", file.field("version"),
             "this Jounce reads version 2 only: version 1 stored a body's damping as the share of "
             "velocity kept per second d (now a rate c = -ln(d) in 1/s, 0 = none) and used older "
             "setting names (docs/integration.md, \"Scene files\")");
    if (version != 2) fail("version", file.field("version"), "this Jounce reads version 2 only");
    file.object("scene", info);
    WorldSettings settings;
    file.object("settings", settings);
    return settings;
}

} // namespace detail
} // namespace jounce
