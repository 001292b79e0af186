// SPDX-License-Identifier: MIT
// The soft step's joint points (contact/soft_step.hpp, SoftPoint): a ball, hinge or
// fixed joint's point held as one bilateral 3x3 block (the response K, inverted at
// every visit for the anchors as the bodies have turned them). The drift of the point,
// C = a's point - b's point, is measured from the bodies' motion since the step began
// (the anchors turning with their bodies); one visit applies
//     P = -K^-1 (dC/dt + rate C)
// on a at its anchor and -P on b. Only points held exactly (tolerance 0) fold: a
// point allowed to drift inside a box keeps its six one-sided rows.

#include "contact/range_inverse.hpp"
#include "contact/soft_step.hpp"
#include "contact/soft_constraint.hpp"
#include "common/disjoint_sets.hpp"

#include <algorithm>
#include <limits>
#include <cmath>
#include <type_traits>

namespace jounce::detail {
namespace {

/// Whether rows [k, k + 6) are the six rows of one joint point held exactly: along
/// each axis the two rows' penetrations d . n and d . (-n) cancel exactly when the
/// tolerance is 0.
bool isJointPoint(std::span<const Contact> contacts, std::span<const SoftRow> rows, std::uint32_t k) {
    if (rows[k].kind != SoftKind::Joint || (contacts[k].key & 0xffffffffu) % 6 != 0 || k + 6 > rows.size()) return false;
    for (std::uint32_t m = 1; m < 6; ++m)
        if (contacts[k + m].key != contacts[k].key + m || rows[k + m].body != rows[k].body || rows[k + m].kind != SoftKind::Joint)
            return false;
    for (std::uint32_t axis = 0; axis < 3; ++axis)
        if (contacts[k + 2 * axis].penetration + contacts[k + 2 * axis + 1].penetration != 0) return false;
    return true;
}

JOUNCE_HOT_INLINE Vec3 pointVelocity(const SoftBody& s, const Vec3& r) {
    return s.linearVelocity + s.angularVelocity.cross(r);
}

JOUNCE_HOT_INLINE void applyAt(SoftBody& a, SoftBody& b, const Vec3& ra, const Vec3& rb, const Vec3& impulse) {
    if (a.inverseMass > 0) {
        a.linearVelocity += lockedChange(a, impulse * a.inverseMass);
        a.angularVelocity += a.inverseInertia * ra.cross(impulse);
    }
    if (b.inverseMass > 0) {
        b.linearVelocity -= lockedChange(b, impulse * b.inverseMass);
        b.angularVelocity -= b.inverseInertia * rb.cross(impulse);
    }
}

/// K^-1 for anchors ra, rb (zero when nothing can move the point).
Mat3 blockMass(const SoftBody& a, const SoftBody& b, const Vec3& ra, const Vec3& rb) {
    const Mat3 ca = skew(ra), cb = skew(rb);
    const Mat3 k = linearResponseMatrix(a) + linearResponseMatrix(b) - ca * a.inverseInertia * ca - cb * b.inverseInertia * cb;
    // Inverted in double: in float a determinant of responses near 1e15 (an absurd but
    // accepted mass or inertia, restored from a forged snapshot) overflows.
    const Eigen::Matrix3d kd = k.cast<double>();
    const double det = kd.determinant();
    if (!std::isfinite(det)) return Mat3::Zero();
    // Motion locks can leave a direction neither body can move the point along (a body
    // locked to a plane, on a joint to the world): K is singular there, or nearly (an
    // anchor a rounding error off the plane), and the point is held along the directions
    // it can move (rangeInverse), not given up nor pushed by a near-infinite mass.
    if (!(det > 0) || a.linearLocked || b.linearLocked) return k.allFinite() ? rangeInverse<3>(k) : Mat3::Zero();
    const Eigen::Matrix3d inverse = kd.inverse();
    const double largest = inverse.cwiseAbs().maxCoeff();
    return largest < static_cast<double>(std::numeric_limits<real>::max()) ? Mat3(inverse.cast<real>()) : Mat3::Zero();
}

/// a's point - b's, now: -gap at the start, moved by the bodies since.
JOUNCE_HOT_INLINE Vec3 driftOf(const SoftPoint& p, const SoftBody& a, const SoftBody& b, const Vec3& ra, const Vec3& rb) {
    return -p.gap + a.moved + (ra - p.anchor[0]) - b.moved - (rb - p.anchor[1]);
}

/// The anchor of point p on its side `side`, as that body has turned it.
Vec3 turnedAnchor(const SoftPoint& p, std::span<const SoftBody> soft, std::size_t side) {
    return soft[p.body[side]].turn * p.anchor[side];
}

} // namespace

void preparePoints(std::span<const Contact> contacts, std::span<SoftRow> rows, std::vector<SoftPoint>& points) {
    points.clear();
    for (std::uint32_t k = 0; k < rows.size(); ++k) {
        if (!isJointPoint(contacts, rows, k)) continue;
        SoftPoint p;
        p.first = k;
        p.body = rows[k].body;
        p.anchor = rows[k].anchor;
        // Row 2 axis + side: penetration d . n with n = +axis (side 0) or -axis
        // (side 1), d = b's point - a's.
        for (Eigen::Index axis = 0; axis < 3; ++axis) {
            p.gap(axis) = contacts[k + 2 * axis].penetration;
            p.impulse(axis) = contacts[k + 2 * axis].accumulatedImpulse.x() - contacts[k + 2 * axis + 1].accumulatedImpulse.x();
        }
        for (std::uint32_t m = 0; m < 6; ++m) {
            rows[k + m].kind = SoftKind::Folded;
            rows[k + m].impulse.setZero();
        }
        points.push_back(p);
        k += 5;
    }
}

void warmStartPoint(SoftPoint& p, SoftBody& a, SoftBody& b) {
    p.applied += p.impulse;
    applyAt(a, b, a.turn * p.anchor[0], b.turn * p.anchor[1], p.impulse);
}

void solvePoint(SoftPoint& p, SoftBody& a, SoftBody& b, const Softness& soft, bool useBias) {
    // The anchors where the bodies have turned them so far this step, for the point's
    // velocity, its drift and its response alike: a light link spinning a quarter turn
    // in a step, held by anchors fixed at the step's start, was pushed along the wrong
    // lever and spun faster until the chain came apart at 10^6 m/s.
    const Vec3 ra = a.turn * p.anchor[0], rb = b.turn * p.anchor[1];
    const Mat3 mass = blockMass(a, b, ra, rb);
    const Vec3 velocity = pointVelocity(a, ra) - pointVelocity(b, rb);
    Vec3 impulse;
    if (useBias) {
        impulse = -(mass * (velocity + soft.biasRate * driftOf(p, a, b, ra, rb))) * soft.massScale -
                  soft.impulseScale * p.impulse;
    } else {
        impulse = -(mass * velocity);
    }
    p.impulse += impulse;
    p.applied += impulse;
    applyAt(a, b, ra, rb, impulse);
}

void storePoint(const SoftPoint& p, std::span<Contact> contacts) {
    for (Eigen::Index axis = 0; axis < 3; ++axis) {
        const real j = p.impulse(axis), whole = p.applied(axis);
        contacts[p.first + 2 * axis].accumulatedImpulse = Vec3(std::max(j, real(0)), 0, 0);
        contacts[p.first + 2 * axis + 1].accumulatedImpulse = Vec3(std::max(-j, real(0)), 0, 0);
        // The step's whole impulse less the kept one, as the rows report it.
        contacts[p.first + 2 * axis].bounceImpulse = Vec3(std::max(whole, real(0)) - std::max(j, real(0)), 0, 0);
        contacts[p.first + 2 * axis + 1].bounceImpulse = Vec3(std::max(-whole, real(0)) - std::max(-j, real(0)), 0, 0);
    }
}

bool buildJointSystem(std::span<const SoftPoint> points, std::span<const SoftBody> soft, SoftJointSystem& system,
                      std::vector<std::uint32_t>& scratch) {
    system.couplings.clear();
    system.factored = false;
    if (points.size() < 2) return false; // one point: solvePoint is already exact
    // A body locked along an axis can leave A singular where no body moves a point
    // (docs/physics.md, motion locks): those islands take Gauss-Seidel over the points,
    // each held along the directions it can move (blockMass).
    for (const SoftPoint& p : points)
        if (soft[p.body[0]].linearLocked || soft[p.body[1]].linearLocked) return false;
    // One point per pair of bodies (the world and other bodies that cannot move count as
    // one, per body), and no loop: union-find over the movable bodies' solver indices.
    // Several points between the same two bodies (a hinge's two, a fixed joint's three)
    // hold some direction twice (both of a hinge's points along its axis): A is singular
    // there and the bias, once the bodies have turned, asks the redundant directions for
    // impulses that cancel on the bodies but reach 10^4 N in the joint's force. Those
    // islands stay with Gauss-Seidel over the points until joints get their own rows.
    std::vector<std::array<std::uint32_t, 2>> links;
    for (const SoftPoint& p : points) {
        const bool a = soft[p.body[0]].inverseMass > 0, b = soft[p.body[1]].inverseMass > 0;
        const std::uint32_t x = a ? p.body[0] : 0, y = b ? p.body[1] : 0; // 0: cannot move
        links.push_back({std::min(x, y), std::max(x, y)});
    }
    std::sort(links.begin(), links.end());
    if (std::adjacent_find(links.begin(), links.end()) != links.end()) return false; // a repeated pair
    std::erase_if(links, [](const std::array<std::uint32_t, 2>& l) { return l[0] == 0; }); // to the world: no loop
    std::uint32_t largest = 0;
    for (const auto& l : links) largest = std::max(largest, l[1]);
    DisjointSets sets(scratch, largest + 1);
    for (const auto& l : links) {
        if (sets.find(l[0]) == sets.find(l[1])) return false; // a loop: Gauss-Seidel
        sets.unite(l[0], l[1]);
    }
    // Couplings: every pair of points sharing a movable body, in point order.
    for (std::uint32_t j = 0; j < points.size(); ++j)
        for (std::uint32_t k = j + 1; k < points.size(); ++k)
            for (std::uint8_t sj = 0; sj < 2; ++sj)
                for (std::uint8_t sk = 0; sk < 2; ++sk) {
                    const std::uint32_t body = points[j].body[sj];
                    if (body == points[k].body[sk] && soft[body].inverseMass > 0)
                        system.couplings.push_back({j, k, body, sj, sk});
                }
    const Eigen::Index n = static_cast<Eigen::Index>(3 * points.size());
    system.matrix.resize(n, n);
    system.rhs.resize(n);
    system.solution.resize(n);
    factorJointSystem(system, points, soft); // fills the pattern the analysis needs
    return system.factored;
}

void factorJointSystem(SoftJointSystem& system, std::span<const SoftPoint> points, std::span<const SoftBody> soft) {
    std::vector<Eigen::Triplet<real>>& t = system.triplets;
    t.clear();
    const auto block = [&](std::uint32_t j, std::uint32_t k, const Mat3& m) {
        for (Eigen::Index r = 0; r < 3; ++r)
            for (Eigen::Index c = 0; c < 3; ++c)
                t.emplace_back(static_cast<Eigen::Index>(3 * j) + r, static_cast<Eigen::Index>(3 * k) + c, m(r, c));
    };
    // A tiny share of the diagonal keeps A regular where points are redundant (a
    // hinge's two points both hold the bodies together along its axis).
    constexpr real regularise = std::is_same_v<real, float> ? real(1e-6) : real(1e-10);
    system.anchors.resize(points.size());
    for (std::uint32_t j = 0; j < points.size(); ++j) {
        const SoftPoint& p = points[j];
        const SoftBody& a = soft[p.body[0]];
        const SoftBody& b = soft[p.body[1]];
        system.anchors[j] = {turnedAnchor(p, soft, 0), turnedAnchor(p, soft, 1)};
        const Mat3 ca = skew(system.anchors[j][0]), cb = skew(system.anchors[j][1]);
        Mat3 k = linearResponseMatrix(a) + linearResponseMatrix(b) - ca * a.inverseInertia * ca - cb * b.inverseInertia * cb;
        k += Mat3::Identity() * (regularise * k.diagonal().maxCoeff());
        block(j, j, k);
    }
    // Point j pushes its side-0 body with +P_j and its side-1 body with -P_j; through a
    // shared body i, P_k moves j's point by s_j s_k (1/m_i - [r_j]x I_i^-1 [r_k]x) P_k.
    for (const SoftJointSystem::Coupling& c : system.couplings) {
        const SoftBody& body = soft[c.body];
        const real sign = (c.sideJ == c.sideK) ? 1 : -1;
        const Mat3 cj = skew(system.anchors[c.j][c.sideJ]);
        const Mat3 ck = skew(system.anchors[c.k][c.sideK]);
        const Mat3 m = sign * (linearResponseMatrix(body) - cj * body.inverseInertia * ck);
        block(c.j, c.k, m);
        block(c.k, c.j, m.transpose());
    }
    system.matrix.setFromTriplets(t.begin(), t.end());
    if (!system.ldlt) system.ldlt = std::make_unique<Eigen::SimplicialLDLT<Eigen::SparseMatrix<real>>>();
    if (!system.factored) system.ldlt->analyzePattern(system.matrix);
    system.ldlt->factorize(system.matrix);
    system.factored = system.ldlt->info() == Eigen::Success;
}

void solveJointSystem(SoftJointSystem& system, std::span<SoftPoint> points, std::span<SoftBody> soft,
                      const Softness& softness, bool useBias) {
    for (std::uint32_t j = 0; j < points.size(); ++j) {
        const SoftPoint& p = points[j];
        const SoftBody& a = soft[p.body[0]];
        const SoftBody& b = soft[p.body[1]];
        // The anchors A was factorised for (this substep's start): the velocity and the
        // impulses must use the lever arms A holds, or a visit after the bodies turned
        // pumps energy into a link's spin (a swung chain's links spun up to 10^4 rad/s).
        const Vec3& ra = system.anchors[j][0];
        const Vec3& rb = system.anchors[j][1];
        Vec3 target = pointVelocity(a, ra) - pointVelocity(b, rb);
        if (useBias)
            target = (target + softness.biasRate * driftOf(p, a, b, a.turn * p.anchor[0], b.turn * p.anchor[1])) *
                     softness.massScale;
        system.rhs.segment<3>(3 * j) = -target;
    }
    system.solution = system.ldlt->solve(system.rhs);
    for (std::uint32_t j = 0; j < points.size(); ++j) {
        SoftPoint& p = points[j];
        SoftBody& a = soft[p.body[0]];
        SoftBody& b = soft[p.body[1]];
        Vec3 impulse = system.solution.segment<3>(3 * j);
        if (useBias) impulse -= softness.impulseScale * p.impulse;
        p.impulse += impulse;
        p.applied += impulse;
        applyAt(a, b, system.anchors[j][0], system.anchors[j][1], impulse);
    }
}

} // namespace jounce::detail
