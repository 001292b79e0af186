// SPDX-License-Identifier: MIT
// A benchmark scene in Jounce, built by the scene module the demo and the tests use.

#include "bench/engines.hpp"

namespace jounce::bench {
namespace {

class JounceEngine final : public Engine {
public:
    JounceEngine(const scenes::BenchSceneDesc& desc, bool sleep, const JounceOptions& options) {
        WorldSettings s = scene_.world().settings();
        s.sleep.enabled = sleep;
        if (options.adjust) options.adjust(s);
        scene_.world().setSettings(s);
        scene_.world().setThreads(options.threads);
        scene_.layout = scenes::buildBenchScene(scene_, desc);
    }
    const char* name() const override { return "jounce"; }
    void step() override { scene_.step(); }
    void sample(std::vector<BodySample>& out) const override {
        const std::vector<BodyId>& dynamic = scene_.layout.dynamic;
        out.resize(dynamic.size());
        for (std::size_t i = 0; i < dynamic.size(); ++i) {
            const BodyState b = scene_.world().body(dynamic[i]);
            out[i] = {double(b.position.x()), double(b.position.y()), double(b.position.z()),
                      double(b.linearVelocity.norm()), !b.awake};
        }
    }

    // Counted without writing them: reading the list makes the world hold it (344 bytes a
    // point in the double build), which a game that never reads it does not pay.
    std::size_t contacts() const override { return scene_.world().resolvedContactCount(); }

private:
    BenchScene scene_;
};

} // namespace

std::unique_ptr<Engine> makeJounceEngine(const scenes::BenchSceneDesc& desc, bool sleep, const JounceOptions& options) {
    return std::make_unique<JounceEngine>(desc, sleep, options);
}

} // namespace jounce::bench
