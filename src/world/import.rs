//! Mesh files a scene can refer to.

use crate::geom::TriMesh;
use std::path::Path;

/// Loads a Wavefront OBJ file as one triangle mesh.
pub fn load_obj(path: &Path) -> Result<TriMesh, String> {
    Err(format!(
        "{}: OBJ import is not available yet",
        path.display()
    ))
}
