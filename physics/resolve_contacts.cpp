// Stages 5, 6 and 8 of the step as the world runs them: turn the narrow phase's
// manifolds into contact points (matched with last step's for warm starting), group
// them into islands, resolve each awake island, and put quiet islands to sleep.

#include "physics/stages.hpp"

#include <algorithm>
#include <span>

namespace jounce::detail {
namespace {

/// A contact's identity across steps: the two colliders (slot and generation) in the
/// high 32 bits, the touching features in the low 32. Contacts of one collider pair
/// share the high half, so they sit together when sorted by key.
std::uint64_t contactKey(const ContactManifold& m, std::uint32_t feature) {
    std::uint32_t h = 2166136261u;
    for (const std::uint32_t part : {m.colliderA.index, m.colliderA.generation, m.colliderB.index, m.colliderB.generation})
        h = (h ^ part) * 16777619u;
    return std::uint64_t(h) << 32 | feature;
}

/// The first position in sorted `keys` whose key is not below `key` (std::lower_bound's
/// answer). Branch-free: each halving picks its half by a conditional move, not a
/// jump, since with hashed keys which half it is cannot be predicted and every
/// mispredicted jump costs more than the comparison (a contact's warm start searched
/// thousands of times per step).
std::size_t lowerBound(std::span<const std::uint64_t> keys, std::uint64_t key) {
    if (keys.empty()) return 0;
    const std::uint64_t* base = keys.data();
    std::size_t n = keys.size();
    while (n > 1) {
        const std::size_t half = n / 2;
        base = base[half] < key ? base + half : base;
        n -= half;
    }
    return static_cast<std::size_t>(base - keys.data()) + (*base < key ? 1 : 0);
}

/// Last step's contact that this one continues: the same features if they still
/// touch, otherwise the nearest point of the same collider pair within `reach`
/// (features renumber when a reference face changes sides, but the impulse that
/// held the point is still the best first guess). Null if none.
const KeptContact* previousMatch(const std::vector<KeptContact>& previous, std::span<const std::uint64_t> keys,
                                 const Contact& c, real reach) {
    // Searched in the keys alone (8 bytes each, where a KeptContact is 88): the
    // search's steps stay in cache.
    const std::uint64_t pair = c.key >> 32;
    std::size_t i = lowerBound(keys, pair << 32);
    const KeptContact* nearest = nullptr;
    real best = reach * reach;
    for (; i < keys.size() && (keys[i] >> 32) == pair; ++i) {
        if (keys[i] == c.key) return &previous[i];
        const real d = (previous[i].point - c.point).squaredNorm();
        if (d < best) {
            best = d;
            nearest = &previous[i];
        }
    }
    return nearest;
}

bool finite(const Contact& c) {
    return isFinite(c.point) && isFinite(c.normal) && std::isfinite(c.penetration) && std::isfinite(c.friction) &&
           std::isfinite(c.restitution) && std::abs(c.normal.norm() - 1) < real(1e-3);
}

} // namespace

void warmStart(const std::vector<KeptContact>& previous, std::span<const std::uint64_t> keys, Contact& c) {
    // Last step's impulse on the same contact. The friction part is kept only if the
    // contact frame is (nearly) the same, and nothing if the normal turned over (a
    // rod switching from pulling to pushing).
    const KeptContact* p = previousMatch(previous, keys, c, real(0.05));
    if (p == nullptr) return;
    const real turn = p->normal.dot(c.normal);
    if (turn < 0) return;
    c.accumulatedImpulse = Vec3(p->accumulatedImpulse.x(), 0, 0);
    if (turn < real(0.999)) return;
    // Friction carries over as a world vector, not as contact-frame numbers: the
    // tangent axes are rebuilt from each step's normal, and for a floor's normal
    // (0, 1, 0) tipped by rounding one way or the other contactBasis picks a different
    // helper axis, turning them a quarter turn. Read in the new frame the old numbers
    // pushed sideways at the full friction load, a 1 m/s kick to a box resting in a
    // pyramid every few dozen steps (docs/contact.md, warm starting).
    const Mat3 before = contactBasis(p->normal), now = contactBasis(c.normal);
    const Vec3 friction = before.col(1) * p->accumulatedImpulse.y() + before.col(2) * p->accumulatedImpulse.z();
    c.accumulatedImpulse.y() = now.col(1).dot(friction);
    c.accumulatedImpulse.z() = now.col(2).dot(friction);
}

void gatherContacts(const BodyArray& bodies, const std::vector<ContactManifold>& manifolds,
                    const std::vector<KeptContact>& previous, std::vector<std::uint64_t>& previousKeys,
                    std::vector<Contact>& out, std::vector<std::string>& errors) {
    out.clear();
    errors.clear();
    previousKeys.clear();
    for (const KeptContact& p : previous) previousKeys.push_back(p.key); // sorted, as previous is
    for (const ContactManifold& m : manifolds) {
        if (!bodies[m.bodyA].isDynamic() && !bodies[m.bodyB].isDynamic()) continue; // nothing to move
        for (int k = 0; k < m.manifold.count; ++k) {
            const ContactPoint& p = m.manifold.points[static_cast<std::size_t>(k)];
            Contact& c = out.emplace_back(); // built in place: a Contact is ~400 bytes
            c.body = {m.bodyA.index, m.bodyB.index};
            c.point = p.point;
            c.normal = m.manifold.normal;
            c.penetration = p.depth;
            c.friction = m.friction;
            c.restitution = m.restitution;
            c.key = contactKey(m, p.feature);
            if (!finite(c)) {
                // Bad data never reaches a body: report it and drop the point.
                errors.push_back("contact between bodies " + std::to_string(m.bodyA.index) + " and " +
                                 std::to_string(m.bodyB.index) + " dropped: non-finite point " + toText(c.point) +
                                 ", normal " + toText(c.normal) + " or depth " + toText(c.penetration));
                out.pop_back();
                continue;
            }
            warmStart(previous, previousKeys, c);
        }
    }
}

namespace {

/// Whether slot i holds a live dynamic body that sleeps (noBody and static: no).
bool sleepingBody(const BodyArray& bodies, std::uint32_t i) {
    const std::span<const Body> slots = bodies.slots();
    return i < slots.size() && bodies.aliveFlags()[i] && slots[i].isDynamic() && !slots[i].awake;
}

} // namespace

void groupContacts(BodyArray& bodies, std::vector<Contact>& contacts, const WorldSettings& settings, Islands& islands,
                   std::vector<std::uint32_t>& islandStarts, std::vector<BodyLink>& sleepingLinks,
                   const std::vector<BodyLink>& jointLinks, StepScratch& scratch) {
    // Sleeping bodies are not tested against each other, so the contacts that held a
    // sleeping pile together are not found again. The links kept from them join its
    // bodies into one island still, so a hit on any of them wakes all of them.
    const std::span<const Body> slots = bodies.slots();
    const auto asleep = [&](std::uint32_t i) { return sleepingBody(bodies, i); };
    std::erase_if(sleepingLinks, [&](const BodyLink& l) { return !asleep(l.first) && !asleep(l.second); });
    std::vector<BodyLink>& links = scratch.links;
    links.assign(sleepingLinks.begin(), sleepingLinks.end());
    links.insert(links.end(), jointLinks.begin(), jointLinks.end());
    buildIslands(slots, bodies.aliveFlags(), contacts, links, islands);
    wakeTouchedIslands(bodies.slots(), islands, settings.sleep.sleepThreshold);
    // Contacts in island order; islands that sleep as a whole are left out.
    std::vector<Contact>& ordered = scratch.ordered;
    ordered.clear();
    islandStarts.assign(1, 0);
    for (std::size_t k = 0; k < islands.count(); ++k) {
        const std::uint32_t first = islands.contactStarts[k], last = islands.contactStarts[k + 1];
        if (first == last) continue;
        if (!slots[islands.bodies[islands.bodyStarts[k]]].awake) continue;
        for (std::uint32_t i = first; i < last; ++i) ordered.push_back(contacts[islands.contactOrder[i]]);
        islandStarts.push_back(static_cast<std::uint32_t>(ordered.size()));
    }
    contacts.swap(ordered);
}

void keepSleepingLinks(const BodyArray& bodies, const std::vector<Contact>& contacts, std::vector<BodyLink>& links) {
    for (const Contact& c : contacts)
        if (sleepingBody(bodies, c.body[0]) && sleepingBody(bodies, c.body[1]))
            links.emplace_back(std::min(c.body[0], c.body[1]), std::max(c.body[0], c.body[1]));
    std::sort(links.begin(), links.end()); // plain numbers: deterministic
    links.erase(std::unique(links.begin(), links.end()), links.end());
}

void keepForWarmStart(const std::vector<Contact>& contacts, std::vector<KeptContact>& previous,
                      std::vector<std::pair<std::uint64_t, std::uint32_t>>& order) {
    // Sort (key, index) pairs, not 400-byte contacts, and compare them without reaching
    // into the contacts; the index breaks ties, so std::sort (which needs no buffer,
    // unlike stable_sort) gives the stable order. Only what warmStart and the joint
    // forces read is kept (KeptContact: 88 bytes, not 400).
    order.resize(contacts.size());
    for (std::uint32_t i = 0; i < contacts.size(); ++i) order[i] = {contacts[i].key, i};
    std::sort(order.begin(), order.end());
    previous.resize(contacts.size());
    for (std::size_t i = 0; i < order.size(); ++i) {
        const Contact& c = contacts[order[i].second];
        previous[i] = KeptContact{c.key, c.point, c.normal, c.accumulatedImpulse, c.bounceImpulse.x()};
    }
}

} // namespace jounce::detail
