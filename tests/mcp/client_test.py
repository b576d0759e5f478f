"""End-to-end test of `rulebook mcp` with a real MCP client nobody here wrote: the official
Python SDK (`mcp`, pinned in requirements.txt), over stdio, on a copy of fixtures/demo.

Usage: python client_test.py RULEBOOK_BINARY FIXTURE_DIR
Exits 0 only when every check passes. The expected answers come from the same binary's
CLI (`rulebook read`, `rulebook prompt`, `rulebook match --json`, `rulebook check --json`),
so the test states "the server answers exactly what the CLI answers", not a copy of today's
output.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path

import anyio
from mcp import ClientSession, types
from mcp.client.stdio import StdioServerParameters, stdio_client
try:
    from mcp.shared.exceptions import MCPError

    def error_of(e: "MCPError") -> tuple[int, str]:
        return e.code, e.message
except ImportError:  # SDK 1.x: the same error, another name and shape
    from mcp.shared.exceptions import McpError as MCPError

    def error_of(e: "MCPError") -> tuple[int, str]:
        return e.error.code, e.error.message

# resources/subscribe is deprecated from protocol 2026-07-28 on; 2025-11-25 sessions use it.
warnings.filterwarnings("ignore", message=".*resources/(un)?subscribe.*")

BIN = sys.argv[1]
FIXTURE = Path(sys.argv[2])
TIMEOUT = 10.0
failures: list[str] = []


def check(cond: bool, what: str) -> None:
    print(("PASS " if cond else "FAIL ") + what, flush=True)
    if not cond:
        failures.append(what)


def cli(project: Path, home: Path, *args: str) -> bytes:
    out = subprocess.run([BIN, "-C", str(project), "--home", str(home), *args],
                         capture_output=True, timeout=60)
    return out.stdout


async def expect_error(coro, code: int, what: str) -> None:
    try:
        await coro
    except MCPError as e:
        got, message = error_of(e)
        check(got == code, f"{what}: error {got} (want {code}): {message}")
        return
    check(False, f"{what}: expected error {code}, the call succeeded")


class Inbox:
    """The server's notifications, as ClientSession(message_handler=...) delivers them."""

    def __init__(self) -> None:
        self.items: list = []
        self.changed = anyio.Event()

    async def handler(self, msg) -> None:
        if isinstance(msg, Exception):
            print(f"  transport exception: {msg!r}", flush=True)
            return
        self.items.append(msg)
        self.changed.set()

    async def wait_for(self, pred, timeout: float = TIMEOUT):
        with anyio.move_on_after(timeout):
            while True:
                for n in self.items:
                    if pred(n):
                        self.items.remove(n)
                        return n
                self.changed = anyio.Event()
                await self.changed.wait()
        return None


async def session(project: Path, home: Path) -> None:
    inbox = Inbox()
    params = StdioServerParameters(
        command=BIN,
        args=["-C", str(project), "--home", str(home), "mcp", "--debounce-ms", "100"],
        env={"PATH": os.environ.get("PATH", "")})
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write, message_handler=inbox.handler) as s:
            init = await s.initialize()
            caps = init.capabilities
            check(init.server_info.name == "rulebook", "serverInfo.name is rulebook")
            check(caps.resources is not None and caps.resources.subscribe
                  and caps.resources.list_changed, "resources: subscribe and listChanged")
            check(caps.prompts is not None and caps.tools is not None
                  and caps.completions is not None, "prompts, tools and completions")

            # Resources: every readable rule, read exactly as `rulebook read --json` reads it.
            listed = (await s.list_resources()).resources
            uris = [r.uri for r in listed]
            expected = [line.split("\t")[0] for line in
                        cli(project, home, "complete").decode().splitlines()]
            check(sorted(map(str, uris)) == sorted(expected),
                  f"resources/list = the names `rulebook complete` lists ({len(uris)})")
            check(all(r.mime_type == "text/markdown" for r in listed), "mimeType text/markdown")
            check("rule://src%3Aroutes%3ACLAUDE" in map(str, uris),
                  "the nested rule's URI is percent-encoded, and the SDK keeps it as it is")
            for r in listed:
                body = (await s.read_resource(r.uri)).contents[0]
                want = json.loads(cli(project, home, "read", "--json", str(r.uri)))["content"]
                printed = cli(project, home, "read", str(r.uri)).decode()
                ok = isinstance(body, types.TextResourceContents) and body.text == want
                ok = ok and r.size == len(want.encode())
                ok = ok and printed == (want if want.endswith("\n") or not want else want + "\n")
                check(ok, f"resources/read {r.uri} = `rulebook read --json` byte for byte, size {r.size}"
                          " (and `rulebook read` ends it in a newline)")
            await expect_error(s.read_resource("rule://no-such-rule"), -32002, "unknown rule")
            await expect_error(s.read_resource("rule://bad\u0001name"), -32002,
                               "a name with a control character")

            templates = (await s.list_resource_templates()).resource_templates
            check([t.uri_template for t in templates] == ["rule://{name}", "skill://{name}"], "templates rule://{name} and skill://{name}")
            ref = types.ResourceTemplateReference(uri="rule://{name}")
            comp = await s.complete(ref, {"name": "name", "value": "ty"})
            check(comp.completion.values == ["typescript"], f"complete ty -> {comp.completion.values}")
            comp = await s.complete(ref, {"name": "name", "value": "rule://re"})
            check(sorted(comp.completion.values) == ["react-components", "release"],
                  f"complete rule://re -> {comp.completion.values}")

            # The prompt: the text `rulebook prompt` prints.
            prompts = (await s.list_prompts()).prompts
            check([(p.name, [(a.name, a.required) for a in p.arguments or []]) for p in prompts]
                  == [("rules", [("paths", False)])], "one prompt, rules(paths?)")
            got = (await s.get_prompt("rules")).messages[0].content.text
            want = cli(project, home, "prompt").decode()
            check(got + "\n" == want, "prompts/get rules = `rulebook prompt`")
            got = (await s.get_prompt("rules", {"paths": "src/web/cart.ts, api/orders.py"})).messages[0].content.text
            want = cli(project, home, "prompt", "--paths", "src/web/cart.ts", "api/orders.py").decode()
            check(got + "\n" == want and got != (await s.get_prompt("rules")).messages[0].content.text,
                  "prompts/get rules with paths = `rulebook prompt --paths` (rules attached)")

            # Tools, with structured results the SDK validates against their output schemas.
            tools = {t.name: t for t in (await s.list_tools()).tools}
            check(sorted(tools) == ["check", "explain", "rules_for_paths"], f"tools {sorted(tools)}")
            check(all(t.output_schema and t.output_schema.get("type") == "object"
                      for t in tools.values()), "every tool declares an output schema")
            paths = ["src/web/cart.ts", "api/orders.py", "../outside.txt"]
            res = await s.call_tool("rules_for_paths", {"paths": paths})
            sc = res.structured_content
            match = json.loads(cli(project, home, "match", "--json", *paths))
            always = [(r["name"], r["by"]) for r in sc["always_apply"]]
            mine = [[(r["name"], r["by"], r.get("glob")) for r in p["rules"]] for p in sc["paths"]]
            theirs = [[(r["name"], r["by"], r.get("glob")) for r in p["rules"] if r["by"] == "glob"]
                      for p in match["paths"]]
            check(not res.is_error and mine == theirs,
                  "rules_for_paths = `rulebook match --json` (names, how, glob), per path, glob matches")
            check(always and all([(r["name"], r["by"]) for r in p["rules"] if r["by"] == "always-apply"] == always
                                 for p in match["paths"]),
                  "the always-apply rules, listed once, are those `rulebook match` gives every path")
            check([p["inside_project"] for p in sc["paths"]] == [True, True, False],
                  "the path outside the project is said to be")
            ts = next(r for r in sc["paths"][0]["rules"] if r["name"] == "typescript")
            check(ts["by"] == "glob" and ts["uri"] == "rule://typescript", "a glob hit names its URI")
            check(any(isinstance(b, types.TextContent) and "typescript" in b.text for b in res.content),
                  "rules_for_paths has a text answer too")
            await expect_error(s.call_tool("rules_for_paths", {"paths": "src"}), -32602,
                               "paths not an array")
            await expect_error(s.call_tool("rules_for_paths", {}), -32602, "paths missing")
            await expect_error(s.call_tool("no_such_tool", {}), -32602, "unknown tool")

            res = await s.call_tool("explain", {})
            names = sorted({r["name"] for r in res.structured_content["rules"]})
            check("typescript" in names and len(res.structured_content["rules"]) == 14,
                  f"explain: the demo's 13 rule files and the nested CLAUDE.md ({len(res.structured_content['rules'])})")
            res = await s.call_tool("explain", {"name": "typescript"})
            stories = res.structured_content["rules"]
            check(sorted(r["status"] for r in stories) == ["active", "shadowed"]
                  and any("shadowed by typescript" in (r.get("reason") or "") for r in stories),
                  "explain typescript: the native one is active, Cursor's is shadowed, and why")
            res = await s.call_tool("explain", {"name": "nope"})
            check(res.is_error, "explain of an unknown name is a tool error")

            res = await s.call_tool("check", {})
            cj = json.loads(cli(project, home, "check", "--json"))
            sc = res.structured_content
            check((sc["errors"], sc["warnings"], sc.get("infos")) == (cj["errors"], cj["warnings"], cj["infos"])
                  and not sc["failed"],
                  f"check: the counts of `rulebook check --json`, passes ({sc['errors']}, {sc['warnings']}, {sc.get('infos')})")
            check(len(res.structured_content["findings"]) == len(cj.get("findings", cj.get("diagnostics", []))),
                  "check: as many findings as `rulebook check --json`")

            # Live: a subscribed rule edited, a rule added.
            await s.subscribe_resource("rule://typescript")
            ts_file = project / ".xcsh/rules/typescript.md"
            ts_file.write_text(ts_file.read_text() + "\nAlso: no enums.\n")
            n = await inbox.wait_for(lambda n: isinstance(n, types.ResourceUpdatedNotification)
                                     and str(n.params.uri) == "rule://typescript")
            check(n is not None, "notifications/resources/updated after editing a subscribed rule")
            body = (await s.read_resource("rule://typescript")).contents[0].text
            check("no enums" in body, "the read after the change has the new text")
            # The edit changed the listed size too (list_changed): start afresh.
            await anyio.sleep(0.5)
            inbox.items.clear()
            (project / ".xcsh/rules/new-rule.md").write_text(
                "---\ndescription: Added while serving\n---\nBe brief.\n")
            n = await inbox.wait_for(lambda n: isinstance(n, types.ResourceListChangedNotification))
            check(n is not None, "notifications/resources/list_changed after adding a rule")
            listed = [str(r.uri) for r in (await s.list_resources()).resources]
            check("rule://new-rule" in listed, "the new rule is listed")
            await s.unsubscribe_resource("rule://typescript")
            ts_file.write_text(ts_file.read_text() + "\nAnd again.\n")
            n = await inbox.wait_for(lambda n: isinstance(n, types.ResourceUpdatedNotification),
                                     timeout=1.5)
            check(n is None, "no updated notification after unsubscribing")


def raw(project: Path, home: Path) -> None:
    """Malformed lines and a clean exit, spoken directly over the pipes."""
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "raw", "version": "0"}}}
    big = {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {
        "name": "rules_for_paths", "arguments": {"paths": ["x" * 100] * 100_000}}}
    lines = ["this is not json {", json.dumps(init),
             json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}),
             "}}}garbage", json.dumps({"jsonrpc": "2.0", "id": 2, "method": "ping"}),
             json.dumps(big),
             json.dumps({"jsonrpc": "2.0", "id": 4, "method": "no/such/method"})]
    p = subprocess.run([BIN, "-C", str(project), "--home", str(home), "mcp", "--no-watch"],
                       input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=60)
    out = [json.loads(x) for x in p.stdout.splitlines() if x.strip()]
    check(p.returncode == 0, f"exit status 0 when stdin closes ({p.returncode})")
    parse_errors = [m for m in out if m.get("error", {}).get("code") == -32700]
    check(len(parse_errors) == 2 and all(m["id"] is None for m in parse_errors),
          "each line that is not JSON gets a parse error (-32700, id null)")
    by_id = {m.get("id"): m for m in out}
    check("result" in by_id.get(1, {}) and by_id.get(2, {}).get("result") == {},
          "initialize and ping answered around the garbage")
    check(by_id.get(3, {}).get("error", {}).get("code") == -32602,
          "a 10 MB list of 100,000 paths is refused as invalid params")
    check(by_id.get(4, {}).get("error", {}).get("code") == -32601, "unknown method: -32601")
    p = subprocess.run([BIN, "-C", str(project), "--home", str(home), "mcp"],
                       input="", capture_output=True, text=True, timeout=30)
    check(p.returncode == 0 and p.stdout == "", "empty stdin: exit 0, nothing written")


def main() -> int:
    with tempfile.TemporaryDirectory() as d:
        root = Path(d) / "demo"
        shutil.copytree(FIXTURE, root, symlinks=True)
        project, home = root / "project", root / "home"
        # A nested rule: its name `src:routes:CLAUDE` is a URI host only percent-encoded
        # (`rule://src%3Aroutes%3ACLAUDE`); SDK 1.x's pydantic `AnyUrl` refused the raw form
        # and failed the whole resources/list.
        (project / "src/routes").mkdir(parents=True, exist_ok=True)
        (project / "src/routes/CLAUDE.md").write_text("Routes stay thin.\n")
        try:
            anyio.run(session, project, home)
        except Exception as e:  # noqa: BLE001 - any crash is a failure, shown whole
            import traceback
            traceback.print_exc()
            failures.append(f"the session crashed: {e!r}")
        raw(project, home)
    print(f"\n{'OK' if not failures else 'FAILED'}: {len(failures)} failure(s)", *failures, sep="\n")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
