//! GLSL for the viewport (three-d prepends the `#version` line). Instances carry the first
//! three rows of their 4×4 placement and a colour; colours are sRGB and lit in linear space.

pub const MESH_VS: &str = r#"
uniform mat4 viewProjection;
in vec3 position;
in vec3 normal;
in vec4 row0;
in vec4 row1;
in vec4 row2;
in vec4 color;
out vec3 vNormal;
out vec3 vWorld;
out vec4 vColor;
void main() {
    mat4 model = transpose(mat4(row0, row1, row2, vec4(0.0, 0.0, 0.0, 1.0)));
    vec4 world = model * vec4(position, 1.0);
    vWorld = world.xyz;
    // The cofactor matrix is the inverse transpose up to a positive factor (placements have
    // positive scales), and cheaper; the fragment shader normalises.
    mat3 m = mat3(model);
    vNormal = mat3(cross(m[1], m[2]), cross(m[2], m[0]), cross(m[0], m[1])) * normal;
    // sRGB to linear once per vertex (gamma 2), not per fragment: software GL is fill-bound.
    vColor = vec4(color.rgb * color.rgb, color.a);
    gl_Position = viewProjection * world;
}
"#;

pub const MESH_FS: &str = r#"
uniform vec3 eye;
uniform vec3 lightDir;
in vec3 vNormal;
in vec3 vWorld;
in vec4 vColor;
layout (location = 0) out vec4 outColor;
void main() {
    vec3 n = normalize(vNormal);
    vec3 v = normalize(eye - vWorld);
    // Lit from both sides: open meshes and inside-out hulls still read as surfaces.
    float nv = dot(n, v);
    if (nv < 0.0) { n = -n; nv = -nv; }
    float key = max(dot(n, lightDir), 0.0);
    float hemi = 0.5 + 0.5 * n.y;
    float r = 1.0 - nv;
    float rim = r * r * r;
    float s = max(dot(n, normalize(lightDir + v)), 0.0);
    s *= s; s *= s; s *= s; s *= s; s *= s; // s^32
    vec3 lit = vColor.rgb * (0.16 + 0.26 * hemi + 0.72 * key + 0.25 * rim) + vec3(0.18 * s);
    outColor = vec4(sqrt(lit), vColor.a);
}
"#;

pub const INSTANCED_LINES_VS: &str = r#"
uniform mat4 viewProjection;
uniform float depthBias;
in vec3 position;
in vec4 row0;
in vec4 row1;
in vec4 row2;
in vec4 color;
out vec4 vColor;
void main() {
    mat4 model = transpose(mat4(row0, row1, row2, vec4(0.0, 0.0, 0.0, 1.0)));
    vec4 clip = viewProjection * (model * vec4(position, 1.0));
    clip.z -= depthBias * clip.w;
    gl_Position = clip;
    vColor = color;
}
"#;

pub const LINES_VS: &str = r#"
uniform mat4 viewProjection;
uniform float depthBias;
in vec3 position;
in vec4 color;
out vec4 vColor;
void main() {
    vec4 clip = viewProjection * vec4(position, 1.0);
    clip.z -= depthBias * clip.w;
    gl_Position = clip;
    vColor = color;
}
"#;

pub const FLAT_FS: &str = r#"
in vec4 vColor;
layout (location = 0) out vec4 outColor;
void main() {
    outColor = vColor;
}
"#;

pub const POINTS_VS: &str = r#"
uniform mat4 viewProjection;
uniform vec2 viewportSize;
in vec2 corner;
in vec3 center;
in float size;
in vec4 color;
out vec4 vColor;
out vec2 vCorner;
void main() {
    vec4 clip = viewProjection * vec4(center, 1.0);
    clip.xy += corner * size / viewportSize * clip.w;
    clip.z -= 0.002 * clip.w;
    gl_Position = clip;
    vColor = color;
    vCorner = corner;
}
"#;

pub const POINTS_FS: &str = r#"
in vec4 vColor;
in vec2 vCorner;
layout (location = 0) out vec4 outColor;
void main() {
    float r = length(vCorner);
    if (r > 1.0) discard;
    float ring = smoothstep(0.62, 0.8, r);
    outColor = vec4(mix(vColor.rgb, vColor.rgb * 0.2, ring), vColor.a);
}
"#;
