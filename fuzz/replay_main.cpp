// SPDX-License-Identifier: MIT
// Runs a fuzz target's entry point once on each input, without libFuzzer: each argument
// is a file, or a directory whose files are taken in name order. The builds without
// JOUNCE_FUZZ link it to every target (fuzz/CMakeLists.txt), so the seed corpus and the
// fixed findings kept in it replay with gcc in double precision too. A finding aborts,
// as it does under libFuzzer; the empty input goes first, as libFuzzer's does.

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

int main(int argc, char** argv) {
    namespace fs = std::filesystem;
    std::vector<fs::path> files;
    for (int i = 1; i < argc; ++i) {
        const fs::path path = argv[i];
        if (!fs::is_directory(path)) {
            files.push_back(path);
            continue;
        }
        for (const fs::directory_entry& entry : fs::directory_iterator(path))
            if (entry.is_regular_file()) files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    if (files.empty()) {
        std::fprintf(stderr, "usage: %s FILE|DIRECTORY...: no inputs found\n", argv[0]);
        return 2;
    }
    const std::uint8_t none = 0;
    LLVMFuzzerTestOneInput(&none, 0);
    for (const fs::path& file : files) {
        std::ifstream in(file, std::ios::binary);
        if (!in) {
            std::fprintf(stderr, "%s: cannot be read\n", file.c_str());
            return 2;
        }
        const std::vector<std::uint8_t> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
        std::printf("%s: %zu bytes\n", file.filename().c_str(), bytes.size());
        std::fflush(stdout); // the last name printed is the input that aborted
        LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
    }
    std::printf("%zu inputs replayed\n", files.size());
    return 0;
}
