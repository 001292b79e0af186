// SPDX-License-Identifier: MIT
// Heightfield terrain (docs/collision.md): rolling hills of 128 x 128 one-metre cells with
// a well of holes in a hollow, the ray-cast car to drive over them (arrow keys), and
// balls, crates and a hull rolling down toward the well (the action drops more).

#include "scenes/builtin.hpp"

#include <jounce/collision/heightfield.hpp>

#include <cmath>
#include <numbers>

namespace jounce::scenes {
namespace {

constexpr std::uint32_t samples = 129;
constexpr real spacing = 1;
const Vec3 origin(-64, 0, -64);

/// Hills around a hollow at (10, 10), a long rise ahead of the car (+z), flat where it starts.
real hillHeight(real x, real z) {
    const real hollow = 3 * std::exp(-((x - 10) * (x - 10) + (z - 10) * (z - 10)) / 60);
    const real hills = real(1.5) * std::sin(real(0.15) * x) * std::cos(real(0.12) * z) + real(0.6) * std::sin(real(0.4) * z + real(0.2) * x) +
                       real(3) * (1 - std::cos(real(0.06) * z));
    const real flat = std::min(real(1), (x * x + z * z) / 100); // 0 at the origin, 1 beyond 10 m
    return flat * (hills - hollow);
}

class Terrain final : public Scene {
public:
    Terrain() : chassis_(addGroundAndCar()), car_(world_, carWheels(chassis_)) { dropThings(); }
    const char* name() const override { return "terrain"; }
    const char* description() const override {
        return "Heightfield terrain: 128 x 128 m of hills on a grid of heights, a well of holes in the hollow. Drive the "
               "ray-cast car with the arrow keys; the action drops more things down the hills.";
    }
    Vec3 cameraTarget() const override { return world_.body(chassis_).position; }
    real cameraDistance() const override { return 22; }
    real cameraYaw() const override { return real(2.4); }

    std::vector<std::string> actions() const override { return {"Drop more", "Right the car"}; }
    void act(std::size_t action) override {
        if (action == 0) return dropThings();
        const Vec3 at = world_.body(chassis_).position;
        rightCar(world_, chassis_, hillHeight(at.x(), at.z()) + 2);
    }
    void control(real throttle, real steer) override { input_ = carInput(world_, chassis_, throttle, steer); }
    void update(real h) override { car_.update(world_, h, input_); }
    void draw(DrawList& out) const override {
        Scene::draw(out);
        drawCarWheels(world_, car_, out);
    }

private:
    BodyId chassis_{};
    Vehicle car_;
    VehicleInput input_;
    int drops_ = 0;

    BodyId addGroundAndCar() {
        std::vector<real> heights;
        for (std::uint32_t z = 0; z < samples; ++z)
            for (std::uint32_t x = 0; x < samples; ++x)
                heights.push_back(hillHeight(origin.x() + spacing * real(x), origin.z() + spacing * real(z)));
        // A well of 2 x 2 cells at the bottom of the hollow.
        std::vector<std::uint8_t> holes((samples - 1) * (samples - 1), 0);
        for (std::uint32_t cz = 73; cz <= 74; ++cz) // x, z in [9, 11]
            for (std::uint32_t cx = 73; cx <= 74; ++cx) holes[cz * (samples - 1) + cx] = 1;
        const HeightfieldDesc desc{samples, samples, spacing, spacing, origin, heights, holes};
        BodyDesc ground;
        ground.type = BodyType::Static;
        ground.colliders.push_back(makeCollider(makeHeightfield(desc), 1000, {.friction = real(0.9)}));
        addBody(ground, {BodyId{}, Primitive::Box, Vec3::Zero(), {0.42f, 0.55f, 0.33f}});
        return addCarChassis(*this, Vec3(0, real(1.1), 0));
    }

    void dropThings() {
        // A ring of things on the hills around the hollow; they roll toward the well.
        const Colour colours[] = {{0.85f, 0.45f, 0.2f}, {0.3f, 0.5f, 0.85f}, {0.9f, 0.8f, 0.3f}};
        for (int k = 0; k < 12; ++k) {
            const real a = real(2) * std::numbers::pi_v<real> * real(k) / 12 + real(0.3) * real(drops_);
            const real x = 10 + 9 * std::cos(a), z = 10 + 9 * std::sin(a);
            BodyDesc d;
            d.position = Vec3(x, hillHeight(x, z) + 3, z);
            const Colour c = colours[k % 3];
            if (k % 3 == 0) {
                d.colliders.push_back(makeCollider(Sphere{real(0.5)}, 300, {.friction = real(0.6)}));
                addBody(d, {BodyId{}, Primitive::Sphere, Vec3::Constant(real(0.5)), c});
            } else if (k % 3 == 1) {
                d.colliders.push_back(makeCollider(Box{Vec3::Constant(real(0.4))}, 200, {.friction = real(0.6)}));
                addBody(d, {BodyId{}, Primitive::Box, Vec3::Constant(real(0.4)), c});
            } else {
                d.colliders.push_back(makeCollider(Capsule{real(0.3), real(0.4)}, 300, {.friction = real(0.6)}));
                addBody(d, {BodyId{}, Primitive::Capsule, Vec3(real(0.3), real(0.4), 0), c});
            }
        }
        ++drops_;
    }
};

} // namespace

std::unique_ptr<Scene> makeTerrain() { return std::make_unique<Terrain>(); }

} // namespace jounce::scenes
