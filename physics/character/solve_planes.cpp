// SPDX-License-Identifier: MIT
/// \file solve_planes.cpp
/// The mover's plane solver: the position nearest the wanted move that keeps clear of
/// every plane the capsule touches, and the velocity without its parts into them.

#include <jounce/character/character.hpp>

#include <algorithm>
#include <cmath>

namespace jounce {

Vec3 solvePlanes(const Vec3& target, std::vector<CharacterPlane>& planes) {
    for (CharacterPlane& p : planes) p.push = 0;
    Vec3 delta = target;
    // Gauss-Seidel on the constraints n . delta + s >= 0: each plane pushes the move out
    // along its normal by what it lacks, its total push kept in [0, pushLimit] (a plane
    // may take back what it pushed when a later one moved the capsule clear of it).
    for (int sweep = 0; sweep < 20; ++sweep) {
        real moved = 0;
        for (CharacterPlane& p : planes) {
            const real lack = -(p.normal.dot(delta) + p.separation);
            const real before = p.push;
            p.push = std::clamp(p.push + lack, real(0), p.pushLimit);
            const real step = p.push - before;
            delta += step * p.normal;
            moved += std::abs(step);
        }
        if (moved < real(1e-4)) break;
    }
    return delta;
}

Vec3 clipVelocity(const Vec3& v, const std::vector<CharacterPlane>& planes) {
    Vec3 out = v;
    for (const CharacterPlane& p : planes) {
        if (p.push <= 0 || !p.clip) continue;
        out -= std::min(real(0), out.dot(p.normal)) * p.normal;
    }
    return out;
}

} // namespace jounce
