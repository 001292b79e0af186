// SPDX-License-Identifier: MIT
// Persistent contacts: a collider pair's manifolds live from step to step. The world
// keeps last step's manifolds in collider order (the narrow phase makes them in pair
// order, which is collider order), so each pair finds its own by one walk down both
// lists, with no keys to hash, sort or search. A pair's new manifold starts from the
// impulses of the points it continues (warm starting, Catto 2005), and a pair that
// barely moved since its points were found keeps them, placed again on the colliders
// where they are now, instead of running the shape test (Jolt's body pair cache;
// docs/contact.md, "Persistent contacts").

#include "collision/stages.hpp"
#include "common/parallel.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace jounce::detail {
namespace {

/// A manifold's place in collider order.
std::pair<std::uint32_t, std::uint32_t> order(const ContactManifold& m) { return {m.colliderA.index, m.colliderB.index}; }

/// A's pose in B's frame (one rotation, where pb.inverse() * pa takes two).
Transform relativePose(const Transform& pa, const Transform& pb) {
    const Quat back = pb.orientation.conjugate();
    return Transform{back * (pa.position - pb.position), back * pa.orientation};
}

/// Normals that turned more than this (cos 2.6 degrees) rebuild their tangent axes
/// far enough that last step's friction impulse no longer points along the surface.
constexpr real frictionTurn = real(0.999);
/// A point with no feature match continues the nearest one within this [m].
constexpr real reach = real(0.05);

} // namespace

void findPreviousManifolds(const std::vector<ContactManifold>& previous, const std::vector<ColliderId>& proxyColliders,
                           const std::vector<ProxyPair>& pairs, const std::vector<std::uint32_t>& tested,
                           std::vector<ManifoldRange>& ranges, TaskSystem* tasks) {
    ranges.resize(tested.size());
    const auto n = static_cast<std::uint32_t>(previous.size());
    const auto keyOf = [&](std::size_t k) {
        const ColliderId a = proxyColliders[pairs[tested[k]].a], b = proxyColliders[pairs[tested[k]].b];
        return std::pair{a, b};
    };
    // Both lists are in collider order, so a chunk of pairs starts its walk where its
    // first pair's manifolds would lie (spheres4096: 13 000 manifolds of 0.5 kB, read
    // one after the other, were a serial 0.3 ms of the narrow phase).
    constexpr std::uint32_t pairsPerWalk = 2048;
    const auto walks = static_cast<std::uint32_t>((tested.size() + pairsPerWalk - 1) / pairsPerWalk);
    parallelFor(tasks, walks, 1, [&](std::uint32_t begin, std::uint32_t end) {
        for (std::uint32_t walk = begin; walk < end; ++walk) {
            const std::size_t first = std::size_t{walk} * pairsPerWalk, last = std::min(tested.size(), first + pairsPerWalk);
            const std::pair<std::uint32_t, std::uint32_t> start{keyOf(first).first.index, keyOf(first).second.index};
            auto j = static_cast<std::uint32_t>(
                std::partition_point(previous.begin(), previous.end(), [&](const ContactManifold& m) { return order(m) < start; }) -
                previous.begin());
            for (std::size_t k = first; k < last; ++k) {
                const auto [a, b] = keyOf(k);
                const std::pair<std::uint32_t, std::uint32_t> key{a.index, b.index};
                while (j < n && order(previous[j]) < key) ++j;
                ManifoldRange r{j, j};
                while (r.last < n && order(previous[r.last]) == key) ++r.last;
                // The same slots may hold other colliders than last step (one destroyed, another
                // made): a handle's generation tells.
                if (r.first < r.last && (previous[r.first].colliderA != a || previous[r.first].colliderB != b)) r.last = r.first;
                ranges[k] = r;
                j = r.last > j ? r.last : j;
            }
        }
    });
}

bool mayRefresh(std::span<const ContactManifold> last, const Transform& pa, const Transform& pb,
                const CollisionSettings& settings) {
    if (last.empty() || !(settings.cacheDistance > 0) || !(settings.cacheAngle > 0)) return false;
    for (const ContactManifold& m : last)
        if (m.origin == ContactManifold::Origin::Speculative || m.origin == ContactManifold::Origin::Moving) return false;
    // Every manifold of the pair was found at the same pose (the first's stands for all).
    const Transformf& then = last.front().poseAInB;
    const Transform now = relativePose(pa, pb);
    if ((now.position - then.position.cast<real>()).squaredNorm() > settings.cacheDistance * settings.cacheDistance) return false;
    // The turn between them, q_then^-1 q_now, has sin(angle / 2) as the length of its
    // vector part (read off the sine: near 0 the cosine rounds to 1 in float).
    const Quat turn = then.orientation.cast<real>().conjugate() * now.orientation;
    return turn.vec().squaredNorm() <= settings.cacheTurnSquared;
}

void refreshPoints(ContactManifold& m, const Transform& pa, const Transform& pb) {
    // Rotation matrices: nine products a point where a quaternion takes eighteen.
    const Mat3 ra = pa.orientation.toRotationMatrix(), rb = pb.orientation.toRotationMatrix();
    const Vec3 n = rb * m.normalInB.cast<real>();
    m.manifold.normal = n;
    for (int i = 0; i < m.manifold.count; ++i) {
        const auto k = static_cast<std::size_t>(i);
        const Vec3 onA = ra * m.anchorA[k].cast<real>() + pa.position, onB = rb * m.anchorB[k].cast<real>() + pb.position;
        ContactPoint& p = m.manifold.points[k];
        // The normal points from B toward A: A's surface point lies depth/2 behind the
        // contact point, B's depth/2 ahead (manifold.hpp), so B's minus A's is depth n.
        p.depth = (onB - onA).dot(n);
        p.point = (onA + onB) / 2;
    }
    m.origin = ContactManifold::Origin::Refreshed;
}

void recordAnchors(ContactManifold& m, const Transform& pa, const Transform& pb) {
    const Vec3& n = m.manifold.normal;
    const Mat3 backA = pa.orientation.toRotationMatrix().transpose(), backB = pb.orientation.toRotationMatrix().transpose();
    for (int i = 0; i < m.manifold.count; ++i) {
        const auto k = static_cast<std::size_t>(i);
        const ContactPoint& p = m.manifold.points[k];
        m.anchorA[k] = (backA * (p.point - n * (p.depth / 2) - pa.position)).cast<float>();
        m.anchorB[k] = (backB * (p.point + n * (p.depth / 2) - pb.position)).cast<float>();
    }
    m.normalInB = (backB * n).cast<float>();
    const Transform pose = relativePose(pa, pb);
    m.poseAInB = {pose.position.cast<float>(), pose.orientation.cast<float>()};
}

void carryImpulses(std::span<const ContactManifold> last, ContactManifold& m) {
    for (int i = 0; i < m.manifold.count; ++i) {
        const auto k = static_cast<std::size_t>(i);
        const ContactPoint& p = m.manifold.points[k];
        m.normalImpulse[k] = 0;
        m.frictionImpulse[k] = Vec3f::Zero();
        // The same features if they still touch, else the nearest point (features
        // renumber when a reference face changes sides, but the impulse that held the
        // point is still the best first guess).
        const ContactManifold* from = nullptr;
        std::size_t match = 0;
        real best = reach * reach;
        for (const ContactManifold& q : last) {
            for (int j = 0; j < q.manifold.count; ++j) {
                const auto l = static_cast<std::size_t>(j);
                if (q.manifold.points[l].feature == p.feature) {
                    from = &q;
                    match = l;
                    best = -1;
                    break;
                }
                const real d = (q.manifold.points[l].point - p.point).squaredNorm();
                if (d < best) {
                    best = d;
                    from = &q;
                    match = l;
                }
            }
            if (best < 0) break;
        }
        if (from == nullptr) continue;
        // Nothing if the normal turned over (a face pushing from the other side).
        const real turn = from->manifold.normal.dot(m.manifold.normal);
        if (turn < 0) continue;
        m.normalImpulse[k] = from->normalImpulse[match];
        if (turn >= frictionTurn) m.frictionImpulse[k] = from->frictionImpulse[match];
    }
}

} // namespace jounce::detail
