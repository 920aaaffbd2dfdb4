//! The `silp-lint` command line: argument parsing and output only; linting is the
//! library's `run::check`.

use clap::{Parser, Subcommand};
use silp_lint::config::{Overrides, Resolver};
use silp_lint::convert::Target;
use silp_lint::diagnostics::Severity;
use silp_lint::driver::{self, CheckOptions, StdinSource};
use silp_lint::format;
use silp_lint::fs::{decode_utf8, describe_io, read_source, read_stream};
use silp_lint::render::{self, FileDiagnostics, OutputFormat};
use silp_lint::rules::registry::{self, RULES};
use silp_lint::settings::Draft;
use silp_lint::source::{FileKind, LineIndex};
use std::collections::HashSet;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// mimalloc (see `silp_lint::memory`): linting allocates many small nodes, where it
/// is markedly faster than the system allocator.
#[global_allocator]
static GLOBAL: silp_lint::memory::Allocator = silp_lint::memory::Allocator;
use std::sync::Arc;

#[derive(Parser)]
#[command(
    name = "silp-lint",
    version,
    about = "Lint SILP, Slipstream SLIP and NLIP agent payloads",
    long_about = "Lint SILP, Slipstream SLIP and NLIP agent payloads.\n\n\
        Files: *.silp (code frontend, one payload per line), *.slip (Slipstream lines), \
        *.silp.json / *.silp.jsonl (IR documents and JSON-frontend payloads), \
        *.nlip.json (NLIP messages), *.mcp-call.json (MCP tool calls with SILP \
        wrappers), *.a2a.json (A2A messages and Agent Cards using Slipstream), \
        *.md (fenced silp, slip and silp-json blocks).\n\n\
        With no command, `check` runs.",
    after_help = "Exit status: 0 when no error or warning remains, 1 when one does, \
        2 on a usage error, an input that could not be read (a missing path; a FIFO, \
        device or process substitution, which are not files; more than 64 MiB on \
        standard input) or a file left unwritten.\n\n\
        fmt and --fix replace a file atomically, keeping its mode, owner and group (a \
        file with several hard links is written in place); a file that changed on disk \
        during the run, that you may not write or that is read-only is left unchanged."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Lint files and directories (the default command)
    Check(CheckArgs),
    /// Rewrite code-frontend and SLIP payloads (`.silp`, `.slip`, and `silp`/`slip`
    /// blocks in Markdown) to canonical form
    Fmt(FmtArgs),
    /// Convert payloads between frontends through the IR (one output line per payload)
    Convert(ConvertArgs),
    /// Print a rule's documentation (by code, e.g. SL101, or name)
    Rule {
        /// The rule's code or name
        code: String,
    },
    /// List every rule with its code, name and default severity
    Rules,
    /// Run the language server on standard input and output (as `silp-lsp` does)
    ///
    /// Diagnostics with quick fixes and "fix all safe problems", hover, completion,
    /// semantic tokens, document symbols and formatting, for the files `check`
    /// reads. A client that declares pulling diagnostics (LSP 3.17
    /// `textDocument/diagnostic`, as VS Code's does) gets a document's diagnostics
    /// when it asks, answered "unchanged" when they have not changed; any other
    /// client gets them pushed (`publishDiagnostics`) after each lint. Positions are
    /// in UTF-16 code units unless the client offers UTF-8.
    Lsp,
}

#[derive(clap::Args)]
struct CheckArgs {
    /// Files or directories to lint; `-` reads standard input (at most 64 MiB)
    /// [default: the current directory, its files named without `./`]
    paths: Vec<String>,
    /// How to print diagnostics
    #[arg(long, value_enum, default_value = "human")]
    output_format: OutputFormat,
    /// Only run these rules (codes or prefixes, comma-separated: SL1,SL201)
    #[arg(long, value_delimiter = ',', value_name = "CODES")]
    select: Vec<String>,
    /// Never run these rules (codes or prefixes, comma-separated)
    #[arg(long, value_delimiter = ',', value_name = "CODES")]
    ignore: Vec<String>,
    /// The draft revision payloads are written against: 00, 01 or 02 (the newest,
    /// the default); replaces the configuration's `draft`
    #[arg(long, value_name = "REVISION", value_parser = parse_draft)]
    draft: Option<Draft>,
    #[command(flatten)]
    inputs: InputArgs,
    /// Print diagnostics only, no summary line
    #[arg(long, short)]
    quiet: bool,
    /// When to colour human output (NO_COLOR turns colour off under `auto`)
    #[arg(long, value_enum, default_value = "auto")]
    color: ColorChoice,
    /// Apply safe fixes in place, then report what remains
    #[arg(long)]
    fix: bool,
    /// With --fix, also apply unsafe fixes (which may change what a payload means);
    /// implies --fix
    #[arg(long)]
    unsafe_fixes: bool,
}

#[derive(clap::Args)]
struct FmtArgs {
    /// Files or directories to format; `-` formats standard input (at most 64 MiB) to
    /// standard output [default: the current directory, its files named without `./`]
    paths: Vec<String>,
    /// Change nothing; list the files that would be reformatted and exit 1 if any
    #[arg(long)]
    check: bool,
    #[command(flatten)]
    inputs: InputArgs,
}

impl InputArgs {
    /// `--stdin-filename` without paths means standard input, as in ruff: a hook or
    /// an editor that pipes text in should not lint the whole directory instead.
    fn read_stdin_when_named(&self, paths: &mut Vec<String>) {
        if paths.is_empty() && self.stdin_filename.is_some() {
            paths.push("-".to_string());
        }
    }

    /// The configuration lookup for a run, or exit status 2 for a broken `--config`.
    fn options(&self, overrides: Overrides) -> Result<CheckOptions, ExitCode> {
        match Resolver::new(self.config.as_deref(), overrides) {
            Ok(resolver) => Ok(CheckOptions {
                resolver: Arc::new(resolver),
                force_exclude: self.force_exclude,
            }),
            Err(error) => {
                eprintln!("error: {error}");
                Err(ExitCode::from(2))
            }
        }
    }
}

/// How `check` and `fmt` find and configure their inputs.
#[derive(clap::Args)]
struct InputArgs {
    /// The file name that standard input stands for: sets its kind (default: a .silp
    /// file) and its name in output. Given without paths, standard input is read
    /// (as with `-`)
    #[arg(long, value_name = "NAME")]
    stdin_filename: Option<String>,
    /// Use this configuration file for every input instead of looking for
    /// silp-lint.toml / pyproject.toml above each file (read up to 64 MiB)
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Apply the configuration's `exclude` to paths named on the command line too
    #[arg(long)]
    force_exclude: bool,
}

#[derive(clap::Args)]
struct ConvertArgs {
    /// The file to convert (.silp, .silp.json, .silp.jsonl, .md); `-` reads standard
    /// input (at most 64 MiB)
    file: String,
    /// What to print: a frontend, or the canonical IR document
    #[arg(long, value_enum)]
    to: Target,
    /// Length of the `req_id`s regenerated for code and JSON-frontend payloads (4 reproduces the reference implementation)
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u8).range(4..=8))]
    req_id_length: u8,
    /// The file name that standard input stands for: sets its kind and its name in messages
    #[arg(long, value_name = "NAME")]
    stdin_filename: Option<String>,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum ColorChoice {
    Auto,
    Always,
    Never,
}

const COMMANDS: [&str; 7] = ["check", "convert", "fmt", "rule", "rules", "help", "lsp"];

fn main() -> ExitCode {
    silp_lint::memory::disable_transparent_huge_pages();
    let mut args: Vec<String> = std::env::args().collect();
    // `check` is the default command: `silp-lint PATHS` means `silp-lint check PATHS`.
    let first = args.get(1).map(String::as_str);
    let is_global_flag = matches!(first, Some("-h" | "--help" | "-V" | "--version"));
    if !is_global_flag && !first.is_some_and(|a| COMMANDS.contains(&a)) {
        args.insert(1, "check".to_string());
    }
    let cli = Cli::parse_from(args);
    match cli.command {
        Command::Check(args) => check(args),
        Command::Fmt(args) => fmt(args),
        Command::Convert(args) => convert(args),
        Command::Rule { code } => rule(&code),
        Command::Rules => rules(),
        Command::Lsp => match silp_lint::lsp::serve_stdio() {
            Ok(()) => ExitCode::SUCCESS,
            Err(error) => {
                eprintln!("error: the language server stopped: {error}");
                ExitCode::from(2)
            }
        },
    }
}

fn parse_draft(text: &str) -> Result<Draft, String> {
    Draft::parse(text).ok_or_else(|| format!("`{text}` is not one of 00, 01, 02"))
}

fn check(args: CheckArgs) -> ExitCode {
    let selectors = |codes: &[String]| -> Vec<String> {
        codes
            .iter()
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect()
    };
    let overrides = Overrides {
        select: selectors(&args.select),
        ignore: selectors(&args.ignore),
        draft: args.draft,
    };
    if let Some(selector) = overrides.unknown_selectors().first() {
        eprintln!("error: `{selector}` matches no rule code (see `silp-lint rules`)");
        return ExitCode::from(2);
    }
    let mut paths = args.paths;
    args.inputs.read_stdin_when_named(&mut paths);
    let mut stdin = None;
    if paths.iter().any(|p| p == "-") {
        paths.retain(|p| p != "-");
        let text = match read_stdin() {
            Ok(text) => text,
            Err(code) => return code,
        };
        let name = args
            .inputs
            .stdin_filename
            .clone()
            .unwrap_or_else(|| "-".to_string());
        stdin = Some(StdinSource { name, text });
    }
    let options = match args.inputs.options(overrides) {
        Ok(options) => options,
        Err(code) => return code,
    };
    let mut errors = Vec::new();
    let mut fixed_line = None;
    let mut fixed_reports = driver::FixedReports::new();
    if args.fix || args.unsafe_fixes {
        if stdin.is_some() {
            eprintln!("error: --fix rewrites files in place and cannot fix standard input");
            return ExitCode::from(2);
        }
        let mut fixed = driver::fix_paths(&paths, &options, args.unsafe_fixes);
        fixed_reports = fixed.take_reports();
        let count = fixed.applied();
        let written = fixed.written();
        let by_rule: Vec<String> = fixed
            .by_rule()
            .iter()
            .map(|(code, n)| format!("{code} \u{d7}{n}"))
            .collect();
        fixed_line = Some(format!(
            "Fixed {count} diagnostic{} in {} file{}{}.",
            if count == 1 { "" } else { "s" },
            written,
            if written == 1 { "" } else { "s" },
            if by_rule.is_empty() {
                String::new()
            } else {
                format!(" ({})", by_rule.join(", "))
            }
        ));
        errors.extend(fixed.errors);
    }
    let color = match args.color {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && std::io::stdout().is_terminal()
        }
    };
    if let Some(line) = &fixed_line {
        // Machine-readable formats keep stdout for the diagnostics alone.
        if args.output_format != OutputFormat::Human {
            eprintln!("{line}");
        } else if !args.quiet {
            println!("{line}");
        }
    }
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let report = Report::new(args.output_format, color);
    let (run, mut written) = report.run(
        &paths,
        stdin,
        &options,
        fixed_reports,
        &mut out,
        &mut errors,
    );
    // Check's errors (sorted, without repeats) that the fix run did not report
    // already: looked up by hash, as the fix run can report tens of thousands
    // (one per refused fix).
    if !run.errors.is_empty() {
        let reported: HashSet<&str> = errors.iter().map(String::as_str).collect();
        let new_errors: Vec<String> = run
            .errors
            .into_iter()
            .filter(|error| !reported.contains(error.as_str()))
            .collect();
        errors.extend(new_errors);
    }
    let nothing_to_say = run.tally.total() == 0 && !errors.is_empty();
    if written.is_ok()
        && args.output_format == OutputFormat::Human
        && !args.quiet
        && !nothing_to_say
    {
        written = writeln!(out, "{}", run.tally.summary());
    }
    if let Err(error) = written.and_then(|()| out.flush()) {
        if error.kind() != std::io::ErrorKind::BrokenPipe {
            eprintln!("error: cannot write output: {error}");
            return ExitCode::from(2);
        }
    }
    print_errors(&errors);
    if !errors.is_empty() {
        ExitCode::from(2)
    } else if run.tally.fails_check() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// How `check` prints its diagnostics: file by file, each rendered on the worker
/// thread that linted it and written in path order as the run goes (SARIF, one
/// JSON document for the run, is written at the end).
struct Report {
    format: OutputFormat,
    color: bool,
}

impl Report {
    fn new(format: OutputFormat, color: bool) -> Report {
        Report { format, color }
    }

    /// Runs `check`, writing each file's report to `out` as it comes; errors
    /// rendering a file join `errors`. A failed write stops the output, not the run.
    /// `fixed` holds the reports the fix engine of `--fix` gave.
    fn run(
        &self,
        paths: &[String],
        stdin: Option<StdinSource>,
        options: &CheckOptions,
        fixed: driver::FixedReports,
        out: &mut dyn Write,
        errors: &mut Vec<String>,
    ) -> (driver::CheckRun, std::io::Result<()>) {
        let mut writer = render::Writer::new(out, self.format, self.color);
        let mut write_error = None;
        let render_one =
            |file: &driver::CheckedFile| -> Result<Option<render::RenderedFile>, String> {
                if file.diagnostics.is_empty() {
                    return Ok(None);
                }
                let diagnostics = FileDiagnostics {
                    path: file.path,
                    text: file.text,
                    diagnostics: &file.diagnostics,
                };
                render::render_file(&diagnostics, self.format, self.color)
                    .map(Some)
                    .map_err(|e| format!("{}: cannot render diagnostics: {e}", file.path))
            };
        let run = driver::check(
            paths,
            stdin,
            options,
            fixed,
            render_one,
            |rendered| match rendered {
                Ok(Some(file)) if write_error.is_none() => {
                    write_error = writer.write_rendered(file).err();
                }
                Ok(_) => {}
                Err(error) => errors.push(error),
            },
        );
        let written = match write_error {
            Some(error) => Err(error),
            None => writer.finish(),
        };
        (run, written)
    }
}

fn fmt(args: FmtArgs) -> ExitCode {
    let mut paths = args.paths;
    args.inputs.read_stdin_when_named(&mut paths);
    if paths.iter().any(|p| p == "-") {
        if paths.len() > 1 {
            eprintln!("error: `-` (standard input) cannot be formatted together with other paths");
            return ExitCode::from(2);
        }
        return fmt_stdin(
            args.inputs.stdin_filename.as_deref().unwrap_or("-"),
            args.check,
        );
    }
    let options = match args.inputs.options(Overrides::default()) {
        Ok(options) => options,
        Err(code) => return code,
    };
    let run = driver::format_paths(&paths, &options, args.check);
    let changed = run.files.iter().filter(|f| f.changed).count();
    let unchanged = run.files.len() - changed;
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    for file in run.files.iter().filter(|f| f.changed) {
        if args.check {
            println!("Would reformat: {}", file.path);
        } else {
            println!("Reformatted: {}", file.path);
        }
    }
    let verb = if args.check {
        "would be reformatted"
    } else {
        "reformatted"
    };
    let kept = if args.check {
        "already formatted"
    } else {
        "left unchanged"
    };
    println!(
        "{changed} file{} {verb}, {unchanged} file{} {kept}",
        plural(changed),
        plural(unchanged)
    );
    print_errors(&run.errors);
    if !run.errors.is_empty() {
        ExitCode::from(2)
    } else if args.check && changed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// Standard input to its end, at most 64 MiB (`fs::STREAM_LIMIT`): an endless
/// stream is an error, exit status 2.
fn read_stdin() -> Result<Vec<u8>, ExitCode> {
    read_stream(std::io::stdin().lock()).map_err(|error| {
        eprintln!("error: cannot read standard input: {}", describe_io(&error));
        ExitCode::from(2)
    })
}

/// Prints a run's errors to standard error, through one buffer: standard error is
/// unbuffered, and `eprintln!` wrote each error in three pieces (480,000 writes
/// for the 160,000 refusals of one `--fix` run).
fn print_errors(errors: &[String]) {
    let mut stderr = std::io::BufWriter::new(std::io::stderr().lock());
    for error in errors {
        if writeln!(stderr, "error: {error}").is_err() {
            return;
        }
    }
    let _ = stderr.flush();
}

/// Formats standard input to standard output (or, with `check`, only says whether it
/// would change).
fn fmt_stdin(name: &str, check: bool) -> ExitCode {
    let bytes = match read_stdin() {
        Ok(bytes) => bytes,
        Err(code) => return code,
    };
    let text = match decode_utf8(name, bytes) {
        Ok(text) => text,
        Err(error) => {
            eprintln!("error: {error}");
            return ExitCode::from(2);
        }
    };
    let kind = FileKind::from_path(name).unwrap_or(FileKind::Silp);
    let formatted = format::format_text(&text, kind);
    if check {
        if formatted == text {
            return ExitCode::SUCCESS;
        }
        println!("Would reformat: {name}");
        return ExitCode::from(1);
    }
    let mut out = std::io::stdout().lock();
    match out
        .write_all(formatted.as_bytes())
        .and_then(|()| out.flush())
    {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: cannot write output: {error}");
            ExitCode::from(2)
        }
    }
}

fn convert(args: ConvertArgs) -> ExitCode {
    let (name, text) = if args.file == "-" {
        let bytes = match read_stdin() {
            Ok(bytes) => bytes,
            Err(code) => return code,
        };
        let name = args
            .stdin_filename
            .clone()
            .unwrap_or_else(|| "-".to_string());
        match decode_utf8(&name, bytes) {
            Ok(text) => (name, text),
            Err(error) => {
                eprintln!("error: {error}");
                return ExitCode::from(2);
            }
        }
    } else {
        match read_source(&args.file) {
            Ok(text) => (args.file.clone(), text),
            Err(error) => {
                eprintln!("error: {error}");
                return ExitCode::from(2);
            }
        }
    };
    let kind = match FileKind::from_path(&name) {
        Some(kind) => kind,
        None if args.file == "-" && args.stdin_filename.is_none() => {
            silp_lint::convert::sniff_kind(&text)
        }
        None => {
            eprintln!("error: {name}: cannot tell the payload kind from the file name (use .silp, .silp.json, .silp.jsonl or .md, or --stdin-filename with `-`)");
            return ExitCode::from(2);
        }
    };
    match silp_lint::convert::convert(&text, kind, args.to, usize::from(args.req_id_length)) {
        Ok(out) => {
            let mut stdout = std::io::stdout().lock();
            if let Err(error) = stdout
                .write_all(out.as_bytes())
                .and_then(|_| stdout.flush())
            {
                if error.kind() != std::io::ErrorKind::BrokenPipe {
                    eprintln!("error: cannot write output: {error}");
                    return ExitCode::from(2);
                }
            }
            ExitCode::SUCCESS
        }
        Err(error) => {
            let at = LineIndex::new(&text).location(&text, error.span.start);
            eprintln!("{name}:{}:{}: error: {}", at.line, at.column, error.message);
            ExitCode::from(1)
        }
    }
}

fn rule(code: &str) -> ExitCode {
    let Some(rule) = registry::find(code) else {
        eprintln!("error: no rule `{code}` (see `silp-lint rules`)");
        return ExitCode::from(2);
    };
    let meta = rule.meta();
    println!("# {} ({})\n", meta.name, meta.code);
    println!("Default severity: {}", meta.severity.as_str());
    if let Some(protocol_error) = meta.protocol_error {
        println!("SILP protocol error: `{protocol_error}`");
    }
    println!();
    print!("{}", meta.documentation());
    ExitCode::SUCCESS
}

fn rules() -> ExitCode {
    for rule in RULES {
        let meta = rule.meta();
        let severity = match meta.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
            Severity::Hint => "hint",
        };
        println!(
            "{}  {:<26} {:<8} {}",
            meta.code,
            meta.name,
            severity,
            meta.summary()
        );
    }
    ExitCode::SUCCESS
}
