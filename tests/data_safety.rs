//! Data safety and false passes, on the built binary (docs/writing-files.md): paths
//! that are not files are errors, streams stop at 64 MiB, and `fmt` / `--fix` keep
//! owners, links and files the user may not write. The cases that need another user
//! run only as root (they switch users with util-linux's `setpriv`) and say so when
//! skipped. Lost updates are tested in `src/fs.rs`, where the file can be changed
//! between reading and writing without timing.
#![cfg(unix)]

use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::Path;
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_silp-lint");
/// A payload that `fmt` and `--fix` rewrite (to `start(hike)`).
const MESSY: &str = "start( hike )\n";
/// The commands that rewrite files.
const REWRITING: [&[&str]; 2] = [&["fmt"], &["check", "--fix"]];
const STREAM_ERROR: &str = "longer than 64 MiB, the most silp-lint reads from a stream";

fn run(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .output()
        .expect("the binary runs")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Asserts that a run failed with exit status 2 printing `error: {message}`, and
/// did not say that everything passed.
fn assert_error(output: &Output, message: &str, context: &str) {
    assert_eq!(
        output.status.code(),
        Some(2),
        "{context}: {}",
        stderr(output)
    );
    assert!(
        stderr(output).contains(&format!("error: {message}")),
        "{context}: {}",
        stderr(output)
    );
    assert!(!stdout(output).contains("All checks passed"), "{context}");
}

fn mkfifo(path: &Path) {
    let made = Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
}

#[test]
fn named_fifos_and_devices_are_errors_not_passes() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe.silp");
    mkfifo(&fifo);
    let fifo = fifo.to_str().unwrap();
    for (path, kind) in [
        (fifo, "a FIFO (named pipe)"),
        ("/dev/zero", "a character device"),
        ("/dev/null", "a character device"),
    ] {
        let message =
            format!("{path}: {kind}, not a regular file (silp-lint reads standard input as `-`)");
        for command in [
            &["check", path][..],
            &["fmt", path],
            &["check", "--fix", path],
        ] {
            assert_error(&run(command), &message, &format!("{command:?}"));
        }
    }
    let output = run(&["convert", "--to", "json", fifo]);
    assert_error(&output, &format!("{fifo}: a FIFO (named pipe)"), "convert");
}

#[test]
fn a_process_substitution_is_an_error_not_a_pass() {
    let output = Command::new("bash")
        .args(["-c", r#""$0" check <(printf 'start(hike)\n')"#, BIN])
        .output()
        .expect("bash runs");
    assert_error(&output, "/dev/fd/", "check <(...)");
    assert!(stderr(&output).contains(": a FIFO (named pipe), not a regular file"));
}

#[test]
fn an_endless_standard_input_stops_at_the_limit() {
    for args in [
        &["check", "-"][..],
        &["fmt", "-"],
        &["convert", "--to", "json", "-"],
    ] {
        let output = Command::new(BIN)
            .args(args)
            .stdin(std::fs::File::open("/dev/zero").unwrap())
            .output()
            .expect("the binary runs");
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert_eq!(
            stderr(&output),
            format!("error: cannot read standard input: {STREAM_ERROR}\n"),
            "{args:?}"
        );
    }
}

#[test]
fn an_endless_configuration_stops_at_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a.silp");
    std::fs::write(&file, "start(hike)\n").unwrap();
    let output = run(&["check", "--config", "/dev/zero", file.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stderr(&output),
        format!("error: /dev/zero: cannot read the configuration: {STREAM_ERROR}\n")
    );
}

/// One name, both names, or the directory that holds them: the file is written
/// once, in place, and stays one file. Naming both never reports the second name as
/// changed since it was read: names of one file are rewritten one after another.
#[test]
fn hard_links_stay_one_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a.silp");
    let link = dir.path().join("b.silp");
    std::fs::write(&file, MESSY).unwrap();
    std::fs::hard_link(&file, &link).unwrap();
    let inode = std::fs::metadata(&file).unwrap().ino();
    let names = [file.to_str().unwrap(), link.to_str().unwrap()];
    let walked = [dir.path().to_str().unwrap()];
    for paths in [&names[..1], &names, &walked] {
        for command in REWRITING {
            std::fs::write(&file, MESSY).unwrap();
            let output = run(&[command, paths].concat());
            let context = format!("{command:?} {paths:?}");
            assert_eq!(
                output.status.code(),
                Some(0),
                "{context}: {}",
                stderr(&output)
            );
            for name in [&file, &link] {
                let metadata = std::fs::metadata(name).unwrap();
                assert_eq!((metadata.ino(), metadata.nlink()), (inode, 2), "{context}");
                assert_eq!(std::fs::read_to_string(name).unwrap(), "start(hike)\n");
            }
        }
    }
    let left = std::fs::read_dir(dir.path()).unwrap().count();
    assert_eq!(left, 2, "no temporary file is left");
}

/// The link stays a link, its target is written; naming both writes it once.
#[test]
fn a_symbolic_link_stays_and_its_target_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("target.silp");
    let link = dir.path().join("link.silp");
    std::os::unix::fs::symlink("target.silp", &link).unwrap();
    let names = [link.to_str().unwrap(), target.to_str().unwrap()];
    for paths in [&names[..1], &names] {
        std::fs::write(&target, MESSY).unwrap();
        let output = run(&[&["fmt"][..], paths].concat());
        assert_eq!(
            output.status.code(),
            Some(0),
            "{paths:?}: {}",
            stderr(&output)
        );
        let link_type = std::fs::symlink_metadata(&link).unwrap().file_type();
        assert!(link_type.is_symlink(), "{paths:?}");
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "start(hike)\n");
    }
}

/// Whether the tests run as root, which the cases with other users need.
fn running_as_root(test: &str) -> bool {
    let root = std::fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0);
    let setpriv = Command::new("setpriv").arg("--version").output().is_ok();
    if !(root && setpriv) {
        println!("skipped {test}: needs root and util-linux's setpriv to act as another user");
    }
    root && setpriv
}

/// `nobody` and `nogroup`: an unprivileged user in a group of its own.
const NOBODY: u32 = 65534;

/// Runs `program` as user and group `id`, with no supplementary groups.
fn run_as(id: u32, program: &str, args: &[&str]) -> Output {
    Command::new("setpriv")
        .args([
            &format!("--reuid={id}"),
            &format!("--regid={id}"),
            "--clear-groups",
            program,
        ])
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("setpriv runs")
}

/// A directory everyone may write, holding `a.silp` (`MESSY`) with this owner and mode.
fn shared_dir_with_file(uid: u32, gid: u32, mode: u32) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
    let file = dir.path().join("a.silp");
    std::fs::write(&file, MESSY).unwrap();
    std::os::unix::fs::chown(&file, Some(uid), Some(gid)).unwrap();
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(mode)).unwrap();
    (dir, file.to_str().unwrap().to_string())
}

fn assert_untouched(dir: &tempfile::TempDir, file: &str, uid: u32, gid: u32) {
    let metadata = std::fs::metadata(file).unwrap();
    assert_eq!((metadata.uid(), metadata.gid()), (uid, gid));
    assert_eq!(std::fs::read_to_string(file).unwrap(), MESSY);
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        1,
        "no temporary file is left"
    );
}

#[test]
fn a_file_the_user_may_not_write_is_refused_though_the_directory_is_writable() {
    if !running_as_root("a_file_the_user_may_not_write_is_refused") {
        return;
    }
    let (dir, file) = shared_dir_with_file(0, 0, 0o644);
    for command in REWRITING {
        let output = run_as(NOBODY, BIN, &[command, &[file.as_str()]].concat());
        let message =
            format!("{file}: cannot open it for writing: Permission denied; left unchanged");
        assert_error(&output, &message, &format!("{command:?}"));
        assert_untouched(&dir, &file, 0, 0);
    }
}

#[test]
fn root_keeps_another_users_file_theirs() {
    if !running_as_root("root_keeps_another_users_file_theirs") {
        return;
    }
    let (_dir, file) = shared_dir_with_file(4321, 4321, 0o640);
    for command in REWRITING {
        std::fs::write(&file, MESSY).unwrap();
        let output = run(&[command, &[file.as_str()]].concat());
        assert_eq!(
            output.status.code(),
            Some(0),
            "{command:?}: {}",
            stderr(&output)
        );
        let metadata = std::fs::metadata(&file).unwrap();
        assert_eq!(
            (metadata.uid(), metadata.gid(), metadata.mode() & 0o7777),
            (4321, 4321, 0o640),
            "{command:?}"
        );
        let read = run_as(4321, "cat", &[&file]);
        assert_eq!(
            String::from_utf8_lossy(&read.stdout),
            "start(hike)\n",
            "its owner reads it"
        );
    }
}

/// A group member may write another user's file but not give a file to that user:
/// replacing it would make the file theirs, so it is refused.
#[test]
fn an_owner_that_cannot_be_kept_is_refused() {
    if !running_as_root("an_owner_that_cannot_be_kept_is_refused") {
        return;
    }
    let (dir, file) = shared_dir_with_file(4321, NOBODY, 0o664);
    let output = run_as(NOBODY, BIN, &["fmt", &file]);
    let message =
        format!("{file}: cannot keep its owner and group: Operation not permitted; left unchanged");
    assert_error(&output, &message, "fmt");
    assert_untouched(&dir, &file, 4321, NOBODY);
}
