// The benchmark scenes, exactly as ../shared/BENCH_SCENES.md defines them.

#include "scenes/bench_scenes.hpp"
#include "scenes/builtin.hpp"

#include <cmath>

namespace jounce::scenes {
namespace {

constexpr real benchDensity = 1000; // BENCH_SCENES.md: every dynamic body
constexpr real friction = real(0.5);

Material material() {
    Material m;
    m.friction = friction; // pairs combine as sqrt(fa fb) = 0.5
    m.restitution = 0;
    return m;
}

BodyId addStaticBox(Scene& scene, const Vec3& centre, const Vec3& half) {
    BodyDesc d;
    d.type = BodyType::Static;
    d.position = centre;
    ColliderDesc c;
    c.shape = Box{half};
    c.material = material();
    d.colliders.push_back(c);
    return scene.addBody(d, {BodyId{}, Primitive::Box, half, {0.35f, 0.37f, 0.4f}});
}

BodyId addDynamic(Scene& scene, const Shape& shape, const Vec3& centre, Colour colour) {
    BodyDesc d;
    d.position = centre;
    ColliderDesc c;
    c.shape = shape;
    c.density = benchDensity;
    c.material = material();
    d.colliders.push_back(c);
    return scene.addBody(d, {BodyId{}, Primitive::Box, Vec3::Constant(real(0.5)), colour});
}

void addBin(Scene& scene, real w) {
    for (const real s : {real(-1), real(1)}) {
        addStaticBox(scene, Vec3(s * (w + real(0.5)), 10, 0), Vec3(real(0.5), 10, w + 1));
        addStaticBox(scene, Vec3(0, 10, s * (w + real(0.5))), Vec3(w + 1, 10, real(0.5)));
    }
}

Colour shade(std::size_t i) {
    const float t = static_cast<float>(i % 7) / 7.0f;
    return {0.55f + 0.4f * t, 0.45f + 0.2f * (1 - t), 0.3f};
}

BenchLayout pyramid(Scene& scene, int rows) {
    BenchLayout layout;
    for (int r = 0; r < rows; ++r) {
        const int n = rows - r;
        for (int k = 0; k < n; ++k) {
            const Vec3 at(static_cast<real>(k) - static_cast<real>(n - 1) / 2, real(0.5) + static_cast<real>(r), 0);
            layout.dynamic.push_back(addDynamic(scene, Box{Vec3::Constant(real(0.5))}, at, shade(layout.dynamic.size())));
        }
    }
    layout.top = layout.dynamic.back();
    return layout;
}

BenchLayout grid(Scene& scene, int n, real w, const Shape& shape, bool shiftOddLayers) {
    BenchLayout layout;
    layout.binHalfWidth = w;
    addBin(scene, w);
    const real middle = static_cast<real>(n - 1) / 2;
    for (int iy = 0; iy < n; ++iy)
        for (int iz = 0; iz < n; ++iz)
            for (int ix = 0; ix < n; ++ix) {
                const real shift = shiftOddLayers && iy % 2 == 1 ? real(0.2) : real(0);
                const Vec3 at((static_cast<real>(ix) - middle) * real(1.1) + shift, real(5.5) + real(1.1) * static_cast<real>(iy),
                              (static_cast<real>(iz) - middle) * real(1.1) + shift);
                layout.dynamic.push_back(addDynamic(scene, shape, at, shade(layout.dynamic.size())));
            }
    return layout;
}

} // namespace

bool isBenchScene(std::string_view name) {
    return name == "column" || name == "pyramid10" || name == "pyramid20" || name == "pile1000" || name == "spheres4096";
}

BenchLayout buildBenchScene(Scene& scene, std::string_view name) {
    addStaticBox(scene, Vec3(0, real(-0.5), 0), Vec3(50, real(0.5), 50)); // ground, top at y = 0
    if (name == "column") {
        BenchLayout layout;
        for (int i = 0; i < 10; ++i)
            layout.dynamic.push_back(addDynamic(scene, Box{Vec3::Constant(real(0.5))}, Vec3(0, real(0.5) + static_cast<real>(i), 0), shade(static_cast<std::size_t>(i))));
        layout.top = layout.dynamic.back();
        return layout;
    }
    if (name == "pyramid10") return pyramid(scene, 10);
    if (name == "pyramid20") return pyramid(scene, 20);
    if (name == "pile1000") return grid(scene, 10, 6, Box{Vec3::Constant(real(0.5))}, false);
    if (name == "spheres4096") return grid(scene, 16, 9, Sphere{real(0.5)}, true);
    throw Error("scene", std::string(name), "not a benchmark scene (column, pyramid10, pyramid20, pile1000, spheres4096)");
}

namespace {

/// A benchmark scene as a demo scene.
class Bench final : public Scene {
public:
    Bench(std::string name, const char* description, Vec3 target, real distance)
        : name_(std::move(name)), description_(description), target_(target), distance_(distance) {
        layout_ = buildBenchScene(*this, name_);
    }
    const char* name() const override { return name_.c_str(); }
    const char* description() const override { return description_; }
    Vec3 cameraTarget() const override { return target_; }
    real cameraDistance() const override { return distance_; }

private:
    std::string name_;
    const char* description_;
    Vec3 target_;
    real distance_;
    BenchLayout layout_;
};

} // namespace

std::unique_ptr<Scene> makeColumn() {
    return std::make_unique<Bench>("column", "A column of 10 boxes (BENCH_SCENES.md)", Vec3(0, 5, 0), 18);
}
std::unique_ptr<Scene> makePyramid10() {
    return std::make_unique<Bench>("pyramid10", "A pyramid of 55 boxes, base 10", Vec3(0, 4, 0), 20);
}
std::unique_ptr<Scene> makePyramid20() {
    return std::make_unique<Bench>("pyramid20", "A pyramid of 210 boxes, base 20", Vec3(0, 8, 0), 35);
}
std::unique_ptr<Scene> makePile1000() {
    return std::make_unique<Bench>("pile1000", "1000 boxes dropped into a bin", Vec3(0, 5, 0), 30);
}
std::unique_ptr<Scene> makeSpheres4096() {
    return std::make_unique<Bench>("spheres4096", "4096 spheres dropped into a bin", Vec3(0, 8, 0), 40);
}

} // namespace jounce::scenes
