#!/usr/bin/env python3
"""Extract memory files (files: InstructionsLoaded-hook paths plus any other
"Contents of PATH (...):" headers, e.g. AGENTS.md / auto-memory which fire no hook,
ordered by position in the block) + exact claudeMd block from a recorded Claude Code request."""
import json, re, sys, os
DEBUG = os.environ.get("CLAUDE_ORACLE_DEBUG") == "1"
O = sys.argv[1]
HEADER = "Codebase and user instructions are shown below."
SUFFIXES = [" (project instructions, checked into the codebase)",
            " (user's private project instructions, not checked in)",
            " (user's auto-memory, persists across conversations)",
            " (organization-managed policy instructions)",
            " (user's private global instructions for all projects)",
            " (instructions from this machine's managed folder."]
def die(msg):
    sys.stderr.write("oracle: %s\n" % msg)
    for f in ("out", "err", "rc"):
        p = os.path.join(O, f)
        if os.path.exists(p):
            sys.stderr.write("--- %s:\n%s\n" % (f, open(p, errors="replace").read()[-3000:]))
    sys.exit(1)
reqs = []
if os.path.exists(os.path.join(O, "req.jsonl")):
    reqs = [json.loads(l) for l in open(os.path.join(O, "req.jsonl")) if l.strip()]
posts = [r for r in reqs if r["method"] == "POST" and r["path"].startswith("/v1/messages")]
if not posts:
    die("no /v1/messages request recorded")
body = json.loads(posts[0]["body"])
text = ""
found = False
for m in body.get("messages", []):
    if m.get("role") != "user":
        continue
    content = m["content"]
    blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content
    for c in blocks:
        t = c.get("text") if c.get("type") == "text" else None
        if t and t.startswith("<system-reminder>\n" + HEADER):
            text, found = t, True
            break
    break  # only the first user message carries it
if not found:
    # fall back: look in the system prompt (older layouts)
    for s in body.get("system", []) if isinstance(body.get("system"), list) else []:
        if HEADER in s.get("text", ""):
            text, found = s["text"], True
            break
# hook list
hook = []
hp = os.path.join(O, "hook.jsonl")
if os.path.exists(hp):
    for l in open(hp):
        l = l.strip()
        if l:
            try:
                hook.append(json.loads(l))
            except ValueError:
                pass
hook_files = []
for h in hook:
    if h.get("hook_event_name", "InstructionsLoaded") == "InstructionsLoaded" and h.get("file_path") not in hook_files:
        hook_files.append(h["file_path"])
# order by position of the file's "Contents of PATH (...):" header in the text
def pos(p):
    best = -1
    for s in SUFFIXES:
        i = text.find("Contents of " + p + s)
        if i >= 0 and (best < 0 or i < best):
            best = i
    return best
text_files = re.findall(r"^Contents of (/.*?)(?= \((?:project instructions|user's private|user's auto-memory|organization-managed|instructions from this machine)).*:$", text, re.M)
files = sorted([p for p in hook_files if pos(p) >= 0], key=pos)
for p in text_files:
    if p not in files:
        if DEBUG: sys.stderr.write("oracle: note: %s in text but no InstructionsLoaded hook\n" % p)
        files.append(p)
files.sort(key=pos)
for p in hook_files:
    if pos(p) < 0:
        if DEBUG: sys.stderr.write("oracle: note: hook reported %s but it is not in the text\n" % p)
# Skills: the "- NAME: DESCRIPTION" lines after "The following skills are available for use
# with the Skill tool:" in the first user message. Claude Code lists no path: each line is
# matched to a SKILL.md of the tree (the user's ~/.claude/skills, then .claude/skills from
# the cwd up to /) by its folder name and description, else to a custom command of the
# tree by its name; the built-in skills, which match no file, are left out.
LISTING = "The following skills are available for use with the Skill tool:\n\n"
def ancestors():
    d = os.environ.get("CWD", "")
    out = []
    while d:
        out.append(d)
        if d == os.path.dirname(d):
            break
        d = os.path.dirname(d)
    return out
def candidates():
    roots = [os.path.join(os.environ.get("H", ""), ".claude", "skills")]
    roots += [os.path.join(d, ".claude", "skills") for d in ancestors()]
    found = []
    for root in roots:
        if not os.path.isdir(root):
            continue
        for entry in sorted(os.listdir(root)):
            f = os.path.join(root, entry, "SKILL.md")
            if os.path.isfile(f):
                found.append((entry, f, open(f, encoding="utf-8", errors="replace").read()))
    return found
# Custom commands (`.claude/commands/**/*.md` of the user and of the working directory up):
# listed after the skills as `NAME: DESCRIPTION`, `sub:name` for one in a subfolder.
def commands():
    roots = [os.path.join(os.environ.get("H", ""), ".claude", "commands")]
    roots += [os.path.join(d, ".claude", "commands") for d in ancestors()]
    found = []
    for root in roots:
        for dirpath, _, names in os.walk(root, followlinks=True):
            for n in sorted(names):
                if n.endswith(".md"):
                    f = os.path.join(dirpath, n)
                    rel = os.path.relpath(f, root)[:-3].replace(os.sep, ":")
                    found.append((rel, f, open(f, encoding="utf-8", errors="replace").read()))
    return found
skills = []
listing = ""
for m in body.get("messages", []):
    content = m.get("content")
    blocks = [{"type": "text", "text": content}] if isinstance(content, str) else (content or [])
    for c in blocks:
        t = c.get("text") if isinstance(c, dict) and c.get("type") == "text" else None
        if t and LISTING in t:
            listing = t[t.index(LISTING) + len(LISTING):]
            break
    if listing:
        break
cands = candidates()
cmds = commands()
# The tool's fallbacks when a file says nothing: `Skill`, `Custom command`.
FALLBACKS = ("Skill", "Custom command")
# An entry is `- NAME: DESCRIPTION` or, when the listing is over its budget, `- NAME` alone
# (description dropped); a description may run over several lines; one capped at 1536
# characters ends in `…` (1535 of its own).
entries = []
for line in listing.split("\n\n")[0].split("\n"):
    m = re.match(r"^- (.+?)(?:: (.*))?$", line)
    if m:
        entries.append([m.group(1), m.group(2)])
    elif entries and entries[-1][1] is not None:
        entries[-1][1] += "\n" + line
for display, desc in entries:
    folder = re.sub(r" \(.*\)$", "", display)
    def fits(text, desc=desc):
        if desc is None or desc in FALLBACKS:
            return True
        first = desc.split("\n")[0]
        if len(desc) == 1536 and first.endswith("\u2026"):
            first = first[:-1]
        return first in text
    hit = [c for c in cands if c[0] == folder and fits(c[2])]
    hit = hit or [c for c in cmds if c[0] == display and fits(c[2])]
    if hit:
        skills.append({"name": display, "description": desc if desc is not None else "", "path": hit[0][1]})
print(json.dumps({"tool": "claude", "version": "2.1.332", "files": files, "text": text, "skills": skills}, ensure_ascii=False))
