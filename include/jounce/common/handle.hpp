// SPDX-License-Identifier: MIT
#pragma once
/// \file handle.hpp
/// Generational handles (index + generation) into the world's arrays, and the slot
/// array that hands them out. Generation 0 never names a live object, so a
/// default-constructed handle is always invalid. A slot's generation is bumped when
/// its object is destroyed, so an old handle to a reused slot is detected as stale.

#include <cstdint>
#include <span>
#include <vector>

namespace jounce {

template <typename Tag> struct Handle {
    std::uint32_t index = 0;
    std::uint32_t generation = 0; ///< 0: the null handle

    bool isNull() const { return generation == 0; }
    friend bool operator==(Handle, Handle) = default;
    friend auto operator<=>(Handle, Handle) = default;
};

struct BodyTag;
struct ForceGeneratorTag;
using BodyId = Handle<BodyTag>;
using ForceGeneratorId = Handle<ForceGeneratorTag>;

/// Objects in a flat vector addressed by handles. Freed slots are reused last-in
/// first-out, which is deterministic. Iteration is by index, never by address.
template <typename T, typename Tag> class SlotArray {
public:
    using Id = Handle<Tag>;

    Id insert(T value) {
        std::uint32_t index;
        if (!free_.empty()) {
            index = free_.back();
            free_.pop_back();
            items_[index] = std::move(value);
        } else {
            index = static_cast<std::uint32_t>(items_.size());
            items_.push_back(std::move(value));
            generations_.push_back(1);
            alive_.push_back(0);
        }
        alive_[index] = 1;
        ++count_;
        return Id{index, generations_[index]};
    }

    void erase(Id id) {
        alive_[id.index] = 0;
        ++generations_[id.index];
        if (generations_[id.index] == 0) generations_[id.index] = 1; // skip the null generation
        free_.push_back(id.index);
        --count_;
    }

    bool contains(Id id) const {
        return id.generation != 0 && id.index < items_.size() && alive_[id.index] &&
               generations_[id.index] == id.generation;
    }

    T& operator[](Id id) { return items_[id.index]; }
    const T& operator[](Id id) const { return items_[id.index]; }

    /// Slot-level access for stages that sweep every live object in index order.
    std::size_t slotCount() const { return items_.size(); }
    bool isAlive(std::size_t slot) const { return alive_[slot] != 0; }
    Id idOf(std::size_t slot) const {
        return Id{static_cast<std::uint32_t>(slot), generations_[slot]};
    }
    T& atSlot(std::size_t slot) { return items_[slot]; }
    /// Every slot, dead ones included (check isAlive or aliveFlags): for stages that
    /// address objects by slot index, such as the contact resolver.
    std::span<T> slots() { return items_; }
    std::span<const T> slots() const { return items_; }
    std::span<const std::uint8_t> aliveFlags() const { return alive_; }
    const T& atSlot(std::size_t slot) const { return items_[slot]; }
    std::size_t size() const { return count_; }
    /// Handles of every live object, in index order.
    std::vector<Id> ids() const {
        std::vector<Id> out;
        out.reserve(count_);
        for (std::size_t i = 0; i < items_.size(); ++i)
            if (alive_[i]) out.push_back(idOf(i));
        return out;
    }

    /// Hands each stored array to `field` in a fixed order (snapshots read and write
    /// them through it), free list and generations included, so that a restored array
    /// gives out the same handles as the original.
    template <typename Field> void serialize(Field&& field) {
        field(items_);
        field(generations_);
        field(alive_);
        field(free_);
        field(count_);
    }
    /// Whether the arrays agree with each other (a restored array is checked): equal
    /// lengths, generations not 0, the free list exactly the dead slots, each once.
    bool consistent() const {
        const std::size_t n = items_.size();
        if (generations_.size() != n || alive_.size() != n || free_.size() + count_ != n) return false;
        std::vector<std::uint8_t> seen(n, 0);
        for (const std::uint32_t slot : free_) {
            if (slot >= n || alive_[slot] || seen[slot]) return false;
            seen[slot] = 1;
        }
        std::size_t alive = 0;
        for (std::size_t i = 0; i < n; ++i) {
            if (generations_[i] == 0 || alive_[i] > 1) return false;
            alive += alive_[i];
        }
        return alive == count_;
    }

private:
    std::vector<T> items_;
    std::vector<std::uint32_t> generations_;
    std::vector<std::uint8_t> alive_;
    std::vector<std::uint32_t> free_;
    std::size_t count_ = 0;
};

} // namespace jounce
