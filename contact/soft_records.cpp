// SPDX-License-Identifier: MIT
// The soft step watched (World::setResolverObserver; docs/debugging.md): every visit of
// a manifold (the coloured path: one lane of a block) or of a row, friction patch or
// joint point (islands solved row by row) becomes a ResolutionRecord carrying the
// bodies' velocities before and after it.
//
// A watched step runs on one thread, and each lane of a block alone through the scalar
// kernel (contact/soft_kernel_scalar.cpp). Every SIMD width does each lane's arithmetic
// in the same order and the lanes of a colour share no body, so this is the fast step's
// arithmetic exactly: the records step through the very numbers an unwatched step
// computes, and the world ends bit-identical (a test checks it).

#include "contact/soft_step.hpp"

#include <algorithm>

namespace jounce {
namespace {

BodyVelocity velocityOf(const detail::SoftState& s) {
    return {Vec3(s.v[0], s.v[1], s.v[2]), Vec3(s.w[0], s.w[1], s.w[2])};
}

ResolutionRecord::Kind kindOf(detail::SoftStage::Kind kind) {
    using Kind = detail::SoftStage::Kind;
    switch (kind) {
    case Kind::Warm: return ResolutionRecord::Kind::WarmStart;
    case Kind::Relax: return ResolutionRecord::Kind::Relax;
    case Kind::Bounce: return ResolutionRecord::Kind::Bounce;
    default: return ResolutionRecord::Kind::Solve;
    }
}

std::uint32_t islandOf(std::span<const std::uint32_t> islandStarts, std::uint32_t contact) {
    if (islandStarts.size() < 2) return 0;
    const auto after = std::upper_bound(islandStarts.begin(), islandStarts.end(), contact);
    return static_cast<std::uint32_t>(std::max<std::ptrdiff_t>(after - islandStarts.begin() - 1, 0));
}

/// The lane's impulses as the record sums them: the points' normal impulses (or their
/// bounces) and the planar friction pair.
struct LaneImpulse {
    real normal = 0, bounced = 0, t = 0, u = 0;
};
LaneImpulse laneImpulse(const detail::SoftBlock& k, const detail::SoftPointBlock* points, int at) {
    LaneImpulse s;
    for (std::uint32_t i = 0; i < k.points; ++i) {
        s.normal += points[i].impulse[at];
        s.bounced += points[i].bounced[at];
    }
    s.t = k.planar[0][at];
    s.u = k.planar[1][at];
    return s;
}

} // namespace

std::array<BodyVelocity, 2> SoftStepSolver::velocities(const std::array<std::uint32_t, 2>& body, bool coloured) const {
    std::array<BodyVelocity, 2> v{};
    for (std::size_t side = 0; side < 2; ++side) {
        const std::uint32_t i = body[side];
        v[side] = coloured ? velocityOf(states_[i]) : BodyVelocity{bodies_[i].linearVelocity, bodies_[i].angularVelocity};
    }
    return v;
}

ResolutionRecord SoftStepSolver::recordOf(const Visit& visit, const std::array<std::uint32_t, 2>& slots,
                                          const std::array<BodyVelocity, 2>& before, bool coloured) const {
    ResolutionRecord r;
    r.kind = visit.kind;
    r.contact = visit.contact;
    r.points = visit.points;
    r.island = islandOf(watch_.islandStarts, visit.contact);
    r.joint = visit.joint;
    r.body = slots;
    r.substep = visit.substep;
    r.colour = visit.colour;
    r.block = visit.block;
    r.lane = visit.lane;
    r.velocityBefore = before;
    r.velocityAfter = velocities(visit.body, coloured);
    for (std::size_t side = 0; side < 2; ++side) {
        r.linearChange[side] = r.velocityAfter[side].linear - before[side].linear;
        r.angularChange[side] = r.velocityAfter[side].angular - before[side].angular;
    }
    return r;
}

void SoftStepSolver::report(const Visit& visit, const std::array<BodyVelocity, 2>& before, bool coloured,
                            std::optional<Vec3> impulseWorld) const {
    const Contact& c = watch_.contacts[visit.contact];
    ResolutionRecord r = recordOf(visit, c.body, before, coloured);
    // The normal speed at the first contact, its anchors where the step began (as the
    // solver's rows hold them).
    const auto normalSpeed = [&](const std::array<BodyVelocity, 2>& v) {
        Vec3 relative = Vec3::Zero();
        for (std::size_t side = 0; side < 2; ++side) {
            if (c.body[side] == noBody) continue;
            const Vec3 arm = c.point - watch_.bodies[c.body[side]].position;
            const Vec3 at = v[side].linear + v[side].angular.cross(arm);
            relative += side == 0 ? at : Vec3(-at);
        }
        return c.normal.dot(relative);
    };
    r.before = normalSpeed(before);
    r.after = normalSpeed(r.velocityAfter);
    if (!impulseWorld) {
        // Rows, patches and joint points: the impulse from body a's change of momentum
        // (or b's, when a takes none, or is locked along an axis and so does not show
        // the whole impulse in its velocity): all of a visit's impulse acts on both.
        const detail::SoftBody& a = bodies_[visit.body[0]];
        const detail::SoftBody& b = bodies_[visit.body[1]];
        const real ma = a.linearLocked && b.inverseMass > 0 && !b.linearLocked ? 0 : a.inverseMass, mb = b.inverseMass;
        impulseWorld = ma > 0 ? Vec3(r.linearChange[0] / ma) : mb > 0 ? Vec3(-r.linearChange[1] / mb) : Vec3::Zero();
    }
    r.impulseWorld = *impulseWorld;
    const Mat3 basis = c.contactToWorld.col(0) == c.normal ? c.contactToWorld : contactBasis(c.normal);
    r.impulseContact = basis.transpose() * r.impulseWorld;
    (*watch_.observer)(r);
}

void SoftStepSolver::reportAxis(const Visit& visit, const detail::SoftJointAxis& axis,
                                 const std::array<BodyVelocity, 2>& before, real impulse) const {
    ResolutionRecord r = recordOf(visit, watch_.motions[axis.row].body, before, false);
    // The coordinate's rate as the rows measure it, from the velocities before and after.
    const auto rateWith = [&](const std::array<BodyVelocity, 2>& v) {
        detail::SoftBody a = bodies_[visit.body[0]], b = bodies_[visit.body[1]];
        a.linearVelocity = v[0].linear;
        a.angularVelocity = v[0].angular;
        b.linearVelocity = v[1].linear;
        b.angularVelocity = v[1].angular;
        return detail::coordinateRate(axis, a, b);
    };
    r.before = rateWith(before);
    r.after = rateWith(r.velocityAfter);
    // The rows push A by +impulse along the coordinate's axis (about it, for a hinge), B by
    // its opposite.
    const Vec3 n = detail::coordinateAxis(axis, bodies_[visit.body[0]], bodies_[visit.body[1]]);
    if (slides(axis)) r.impulseWorld = impulse * n;
    else r.angularImpulseWorld = impulse * n;
    (*watch_.observer)(r);
}

void SoftStepSolver::runItemWatched(const detail::SoftStage& stage, std::uint32_t item) {
    using Kind = detail::SoftStage::Kind;
    if (stage.kind == Kind::Kick || stage.kind == Kind::Drift || stage.kind == Kind::Note) return runItem(stage, item);
    const detail::SoftLaneVisits& lanes = detail::scalarLaneVisits();
    const std::uint32_t begin = stage.first + item * stage.per;
    const std::uint32_t end = std::min(stage.first + stage.count, begin + stage.per);
    for (std::uint32_t b = begin; b < end; ++b) {
        detail::SoftBlock& block = blocks_[b];
        if (stage.kind == Kind::Bounce && !block.bouncy) continue;
        detail::SoftPointBlock* points = pointBlocks_.data() + block.firstPoint;
        for (int at = 0; at < detail::softBlockWidth; ++at) {
            Visit visit{kindOf(stage.kind), stage.substep, stage.colour, b, static_cast<std::uint32_t>(at), 0, 1,
                        {block.body[0][at], block.body[1][at]}};
            const std::array<BodyVelocity, 2> before = velocities(visit.body, true);
            const LaneImpulse was = laneImpulse(block, points, at);
            switch (stage.kind) {
            case Kind::Warm: lanes.warmStart(block, points, states_.data(), at); break;
            case Kind::Solve: lanes.solve(block, points, states_.data(), true, pass_.invSub, pass_.maxPushOut, at); break;
            case Kind::Relax: lanes.solve(block, points, states_.data(), false, pass_.invSub, pass_.maxPushOut, at); break;
            case Kind::Bounce: lanes.bounce(block, points, states_.data(), pass_.threshold, pass_.sub, at); break;
            default: break;
            }
            if (static_cast<std::uint32_t>(at) >= block.used) continue; // an empty lane: nothing to report
            const LaneImpulse now = laneImpulse(block, points, at);
            // The impulse this visit applied, along the manifold's normal and friction axes.
            real n = now.normal - was.normal, t = now.t - was.t, u = now.u - was.u;
            if (stage.kind == Kind::Warm) {
                n = was.normal;
                t = was.t;
                u = was.u;
            } else if (stage.kind == Kind::Bounce) {
                n = now.bounced - was.bounced;
                t = u = 0;
            }
            const Vec3 normal(block.normal[0][at], block.normal[1][at], block.normal[2][at]);
            const Vec3 tangent(block.tangent[0][at], block.tangent[1][at], block.tangent[2][at]);
            const Vec3 bitangent(block.bitangent[0][at], block.bitangent[1][at], block.bitangent[2][at]);
            const detail::SoftManifold& m = manifolds_[block.manifold[at]];
            visit.contact = m.first;
            visit.points = m.count;
            report(visit, before, true, Vec3(normal * n + tangent * t + bitangent * u));
        }
    }
}

} // namespace jounce
