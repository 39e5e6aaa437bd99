//! Every integration test in one binary: each test file used to link its own copy of the
//! library and its GUI dependencies, and linking two dozen of them was most of CI's time.
//! Run one file's tests with `cargo test --test suite ui_bvh::`.

mod ingest_cli;
mod parry_bridge;
mod repo_files;
mod test_scale;
mod toy_engine;
mod ui_harness;

#[path = "arka_oracle.rs"]
mod arka_oracle;
#[path = "arka_thesis.rs"]
mod arka_thesis;
#[path = "audit_oracle.rs"]
mod audit_oracle;
#[cfg(feature = "rapier")]
#[path = "audit_rapier.rs"]
mod audit_rapier;
#[path = "broad_oracle.rs"]
mod broad_oracle;
#[path = "broken_pipe.rs"]
mod broken_pipe;
#[path = "bsp_ends.rs"]
mod bsp_ends;
#[path = "bsp_hostile.rs"]
mod bsp_hostile;
#[path = "bsp_oracle.rs"]
mod bsp_oracle;
#[path = "bvh_oracle.rs"]
mod bvh_oracle;
#[path = "capture_generated.rs"]
mod capture_generated;
#[path = "capture_live.rs"]
mod capture_live;
#[cfg(feature = "rapier")]
#[path = "capture_rapier.rs"]
mod capture_rapier;
#[path = "capture_stream.rs"]
mod capture_stream;
#[path = "ccd_oracle.rs"]
mod ccd_oracle;
#[path = "cli.rs"]
mod cli;
#[path = "cloth_mesh.rs"]
mod cloth_mesh;
#[path = "cloth_oracle.rs"]
mod cloth_oracle;
#[path = "cloth_switches.rs"]
mod cloth_switches;
#[path = "cloth_volume_rays.rs"]
mod cloth_volume_rays;
#[cfg(feature = "rapier")]
#[path = "diff_rapier.rs"]
mod diff_rapier;
#[path = "diff_runs.rs"]
mod diff_runs;
#[path = "engine.rs"]
mod engine;
#[path = "file_generated.rs"]
mod file_generated;
#[path = "gjk_oracle.rs"]
mod gjk_oracle;
#[path = "layering.rs"]
mod layering;
#[path = "narrow_coherent.rs"]
mod narrow_coherent;
#[path = "narrow_oracle.rs"]
mod narrow_oracle;
#[path = "nurbs_annex.rs"]
mod nurbs_annex;
#[path = "nurbs_landings.rs"]
mod nurbs_landings;
#[path = "nurbs_oracle.rs"]
mod nurbs_oracle;
#[path = "nurbs_precision.rs"]
mod nurbs_precision;
#[path = "nurbs_thesis.rs"]
mod nurbs_thesis;
#[path = "primitives_oracle.rs"]
mod primitives_oracle;
#[path = "query_generated.rs"]
mod query_generated;
#[path = "query_hostile.rs"]
mod query_hostile;
#[path = "query_oracle.rs"]
mod query_oracle;
#[path = "rays_oracle.rs"]
mod rays_oracle;
#[path = "rays_tables.rs"]
mod rays_tables;
#[path = "rays_world.rs"]
mod rays_world;
#[path = "record_background.rs"]
mod record_background;
#[path = "record_format.rs"]
mod record_format;
#[path = "recording_generated.rs"]
mod recording_generated;
#[path = "reproducible.rs"]
mod reproducible;
#[path = "sleeping.rs"]
mod sleeping;
#[path = "state_hashes.rs"]
mod state_hashes;
#[path = "tgs_oracle.rs"]
mod tgs_oracle;
#[path = "ui_app.rs"]
mod ui_app;
#[path = "ui_arka.rs"]
mod ui_arka;
#[path = "ui_audit.rs"]
mod ui_audit;
#[path = "ui_bsp.rs"]
mod ui_bsp;
#[path = "ui_bvh.rs"]
mod ui_bvh;
#[path = "ui_capture.rs"]
mod ui_capture;
#[path = "ui_cloth.rs"]
mod ui_cloth;
#[path = "ui_compare.rs"]
mod ui_compare;
#[path = "ui_convex.rs"]
mod ui_convex;
#[path = "ui_file_browser.rs"]
mod ui_file_browser;
#[path = "ui_nurbs.rs"]
mod ui_nurbs;
#[path = "ui_rays.rs"]
mod ui_rays;
#[path = "ui_scenes.rs"]
mod ui_scenes;
#[path = "ui_trace_limit.rs"]
mod ui_trace_limit;
#[path = "validate_all_scenes.rs"]
mod validate_all_scenes;
#[path = "vclip_oracle.rs"]
mod vclip_oracle;
