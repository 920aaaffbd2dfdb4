//! Files: reading them as UTF-8 and writing them without ever losing data. Only
//! regular files are read (a FIFO would block, a device may never end) and streams
//! are read up to [`STREAM_LIMIT`]. The new contents of a file go to a temporary file
//! in the same directory, which then replaces the original in one rename, with the
//! original's permissions. Read-only files are refused, not forced.

use crate::source::LineIndex;
use std::fs::{File, FileType, Metadata};
use std::io::{Read, Write};
use std::path::Path;

/// The most silp-lint reads from a stream (standard input, or a pipe or device
/// named as `--config`): 64 MiB. Six times the 10 MB inputs whose time and memory
/// silp-lint bounds, far above any payload or configuration file, and small enough
/// to hold in memory: an endless stream (`/dev/zero`, `yes |`) stops with an error
/// instead of filling memory.
pub const STREAM_LIMIT: u64 = 64 * 1024 * 1024;

/// Reads a file as UTF-8, saying where the encoding breaks when it is not.
pub fn read_source(path: &str) -> Result<String, String> {
    let (mut file, _) = open_regular(path)?;
    let bytes = read_to_end(path, &mut file)?;
    decode_utf8(path, bytes)
}

/// Opens a regular file for reading. Its type is checked before it is opened
/// (opening a FIFO waits for a writer) and again on the opened file (the path may
/// have been replaced meanwhile).
fn open_regular(path: &str) -> Result<(File, Metadata), String> {
    let io_error = |error: std::io::Error| format!("{path}: {}", describe_io(&error));
    ensure_regular(path, &std::fs::metadata(path).map_err(io_error)?)?;
    let file = File::open(path).map_err(io_error)?;
    let metadata = file.metadata().map_err(io_error)?;
    ensure_regular(path, &metadata)?;
    Ok((file, metadata))
}

fn ensure_regular(path: &str, metadata: &Metadata) -> Result<(), String> {
    if metadata.is_file() {
        Ok(())
    } else {
        Err(not_a_regular_file(path, metadata.file_type()))
    }
}

/// The error for a path that names something other than a regular file (a FIFO, a
/// device, a socket, or a directory where one file is expected).
pub fn not_a_regular_file(path: &str, file_type: FileType) -> String {
    format!(
        "{path}: {}, not a regular file (silp-lint reads standard input as `-`)",
        file_type_name(file_type)
    )
}

fn file_type_name(file_type: FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if file_type.is_char_device() {
            return "a character device";
        }
        if file_type.is_block_device() {
            return "a block device";
        }
        if file_type.is_socket() {
            return "a socket";
        }
    }
    if file_type.is_dir() {
        "a directory"
    } else {
        "a special file"
    }
}

fn read_to_end(path: &str, file: &mut File) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)
        .map_err(|error| format!("{path}: {}", describe_io(&error)))?;
    Ok(bytes)
}

/// Reads a stream to its end, refusing one longer than [`STREAM_LIMIT`] (an
/// `InvalidData` error saying so) after reading one byte more than the limit.
pub fn read_stream(stream: impl Read) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    stream.take(STREAM_LIMIT + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > STREAM_LIMIT {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!(
                "longer than {} MiB, the most silp-lint reads from a stream",
                STREAM_LIMIT >> 20
            ),
        ));
    }
    Ok(bytes)
}

/// Decodes UTF-8, or names the line, column and byte of the first invalid byte.
pub fn decode_utf8(path: &str, bytes: Vec<u8>) -> Result<String, String> {
    String::from_utf8(bytes).map_err(|error| {
        let valid = error.utf8_error().valid_up_to();
        let bytes = error.as_bytes();
        let prefix = std::str::from_utf8(&bytes[..valid]).unwrap_or_default();
        let at = LineIndex::new(prefix).location(prefix, valid);
        format!(
            "{path}: not valid UTF-8 at line {}, column {} (byte {valid}); silp-lint reads UTF-8 text only",
            at.line, at.column
        )
    })
}

/// An I/O error as a short sentence ("No such file or directory").
pub fn describe_io(error: &std::io::Error) -> String {
    let text = error.to_string();
    match text.find(" (os error") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}

/// Replaces the contents of `path` with `contents` atomically. Symbolic links are
/// followed (the file they point to is replaced, the link stays). A read-only file
/// is an error and is left untouched.
pub fn write_atomic(path: &str, contents: &str) -> Result<(), String> {
    let target = std::fs::canonicalize(path).map_err(|e| format!("{path}: {}", describe_io(&e)))?;
    let metadata =
        std::fs::metadata(&target).map_err(|e| format!("{path}: {}", describe_io(&e)))?;
    let permissions = metadata.permissions();
    if permissions.readonly() {
        return Err(format!("{path}: the file is read-only; left unchanged"));
    }
    let dir = target.parent().unwrap_or(Path::new("."));
    let fail = |what: &str, error: std::io::Error| {
        format!(
            "{path}: cannot {what}: {}; left unchanged",
            describe_io(&error)
        )
    };
    let mut temp = tempfile::Builder::new()
        .prefix(".silp-lint-")
        .suffix(".tmp")
        .tempfile_in(dir)
        .map_err(|e| fail("create a temporary file beside it", e))?;
    temp.write_all(contents.as_bytes())
        .and_then(|()| temp.as_file().sync_all())
        .map_err(|e| fail("write a temporary file beside it", e))?;
    std::fs::set_permissions(temp.path(), permissions)
        .map_err(|e| fail("copy its permissions", e))?;
    temp.persist(&target)
        .map_err(|e| fail("replace it", e.error))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_contents_and_keeps_permissions() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.silp");
        std::fs::write(&path, "old").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
        }
        write_atomic(path.to_str().unwrap(), "new").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o640);
        }
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1, "no temporary file is left behind");
    }

    #[test]
    fn read_only_files_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.silp");
        std::fs::write(&path, "old").unwrap();
        let mut permissions = std::fs::metadata(&path).unwrap().permissions();
        permissions.set_readonly(true);
        std::fs::set_permissions(&path, permissions).unwrap();
        let error = write_atomic(path.to_str().unwrap(), "new").unwrap_err();
        assert!(error.contains("read-only"), "{error}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "old");
    }

    #[cfg(unix)]
    #[test]
    fn fifos_and_devices_are_not_read() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("pipe.silp");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        // Opening the FIFO would wait for a writer forever: it is refused first.
        let error = read_source(fifo.to_str().unwrap()).unwrap_err();
        assert!(error.ends_with("pipe.silp: a FIFO (named pipe), not a regular file (silp-lint reads standard input as `-`)"), "{error}");
        let error = read_source("/dev/zero").unwrap_err();
        assert!(
            error.starts_with("/dev/zero: a character device, not a regular file"),
            "{error}"
        );
    }

    #[test]
    fn streams_stop_at_the_limit() {
        let error = read_stream(std::io::repeat(b'x')).unwrap_err();
        assert_eq!(error.kind(), std::io::ErrorKind::InvalidData);
        assert_eq!(
            error.to_string(),
            "longer than 64 MiB, the most silp-lint reads from a stream"
        );
        let at_the_limit = read_stream(std::io::repeat(b'x').take(STREAM_LIMIT)).unwrap();
        assert_eq!(at_the_limit.len() as u64, STREAM_LIMIT);
    }
}
