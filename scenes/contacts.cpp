// SPDX-License-Identifier: MIT
// The 'contacts' view: kinematic bodies on scripted paths (moved through their
// velocities, so they pass through each other: nothing resolves contacts yet) over a
// ground plane, a static block and a static triangle-mesh terrain, with every manifold
// the narrow phase reports drawn live: red points, yellow normals pointing from B
// toward A. A convex-hull rock rides over the terrain's bumps; any mover can be dragged
// over the terrain with the mouse.

#include "scenes/builtin.hpp"

#include <jounce/collision/convex_hull.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <vector>

namespace jounce::scenes {
namespace {

/// A square heightfield patch, two triangles per cell, front (counter-clockwise) up.
/// Gentle bumps everywhere except a flat rectangle, and an edge that slopes down to
/// the ground plane so the patch does not float. Heights are built from integer grid
/// coordinates, so the flat cells are exactly level and the scene is deterministic.
class Terrain {
public:
    static constexpr int kCells = 16;          ///< per side
    static constexpr real kCell = real(0.4);   ///< cell size [m]
    static constexpr real kHalf = kCells * kCell / 2;
    static constexpr real kFlatHeight = real(0.3);
    /// The flat rectangle, in vertex indices (inclusive): x in [-2.4, 0], z in [-1.2, 1.2].
    static constexpr int kFlatI0 = 2, kFlatI1 = 8, kFlatJ0 = 5, kFlatJ1 = 11;

    Terrain() {
        for (int j = 0; j <= kCells; ++j)
            for (int i = 0; i <= kCells; ++i) vertices_.push_back(Vec3(coordinate(i), heightAtVertex(i, j), coordinate(j)));
        for (int j = 0; j < kCells; ++j) {
            for (int i = 0; i < kCells; ++i) {
                const std::uint32_t a = index(i, j), b = index(i + 1, j), c = index(i + 1, j + 1), d = index(i, j + 1);
                // Alternate the diagonal cell by cell, so no direction is favoured.
                if (splitsAlongAC(i, j)) {
                    triangles_.push_back({a, d, c});
                    triangles_.push_back({a, c, b});
                } else {
                    triangles_.push_back({a, d, b});
                    triangles_.push_back({b, d, c});
                }
            }
        }
    }

    const std::vector<Vec3>& vertices() const { return vertices_; }
    const std::vector<std::array<std::uint32_t, 3>>& triangles() const { return triangles_; }

    /// The centre of the flat rectangle (patch frame, on its surface).
    static Vec3 flatCentre() {
        return Vec3((coordinate(kFlatI0) + coordinate(kFlatI1)) / 2, kFlatHeight, (coordinate(kFlatJ0) + coordinate(kFlatJ1)) / 2);
    }

    /// The height of the triangulated surface above (x, z) (patch frame); outside the
    /// patch, 0 (the ground).
    real surfaceHeight(real x, real z) const {
        const real u = (x + kHalf) / kCell, v = (z + kHalf) / kCell;
        if (!(u >= 0 && v >= 0 && u <= kCells && v <= kCells)) return 0;
        const int i = std::min(static_cast<int>(u), kCells - 1), j = std::min(static_cast<int>(v), kCells - 1);
        const real s = u - real(i), t = v - real(j); // within the cell, along x and z
        const real ha = height(i, j), hb = height(i + 1, j), hc = height(i + 1, j + 1), hd = height(i, j + 1);
        if (splitsAlongAC(i, j)) return t >= s ? ha + s * (hc - hd) + t * (hd - ha) : ha + s * (hb - ha) + t * (hc - hb);
        return s + t <= 1 ? ha + s * (hb - ha) + t * (hd - ha) : hc + (1 - s) * (hd - hc) + (1 - t) * (hb - hc);
    }

private:
    static real coordinate(int k) { return real(k) * kCell - kHalf; }
    static bool splitsAlongAC(int i, int j) { return (i + j) % 2 == 0; }
    std::uint32_t index(int i, int j) const { return static_cast<std::uint32_t>(j * (kCells + 1) + i); }
    real height(int i, int j) const { return vertices_[index(i, j)].y(); }

    static real smoothstep(real x) {
        x = std::clamp(x, real(0), real(1));
        return x * x * (3 - 2 * x);
    }
    static real heightAtVertex(int i, int j) {
        // Distances in cells: to the patch's edge, and to the flat rectangle.
        const int toEdge = std::min({i, j, kCells - i, kCells - j});
        const int di = std::max({kFlatI0 - i, 0, i - kFlatI1}), dj = std::max({kFlatJ0 - j, 0, j - kFlatJ1});
        const real toFlat = std::sqrt(real(di * di + dj * dj));
        const real edge = smoothstep(real(toEdge) / 2);   // 0 on the edge, 1 two cells in
        const real bumpy = smoothstep(toFlat / 3);        // 0 on the flat part, 1 three cells out
        const real x = coordinate(i), z = coordinate(j);
        const real bumps = real(0.6) * std::sin(real(1.7) * x + real(0.4)) * std::cos(real(1.3) * z) +
                           real(0.4) * std::sin(real(2.3) * z - real(0.9) * x);
        return edge * (kFlatHeight + real(0.25) * bumpy * bumps);
    }

    std::vector<Vec3> vertices_;
    std::vector<std::array<std::uint32_t, 3>> triangles_;
};

/// A rock: 20 points on a squashed sphere (a Fibonacci spiral, radii jittered by an
/// integer hash, so every build makes the same rock).
std::vector<Vec3> rockPoints() {
    constexpr int kPoints = 20;
    std::vector<Vec3> points;
    std::uint32_t state = 0x9e3779b9u;
    for (int k = 0; k < kPoints; ++k) {
        state = state * 1664525u + 1013904223u; // LCG (Numerical Recipes)
        const real jitter = real(state >> 8) / real(1u << 24); // [0, 1)
        const real y = 1 - 2 * (real(k) + real(0.5)) / kPoints;
        const real ring = std::sqrt(1 - y * y);
        const real angle = real(k) * std::numbers::pi_v<real> * (3 - std::sqrt(real(5)));
        const real radius = real(0.45) + real(0.15) * jitter;
        points.push_back(radius * Vec3(ring * std::cos(angle), real(0.7) * y, ring * std::sin(angle)));
    }
    return points;
}

class Contacts final : public Scene {
public:
    Contacts() {
        showContacts = true;
        BodyDesc ground;
        ground.type = BodyType::Static;
        ground.colliders.push_back({HalfSpace{}, Transform{}, 1000, {}, {}});
        addBody(ground, {BodyId{}, Primitive::Plane, Vec3::Zero(), {0.35f, 0.37f, 0.4f}});
        BodyDesc block;
        block.type = BodyType::Static;
        block.position = Vec3(0, real(0.5), 0);
        block.colliders.push_back({Box{Vec3(1, real(0.5), 1)}, Transform{}, 1000, {}, {}});
        addBody(block, {BodyId{}, Primitive::Box, Vec3::Zero(), {0.55f, 0.55f, 0.6f}});

        box_ = addMover(Box{Vec3(real(0.5), real(0.5), real(0.5))}, {0.9f, 0.5f, 0.2f});
        capsule_ = addMover(Capsule{real(0.3), real(0.8)}, {0.3f, 0.7f, 0.9f});
        sphere_ = addMover(Sphere{real(0.6)}, {0.5f, 0.85f, 0.4f});

        BodyDesc terrain;
        terrain.type = BodyType::Static;
        terrain.position = kTerrainAt;
        terrain.colliders.push_back({makeTriangleMesh(terrain_.vertices(), terrain_.triangles()), Transform{}, 1000, {}, {}});
        addBody(terrain, {BodyId{}, Primitive::Triangles, Vec3::Zero(), {0.24f, 0.38f, 0.17f}});

        const std::vector<Vec3> rock = rockPoints();
        const ConvexHull hull = makeConvexHull(rock);
        rockCorners_ = hull.hull->vertices;
        rock_ = addMover(hull, {0.72f, 0.62f, 0.5f});
        place(0);
    }
    const char* name() const override { return "contacts"; }
    const char* description() const override {
        return "Kinematic box, capsule, sphere and convex-hull rock on scripted paths over a plane, a block and a "
               "triangle-mesh terrain; every contact manifold drawn live. Drag a body with the left mouse button.";
    }
    Vec3 cameraTarget() const override { return Vec3(0, real(0.3), real(-2.6)); }
    real cameraDistance() const override { return 12; }

    void update(real h) override {
        time_ += h;
        place(time_ + h); // velocities that carry each body to its path point at the end of the step
    }

private:
    /// Where the terrain patch sits (world frame, unturned): behind the block.
    inline static const Vec3 kTerrainAt = Vec3(0, 0, real(-5.6));

    BodyId addMover(const Shape& shape, Colour colour) {
        BodyDesc d;
        d.type = BodyType::Kinematic;
        d.canSleep = false;
        d.colliders.push_back({shape, Transform{}, 1000, {}, {}});
        return addBody(d, {BodyId{}, Primitive::Box, Vec3::Zero(), colour});
    }

    /// Scripted poses at time t; velocities are set so one step of h lands on them.
    struct Pose {
        Vec3 position;
        Vec3 angularVelocity;
    };
    static Pose boxPath(real t) { return {Vec3(real(0.6) * std::sin(t), real(1.45) + real(0.1) * std::sin(3 * t), 0), Vec3(real(0.3), real(0.7), 0)}; }
    static Pose capsulePath(real t) { return {Vec3(3 * std::cos(real(0.5) * t), real(0.35), real(2.2)), Vec3(0, 0, real(0.9))}; }
    static Pose spherePath(real t) { return {Vec3(real(1.9) * std::cos(real(0.8) * t), real(0.55), real(1.9) * std::sin(real(0.8) * t)), Vec3::Zero()}; }
    /// The rock circles the terrain, turning slowly about y, sitting on the surface
    /// 2 cm deep at its lowest corner so its manifolds show.
    Pose rockPath(real t) const {
        const Vec3 at = kTerrainAt + Vec3(real(2.1) * std::cos(real(0.3) * t), 0, real(1.9) * std::sin(real(0.3) * t));
        const BodyState b = world_.body(rock_);
        real y = -std::numeric_limits<real>::infinity();
        for (const Vec3& corner : rockCorners_) {
            const Vec3 offset = b.orientation * (corner - b.localCenterOfMass); // from the centre of mass
            const Vec3 local = at + offset - kTerrainAt;
            y = std::max(y, terrain_.surfaceHeight(local.x(), local.z()) - offset.y());
        }
        return {Vec3(at.x(), y - real(0.02), at.z()), Vec3(0, real(0.5), 0)};
    }

    void moveAlong(BodyId id, const Pose& target) {
        if (id == grabbed()) return; // the mouse has it
        const real h = timeStep();
        const BodyState b = world_.body(id);
        // The paths are of the centre of mass (the velocity is its velocity);
        // setPosition places the origin.
        if (world_.stepCount() == 0 && time_ == 0)
            world_.setPosition(id, target.position - b.orientation * b.localCenterOfMass);
        world_.setLinearVelocity(id, (target.position - b.centerOfMass) / h);
        world_.setAngularVelocity(id, target.angularVelocity);
    }
    void place(real t) {
        moveAlong(box_, boxPath(t));
        moveAlong(capsule_, capsulePath(t));
        moveAlong(sphere_, spherePath(t));
        moveAlong(rock_, rockPath(t));
    }

    Terrain terrain_;
    std::vector<Vec3> rockCorners_; ///< the hull's corners, body-origin frame
    BodyId box_, capsule_, sphere_, rock_;
    real time_ = 0;
};

} // namespace

std::unique_ptr<Scene> makeContacts() { return std::make_unique<Contacts>(); }

} // namespace jounce::scenes
