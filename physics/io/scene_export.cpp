// SPDX-License-Identifier: MIT
// exportScene: the world's objects turned back into the Descs that would make them,
// written through the field lists of scene_fields.hpp. Objects are written in handle
// index order (the order every stage uses), and references become positions in the
// file's arrays.

#include "physics/io/scene_fields.hpp"

#include <jounce/collision/convex_hull.hpp>
#include <jounce/collision/heightfield.hpp>
#include <jounce/collision/triangle_mesh.hpp>

namespace jounce {
namespace detail {
namespace {

/// Each live body's and particle's position in the file, by slot.
struct ExportIndex {
    std::vector<std::uint32_t> body, particle;
};

class Writer;
template <typename T> Json write(const T& s, const ExportIndex& index);

/// The Io of the field lists that turns a struct into a JSON object.
class Writer {
public:
    explicit Writer(const ExportIndex& index) : index_(index) {}
    Json json = Json::object();

    template <typename T> void operator()(const char* key, const T& v) { json[key] = value(v); }
    template <typename E> void enumeration(const char* key, E v, EnumNames<E> table) { json[key] = enumJson(v, table); }
    template <typename T> void object(const char* key, const T& s) {
        Json o = write(s, index_);
        if (!o.empty()) json[key] = std::move(o);
    }
    void requireKey(const char*) const {}

    Json value(real x) const { return x; }
    Json value(int x) const { return x; }
    Json value(bool x) const { return x; }
    Json value(std::uint32_t x) const { return x; }
    Json value(std::uint64_t x) const { return x; }
    Json value(const std::string& x) const { return x; }
    Json value(const Vec3& v) const { return toJson(v); }
    Json value(const Quat& q) const { return toJson(q); }
    Json value(const Mat3& m) const { return toJson(m); }
    Json value(BodyId id) const { return id.isNull() ? Json() : Json(index_.body[id.index]); }
    Json value(ParticleId id) const { return id.isNull() ? Json() : Json(index_.particle[id.index]); }
    Json value(const Shape& shape) const;
    Json value(const ColliderDesc& c) const { return write(c, index_); }
    Json value(const OrientedParticleDesc& p) const { return write(p, index_); }
    Json value(const DeformableHandleDesc& h) const { return write(h, index_); }
    template <typename T, std::size_t N> Json value(const std::array<T, N>& a) const {
        Json out = Json::array();
        for (const T& e : a) out.push_back(value(e));
        return out;
    }
    template <typename T> Json value(const std::vector<T>& v) const {
        Json out = Json::array();
        for (const T& e : v) out.push_back(value(e));
        return out;
    }

private:
    const ExportIndex& index_;
};

/// A struct as a JSON object, leaving out the fields at their defaults (loading puts
/// them back), so a file says only what differs from a default Desc.
template <typename T> Json write(const T& s, const ExportIndex& index) {
    Writer full(index), defaults(index);
    T copy = s;
    fields(full, copy);
    T fresh{};
    fields(defaults, fresh);
    Json out = Json::object();
    for (auto& [key, value] : full.json.items())
        if (value != defaults.json[key]) out[key] = value;
    return out;
}

Json Writer::value(const Shape& shape) const {
    Json j = Json::object();
    std::visit(
        [&](const auto& s) {
            using S = std::decay_t<decltype(s)>;
            if constexpr (std::is_same_v<S, Sphere>) {
                j["type"] = "sphere";
                j["radius"] = s.radius;
            } else if constexpr (std::is_same_v<S, Box>) {
                j["type"] = "box";
                j["halfExtents"] = toJson(s.halfExtents);
            } else if constexpr (std::is_same_v<S, Capsule>) {
                j["type"] = "capsule";
                j["radius"] = s.radius;
                j["halfHeight"] = s.halfHeight;
            } else if constexpr (std::is_same_v<S, Cylinder>) {
                j["type"] = "cylinder";
                j["radius"] = s.radius;
                j["halfHeight"] = s.halfHeight;
            } else if constexpr (std::is_same_v<S, HalfSpace>) {
                j["type"] = "halfSpace";
                j["normal"] = toJson(s.normal);
                j["offset"] = s.offset;
            } else if constexpr (std::is_same_v<S, ConvexHull>) {
                j["type"] = "convexHull"; // its corners: quickhull rebuilds the same hull from them
                j["points"] = value(s.hull->vertices);
            } else if (const HeightfieldGrid* g = s.mesh->heightfield()) {
                j["type"] = "heightfield";
                j["columns"] = g->columns;
                j["rows"] = g->rows;
                j["spacingX"] = g->spacingX;
                j["spacingZ"] = g->spacingZ;
                j["origin"] = toJson(g->origin);
                j["heights"] = value(g->heights);
                if (!g->holes.empty()) j["holes"] = value(g->holes);
            } else {
                j["type"] = "triangleMesh";
                j["vertices"] = value(s.mesh->vertices());
                j["triangles"] = value(s.mesh->triangles());
            }
        },
        shape);
    return j;
}

// ---- Descs from the world's state ---------------------------------------------------

ColliderDesc colliderDesc(const Collider& c, const Vec3& centroidShift) {
    ColliderDesc d;
    d.shape = c.shape;
    d.local = c.local;
    d.local.position -= centroidShift;
    d.density = c.density;
    d.material = c.material;
    d.filter = c.filter;
    d.sensor = c.sensor;
    return d;
}

/// The Desc that makes this body as it is now. Its origin is where its colliders are
/// placed: position minus the rotated centre of mass. A body whose mass was set by
/// hand after its colliders gave it a centre of mass off its origin is written with its
/// origin at the centre of mass (the colliders moved to match), as createBody makes it.
BodyDesc bodyDesc(const World& world, BodyId id) {
    const BodyState b = world.body(id);
    BodyDesc d;
    d.type = b.type;
    const bool keepsOrigin = b.massFromColliders;
    d.position = keepsOrigin ? b.position : b.centerOfMass;
    d.orientation = b.orientation;
    d.linearVelocity = b.linearVelocity;
    d.angularVelocity = b.angularVelocity;
    d.massFromColliders = b.massFromColliders;
    if (b.isDynamic() && !b.massFromColliders) {
        d.mass = 1 / b.inverseMass;
        d.inertia = b.inertia;
    }
    d.linearDamping = b.linearDamping;
    d.angularDamping = b.angularDamping;
    d.gravityScale = b.gravityScale;
    d.canSleep = b.canSleep;
    d.awake = b.awake;
    d.bullet = b.bullet;
    d.locks = b.locks;
    d.userData = b.userData;
    for (const ColliderId c : world.colliderIdsOf(id))
        d.colliders.push_back(colliderDesc(world.collider(c), keepsOrigin ? Vec3(Vec3::Zero()) : b.localCenterOfMass));
    if (d.colliders.empty()) d.massFromColliders = BodyDesc{}.massFromColliders; // nothing to take it from
    return d;
}

Json generatorJson(const ForceGenerator& g, const ExportIndex& index) {
    return std::visit(
        [&](const auto& s) {
            Json j = Json::object();
            j["type"] = generatorTypeNames[g.index()];
            const Json body = write(s, index); // named: items() does not keep a temporary alive
            for (const auto& [key, value] : body.items()) j[key] = value;
            return j;
        },
        g);
}

ParticleDesc particleDesc(const ParticleSystem& ps, std::size_t i) {
    ParticleDesc d;
    d.position = ps.x[i];
    d.velocity = ps.v[i];
    d.pinned = ps.w[i] == 0;
    if (!d.pinned) d.mass = 1 / ps.w[i];
    d.radius = ps.radius[i];
    d.group = ps.group[i];
    d.staticFriction = ps.staticFriction[i];
    d.kineticFriction = ps.kineticFriction[i];
    d.restitution = ps.restitution[i];
    d.userData = ps.userData[i];
    return d;
}

/// Particle slots back to handles (the Writer turns handles into file indices).
template <std::size_t N>
std::array<ParticleId, N> idsOf(const ParticleSystem& ps, const std::array<std::uint32_t, N>& slots, std::size_t count = N) {
    std::array<ParticleId, N> out{};
    for (std::size_t k = 0; k < count; ++k) out[k] = ps.slots.idOf(slots[k]);
    return out;
}
std::vector<ParticleId> idsOf(const ParticleSystem& ps, const std::vector<std::uint32_t>& slots) {
    std::vector<ParticleId> out;
    for (const std::uint32_t s : slots) out.push_back(ps.slots.idOf(s));
    return out;
}
std::vector<std::array<ParticleId, 3>> idsOf(const ParticleSystem& ps, const std::vector<std::array<std::uint32_t, 3>>& triangles) {
    std::vector<std::array<ParticleId, 3>> out;
    for (const auto& t : triangles) out.push_back(idsOf(ps, t));
    return out;
}

ParticleConstraintDesc constraintDesc(const ParticleSystem& ps, const ParticleConstraint& c) {
    ParticleConstraintDesc d;
    d.kind = c.kind;
    d.particles = idsOf(ps, c.p, c.count);
    d.rest = c.rest;
    d.compliance = c.compliance;
    return d;
}

ParticleHierarchyDesc hierarchyDesc(const ParticleSystem& ps, const ParticleHierarchy& h) {
    ParticleHierarchyDesc d;
    d.particles = idsOf(ps, h.meshParticles);
    for (const auto& [a, b] : h.meshEdges) d.edges.push_back({d.particles[a], d.particles[b]});
    d.levels = h.levelsAsked;
    d.parents = h.parents;
    return d;
}

DeformableDesc deformableDesc(const Deformable& d) {
    DeformableDesc desc;
    for (std::size_t i = 0; i < d.size(); ++i)
        desc.particles.push_back({d.restPosition[i], Quat(d.restAxes[i]), d.radii[i]});
    desc.edges = d.edges;
    desc.density = d.density;
    desc.stiffness = d.stiffness;
    desc.iterations = d.iterations;
    desc.damping = d.damping;
    desc.friction = d.friction;
    // Without a render mesh the particles' centres were its vertices: leave them out.
    if (!d.triangles.empty() || d.restVertices != d.restPosition) desc.vertices = d.restVertices;
    desc.normals = d.restNormals;
    desc.triangles = d.triangles;
    desc.skinningNeighbours = d.skinningNeighbours;
    return desc;
}

/// Particles moved off their rest pose (setDeformableParticlePose, or a step): each
/// one's position and axes, or nothing when all are at rest.
Json deformablePose(const Deformable& d) {
    bool atRest = true;
    for (std::size_t i = 0; i < d.size(); ++i)
        atRest = atRest && d.position[i] == d.restPosition[i] && d.rotation[i] == Mat3::Identity();
    if (atRest) return Json();
    Json pose = Json::array();
    for (std::size_t i = 0; i < d.size(); ++i)
        pose.push_back(Json::object({{"position", toJson(d.position[i])},
                                     {"orientation", toJson(Quat(Mat3(d.rotation[i] * d.restAxes[i])))}}));
    return pose;
}

Json deformableJson(const Deformable& d, const ExportIndex& index) {
    Json j = write(deformableDesc(d), index);
    Json handles = Json::array();
    for (const DeformableHandleId h : d.handles.ids()) handles.push_back(write(d.handles[h].desc, index));
    if (!handles.empty()) j["handles"] = std::move(handles);
    Json pose = deformablePose(d);
    if (!pose.is_null()) j["pose"] = std::move(pose);
    return j;
}

// ---- The whole file -----------------------------------------------------------------

ExportIndex indexOf(const World& world) {
    ExportIndex index;
    const std::vector<BodyId> bodies = world.bodyIds();
    for (std::size_t k = 0; k < bodies.size(); ++k) {
        if (index.body.size() <= bodies[k].index) index.body.resize(bodies[k].index + 1);
        index.body[bodies[k].index] = static_cast<std::uint32_t>(k);
    }
    const std::vector<ParticleId> particles = world.particleIds();
    index.particle.resize(world.particles().slotCount());
    for (std::size_t k = 0; k < particles.size(); ++k) index.particle[particles[k].index] = static_cast<std::uint32_t>(k);
    return index;
}

/// Appends `key`: [ each id's JSON ] to the file, unless there are none.
template <typename Ids, typename ToJson> void putArray(Json& file, const char* key, const Ids& ids, ToJson toJsonOf) {
    Json out = Json::array();
    for (const auto& id : ids) out.push_back(toJsonOf(id));
    if (!out.empty()) file[key] = std::move(out);
}

void putParticles(Json& file, const World& world, const ExportIndex& index) {
    const ParticleSystem& ps = world.particles();
    putArray(file, "particles", world.particleIds(), [&](ParticleId id) { return write(particleDesc(ps, id.index), index); });
    putArray(file, "distanceConstraints", world.distanceConstraintIds(), [&](DistanceConstraintId id) {
        const DistanceConstraint& c = ps.distances[id];
        return write(DistanceConstraintDesc{ps.slots.idOf(c.a), ps.slots.idOf(c.b), c.restLength, c.compliance}, index);
    });
    putArray(file, "particleAttachments", world.particleAttachmentIds(), [&](ParticleAttachmentId id) {
        const ParticleAttachment& a = ps.attachments[id];
        return write(ParticleAttachmentDesc{ps.slots.idOf(a.particle), a.target, a.restLength, a.compliance}, index);
    });
    putArray(file, "particleConstraints", world.particleConstraintIds(),
             [&](ParticleConstraintId id) { return write(constraintDesc(ps, ps.constraints[id]), index); });
    putArray(file, "particleVolumes", world.particleVolumeIds(), [&](ParticleVolumeId id) {
        const ParticleVolume& v = ps.volumes[id];
        return write(ParticleVolumeDesc{idsOf(ps, v.triangles), v.pressure, v.compliance, v.mode, v.globalShare}, index);
    });
    putArray(file, "particleClusters", world.particleClusterIds(), [&](ParticleClusterId id) {
        const ParticleCluster& c = ps.clusters[id];
        return write(ParticleClusterDesc{idsOf(ps, c.particles), c.shapeStiffness, c.rigidDamping}, index);
    });
    putArray(file, "particleSurfaces", world.particleSurfaceIds(), [&](ParticleSurfaceId id) {
        const ParticleSurface& s = ps.surfaces[id];
        return write(ParticleSurfaceDesc{idsOf(ps, s.triangles), s.thickness}, index);
    });
    putArray(file, "particleHierarchies", world.particleHierarchyIds(),
             [&](ParticleHierarchyId id) { return write(hierarchyDesc(ps, ps.hierarchies[id]), index); });
}

} // namespace
} // namespace detail

std::string exportScene(const World& world, const SceneInfo& info) {
    using namespace detail;
    const ExportIndex index = indexOf(world);
    Json file = Json::object();
    file["format"] = "jounce-scene";
    file["version"] = 2;
    Json scene = write(info, index);
    if (!scene.empty()) file["scene"] = std::move(scene);
    Json settings = write(world.settings(), index);
    if (!settings.empty()) file["settings"] = std::move(settings);
    putArray(file, "bodies", world.bodyIds(), [&](BodyId id) { return write(bodyDesc(world, id), index); });
    putArray(file, "forceGenerators", world.forceGeneratorIds(),
             [&](ForceGeneratorId id) { return generatorJson(world.forceGenerator(id), index); });
    putArray(file, "joints", world.jointIds(), [&](JointId id) { return write(world.joint(id).desc, index); });
    putParticles(file, world, index);
    putArray(file, "deformables", world.deformableIds(), [&](DeformableId id) { return deformableJson(world.deformable(id), index); });
    return printJson(file);
}

} // namespace jounce
