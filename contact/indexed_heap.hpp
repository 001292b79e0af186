// SPDX-License-Identifier: MIT
#pragma once
/// \file indexed_heap.hpp
/// A binary max-heap over items 0..n-1 with a key each, that can change any item's key
/// in O(log n). The resolver keeps an island's contacts in one, keyed by penetration
/// (or desired velocity change): finding the worst contact costs O(1), and after a
/// resolution only the contacts that share a moved body are re-keyed, so an island
/// costs O(iterations x log contacts) instead of a scan per iteration. Equal keys go
/// to the lower item, so the order never depends on anything but the data.

#include <jounce/common/math.hpp>

#include <cstdint>
#include <vector>

namespace jounce {

class IndexedMaxHeap {
public:
    /// Items first..first+count-1 with the given keys (keys indexed by item).
    void build(std::uint32_t first, std::uint32_t count, const std::vector<real>& keys) {
        first_ = first;
        keys_.assign(keys.begin() + first, keys.begin() + first + count);
        heap_.resize(count);
        slot_.resize(count);
        for (std::uint32_t i = 0; i < count; ++i) heap_[i] = slot_[i] = i;
        for (std::size_t i = count / 2; i-- > 0;) down(i);
    }
    bool empty() const { return heap_.empty(); }
    std::uint32_t top() const { return first_ + heap_[0]; }
    real topKey() const { return keys_[heap_[0]]; }
    real key(std::uint32_t item) const { return keys_[item - first_]; }
    void update(std::uint32_t item, real key) {
        const std::uint32_t local = item - first_;
        const real old = keys_[local];
        keys_[local] = key;
        if (before(local, old)) up(slot_[local]);
        else down(slot_[local]);
    }

private:
    /// Whether local item a (with its key) ranks above an item with key `other` and
    /// the same index: used only to pick the sift direction.
    bool before(std::uint32_t a, real other) const { return keys_[a] > other; }
    bool higher(std::uint32_t a, std::uint32_t b) const {
        return keys_[a] > keys_[b] || (keys_[a] == keys_[b] && a < b);
    }
    void swapSlots(std::size_t i, std::size_t j) {
        std::swap(heap_[i], heap_[j]);
        slot_[heap_[i]] = static_cast<std::uint32_t>(i);
        slot_[heap_[j]] = static_cast<std::uint32_t>(j);
    }
    void up(std::size_t i) {
        while (i > 0) {
            const std::size_t parent = (i - 1) / 2;
            if (!higher(heap_[i], heap_[parent])) return;
            swapSlots(i, parent);
            i = parent;
        }
    }
    void down(std::size_t i) {
        for (;;) {
            std::size_t best = i;
            for (std::size_t c : {2 * i + 1, 2 * i + 2})
                if (c < heap_.size() && higher(heap_[c], heap_[best])) best = c;
            if (best == i) return;
            swapSlots(i, best);
            i = best;
        }
    }

    std::uint32_t first_ = 0;
    std::vector<real> keys_;
    std::vector<std::uint32_t> heap_; ///< local items, heap order
    std::vector<std::uint32_t> slot_; ///< where each local item sits in heap_
};

} // namespace jounce
