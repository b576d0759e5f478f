"""rulebook from Python: which rules a coding agent sees in a project, and why."""

from os import PathLike
from typing import Any, Optional, Sequence, TypedDict, Union

__version__: str

StrPath = Union[str, "PathLike[str]"]

class RulebookError(Exception):
    """A rulebook failure. ``code`` says which: ``not-a-directory``, ``unknown-profile``,
    ``unknown-provider``, ``invalid-option``, ``paths-refused``, ``not-a-rule-url``,
    ``unknown-rule``, ``not-a-skill-url``, ``unknown-skill``, ``skill-file``,
    ``unknown-tool``."""

    code: str

class Resolved(TypedDict):
    name: str
    content: str
    path: str
    mime_type: str

class Fired(TypedDict):
    name: str
    condition: str
    content: str

class Finding(TypedDict, total=False):
    severity: str
    code: str
    provider: str
    path: str
    line: int
    column: int
    message: str

class Check(TypedDict):
    files: int
    errors: int
    warnings: int
    infos: int
    failed: bool
    findings: list[Finding]

class Skill(TypedDict):
    name: str
    description: Optional[str]
    provider: str
    level: str
    path: str
    status: str

class TtsrMatcher:
    """The TTSR stream matcher of a book's rules, linear in the input."""

    def feed(self, chunk: str) -> list[Fired]:
        """Feeds the next chunk of the stream: the rules it sets off."""
    def next_turn(self) -> None:
        """Starts the next turn: the stream so far is forgotten."""

class Rulebook:
    """The rules of one project, discovered once."""

    @property
    def profile(self) -> str: ...
    @property
    def cwd(self) -> str: ...
    def rules(self) -> list[dict[str, Any]]:
        """Every rule file and what became of it (``name``, ``provider``, ``level``,
        ``path``, ``status``, ``bucket``, ``description``, ``globs``, …)."""
    def diagnostics(self) -> list[Finding]: ...
    def prompt(self, paths: Optional[Sequence[StrPath]] = None) -> str:
        """The system-prompt text, as ``rulebook prompt [--paths …]`` prints it, without
        its final line break."""
    def resolve(self, url: str) -> Resolved:
        """What ``rule://NAME`` or ``skill://NAME[/PATH]`` resolves to."""
    def rules_for_paths(self, paths: Sequence[str]) -> dict[str, Any]: ...
    def skills(self) -> list[Skill]: ...
    def view(self, tool: str) -> dict[str, Any]:
        """What the tool (``claude``, ``codex``, ``cursor``, …) loads here."""
    def check(self, strict: bool = False) -> Check: ...
    def ttsr(self) -> TtsrMatcher: ...

def discover(
    cwd: StrPath,
    *,
    home: Optional[StrPath] = None,
    profile: Optional[str] = None,
    providers: Optional[Sequence[str]] = None,
    no_providers: Optional[Sequence[str]] = None,
    options: Optional[Sequence[str]] = None,
    root: Optional[StrPath] = None,
) -> Rulebook:
    """Discovers the rules of the project in ``cwd`` (the GIL is let go meanwhile)."""

def tools() -> list[str]:
    """The ids of the tools ``Rulebook.view`` takes."""
