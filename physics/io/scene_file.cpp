// SPDX-License-Identifier: MIT
// Scene files' entry points: parsing (a syntax error named by line and column), the
// all-or-nothing addScene, and reading and writing whole files. The format's parts
// live in scene_fields.hpp (what each object holds), scene_export.cpp and
// scene_load.cpp.

#include <jounce/io/scene_file.hpp>

#include "common/guard.hpp"
#include "physics/io/scene_json.hpp"

#include <cfenv>
#include <cmath>
#include <fstream>
#include <sstream>

namespace jounce {
namespace detail {
SceneObjects readObjects(World& world, Reader& file);
WorldSettings readHeader(Reader& file, SceneInfo& info);

namespace {

/// Line and column (both from 1) of the byte at `offset` (from 1, as nlohmann counts).
std::string lineAndColumn(std::string_view text, std::size_t offset) {
    std::size_t line = 1, column = 1;
    for (std::size_t i = 0; i + 1 < offset && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

/// Holds the floating-point environment with every exception flag clear and no traps
/// for its lifetime, and puts it back as it was: the C library's strtod raises the
/// overflow flag on a number like 1e999, which is bad input to report, not to trap on
/// (a game may run with feenableexcept). Nothing raised inside leaks out.
class QuietFloatingPoint {
public:
    QuietFloatingPoint() { std::feholdexcept(&saved_); }
    ~QuietFloatingPoint() { std::fesetenv(&saved_); }
    QuietFloatingPoint(const QuietFloatingPoint&) = delete;
    QuietFloatingPoint& operator=(const QuietFloatingPoint&) = delete;

private:
    std::fenv_t saved_{};
};

/// The JSON of a file; a syntax error names its line and column.
Json parse(std::string_view text) {
    try {
        const QuietFloatingPoint quiet;
        return Json::parse(text.begin(), text.end());
    } catch (const Json::parse_error& e) {
        // nlohmann's message: "[json.exception.parse_error.101] parse error at line 3,
        // column 7: syntax error while parsing value - ..."; keep what follows the position.
        std::string rule = e.what();
        if (const std::size_t at = rule.find(": "); at != std::string::npos) rule = rule.substr(at + 2);
        throw Error("scene file " + lineAndColumn(text, e.byte), "JSON syntax", rule);
    } catch (const Json::out_of_range& e) {
        // A number too large for its type ("1e999"): nlohmann names the number, not its
        // place, so find the first place it is written.
        const std::string what = e.what();
        const std::size_t open = what.find('\''), close = what.rfind('\'');
        const std::string number = open < close ? what.substr(open + 1, close - open - 1) : "";
        const std::size_t at = number.empty() ? std::string_view::npos : text.find(number);
        throw Error(at == std::string_view::npos ? "scene file" : "scene file " + lineAndColumn(text, at + 1), number,
                    "a number too large for the JSON reader");
    }
}

void checkInfo(const SceneInfo& info) {
    if (!(info.timeStep > 0) || !std::isfinite(info.timeStep))
        throw Error("scene.timeStep", toText(info.timeStep), "must be finite and > 0");
    if (info.substeps < 1) throw Error("scene.substeps", std::to_string(info.substeps), "must be >= 1");
}

/// Reads a parsed file into `world`: its header (returned through settings and info)
/// then every object.
SceneObjects readInto(World& world, const Json& json, SceneInfo& info) {
    Reader file(json, "");
    readHeader(file, info);
    checkInfo(info);
    SceneObjects objects = readObjects(world, file);
    file.finish();
    return objects;
}

World worldWithSettings(const Json& json) {
    Reader file(json, "");
    SceneInfo info;
    const WorldSettings settings = readHeader(file, info);
    try {
        return World(settings);
    } catch (const Error& e) {
        rethrowAt(e, "settings"); // "WorldSettings.gravity" -> "settings.gravity"
    }
}

} // namespace
} // namespace detail

LoadedScene loadScene(std::string_view text) {
    const detail::Json json = detail::parse(text);
    LoadedScene scene{detail::worldWithSettings(json), {}, {}};
    scene.objects = detail::readInto(scene.world, json, scene.info);
    return scene;
}

SceneObjects addScene(World& world, std::string_view text, SceneInfo* info) { return detail::guarded(world.errorHandler(), [&] {
    const detail::Json json = detail::parse(text);
    detail::worldWithSettings(json); // the file's settings must be valid even if unused
    SceneInfo read;
    // A dry run into an empty world with the same settings finds any error before the
    // real one starts, so a bad file leaves `world` as it was. (Nothing in a file
    // refers to what the world had before, so what passes there passes here.)
    World scratch(world.settings());
    detail::readInto(scratch, json, read);
    SceneObjects objects = detail::readInto(world, json, read);
    if (info) *info = read;
    return objects;
}); }

LoadedScene loadScene(std::string_view text, const ErrorHandler& onError) {
    LoadedScene scene = detail::guarded(onError, [&] { return loadScene(text); });
    scene.world.setErrorHandler(onError);
    return scene;
}

std::string readTextFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error("file", path, "cannot be opened for reading");
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

void writeTextFile(const std::string& path, std::string_view text) {
    std::ofstream out(path, std::ios::binary);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    if (!out) throw Error("file", path, "cannot be written");
}

std::string readTextFile(const std::string& path, const ErrorHandler& onError) {
    return detail::guarded(onError, [&] { return readTextFile(path); });
}

void writeTextFile(const std::string& path, std::string_view text, const ErrorHandler& onError) {
    detail::guarded(onError, [&] { writeTextFile(path, text); });
}

} // namespace jounce
