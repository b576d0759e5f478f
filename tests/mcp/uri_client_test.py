"""rule:// URIs through the official Python MCP SDK, 1.x or 2.x (the API both share).

SDK 1.x validates every resource URI with pydantic's `AnyUrl`: one invalid URI (a nested
rule's raw `rule://src:routes:CLAUDE`, read as host `src` and port `routes:CLAUDE`) failed
the whole `resources/list`. Run by `cargo xtask ci` with each pinned SDK:

    python uri_client_test.py <rulebook binary>
"""

import importlib.metadata
import os
import sys
import tempfile
from pathlib import Path

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

BIN = sys.argv[1]
# Rule names a URL parser would misread raw: a nested rule's directories, the home's `~`,
# a space, a non-ASCII letter, and a plain one that must stay as it is.
RULES = {
    "src/routes/CLAUDE.md": "rule://src%3Aroutes%3ACLAUDE",
    ".xcsh/rules/plain.md": "rule://plain",
    ".xcsh/rules/my rule.md": "rule://my%20rule",
    ".xcsh/rules/über.md": "rule://%C3%BCber",
    ".xcsh/rules/a@b.md": "rule://a%40b",
}
failures: list[str] = []


def check(cond: bool, what: str) -> None:
    print(("PASS " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


async def session(project: Path, home: Path) -> None:
    params = StdioServerParameters(
        command=BIN, args=["-C", str(project), "--home", str(home), "mcp", "--no-watch"],
        env={"PATH": os.environ.get("PATH", "")})
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as s:
            await s.initialize()
            listed = (await s.list_resources()).resources
            uris = [str(r.uri) for r in listed]
            for want in RULES.values():
                check(want in uris, f"resources/list holds {want} as written ({uris})")
            for r in listed:
                body = (await s.read_resource(r.uri)).contents[0]
                check(str(body.uri) == str(r.uri) and bool(body.text),
                      f"resources/read {r.uri} answers for that URI")
                await s.subscribe_resource(r.uri)
                check(True, f"resources/subscribe {r.uri}")


def main() -> int:
    print("mcp", importlib.metadata.version("mcp"))
    with tempfile.TemporaryDirectory() as d:
        project, home = Path(d) / "project", Path(d) / "home"
        home.mkdir()
        for rel in RULES:
            path = project / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text("---\ndescription: d\n---\nBody.\n" if rel.startswith(".xcsh") else "Body.\n")
        try:
            anyio.run(session, project, home)
        except Exception as e:  # noqa: BLE001 - any crash is a failure, shown whole
            import traceback
            traceback.print_exc()
            failures.append(f"the session crashed: {e!r}")
    print(f"\n{'OK' if not failures else 'FAILED'}: {len(failures)} failure(s)", *failures, sep="\n")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
