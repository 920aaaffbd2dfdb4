//! Files: reading them as UTF-8 and writing them without ever losing data. The new
//! contents of a file go to a temporary file in the same directory, which then
//! replaces the original in one rename, with the original's permissions. Read-only
//! files are refused, not forced.

use crate::source::LineIndex;
use std::io::Write;
use std::path::Path;

/// Reads a file as UTF-8, saying where the encoding breaks when it is not.
pub fn read_source(path: &str) -> Result<String, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{path}: {}", describe_io(&e)))?;
    decode_utf8(path, bytes)
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
}
