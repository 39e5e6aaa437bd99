//! The three-d side of the viewport: programs, the GPU copies of the body meshes and of the
//! debug templates, and the instance buffers of the current draw list. It renders into any
//! three-d render target: eframe's framebuffer in the app, a texture in benches.

use super::draw_list::{DrawList, Instance, LineVertex, Style, TEMPLATES, Template};
use super::shaders;
use crate::app::render_mesh::RenderMesh;
use crate::app::state::catalog::BodyCatalog;
use crate::geom::{Point3, TriMesh};
use eframe::glow::{self, HasContext as _};
use std::collections::HashMap;
use std::sync::Arc;
use three_d::{
    Blend, Context, Cull, DepthTest, ElementBuffer, InstanceBuffer, Mat4, Program, RenderStates,
    ScissorBox, Vec3, VertexBuffer, Viewport, WriteMask,
};

/// What changes per frame of the UI: the camera and where to draw.
#[derive(Clone, Copy, Debug)]
pub struct FrameParams {
    /// Column-major view-projection matrix.
    pub view_projection: [[f32; 4]; 4],
    pub eye: [f32; 3],
    /// Unit vector towards the key light.
    pub light_dir: [f32; 3],
    pub viewport: Viewport,
    pub scissor: ScissorBox,
    pub clear: [f32; 4],
}

struct GpuMesh {
    positions: VertexBuffer<[f32; 3]>,
    normals: VertexBuffer<[f32; 3]>,
    indices: ElementBuffer<u32>,
    edge_positions: VertexBuffer<[f32; 3]>,
    wire: ElementBuffer<u32>,
    outline: ElementBuffer<u32>,
}

impl GpuMesh {
    fn new(ctx: &Context, m: &RenderMesh) -> Self {
        Self {
            positions: VertexBuffer::new_with_data(ctx, &m.positions),
            normals: VertexBuffer::new_with_data(ctx, &m.normals),
            indices: ElementBuffer::new_with_data(ctx, &m.indices),
            edge_positions: VertexBuffer::new_with_data(ctx, &m.edge_positions),
            wire: ElementBuffer::new_with_data(ctx, &m.wire_edges),
            outline: ElementBuffer::new_with_data(ctx, &m.outline_edges),
        }
    }
}

struct InstanceSet {
    rows: [InstanceBuffer<[f32; 4]>; 3],
    color: InstanceBuffer<[f32; 4]>,
    count: u32,
}

impl InstanceSet {
    fn new(ctx: &Context, instances: &[Instance]) -> Option<Self> {
        if instances.is_empty() {
            return None;
        }
        let row = |k: usize| -> Vec<[f32; 4]> { instances.iter().map(|i| i.rows[k]).collect() };
        let colors: Vec<[f32; 4]> = instances.iter().map(|i| i.color).collect();
        Some(Self {
            rows: [
                InstanceBuffer::new_with_data(ctx, &row(0)),
                InstanceBuffer::new_with_data(ctx, &row(1)),
                InstanceBuffer::new_with_data(ctx, &row(2)),
            ],
            color: InstanceBuffer::new_with_data(ctx, &colors),
            count: instances.len() as u32,
        })
    }

    fn bind(&self, program: &Program) {
        program.use_instance_attribute("row0", &self.rows[0]);
        program.use_instance_attribute("row1", &self.rows[1]);
        program.use_instance_attribute("row2", &self.rows[2]);
        program.use_instance_attribute("color", &self.color);
    }
}

struct LineSet {
    positions: VertexBuffer<[f32; 3]>,
    colors: VertexBuffer<[f32; 4]>,
    count: u32,
}

impl LineSet {
    fn new(ctx: &Context, lines: &[LineVertex]) -> Option<Self> {
        if lines.is_empty() {
            return None;
        }
        let p: Vec<[f32; 3]> = lines.iter().map(|v| v.position).collect();
        let c: Vec<[f32; 4]> = lines.iter().map(|v| v.color).collect();
        Some(Self {
            positions: VertexBuffer::new_with_data(ctx, &p),
            colors: VertexBuffer::new_with_data(ctx, &c),
            count: lines.len() as u32,
        })
    }
}

struct PointSet {
    centers: InstanceBuffer<[f32; 3]>,
    sizes: InstanceBuffer<f32>,
    colors: InstanceBuffer<[f32; 4]>,
    count: u32,
}

#[derive(Default)]
struct BatchSets {
    mesh: usize,
    solid: Option<InstanceSet>,
    translucent: Option<InstanceSet>,
    wire: Option<InstanceSet>,
    outline: Option<InstanceSet>,
    xray: Option<InstanceSet>,
}

/// The draw list as uploaded; kept while the same list is shown.
#[derive(Default)]
struct Uploaded {
    list: Option<Arc<DrawList>>,
    batches: Vec<BatchSets>,
    volumes: Vec<((Template, Style), InstanceSet)>,
    lines: Option<LineSet>,
    lines_on_top: Option<LineSet>,
    points: Option<PointSet>,
}

/// A template as triangles (solid styles) and as indexed edges (wire styles): indexed, so a
/// software rasteriser shades each corner of a box once, not three times.
struct TemplateMesh {
    solid: GpuMesh,
    wire: VertexBuffer<[f32; 3]>,
    wire_indices: ElementBuffer<u32>,
}

/// Shares the endpoints of a segment list: (distinct points, index pairs).
fn index_segments(segments: &[[f32; 3]]) -> (Vec<[f32; 3]>, Vec<u32>) {
    let mut points: Vec<[f32; 3]> = Vec::new();
    let mut seen: HashMap<[u32; 3], u32> = HashMap::new();
    let indices = segments
        .iter()
        .map(|p| {
            *seen.entry(p.map(f32::to_bits)).or_insert_with(|| {
                points.push(*p);
                (points.len() - 1) as u32
            })
        })
        .collect();
    (points, indices)
}

pub struct GpuRenderer {
    ctx: Context,
    mesh_program: Program,
    instanced_lines: Program,
    lines: Program,
    points: Program,
    point_corners: VertexBuffer<[f32; 2]>,
    templates: HashMap<Template, TemplateMesh>,
    meshes: Vec<GpuMesh>,
    meshes_generation: u64,
    uploaded: Uploaded,
}

fn program(ctx: &Context, vs: &str, fs: &str, name: &str) -> Result<Program, String> {
    Program::from_source(ctx, vs, fs)
        .map_err(|e| format!("the {name} shader does not compile: {e}"))
}

fn circle(axis: usize, segments: usize, out: &mut Vec<[f32; 3]>) {
    for i in 0..segments {
        let at = |k: usize| {
            let a = k as f32 / segments as f32 * std::f32::consts::TAU;
            let (s, c) = a.sin_cos();
            match axis {
                0 => [0.0, c, s],
                1 => [c, 0.0, s],
                _ => [c, s, 0.0],
            }
        };
        out.push(at(i));
        out.push(at(i + 1));
    }
}

fn template_geometry(t: Template) -> (TriMesh, Vec<[f32; 3]>) {
    let p = |x: f64, y: f64, z: f64| Point3::new(x, y, z);
    let mut wire = Vec::new();
    let mesh = match t {
        Template::Cube => {
            let poly = crate::geom::ConvexPolyhedron::cuboid(crate::geom::Vec3::repeat(1.0));
            for [a, b] in &poly.edges {
                let (a, b) = (poly.vertices[*a as usize], poly.vertices[*b as usize]);
                wire.push([a.x as f32, a.y as f32, a.z as f32]);
                wire.push([b.x as f32, b.y as f32, b.z as f32]);
            }
            TriMesh {
                vertices: poly.vertices.clone(),
                triangles: poly.triangles(),
            }
        }
        Template::Sphere => {
            for axis in 0..3 {
                circle(axis, 48, &mut wire);
            }
            crate::world::procedural::icosphere(1.0, 2)
        }
        Template::Cone => {
            let n = 20u32;
            let mut vertices = vec![p(0.0, 1.0, 0.0), p(0.0, 0.0, 0.0)];
            let mut triangles = Vec::new();
            for i in 0..n {
                let a = i as f64 / n as f64 * std::f64::consts::TAU;
                vertices.push(p(a.cos(), 0.0, a.sin()));
                let (j, k) = (2 + i, 2 + (i + 1) % n);
                triangles.push([0, k, j]);
                triangles.push([1, j, k]);
            }
            circle(1, n as usize, &mut wire);
            for k in 0..4 {
                let a = k as f32 / 4.0 * std::f32::consts::TAU;
                wire.push([a.cos(), 0.0, a.sin()]);
                wire.push([0.0, 1.0, 0.0]);
            }
            TriMesh {
                vertices,
                triangles,
            }
        }
        Template::Quad => {
            let c = [[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]];
            for k in 0..4 {
                let (a, b) = (c[k], c[(k + 1) % 4]);
                wire.push([a[0], 0.0, a[1]]);
                wire.push([b[0], 0.0, b[1]]);
            }
            TriMesh {
                vertices: c.iter().map(|q| p(q[0] as f64, 0.0, q[1] as f64)).collect(),
                triangles: vec![[0, 2, 1], [0, 3, 2]],
            }
        }
        Template::Triangle => {
            let c = [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]];
            for k in 0..3 {
                let (a, b) = (c[k], c[(k + 1) % 3]);
                wire.push([a[0], a[1], 0.0]);
                wire.push([b[0], b[1], 0.0]);
            }
            TriMesh {
                vertices: c.iter().map(|q| p(q[0] as f64, q[1] as f64, 0.0)).collect(),
                triangles: vec![[0, 1, 2]],
            }
        }
    };
    (mesh, wire)
}

const OPAQUE: RenderStates = RenderStates {
    write_mask: WriteMask::COLOR_AND_DEPTH,
    depth_test: DepthTest::Less,
    blend: Blend::Disabled,
    cull: Cull::None,
};

const BLENDED_LINES: RenderStates = RenderStates {
    write_mask: WriteMask::COLOR_AND_DEPTH,
    depth_test: DepthTest::LessOrEqual,
    blend: Blend::TRANSPARENCY,
    cull: Cull::None,
};

/// Blended over what is drawn, without hiding what comes after.
const TRANSLUCENT: RenderStates = RenderStates {
    write_mask: WriteMask::COLOR,
    depth_test: DepthTest::Less,
    blend: Blend::TRANSPARENCY,
    cull: Cull::None,
};

const ON_TOP: RenderStates = RenderStates {
    write_mask: WriteMask::COLOR,
    depth_test: DepthTest::Always,
    blend: Blend::TRANSPARENCY,
    cull: Cull::None,
};

fn mat4(m: &[[f32; 4]; 4]) -> Mat4 {
    Mat4::from(*m)
}

impl GpuRenderer {
    pub fn new(gl: Arc<glow::Context>) -> Result<Self, String> {
        let ctx = Context::from_gl_context(gl)
            .map_err(|e| format!("three-d cannot use the GL context: {e}"))?;
        let mut templates = HashMap::new();
        for t in TEMPLATES {
            let (mesh, segments) = template_geometry(t);
            let (points, indices) = index_segments(&segments);
            templates.insert(
                t,
                TemplateMesh {
                    solid: GpuMesh::new(&ctx, &RenderMesh::from_trimesh(&mesh)),
                    wire: VertexBuffer::new_with_data(&ctx, &points),
                    wire_indices: ElementBuffer::new_with_data(&ctx, &indices),
                },
            );
        }
        Ok(Self {
            mesh_program: program(&ctx, shaders::MESH_VS, shaders::MESH_FS, "mesh")?,
            instanced_lines: program(
                &ctx,
                shaders::INSTANCED_LINES_VS,
                shaders::FLAT_FS,
                "instanced line",
            )?,
            lines: program(&ctx, shaders::LINES_VS, shaders::FLAT_FS, "line")?,
            points: program(&ctx, shaders::POINTS_VS, shaders::POINTS_FS, "point")?,
            point_corners: VertexBuffer::new_with_data(
                &ctx,
                &[
                    [-1.0f32, -1.0],
                    [1.0, -1.0],
                    [1.0, 1.0],
                    [-1.0, -1.0],
                    [1.0, 1.0],
                    [-1.0, 1.0],
                ],
            ),
            templates,
            meshes: Vec::new(),
            meshes_generation: 0,
            uploaded: Uploaded::default(),
            ctx,
        })
    }

    pub fn context(&self) -> &Context {
        &self.ctx
    }

    /// Uploads the catalog's meshes when the catalog changed.
    pub fn sync_meshes(&mut self, catalog: &BodyCatalog) {
        if self.meshes_generation == catalog.generation {
            return;
        }
        self.meshes = catalog
            .meshes
            .iter()
            .map(|m| GpuMesh::new(&self.ctx, m))
            .collect();
        self.meshes_generation = catalog.generation;
        self.uploaded = Uploaded::default();
    }

    /// Uploads the draw list's instances unless this very list is already on the GPU.
    fn upload(&mut self, list: &Arc<DrawList>) {
        if self
            .uploaded
            .list
            .as_ref()
            .is_some_and(|l| Arc::ptr_eq(l, list))
        {
            return;
        }
        let ctx = &self.ctx;
        let batches = list
            .meshes
            .iter()
            .filter(|b| b.mesh < self.meshes.len())
            .map(|b| BatchSets {
                mesh: b.mesh,
                solid: InstanceSet::new(ctx, &b.solid),
                translucent: InstanceSet::new(ctx, &b.translucent),
                wire: InstanceSet::new(ctx, &b.wire),
                outline: InstanceSet::new(ctx, &b.outline),
                xray: InstanceSet::new(ctx, &b.xray),
            })
            .collect();
        let volumes = list
            .volumes
            .iter()
            .filter_map(|(k, v)| InstanceSet::new(ctx, v).map(|s| (*k, s)))
            .collect();
        let points = (!list.points.is_empty()).then(|| {
            let c: Vec<[f32; 3]> = list.points.iter().map(|p| p.position).collect();
            let s: Vec<f32> = list.points.iter().map(|p| p.size_px).collect();
            let col: Vec<[f32; 4]> = list.points.iter().map(|p| p.color).collect();
            PointSet {
                centers: InstanceBuffer::new_with_data(ctx, &c),
                sizes: InstanceBuffer::new_with_data(ctx, &s),
                colors: InstanceBuffer::new_with_data(ctx, &col),
                count: c.len() as u32,
            }
        });
        self.uploaded = Uploaded {
            list: Some(list.clone()),
            batches,
            volumes,
            lines: LineSet::new(ctx, &list.lines),
            lines_on_top: LineSet::new(ctx, &list.lines_on_top),
            points,
        };
    }

    /// Draws the list; the render target (framebuffer) must be bound by the caller.
    pub fn render(&mut self, list: &Arc<DrawList>, p: &FrameParams) {
        self.upload(list);
        self.clear(p);
        let vp = mat4(&p.view_projection);
        self.opaque_pass(vp, p);
        self.edge_pass(vp, p.viewport);
        self.point_pass(vp, p.viewport);
        self.translucent_pass(vp, p);
        self.on_top_pass(vp, p.viewport);
    }

    fn clear(&self, p: &FrameParams) {
        let ctx = &self.ctx;
        ctx.set_scissor(p.scissor);
        unsafe {
            // egui_glow paints in sRGB-encoded space itself: our colours are sRGB already.
            ctx.disable(glow::FRAMEBUFFER_SRGB);
            ctx.enable(glow::SCISSOR_TEST);
            ctx.color_mask(true, true, true, true);
            ctx.depth_mask(true);
            ctx.clear_color(p.clear[0], p.clear[1], p.clear[2], p.clear[3]);
            ctx.clear_depth_f32(1.0);
            ctx.clear(glow::COLOR_BUFFER_BIT | glow::DEPTH_BUFFER_BIT);
        }
    }

    fn mesh_uniforms(&self, vp: Mat4, p: &FrameParams) {
        let prog = &self.mesh_program;
        prog.use_uniform("viewProjection", vp);
        prog.use_uniform_if_required("eye", Vec3::from(p.eye));
        prog.use_uniform_if_required("lightDir", Vec3::from(p.light_dir));
    }

    fn line_uniforms(prog: &Program, vp: Mat4, bias: f32) {
        prog.use_uniform("viewProjection", vp);
        prog.use_uniform_if_required("depthBias", bias);
    }

    /// 1. Opaque surfaces, pushed back a little so edges drawn on them win the depth test.
    fn opaque_pass(&self, vp: Mat4, p: &FrameParams) {
        unsafe {
            self.ctx.enable(glow::POLYGON_OFFSET_FILL);
            self.ctx.polygon_offset(1.0, 1.0);
        }
        self.mesh_uniforms(vp, p);
        for b in &self.uploaded.batches {
            if let Some(set) = &b.solid {
                self.draw_mesh(&self.meshes[b.mesh], set, OPAQUE, p.viewport);
            }
        }
        for ((t, style), set) in &self.uploaded.volumes {
            if *style == Style::Solid {
                self.draw_mesh(&self.templates[t].solid, set, OPAQUE, p.viewport);
            }
        }
        unsafe {
            self.ctx.disable(glow::POLYGON_OFFSET_FILL);
        }
    }

    /// 2. Edges and lines, depth-tested.
    fn edge_pass(&self, vp: Mat4, viewport: Viewport) {
        Self::line_uniforms(&self.instanced_lines, vp, 0.00015);
        for b in &self.uploaded.batches {
            let mesh = &self.meshes[b.mesh];
            if let Some(set) = &b.wire {
                self.draw_edges(mesh, &mesh.wire, set, BLENDED_LINES, viewport);
            }
            if let Some(set) = &b.outline {
                self.draw_edges(mesh, &mesh.outline, set, BLENDED_LINES, viewport);
            }
        }
        for ((t, style), set) in &self.uploaded.volumes {
            if *style == Style::Wire {
                self.draw_template_wire(&self.templates[t], set, BLENDED_LINES, viewport);
            }
        }
        if let Some(lines) = &self.uploaded.lines {
            Self::line_uniforms(&self.lines, vp, 0.00015);
            self.draw_lines(lines, BLENDED_LINES, viewport);
        }
    }

    /// 3. Points.
    fn point_pass(&self, vp: Mat4, viewport: Viewport) {
        let Some(points) = &self.uploaded.points else {
            return;
        };
        let prog = &self.points;
        prog.use_uniform("viewProjection", vp);
        prog.use_uniform(
            "viewportSize",
            three_d::Vec2::new(viewport.width.max(1) as f32, viewport.height.max(1) as f32),
        );
        prog.use_vertex_attribute("corner", &self.point_corners);
        prog.use_instance_attribute("center", &points.centers);
        prog.use_instance_attribute("size", &points.sizes);
        prog.use_instance_attribute("color", &points.colors);
        let g = self.ctx.clone();
        prog.draw_with(BLENDED_LINES, viewport, move || unsafe {
            g.draw_arrays_instanced(glow::TRIANGLES, 0, 6, points.count as i32);
        });
    }

    /// 4. Translucent surfaces: ghosts of faded bodies, filled volumes.
    fn translucent_pass(&self, vp: Mat4, p: &FrameParams) {
        self.mesh_uniforms(vp, p);
        for b in &self.uploaded.batches {
            if let Some(set) = &b.translucent {
                self.draw_mesh(&self.meshes[b.mesh], set, TRANSLUCENT, p.viewport);
            }
        }
        for ((t, style), set) in &self.uploaded.volumes {
            if *style == Style::Translucent {
                self.draw_mesh(&self.templates[t].solid, set, TRANSLUCENT, p.viewport);
            }
        }
    }

    /// 5. On top of everything: x-ray selection and the current event's results.
    fn on_top_pass(&self, vp: Mat4, viewport: Viewport) {
        Self::line_uniforms(&self.instanced_lines, vp, 0.0);
        for b in &self.uploaded.batches {
            if let Some(set) = &b.xray {
                let mesh = &self.meshes[b.mesh];
                self.draw_edges(mesh, &mesh.wire, set, ON_TOP, viewport);
            }
        }
        for ((t, style), set) in &self.uploaded.volumes {
            if *style == Style::WireOnTop {
                self.draw_template_wire(&self.templates[t], set, ON_TOP, viewport);
            }
        }
        if let Some(lines) = &self.uploaded.lines_on_top {
            Self::line_uniforms(&self.lines, vp, 0.0);
            self.draw_lines(lines, ON_TOP, viewport);
        }
    }

    fn draw_mesh(
        &self,
        mesh: &GpuMesh,
        set: &InstanceSet,
        states: RenderStates,
        viewport: Viewport,
    ) {
        let prog = &self.mesh_program;
        prog.use_vertex_attribute("position", &mesh.positions);
        prog.use_vertex_attribute("normal", &mesh.normals);
        set.bind(prog);
        prog.draw_elements_instanced(states, viewport, &mesh.indices, set.count);
    }

    fn draw_edges(
        &self,
        mesh: &GpuMesh,
        edges: &ElementBuffer<u32>,
        set: &InstanceSet,
        states: RenderStates,
        viewport: Viewport,
    ) {
        if edges.count() == 0 {
            return;
        }
        let prog = &self.instanced_lines;
        prog.use_vertex_attribute("position", &mesh.edge_positions);
        set.bind(prog);
        let (g, n, instances) = (self.ctx.clone(), edges.count() as i32, set.count as i32);
        prog.draw_elements_with(states, viewport, edges, move || unsafe {
            g.draw_elements_instanced(glow::LINES, n, glow::UNSIGNED_INT, 0, instances);
        });
    }

    fn draw_template_wire(
        &self,
        t: &TemplateMesh,
        set: &InstanceSet,
        states: RenderStates,
        viewport: Viewport,
    ) {
        let prog = &self.instanced_lines;
        prog.use_vertex_attribute("position", &t.wire);
        set.bind(prog);
        let (g, n, instances) = (
            self.ctx.clone(),
            t.wire_indices.count() as i32,
            set.count as i32,
        );
        prog.draw_elements_with(states, viewport, &t.wire_indices, move || unsafe {
            g.draw_elements_instanced(glow::LINES, n, glow::UNSIGNED_INT, 0, instances);
        });
    }

    fn draw_lines(&self, lines: &LineSet, states: RenderStates, viewport: Viewport) {
        let prog = &self.lines;
        prog.use_vertex_attribute("position", &lines.positions);
        prog.use_vertex_attribute("color", &lines.colors);
        let (g, n) = (self.ctx.clone(), lines.count as i32);
        prog.draw_with(states, viewport, move || unsafe {
            g.draw_arrays(glow::LINES, 0, n);
        });
    }
}
