//! Any bytes as a recording: opening, reading every frame, verifying and measuring must
//! return errors, never panic, hang or abort. The reader works on files, so each input goes
//! through one temporary file (on tmpfs when the script sets TMPDIR).

use collidoscope::record::RecordingReader;
use std::io::Write;

fn exercise(bytes: &[u8], file: &mut tempfile::NamedTempFile) {
    let f = file.as_file_mut();
    if f.set_len(0).is_err() || f.write_all(bytes).is_err() || f.flush().is_err() {
        return;
    }
    let Ok(reader) = RecordingReader::open(file.path()) else {
        return;
    };
    let _ = reader.info().to_string();
    let _ = reader.frame_bytes();
    for pos in (0..reader.len()).rev() {
        let _ = reader.frame(pos);
    }
    let _ = reader.verify();
}

fn main() {
    let Ok(mut file) = tempfile::NamedTempFile::new() else {
        return;
    };
    afl::fuzz!(|bytes: &[u8]| {
        use std::io::Seek;
        let _ = file.as_file_mut().rewind();
        exercise(bytes, &mut file);
    });
}
