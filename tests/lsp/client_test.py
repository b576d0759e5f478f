"""End-to-end test of `rulebook lsp` with a language client nobody here wrote: pygls
(pinned in requirements.txt), over the binary's standard input and output, on a copy of
fixtures/demo.

Usage: python client_test.py RULEBOOK_BINARY FIXTURE_DIR
Exits 0 only when every check passes. The expected answers come from the same binary's
CLI (`rulebook check --json`, `rulebook explain --as TOOL --json`), so the test states
"the editor is told what the CLI says", not a copy of today's output.
"""

import asyncio
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient

BIN = sys.argv[1]
FIXTURE = Path(sys.argv[2])
TIMEOUT = 30.0
failures: list[str] = []


def check(cond: bool, what: str) -> None:
    print(("PASS " if cond else "FAIL ") + what, flush=True)
    if not cond:
        failures.append(what)


def cli(project: Path, home: Path, *args: str) -> dict:
    out = subprocess.run([BIN, "-C", str(project), "--home", str(home), *args],
                         capture_output=True, check=False).stdout
    return json.loads(out)


def tools(project: Path, home: Path) -> list[str]:
    """Every tool id `--as` takes, from `rulebook compare --json`."""
    table = cli(project, home, "compare", "--json")
    return table["hosts"] + table["nothing_here"]


async def main() -> None:
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        shutil.copytree(FIXTURE, root / "demo")
        project, home = root / "demo/project", root / "demo/home"
        (project / ".git").mkdir()
        rule = project / ".cursor/rules/typescript.mdc"
        uri = rule.as_uri()

        client = LanguageClient("rulebook-lsp-test", "1")
        published: dict[str, list[types.PublishDiagnosticsParams]] = {}
        arrived = asyncio.Event()

        @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def on_diagnostics(params: types.PublishDiagnosticsParams) -> None:
            published.setdefault(params.uri, []).append(params)
            arrived.set()

        async def next_diagnostics(uri: str, after: int) -> list[types.Diagnostic]:
            while len(published.get(uri, [])) <= after:
                arrived.clear()
                await asyncio.wait_for(arrived.wait(), TIMEOUT)
            return published[uri][after].diagnostics

        await client.start_io(BIN, "-C", str(project), "--home", str(home), "lsp",
                              "--debounce-ms", "50")
        result = await asyncio.wait_for(client.initialize_async(types.InitializeParams(
            capabilities=types.ClientCapabilities(),
            root_uri=project.as_uri(),
            workspace_folders=[types.WorkspaceFolder(uri=project.as_uri(), name="demo")],
        )), TIMEOUT)
        caps = result.capabilities
        check(caps.hover_provider is True and caps.definition_provider is True
              and caps.completion_provider is not None and caps.code_action_provider is True,
              "initialize: hover, definition, completion and code actions offered")
        client.initialized(types.InitializedParams())

        # didOpen: check's findings on this file, as `rulebook check --json` gives them.
        text = rule.read_text()
        client.text_document_did_open(types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="markdown", version=1,
                                                 text=text)))
        diagnostics = await next_diagnostics(uri, 0)
        report = cli(project, home, "check", "--json")
        expected = sorted(d["code"] for d in report["diagnostics"]
                          if Path(project, d["path"]).resolve() == rule.resolve()
                          or Path(d["path"]).resolve() == rule.resolve())
        check(sorted(d.code for d in diagnostics) == expected,
              f"didOpen: the findings of `rulebook check` on the file ({expected})")

        # didChange: an unknown key typed, not saved, is found on its line.
        typed = text.replace("---\n", "---\nauthor: me\n", 1)
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=typed)]))
        diagnostics = await next_diagnostics(uri, 1)
        unknown = [d for d in diagnostics if d.code == "unknown-key"]
        check(len(unknown) == 1 and unknown[0].range.start.line == 1
              and unknown[0].range.end.character == len("author"),
              "didChange: the unsaved unknown key is a finding on its key")
        check(unknown and unknown[0].code_description is not None
              and "DiagnosticCode" in unknown[0].code_description.href,
              "the finding links to its code's documentation")
        check("author" not in rule.read_text(), "the file on disk is untouched")

        # hover: the tools that load it, as `rulebook explain --as TOOL` says.
        hover = await asyncio.wait_for(client.text_document_hover_async(types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            position=types.Position(line=0, character=1))), TIMEOUT)
        shown = hover.contents.value if hover else ""
        lines = {}
        for line in shown.splitlines():
            if line.startswith("- **"):
                name, rest = line[4:].split("**", 1)
                status = rest.split(")", 1)[1].split(":", 1)[0].strip()
                lines.setdefault(name, []).append(status)
        never = set()
        for line in shown.splitlines():
            if line.startswith("Not read by: "):
                never = {n.strip() for n in line[len("Not read by: "):].rstrip(".").split(",")}
        agree = True
        for tool in tools(project, home):
            view = cli(project, home, "explain", "--as", tool, "--json")
            statuses = [f["status"].replace("-", " ") if f["status"] == "not-read" else f["status"]
                        for f in view["files"] if Path(f["path"]).resolve() == rule.resolve()]
            name = view["tool"]
            got = lines.get(name, [])
            # A tool whose view does not name the file: explain says "not read", the hover
            # names it among the tools that do not read it.
            ok = got == statuses or (statuses in ([], ["not read"]) and name in never and not got)
            if not ok:
                agree = False
                print(f"  {name}: hover {got or 'never'}, explain --as {tool} {statuses}")
        check(agree and bool(lines), "hover: each tool's status equals `rulebook explain --as TOOL`")

        # completion: the keys Cursor reads and the buffer lacks, at a new key's place.
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=3),
            content_changes=[types.TextDocumentContentChangeWholeDocument(
                text=typed.replace("alwaysApply: false\n", ""))]))
        completion = await asyncio.wait_for(client.text_document_completion_async(
            types.CompletionParams(text_document=types.TextDocumentIdentifier(uri=uri),
                                   position=types.Position(line=1, character=0))), TIMEOUT)
        items = completion if isinstance(completion, list) else (completion.items if completion else [])
        labels = {i.label for i in items}
        check("alwaysApply" in labels and "description" not in labels,
              f"completion: Cursor's keys the buffer lacks ({sorted(labels)})")

        # definition: a rule:// link leads to the rule's file.
        notes = project / "NOTES.md"
        notes.write_text("See rule://security.\n")
        client.text_document_did_open(types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=notes.as_uri(), language_id="markdown",
                                                 version=1, text=notes.read_text())))
        found = await asyncio.wait_for(client.text_document_definition_async(types.DefinitionParams(
            text_document=types.TextDocumentIdentifier(uri=notes.as_uri()),
            position=types.Position(line=0, character=8))), TIMEOUT)
        location = found[0] if isinstance(found, list) else found
        check(location is not None
              and Path(location.uri.removeprefix("file://")).resolve()
              == (project / ".cursor/rules/security.mdc").resolve(),
              "definition: rule://security leads to its file")

        # codeAction: a skill named otherwise than its folder gets its folder's name.
        skill = project / ".claude/skills/deploy/SKILL.md"
        skill.parent.mkdir(parents=True)
        skill.write_text("---\nname: ship\ndescription: Deploys\n---\nRun make deploy.\n")
        client.text_document_did_open(types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=skill.as_uri(), language_id="markdown",
                                                 version=1, text=skill.read_text())))
        diagnostics = await next_diagnostics(skill.as_uri(), 0)
        actions = await asyncio.wait_for(client.text_document_code_action_async(
            types.CodeActionParams(
                text_document=types.TextDocumentIdentifier(uri=skill.as_uri()),
                range=types.Range(start=types.Position(line=1, character=0),
                                  end=types.Position(line=1, character=0)),
                context=types.CodeActionContext(diagnostics=diagnostics))), TIMEOUT)
        edits = [e for a in (actions or []) if a.edit and a.edit.changes
                 for e in a.edit.changes.get(skill.as_uri(), [])]
        check(any(e.new_text == " deploy" for e in edits),
              "codeAction: the skill is named after its folder")

        await asyncio.wait_for(client.shutdown_async(None), TIMEOUT)
        client.exit(None)
        await client.stop()

    print(f"\n{'OK' if not failures else 'FAILED'}: {len(failures)} failure(s)")
    sys.exit(1 if failures else 0)


asyncio.run(main())
