//! Files: reading them as UTF-8 and writing them without ever losing data. Only
//! regular files are read (a FIFO would block, a device may never end) and streams
//! are read up to [`STREAM_LIMIT`]. The new contents of a file go to a temporary file
//! in the same directory, which then replaces the original in one rename, with the
//! original's permissions, owner and group; a file with several hard links is written
//! in place instead, so its names stay one file. A file that changed since it was
//! read, that the user could not open for writing, that is read-only or whose owner
//! cannot be kept is refused, not forced. docs/writing-files.md says this for users.

use crate::source::LineIndex;
use std::fs::{File, FileType, Metadata, OpenOptions};
use std::io::{Read, Seek, Write};
use std::path::Path;
use std::time::SystemTime;

/// The most silp-lint reads from a stream (standard input, or a pipe or device
/// named as `--config`): 64 MiB. Six times the 10 MB inputs whose time and memory
/// silp-lint bounds, far above any payload or configuration file, and small enough
/// to hold in memory: an endless stream (`/dev/zero`, `yes |`) stops with an error
/// instead of filling memory.
pub const STREAM_LIMIT: u64 = 64 * 1024 * 1024;

/// The most silp-lint reads from a regular file: 1 GiB. A hundred times the 10 MB
/// inputs whose time and memory silp-lint bounds; a larger file (a sparse file of a
/// terabyte reads as zeros) would fill memory until the system killed the run.
pub const FILE_LIMIT: u64 = 1024 * 1024 * 1024;

/// Reads a file as UTF-8, saying where the encoding breaks when it is not.
pub fn read_source(path: &str) -> Result<String, String> {
    SourceFile::read(path).map(|file| file.text)
}

/// A file's text as it was read, with what the disk said of the file then:
/// [`write_atomic`] compares both before it replaces the file, so an edit made
/// meanwhile is never overwritten.
#[derive(Debug)]
pub struct SourceFile {
    pub text: String,
    state: FileState,
}

impl SourceFile {
    /// Reads a regular file as UTF-8 (see [`read_source`]).
    pub fn read(path: &str) -> Result<SourceFile, String> {
        let (mut file, metadata) = open_regular(path)?;
        let mut bytes = Vec::new();
        read_to_end(path, &mut file, &metadata, &mut bytes)?;
        Ok(SourceFile {
            text: decode_utf8(path, bytes)?,
            state: FileState::of(&metadata),
        })
    }
}

/// What the disk says of a file besides its bytes. A file replaced since it was
/// read (as an editor saves) has another identity, even with the same bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct FileState {
    len: u64,
    modified: Option<SystemTime>,
    identity: Option<(u64, u64)>,
}

impl FileState {
    fn of(metadata: &Metadata) -> FileState {
        FileState {
            len: metadata.len(),
            modified: metadata.modified().ok(),
            identity: identity(metadata),
        }
    }
}

/// The identity of the file a path names (symbolic links followed): paths with the
/// same identity are one file. `None` when it cannot be told.
pub fn file_identity(path: &str) -> Option<(u64, u64)> {
    identity(&std::fs::metadata(path).ok()?)
}

/// Device and inode number, where the system has them.
#[cfg(unix)]
fn identity(metadata: &Metadata) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    Some((metadata.dev(), metadata.ino()))
}

#[cfg(not(unix))]
fn identity(_: &Metadata) -> Option<(u64, u64)> {
    None
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

/// Reads a regular file's bytes into `bytes` (emptied first), for a pass that
/// looks at them without decoding them: its buffer serves file after file.
pub fn read_bytes_into(path: &str, bytes: &mut Vec<u8>) -> Result<(), String> {
    let (mut file, metadata) = open_regular(path)?;
    bytes.clear();
    read_to_end(path, &mut file, &metadata, bytes)
}

/// Reads the rest of `file` onto `bytes`, reserving the length `metadata` gives
/// (the file may still grow or shrink meanwhile: all of it is read, up to
/// [`FILE_LIMIT`]). Read through `Take`, which asks the system for no size of its
/// own: the standard `File` reader would query its length and position again, two
/// calls per file.
fn read_to_end(
    path: &str,
    file: &mut File,
    metadata: &Metadata,
    bytes: &mut Vec<u8>,
) -> Result<(), String> {
    let over_the_limit = || {
        format!(
            "{path}: larger than {} GiB, the most silp-lint reads from a file",
            FILE_LIMIT >> 30
        )
    };
    if metadata.len() > FILE_LIMIT {
        return Err(over_the_limit());
    }
    // Reserved fallibly: a file too large for this machine's memory is an error,
    // not an abort.
    let expected = usize::try_from(metadata.len()).unwrap_or(usize::MAX);
    bytes
        .try_reserve(expected.saturating_add(1))
        .map_err(|_| format!("{path}: {} bytes do not fit in memory", metadata.len()))?;
    let start = bytes.len();
    file.take(FILE_LIMIT + 1)
        .read_to_end(bytes)
        .map_err(|error| format!("{path}: {}", describe_io(&error)))?;
    if (bytes.len() - start) as u64 > FILE_LIMIT {
        // The file grew past the limit while it was read.
        bytes.truncate(start);
        bytes.shrink_to(expected);
        return Err(over_the_limit());
    }
    Ok(())
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

/// Replaces the contents of `path`, which was read as `read`, with `contents`.
///
/// The new contents are written to a temporary file beside the original first.
/// Then, just before the original is replaced, it is opened for writing (so what
/// this user may not write is refused even in a directory they may write) and
/// compared with what was read: size, modification time, identity and bytes. A
/// change is refused, as are a read-only file and one whose owner and group cannot
/// be given to the temporary file. A refused file is left as it is.
///
/// The temporary file, with the original's permissions, owner and group, replaces
/// the original in one rename. A file with more than one hard link is written in
/// place instead, as editors do, so that its names stay one file; the temporary
/// file is removed only after that write, so an interrupted write leaves the new
/// text beside the file. Symbolic links are followed: the file they point to is
/// written, the link stays.
pub fn write_atomic(path: &str, read: &SourceFile, contents: &str) -> Result<(), String> {
    let fail = |what: &str, error: std::io::Error| {
        format!(
            "{path}: cannot {what}: {}; left unchanged",
            describe_io(&error)
        )
    };
    let target = std::fs::canonicalize(path).map_err(|e| format!("{path}: {}", describe_io(&e)))?;
    let metadata =
        std::fs::metadata(&target).map_err(|e| format!("{path}: {}", describe_io(&e)))?;
    ensure_regular(path, &metadata)?;
    if metadata.permissions().readonly() {
        return Err(format!("{path}: the file is read-only; left unchanged"));
    }
    let dir = target.parent().unwrap_or(Path::new("."));
    let mut temp = tempfile::Builder::new()
        .prefix(".silp-lint-")
        .suffix(".tmp")
        .tempfile_in(dir)
        .map_err(|e| fail("create a temporary file beside it", e))?;
    temp.write_all(contents.as_bytes())
        .and_then(|()| temp.as_file().sync_all())
        .map_err(|e| fail("write a temporary file beside it", e))?;
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .open(&target)
        .map_err(|e| fail("open it for writing", e))?;
    let current = file.metadata().map_err(|e| fail("read its metadata", e))?;
    let mut on_disk = Vec::new();
    if FileState::of(&current) != read.state || {
        read_to_end(path, &mut file, &current, &mut on_disk)?;
        on_disk != read.text.as_bytes()
    } {
        return Err(format!(
            "{path}: changed on disk since silp-lint read it; left unchanged (run silp-lint again)"
        ));
    }
    if hard_links(&current) > 1 {
        return write_in_place(&mut file, contents).map_err(|e| fail("write it in place", e));
    }
    keep_owner(temp.as_file(), &current).map_err(|e| fail("keep its owner and group", e))?;
    temp.as_file()
        .set_permissions(current.permissions())
        .map_err(|e| fail("copy its permissions", e))?;
    temp.persist(&target)
        .map_err(|e| fail("replace it", e.error))?;
    Ok(())
}

#[cfg(unix)]
fn hard_links(metadata: &Metadata) -> u64 {
    std::os::unix::fs::MetadataExt::nlink(metadata)
}

#[cfg(not(unix))]
fn hard_links(_: &Metadata) -> u64 {
    1
}

/// Overwrites the whole file through `file`.
fn write_in_place(file: &mut File, contents: &str) -> std::io::Result<()> {
    file.rewind()?;
    file.write_all(contents.as_bytes())?;
    file.set_len(contents.len() as u64)?;
    file.sync_all()
}

/// Gives the temporary file the owner and group of the file it replaces, so that
/// a file rewritten by root stays its owner's. Only what differs is changed: a user
/// rewriting their own file needs no privilege, and one who may not give a file to
/// its owner (another user's, group-writable file) is refused by the system.
#[cfg(unix)]
fn keep_owner(temp: &File, original: &Metadata) -> std::io::Result<()> {
    use std::os::unix::fs::MetadataExt;
    let made = temp.metadata()?;
    let uid = (made.uid() != original.uid()).then_some(original.uid());
    let gid = (made.gid() != original.gid()).then_some(original.gid());
    if uid.is_some() || gid.is_some() {
        std::os::unix::fs::fchown(temp, uid, gid)?;
    }
    Ok(())
}

#[cfg(not(unix))]
fn keep_owner(_: &File, _: &Metadata) -> std::io::Result<()> {
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
        let read = SourceFile::read(path.to_str().unwrap()).unwrap();
        write_atomic(path.to_str().unwrap(), &read, "new").unwrap();
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
        let read = SourceFile::read(path.to_str().unwrap()).unwrap();
        let error = write_atomic(path.to_str().unwrap(), &read, "new").unwrap_err();
        assert!(error.contains("read-only"), "{error}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "old");
    }

    /// Reads `a.silp` holding `old`, lets `change` act on it, then tries to write
    /// `new`: the write must be refused and leave the changed file as it was.
    fn assert_change_is_kept(change: impl FnOnce(&Path)) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.silp");
        std::fs::write(&path, "old\n").unwrap();
        let name = path.to_str().unwrap();
        let read = SourceFile::read(name).unwrap();
        change(&path);
        let changed = std::fs::read(&path).unwrap();
        let error = write_atomic(name, &read, "new\n").unwrap_err();
        assert!(
            error.starts_with(name) && error.contains("changed on disk since silp-lint read it"),
            "{error}"
        );
        assert_eq!(std::fs::read(&path).unwrap(), changed, "the edit is kept");
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1, "no temporary file is left behind");
    }

    #[test]
    fn a_line_appended_after_reading_is_not_lost() {
        assert_change_is_kept(|path| {
            let mut file = OpenOptions::new().append(true).open(path).unwrap();
            file.write_all(b"appended\n").unwrap();
        });
    }

    /// Same size, same modification time, other bytes: the bytes are compared too.
    #[test]
    fn an_edit_that_keeps_size_and_time_is_not_lost() {
        assert_change_is_kept(|path| {
            let modified = std::fs::metadata(path).unwrap().modified().unwrap();
            std::fs::write(path, "odd\n").unwrap();
            let file = OpenOptions::new().write(true).open(path).unwrap();
            file.set_modified(modified).unwrap();
        });
    }

    /// An editor's save (a new file renamed over the old one) is a change even
    /// with the same bytes: silp-lint cannot tell what else it changed.
    #[cfg(unix)]
    #[test]
    fn a_file_replaced_by_a_rename_is_not_overwritten() {
        assert_change_is_kept(|path| {
            let saved = path.with_file_name("saved.tmp");
            std::fs::write(&saved, "old\n").unwrap();
            std::fs::rename(&saved, path).unwrap();
        });
    }

    #[cfg(unix)]
    #[test]
    fn hard_links_stay_one_file() {
        use std::os::unix::fs::MetadataExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.silp");
        let link = dir.path().join("b.silp");
        std::fs::write(&path, "a much longer old text\n").unwrap();
        std::fs::hard_link(&path, &link).unwrap();
        let inode = std::fs::metadata(&path).unwrap().ino();
        let read = SourceFile::read(path.to_str().unwrap()).unwrap();
        write_atomic(path.to_str().unwrap(), &read, "new\n").unwrap();
        for name in [&path, &link] {
            let metadata = std::fs::metadata(name).unwrap();
            assert_eq!((metadata.ino(), metadata.nlink()), (inode, 2));
            assert_eq!(std::fs::read_to_string(name).unwrap(), "new\n");
        }
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 2, "no temporary file is left behind");
    }

    /// Run as root, a rewritten file keeps another user's ownership and mode.
    #[cfg(unix)]
    #[test]
    fn owner_and_group_are_kept() {
        use std::os::unix::fs::{MetadataExt, PermissionsExt};
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.silp");
        std::fs::write(&path, "old\n").unwrap();
        if std::fs::metadata(&path).unwrap().uid() != 0 {
            println!("skipped: giving a file to another user needs root");
            return;
        }
        std::os::unix::fs::chown(&path, Some(4321), Some(4322)).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
        let read = SourceFile::read(path.to_str().unwrap()).unwrap();
        write_atomic(path.to_str().unwrap(), &read, "new\n").unwrap();
        let metadata = std::fs::metadata(&path).unwrap();
        assert_eq!(
            (metadata.uid(), metadata.gid(), metadata.mode() & 0o7777),
            (4321, 4322, 0o640)
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new\n");
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
    fn files_over_the_limit_are_refused_before_reading() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("huge.silp.json");
        // Sparse: a terabyte of zeros on disk costs nothing, and reading it would
        // fill memory.
        File::create(&path).unwrap().set_len(1 << 40).unwrap();
        let path = path.to_str().unwrap();
        let error = read_source(path).unwrap_err();
        assert_eq!(
            error,
            format!("{path}: larger than 1 GiB, the most silp-lint reads from a file")
        );
        let mut bytes = Vec::new();
        assert_eq!(read_bytes_into(path, &mut bytes).unwrap_err(), error);
        assert!(bytes.capacity() < 1 << 20, "{}", bytes.capacity());
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
