// SPDX-License-Identifier: MIT
// Stages 5c and 8 of the step: contacts grouped into islands (sleeping islands left
// out, a touched one woken), and the links that keep a sleeping pile one island after
// its contacts are no longer looked for.

#include "common/parallel.hpp"
#include "contact/stages.hpp"

#include <algorithm>
#include <span>

namespace jounce::detail {
namespace {

/// Whether slot i holds a live dynamic body that sleeps (noBody and static: no).
bool sleepingBody(const BodyArray& bodies, std::uint32_t i) {
    const std::span<const Body> slots = bodies.slots();
    return i < slots.size() && bodies.aliveFlags()[i] && slots[i].isDynamic() && !slots[i].awake;
}

} // namespace

void groupContacts(BodyArray& bodies, std::vector<Contact>& contacts, const SleepSettings& sleep, Islands& islands,
                   std::vector<std::uint32_t>& islandStarts, std::vector<BodyLink>& sleepingLinks,
                   const std::vector<BodyLink>& jointLinks, ContactScratch& scratch, TaskSystem* tasks) {
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
    // An island a moving kinematic body touches wakes (and the sleep stage keeps it awake).
    markMovedByKinematics(slots, contacts, islands, scratch.movedByKinematic);
    for (std::size_t k = 0; k < islands.count(); ++k)
        if (scratch.movedByKinematic[k]) wakeIsland(bodies.slots(), islands, k, sleep.sleepThreshold);
    wakeTouchedIslands(bodies.slots(), islands, sleep.sleepThreshold);
    // Contacts in island order; islands that sleep as a whole are left out. Which goes
    // where is listed first (plain indices), then the contacts (~300 bytes each) are
    // copied on the workers.
    std::vector<std::uint32_t>& source = scratch.orderSource;
    source.clear();
    islandStarts.assign(1, 0);
    for (std::size_t k = 0; k < islands.count(); ++k) {
        const std::uint32_t first = islands.contactStarts[k], last = islands.contactStarts[k + 1];
        if (first == last) continue;
        if (!slots[islands.bodies[islands.bodyStarts[k]]].awake) continue;
        for (std::uint32_t i = first; i < last; ++i) source.push_back(islands.contactOrder[i]);
        islandStarts.push_back(static_cast<std::uint32_t>(source.size()));
    }
    // One island of every contact (a pile, a heap) is already in order: nothing to copy.
    bool inOrder = source.size() == contacts.size();
    for (std::uint32_t i = 0; i < source.size() && inOrder; ++i) inOrder = source[i] == i;
    if (inOrder) return;
    std::vector<Contact>& ordered = scratch.ordered;
    ordered.resize(source.size());
    parallelFor(tasks, static_cast<std::uint32_t>(source.size()), 2048, [&](std::uint32_t begin, std::uint32_t end) {
        for (std::uint32_t i = begin; i < end; ++i) ordered[i] = contacts[source[i]];
    });
    contacts.swap(ordered);
}

void keepSleepingLinks(const BodyArray& bodies, const std::vector<Contact>& contacts, std::vector<BodyLink>& links) {
    for (const Contact& c : contacts)
        if (sleepingBody(bodies, c.body[0]) && sleepingBody(bodies, c.body[1]))
            links.emplace_back(std::min(c.body[0], c.body[1]), std::max(c.body[0], c.body[1]));
    std::sort(links.begin(), links.end()); // plain numbers: deterministic
    links.erase(std::unique(links.begin(), links.end()), links.end());
}

} // namespace jounce::detail
