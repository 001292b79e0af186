// SPDX-License-Identifier: MIT
// Fuzz target: the snapshot loader, World::restoreState (docs/fuzzing.md).
//
// Byte 0 picks the mode:
//  - even: the rest is the blob itself (header checks, truncation, foreign data);
//  - odd: the rest is an edit script applied to a valid snapshot of a small scene
//    with one of nearly everything (boxes, sphere, capsule, hull, mesh, joint, spring,
//    rope, deformable bar). Each edit is (2-byte position, 1-byte operation, 1-byte
//    value): set, xor or add a byte, or drop the blob's tail. The checksum is then
//    recomputed, so the edits reach the payload's consistency checks instead of
//    stopping at the checksum.
// restoreState either throws jounce::Error and leaves the world byte for byte as it
// was, or gives a world that stays finite for a few steps.

#include "fuzz/world_checks.hpp"

#include <jounce/collision/shapes.hpp>
#include <jounce/deformable/deformable_builders.hpp>
#include <jounce/particles/particle_builders.hpp>

#include <vector>

using namespace jounce;
using Bytes = std::vector<std::uint8_t>;

namespace {

/// The header's layout (physics/io/snapshot.cpp): magic, version, real size, byte-order
/// mark, payload length, checksum; the payload follows.
constexpr std::size_t checksumAt = 25, headerBytes = 33;

/// FNV-1a 64, the snapshot's checksum over the payload.
std::uint64_t fnv1a(std::span<const std::uint8_t> bytes) {
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (const std::uint8_t b : bytes) {
        h ^= b;
        h *= 0x100000001b3ull;
    }
    return h;
}

void reseal(Bytes& blob) {
    if (blob.size() < headerBytes) return;
    const std::uint64_t sum = fnv1a(std::span<const std::uint8_t>(blob).subspan(headerBytes));
    std::memcpy(blob.data() + checksumAt, &sum, sizeof sum);
}

void addBody(World& w, const Shape& shape, const Vec3& at, BodyType type = BodyType::Dynamic) {
    BodyDesc d;
    d.type = type;
    d.position = at;
    d.colliders.push_back({shape, Transform{}, 500, {}, {}});
    d.massFromColliders = type == BodyType::Dynamic;
    w.createBody(d);
}

/// The scene the edits start from, stepped a little so contacts, the warm-start cache
/// and sleep state are in the blob too.
World smallScene() {
    World w;
    addBody(w, HalfSpace{}, Vec3::Zero(), BodyType::Static);
    const std::vector<Vec3> ramp{{-3, 0, -1}, {-1, 0, -1}, {-1, real(0.5), 1}, {-3, 0, 1}};
    addBody(w, makeTriangleMesh(ramp, std::vector<std::array<std::uint32_t, 3>>{{0, 3, 2}, {0, 2, 1}}), Vec3::Zero(),
            BodyType::Static);
    addBody(w, Box{Vec3::Constant(real(0.3))}, Vec3(0, real(0.3), 0));
    addBody(w, Sphere{real(0.25)}, Vec3(0, real(0.9), 0));
    addBody(w, Capsule{real(0.2), real(0.3)}, Vec3(1, real(0.5), 0));
    addBody(w, Cylinder{real(0.2), real(0.25)}, Vec3(2, real(0.3), 1));
    const std::vector<Vec3> rock{{0, 0, 0}, {real(0.6), 0, 0}, {0, real(0.5), 0}, {0, 0, real(0.4)}};
    addBody(w, makeConvexHull(rock), Vec3(-2, real(1.5), 0));
    const std::vector<BodyId> ids = w.bodyIds();
    JointDesc joint;
    joint.type = JointType::Ball;
    joint.a = {ids[2], Vec3(real(0.3), real(0.3), 0)};
    joint.b = {ids[4], Vec3::Zero()};
    w.createJoint(joint);
    w.createForceGenerator(Spring{{ids[3], Vec3::Zero()}, {BodyId{}, Vec3(0, 3, 0)}, 20, 1, 1});
    buildRope(w, RopeDesc{Vec3(2, 2, 0), Vec3(3, 2, 0), 4});
    ArapBarDesc bar;
    bar.start = Vec3(-1, 3, 2);
    bar.particles = 3;
    buildArapBar(w, bar);
    for (int s = 0; s < 5; ++s) w.step(real(1) / 60);
    return w;
}

Bytes edited(const Bytes& original, fuzz::Input& in) {
    Bytes blob = original;
    for (std::span<const std::uint8_t> rest = in.rest(); rest.size() >= 4; rest = rest.subspan(4)) {
        if (blob.empty()) break;
        const std::size_t at = (std::size_t(rest[0]) | std::size_t(rest[1]) << 8) % blob.size();
        const std::uint8_t value = rest[3];
        switch (rest[2] % 4) {
        case 0: blob[at] = value; break;
        case 1: blob[at] ^= value; break;
        case 2: blob[at] = static_cast<std::uint8_t>(blob[at] + value); break;
        default: blob.resize(at); break;
        }
        if (fuzz::verbose())
            std::fprintf(stderr, "edit: byte %zu op %d value %u -> size %zu\n", at, rest[2] % 4, unsigned(value), blob.size());
    }
    reseal(blob);
    return blob;
}

void restoreAndCheck(World& w, std::span<const std::uint8_t> blob) {
    const Bytes before = w.saveState();
    try {
        w.restoreState(blob);
    } catch (const Error&) {
        if (w.saveState() != before) fuzz::finding("restoreState threw but changed the world", "restoreState");
        return;
    }
    fuzz::stepAndCheck(w, real(1) / 60, 1, 3);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const World scene = smallScene();
    static const Bytes original = scene.saveState();
    fuzz::Input in(data, size);
    const bool structured = in.byte() & 1;
    World w;
    w.restoreState(original); // a world with state, so "left unchanged" means something
    if (structured)
        restoreAndCheck(w, edited(original, in));
    else
        restoreAndCheck(w, in.rest());
    return 0;
}
