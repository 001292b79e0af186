// SPDX-License-Identifier: MIT
#include "physics/io/scene_json.hpp"

#include <limits>

namespace jounce::detail {

// ---- Printing -----------------------------------------------------------------------

namespace {

/// Arrays of at most 4 scalars go on one line: vectors, quaternions, index pairs and
/// triples, a matrix's rows.
bool printsOnOneLine(const Json& j) {
    if (!j.is_array() || j.size() > 4) return false;
    for (const Json& e : j)
        if (e.is_structured()) return false;
    return true;
}

void print(const Json& j, int indent, std::string& out) {
    const std::string pad(static_cast<std::size_t>(indent + 2), ' ');
    if (j.is_object() && !j.empty()) {
        out += "{\n";
        std::size_t k = 0;
        for (const auto& [key, value] : j.items()) {
            out += pad + Json(key).dump() + ": ";
            print(value, indent + 2, out);
            out += ++k < j.size() ? ",\n" : "\n";
        }
        out += std::string(static_cast<std::size_t>(indent), ' ') + "}";
    } else if (j.is_array() && !j.empty() && !printsOnOneLine(j)) {
        out += "[\n";
        for (std::size_t i = 0; i < j.size(); ++i) {
            out += pad;
            print(j[i], indent + 2, out);
            out += i + 1 < j.size() ? ",\n" : "\n";
        }
        out += std::string(static_cast<std::size_t>(indent), ' ') + "]";
    } else if (j.is_array()) {
        out += "[";
        for (std::size_t i = 0; i < j.size(); ++i) out += (i ? ", " : "") + j[i].dump();
        out += "]";
    } else {
        out += j.dump();
    }
}

} // namespace

std::string printJson(const Json& j) {
    std::string out;
    print(j, 0, out);
    out += "\n";
    return out;
}

// ---- Reading ------------------------------------------------------------------------

std::string valueText(const Json& j) {
    std::string text = j.dump();
    if (text.size() > 60) text = text.substr(0, 57) + "...";
    return text;
}

void fail(const std::string& path, const Json& value, const std::string& rule) {
    throw Error(path, value.is_null() ? "missing" : valueText(value), rule);
}

void rethrowAt(const Error& e, const std::string& path) {
    const std::string& field = e.field();
    const std::size_t dot = field.find('.');
    std::string where = dot == std::string::npos ? path : path + field.substr(dot);
    // Shape checks name the shape's type ("colliders[0].Box.halfExtents"); in a file
    // that object is "shape".
    for (const char* type : {".Sphere.", ".Box.", ".Capsule.", ".Cylinder.", ".HalfSpace.", ".ConvexHull.", ".TriangleMesh."})
        if (const std::size_t at = where.find(type); at != std::string::npos)
            where.replace(at, std::string_view(type).size(), ".shape.");
    // what() is "jounce: <field> = <value>: <rule>"; keep the rule.
    const std::string prefix = "jounce: " + field + " = " + e.value() + ": ";
    const std::string what = e.what();
    throw Error(where, e.value(), what.rfind(prefix, 0) == 0 ? what.substr(prefix.size()) : what);
}

void read(const Json& j, const std::string& path, real& out) {
    if (!j.is_number()) fail(path, j, "must be a number");
    out = j.get<real>();
}

namespace {
/// A whole number within [lo, hi] (1.0 is not accepted: counts and indices are integers).
template <typename T> void readInteger(const Json& j, const std::string& path, T& out, long double lo, long double hi) {
    if (!j.is_number_integer()) fail(path, j, "must be a whole number");
    const long double v = j.is_number_unsigned() ? static_cast<long double>(j.get<std::uint64_t>())
                                                  : static_cast<long double>(j.get<std::int64_t>());
    if (v < lo || v > hi) fail(path, j, "out of range for this field");
    out = j.get<T>();
}
} // namespace

void read(const Json& j, const std::string& path, int& out) {
    readInteger(j, path, out, std::numeric_limits<int>::min(), std::numeric_limits<int>::max());
}
void read(const Json& j, const std::string& path, std::uint32_t& out) {
    readInteger(j, path, out, 0, std::numeric_limits<std::uint32_t>::max());
}
void read(const Json& j, const std::string& path, std::uint64_t& out) {
    readInteger(j, path, out, 0, static_cast<long double>(std::numeric_limits<std::uint64_t>::max()));
}

void read(const Json& j, const std::string& path, bool& out) {
    if (!j.is_boolean()) fail(path, j, "must be true or false");
    out = j.get<bool>();
}

void read(const Json& j, const std::string& path, std::string& out) {
    if (!j.is_string()) fail(path, j, "must be a string");
    out = j.get<std::string>();
}

namespace {
/// An array of exactly n numbers.
void readNumbers(const Json& j, const std::string& path, real* out, std::size_t n) {
    if (!j.is_array() || j.size() != n) fail(path, j, "must be an array of " + std::to_string(n) + " numbers");
    for (std::size_t i = 0; i < n; ++i) read(j[i], itemPath(path, i), out[i]);
}
} // namespace

void read(const Json& j, const std::string& path, Vec3& out) { readNumbers(j, path, out.data(), 3); }

void read(const Json& j, const std::string& path, Quat& out) {
    real wxyz[4];
    readNumbers(j, path, wxyz, 4);
    out = Quat(wxyz[0], wxyz[1], wxyz[2], wxyz[3]);
}

void read(const Json& j, const std::string& path, Mat3& out) {
    if (!j.is_array() || j.size() != 3) fail(path, j, "must be three rows of three numbers");
    for (int r = 0; r < 3; ++r) {
        Vec3 row;
        read(j[static_cast<std::size_t>(r)], itemPath(path, static_cast<std::size_t>(r)), row);
        out.row(r) = row.transpose();
    }
}

const Json& requireArray(const Json& j, const std::string& path) {
    if (!j.is_array()) fail(path, j, "must be an array");
    return j;
}

Reader::Reader(const Json& j, std::string path, const SceneObjects* objects)
    : j_(j), path_(std::move(path)), objects_(objects) {
    if (!j_.is_object()) fail(path_, j_, "must be an object");
}

namespace {
/// Entry `index` of the handles a file created so far (`what`: their array's name).
template <typename Id> Id lookUp(const Json& j, const std::string& path, const std::vector<Id>& created, const char* what) {
    std::uint32_t index = 0;
    read(j, path, index);
    if (index >= created.size())
        fail(path, j, std::string("no such entry: ") + what + " has " + std::to_string(created.size()));
    return created[index];
}
} // namespace

void Reader::load(const Json& j, const std::string& path, BodyId& out) const {
    out = j.is_null() ? BodyId{} : lookUp(j, path, objects_->bodies, "bodies");
}

void Reader::load(const Json& j, const std::string& path, ParticleId& out) const {
    out = lookUp(j, path, objects_->particles, "particles");
}

const Json& Reader::field(const char* key) {
    static const Json null;
    if (!has(key)) return null;
    taken_.insert(key);
    return j_.at(key);
}

void Reader::requireKey(const char* key) const {
    if (!has(key)) throw Error(pathOf(key), "missing", "this field is required");
}

void Reader::finish() const {
    for (const auto& [key, value] : j_.items())
        if (!taken_.contains(key)) fail(pathOf(key.c_str()), value, "unknown field (a typo?)");
}

} // namespace jounce::detail
