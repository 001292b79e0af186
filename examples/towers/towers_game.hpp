// SPDX-License-Identifier: MIT
#pragma once
// Towers: the game's rules and its world, with no window and no GL, so the same code
// runs in the SDL2 game (main.cpp) and headless in the test (towers --autoplay N).
// Everything here goes through Jounce's public API (#include <jounce/jounce.hpp>).

#include <jounce/jounce.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

namespace towers {

using jounce::BodyId;
using jounce::real;
using jounce::Transform;
using jounce::Vec3;

/// What a body is to the game, kept in its BodyDesc::userData so contact events (which
/// name bodies) can be read back into game terms.
enum class Kind : std::uint64_t { Scenery = 0, Box = 1, Ball = 2, Weight = 3, Hero = 4 };

/// A body the renderer draws: its poses before and after the last fixed step, so a
/// frame between two steps can be drawn in between (interpolation).
struct Piece {
    BodyId id;
    Kind kind = Kind::Scenery;
    std::array<float, 3> colour{0.6f, 0.6f, 0.6f};
    Transform previous, current; ///< body origin frames (the frame its colliders are placed in)
};

/// Particles drawn together (the banner, the rope), with the same two states.
struct ParticleTrack {
    std::vector<jounce::ParticleId> ids;
    std::vector<Vec3> previous, current;
};

/// Where a ball hit something hard, shown for a short while.
struct Flash {
    Vec3 point = Vec3::Zero();
    real age = 0; ///< [s]
};

class Game {
public:
    static constexpr real dt = real(1) / 60;   ///< the fixed step [s]
    static constexpr real platformTop = 1;     ///< a box whose centre drops below this is off [m]
    static constexpr int maxBalls = 12;        ///< older balls are removed as new ones are thrown

    Game() { reset(); }
    void reset();   ///< a new world with the level as it starts
    void step();    ///< one fixed step: the drag force, world.step(dt), then events and score

    /// The hero (a jounce::Character): walks at `velocity` [m/s, across gravity] from the
    /// next step on, up the ramp onto the platform and into the towers; jump() leaves
    /// the ground.
    void walk(const Vec3& velocity) { walk_ = velocity; }
    void jump();
    Vec3 heroStart() const { return Vec3(real(-1.8), 0, real(6.5)); }
    const jounce::Character& hero() const { return *hero_; }

    /// Throws a ball from the launcher so that it passes through `target`.
    void throwBall(const Vec3& target);
    Vec3 launcher() const { return Vec3(0, real(2.2), real(8.5)); }

    /// Picking by ray cast: grab the dynamic body the segment from -> to enters first
    /// (returns false if none), pull it toward a point on later rays, let it go.
    bool grab(const Vec3& from, const Vec3& to);
    void drag(const Vec3& from, const Vec3& to);
    void release() { grabbed_ = {}; }
    bool dragging() const { return !grabbed_.isNull(); }

    int score() const { return score_; }       ///< boxes knocked off the platform
    int boxCount() const { return boxCount_; }
    int hits() const { return hits_; }         ///< hard ball impacts so far (contact events)
    int ballsThrown() const { return thrown_; }
    bool finite() const;                       ///< every body and particle position is finite

    const jounce::World& world() const { return world_; }
    const std::vector<Piece>& pieces() const { return pieces_; }
    const ParticleTrack& banner() const { return banner_; }
    const std::vector<std::array<std::uint32_t, 3>>& bannerTriangles() const { return bannerTriangles_; }
    const ParticleTrack& rope() const { return rope_; }
    const std::vector<Flash>& flashes() const { return flashes_; }

    /// A piece's pose `alpha` of the way from the previous step to the current one.
    static Transform interpolate(const Piece& piece, real alpha);
    static Vec3 interpolate(const ParticleTrack& track, std::size_t i, real alpha);

private:
    BodyId addBody(const jounce::BodyDesc& desc, Kind kind, std::array<float, 3> colour);
    BodyId addStaticBox(const Vec3& centre, const Vec3& halfExtents, std::array<float, 3> colour);
    void buildTowers();
    void buildBanner();
    void buildRope();
    void buildRamp();
    void removeOldestBall();
    void applyDragForce();
    void readContactEvents();
    void countScore();
    Kind kindOf(BodyId id) const { return static_cast<Kind>(world_.body(id).userData); }

    jounce::World world_;
    std::optional<jounce::Character> hero_;
    Vec3 walk_ = Vec3::Zero();
    std::vector<Piece> pieces_;
    ParticleTrack banner_, rope_;
    std::vector<std::array<std::uint32_t, 3>> bannerTriangles_;
    std::vector<Flash> flashes_;
    BodyId grabbed_;
    Vec3 grabLocal_ = Vec3::Zero();   ///< the grabbed point in the body-origin frame
    Vec3 grabTarget_ = Vec3::Zero();  ///< where the mouse ray wants it
    real grabDistance_ = 0;           ///< along the ray, kept while dragging
    int score_ = 0, boxCount_ = 0, hits_ = 0, thrown_ = 0;
};

} // namespace towers
