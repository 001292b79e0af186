// SPDX-License-Identifier: MIT
// The soft step's friction, one patch per manifold (contact/soft_step.hpp, SoftPatch):
// Coulomb's friction applied where the points' centre is, as two planar rows solved
// together (the 2x2 response at the centre, inverted) and one twist row about the
// normal. The planar impulse is held inside the circle mu sum(j_n), the twist inside
// mu sum(j_n) times the points' mean distance from the centre.

#include "common/parallel.hpp"
#include "contact/resolver_stages.hpp"
#include "contact/soft_step.hpp"

#include <algorithm>
#include <cmath>

namespace jounce::detail {
namespace {



JOUNCE_HOT_INLINE void twistBy(const SoftPatch& p, SoftBody& a, SoftBody& b, real j) {
    if (a.inverseMass > 0) a.angularVelocity += p.twistTurn[0] * j;
    if (b.inverseMass > 0) b.angularVelocity -= p.twistTurn[1] * j;
}

/// Whether row k continues the patch that ends at row k - 1.
bool samePatch(std::span<const Contact> contacts, std::span<const SoftRow> rows, std::uint32_t k) {
    const SoftRow& r = rows[k];
    const SoftRow& q = rows[k - 1];
    return (contacts[k].key >> 32) == (contacts[k - 1].key >> 32) && r.body == q.body && r.friction == q.friction &&
           r.slipTarget == q.slipTarget && r.axis[0].direction == q.axis[0].direction && q.kind != SoftKind::Joint;
}

/// A point's planar offset from the patch centre (on body a).
Vec3 offsetOf(const SoftRow& row, const Vec3& centre) {
    const Vec3 d = row.anchor[0] - centre;
    const Vec3& n = row.axis[0].direction;
    return d - n * n.dot(d);
}

void preparePatch(std::span<const Contact> contacts, std::span<SoftRow> rows, std::span<const SoftBody> soft,
                  SoftPatch& p) {
    const SoftRow& head = rows[p.first];
    p.body = head.body;
    p.friction = head.friction;
    p.slipTarget = head.slipTarget; // the manifold's one surface velocity, on the head row's axes (the patch's)
    const SoftBody& a = soft[p.body[0]];
    const SoftBody& b = soft[p.body[1]];
    std::array<Vec3, 2> centre{Vec3::Zero(), Vec3::Zero()};
    for (std::uint32_t k = p.first; k < p.first + p.count; ++k) {
        centre[0] += rows[k].anchor[0];
        centre[1] += rows[k].anchor[1];
    }
    const real share = 1 / static_cast<real>(p.count);
    centre[0] *= share;
    centre[1] *= share;
    p.centre = centre;
    for (std::size_t i = 0; i < 2; ++i) {
        ImpulseAxis& axis = p.axis[i];
        axis.direction = head.axis[i + 1].direction;
        axis.lever[0] = centre[0].cross(axis.direction);
        axis.lever[1] = centre[1].cross(axis.direction);
        axis.turn[0] = a.inverseMass > 0 ? Vec3(a.inverseInertia * axis.lever[0]) : Vec3::Zero();
        axis.turn[1] = b.inverseMass > 0 ? Vec3(b.inverseInertia * axis.lever[1]) : Vec3::Zero();
    }
    Eigen::Matrix<real, 2, 2> k;
    for (std::size_t i = 0; i < 2; ++i)
        for (std::size_t j = 0; j < 2; ++j)
            k(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) =
                (i == j ? linearResponse(a, p.axis[i].direction) + linearResponse(b, p.axis[i].direction)
                        : linearCoupling(a, p.axis[i].direction, p.axis[j].direction) +
                              linearCoupling(b, p.axis[i].direction, p.axis[j].direction)) +
                p.axis[i].lever[0].dot(p.axis[j].turn[0]) +
                p.axis[i].lever[1].dot(p.axis[j].turn[1]);
    p.planarMass = planarMassOf(k);
    const Vec3& n = head.axis[0].direction;
    p.twistTurn[0] = a.inverseMass > 0 ? Vec3(a.inverseInertia * n) : Vec3::Zero();
    p.twistTurn[1] = b.inverseMass > 0 ? Vec3(b.inverseInertia * n) : Vec3::Zero();
    const real twistResponse = n.dot(p.twistTurn[0] + p.twistTurn[1]);
    p.twistMass = twistResponse > 0 ? 1 / twistResponse : 0;
    // The warm start: the points' friction, read back as the planar and twist impulses
    // storePatch shared out (for the step).
    p.planar.setZero();
    p.twist = 0;
    p.twistReach = 0;
    for (std::uint32_t i = p.first; i < p.first + p.count; ++i) {
        SoftRow& row = rows[i];
        const Vec3 f = row.axis[1].direction * contacts[i].accumulatedImpulse.y() +
                       row.axis[2].direction * contacts[i].accumulatedImpulse.z();
        p.planar += Eigen::Matrix<real, 2, 1>(p.axis[0].direction.dot(f), p.axis[1].direction.dot(f));
        const Vec3 d = offsetOf(row, centre[0]);
        p.twist += n.dot(d.cross(f));
        p.twistReach += d.norm() * share;
        // The patch carries the friction now; the row only its normal impulse.
        row.friction = 0;
        row.impulse.y() = 0;
        row.impulse.z() = 0;
    }
}

} // namespace

Eigen::Matrix<real, 2, 2> planarMassOf(const Eigen::Matrix<real, 2, 2>& response) {
    const real det = response.determinant();
    if (det > std::numeric_limits<real>::min() * 16 && std::isfinite(det)) return response.inverse();
    Eigen::Matrix<real, 2, 2> mass = Eigen::Matrix<real, 2, 2>::Zero(); // each axis on its own
    for (Eigen::Index i = 0; i < 2; ++i) mass(i, i) = response(i, i) > 0 ? 1 / response(i, i) : 0;
    return mass;
}

void preparePatches(std::span<const Contact> contacts, std::span<SoftRow> rows, std::span<const SoftBody> soft,
                    std::vector<SoftPatch>& patches, TaskSystem* tasks) {
    patches.clear();
    // Frictionless manifolds get a patch too (its bound is 0: it changes nothing), so
    // every contact row is in one; at most a manifold's four points per patch. Contacts
    // the coloured blocks take have their friction there (soft_colours.cpp).
    for (std::uint32_t k = 0; k < rows.size(); ++k) {
        if (rows[k].kind == SoftKind::Joint || rows[k].kind == SoftKind::Folded || rows[k].kind == SoftKind::InBlock) continue;
        if (!patches.empty() && patches.back().first + patches.back().count == k && patches.back().count < 4 &&
            samePatch(contacts, rows, k)) {
            ++patches.back().count;
            continue;
        }
        SoftPatch p;
        p.first = k;
        p.count = 1;
        patches.push_back(p);
    }
    parallelFor(tasks, static_cast<std::uint32_t>(patches.size()), 512, [&](std::uint32_t begin, std::uint32_t end) {
        for (std::uint32_t k = begin; k < end; ++k) preparePatch(contacts, rows, soft, patches[k]);
    });
}

void warmStartPatch(const SoftPatch& p, SoftBody& a, SoftBody& b) {
    axisPush(p.axis[0], a, b, p.planar.x());
    axisPush(p.axis[1], a, b, p.planar.y());
    twistBy(p, a, b, p.twist);
}

void solvePatch(SoftPatch& p, std::span<const SoftRow> rows, SoftBody& a, SoftBody& b) {
    real normal = 0;
    for (std::uint32_t k = p.first; k < p.first + p.count; ++k) normal += rows[k].impulse.x();
    const real limit = p.friction * normal;
    // Twist first, then the planar pair (Box3D's order): the planar rows, which carry
    // most of the load, have the last word.
    const real spin = rows[p.first].axis[0].direction.dot(a.angularVelocity - b.angularVelocity);
    const real twistLimit = limit * p.twistReach;
    const real twist = std::clamp(p.twist - p.twistMass * spin, -twistLimit, twistLimit);
    twistBy(p, a, b, twist - p.twist);
    p.twist = twist;
    const Eigen::Matrix<real, 2, 1> sliding =
        Eigen::Matrix<real, 2, 1>(axisSpeed(p.axis[0], a, b), axisSpeed(p.axis[1], a, b)) - p.slipTarget;
    Eigen::Matrix<real, 2, 1> planar = p.planar - p.planarMass * sliding;
    const real squared = planar.squaredNorm();
    if (squared > limit * limit) planar *= limit / std::sqrt(squared);
    axisPush(p.axis[0], a, b, planar.x() - p.planar.x());
    axisPush(p.axis[1], a, b, planar.y() - p.planar.y());
    p.planar = planar;
}

void storePatch(const SoftPatch& p, std::span<const SoftRow> rows, std::span<Contact> contacts) {
    const SoftRow& head = rows[p.first];
    const Vec3& n = head.axis[0].direction;
    Vec3 centre = Vec3::Zero();
    for (std::uint32_t k = p.first; k < p.first + p.count; ++k) centre += rows[k].anchor[0];
    centre /= static_cast<real>(p.count);
    real spread = 0; // sum of |d_i|^2
    for (std::uint32_t k = p.first; k < p.first + p.count; ++k) spread += offsetOf(rows[k], centre).squaredNorm();
    const Vec3 planar = (p.axis[0].direction * p.planar.x() + p.axis[1].direction * p.planar.y()) / static_cast<real>(p.count);
    for (std::uint32_t k = p.first; k < p.first + p.count; ++k) {
        const Vec3 f = frictionShare(planar, n, offsetOf(rows[k], centre), p.twist, spread);
        contacts[k].accumulatedImpulse.y() = rows[k].axis[1].direction.dot(f);
        contacts[k].accumulatedImpulse.z() = rows[k].axis[2].direction.dot(f);
    }
}

} // namespace jounce::detail
