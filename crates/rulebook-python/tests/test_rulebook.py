"""The Python package against the CLI built from the same crates: the same rules, the
same prompt text byte for byte, rule:// round trips, the TTSR matcher on a chunked
stream, and bad input as RulebookError (never a crash).

Run by `cargo xtask ci` with RULEBOOK_BIN (the CLI) and RULEBOOK_FIXTURE (fixtures/demo).
"""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import rulebook_rs

BIN = os.environ["RULEBOOK_BIN"]
FIXTURE = Path(os.environ["RULEBOOK_FIXTURE"])


@pytest.fixture()
def demo(tmp_path: Path) -> tuple[Path, Path]:
    shutil.copytree(FIXTURE, tmp_path / "demo")
    project, home = tmp_path / "demo/project", tmp_path / "demo/home"
    (project / ".git").mkdir()
    return project, home


def cli(project: Path, home: Path, *args: str) -> bytes:
    return subprocess.run([BIN, "-C", str(project), "--home", str(home), *args],
                          capture_output=True, check=True).stdout


def test_the_rules_are_the_clis(demo):
    project, home = demo
    book = rulebook_rs.discover(project, home=home)
    listed = json.loads(cli(project, home, "explain", "--json"))
    assert [(r["name"], r["status"]) for r in book.rules()] == \
        [(f["name"], f["status"]) for f in listed["files"]]
    assert book.profile == "extended"
    # The dicts built directly are the rules' JSON, read back.
    assert book.rules() == book._rules_json()


def test_the_prompt_is_the_clis_byte_for_byte(demo):
    project, home = demo
    book = rulebook_rs.discover(project, home=home)
    assert (book.prompt() + "\n").encode() == cli(project, home, "prompt")
    attached = book.prompt(["src/web/cart.ts"])
    assert (attached + "\n").encode() == cli(project, home, "prompt", "--paths", "src/web/cart.ts")
    reference = rulebook_rs.discover(project, home=home, profile="reference")
    assert (reference.prompt() + "\n").encode() == cli(project, home, "--profile", "reference", "prompt")


def test_a_rule_url_round_trips(demo):
    project, home = demo
    book = rulebook_rs.discover(project, home=home)
    resolved_any = False
    for rule in book.rules():
        url = f"rule://{rule['name']}"
        read = subprocess.run([BIN, "-C", str(project), "--home", str(home), "read", url, "--json"],
                              capture_output=True, check=False)
        if read.returncode == 0:
            resolved = book.resolve(url)
            assert resolved["name"] == rule["name"]
            assert resolved["content"] == json.loads(read.stdout)["content"]
            resolved_any = True
        else:
            with pytest.raises(rulebook_rs.RulebookError):
                book.resolve(url)
    assert resolved_any
    with pytest.raises(rulebook_rs.RulebookError) as err:
        book.resolve("rule://no-such-rule")
    assert err.value.code == "unknown-rule"
    with pytest.raises(rulebook_rs.RulebookError) as err:
        book.resolve("http://x")
    assert err.value.code == "not-a-rule-url"


def test_the_ttsr_matcher_fires_on_a_chunked_stream(demo):
    project, home = demo
    book = rulebook_rs.discover(project, home=home)
    ttsr = [r for r in book.rules() if r.get("bucket") == "ttsr"]
    assert ttsr, "the demo has a TTSR rule"
    matcher = book.ttsr()
    # The demo's no-console-log rule fires on `console.log`, split across chunks.
    stream = "Here is the fix:\n```ts\nconsole.lo" + "g('debug')\n```\n"
    fired = []
    for i in range(0, len(stream), 5):
        fired += matcher.feed(stream[i:i + 5])
    assert [f["name"] for f in fired] == ["no-console-log"]
    assert fired[0]["condition"] == "console\\.log\\("
    # A rule fires once for the life of the matcher (the default repeat policy), whichever
    # of its conditions matches next.
    matcher.next_turn()
    assert matcher.feed("debugger;") == []
    # A new matcher starts afresh.
    assert [f["name"] for f in book.ttsr().feed("debugger;")] == ["no-console-log"]


def test_views_skills_check_and_paths(demo):
    project, home = demo
    book = rulebook_rs.discover(project, home=home)
    view = book.view("cursor")
    cursor = json.loads(cli(project, home, "explain", "--as", "cursor", "--json"))
    assert [f["path"] for f in view["files"]] == [f["path"] for f in cursor["files"]][:len(view["files"])]
    assert "claude" in rulebook_rs.tools()
    report = book.check()
    checked = json.loads(cli(project, home, "check", "--json"))
    assert (report["errors"], report["warnings"], report["infos"]) == \
        (checked["errors"], checked["warnings"], checked["infos"])
    assert isinstance(book.skills(), list)
    answer = book.rules_for_paths(["src/web/cart.ts"])
    assert answer["paths"][0]["path"] == "src/web/cart.ts"
    with pytest.raises(rulebook_rs.RulebookError) as err:
        book.view("no-such-tool")
    assert err.value.code == "unknown-tool"


def test_bad_input_is_an_error_not_a_crash(tmp_path: Path):
    with pytest.raises(rulebook_rs.RulebookError) as err:
        rulebook_rs.discover(tmp_path / "missing")
    assert err.value.code == "not-a-directory"
    with pytest.raises(rulebook_rs.RulebookError) as err:
        rulebook_rs.discover(tmp_path, providers=["no-such-provider"])
    assert err.value.code == "unknown-provider"
    with pytest.raises(rulebook_rs.RulebookError) as err:
        rulebook_rs.discover(tmp_path, profile="fast")
    assert err.value.code == "unknown-profile"
    # A file name that is not UTF-8 (bytes the file system takes): read, its path lossy.
    rules = tmp_path / ".cursor" / "rules"
    rules.mkdir(parents=True)
    fd = os.open(os.fsencode(rules) + b"/caf\xe9.mdc", os.O_WRONLY | os.O_CREAT, 0o644)
    os.write(fd, b"---\nalwaysApply: true\n---\nBody.\n")
    os.close(fd)
    book = rulebook_rs.discover(tmp_path, home=tmp_path / "home")
    assert any("caf" in r["path"] for r in book.rules())
    # A directory given as a non-UTF-8 name works too.
    odd = os.fsencode(tmp_path) + b"/d\xff"
    os.mkdir(odd)
    assert rulebook_rs.discover(os.fsdecode(odd), home=tmp_path / "home").rules() == []


def readme_block(language: str) -> str:
    """The first ```LANGUAGE block of the repository's README.md."""
    text = (FIXTURE.parent.parent / "README.md").read_text()
    start = text.index(f"```{language}\n") + len(language) + 4
    return text[start:text.index("```", start)]


def test_the_readme_example_runs_as_written(demo):
    project, home = demo
    env = {**os.environ, "HOME": str(home)}
    ran = subprocess.run([sys.executable, "-c", readme_block("python")], cwd=project, env=env,
                         capture_output=True, check=True).stdout
    prompt = subprocess.run([BIN, "prompt", "--paths", "src/app.ts"], cwd=project, env=env,
                            capture_output=True, check=True).stdout
    assert ran.startswith(prompt)
    listed = json.loads(subprocess.run([BIN, "explain", "--json"], cwd=project, env=env,
                                       capture_output=True, check=True).stdout)
    lines = ran[len(prompt):].decode().splitlines()
    assert [line.split()[0] for line in lines] == [f["name"] for f in listed["files"]]
