// SPDX-License-Identifier: MIT
// The benchmark scenes, exactly as ../shared/BENCH_SCENES.md defines them.

#include "scenes/bench_scenes.hpp"
#include "scenes/builtin.hpp"

#include <cmath>

namespace jounce::scenes {
namespace {

Material material() {
    Material m;
    m.friction = benchFriction; // pairs combine as sqrt(fa fb) = 0.5
    m.restitution = 0;
    return m;
}

Colour shade(std::size_t i) {
    const float t = static_cast<float>(i % 7) / 7.0f;
    return {0.55f + 0.4f * t, 0.45f + 0.2f * (1 - t), 0.3f};
}

BenchBody box(const Vec3& centre, const Vec3& half, bool dynamic) { return {BenchBody::Shape::Box, half, centre, dynamic}; }

void addBin(BenchSceneDesc& d, real w) {
    d.binHalfWidth = w;
    for (const real s : {real(-1), real(1)}) {
        d.bodies.push_back(box(Vec3(s * (w + real(0.5)), 10, 0), Vec3(real(0.5), 10, w + 1), false));
        d.bodies.push_back(box(Vec3(0, 10, s * (w + real(0.5))), Vec3(w + 1, 10, real(0.5)), false));
    }
}

void pyramid(BenchSceneDesc& d, int rows) {
    for (int r = 0; r < rows; ++r) {
        const int n = rows - r;
        for (int k = 0; k < n; ++k)
            d.bodies.push_back(box(Vec3(static_cast<real>(k) - static_cast<real>(n - 1) / 2, real(0.5) + static_cast<real>(r), 0),
                                   Vec3::Constant(real(0.5)), true));
    }
    d.top = d.bodies.size() - 1;
}

/// `layers` layers of n x n bodies 1.1 m apart from y = 5.5, in a bin of half width w.
void grid(BenchSceneDesc& d, int n, int layers, real w, BenchBody::Shape shape, bool shiftOddLayers) {
    addBin(d, w);
    const real middle = static_cast<real>(n - 1) / 2;
    for (int iy = 0; iy < layers; ++iy)
        for (int iz = 0; iz < n; ++iz)
            for (int ix = 0; ix < n; ++ix) {
                const real shift = shiftOddLayers && iy % 2 == 1 ? real(0.2) : real(0);
                const Vec3 at((static_cast<real>(ix) - middle) * real(1.1) + shift, real(5.5) + real(1.1) * static_cast<real>(iy),
                              (static_cast<real>(iz) - middle) * real(1.1) + shift);
                d.bodies.push_back({shape, Vec3::Constant(real(0.5)), at, true});
            }
}

/// pileN: N = 10 n^2 for a whole n >= 1, or 0.
int pileColumns(std::string_view name) {
    if (name.substr(0, 4) != "pile" || name.size() < 5 || name.size() > 10) return 0;
    long count = 0;
    for (const char ch : name.substr(4)) {
        if (ch < '0' || ch > '9') return 0;
        count = count * 10 + (ch - '0');
    }
    const long n = std::lround(std::sqrt(static_cast<double>(count) / 10));
    return n >= 1 && 10 * n * n == count ? static_cast<int>(n) : 0;
}

} // namespace

bool isBenchScene(std::string_view name) {
    return name == "column" || name == "pyramid10" || name == "pyramid20" || name == "spheres4096" || pileColumns(name) > 0;
}

BenchSceneDesc benchSceneDesc(std::string_view name) {
    BenchSceneDesc d;
    d.name = std::string(name);
    d.bodies.push_back(box(Vec3(0, real(-0.5), 0), Vec3(50, real(0.5), 50), false)); // ground, top at y = 0
    if (name == "column") {
        for (int i = 0; i < 10; ++i) d.bodies.push_back(box(Vec3(0, real(0.5) + static_cast<real>(i), 0), Vec3::Constant(real(0.5)), true));
        d.top = d.bodies.size() - 1;
    } else if (name == "pyramid10") {
        pyramid(d, 10);
    } else if (name == "pyramid20") {
        pyramid(d, 20);
    } else if (name == "spheres4096") {
        grid(d, 16, 16, 9, BenchBody::Shape::Sphere, true);
    } else if (const int n = pileColumns(name); n > 0) {
        grid(d, n, 10, real(0.55) * static_cast<real>(n) + real(0.5), BenchBody::Shape::Box, false);
    } else {
        throw Error("scene", std::string(name),
                    "not a benchmark scene (column, pyramid10, pyramid20, pile1000, spheres4096, or pileN with N = 10 n^2)");
    }
    return d;
}

BenchLayout buildBenchScene(Scene& scene, const BenchSceneDesc& desc) {
    BenchLayout layout;
    layout.binHalfWidth = desc.binHalfWidth;
    for (std::size_t i = 0; i < desc.bodies.size(); ++i) {
        const BenchBody& b = desc.bodies[i];
        BodyDesc d;
        d.type = b.dynamic ? BodyType::Dynamic : BodyType::Static;
        d.position = b.position;
        // Filled in place: copying a ColliderDesc here made GCC 12 (float, unity build)
        // warn that the variant's unused HalfSpace may be uninitialised.
        ColliderDesc& c = d.colliders.emplace_back();
        if (b.shape == BenchBody::Shape::Box) c.shape = Box{b.size};
        else c.shape = Sphere{b.size.x()};
        c.density = benchDensity;
        c.material = material();
        const Colour colour = b.dynamic ? shade(layout.dynamic.size()) : Colour{0.35f, 0.37f, 0.4f};
        const BodyId id = scene.addBody(d, {BodyId{}, Primitive::Box, b.size, colour});
        if (b.dynamic) layout.dynamic.push_back(id);
        if (i == desc.top) layout.top = id;
    }
    return layout;
}

BenchLayout buildBenchScene(Scene& scene, std::string_view name) { return buildBenchScene(scene, benchSceneDesc(name)); }

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
