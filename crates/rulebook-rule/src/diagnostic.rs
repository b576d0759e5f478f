//! Structured warnings: data, never log lines.

use std::fmt;
use std::path::PathBuf;

use serde::Serialize;

/// How serious a [`Diagnostic`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Worth knowing, nothing is wrong: a file rulebook does not read yet, a key that does
    /// nothing where it is.
    Info,
    /// Something was ignored, recovered or refused; loading went on.
    Warning,
    /// A rule file is broken in a way `rulebook check` fails on.
    Error,
}

/// What a [`Diagnostic`] is about, for filtering and for `rulebook check`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum DiagnosticCode {
    /// A file could not be read.
    ReadFailed,
    /// A file was not valid UTF-8 and was decoded lossily.
    InvalidUtf8,
    /// A file was larger than the size cap (Extended E9).
    TooLarge,
    /// A project rule file's real path leaves the project (Extended E10).
    OutsideProject,
    /// A directory entry could not be walked.
    WalkFailed,
    /// A rule source is owned by another user than the one running rulebook.
    ForeignOwner,
    /// A rule source is not a regular file (a FIFO, a device, a socket, a directory where
    /// a file was expected): it is not read, so it cannot block or flood discovery.
    NotAFile,
    /// The frontmatter is not valid YAML, and its keys were read as `key: value` text
    /// (their types lost) or not at all.
    YamlSyntax,
    /// The frontmatter is not valid YAML at one value, which was read as plain text; the
    /// rest is YAML and the rule acts as written.
    YamlRecovered,
    /// The frontmatter is YAML but not a map.
    NotAMap,
    /// A frontmatter key had a value of the wrong type and was dropped.
    WrongType,
    /// A glob that cannot be used (it does not compile, or is too long or nested too
    /// deep to compile safely); the rule's other globs still work.
    InvalidGlob,
    /// A frontmatter key no provider reads.
    UnknownKey,
    /// A provider failed as a whole.
    ProviderFailed,
    /// An item failed the capability's validation (a rule with no content).
    InvalidItem,
    /// A TTSR rule whose name is already registered.
    DuplicateTrigger,
    /// A TTSR condition that does not compile.
    InvalidTrigger,
    /// A rule is shadowed by a same-named rule of higher precedence.
    Shadowed,
    /// A directory the caller named (the working directory, the home) does not exist or
    /// is not a directory.
    MissingDirectory,
    /// A rule lands in no bucket: no agent will see it.
    NoBucket,
    /// The project holds rule files of a format rulebook does not read (yet).
    UnsupportedFormat,
    /// A glob names a directory (`web/`): it matches no file (`web/**` does).
    GlobNamesDirectory,
    /// A key that does nothing where it is (globs on an always-apply rule).
    IneffectiveKey,
    /// Two tools read the same text differently (VS Code and GitHub's agents anchor an
    /// `applyTo` pattern differently): worth knowing.
    ToolsDiffer,
    /// An `@path` import could not be expanded (missing, outside the project, a cycle, too
    /// deep); its text stays as written.
    ImportFailed,
    /// An `@path` the importing tool tries and passes over without a word (no such file, a
    /// cycle, too deep: prose such as `with @-links to` is such a token): its text stays as
    /// written.
    ImportSkipped,
    /// A tool would cut or skip some of these rules (its size budget), though rulebook
    /// keeps them whole.
    OverToolBudget,
    /// A skill's `name` is not its folder's name, or not one the Agent Skills
    /// specification allows (1-64 of `a-z`, `0-9`, `-`; no `-` at either end or twice).
    SkillName,
    /// A skill has no description (a model cannot choose it), or one over 1,024 characters.
    SkillDescription,
    /// A skill links to a file of its folder that does not exist, or one name stands for
    /// skills of different content in several folders.
    SkillContent,
    /// One tool loads the same text twice at start (a `CLAUDE.md` copy of `AGENTS.md` for a
    /// tool that reads both, the same file through a link): the bytes are spent again.
    DuplicateLoad,
    /// A glob that can match no file (`src/**/*.`, Markdown's `\*_/_` for `**/`): the rule
    /// it scopes never applies.
    GlobMatchesNothing,
    /// A form YAML or the current documentation writes otherwise, which the file's own tool
    /// reads as written (Cursor's unquoted `globs: *.ts`): read as that tool reads it.
    ToolsOwnForm,
    /// A rule its author turned off here (`excludeAgent`, Cline's `paths: []`): not a
    /// problem, a note that says why.
    TurnedOff,
    /// A provider option (`--option`, `rulebook.toml`, MCP) names no provider, a key the
    /// provider does not read, or a value of the wrong kind: it is not used.
    InvalidOption,
}

/// One problem found while loading, with where it is.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct Diagnostic {
    /// How serious it is.
    pub severity: Severity,
    /// What it is about.
    pub code: DiagnosticCode,
    /// The display name of the provider that reported it (`Cursor`), once the registry
    /// has merged it; `Display` prefixes the message with `[<provider>] `.
    pub provider: Option<String>,
    /// The id of that provider (`cursor`), set with the display name: what a filter by
    /// provider or tool compares (the display name is for people).
    #[serde(skip)]
    pub provider_id: Option<String>,
    /// The file it is about, absolute.
    pub path: Option<PathBuf>,
    /// The 1-based line, where known.
    pub line: Option<usize>,
    /// The 1-based column, where known.
    pub column: Option<usize>,
    /// What happened, naming the file where that helps.
    pub message: String,
    /// The other files the finding involves (the rule that shadows this one, the first
    /// copy of a duplicate, the file that imports this one), each with what it is to
    /// this one; the message names them too. Not in the JSON: the message says it there.
    #[serde(skip)]
    pub related: Vec<Related>,
}

/// Another file a [`Diagnostic`] involves, and what it is to the diagnostic's file.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Related {
    /// The file, absolute.
    pub path: PathBuf,
    /// What it is to the diagnostic's file (`shadows it`, `the first copy`).
    pub what: String,
}

impl DiagnosticCode {
    /// The code's kebab-case name, as `--json` and `rulebook check` print it
    /// (`yaml-syntax`, `wrong-type`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::ReadFailed => "read-failed",
            Self::InvalidUtf8 => "invalid-utf8",
            Self::TooLarge => "too-large",
            Self::OutsideProject => "outside-project",
            Self::WalkFailed => "walk-failed",
            Self::ForeignOwner => "foreign-owner",
            Self::NotAFile => "not-a-file",
            Self::YamlSyntax => "yaml-syntax",
            Self::YamlRecovered => "yaml-recovered",
            Self::NotAMap => "not-a-map",
            Self::WrongType => "wrong-type",
            Self::InvalidGlob => "invalid-glob",
            Self::UnknownKey => "unknown-key",
            Self::ProviderFailed => "provider-failed",
            Self::InvalidItem => "invalid-item",
            Self::DuplicateTrigger => "duplicate-trigger",
            Self::InvalidTrigger => "invalid-trigger",
            Self::Shadowed => "shadowed",
            Self::MissingDirectory => "missing-directory",
            Self::NoBucket => "no-bucket",
            Self::UnsupportedFormat => "unsupported-format",
            Self::GlobNamesDirectory => "glob-names-directory",
            Self::IneffectiveKey => "ineffective-key",
            Self::ToolsDiffer => "tools-differ",
            Self::ImportFailed => "import-failed",
            Self::ImportSkipped => "import-skipped",
            Self::OverToolBudget => "over-tool-budget",
            Self::SkillName => "skill-name",
            Self::SkillDescription => "skill-description",
            Self::SkillContent => "skill-content",
            Self::DuplicateLoad => "duplicate-load",
            Self::GlobMatchesNothing => "glob-matches-nothing",
            Self::ToolsOwnForm => "tools-own-form",
            Self::TurnedOff => "turned-off",
            Self::InvalidOption => "invalid-option",
        }
    }

    /// What the code means, in one sentence (SARIF's `shortDescription`).
    pub fn summary(self) -> &'static str {
        match self {
            Self::ReadFailed => "A file could not be read.",
            Self::InvalidUtf8 => "A file was not valid UTF-8 and was decoded lossily.",
            Self::TooLarge => "A file was larger than the size cap and was not read.",
            Self::OutsideProject => {
                "A project rule file's real path leaves the project: it is refused."
            }
            Self::WalkFailed => {
                "Part of a directory could not be walked, or a walk reached its bound."
            }
            Self::ForeignOwner => {
                "A rule source is owned by another user than the one running rulebook."
            }
            Self::NotAFile => {
                "A rule source is not a regular file (a FIFO, a device, a socket): it is not read."
            }
            Self::YamlSyntax => {
                "The frontmatter is not valid YAML: its keys were read as text, types lost."
            }
            Self::YamlRecovered => {
                "The frontmatter is not valid YAML at one value, which was read as plain text."
            }
            Self::NotAMap => "The frontmatter is YAML but not a map of keys.",
            Self::WrongType => "A frontmatter key had a value of the wrong type and was dropped.",
            Self::InvalidGlob => {
                "A glob cannot be used (it does not compile, or is too long or too deep)."
            }
            Self::UnknownKey => "A frontmatter key the file's tool does not read.",
            Self::ProviderFailed => "A provider failed as a whole.",
            Self::InvalidItem => "A rule or skill failed validation (an empty body, say).",
            Self::DuplicateTrigger => "A TTSR rule whose name is already registered.",
            Self::InvalidTrigger => {
                "A TTSR condition that does not compile, or is past the compile budget."
            }
            Self::Shadowed => "A rule is shadowed by a same-named rule of higher precedence.",
            Self::MissingDirectory => {
                "A directory the caller named (the working directory, the home) is not a directory."
            }
            Self::NoBucket => "A rule lands in no bucket: no agent built on rulebook sees it.",
            Self::UnsupportedFormat => "The project holds files of a kind rulebook does not read.",
            Self::GlobNamesDirectory => "A glob names a directory (`web/`): it matches no file.",
            Self::IneffectiveKey => {
                "A key that does nothing where it is (globs on an always-apply rule)."
            }
            Self::ToolsDiffer => {
                "Two tools, or two versions of one, read the same text differently."
            }
            Self::ImportFailed => {
                "An `@path` import could not be expanded; its text stays as written."
            }
            Self::ImportSkipped => {
                "An `@path` the importing tool passes over without a word; its text stays."
            }
            Self::OverToolBudget => {
                "A tool would cut or skip some of these rules at its size budget."
            }
            Self::SkillName => {
                "A skill's name is not its folder's, or not one the Agent Skills specification allows."
            }
            Self::SkillDescription => "A skill has no description, or one over 1,024 characters.",
            Self::SkillContent => {
                "A skill links to a missing file of its folder, or one name stands for different skills."
            }
            Self::DuplicateLoad => "One tool loads the same text twice at start.",
            Self::GlobMatchesNothing => {
                "A glob that can match no file: the rule it scopes never applies."
            }
            Self::ToolsOwnForm => {
                "A form the file's own tool reads as written, though YAML would not: read so."
            }
            Self::TurnedOff => "A rule its author turned off here.",
            Self::InvalidOption => "A provider option that no provider reads as given.",
        }
    }

    /// Every code, in declaration order.
    pub const ALL: &'static [DiagnosticCode] = &[
        Self::ReadFailed,
        Self::InvalidUtf8,
        Self::TooLarge,
        Self::OutsideProject,
        Self::WalkFailed,
        Self::ForeignOwner,
        Self::NotAFile,
        Self::YamlSyntax,
        Self::YamlRecovered,
        Self::NotAMap,
        Self::WrongType,
        Self::InvalidGlob,
        Self::UnknownKey,
        Self::ProviderFailed,
        Self::InvalidItem,
        Self::DuplicateTrigger,
        Self::InvalidTrigger,
        Self::Shadowed,
        Self::MissingDirectory,
        Self::NoBucket,
        Self::UnsupportedFormat,
        Self::GlobNamesDirectory,
        Self::IneffectiveKey,
        Self::ToolsDiffer,
        Self::ImportFailed,
        Self::ImportSkipped,
        Self::OverToolBudget,
        Self::SkillName,
        Self::SkillDescription,
        Self::SkillContent,
        Self::DuplicateLoad,
        Self::GlobMatchesNothing,
        Self::ToolsOwnForm,
        Self::TurnedOff,
        Self::InvalidOption,
    ];

    /// How serious a diagnostic of this code is: the one table the library, `list`,
    /// `explain`, the MCP server and `rulebook check` share.
    ///
    /// An error makes a rule not load, or not act as its tool would act on it; a warning
    /// is worth fixing but changes nothing today; an info is a fact.
    ///
    /// ```
    /// use rulebook_rule::{DiagnosticCode, Severity};
    /// assert_eq!(DiagnosticCode::YamlSyntax.severity(), Severity::Error);
    /// assert_eq!(DiagnosticCode::YamlRecovered.severity(), Severity::Warning);
    /// assert_eq!(DiagnosticCode::ToolsOwnForm.severity(), Severity::Info);
    /// ```
    pub const fn severity(self) -> Severity {
        match self {
            Self::ReadFailed
            | Self::TooLarge
            | Self::OutsideProject
            | Self::NotAFile
            | Self::YamlSyntax
            | Self::WrongType
            | Self::InvalidGlob
            | Self::ProviderFailed
            | Self::InvalidItem
            | Self::InvalidTrigger
            | Self::InvalidOption => Severity::Error,
            Self::InvalidUtf8
            | Self::WalkFailed
            | Self::ForeignOwner
            | Self::YamlRecovered
            | Self::NotAMap
            | Self::UnknownKey
            | Self::DuplicateTrigger
            | Self::MissingDirectory
            | Self::NoBucket
            | Self::GlobNamesDirectory
            | Self::ImportFailed
            | Self::SkillName
            | Self::SkillDescription
            | Self::SkillContent
            | Self::DuplicateLoad
            | Self::GlobMatchesNothing => Severity::Warning,
            Self::Shadowed
            | Self::UnsupportedFormat
            | Self::IneffectiveKey
            | Self::ToolsDiffer
            | Self::OverToolBudget
            | Self::ToolsOwnForm
            | Self::TurnedOff
            | Self::ImportSkipped => Severity::Info,
        }
    }

    /// The code named `name` (its kebab-case name).
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|c| c.as_str() == name)
    }
}

impl fmt::Display for DiagnosticCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Diagnostic {
    /// A diagnostic of `code`, with its code's severity ([`DiagnosticCode::severity`]) and
    /// a message; add a path and position with the setters.
    pub fn new(code: DiagnosticCode, message: impl Into<String>) -> Self {
        Self {
            severity: code.severity(),
            code,
            provider: None,
            provider_id: None,
            path: None,
            line: None,
            column: None,
            message: message.into(),
            related: Vec::new(),
        }
    }

    /// Adds a file the finding involves ([`Diagnostic::related`]).
    #[must_use]
    pub fn with_related(mut self, path: impl Into<PathBuf>, what: impl Into<String>) -> Self {
        self.related.push(Related {
            path: path.into(),
            what: what.into(),
        });
        self
    }

    /// Sets the file.
    #[must_use]
    pub fn with_path(mut self, path: impl Into<PathBuf>) -> Self {
        self.path = Some(path.into());
        self
    }

    /// Sets the line and column.
    #[must_use]
    pub fn at(mut self, line: Option<usize>, column: Option<usize>) -> Self {
        self.line = line;
        self.column = column;
        self
    }

    /// Sets the provider's display name.
    #[must_use]
    pub fn with_provider(mut self, provider: impl Into<String>) -> Self {
        self.provider = Some(provider.into());
        self
    }

    /// Sets the provider: its id and its display name.
    #[must_use]
    pub fn from_provider(mut self, id: impl Into<String>, name: impl Into<String>) -> Self {
        self.provider_id = Some(id.into());
        self.provider = Some(name.into());
        self
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(provider) = &self.provider {
            write!(f, "[{provider}] ")?;
        }
        f.write_str(&self.message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every code says what it means in one sentence of its own, and is found by its name.
    #[test]
    fn every_code_has_a_summary_and_a_name() {
        let mut seen = std::collections::HashSet::new();
        for &code in DiagnosticCode::ALL {
            let summary = code.summary();
            assert!(
                summary.ends_with('.') && summary.len() > 20,
                "{code}: {summary}"
            );
            assert!(
                seen.insert(summary),
                "{code} repeats another code's summary"
            );
            assert_eq!(DiagnosticCode::from_name(code.as_str()), Some(code));
        }
    }
}
