//! Command-line interface. Every failure prints one clear message and exits non-zero.

mod diff;
mod info;
mod ingest;
pub(crate) mod out;
mod query;
mod record;
mod validate;

use clap::{Parser, Subcommand};
use out::{Failure, outln};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(
    name = "collidoscope",
    version,
    about = "A visual debugger for collision detection"
)]
pub struct Cli {
    /// A scene (.ron), a recording (.cdrec), a capture stream (.jsonl) or a built-in scene
    /// name to open in the viewer.
    pub file: Option<String>,
    /// Open the viewer and accept one engine at a time streaming its run (the capture
    /// stream, docs/capture-stream.md) over TCP: `PORT` (on 127.0.0.1), `IP:PORT` or
    /// `[IPv6]:PORT`. Only the loopback address unless you name another.
    #[arg(long, value_name = "ADDRESS", conflicts_with = "file")]
    pub listen: Option<String>,
    /// Open the viewer comparing FILE (a recording, run A) with this run (B): one timeline,
    /// B drawn as a ghost, the divergence marked and every difference of a frame listed.
    #[arg(long, value_name = "B", requires = "file", conflicts_with = "listen")]
    pub compare: Option<PathBuf>,
    /// Largest input file read (scenes, meshes, levels, surfaces), in MiB.
    #[arg(long, global = true, value_name = "MIB", default_value_t = crate::input::DEFAULT_MAX_FILE_BYTES >> 20)]
    pub max_file_mib: u64,
    /// Memory a scene may take once built (meshes, cloth, bodies), in MiB: a scene whose
    /// estimate is larger is refused before anything is allocated.
    #[arg(long, global = true, value_name = "MIB", default_value_t = crate::input::DEFAULT_MEMORY_BUDGET_BYTES >> 20)]
    pub memory_budget: u64,
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Simulate a scene and write a recording.
    Record {
        /// A built-in scene name or a scene file (.ron).
        #[arg(long, default_value = collidoscope_default_scene())]
        scene: String,
        /// Steps to simulate (the recording also holds the initial frame).
        #[arg(long, default_value_t = 600)]
        frames: u64,
        /// The recording to write.
        #[arg(short, long)]
        output: PathBuf,
        /// Most trace events kept per frame (0 records no trace); events past it are counted
        /// as dropped, in the file and in `info`.
        #[arg(long, default_value_t = crate::trace::TraceRecorder::DEFAULT_LIMIT)]
        trace_limit: usize,
        /// A keyframe every this many frames.
        #[arg(long, default_value_t = crate::record::WriterOptions::DEFAULT_KEYFRAME_INTERVAL)]
        keyframe_interval: u32,
        /// Continuous collision for this run, overriding the scene's: `off`, `speculative`,
        /// `toi` or `substep:N` (the recording embeds the scene as run, so `validate` agrees).
        #[arg(long)]
        ccd: Option<String>,
        /// Write no creation time and no wall-clock timings: two recordings of the same
        /// scene are then the same bytes.
        #[arg(long)]
        reproducible: bool,
    },
    /// Turn a capture stream (JSON lines, docs/capture-stream.md) from another engine into a
    /// recording. Bad lines are skipped and named; exit 1 if any were.
    Ingest {
        /// The stream, or `-` for stdin.
        input: String,
        /// The recording to write.
        #[arg(short, long)]
        output: PathBuf,
        /// A keyframe every this many frames.
        #[arg(long, default_value_t = crate::record::WriterOptions::DEFAULT_KEYFRAME_INTERVAL)]
        keyframe_interval: u32,
        /// Write no creation time: two ingests of the same stream are the same bytes.
        #[arg(long)]
        reproducible: bool,
    },
    /// Compare two runs (recordings or capture streams): the first frame, and inside it the
    /// first pair, contact, impulse, event or body, where they part (docs/diff-report.md).
    /// Exit 0 when the same, 1 when different, 2 on trouble.
    Diff {
        a: PathBuf,
        b: PathBuf,
        /// `bitwise` (default), `ulps:N`, `abs:E` or `abs:E,rel:R`.
        #[arg(long, default_value = "bitwise")]
        tolerance: String,
        /// Print the JSON report instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Describe a recording: frames, duration, bodies, size, chunks, recovery.
    Info {
        file: PathBuf,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
        /// Also print the bytes per frame of every part of the frames and every trace
        /// event kind (slow: re-encodes and compresses each part).
        #[arg(long)]
        events: bool,
    },
    /// Re-simulate a recording and check it frame by frame. A captured run of another engine
    /// (or its capture stream) is audited instead: our exact algorithms on its shapes and
    /// poses, step by step, and every place the engine disagrees (docs/audit.md).
    Validate {
        file: PathBuf,
        /// Penetration depth (m) beyond which a frame is a violation; the scene's by default.
        /// In an audit: how far depths and distances may differ from ours (default 0.005 m).
        #[arg(long, allow_negative_numbers = true)]
        tolerance: Option<f64>,
        /// Audit: how far the engine's contact normals may turn from ours, in degrees
        /// (default 5).
        #[arg(long, allow_negative_numbers = true)]
        normal_tolerance_deg: Option<f64>,
        /// Audit: the engine's prediction distance (m), overriding the capture's header.
        #[arg(long, allow_negative_numbers = true)]
        prediction_distance: Option<f64>,
        /// Audit: checks that do not run, comma-separated: missed_contact, apart_contact,
        /// depth, normal, tunnelling, non_finite, exploding, broad_miss.
        #[arg(long, value_delimiter = ',')]
        off: Vec<String>,
        /// Audit: the report as JSON (counts per check and per pair, every finding).
        #[arg(long)]
        json: bool,
    },
    /// Answer JSON-lines queries (see docs/query-protocol.md) from a file or stdin (-).
    Query {
        #[arg(default_value = "-")]
        input: String,
    },
    /// List the built-in scenes.
    Scenes,
}

const fn collidoscope_default_scene() -> &'static str {
    crate::world::DEFAULT_SCENE
}

pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    let Some(max_file_bytes) = cli.max_file_mib.checked_mul(1 << 20).filter(|b| *b > 0) else {
        let _ = writeln!(
            std::io::stderr(),
            "collidoscope: --max-file-mib must be between 1 and {}, got {}",
            u64::MAX >> 20,
            cli.max_file_mib
        );
        return ExitCode::from(2);
    };
    crate::input::set_max_file_bytes(max_file_bytes);
    crate::input::set_memory_budget(cli.memory_budget.saturating_mul(1 << 20));
    let result = match cli.command {
        Some(Command::Record {
            scene,
            frames,
            output,
            trace_limit,
            keyframe_interval,
            ccd,
            reproducible,
        }) => record::run(
            &scene,
            frames,
            &output,
            trace_limit,
            crate::record::WriterOptions {
                keyframe_interval,
                reproducible,
                ..Default::default()
            },
            ccd.as_deref(),
        ),
        Some(Command::Ingest {
            input,
            output,
            keyframe_interval,
            reproducible,
        }) => ingest::run(
            &input,
            &output,
            crate::record::WriterOptions {
                keyframe_interval: keyframe_interval.max(1),
                reproducible,
                ..Default::default()
            },
        ),
        Some(Command::Diff {
            a,
            b,
            tolerance,
            json,
        }) => diff::run(&a, &b, &tolerance, json),
        Some(Command::Info { file, json, events }) => info::run(&file, json, events),
        Some(Command::Validate {
            file,
            tolerance,
            normal_tolerance_deg,
            prediction_distance,
            off,
            json,
        }) => validate::run(
            &file,
            &validate::Flags {
                tolerance,
                normal_tolerance_deg,
                prediction_distance,
                off,
                json,
            },
        ),
        Some(Command::Query { input }) => query::run(&input),
        Some(Command::Scenes) => list_scenes(),
        None => bind(cli.listen.as_deref())
            .and_then(|listen| open_viewer(cli.file, listen, cli.compare))
            .map_err(Failure::from),
    };
    match result {
        Ok(()) | Err(Failure::OutputClosed) => ExitCode::SUCCESS,
        Err(Failure::Status(code, message)) => {
            if let Some(message) = message {
                let _ = writeln!(std::io::stderr(), "collidoscope: {message}");
            }
            ExitCode::from(code)
        }
        Err(Failure::Message(message)) => {
            // stderr may be closed too; there is no one left to tell then.
            let _ = writeln!(std::io::stderr(), "collidoscope: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Family by family: a heading, then one indented line per scene (name, description).
fn list_scenes() -> Result<(), Failure> {
    for (i, (family, title, scenes)) in crate::scene::builtin_scenes_by_family()
        .into_iter()
        .enumerate()
    {
        if i > 0 {
            outln!()?;
        }
        outln!("{title} ({family})")?;
        for s in scenes {
            outln!("  {:26} {}", s.name, s.description)?;
        }
    }
    Ok(())
}

/// The socket `--listen` names, bound before the window opens so that a bad or busy
/// address is said here.
fn bind(listen: Option<&str>) -> Result<Option<std::net::TcpListener>, String> {
    let Some(text) = listen else {
        return Ok(None);
    };
    let addr = crate::capture::listen_address(text)?;
    std::net::TcpListener::bind(addr)
        .map(Some)
        .map_err(|e| format!("cannot listen on {addr}: {e}"))
}

#[cfg(feature = "gui")]
fn open_viewer(
    file: Option<String>,
    listen: Option<std::net::TcpListener>,
    compare: Option<PathBuf>,
) -> Result<(), String> {
    crate::app::run(file, listen, compare)
}

#[cfg(not(feature = "gui"))]
fn open_viewer(
    _file: Option<String>,
    _listen: Option<std::net::TcpListener>,
    _compare: Option<PathBuf>,
) -> Result<(), String> {
    Err("this build has no viewer (built without the `gui` feature); use a subcommand: record, info, validate, query".into())
}
