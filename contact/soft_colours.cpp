// SPDX-License-Identifier: MIT
// The soft step's coloured path (issue 28): the manifolds of every island without
// joints, coloured so that no two manifolds of a colour share a body that takes
// impulses, packed colour by colour into blocks of lanes (contact/soft_blocks.hpp) and
// solved over the substeps with the widest SIMD kernels the processor has.
//
// Colouring is greedy in contact order (Box2D v3 colours its constraint graph the same
// way): a manifold takes the lowest colour neither of its moving bodies is in yet.
// Static, kinematic and sleeping bodies take no impulses and colour nothing, so a
// floor touched by a thousand boxes does not spread them over a thousand colours.
// Manifolds that find no free colour among the first `colourCount` go to an overflow
// colour solved one lane after the other. Within a colour, manifolds are grouped by
// their number of points so every lane of a block does the same work.

#include "contact/resolver_stages.hpp"
#include "contact/soft_step.hpp"
#include "common/parallel.hpp"
#include "common/validate.hpp"

#include <jounce/common/simd.hpp>

#include <algorithm>
#include <atomic>
#include <bit>
#include <thread>

namespace jounce {

// ---- which kernels ---------------------------------------------------------------------
namespace {

std::atomic<int> simdCap{static_cast<int>(SimdLevel::Avx2)};

SimdLevel processorLevel() {
#if defined(__x86_64__)
    // The processor first: nothing of the AVX2 file runs before it says yes.
    if (__builtin_cpu_supports("avx2") && detail::avx2SoftKernels() != nullptr) return SimdLevel::Avx2;
    if (detail::sse2SoftKernels() != nullptr) return SimdLevel::Sse2;
#endif
    return SimdLevel::Scalar;
}

const detail::SoftKernels& kernelsFor(SimdLevel level) {
    switch (level) {
    case SimdLevel::Avx2: return *detail::avx2SoftKernels();
    case SimdLevel::Sse2: return *detail::sse2SoftKernels();
    case SimdLevel::Scalar: break;
    }
    return detail::scalarSoftKernels();
}

} // namespace

SimdLevel simdLevel() {
    static const SimdLevel best = processorLevel();
    return std::min(best, static_cast<SimdLevel>(simdCap.load(std::memory_order_relaxed)));
}

void limitSimd(SimdLevel cap) { simdCap.store(static_cast<int>(cap), std::memory_order_relaxed); }

const char* simdName(SimdLevel level) {
    switch (level) {
    case SimdLevel::Avx2: return "avx2";
    case SimdLevel::Sse2: return "sse2";
    case SimdLevel::Scalar: break;
    }
    return "scalar";
}

// ---- the bodies' state in the substeps -------------------------------------------------
constexpr std::uint32_t colourCount = 32;  ///< then the overflow colour
constexpr std::uint32_t keysPerColour = 5; ///< by points per manifold, 1..4

namespace detail {
namespace {

SoftState stateOf(const SoftBody& b) {
    SoftState s;
    for (int k = 0; k < 3; ++k) {
        s.v[k] = b.linearVelocity[k];
        s.w[k] = b.angularVelocity[k];
    }
    return s; // no motion yet: dp = 0, dq = identity
}

void kickState(SoftState& s, const SoftBody& b) {
    if (!b.integrates) return;
    for (int k = 0; k < 3; ++k) {
        s.v[k] = (s.v[k] + b.linearKick[k]) * b.linearKeep;
        s.w[k] = (s.w[k] + b.angularKick[k]) * b.angularKeep;
    }
}

void driftState(SoftState& s, const SoftBody& b, real h) {
    Vec3 v(s.v[0], s.v[1], s.v[2]), w(s.w[0], s.w[1], s.w[2]);
    if (b.integrates) {
        limitSpeed(v);
        limitSpeed(w);
    }
    for (int k = 0; k < 3; ++k) {
        s.v[k] = v[k];
        s.w[k] = w[k];
        s.dp[k] += h * s.v[k];
    }
    const Quat q = integrateOrientation(Quat(s.dq[3], s.dq[0], s.dq[1], s.dq[2]), w, h);
    s.dq[0] = q.x();
    s.dq[1] = q.y();
    s.dq[2] = q.z();
    s.dq[3] = q.w();
}

void storeState(const SoftState& s, SoftBody& b) {
    b.linearVelocity = Vec3(s.v[0], s.v[1], s.v[2]);
    b.angularVelocity = Vec3(s.w[0], s.w[1], s.w[2]);
    b.moved = Vec3(s.dp[0], s.dp[1], s.dp[2]);
    b.turned = Quat(s.dq[3], s.dq[0], s.dq[1], s.dq[2]);
    b.turn = b.turned.toRotationMatrix();
}

void put3(real (&to)[3][softBlockWidth], int lane, const Vec3& v) {
    for (int k = 0; k < 3; ++k) to[k][lane] = v[k];
}

/// Lane `lane` of block `k` (and its point blocks) from patch `p`.
void pack(const SoftPatch& p, std::uint32_t patchIndex, std::span<const SoftRow> rows, std::span<const SoftBody> soft,
          const std::array<Softness, 2>& softness, real perSubstep, SoftBlock& k, SoftPointBlock* points, int lane) {
    const SoftRow& head = rows[p.first];
    k.patch[lane] = patchIndex;
    for (int side = 0; side < 2; ++side) {
        const SoftBody& b = soft[p.body[static_cast<std::size_t>(side)]];
        k.body[side][lane] = p.body[static_cast<std::size_t>(side)];
        k.writes[side][lane] = b.inverseMass > 0 ? 1 : 0;
        k.invMass[side][lane] = b.inverseMass;
        const Mat3& i = b.inverseInertia;
        const real sym[6] = {i(0, 0), i(1, 1), i(2, 2), i(0, 1), i(0, 2), i(1, 2)};
        for (int e = 0; e < 6; ++e) k.invInertia[side][e][lane] = sym[e];
        put3(k.centre[side], lane, p.centre[static_cast<std::size_t>(side)]);
    }
    const Vec3& n = head.axis[0].direction;
    put3(k.normal, lane, n);
    put3(k.tangent, lane, p.axis[0].direction);
    put3(k.bitangent, lane, p.axis[1].direction);
    k.planarMass[0][lane] = p.planarMass(0, 0);
    k.planarMass[1][lane] = p.planarMass(0, 1);
    k.planarMass[2][lane] = p.planarMass(1, 1);
    k.twistMass[lane] = p.twistMass;
    k.twistReach[lane] = p.twistReach;
    k.friction[lane] = p.friction;
    k.restitution[lane] = head.restitution;
    if (head.restitution > 0) k.bouncy = true;
    const Softness& s = softness[head.kind == SoftKind::StaticContact ? 1 : 0];
    k.massScale[lane] = s.massScale;
    k.biasRate[lane] = s.biasRate;
    k.impulseScale[lane] = s.impulseScale;
    k.kickAlong[lane] = n.dot(soft[p.body[0]].linearKick - soft[p.body[1]].linearKick);
    k.planar[0][lane] = p.planar.x() * perSubstep;
    k.planar[1][lane] = p.planar.y() * perSubstep;
    k.twist[lane] = p.twist * perSubstep;
    for (std::uint32_t i = 0; i < p.count; ++i) {
        const SoftRow& row = rows[p.first + i];
        SoftPointBlock& q = points[i];
        q.row[lane] = p.first + i;
        put3(q.anchor[0], lane, row.anchor[0]);
        put3(q.anchor[1], lane, row.anchor[1]);
        q.base[lane] = row.baseSeparation;
        q.normalMass[lane] = row.normalMass;
        q.impulse[lane] = row.impulse.x() * perSubstep;
        q.approach[lane] = row.approachSpeed;
    }
}

} // namespace
} // namespace detail

using detail::SoftBlock;
using detail::SoftRow;
using detail::SoftState;
using detail::SoftPointBlock;

bool SoftStepSolver::contactsOnly(std::uint32_t first, std::uint32_t last) const {
    // Joints, and rows that hold a light body through its ghost (soft_hold.cpp: the ghost
    // follows its body only in solveIsland), are solved island by island.
    for (std::uint32_t k = first; k < last; ++k)
        if (rows_[k].kind == detail::SoftKind::Joint || rows_[k].kind == detail::SoftKind::Folded ||
            rows_[k].body[0] >= firstGhost_ || rows_[k].body[1] >= firstGhost_)
            return false;
    return true;
}

void SoftStepSolver::solveColoured(std::span<const std::uint32_t> islandStarts, std::uint32_t contactCount, real h,
                                   const ResolverSettings& settings, TaskSystem* tasks) {
    // The islands it takes, their patches (in contact order) and moving bodies.
    const std::size_t islands = islandStarts.size() < 2 ? 1 : islandStarts.size() - 1;
    coloured_.assign(islands, 0);
    colouredPatches_.clear();
    colouredBodies_.clear();
    const int substeps = settings.soft.substeps;
    const real sub = h / static_cast<real>(substeps);
    const std::uint32_t mark = contactCount + 2; // no island's (solveIsland marks first + 1 <= contactCount)
    std::size_t patch = 0;
    for (std::size_t k = 0; k < islands; ++k) {
        const std::uint32_t first = islandStarts.size() < 2 ? 0 : islandStarts[k];
        const std::uint32_t last = islandStarts.size() < 2 ? contactCount : islandStarts[k + 1];
        while (patch < patches_.size() && patches_[patch].first < first) ++patch;
        if (first == last || !contactsOnly(first, last)) continue;
        coloured_[k] = 1;
        for (; patch < patches_.size() && patches_[patch].first < last; ++patch)
            colouredPatches_.push_back(static_cast<std::uint32_t>(patch));
        listMoving(first, last, mark, sub, colouredBodies_);
    }
    if (colouredPatches_.empty()) return;
    states_.resize(bodies_.size());
    detail::parallelFor(tasks, static_cast<std::uint32_t>(bodies_.size()), 2048, [&](std::uint32_t begin, std::uint32_t end) {
        for (std::uint32_t i = begin; i < end; ++i) states_[i] = detail::stateOf(bodies_[i]);
    });
    colourPatches(colouredPatches_, substeps, settings, sub, tasks);

    kernels_ = &kernelsFor(simdLevel());
    pass_ = {1 / sub, settings.soft.maxPushOut, settings.restitutionThreshold, sub};
    // Few blocks: one thread (the stages' hand-overs would cost more than they share).
    constexpr std::size_t minBlocksForThreads = 64;
    if (tasks != nullptr && (tasks->workerCount() < 2 || blocks_.size() < minBlocksForThreads)) tasks = nullptr;
    planStages(substeps, settings.soft.relaxIterations, tasks ? tasks->workerCount() : 1);
    runStages(tasks);
    // Back into the bodies, rows and patches (the step's impulses).
    detail::parallelFor(tasks, static_cast<std::uint32_t>(colouredBodies_.size()), 1024, [&](std::uint32_t begin, std::uint32_t end) {
        for (std::uint32_t k = begin; k < end; ++k) detail::storeState(states_[colouredBodies_[k]], bodies_[colouredBodies_[k]]);
    });
    const real perStep = static_cast<real>(substeps);
    detail::parallelFor(tasks, static_cast<std::uint32_t>(blocks_.size()), 128, [&](std::uint32_t begin, std::uint32_t end) {
        for (std::uint32_t k = begin; k < end; ++k) {
            const SoftBlock& b = blocks_[k];
            for (std::uint32_t lane = 0; lane < b.used; ++lane) {
                detail::SoftPatch& p = patches_[b.patch[lane]];
                p.planar = Eigen::Matrix<real, 2, 1>(b.planar[0][lane], b.planar[1][lane]) * perStep;
                p.twist = b.twist[lane] * perStep;
                for (std::uint32_t i = 0; i < b.points; ++i) {
                    const SoftPointBlock& q = pointBlocks_[b.firstPoint + i];
                    SoftRow& row = rows_[q.row[lane]];
                    row.impulse.x() = q.impulse[lane] * perStep;
                    row.pushed = q.pushed[lane];
                    row.bounced = q.bounced[lane];
                }
            }
        }
    });
}

void SoftStepSolver::colourPatches(std::span<const std::uint32_t> patches, int substeps, const ResolverSettings& settings,
                                   real sub, TaskSystem* tasks) {
    // Colours: the lowest free one of the two moving bodies, else the overflow.
    colourMask_.assign(bodies_.size(), 0);
    keys_.resize(patches.size());
    for (std::size_t k = 0; k < patches.size(); ++k) {
        const detail::SoftPatch& p = patches_[patches[k]];
        const bool movesA = bodies_[p.body[0]].inverseMass > 0, movesB = bodies_[p.body[1]].inverseMass > 0;
        const std::uint64_t taken = (movesA ? colourMask_[p.body[0]] : 0) | (movesB ? colourMask_[p.body[1]] : 0);
        std::uint32_t colour = static_cast<std::uint32_t>(std::countr_zero(~taken));
        if (colour >= colourCount) {
            colour = colourCount;
        } else {
            if (movesA) colourMask_[p.body[0]] |= std::uint64_t{1} << colour;
            if (movesB) colourMask_[p.body[1]] |= std::uint64_t{1} << colour;
        }
        keys_[k] = colour * keysPerColour + p.count;
    }
    // A counting sort by (colour, points), stable: contact order within each.
    const std::uint32_t keyCount = (colourCount + 1) * keysPerColour;
    counts_.assign(keyCount + 1, 0);
    for (const std::uint32_t key : keys_) ++counts_[key + 1];
    for (std::uint32_t key = 0; key < keyCount; ++key) counts_[key + 1] += counts_[key];
    order_.resize(patches.size());
    {
        std::vector<std::uint32_t>& next = counts_; // reused as each key's next slot
        for (std::size_t k = 0; k < patches.size(); ++k) order_[next[keys_[k]]++] = static_cast<std::uint32_t>(k);
    }
    // Blocks: consecutive manifolds of one key, softBlockWidth at a time.
    const real contactHertz = std::min(settings.soft.contactHertz, 1 / (8 * sub));
    const std::array<detail::Softness, 2> softness{
        detail::makeSoft(contactHertz, settings.soft.contactDampingRatio, sub),
        detail::makeSoft(2 * contactHertz, settings.soft.contactDampingRatio, sub)};
    const real perSubstep = 1 / static_cast<real>(substeps);
    // Where each block starts in the order (serial: a few integers per block), then the
    // blocks filled on the workers (each writes only its own block and point blocks).
    colourStarts_.clear();
    blockFirst_.clear();
    blockPoints_.clear();
    overflowBlock_ = 0;
    std::uint32_t blocks = 0, pointCount = 0, lane = detail::softBlockWidth, blockKey = 0;
    for (std::uint32_t at = 0; at < order_.size(); ++at) {
        const std::uint32_t key = keys_[order_[at]];
        if (lane == detail::softBlockWidth || key != blockKey) {
            if (blocks == 0 || key / keysPerColour != blockKey / keysPerColour) colourStarts_.push_back(blocks);
            ++blocks;
            if (key / keysPerColour < colourCount) overflowBlock_ = blocks;
            blockFirst_.push_back(at);
            blockPoints_.push_back(pointCount);
            pointCount += patches_[patches[order_[at]]].count;
            lane = 0;
            blockKey = key;
        }
        ++lane;
    }
    blockFirst_.push_back(static_cast<std::uint32_t>(order_.size()));
    colourStarts_.push_back(blocks);
    blocks_.resize(blocks); // (a settled step keeps the sizes: nothing is constructed or allocated)
    pointBlocks_.resize(pointCount);
    detail::parallelFor(tasks, blocks, 128, [&](std::uint32_t begin, std::uint32_t end) {
        for (std::uint32_t k = begin; k < end; ++k) {
            SoftBlock& b = blocks_[k];
            b = SoftBlock{};
            b.firstPoint = blockPoints_[k];
            b.points = patches_[patches[order_[blockFirst_[k]]]].count;
            for (std::uint32_t i = 0; i < b.points; ++i) pointBlocks_[b.firstPoint + i] = SoftPointBlock{};
            for (std::uint32_t at = blockFirst_[k]; at < blockFirst_[k + 1]; ++at) {
                const std::uint32_t patch = patches[order_[at]];
                detail::pack(patches_[patch], patch, rows_, bodies_, softness, perSubstep, b, pointBlocks_.data() + b.firstPoint,
                             static_cast<int>(b.used));
                ++b.used;
            }
        }
    });
}

} // namespace jounce

// ---- the passes as stages, on one thread or several ----------------------------------------
namespace jounce {

using detail::SoftStage;

void SoftStepSolver::planStages(int substeps, int relaxIterations, std::uint32_t workers) {
    stages_.clear();
    const bool bouncy = std::any_of(blocks_.begin(), blocks_.end(), [](const SoftBlock& b) { return b.bouncy; });
    const auto bodies = static_cast<std::uint32_t>(colouredBodies_.size());
    const auto blocks = static_cast<std::uint32_t>(blocks_.size());
    // Items: two per worker, and at least 64 bodies or 4 blocks each, so claiming (an
    // atomic increment on a line the workers share) costs little beside the work.
    constexpr std::uint32_t bodiesPerItem = 64, blocksPerItem = 4;
    const auto add = [&](SoftStage::Kind kind, std::uint32_t first, std::uint32_t last, std::uint32_t least) {
        if (first == last) return;
        const std::uint32_t per = std::max(least, (last - first + 2 * workers - 1) / (2 * workers));
        const bool inOrder = kind != SoftStage::Kind::Kick && kind != SoftStage::Kind::Drift && first >= overflowBlock_;
        stages_.push_back({kind, first, last - first, inOrder ? last - first : per});
    };
    // A pass that writes bodies goes colour by colour; the overflow colour is one item,
    // its lanes in order (they may share bodies).
    const auto byColour = [&](SoftStage::Kind kind) {
        for (std::size_t c = 0; c + 1 < colourStarts_.size(); ++c) add(kind, colourStarts_[c], colourStarts_[c + 1], blocksPerItem);
    };
    for (int s = 0; s < substeps; ++s) {
        add(SoftStage::Kind::Kick, 0, bodies, bodiesPerItem);
        if (bouncy) add(SoftStage::Kind::Note, 0, blocks, blocksPerItem); // reads bodies, writes only its blocks
        byColour(SoftStage::Kind::Warm);
        byColour(SoftStage::Kind::Solve);
        add(SoftStage::Kind::Drift, 0, bodies, bodiesPerItem);
        for (int r = 0; r < relaxIterations; ++r) byColour(SoftStage::Kind::Relax);
        if (bouncy) byColour(SoftStage::Kind::Bounce);
    }
}

void SoftStepSolver::runItem(const SoftStage& stage, std::uint32_t item) {
    const std::uint32_t begin = stage.first + item * stage.per;
    const std::uint32_t end = std::min(stage.first + stage.count, begin + stage.per);
    using Kind = SoftStage::Kind;
    if (stage.kind == Kind::Kick || stage.kind == Kind::Drift) {
        for (std::uint32_t k = begin; k < end; ++k) {
            const std::uint32_t i = colouredBodies_[k];
            if (stage.kind == Kind::Kick)
                detail::kickState(states_[i], bodies_[i]);
            else
                detail::driftState(states_[i], bodies_[i], pass_.sub);
        }
        return;
    }
    SoftState* states = states_.data();
    for (std::uint32_t b = begin; b < end; ++b) {
        const detail::SoftKernels& k = b >= overflowBlock_ ? detail::scalarSoftKernels() : *kernels_;
        SoftBlock& block = blocks_[b];
        SoftPointBlock* points = pointBlocks_.data() + block.firstPoint;
        switch (stage.kind) {
        case Kind::Note:
            if (block.bouncy) k.noteApproach(block, points, states);
            break;
        case Kind::Warm: k.warmStart(block, points, states); break;
        case Kind::Solve: k.solve(block, points, states, true, pass_.invSub, pass_.maxPushOut); break;
        case Kind::Relax: k.solve(block, points, states, false, pass_.invSub, pass_.maxPushOut); break;
        case Kind::Bounce:
            if (block.bouncy) k.bounce(block, points, states, pass_.threshold, pass_.sub);
            break;
        case Kind::Kick:
        case Kind::Drift: break;
        }
    }
}

void SoftStepSolver::workStages() {
    // Every worker claims items of the current stage; whoever finishes a stage's last
    // item opens the next. A worker with nothing left to claim waits for that. One
    // worker alone (or a job system that runs the workers one after the other) does
    // every stage itself: nothing waits on a worker that is not running.
    const auto count = static_cast<std::uint32_t>(stages_.size());
    std::uint32_t s = stageNow_.load(std::memory_order_acquire);
    while (s < count) {
        const SoftStage& stage = stages_[s];
        const std::uint32_t items = stage.items();
        for (;;) {
            const std::uint32_t item = stageProgress_[s].claimed.fetch_add(1, std::memory_order_relaxed);
            if (item >= items) break;
            runItem(stage, item);
            if (stageProgress_[s].finished.fetch_add(1, std::memory_order_acq_rel) + 1 == items)
                stageNow_.store(s + 1, std::memory_order_release);
        }
        std::uint32_t now = stageNow_.load(std::memory_order_acquire);
        for (int spin = 0; now == s; ++spin) {
            detail::waitTurn(spin);
            now = stageNow_.load(std::memory_order_acquire);
        }
        s = now;
    }
}

void SoftStepSolver::runStages(TaskSystem* tasks) {
    if (tasks == nullptr) {
        for (const SoftStage& stage : stages_)
            for (std::uint32_t item = 0; item < stage.items(); ++item) runItem(stage, item);
        return;
    }
    const std::size_t counters = stages_.size();
    if (stageProgressSize_ < counters) {
        stageProgress_ = std::make_unique<StageProgress[]>(counters);
        stageProgressSize_ = counters;
    }
    for (std::size_t i = 0; i < counters; ++i) {
        stageProgress_[i].claimed.store(0, std::memory_order_relaxed);
        stageProgress_[i].finished.store(0, std::memory_order_relaxed);
    }
    stageNow_.store(0, std::memory_order_release);
    const std::uint32_t workers = tasks->workerCount();
    tasks->run(workers, 1, [](std::uint32_t begin, std::uint32_t end, std::uint32_t, void* self) {
        for (std::uint32_t w = begin; w < end; ++w) static_cast<SoftStepSolver*>(self)->workStages();
    }, this);
}

} // namespace jounce
