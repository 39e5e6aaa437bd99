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
    vNormal = transpose(inverse(mat3(model))) * normal;
    vColor = color;
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
    if (dot(n, v) < 0.0) n = -n;
    vec3 base = pow(vColor.rgb, vec3(2.2));
    float key = max(dot(n, lightDir), 0.0);
    float hemi = 0.5 + 0.5 * n.y;
    float rim = pow(1.0 - max(dot(n, v), 0.0), 3.0);
    vec3 h = normalize(lightDir + v);
    float spec = pow(max(dot(n, h), 0.0), 40.0) * 0.18;
    vec3 lit = base * (0.16 + 0.26 * hemi + 0.72 * key) + vec3(spec) + base * rim * 0.25;
    outColor = vec4(pow(lit, vec3(1.0 / 2.2)), vColor.a);
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
