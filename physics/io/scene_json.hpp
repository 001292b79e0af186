// SPDX-License-Identifier: MIT
#pragma once
// The JSON side of scene files (scene_file.hpp), private to the library: the JSON type,
// the writers for Jounce's math types, and the Reader that walks a file object by
// object, names every value by its JSON path and refuses fields nobody asked for.

#include <jounce/common/error.hpp>
#include <jounce/common/math.hpp>
#include <jounce/io/scene_file.hpp>

#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <set>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace jounce::detail {

/// Keys in the order they were written (so an export reads as the Descs are laid out),
/// numbers stored as `real` (so a float build writes floats' shortest round-trip text).
using Json = nlohmann::basic_json<nlohmann::ordered_map, std::vector, std::string, bool, std::int64_t,
                                  std::uint64_t, real>;

// ---- Writing ------------------------------------------------------------------------

inline Json toJson(const Vec3& v) { return Json::array({v.x(), v.y(), v.z()}); }
/// Quaternions as [w, x, y, z], the order of Eigen's constructor.
inline Json toJson(const Quat& q) { return Json::array({q.w(), q.x(), q.y(), q.z()}); }
/// Matrices as three rows.
inline Json toJson(const Mat3& m) {
    Json rows = Json::array();
    for (int r = 0; r < 3; ++r) rows.push_back(Json::array({m(r, 0), m(r, 1), m(r, 2)}));
    return rows;
}

/// An enum's names in the file, in the enum's order.
template <typename E> using EnumNames = std::span<const std::pair<E, const char*>>;

template <typename E> Json enumJson(E value, EnumNames<E> names) {
    for (const auto& [e, name] : names)
        if (e == value) return name;
    return static_cast<int>(value); // not reached: every enumerator has a name
}

/// JSON text with short arrays of numbers kept on one line ([0, 1.5, 0]), so a file
/// of a thousand bodies stays readable and small; everything else indented by two.
std::string printJson(const Json& j);

// ---- Reading ------------------------------------------------------------------------

/// The text errors show for a JSON value (shortened when long).
std::string valueText(const Json& j);
[[noreturn]] void fail(const std::string& path, const Json& value, const std::string& rule);
/// An API error raised while building `path`'s object, re-thrown naming the JSON path:
/// the Desc's name (up to the first '.') is replaced by the path.
[[noreturn]] void rethrowAt(const Error& e, const std::string& path);

void read(const Json& j, const std::string& path, real& out);
void read(const Json& j, const std::string& path, int& out);
void read(const Json& j, const std::string& path, bool& out);
void read(const Json& j, const std::string& path, std::uint32_t& out);
void read(const Json& j, const std::string& path, std::uint64_t& out);
void read(const Json& j, const std::string& path, std::string& out);
void read(const Json& j, const std::string& path, Vec3& out);
void read(const Json& j, const std::string& path, Quat& out);
void read(const Json& j, const std::string& path, Mat3& out);
// Records read with their own field lists (scene_load.cpp); declared here so the
// Reader's containers find them.
void read(const Json& j, const std::string& path, Shape& out);
void read(const Json& j, const std::string& path, ColliderDesc& out);
void read(const Json& j, const std::string& path, OrientedParticleDesc& out);
void read(const Json& j, const std::string& path, DeformableHandleDesc& out);

template <typename E> void readEnum(const Json& j, const std::string& path, E& out, EnumNames<E> names) {
    std::string text;
    read(j, path, text);
    for (const auto& [e, name] : names)
        if (text == name) {
            out = e;
            return;
        }
    std::string known;
    for (const auto& entry : names) known += std::string(known.empty() ? "" : ", ") + entry.second;
    fail(path, j, "not one of " + known);
}

/// The array at `j` (an error naming `path` otherwise).
const Json& requireArray(const Json& j, const std::string& path);
inline std::string itemPath(const std::string& path, std::size_t i) { return path + "[" + std::to_string(i) + "]"; }

/// One JSON object being read: each field is taken by name (missing: the default
/// stays), and finish() rejects the fields nobody took, so a typo is an error. Fields
/// that name other objects (a body, a particle) hold their index in the file, looked
/// up in `objects` (what the file created so far).
class Reader {
public:
    Reader(const Json& j, std::string path, const SceneObjects* objects = nullptr);
    const std::string& path() const { return path_; }
    std::string pathOf(const char* key) const { return path_.empty() ? key : path_ + "." + key; }
    bool has(const char* key) const { return j_.contains(key); }
    /// The field's JSON (marks it as read); null when missing.
    const Json& field(const char* key);

    /// The field list of a struct (scene_fields.hpp) calls these for each field.
    template <typename T> void operator()(const char* key, T& out) {
        if (has(key)) load(field(key), pathOf(key), out);
    }
    template <typename E> void enumeration(const char* key, E& out, EnumNames<E> names) {
        if (has(key)) readEnum(field(key), pathOf(key), out, names);
    }
    /// A nested object, read with its own field list.
    template <typename T> void object(const char* key, T& out) {
        if (!has(key)) return;
        Reader inner(field(key), pathOf(key), objects_);
        fields(inner, out);
        inner.finish();
    }
    void requireKey(const char* key) const;
    void finish() const;

    // Values: scalars and math types (read), references, and containers of them.
    template <typename T> void load(const Json& j, const std::string& path, T& out) const { read(j, path, out); }
    void load(const Json& j, const std::string& path, BodyId& out) const;
    void load(const Json& j, const std::string& path, ParticleId& out) const;
    template <typename T, std::size_t N> void load(const Json& j, const std::string& path, std::array<T, N>& out) const {
        if (!j.is_array() || j.size() != N) fail(path, j, "must be an array of " + std::to_string(N));
        for (std::size_t i = 0; i < N; ++i) load(j[i], itemPath(path, i), out[i]);
    }
    template <typename T> void load(const Json& j, const std::string& path, std::vector<T>& out) const {
        requireArray(j, path);
        out.resize(j.size());
        for (std::size_t i = 0; i < j.size(); ++i) load(j[i], itemPath(path, i), out[i]);
    }

private:
    const Json& j_;
    std::string path_;
    const SceneObjects* objects_;
    std::set<std::string> taken_;
};

} // namespace jounce::detail
