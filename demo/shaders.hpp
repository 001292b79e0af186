// SPDX-License-Identifier: MIT
#pragma once
/// \file shaders.hpp
/// GLSL 3.30 sources. Scene colours are linear RGB (scene.hpp), so both programs
/// light in linear space and encode to sRGB (gamma 2.2) as their last step.

namespace jounce::demo::shaders {

/// Instanced unit mesh: each instance carries position, orientation quaternion
/// (x, y, z, w), per-axis scale and colour. Scaling happens before the rotation, so
/// normals take the inverse scale, which is exact for that order.
inline constexpr const char* kMeshVertex = R"(#version 330 core
layout(location = 0) in vec3 aPosition;
layout(location = 1) in vec3 aNormal;
layout(location = 2) in vec3 iPosition;
layout(location = 3) in vec4 iOrientation;
layout(location = 4) in vec3 iScale;
layout(location = 5) in vec3 iColour;

uniform mat4 uViewProjection;

out vec3 vWorld;
out vec3 vNormal;
out vec3 vColour;

vec3 rotate(vec4 q, vec3 v) {
    vec3 t = 2.0 * cross(q.xyz, v);
    return v + q.w * t + cross(q.xyz, t);
}

void main() {
    vec3 world = iPosition + rotate(iOrientation, aPosition * iScale);
    vWorld = world;
    vNormal = rotate(iOrientation, aNormal / iScale);
    vColour = iColour;
    gl_Position = uViewProjection * vec4(world, 1.0);
}
)";

/// Lambert from one sun, a sky/ground hemisphere ambient and a Blinn-Phong
/// highlight. Back faces (planes seen from below) light as their flip side.
inline constexpr const char* kMeshFragment = R"(#version 330 core
in vec3 vWorld;
in vec3 vNormal;
in vec3 vColour;

uniform vec3 uEye;
uniform vec3 uLightDirection;

out vec4 fragColour;

void main() {
    vec3 n = normalize(vNormal);
    if (!gl_FrontFacing) n = -n;
    vec3 l = uLightDirection;
    vec3 v = normalize(uEye - vWorld);
    vec3 h = normalize(l + v);

    float diffuse = max(dot(n, l), 0.0);
    vec3 ambient = mix(vec3(0.05, 0.045, 0.04), vec3(0.16, 0.18, 0.22), 0.5 + 0.5 * n.y);
    float specular = diffuse > 0.0 ? 0.25 * pow(max(dot(n, h), 0.0), 48.0) : 0.0;

    vec3 linear = vColour * (ambient + 0.9 * diffuse) + vec3(specular);
    fragColour = vec4(pow(clamp(linear, 0.0, 1.0), vec3(1.0 / 2.2)), 1.0);
}
)";

inline constexpr const char* kLineVertex = R"(#version 330 core
layout(location = 0) in vec3 aPosition;
layout(location = 1) in vec3 aColour;

uniform mat4 uViewProjection;

out vec3 vColour;

void main() {
    vColour = aColour;
    gl_Position = uViewProjection * vec4(aPosition, 1.0);
}
)";

inline constexpr const char* kLineFragment = R"(#version 330 core
in vec3 vColour;
out vec4 fragColour;

void main() {
    fragColour = vec4(pow(clamp(vColour, 0.0, 1.0), vec3(1.0 / 2.2)), 1.0);
}
)";

} // namespace jounce::demo::shaders
