//! What the viewport draws, as plain data: built by the views from recorded frames and
//! events, handed to the GPU side as one `Arc`. Everything that can be many is instanced:
//! a box, a sphere, a point or a mesh costs one small record, so 100,000 boxes are 6 MB of
//! instance data and one draw call.

use nalgebra::{Matrix4, Point3, UnitQuaternion, Vector3};

/// sRGB colour with alpha, 0–1.
pub type Rgba = [f32; 4];

/// A placement: the first three rows of a 4×4 affine matrix (rotation·scale, translation).
pub type Rows = [[f32; 4]; 3];

pub fn rows_from(m: &Matrix4<f64>) -> Rows {
    let mut r = [[0.0f32; 4]; 3];
    for (i, row) in r.iter_mut().enumerate() {
        for (j, v) in row.iter_mut().enumerate() {
            *v = m[(i, j)] as f32;
        }
    }
    r
}

/// Rotation, then per-axis scale, then translation.
pub fn placement(
    center: &Point3<f64>,
    rotation: &UnitQuaternion<f64>,
    scale: &Vector3<f64>,
) -> Rows {
    let m = Matrix4::new_translation(&center.coords)
        * rotation.to_homogeneous()
        * Matrix4::new_nonuniform_scaling(scale);
    rows_from(&m)
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Instance {
    pub rows: Rows,
    pub color: Rgba,
}

/// Shapes every debug volume is drawn from (unit size: the instance scales them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Template {
    /// The cube [-1, 1]³.
    Cube,
    /// The unit sphere.
    Sphere,
    /// A cone of radius 1 from y = 0 to its tip at y = 1 (arrow heads).
    Cone,
    /// The square [-1, 1]² in the xz plane, facing +y (planes).
    Quad,
    /// The triangle (0,0,0), (1,0,0), (0,1,0): an affine placement maps it onto any triangle
    /// (columns b − a, c − a, the normal; translation a).
    Triangle,
}

pub const TEMPLATES: [Template; 5] = [
    Template::Cube,
    Template::Sphere,
    Template::Cone,
    Template::Quad,
    Template::Triangle,
];

/// How a group of instances is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Style {
    /// Lit and opaque.
    Solid,
    /// Lit, blended, not writing depth: volumes you see into.
    Translucent,
    /// Edges only, depth-tested.
    Wire,
    /// Edges seen through everything (a selection in an x-ray).
    WireOnTop,
}

/// Instances of one body display mesh (an index into the catalog's meshes).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MeshBatch {
    pub mesh: usize,
    pub solid: Vec<Instance>,
    pub translucent: Vec<Instance>,
    /// All non-flat edges (wireframe shading).
    pub wire: Vec<Instance>,
    /// Creases only, drawn over the solid (selection, focus).
    pub outline: Vec<Instance>,
    /// Non-flat edges drawn on top of everything (x-ray selection).
    pub xray: Vec<Instance>,
}

/// A point with a size in pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PointInstance {
    pub position: [f32; 3],
    pub size_px: f32,
    pub color: Rgba,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LineVertex {
    pub position: [f32; 3],
    pub color: Rgba,
}

/// A text label anchored at a world point (drawn by egui over the 3D view).
#[derive(Clone, Debug, PartialEq)]
pub struct Label {
    pub position: [f64; 3],
    pub text: String,
    pub color: Rgba,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct DrawList {
    /// Body meshes by catalog mesh index (catalog generation tells which catalog).
    pub meshes: Vec<MeshBatch>,
    pub catalog_generation: u64,
    /// Debug volumes: (template, style) -> instances.
    pub volumes: Vec<((Template, Style), Vec<Instance>)>,
    /// Free segments, two vertices each (grid, axes, arrows, event lines).
    pub lines: Vec<LineVertex>,
    /// Segments drawn over everything (the current event's result).
    pub lines_on_top: Vec<LineVertex>,
    pub points: Vec<PointInstance>,
    pub labels: Vec<Label>,
    /// Radius of the scene about the origin, for the depth range.
    pub scene_radius: f64,
}

impl DrawList {
    /// Nothing to draw (the scene radius alone draws nothing).
    pub fn is_empty(&self) -> bool {
        self.meshes.iter().all(|b| {
            [&b.solid, &b.translucent, &b.wire, &b.outline, &b.xray]
                .iter()
                .all(|i| i.is_empty())
        }) && self
            .volumes
            .iter()
            .all(|(_, instances)| instances.is_empty())
            && self.lines.is_empty()
            && self.lines_on_top.is_empty()
            && self.points.is_empty()
            && self.labels.is_empty()
    }

    pub fn batch(&mut self, mesh: usize) -> &mut MeshBatch {
        if self.meshes.len() <= mesh {
            self.meshes.resize_with(mesh + 1, MeshBatch::default);
        }
        let b = &mut self.meshes[mesh];
        b.mesh = mesh;
        b
    }

    pub fn volume(&mut self, template: Template, style: Style, instance: Instance) {
        let key = (template, style);
        // Volumes come in runs of one kind: look at the latest group first.
        let at = match self.volumes.last() {
            Some((k, _)) if *k == key => Some(self.volumes.len() - 1),
            _ => self.volumes.iter().position(|(k, _)| *k == key),
        };
        match at {
            Some(i) => self.volumes[i].1.push(instance),
            None => self.volumes.push((key, vec![instance])),
        }
    }

    pub fn line(&mut self, a: [f32; 3], b: [f32; 3], color: Rgba) {
        self.lines.push(LineVertex { position: a, color });
        self.lines.push(LineVertex { position: b, color });
    }

    pub fn line_on_top(&mut self, a: [f32; 3], b: [f32; 3], color: Rgba) {
        self.lines_on_top.push(LineVertex { position: a, color });
        self.lines_on_top.push(LineVertex { position: b, color });
    }

    /// An axis-aligned box given by its corners, as a wire (and optionally a translucent fill).
    pub fn aabb(&mut self, min: [f64; 3], max: [f64; 3], color: Rgba, fill: bool) {
        // Written out: no rotation, and BVH traces draw boxes by the hundred thousand.
        let mut rows = [[0.0f32; 4]; 3];
        for (i, row) in rows.iter_mut().enumerate() {
            row[i] = ((max[i] - min[i]) / 2.0) as f32;
            row[3] = ((min[i] + max[i]) / 2.0) as f32;
        }
        self.volume(Template::Cube, Style::Wire, Instance { rows, color });
        if fill {
            let fill_color = [color[0], color[1], color[2], color[3] * 0.18];
            self.volume(
                Template::Cube,
                Style::Translucent,
                Instance {
                    rows,
                    color: fill_color,
                },
            );
        }
    }

    pub fn boxed(
        &mut self,
        c: &Point3<f64>,
        r: &UnitQuaternion<f64>,
        half: &Vector3<f64>,
        color: Rgba,
        fill: bool,
    ) {
        let rows = placement(c, r, half);
        self.volume(Template::Cube, Style::Wire, Instance { rows, color });
        if fill {
            let fill_color = [color[0], color[1], color[2], color[3] * 0.18];
            self.volume(
                Template::Cube,
                Style::Translucent,
                Instance {
                    rows,
                    color: fill_color,
                },
            );
        }
    }

    /// A triangle drawn in a style (filled: `Solid` or `Translucent`; `Wire` for its edges).
    pub fn triangle(&mut self, [a, b, c]: [&Point3<f64>; 3], color: Rgba, style: Style) {
        let (u, v) = (b - a, c - a);
        let n = u.cross(&v);
        let Some(n) = n.try_normalize(1e-300) else {
            self.line(to_f32(a), to_f32(b), color);
            self.line(to_f32(b), to_f32(c), color);
            return;
        };
        let m = Matrix4::new(
            u.x, v.x, n.x, a.x, //
            u.y, v.y, n.y, a.y, //
            u.z, v.z, n.z, a.z, //
            0.0, 0.0, 0.0, 1.0,
        );
        let rows = rows_from(&m);
        self.volume(Template::Triangle, style, Instance { rows, color });
    }

    /// A thick, lit segment: a square bar `width` across, for what must not be missed.
    pub fn bar(&mut self, a: &Point3<f64>, b: &Point3<f64>, width: f64, color: Rgba) {
        let d = b - a;
        let len = d.norm();
        if !(len.is_finite() && width.is_finite()) {
            return;
        }
        let rot = UnitQuaternion::rotation_between(&Vector3::x(), &d).unwrap_or_else(|| {
            UnitQuaternion::from_axis_angle(&Vector3::z_axis(), std::f64::consts::PI)
        });
        let mid = a + d / 2.0;
        let half = Vector3::new(len / 2.0 + width / 2.0, width / 2.0, width / 2.0);
        let rows = placement(&mid, &rot, &half);
        self.volume(Template::Cube, Style::Solid, Instance { rows, color });
    }

    pub fn sphere(&mut self, c: &Point3<f64>, radius: f64, color: Rgba, fill: bool) {
        let rows = placement(c, &UnitQuaternion::identity(), &Vector3::repeat(radius));
        self.volume(Template::Sphere, Style::Wire, Instance { rows, color });
        if fill {
            let fill_color = [color[0], color[1], color[2], color[3] * 0.18];
            self.volume(
                Template::Sphere,
                Style::Translucent,
                Instance {
                    rows,
                    color: fill_color,
                },
            );
        }
    }

    /// A shaft and a cone head; the head is a fixed share of the length.
    pub fn arrow(&mut self, from: &Point3<f64>, vector: &Vector3<f64>, color: Rgba) {
        let len = vector.norm();
        if !(len > 1e-9) || !len.is_finite() {
            return;
        }
        let head = (len * 0.25).min(0.25);
        let dir = vector / len;
        let base = from + dir * (len - head);
        self.line(to_f32(from), to_f32(&base), color);
        let rot = UnitQuaternion::rotation_between(&Vector3::y(), &dir).unwrap_or_else(|| {
            UnitQuaternion::from_axis_angle(&Vector3::x_axis(), std::f64::consts::PI)
        });
        let rows = placement(&base, &rot, &Vector3::new(head * 0.35, head, head * 0.35));
        self.volume(Template::Cone, Style::Solid, Instance { rows, color });
    }

    pub fn point(&mut self, p: &Point3<f64>, size_px: f32, color: Rgba) {
        self.points.push(PointInstance {
            position: to_f32(p),
            size_px,
            color,
        });
    }

    /// Appends another list's debug geometry (not its body meshes).
    pub fn merge(&mut self, src: &DrawList) {
        for ((template, style), instances) in &src.volumes {
            for i in instances {
                self.volume(*template, *style, *i);
            }
        }
        self.lines.extend_from_slice(&src.lines);
        self.lines_on_top.extend_from_slice(&src.lines_on_top);
        self.points.extend_from_slice(&src.points);
        self.labels.extend(src.labels.iter().cloned());
    }

    /// Instances in the volumes of one template and style.
    pub fn volume_count(&self, template: Template, style: Style) -> usize {
        self.volumes
            .iter()
            .filter(|(k, _)| *k == (template, style))
            .map(|(_, v)| v.len())
            .sum()
    }
}

pub fn to_f32(p: &Point3<f64>) -> [f32; 3] {
    [p.x as f32, p.y as f32, p.z as f32]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placement_maps_the_unit_cube_onto_the_box() {
        let c = Point3::new(1.0, 2.0, 3.0);
        let r = UnitQuaternion::from_axis_angle(&Vector3::z_axis(), std::f64::consts::FRAC_PI_2);
        let rows = placement(&c, &r, &Vector3::new(2.0, 1.0, 1.0));
        // The corner (1, 0, 0) of the unit cube: scaled to (2, 0, 0), turned to (0, 2, 0).
        let p = [1.0f32, 0.0, 0.0, 1.0];
        let out: Vec<f32> = rows
            .iter()
            .map(|row| row.iter().zip(&p).map(|(a, b)| a * b).sum())
            .collect();
        assert!(
            (out[0] - 1.0).abs() < 1e-6
                && (out[1] - 4.0).abs() < 1e-6
                && (out[2] - 3.0).abs() < 1e-6,
            "{out:?}"
        );
    }

    #[test]
    fn volumes_group_by_template_and_style() {
        let mut d = DrawList::default();
        d.aabb([0.0; 3], [1.0; 3], [1.0; 4], true);
        d.aabb([0.0; 3], [2.0; 3], [1.0; 4], false);
        d.arrow(&Point3::origin(), &Vector3::new(0.0, 0.0, -2.0), [1.0; 4]);
        d.arrow(&Point3::origin(), &Vector3::zeros(), [1.0; 4]);
        assert_eq!(d.volume_count(Template::Cube, Style::Wire), 2);
        assert_eq!(d.volume_count(Template::Cube, Style::Translucent), 1);
        assert_eq!(
            d.volume_count(Template::Cone, Style::Solid),
            1,
            "a zero arrow draws nothing"
        );
        assert_eq!(d.lines.len(), 2);
    }
}
