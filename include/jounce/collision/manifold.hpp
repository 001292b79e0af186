// SPDX-License-Identifier: MIT
#pragma once
/// \file manifold.hpp
/// Contact manifolds from the narrow phase.
///
/// Conventions (the same as Millington's contact data, so the resolver reads them
/// directly):
///  - `normal` is a unit world vector pointing from shape B toward shape A: moving A
///    along +normal (or B along -normal) separates them.
///  - `depth` is the penetration along the normal: > 0 overlapping, <= 0 apart by
///    -depth (reported only within the collision margin: Millington's pessimistic
///    detection, seeds/004 ch. 16).
///  - `point` lies midway between the two surfaces along the normal.
///  - `feature` names which features touch (vertex, edge, face ids of both shapes,
///    packed); it stays the same from frame to frame while the same features touch, so
///    the resolver can match contacts across steps for warm starting.

#include <jounce/common/math.hpp>

#include <array>
#include <cstdint>

namespace jounce {

struct ContactPoint {
    Vec3 point = Vec3::Zero();
    real depth = 0;
    std::uint32_t feature = 0;
};

struct Manifold {
    static constexpr int maxPoints = 4;
    Vec3 normal = Vec3::UnitY();
    std::array<ContactPoint, maxPoints> points{};
    int count = 0;

    void add(const Vec3& point, real depth, std::uint32_t feature) {
        if (count < maxPoints) points[static_cast<std::size_t>(count++)] = {point, depth, feature};
    }
    /// The deepest point (the first of equals); call only when count > 0.
    const ContactPoint& deepest() const {
        std::size_t k = 0;
        for (std::size_t i = 1; i < static_cast<std::size_t>(count); ++i)
            if (points[i].depth > points[k].depth) k = i;
        return points[k];
    }
    /// The same contact seen with A and B swapped: normal reversed, depths kept.
    void flip() { normal = -normal; }
};

} // namespace jounce
