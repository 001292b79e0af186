// SPDX-License-Identifier: MIT
#pragma once
/// \file debug_draw.hpp
/// What the world looks like to its solver, handed to a game's own renderer: shapes,
/// bounding boxes, contact points, normals and impulses, joints, islands, sleep states,
/// centres of mass, particles and their links, deformables' surfaces and force
/// generators, each kind switched on by a flag (Box2D's b2DebugDraw, Jolt's
/// DebugRenderer and Bullet's btIDebugDraw are the same idea). The demo draws its
/// contacts, joints, particles, deformables and springs through it; a game implements
/// DebugDraw's three calls (and `triangle`, if it fills surfaces; by default its edges).
///
///     struct MyDraw : jounce::DebugDraw {
///         void shape(const jounce::Shape& s, const jounce::Transform& pose, jounce::DebugColour c) override {...}
///         void line(const jounce::Vec3& a, const jounce::Vec3& b, jounce::DebugColour c) override {...}
///         void point(const jounce::Vec3& p, jounce::real size, jounce::DebugColour c) override {...}
///     };
///     jounce::debugDraw(world, myDraw, {.flags = jounce::DebugDrawFlags::shapes | jounce::DebugDrawFlags::contacts});
///
/// It reads the world through its public interface only, between steps (it is const:
/// several threads may draw one world at once).

#include <jounce/world/world.hpp>

#include <cstdint>

namespace jounce {

struct DebugColour {
    float r = 1, g = 1, b = 1; ///< linear RGB in [0, 1]
    bool operator==(const DebugColour&) const = default;
};

/// The kinds to draw (bits; combine with |).
namespace DebugDrawFlags {
inline constexpr std::uint32_t shapes = 1u << 0;         ///< each collider's shape at its pose, coloured by its body's kind
inline constexpr std::uint32_t boundingBoxes = 1u << 1;  ///< each collider's broad-phase box (fattened by aabbMargin; made now for one created or moved since the step)
inline constexpr std::uint32_t contacts = 1u << 2;       ///< each contact point of the last step (red: overlapping; green: apart, speculative)
inline constexpr std::uint32_t normals = 1u << 3;        ///< each contact's normal (from B toward A), normalLength long
inline constexpr std::uint32_t impulses = 1u << 4;       ///< each contact's normal impulse of the last step, impulseScale metres per N s
inline constexpr std::uint32_t joints = 1u << 5;         ///< each joint: its anchors joined, and each body's centre to its anchor
inline constexpr std::uint32_t islands = 1u << 6;        ///< each island of the last step: a box around its bodies' colliders as they are now, a colour per island
inline constexpr std::uint32_t sleep = 1u << 7;          ///< shapes of sleeping bodies in their own colour (with shapes)
inline constexpr std::uint32_t centresOfMass = 1u << 8;  ///< each dynamic body's centre of mass and its axes, axisLength long
inline constexpr std::uint32_t particles = 1u << 9;      ///< each particle (a point its radius across; pinned ones in their own colour) and, up to maxParticleLinks of them, each distance constraint
inline constexpr std::uint32_t deformables = 1u << 10;   ///< each deformable's skinned surface, triangle by triangle, a colour per deformable
inline constexpr std::uint32_t forces = 1u << 11;        ///< each spring, bungee and fake spring between the points it joins
inline constexpr std::uint32_t all = (1u << 12) - 1;
} // namespace DebugDrawFlags

struct DebugDrawSettings {
    std::uint32_t flags = DebugDrawFlags::shapes | DebugDrawFlags::joints;
    real normalLength = real(0.3);  ///< [m]
    real impulseScale = real(0.05); ///< [m per N s]
    real axisLength = real(0.25);   ///< [m]
    real pointSize = real(0.04);    ///< [m]
    /// With `particles`: the distance constraints are drawn while there are at most this
    /// many (a 64 x 64 cloth's 24 000 lines hide what they join).
    std::size_t maxParticleLinks = 1u << 20;
};

/// Receives the drawing. Every call gives world coordinates.
class DebugDraw {
public:
    virtual ~DebugDraw() = default;
    /// A collider's shape at its world pose (a mesh or hull: its own triangles and faces).
    virtual void shape(const Shape& shape, const Transform& pose, DebugColour colour) = 0;
    virtual void line(const Vec3& a, const Vec3& b, DebugColour colour) = 0;
    virtual void point(const Vec3& p, real size, DebugColour colour) = 0;
    /// A surface triangle, counter-clockwise seen from its front (a deformable's skin).
    /// By default its three edges.
    virtual void triangle(const Vec3& a, const Vec3& b, const Vec3& c, DebugColour colour) {
        line(a, b, colour);
        line(b, c, colour);
        line(c, a, colour);
    }
};

/// The colours debugDraw uses, so a game's legend can name them.
namespace DebugColours {
inline constexpr DebugColour staticBody{0.5f, 0.5f, 0.5f};
inline constexpr DebugColour kinematicBody{0.6f, 0.4f, 0.9f};
inline constexpr DebugColour dynamicBody{0.9f, 0.6f, 0.3f};
inline constexpr DebugColour sleepingBody{0.35f, 0.45f, 0.7f};
inline constexpr DebugColour sensor{0.3f, 0.8f, 0.8f};
inline constexpr DebugColour boundingBox{0.8f, 0.8f, 0.2f};
inline constexpr DebugColour overlapping{1.0f, 0.15f, 0.1f};
inline constexpr DebugColour apart{0.2f, 0.9f, 0.3f};
inline constexpr DebugColour normal{1.0f, 0.9f, 0.1f};
inline constexpr DebugColour impulse{1.0f, 0.4f, 0.9f};
inline constexpr DebugColour joint{0.75f, 0.75f, 0.7f};
inline constexpr DebugColour axisX{0.9f, 0.2f, 0.2f};
inline constexpr DebugColour axisY{0.2f, 0.9f, 0.2f};
inline constexpr DebugColour axisZ{0.2f, 0.3f, 0.9f};
inline constexpr DebugColour particle{0.85f, 0.75f, 0.5f};
inline constexpr DebugColour pinnedParticle{0.9f, 0.3f, 0.3f};
inline constexpr DebugColour particleLink{0.8f, 0.8f, 0.75f};
inline constexpr DebugColour spring{0.9f, 0.85f, 0.3f};
inline constexpr DebugColour bungee{0.9f, 0.4f, 0.2f};
inline constexpr DebugColour fakeSpring{0.4f, 0.9f, 0.9f};
/// Deformable k takes deformables[k % 4].
inline constexpr DebugColour deformables[4] = {{0.35f, 0.7f, 0.45f}, {0.85f, 0.55f, 0.25f}, {0.4f, 0.5f, 0.9f}, {0.8f, 0.35f, 0.6f}};
} // namespace DebugColours

/// Draws what `settings.flags` asks for, in a fixed order (shapes, boxes, islands,
/// contacts, joints, centres of mass, particles, deformables, forces; each in handle order). Throws jounce::Error naming
/// the field (debugDraw.settings.normalLength, ...) for a length that is negative or not
/// finite, before drawing anything.
void debugDraw(const World& world, DebugDraw& out, const DebugDrawSettings& settings = {});

} // namespace jounce
