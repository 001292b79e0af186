// SPDX-License-Identifier: MIT
// A heavy body on a light one, for the soft step (docs/contact.md, "Heavy on light"):
// Gauss-Seidel cannot stop a body pressed onto one much lighter (each update moves it
// by the light body's share, a thousandth at 1000 to 1), and a soft contact row is a
// spring as stiff as its effective mass, here about the light body's (k = m_eff w^2), so
// a 1000 kg box sank 20 cm into a 1 kg one and 1.3 m through a larger one. So a contact
// where a body at least `holdMassRatio` times heavier rests on the lighter one (gravity
// presses it on, within 60 degrees) holds the light body still: the row sees a "ghost"
// of it (the same motion, no inverse mass), stops the heavy body alone, and its spring
// is as stiff as the heavy body is heavy. The light body is not pushed by that normal
// row: as in the resolver's shock propagation (Guendelman, Bridson and Fedkiw 2003),
// weight does not travel down through it, which keeps the light body from being crushed
// into what is below it. Friction between the two is held the same way (two-way, it is
// Gauss-Seidel at 1000 to 1 again: the light box was shoved sideways and the heavy one
// slid off it). Rows between bodies of like mass, or side by side, stay as they are.

#include "contact/soft_step.hpp"

#include <cmath>

namespace jounce::detail {

int heldSide(const SoftRow& row, std::span<const SoftBody> bodies, real massRatio, const Vec3& gravity) {
    if (row.kind != SoftKind::Contact) return -1; // joints; what cannot move
    return heldSide(row.axis[0].direction, bodies[row.body[0]], bodies[row.body[1]], massRatio, gravity);
}

int heldSide(const Vec3& normal, const SoftBody& a, const SoftBody& b, real massRatio, const Vec3& gravity) {
    if (!(massRatio > 0) || !(a.inverseMass > 0) || !(b.inverseMass > 0)) return -1;
    // A body locked along an axis has no single inverse mass (locked_mass.hpp): a light
    // platform locked along y under a heavy crate is a floor along y, solved exactly.
    if (a.linearLocked || b.linearLocked) return -1;
    // The heavy side (the smaller inverse mass) and the light one.
    const int light = a.inverseMass > b.inverseMass ? 0 : 1;
    const SoftBody& heavy = light == 0 ? b : a;
    const SoftBody& held = light == 0 ? a : b;
    if (!(held.inverseMass > massRatio * heavy.inverseMass)) return -1;
    // Resting on it: gravity within 60 degrees of pressing the heavy body onto the light
    // one. Not any acceleration: a heavy body pushed sideways into a light crate, or a
    // heavy platform lifting a light box, must move the light body. The normal points
    // from body 1 toward body 0, so from the light body toward the heavy one it is
    // +normal when the heavy one is body 0.
    const Vec3 toHeavy = light == 1 ? normal : Vec3(-normal);
    if (!(toHeavy.dot(gravity) < -real(0.5) * gravity.norm())) return -1;
    return light;
}

} // namespace jounce::detail

namespace jounce {

void SoftStepSolver::holdLightBodies(std::span<const std::uint32_t> islandStarts, std::span<Contact> contacts, real massRatio,
                                     const Vec3& gravity) {
    const auto count = static_cast<std::uint32_t>(contacts.size());
    firstGhost_ = static_cast<std::uint32_t>(bodies_.size());
    ghostOf_.clear();
    if (!(massRatio > 0)) return;
    ghostIndex_.assign(bodies_.size(), 0);
    for (std::size_t k = 0; k < detail::islandCount(islandStarts); ++k) {
        const auto [first, last] = detail::islandRange(islandStarts, k, count);
        if (coloured_[k]) continue; // chooseColoured found no row to hold there
        const std::span<detail::SoftRow> rows(rows_.data() + first, last - first);
        // Not in islands with joints: a ragdoll's limbs carry its weight through them as
        // much as through contacts, and holding a hand under the torso put it 3.1 cm
        // into the floor (1.8 cm without).
        bool joints = false;
        for (const detail::SoftRow& row : rows)
            joints = joints || row.kind == detail::SoftKind::Joint || row.kind == detail::SoftKind::Folded;
        if (joints) continue;
        for (std::uint32_t r = 0; r < rows.size(); ++r) {
            detail::SoftRow& row = rows[r];
            const int side = detail::heldSide(row, bodies_, massRatio, gravity);
            if (side < 0) continue;
            const std::uint32_t light = row.body[static_cast<std::size_t>(side)];
            if (ghostIndex_[light] == 0) {
                detail::SoftBody ghost = bodies_[light];
                ghost.inverseMass = 0;
                ghost.inverseInertia.setZero();
                ghost.integrates = false;
                ghost.moves = false;
                ghostIndex_[light] = static_cast<std::uint32_t>(bodies_.size());
                bodies_.push_back(ghost);
                ghostOf_.push_back(light);
            }
            detail::holdSide(row, static_cast<std::size_t>(side), ghostIndex_[light], bodies_);
            // Its impulse starts from nothing and is not kept: sized for the heavy body
            // alone, warm-started on both bodies (once they slide side by side, say) it
            // would throw the light one.
            row.impulse = Vec3::Zero();
            contacts[first + r].accumulatedImpulse = Vec3::Zero(); // the patch's warm start reads it
            contacts[first + r].carries = false;
        }
    }
}

void SoftStepSolver::syncGhosts() {
    for (const std::uint32_t g : islandGhosts_) {
        detail::SoftBody& ghost = bodies_[g];
        const detail::SoftBody& body = bodies_[ghostOf_[g - firstGhost_]];
        ghost.linearVelocity = body.linearVelocity;
        ghost.angularVelocity = body.angularVelocity;
        ghost.moved = body.moved;
        ghost.turned = body.turned;
        ghost.turn = body.turn;
    }
}

} // namespace jounce
