//! The summary of a recording that `collidoscope info` prints.

use super::header::RecordingHeader;
use super::index::FrameTable;
use super::recovery::Recovery;
use std::fmt;
use std::path::{Path, PathBuf};

#[derive(Clone, Debug, PartialEq)]
pub struct RecordingInfo {
    pub path: PathBuf,
    pub file_bytes: u64,
    pub format_version: u32,
    pub app_version: String,
    pub created_unix_ms: u64,
    pub keyframe_interval: u32,
    pub dt_s: f64,
    pub body_names: Vec<String>,
    pub frame_count: usize,
    pub keyframe_count: usize,
    /// `Frame::index` of the first and last frames.
    pub first_frame_index: Option<u64>,
    pub last_frame_index: Option<u64>,
    /// Simulated time covered: last frame's time minus first frame's, plus one step.
    pub duration_s: f64,
    /// Intact chunks in the file, header, index and footer included.
    pub chunk_count: u64,
    /// Bytes of the schema manifest in the header.
    pub schema_bytes: usize,
    /// Bytes of the scene RON text in the header.
    pub scene_bytes: usize,
    /// `None` for a complete file; otherwise what the scan recovered and lost.
    pub recovery: Option<Recovery>,
}

impl RecordingInfo {
    pub(crate) fn new(
        path: &Path,
        header: &RecordingHeader,
        table: &FrameTable,
        chunk_count: u64,
        file_bytes: u64,
        recovery: Option<Recovery>,
    ) -> Self {
        let first = table.entries().first();
        let last = table.last();
        let duration_s = match (first, last) {
            (Some(a), Some(b)) => b.time_s - a.time_s + header.dt_s,
            _ => 0.0,
        };
        Self {
            path: path.to_path_buf(),
            file_bytes,
            format_version: header.format_version,
            app_version: header.app_version.clone(),
            created_unix_ms: header.created_unix_ms,
            keyframe_interval: header.keyframe_interval,
            dt_s: header.dt_s,
            body_names: header.body_names.clone(),
            frame_count: table.len(),
            keyframe_count: table.keyframe_count(),
            first_frame_index: first.map(|e| e.index),
            last_frame_index: last.map(|e| e.index),
            duration_s,
            chunk_count,
            schema_bytes: header.schema.len(),
            scene_bytes: header.scene_ron.len(),
            recovery,
        }
    }

    pub fn body_count(&self) -> usize {
        self.body_names.len()
    }
}

impl fmt::Display for RecordingInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "file:            {}", self.path.display())?;
        writeln!(f, "size:            {} bytes", self.file_bytes)?;
        writeln!(
            f,
            "format:          cdrec v{} (written by Collidoscope {})",
            self.format_version, self.app_version
        )?;
        writeln!(
            f,
            "created:         {} ms after the Unix epoch (UTC)",
            self.created_unix_ms
        )?;
        writeln!(
            f,
            "frames:          {} ({} keyframes, one every {} frames)",
            self.frame_count, self.keyframe_count, self.keyframe_interval
        )?;
        if let (Some(a), Some(b)) = (self.first_frame_index, self.last_frame_index) {
            writeln!(f, "frame indices:   {a}..={b}")?;
        }
        writeln!(
            f,
            "duration:        {:.3} s (dt {} s)",
            self.duration_s, self.dt_s
        )?;
        writeln!(f, "bodies:          {}", self.body_count())?;
        for (id, name) in self.body_names.iter().enumerate() {
            writeln!(f, "  {id:>4}  {name}")?;
        }
        writeln!(f, "chunks:          {}", self.chunk_count)?;
        writeln!(
            f,
            "header:          scene {} bytes, schema manifest {} bytes",
            self.scene_bytes, self.schema_bytes
        )?;
        match &self.recovery {
            None => writeln!(f, "status:          complete"),
            Some(r) => writeln!(f, "status:          recovered: {r}"),
        }
    }
}
