//! The schema manifest: a JSON text, stored in every header, that describes each record type
//! of the file down to its fields and enum variants, in the order postcard encodes them.
//!
//! It is produced by tracing the serde implementations of the record types with
//! `serde-reflection`, so it cannot drift from the code. A reader compares the manifest of a
//! file with its own: types may gain enum variants at the end (older files still decode), but
//! a renamed, removed or reordered field or variant would make old bytes mean something else,
//! and the reader refuses such a file with a message that names the type instead of decoding
//! garbage.

use super::header::{FORMAT_VERSION, RecordingHeader};
use super::index::IndexRecord;
use super::records::{DeltaRecord, KeyframeRecord};
use crate::frame::MarkerKind;
use crate::trace::{FeatureId, Stage, Verdict, Volume};
use serde_json::json;
use serde_reflection::{ContainerFormat, Registry, Tracer, TracerConfig};
use std::sync::OnceLock;

pub(crate) const ENCODING: &str = "postcard 1: unsigned integers as LEB128 varints, signed \
     integers zigzag then varint, f64 as 8 bytes little-endian, bool as one byte, sequences \
     and strings prefixed by their varint length, Option as a 0/1 byte then the value, enum \
     variants as the varint of their index below, struct fields in the order listed, \
     fixed-size arrays and tuples as their elements in order";

/// The manifest text of this build. (The registry itself is not `Sync`, so only its text is
/// kept; it is parsed again on the rare occasion a file's manifest differs.)
struct Current {
    text: String,
}

fn trace_registry() -> Result<Registry, String> {
    let mut tracer = Tracer::new(TracerConfig::default());
    let explain = |e: serde_reflection::Error| e.explanation();
    // Enums first, each on its own, so that every variant is seen (a struct only shows the
    // first variant of the enums inside it).
    tracer.trace_simple_type::<Stage>().map_err(explain)?;
    tracer.trace_simple_type::<Verdict>().map_err(explain)?;
    tracer.trace_simple_type::<FeatureId>().map_err(explain)?;
    tracer.trace_simple_type::<Volume>().map_err(explain)?;
    crate::families::trace_schema(&mut tracer).map_err(explain)?;
    tracer.trace_simple_type::<MarkerKind>().map_err(explain)?;
    tracer
        .trace_simple_type::<RecordingHeader>()
        .map_err(explain)?;
    tracer
        .trace_simple_type::<KeyframeRecord>()
        .map_err(explain)?;
    tracer.trace_simple_type::<DeltaRecord>().map_err(explain)?;
    // Written as a value of its own after the rigid stage times (format v8).
    tracer
        .trace_simple_type::<Vec<crate::frame::FamilyStageTimes>>()
        .map_err(explain)?;
    tracer.trace_simple_type::<IndexRecord>().map_err(explain)?;
    tracer.registry().map_err(explain)
}

fn manifest_text(registry: &Registry) -> String {
    let doc = json!({
        "format": "cdrec",
        "version": FORMAT_VERSION,
        "encoding": ENCODING,
        "chunks": {
            "HEAD": "RecordingHeader",
            "KEYF": "KeyframeRecord",
            "DELT": "DeltaRecord",
            "INDX": "IndexRecord",
            "FOOT": "16 bytes, not postcard: index_offset u64 little-endian, frame_count u64 little-endian",
        },
        "types": registry,
    });
    serde_json::to_string(&doc).unwrap_or_default()
}

fn current() -> &'static Result<Current, String> {
    static CURRENT: OnceLock<Result<Current, String>> = OnceLock::new();
    CURRENT.get_or_init(|| {
        let registry = trace_registry()?;
        Ok(Current {
            text: manifest_text(&registry),
        })
    })
}

/// The manifest of this build, as written into new recordings.
pub fn current_manifest() -> Result<&'static str, String> {
    current()
        .as_ref()
        .map(|c| c.text.as_str())
        .map_err(|e| format!("cannot describe the record types: {e}"))
}

/// Checks that records described by `manifest` (from a file) decode correctly with this
/// build's types. Returns why not otherwise.
pub fn check_compatible(manifest: &str) -> Result<(), String> {
    let current = current()
        .as_ref()
        .map_err(|e| format!("cannot describe the record types: {e}"))?;
    if manifest == current.text {
        return Ok(());
    }
    let old = parse_types(manifest)?;
    let new = parse_types(&current.text)?;
    compatible(&old, &new)
}

fn parse_types(manifest: &str) -> Result<Registry, String> {
    let doc: serde_json::Value =
        serde_json::from_str(manifest).map_err(|e| format!("the manifest is not JSON: {e}"))?;
    let types = doc
        .get("types")
        .cloned()
        .ok_or("the manifest lists no types")?;
    serde_json::from_value(types).map_err(|e| format!("the manifest's types cannot be read: {e}"))
}

/// Old data decodes as new when every type both know has the same shape, except that either
/// side may have enum variants the other lacks at the end: a variant index present in both
/// must mean the same thing. Variants (and types) only the file knows are accepted: frames
/// that use them fail to decode with a clear error, the rest of the file reads.
fn compatible(old: &Registry, new: &Registry) -> Result<(), String> {
    for (name, old_format) in old {
        let Some(new_format) = new.get(name) else {
            // Only referenced by types that differ, which are caught below, or unused.
            continue;
        };
        match (old_format, new_format) {
            (ContainerFormat::Enum(old_v), ContainerFormat::Enum(new_v)) => {
                for (index, variant) in old_v {
                    match new_v.get(index) {
                        Some(v) if v == variant => {}
                        Some(v) => {
                            return Err(format!(
                                "variant {index} of `{name}` is `{}` in the file and `{}` (or \
                                 has other fields) in this build",
                                variant.name, v.name
                            ));
                        }
                        None => {}
                    }
                }
            }
            (a, b) if a == b => {}
            _ => {
                return Err(format!(
                    "the fields of `{name}` differ between the file and this build"
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_manifest_describes_every_record_type() {
        let text = current_manifest().unwrap();
        for name in [
            "RecordingHeader",
            "KeyframeRecord",
            "DeltaRecord",
            "IndexRecord",
            "FrameEntry",
            "BodyState",
            "Contact",
            "TraceEvent",
            "EventKind",
            "Volume",
            "Marker",
            "MarkerKind",
        ] {
            assert!(
                text.contains(&format!("\"{name}\"")),
                "{name} missing from the manifest"
            );
        }
        assert_eq!(check_compatible(text), Ok(()));
    }

    #[test]
    fn appended_variants_are_compatible_but_reordered_ones_are_not() {
        let new = &parse_types(current_manifest().unwrap()).unwrap();
        let mut old = new.clone();
        let Some(ContainerFormat::Enum(variants)) = old.get_mut("EventKind") else {
            panic!("EventKind is not an enum in the manifest");
        };
        let last = *variants.keys().last().unwrap();
        variants.remove(&last);
        assert_eq!(
            compatible(&old, new),
            Ok(()),
            "a newer build may add variants at the end"
        );

        let mut swapped = new.clone();
        let Some(ContainerFormat::Enum(variants)) = swapped.get_mut("EventKind") else {
            unreachable!()
        };
        let a = variants[&0].clone();
        let b = variants[&1].clone();
        variants.insert(0, b);
        variants.insert(1, a);
        let err = compatible(&swapped, new).unwrap_err();
        assert!(err.contains("EventKind"), "{err}");

        let mut renamed = new.clone();
        let Some(ContainerFormat::Struct(fields)) = renamed.get_mut("BodyState") else {
            panic!("BodyState is not a struct in the manifest");
        };
        fields[1].name = "pos".into();
        assert!(compatible(&renamed, new).unwrap_err().contains("BodyState"));
    }

    #[test]
    fn a_manifest_that_is_not_json_is_an_error() {
        assert!(check_compatible("not json").is_err());
        assert!(check_compatible("{}").is_err());
    }
}
