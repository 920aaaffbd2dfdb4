//! Configuration files: `silp-lint.toml`, or `[tool.silp-lint]` in `pyproject.toml`,
//! found by walking up from each linted file (cli.md, "Configuration"). Unknown keys
//! and bad values are errors naming the key and its line.

use crate::diagnostics::{RuleId, Severity};
use crate::fs::{describe_io, read_stream};
use crate::rules::registry;
use crate::settings::{Draft, RuleSet, RuleTable, Settings};
use crate::source::LineIndex;
use crate::vocabulary::core_anchor;
use serde::Deserialize;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use toml::Spanned;

/// A configuration file that could not be used, with where and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError {
    pub path: String,
    /// 1-based line and column of the offending key or value (0 when unknown).
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.line > 0 {
            write!(
                f,
                "{}:{}:{}: {}",
                self.path, self.line, self.column, self.message
            )
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

/// The keys of cli.md's configuration table.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawConfig {
    #[serde(default)]
    select: Vec<Spanned<String>>,
    #[serde(default)]
    ignore: Vec<Spanned<String>>,
    #[serde(default)]
    extend_verbs: Vec<Spanned<String>>,
    #[serde(default)]
    extend_frontends: Vec<Spanned<String>>,
    #[serde(default)]
    exclude: Vec<Spanned<String>>,
    #[serde(default)]
    extend_anchors: BTreeMap<Spanned<String>, Spanned<i64>>,
    #[serde(default)]
    severity: BTreeMap<Spanned<String>, Spanned<String>>,
    #[serde(default)]
    per_file_ignores: BTreeMap<Spanned<String>, Vec<Spanned<String>>>,
    draft: Option<Spanned<String>>,
}

#[derive(Deserialize)]
struct Pyproject {
    tool: Option<PyprojectTool>,
}

#[derive(Deserialize)]
struct PyprojectTool {
    #[serde(rename = "silp-lint")]
    silp_lint: Option<RawConfig>,
}

/// One loaded configuration file, its rule selection compiled into rule sets.
#[derive(Debug)]
pub struct Config {
    pub path: PathBuf,
    /// Patterns are relative to this directory.
    pub root: PathBuf,
    /// `select`, when given; every rule otherwise.
    select: Option<RuleSet>,
    /// The rules `select` names other than by `ALL`.
    explicit: RuleSet,
    ignore: RuleSet,
    /// `[severity]`: a level, or `None` for `off`.
    severity: Vec<(RuleId, Option<Severity>)>,
    /// The vocabulary extensions; its rule table is unused (see [`Config::settings_for`]).
    vocabulary: Settings,
    exclude: ignore::gitignore::Gitignore,
    per_file_ignores: Vec<(globset::GlobMatcher, RuleSet)>,
}

impl Config {
    /// Loads `path`: a `pyproject.toml` without `[tool.silp-lint]` gives `None`.
    pub fn load(path: &Path) -> Result<Option<Config>, ConfigError> {
        let shown = relative_to_cwd(path).display().to_string();
        // Bounded: `--config` may name a pipe or a device that never ends.
        let text = std::fs::File::open(path)
            .and_then(read_stream)
            .and_then(|bytes| {
                String::from_utf8(bytes).map_err(|_| {
                    std::io::Error::new(
                        std::io::ErrorKind::InvalidData,
                        "stream did not contain valid UTF-8",
                    )
                })
            })
            .map_err(|e| ConfigError {
                path: shown.clone(),
                line: 0,
                column: 0,
                message: format!("cannot read the configuration: {}", describe_io(&e)),
            })?;
        let is_pyproject = path.file_name().is_some_and(|n| n == "pyproject.toml");
        Config::parse(&text, path, is_pyproject)
    }

    /// Parses configuration text read from `path`.
    pub fn parse(
        text: &str,
        path: &Path,
        is_pyproject: bool,
    ) -> Result<Option<Config>, ConfigError> {
        let shown = relative_to_cwd(path).display().to_string();
        let index = LineIndex::new(text);
        let error_at = |span: std::ops::Range<usize>, message: String| {
            let at = index.location(text, span.start);
            ConfigError {
                path: shown.clone(),
                line: at.line,
                column: at.column,
                message,
            }
        };
        let toml_error = |e: toml::de::Error| match e.span() {
            Some(span) => error_at(span, e.message().trim().to_string()),
            None => ConfigError {
                path: shown.clone(),
                line: 0,
                column: 0,
                message: e.message().trim().to_string(),
            },
        };
        let raw = if is_pyproject {
            let pyproject: Pyproject = toml::from_str(text).map_err(toml_error)?;
            match pyproject.tool.and_then(|t| t.silp_lint) {
                Some(raw) => raw,
                None => return Ok(None),
            }
        } else {
            toml::from_str::<RawConfig>(text).map_err(toml_error)?
        };
        let root = path.parent().map(Path::to_path_buf).unwrap_or_default();
        let rules_of = |code: &Spanned<String>, key: &str| -> Result<RuleSet, ConfigError> {
            let selector = code.get_ref().trim();
            if selector.is_empty() {
                return Err(error_at(
                    code.span(),
                    format!("`{key}`: an empty selector matches no rule code"),
                ));
            }
            let rules = registry::matching(selector);
            if rules.is_empty() {
                return Err(error_at(
                    code.span(),
                    format!("`{key}`: `{selector}` matches no rule code (see `silp-lint rules`)"),
                ));
            }
            Ok(rules)
        };
        let mut select = None;
        let mut explicit = RuleSet::EMPTY;
        if !raw.select.is_empty() {
            let mut rules = RuleSet::EMPTY;
            for code in &raw.select {
                rules = rules.union(rules_of(code, "select")?);
                explicit = explicit.union(registry::named_explicitly(code.get_ref()));
            }
            select = Some(rules);
        }
        let mut ignore = RuleSet::EMPTY;
        for code in &raw.ignore {
            ignore = ignore.union(rules_of(code, "ignore")?);
        }
        let mut severity = Vec::new();
        for (code, level) in &raw.severity {
            rules_of(code, "severity")?;
            let code_text = code.get_ref().trim();
            let Some(rule) = registry::find(code_text) else {
                return Err(error_at(code.span(), format!("`severity`: `{code_text}` is not a rule code (prefixes are not allowed here)")));
            };
            let code_text = rule.meta().code;
            let level_text = level.get_ref().as_str();
            let level = match level_text {
                "off" => None,
                other => Some(Severity::parse(other).ok_or_else(|| {
                    error_at(level.span(), format!("`severity.{code_text}`: `{other}` is not one of error, warning, info, hint, off"))
                })?),
            };
            severity.push((rule.meta().id, level));
        }
        let mut vocabulary = Settings::default();
        if let Some(draft) = &raw.draft {
            vocabulary.draft = Draft::parse(draft.get_ref()).ok_or_else(|| {
                error_at(
                    draft.span(),
                    format!(
                        "`draft`: `{}` is not one of \"00\", \"01\", \"02\"",
                        draft.get_ref()
                    ),
                )
            })?;
        }
        for verb in &raw.extend_verbs {
            let text = verb.get_ref();
            let valid = !text.is_empty()
                && text
                    .split('_')
                    .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_uppercase()));
            if !valid {
                return Err(error_at(verb.span(), format!("`extend-verbs`: `{text}` is not an upper-case verb (letters and `_`, no `!`)")));
            }
            vocabulary.extend_verbs.push(text.clone());
        }
        for frontend in &raw.extend_frontends {
            let text = frontend.get_ref();
            if text.is_empty()
                || !text
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
            {
                return Err(error_at(
                    frontend.span(),
                    format!("`extend-frontends`: `{text}` is not a frontend name"),
                ));
            }
            vocabulary.extend_frontends.push(text.clone());
        }
        for (mnemonic, index) in &raw.extend_anchors {
            let name = mnemonic.get_ref();
            // ASCII letters, digits and `_`, as the Slipstream reference's extension
            // manager generates them (`EXT_CheckTheKubernetesPod`).
            let valid_name = name.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            if !valid_name {
                return Err(error_at(mnemonic.span(), format!("`extend-anchors`: `{name}` is not an anchor mnemonic (ASCII letters, digits and `_`, starting with a letter)")));
            }
            if core_anchor(name).is_some() {
                return Err(error_at(
                    mnemonic.span(),
                    format!("`extend-anchors`: `{name}` is a core UCR anchor already"),
                ));
            }
            let value = *index.get_ref();
            if !(0x8000..=0xFFFF).contains(&value) {
                // The value as written (`-1`, `0x10`, `1_000`), not as re-printed.
                let written = text
                    .get(index.span())
                    .map(str::trim)
                    .filter(|w| !w.is_empty())
                    .map_or_else(|| value.to_string(), str::to_string);
                return Err(error_at(index.span(), format!("`extend-anchors.{name}`: {written} is outside the extension range 0x8000..=0xFFFF")));
            }
            vocabulary.extend_anchors.push((name.clone(), value as u16));
        }
        let mut exclude = ignore::gitignore::GitignoreBuilder::new(&root);
        // An unclosed `[` is an error, as in `per-file-ignores`, not a literal `[`.
        exclude.allow_unclosed_class(false);
        for pattern in &raw.exclude {
            let text = pattern.get_ref();
            // gitignore reads these lines as nothing: the pattern would exclude nothing.
            if text.trim().is_empty() || text.starts_with('#') {
                return Err(error_at(
                    pattern.span(),
                    format!("`exclude`: `{text}` excludes nothing (an empty pattern or a `#` comment; write `\\#` for a name that starts with `#`)"),
                ));
            }
            exclude
                .add_line(None, text)
                .map_err(|e| error_at(pattern.span(), format!("`exclude`: {e}")))?;
        }
        let exclude = exclude
            .build()
            .map_err(|e| error_at(0..0, format!("`exclude`: {e}")))?;
        let mut per_file_ignores = Vec::new();
        for (pattern, codes) in &raw.per_file_ignores {
            let glob = globset::GlobBuilder::new(pattern.get_ref())
                .literal_separator(false)
                .build()
                .map_err(|e| error_at(pattern.span(), format!("`per-file-ignores`: {e}")))?;
            let mut rules = RuleSet::EMPTY;
            for code in codes {
                rules = rules.union(rules_of(code, "per-file-ignores")?);
            }
            per_file_ignores.push((glob.compile_matcher(), rules));
        }
        Ok(Some(Config {
            path: path.to_path_buf(),
            root,
            select,
            explicit,
            ignore,
            severity,
            vocabulary,
            exclude,
            per_file_ignores,
        }))
    }

    /// Whether `path` (a file or directory) matches an `exclude` pattern.
    pub fn is_excluded(&self, path: &Path, is_dir: bool) -> bool {
        let path = absolute(path);
        let Ok(relative) = path.strip_prefix(absolute(&self.root)) else {
            return false;
        };
        self.exclude
            .matched_path_or_any_parents(relative, is_dir)
            .is_ignore()
    }

    /// The rules `per-file-ignores` turns off for `path`.
    fn ignored_for(&self, path: &Path) -> RuleSet {
        let mut ignored = RuleSet::EMPTY;
        let path = absolute(path);
        if let Ok(relative) = path.strip_prefix(absolute(&self.root)) {
            for (glob, rules) in &self.per_file_ignores {
                if glob.is_match(relative) {
                    ignored = ignored.union(*rules);
                }
            }
        }
        ignored
    }

    /// The settings for a file this configuration governs: `select` (or the
    /// command line's, which replaces it), minus `ignore`, the command line's
    /// ignores and the file's per-file ignores, with `[severity]` applied.
    pub fn settings_for(&self, path: &Path, overrides: &CompiledOverrides) -> Settings {
        self.settings(overrides, self.ignored_for(path))
    }

    fn settings(&self, overrides: &CompiledOverrides, ignored: RuleSet) -> Settings {
        let (select, explicit) = match overrides.select {
            Some(select) => (select, overrides.explicit),
            None => (self.select.unwrap_or(RuleSet::ALL), self.explicit),
        };
        let mut rules = RuleTable::selected(select, explicit);
        rules.disable(self.ignore.union(overrides.ignore).union(ignored));
        for (rule, level) in &self.severity {
            match level {
                Some(level) => rules.set_severity(*rule, *level),
                None => {
                    let mut off = RuleSet::EMPTY;
                    off.insert(*rule);
                    rules.disable(off);
                }
            }
        }
        Settings {
            rules,
            draft: overrides.draft.unwrap_or(self.vocabulary.draft),
            ..self.vocabulary.clone()
        }
    }
}

/// `path` as a user would name it from the current directory, for messages.
fn relative_to_cwd(path: &Path) -> &Path {
    match std::env::current_dir() {
        Ok(cwd) => path.strip_prefix(&cwd).unwrap_or(path),
        Err(_) => path,
    }
}

fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

/// Settings given on the command line (or by an editor), applied over every
/// configuration.
#[derive(Clone, Debug, Default)]
pub struct Overrides {
    /// Replaces the configuration's `select` when not empty.
    pub select: Vec<String>,
    /// Added to the configuration's `ignore`.
    pub ignore: Vec<String>,
    /// Replaces the configuration's `draft` when given.
    pub draft: Option<Draft>,
}

impl Overrides {
    /// The selectors that name no rule code.
    pub fn unknown_selectors(&self) -> Vec<&str> {
        self.select
            .iter()
            .chain(&self.ignore)
            .map(|s| s.trim())
            .filter(|s| registry::matching(s).is_empty())
            .collect()
    }

    /// The overrides as rule sets (selectors naming nothing select nothing).
    pub fn compile(&self) -> CompiledOverrides {
        let union = |selectors: &[String]| {
            selectors
                .iter()
                .fold(RuleSet::EMPTY, |set, s| set.union(registry::matching(s)))
        };
        CompiledOverrides {
            select: (!self.select.is_empty()).then(|| union(&self.select)),
            explicit: self.select.iter().fold(RuleSet::EMPTY, |set, s| {
                set.union(registry::named_explicitly(s))
            }),
            ignore: union(&self.ignore),
            draft: self.draft,
        }
    }
}

/// [`Overrides`] compiled into rule sets.
#[derive(Clone, Copy, Debug, Default)]
pub struct CompiledOverrides {
    select: Option<RuleSet>,
    /// The rules `select` names other than by `ALL`.
    explicit: RuleSet,
    ignore: RuleSet,
    draft: Option<Draft>,
}

/// Finds the configuration of each file (nearest `silp-lint.toml`, then
/// `pyproject.toml` with `[tool.silp-lint]`), caching per directory. With an
/// explicit `--config`, that file applies everywhere.
pub struct Resolver {
    explicit: Option<Arc<Config>>,
    overrides: CompiledOverrides,
    cache: Mutex<HashMap<PathBuf, Option<Arc<Config>>>>,
    /// The settings made so far, by configuration and per-file ignores: files that
    /// share both share one value.
    settings: Mutex<HashMap<(usize, RuleSet), Arc<Settings>>>,
}

impl Resolver {
    /// A resolver that finds each file's own configuration.
    pub fn discover(overrides: Overrides) -> Resolver {
        Resolver {
            explicit: None,
            overrides: overrides.compile(),
            cache: Mutex::new(HashMap::new()),
            settings: Mutex::new(HashMap::new()),
        }
    }

    pub fn new(explicit: Option<&Path>, overrides: Overrides) -> Result<Resolver, ConfigError> {
        let explicit = match explicit {
            None => None,
            Some(path) => match Config::load(path)? {
                Some(config) => Some(Arc::new(config)),
                None => {
                    return Err(ConfigError {
                        path: path.display().to_string(),
                        line: 0,
                        column: 0,
                        message: "has no `[tool.silp-lint]` table".to_string(),
                    })
                }
            },
        };
        Ok(Resolver {
            explicit,
            overrides: overrides.compile(),
            cache: Mutex::new(HashMap::new()),
            settings: Mutex::new(HashMap::new()),
        })
    }

    /// The configuration governing `path`, if any.
    pub fn config_for(&self, path: &Path) -> Result<Option<Arc<Config>>, ConfigError> {
        if let Some(config) = &self.explicit {
            return Ok(Some(config.clone()));
        }
        let start = absolute(path);
        let mut dir = start.parent().map(Path::to_path_buf);
        let mut visited = Vec::new();
        let mut found = None;
        while let Some(current) = dir {
            if let Some(cached) = self
                .cache
                .lock()
                .map(|c| c.get(&current).cloned())
                .unwrap_or(None)
            {
                found = cached;
                break;
            }
            visited.push(current.clone());
            let mut here = None;
            for name in ["silp-lint.toml", "pyproject.toml"] {
                let candidate = current.join(name);
                if candidate.is_file() {
                    if let Some(config) = Config::load(&candidate)? {
                        here = Some(Arc::new(config));
                        break;
                    }
                }
            }
            if here.is_some() {
                found = here;
                break;
            }
            dir = current.parent().map(Path::to_path_buf);
        }
        if let Ok(mut cache) = self.cache.lock() {
            for dir in visited {
                cache.insert(dir, found.clone());
            }
        }
        Ok(found)
    }

    /// The settings for linting `path`: its configuration's, then the overrides.
    pub fn settings_for(&self, path: &Path) -> Result<Arc<Settings>, ConfigError> {
        let Some(config) = self.config_for(path)? else {
            return Ok(self.unconfigured_settings());
        };
        let ignored = config.ignored_for(path);
        let key = (Arc::as_ptr(&config) as usize, ignored);
        Ok(self.cached(key, || config.settings(&self.overrides, ignored)))
    }

    /// The settings where no configuration file applies: the defaults, with the
    /// overrides.
    pub fn unconfigured_settings(&self) -> Arc<Settings> {
        self.cached((0, RuleSet::EMPTY), || {
            let mut rules = RuleTable::selected(
                self.overrides.select.unwrap_or(RuleSet::ALL),
                self.overrides.explicit,
            );
            rules.disable(self.overrides.ignore);
            Settings {
                rules,
                draft: self.overrides.draft.unwrap_or_default(),
                ..Settings::default()
            }
        })
    }

    fn cached(&self, key: (usize, RuleSet), make: impl FnOnce() -> Settings) -> Arc<Settings> {
        let mut cache = self.settings.lock().unwrap_or_else(|p| p.into_inner());
        cache.entry(key).or_insert_with(|| Arc::new(make())).clone()
    }

    /// Whether the configuration governing `path` excludes it.
    pub fn is_excluded(&self, path: &Path, is_dir: bool) -> bool {
        let probe = if is_dir {
            path.join("_")
        } else {
            path.to_path_buf()
        };
        matches!(self.config_for(&probe), Ok(Some(config)) if config.is_excluded(path, is_dir))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::registry::RULES;

    fn parse(text: &str) -> Result<Option<Config>, ConfigError> {
        Config::parse(text, Path::new("/p/silp-lint.toml"), false)
    }

    #[test]
    fn reads_every_key_of_the_documented_shape() {
        let config = parse(
            r#"
select = ["SL1", "SL201"]
ignore = ["SL302"]
extend-verbs = ["RAISE"]
extend-frontends = ["math"]
exclude = ["vendor/**"]

[extend-anchors]
CustomDeploy = 0x8001

[severity]
SL302 = "error"
SL405 = "off"

[per-file-ignores]
"legacy/*.silp" = ["SL101"]
"#,
        )
        .unwrap()
        .unwrap();
        let rule = |code: &str| registry::find(code).unwrap().meta();
        let none = CompiledOverrides::default();
        let s = config.settings_for(Path::new("/p/new/a.silp"), &none);
        let enabled: Vec<&str> = RULES
            .iter()
            .map(|r| r.meta())
            .filter(|m| s.enabled(m))
            .map(|m| m.code)
            .collect();
        // SL1 and SL201; SL302 is ignored, SL405 is not selected anyway.
        assert_eq!(enabled, ["SL101", "SL102", "SL103", "SL104", "SL201"]);
        assert_eq!(s.extend_anchors, [("CustomDeploy".to_string(), 0x8001)]);
        assert_eq!(s.extend_verbs, ["RAISE"]);
        assert_eq!(s.severity(rule("SL302")), Severity::Error);
        assert_eq!(s.severity(rule("SL101")), Severity::Error);
        assert!(config.is_excluded(Path::new("/p/vendor/x/a.silp"), false));
        assert!(!config.is_excluded(Path::new("/p/src/a.silp"), false));
        let legacy = config.settings_for(Path::new("/p/legacy/a.silp"), &none);
        assert!(!legacy.enabled(rule("SL101")));
        assert!(legacy.enabled(rule("SL102")));
        let everything = Overrides {
            select: vec!["ALL".to_string()],
            ..Overrides::default()
        };
        let s = config.settings_for(Path::new("/p/new/a.silp"), &everything.compile());
        assert!(s.enabled(rule("SL001")));
        assert!(!s.enabled(rule("SL302")), "ignored");
        assert!(!s.enabled(rule("SL405")), "off");
    }

    /// A rule named by a code or prefix is selected explicitly; `ALL` and the
    /// default select every rule only where each applies by default.
    #[test]
    fn selection_says_which_rules_were_named() {
        let sl605 = registry::find("SL605").unwrap().meta();
        let none = CompiledOverrides::default();
        let explicit = |select: &str| {
            let config = parse(&format!("select = [{select}]\n")).unwrap().unwrap();
            config
                .settings_for(Path::new("/p/a.slip"), &none)
                .rules
                .explicitly_selected(sl605)
        };
        assert!(explicit("\"SL6\""));
        assert!(explicit("\"ALL\", \"SL605\""));
        assert!(!explicit("\"ALL\""));
        let config = parse("ignore = [\"SL302\"]\n").unwrap().unwrap();
        let default = config.settings_for(Path::new("/p/a.slip"), &none);
        assert!(default.enabled(sl605) && !default.rules.explicitly_selected(sl605));
        let selected = Overrides {
            select: vec!["sl605".to_string()],
            ..Overrides::default()
        };
        let from_cli = config.settings_for(Path::new("/p/a.slip"), &selected.compile());
        assert!(from_cli.rules.explicitly_selected(sl605));
        let resolver = Resolver::discover(selected);
        assert!(resolver
            .unconfigured_settings()
            .rules
            .explicitly_selected(sl605));
        let everything = Resolver::discover(Overrides::default()).unconfigured_settings();
        assert!(everything.enabled(sl605) && !everything.rules.explicitly_selected(sl605));
    }

    #[test]
    fn the_draft_revision_is_read_and_the_command_line_replaces_it() {
        let config = parse("draft = \"00\"\n").unwrap().unwrap();
        let path = Path::new("/p/a.silp");
        let none = CompiledOverrides::default();
        assert_eq!(config.settings_for(path, &none).draft, Draft::D00);
        let newest = Overrides {
            draft: Some(Draft::D02),
            ..Overrides::default()
        };
        assert_eq!(
            config.settings_for(path, &newest.compile()).draft,
            Draft::D02
        );
        let error = parse("\n\ndraft = \"2\"\n").unwrap_err();
        assert_eq!((error.line, error.column), (3, 9));
        assert!(error.message.contains("is not one of"), "{}", error.message);
    }

    #[test]
    fn extension_anchors_may_be_named_as_the_reference_generates_them() {
        let config =
            parse("[extend-anchors]\nEXT_CheckTheKubernetesPod = 0x8000\nCustomAnchor = 0x8001\n")
                .unwrap()
                .unwrap();
        let settings = config.settings_for(Path::new("/p/a.slip"), &CompiledOverrides::default());
        assert_eq!(
            settings.extend_anchors,
            [
                ("CustomAnchor".to_string(), 0x8001),
                ("EXT_CheckTheKubernetesPod".to_string(), 0x8000)
            ]
        );
        for bad in ["_EXT", "EXT-Pod", "9Lives", "Café"] {
            let error = parse(&format!("[extend-anchors]\n\"{bad}\" = 0x8000\n")).unwrap_err();
            assert!(
                error.message.contains("is not an anchor mnemonic"),
                "{bad}: {}",
                error.message
            );
        }
    }

    #[test]
    fn errors_name_the_key_and_its_line() {
        let error = parse("select = [\"SL1\"]\ncolour = true\n").unwrap_err();
        assert_eq!((error.line, error.column), (2, 1));
        assert!(error.message.contains("colour"), "{}", error.message);
        let error = parse("[severity]\nSL302 = \"loud\"\n").unwrap_err();
        assert_eq!(error.line, 2);
        assert!(error.message.contains("loud"));
        let error = parse("[extend-anchors]\nDeploy = 0x10\n").unwrap_err();
        assert!(
            error.message.contains("0x8000..=0xFFFF"),
            "{}",
            error.message
        );
        for (written, shown) in [
            ("-1", "`extend-anchors.Custom`: -1 is"),
            ("0x10", ": 0x10 is"),
            ("1_000", ": 1_000 is"),
            ("+65536", ": +65536 is"),
        ] {
            let error = parse(&format!("[extend-anchors]\nCustom = {written}\n")).unwrap_err();
            assert!(
                error.message.contains(shown),
                "{written}: {}",
                error.message
            );
            assert_eq!(error.line, 2);
        }
        let error = parse("ignore = [\"SL999\"]\n").unwrap_err();
        assert!(error.message.contains("SL999"));
        let error = parse("extend-verbs = [\"!RAISE\"]\n").unwrap_err();
        assert!(error.message.contains("extend-verbs"));
        let error = parse("select = [\n").unwrap_err();
        assert!(error.line > 0);
    }

    /// Patterns and selectors that would silently do nothing are errors naming the
    /// key, line and column.
    #[test]
    fn patterns_and_selectors_that_do_nothing_are_errors() {
        let error = parse("select = [\"SL1\"]\nexclude = [\"vendor\", \"[\"]\n").unwrap_err();
        assert_eq!((error.line, error.column), (2, 22), "{error}");
        assert!(
            error.message.starts_with("`exclude`: "),
            "{}",
            error.message
        );
        assert!(
            error.message.contains("unclosed character class"),
            "{}",
            error.message
        );
        for pattern in ["", "  ", "#vendor"] {
            let error = parse(&format!("exclude = [\"{pattern}\"]\n")).unwrap_err();
            assert_eq!((error.line, error.column), (1, 12), "{pattern:?}: {error}");
            assert!(
                error.message.contains("excludes nothing"),
                "{}",
                error.message
            );
        }
        assert!(parse("exclude = [\"\\\\#notes.silp\", \"[ab].silp\"]\n").is_ok());
        for (text, key, at) in [
            ("select = [\"\"]\n", "select", (1, 11)),
            ("select = [\"SL1\", \" \"]\n", "select", (1, 18)),
            ("ignore = [\"\"]\n", "ignore", (1, 11)),
            (
                "[per-file-ignores]\n\"a.silp\" = [\"\"]\n",
                "per-file-ignores",
                (2, 13),
            ),
            ("[severity]\n\"\" = \"off\"\n", "severity", (2, 1)),
        ] {
            let error = parse(text).unwrap_err();
            assert_eq!((error.line, error.column), at, "{text}: {error}");
            assert_eq!(
                error.message,
                format!("`{key}`: an empty selector matches no rule code"),
                "{text}"
            );
        }
    }

    /// `--config` naming an endless stream stops at the stream limit.
    #[cfg(unix)]
    #[test]
    fn an_endless_configuration_is_refused() {
        let error = Config::load(Path::new("/dev/zero")).unwrap_err();
        assert_eq!(
            error.to_string(),
            "/dev/zero: cannot read the configuration: longer than 64 MiB, the most silp-lint reads from a stream"
        );
    }

    #[test]
    fn pyproject_without_a_table_is_no_configuration() {
        let none = Config::parse(
            "[tool.black]\nline-length = 88\n",
            Path::new("/p/pyproject.toml"),
            true,
        )
        .unwrap();
        assert!(none.is_none());
        let some = Config::parse(
            "[tool.silp-lint]\nignore = [\"SL302\"]\n",
            Path::new("/p/pyproject.toml"),
            true,
        )
        .unwrap();
        let some = some.unwrap();
        let settings = some.settings_for(Path::new("/p/a.silp"), &CompiledOverrides::default());
        let sl302 = registry::find("SL302").unwrap().meta();
        assert!(!settings.enabled(sl302));
    }
}
