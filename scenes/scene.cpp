#include "scenes/scene.hpp"

#include "scenes/builtin.hpp"

#include <algorithm>

namespace jounce::scenes {

void Scene::step() {
    update(timeStep());
    world_.step(timeStep(), substeps());
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

void Scene::draw(DrawList& out) const {
    for (const Visual& v : visuals_) {
        const Body& b = world_.body(v.body);
        out.items.push_back({v.shape, b.transform(), v.size, v.colour});
    }
    const Colour springColour{0.9f, 0.85f, 0.3f};
    const Colour bungeeColour{0.9f, 0.4f, 0.2f};
    const Colour fakeColour{0.4f, 0.9f, 0.9f};
    for (const ForceGeneratorId id : world_.forceGeneratorIds()) {
        const ForceGenerator& g = world_.forceGenerator(id);
        if (const auto* s = std::get_if<Spring>(&g))
            out.lines.push_back({world_.attachmentPoint(s->a), world_.attachmentPoint(s->b), springColour});
        else if (const auto* bg = std::get_if<Bungee>(&g))
            out.lines.push_back({world_.attachmentPoint(bg->a), world_.attachmentPoint(bg->b), bungeeColour});
        else if (const auto* f = std::get_if<FakeSpring>(&g))
            out.lines.push_back({f->anchor, world_.body(f->body).position, fakeColour});
    }
}

namespace {
struct Entry {
    const char* name;
    std::unique_ptr<Scene> (*make)();
};
constexpr Entry registry[] = {
    {"ballistic", makeBallistic},
    {"fireworks", makeFireworks},
    {"spinning", makeSpinning},
    {"springs", makeSprings},
};
} // namespace

std::vector<std::string> sceneNames() {
    std::vector<std::string> names;
    for (const Entry& e : registry) names.emplace_back(e.name);
    return names;
}

std::unique_ptr<Scene> makeScene(std::string_view name) {
    for (const Entry& e : registry)
        if (name == e.name) return e.make();
    std::string known;
    for (const Entry& e : registry) known += std::string(known.empty() ? "" : ", ") + e.name;
    throw Error("scene", std::string(name), "unknown scene; known: " + known);
}

} // namespace jounce::scenes
