// SPDX-License-Identifier: MIT
#include "towers_game.hpp"

#include <algorithm>
#include <cmath>

namespace towers {
namespace {

using jounce::BodyDesc;
using jounce::BodyType;

constexpr std::array<float, 3> stone{0.55f, 0.55f, 0.6f};
constexpr std::array<float, 3> wood{0.45f, 0.32f, 0.2f};

/// The towers stand on the platform at these x; each is `storeys` cubes high.
constexpr std::array<real, 3> towerX{real(-1.8), 0, real(1.8)};
constexpr int storeys = 6;
constexpr real cube = real(0.2); ///< half the side of a tower's box [m]

/// Copies a track's current positions to previous and reads the new ones.
void advance(const jounce::World& world, ParticleTrack& track) {
    track.previous = track.current;
    for (std::size_t i = 0; i < track.ids.size(); ++i) track.current[i] = world.particle(track.ids[i]).position;
}

void startTrack(const jounce::World& world, ParticleTrack& track, std::vector<jounce::ParticleId> ids) {
    track.ids = std::move(ids);
    track.current.assign(track.ids.size(), Vec3::Zero());
    advance(world, track);
    track.previous = track.current;
}

} // namespace

void Game::reset() {
    world_ = jounce::World(); // the default settings: 9.81 m/s^2 down, continuous collision on
    pieces_.clear();
    flashes_.clear();
    grabbed_ = {};
    score_ = boxCount_ = hits_ = thrown_ = 0;

    BodyDesc ground;
    ground.type = BodyType::Static;
    ground.colliders.push_back(jounce::makeCollider(jounce::HalfSpace{}, 1000, {.friction = real(0.8)}));
    addBody(ground, Kind::Scenery, {0.3f, 0.5f, 0.3f});
    addStaticBox(Vec3(0, platformTop / 2, 0), Vec3(3, platformTop / 2, real(1.5)), stone); // the platform
    buildTowers();
    buildBanner();
    buildRope();
    buildRamp();
    jounce::CharacterDesc hero;
    hero.position = heroStart();
    hero.radius = real(0.3);
    hero.height = real(1.6);
    hero.maxPushForce = 1500; // [N]: enough to shove a 26 kg box along the stone
    hero_.emplace(world_, hero);
    walk_ = Vec3::Zero();
    const Transform pose = world_.body(hero_->body()).transform();
    pieces_.push_back(Piece{hero_->body(), Kind::Hero, {0.2f, 0.45f, 0.9f}, pose, pose});
}

/// A ramp from the ground up to the platform's front edge before the left tower, 19
/// degrees (the hero walks slopes up to 45).
void Game::buildRamp() {
    const real rise = platformTop, run = real(2.95), front = real(1.5); // the platform's front face is at z = 1.5
    const real angle = std::atan2(rise, run), half = std::hypot(rise, run) / 2, thick = real(0.1);
    const Vec3 up(0, std::cos(angle), std::sin(angle)); // the ramp's top normal
    const Vec3 topMiddle(towerX[0], rise / 2, front + run / 2);
    BodyDesc d;
    d.type = BodyType::Static;
    d.position = topMiddle - thick * up;
    d.orientation = jounce::Quat(Eigen::AngleAxis<real>(angle, Vec3::UnitX()));
    d.colliders.push_back(jounce::makeCollider(jounce::Box{Vec3(real(0.6), thick, half)}, 1000, {.friction = real(0.8)}));
    addBody(d, Kind::Scenery, wood);
}

void Game::jump() {
    if (hero_->onGround()) hero_->jump(real(4.5));
}

BodyId Game::addBody(const BodyDesc& desc, Kind kind, std::array<float, 3> colour) {
    BodyDesc tagged = desc;
    tagged.userData = static_cast<std::uint64_t>(kind);
    const BodyId id = world_.createBody(tagged);
    const Transform pose = world_.body(id).transform();
    pieces_.push_back(Piece{id, kind, colour, pose, pose});
    return id;
}

BodyId Game::addStaticBox(const Vec3& centre, const Vec3& halfExtents, std::array<float, 3> colour) {
    BodyDesc d;
    d.type = BodyType::Static;
    d.position = centre;
    d.colliders.push_back(jounce::makeCollider(jounce::Box{halfExtents}, 1000, {.friction = real(0.8)}));
    return addBody(d, Kind::Scenery, colour);
}

void Game::buildTowers() {
    for (std::size_t t = 0; t < towerX.size(); ++t)
        for (int s = 0; s < storeys; ++s) {
            BodyDesc d;
            d.position = Vec3(towerX[t], platformTop + cube + 2 * cube * static_cast<real>(s), 0);
            d.colliders.push_back(jounce::makeCollider(jounce::Box{Vec3::Constant(cube)}, 400, {.friction = real(0.6)}));
            // Alternate shades so the storeys read apart; each tower its own hue.
            const float shade = s % 2 == 0 ? 1.0f : 0.8f;
            const std::array<float, 3> hue{t == 0 ? 0.9f : 0.3f, t == 1 ? 0.8f : 0.35f, t == 2 ? 0.9f : 0.3f};
            addBody(d, Kind::Box, {hue[0] * shade, hue[1] * shade, hue[2] * shade});
            ++boxCount_;
        }
}

/// A cloth banner behind the towers, sewn along its top edge to a frame of two posts
/// and a bar: balls thrown too high land in it.
void Game::buildBanner() {
    const real z = -2, top = real(3.6), half = real(2.2);
    for (const real x : {-half - real(0.1), half + real(0.1)})
        addStaticBox(Vec3(x, (top + real(0.1)) / 2, z), Vec3(real(0.08), (top + real(0.1)) / 2, real(0.08)), wood);
    addStaticBox(Vec3(0, top + real(0.1), z), Vec3(half + real(0.2), real(0.06), real(0.06)), wood);

    jounce::ClothDesc d;
    d.corner = Vec3(-half, top, z + real(0.12)); // just in front of the bar, clear of it
    d.sideU = Vec3(2 * half, 0, 0);
    d.sideV = Vec3(0, real(-1.5), 0);
    d.nu = 23;
    d.nv = 9;
    d.mass = real(0.8);
    d.radius = real(0.05);
    for (int u = 0; u < d.nu; u += 2) d.pinned.push_back({u, 0}); // every other particle of the top edge
    const jounce::Cloth cloth = jounce::buildCloth(world_, d);
    startTrack(world_, banner_, cloth.particles);
    bannerTriangles_ = cloth.triangles;
}

/// A wrecking ball: a heavy sphere on a rope of particles, hung from a gallows in front of
/// the right tower, where it shields it. Hit it and it swings back into the tower.
void Game::buildRope() {
    const Vec3 hook(towerX[2], real(4.2), real(0.9));
    addStaticBox(Vec3(real(3.5), real(2.15), hook.z()), Vec3(real(0.1), real(2.15), real(0.1)), wood);
    addStaticBox(Vec3((hook.x() + real(3.5)) / 2, hook.y(), hook.z()),
                 Vec3((real(3.5) - hook.x()) / 2 + real(0.1), real(0.06), real(0.06)), wood);

    const real radius = real(0.25), length = real(1.8);
    BodyDesc weight;
    weight.position = hook - Vec3(0, length + radius, 0);
    weight.colliders.push_back(jounce::makeCollider(jounce::Sphere{radius}, 800, {.friction = real(0.4)}));
    const BodyId ball = addBody(weight, Kind::Weight, {0.25f, 0.25f, 0.3f});

    jounce::RopeDesc r;
    r.from = hook - Vec3(0, real(0.07), 0);
    r.to = hook - Vec3(0, length, 0);
    r.segments = 14;
    r.mass = real(0.6);
    r.radius = real(0.04);
    const jounce::Rope rope = jounce::buildRope(world_, r);
    // Tie the rope's last particle to the top of the ball (a point in its body-origin frame).
    jounce::ParticleAttachmentDesc tie;
    tie.particle = rope.particles.back();
    tie.target = jounce::Attachment{ball, Vec3(0, radius, 0)};
    world_.createParticleAttachment(tie);
    startTrack(world_, rope_, rope.particles);
}

void Game::throwBall(const Vec3& target) {
    // Flight time from the distance at a comfortable speed; the launch velocity then
    // follows from x(T) = x0 + v T + g T^2 / 2 solved for v.
    const Vec3 from = launcher();
    const real speed = 16;
    const real time = std::max((target - from).norm() / speed, real(0.05));
    const Vec3 gravity = world_.settings().gravity;

    BodyDesc d;
    d.position = from;
    d.linearVelocity = (target - from) / time - gravity * (time / 2);
    d.bullet = true; // small and fast: always swept, so it cannot pass through a box
    d.colliders.push_back(jounce::makeCollider(jounce::Sphere{real(0.16)}, 3000, {.friction = real(0.4), .restitution = real(0.2)}));
    addBody(d, Kind::Ball, {0.9f, 0.85f, 0.2f});
    ++thrown_;
    removeOldestBall();
}

void Game::removeOldestBall() {
    const auto isBall = [](const Piece& p) { return p.kind == Kind::Ball; };
    if (std::count_if(pieces_.begin(), pieces_.end(), isBall) <= maxBalls) return;
    const auto oldest = std::find_if(pieces_.begin(), pieces_.end(), isBall);
    if (oldest->id == grabbed_) grabbed_ = {};
    world_.destroyBody(oldest->id);
    pieces_.erase(oldest);
}

bool Game::grab(const Vec3& from, const Vec3& to) {
    const std::optional<jounce::World::RayHit> hit = world_.rayCastClosest(from, to);
    if (!hit || !world_.body(hit->body).isDynamic()) return false;
    grabbed_ = hit->body;
    grabLocal_ = world_.body(hit->body).transform().toLocal(hit->point);
    grabDistance_ = (hit->point - from).norm();
    grabTarget_ = hit->point;
    return true;
}

void Game::drag(const Vec3& from, const Vec3& to) {
    if (dragging()) grabTarget_ = from + (to - from).normalized() * grabDistance_;
}

/// A damped spring from the grabbed point to the mouse's target, scaled by the mass so
/// a box and the wrecking ball follow alike. applyForceAtPoint acts for one step.
void Game::applyDragForce() {
    if (!dragging()) return;
    if (!world_.contains(grabbed_)) return release();
    const jounce::BodyState b = world_.body(grabbed_);
    const Vec3 point = b.transform().toWorld(grabLocal_);
    const real mass = 1 / b.inverseMass, stiffness = 80, damping = 12;
    const Vec3 force = mass * (stiffness * (grabTarget_ - point) - damping * b.velocityAt(point));
    world_.applyForceAtPoint(grabbed_, force - mass * world_.settings().gravity, point);
}

void Game::step() {
    applyDragForce();
    hero_->update(world_, dt, walk_); // the character first: it aims its body for the step
    world_.step(dt);
    for (Piece& p : pieces_) {
        p.previous = p.current;
        p.current = world_.body(p.id).transform();
    }
    advance(world_, banner_);
    advance(world_, rope_);
    readContactEvents();
    countScore();
}

/// A ball that starts touching a box or the weight hard enough counts as a hit and
/// leaves a flash (a game would play a sound here).
void Game::readContactEvents() {
    for (Flash& f : flashes_) f.age += dt;
    std::erase_if(flashes_, [](const Flash& f) { return f.age > real(0.4); });
    for (const jounce::ContactEvent& e : world_.contactEvents().begin) {
        const Kind a = kindOf(e.bodyA), b = kindOf(e.bodyB);
        const bool ballInvolved = a == Kind::Ball || b == Kind::Ball;
        const bool target = a == Kind::Box || b == Kind::Box || a == Kind::Weight || b == Kind::Weight;
        if (ballInvolved && target && e.approachSpeed > 2) {
            ++hits_;
            flashes_.push_back(Flash{e.point, 0});
        }
    }
}

/// A box scores once its centre is below the platform's top: it fell off the edge.
void Game::countScore() {
    score_ = 0;
    for (const Piece& p : pieces_)
        if (p.kind == Kind::Box && world_.body(p.id).position.y() < platformTop) ++score_;
}

bool Game::finite() const {
    for (const Piece& p : pieces_)
        if (!jounce::isFinite(world_.body(p.id).position)) return false;
    if (!jounce::isFinite(hero_->position())) return false;
    for (const ParticleTrack* t : {&banner_, &rope_})
        for (const Vec3& x : t->current)
            if (!jounce::isFinite(x)) return false;
    return true;
}

Transform Game::interpolate(const Piece& piece, real alpha) {
    return Transform{piece.previous.position + alpha * (piece.current.position - piece.previous.position),
                     piece.previous.orientation.slerp(alpha, piece.current.orientation)};
}

Vec3 Game::interpolate(const ParticleTrack& track, std::size_t i, real alpha) {
    return track.previous[i] + alpha * (track.current[i] - track.previous[i]);
}

} // namespace towers
