//! Structure-aware generated recordings (issue 31, part 8): real `.cdrec` files of built-in
//! scenes, changed chunk by chunk the way a byte-level fuzzer rarely gets to (its flips stop
//! at the CRC): extreme doubles and varints written into payloads, payloads cut or grown,
//! chunks dropped, repeated, swapped or relabelled, the version changed, and every changed
//! chunk sealed again with a correct length and CRC so the reader has to decode it. Each must
//! open with its good frames and its damage reported, or fail with an error naming the file;
//! every frame it lists decodes or fails clearly; none panics, and a quarter re-simulate
//! (`validate`). Cases: 64 × `COLLIDOSCOPE_TEST_SCALE`.

use crate::test_scale::{generated_cases, timed_case};
use collidoscope::record::{CHUNK_HEADER_LEN, PREAMBLE_LEN, RecordingReader};
use proptest::prelude::*;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The recordings every case starts from: a rigid scene with its trace and a family scene.
fn bases() -> &'static [Vec<u8>] {
    static BASES: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    BASES.get_or_init(|| {
        let dir = tempfile::tempdir().expect("a temporary directory");
        [("box-stack", "12"), ("bsp-corridor", "6")]
            .iter()
            .map(|(scene, frames)| {
                let out = dir.path().join(format!("{scene}.cdrec"));
                let status = Command::new(env!("CARGO_BIN_EXE_collidoscope"))
                    .args([
                        "record",
                        "--scene",
                        scene,
                        "--frames",
                        frames,
                        "--reproducible",
                    ])
                    .arg("-o")
                    .arg(&out)
                    .output()
                    .expect("the binary runs");
                assert!(status.status.success(), "{scene}: {status:?}");
                std::fs::read(&out).expect("the recording was written")
            })
            .collect()
    })
}

#[derive(Clone, Debug)]
struct Chunk {
    kind: [u8; 4],
    payload: Vec<u8>,
    /// Sealed again with a correct length and CRC when written back.
    reseal: bool,
    /// The CRC as read, kept when the chunk is not resealed.
    crc: [u8; 4],
}

/// The preamble and the chunks, up to the first that does not fit.
fn split(bytes: &[u8]) -> (Vec<u8>, Vec<Chunk>) {
    let pre = PREAMBLE_LEN as usize;
    let head = CHUNK_HEADER_LEN as usize;
    let mut chunks = Vec::new();
    let mut at = pre;
    while at + head <= bytes.len() {
        let len = u32::from_le_bytes(bytes[at + 4..at + 8].try_into().unwrap()) as usize;
        let Some(payload) = bytes.get(at + head..at + head + len) else {
            break;
        };
        chunks.push(Chunk {
            kind: bytes[at..at + 4].try_into().unwrap(),
            payload: payload.to_vec(),
            reseal: false,
            crc: bytes[at + 8..at + 12].try_into().unwrap(),
        });
        at += head + len;
    }
    (bytes[..pre].to_vec(), chunks)
}

fn join(preamble: &[u8], chunks: &[Chunk]) -> Vec<u8> {
    let mut out = preamble.to_vec();
    for c in chunks {
        let len = (c.payload.len() as u32).to_le_bytes();
        let crc = if c.reseal {
            let mut h = crc32fast::Hasher::new();
            h.update(&c.kind);
            h.update(&len);
            h.update(&c.payload);
            h.finalize().to_le_bytes()
        } else {
            c.crc
        };
        out.extend_from_slice(&c.kind);
        out.extend_from_slice(&len);
        out.extend_from_slice(&crc);
        out.extend_from_slice(&c.payload);
    }
    out
}

/// One structural change; `at` and `pick` are spread over the payload or the chunk list.
#[derive(Clone, Debug)]
enum Change {
    /// An extreme double written over eight payload bytes.
    Double {
        chunk: usize,
        at: usize,
        value: f64,
    },
    /// A payload byte replaced by a varint of an extreme size (2^32, 2^63, 2^64 - 1).
    Varint {
        chunk: usize,
        at: usize,
        value: u64,
    },
    /// The payload cut at `at`.
    Cut {
        chunk: usize,
        at: usize,
    },
    /// Bytes appended to the payload.
    Grow {
        chunk: usize,
        bytes: Vec<u8>,
    },
    Drop {
        chunk: usize,
    },
    Repeat {
        chunk: usize,
    },
    Swap {
        chunk: usize,
        with: usize,
    },
    /// The chunk called another known kind.
    Relabel {
        chunk: usize,
        kind: usize,
    },
    Version {
        version: u32,
    },
}

fn change() -> impl Strategy<Value = Change> {
    let chunk = any::<usize>();
    let at = any::<usize>();
    let double = prop_oneof![
        Just(f64::NAN),
        Just(f64::INFINITY),
        Just(-f64::INFINITY),
        Just(1e308),
        Just(-1e308),
        Just(5e-324),
        Just(-0.0),
        Just(1e30),
    ];
    let varint = prop_oneof![
        Just(1u64 << 32),
        Just(1u64 << 63),
        Just(u64::MAX),
        Just(1u64 << 20)
    ];
    prop_oneof![
        4 => (chunk, at, double).prop_map(|(chunk, at, value)| Change::Double { chunk, at, value }),
        4 => (chunk, at, varint).prop_map(|(chunk, at, value)| Change::Varint { chunk, at, value }),
        1 => (chunk, at).prop_map(|(chunk, at)| Change::Cut { chunk, at }),
        1 => (chunk, prop::collection::vec(any::<u8>(), 1..40))
            .prop_map(|(chunk, bytes)| Change::Grow { chunk, bytes }),
        1 => chunk.prop_map(|chunk| Change::Drop { chunk }),
        1 => chunk.prop_map(|chunk| Change::Repeat { chunk }),
        1 => (chunk, any::<usize>()).prop_map(|(chunk, with)| Change::Swap { chunk, with }),
        1 => (chunk, 0..5usize).prop_map(|(chunk, kind)| Change::Relabel { chunk, kind }),
        1 => (0u32..10).prop_map(|version| Change::Version { version }),
    ]
}

fn varint(mut v: u64) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let byte = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(byte);
            return out;
        }
        out.push(byte | 0x80);
    }
}

fn apply(preamble: &mut [u8], chunks: &mut Vec<Chunk>, change: &Change) {
    if chunks.is_empty() {
        return;
    }
    let n = chunks.len();
    let payload_at = |c: &Chunk, at: usize| at % c.payload.len().max(1);
    match change {
        Change::Double { chunk, at, value } => {
            let c = &mut chunks[chunk % n];
            if c.payload.len() >= 8 {
                let at = at % (c.payload.len() - 7);
                c.payload[at..at + 8].copy_from_slice(&value.to_le_bytes());
            }
        }
        Change::Varint { chunk, at, value } => {
            let c = &mut chunks[chunk % n];
            let at = payload_at(c, *at).min(c.payload.len());
            let end = (at + 1).min(c.payload.len());
            c.payload.splice(at..end, varint(*value));
        }
        Change::Cut { chunk, at } => {
            let c = &mut chunks[chunk % n];
            let at = payload_at(c, *at);
            c.payload.truncate(at);
        }
        Change::Grow { chunk, bytes } => chunks[chunk % n].payload.extend_from_slice(bytes),
        Change::Drop { chunk } => {
            chunks.remove(chunk % n);
            return;
        }
        Change::Repeat { chunk } => {
            let c = chunks[chunk % n].clone();
            chunks.insert(chunk % n, c);
            return;
        }
        Change::Swap { chunk, with } => {
            chunks.swap(chunk % n, with % n);
            return;
        }
        Change::Relabel { chunk, kind } => {
            chunks[chunk % n].kind = *[b"HEAD", b"KEYF", b"DELT", b"INDX", b"FOOT"][*kind];
        }
        Change::Version { version } => {
            preamble[8..12].copy_from_slice(&version.to_le_bytes());
            return;
        }
    }
    let c = match change {
        Change::Double { chunk, .. }
        | Change::Varint { chunk, .. }
        | Change::Cut { chunk, .. }
        | Change::Grow { chunk, .. }
        | Change::Relabel { chunk, .. } => chunk % n,
        _ => return,
    };
    chunks[c].reseal = true;
}

fn temp_file() -> PathBuf {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    let dir = DIR.get_or_init(|| tempfile::tempdir().expect("a temporary directory"));
    static COUNT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let k = COUNT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    dir.path().join(format!("gen-{k}.cdrec"))
}

fn check_error(e: &str, file: &Path) {
    let name = file.file_name().unwrap().to_string_lossy();
    assert!(!e.is_empty(), "an empty error");
    assert!(
        e.contains(name.as_ref()),
        "the error does not name {name}: {e}"
    );
    assert!(e.len() < 2_000, "{} bytes: {}", e.len(), &e[..300]);
}

proptest! {
    #![proptest_config(generated_cases())]

    #[test]
    fn generated_recordings_open_recover_and_replay_or_fail_clearly(
        base in 0..2usize,
        changes in prop::collection::vec(change(), 1..4),
        replay in 0..4u8,
    ) {
        let (mut preamble, mut chunks) = split(&bases()[base]);
        for c in &changes {
            apply(&mut preamble, &mut chunks, c);
        }
        let path = temp_file();
        std::fs::write(&path, join(&preamble, &chunks)).expect("a temporary file");
        timed_case("recording", || read_all(&path, replay == 0));
        let _ = std::fs::remove_file(&path);
    }
}

/// Opens, lists, decodes every frame and, when asked, re-simulates.
fn read_all(path: &Path, replay: bool) {
    match RecordingReader::open(path) {
        Err(e) => check_error(&e.to_string(), path),
        Ok(reader) => {
            let _ = reader.info();
            for pos in 0..reader.len() {
                if let Err(e) = reader.frame(pos) {
                    check_error(&e.to_string(), path);
                }
            }
            if replay && let Err(e) = collidoscope::validate::validate(&reader, None) {
                check_error(&e.to_string(), path);
            }
        }
    }
}
