// SPDX-License-Identifier: MIT
#pragma once
// How the step's per-contact lists grow. std::vector doubles its capacity when it runs
// out, so a list that grew once holds up to twice what it needs from then on: pile1000's
// 1050 manifolds of 0.7 kB sat in room for 2048, in each of the two manifold lists.
// These lists grow by a quarter beyond what is asked instead. They grow while a scene
// gathers contacts (a pile falling) and then stay: a settled step still allocates
// nothing, and the extra copies while growing are a few per cent of those steps.

#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

namespace jounce::detail {

/// Room for `count` elements; when it must grow, at least a quarter more than it had
/// (and a few, so a short list does not grow one element at a time: four, or as many as
/// fit in 256 bytes when fewer do, so a list of 2.5 kB blocks does not take four spare).
/// A list that jumps to its size in one step (a pyramid's contacts found at once, or a
/// column's two blocks) gets that size exactly.
template <class T> void reserveGrowing(std::vector<T>& list, std::size_t count) {
    constexpr std::size_t few = std::clamp<std::size_t>(256 / sizeof(T), 1, 4);
    const std::size_t room = list.capacity();
    if (count > room) list.reserve(room == 0 ? count : std::max(count, room + room / 4 + few));
}

/// resize, grown as reserveGrowing grows.
template <class T> void resizeGrowing(std::vector<T>& list, std::size_t count) {
    reserveGrowing(list, count);
    list.resize(count);
}

/// resize for a list whose elements are all written over before they are read: when it
/// must grow, the old elements are dropped rather than copied into the new room (9 MB of
/// manifolds a growing step on spheres4096).
template <class T> void resizeOver(std::vector<T>& list, std::size_t count) {
    if (count > list.capacity()) list.clear();
    resizeGrowing(list, count);
}

/// Gives back the room of a list that grew for a burst and now holds a small part of it
/// (a pyramid's pairs all begin touching in one step, then none: its begin events kept
/// 98 kB for nothing): when it holds less than an eighth of its room and the room is
/// 64 kB or more. A list that grows and shrinks a little from step to step keeps its
/// room (nothing is allocated every step), and one a settled scene empties is freed,
/// which allocates nothing.
template <class T> void releaseIdleRoom(std::vector<T>& list) {
    if (list.capacity() * sizeof(T) >= 65536 && list.size() < list.capacity() / 8) list.shrink_to_fit();
}

/// emplace_back, grown as reserveGrowing grows.
template <class T, class... Args> T& emplaceGrowing(std::vector<T>& list, Args&&... args) {
    reserveGrowing(list, list.size() + 1);
    return list.emplace_back(std::forward<Args>(args)...);
}

} // namespace jounce::detail
