//! Writing files without ever losing data: the new contents go to a temporary file
//! in the same directory, which then replaces the original in one rename, with the
//! original's permissions. Read-only files are refused, not forced.

use crate::walk::describe_io;
use std::io::Write;
use std::path::Path;

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
