"""Extracts the AGENTS.md message and the skills catalog of `codex debug prompt-input`
output.

The files are found by content: a fixture file's text appears whole, or (when Codex cut
it) as the tail of the message. The tree's files have distinct first lines. The skills are
the `### Available skills` lines of the `<skills_instructions>` message, their `rN/...`
paths expanded with its `### Skill roots` table; Codex's bundled skills
(`$CODEX_HOME/skills/.system`) are left out."""
import json, os, re, sys

out, cwd, home = sys.argv[1:4]
items = json.load(open(out, encoding="utf-8"))


def skills_of(items):
    """The catalog's skills, in order: name, description as listed, absolute path."""
    skills = []
    for item in items:
        if item.get("type") != "message":
            continue
        for c in item.get("content", []):
            t = c.get("text", "")
            if "<skills_instructions>" not in t:
                continue
            aliases, section = {}, None
            for line in t.splitlines():
                if line.startswith("### "):
                    section = line[4:].strip()
                    continue
                if section == "Skill roots":
                    m = re.match(r"^- `(r\d+)` = `(.*)`$", line)
                    if m:
                        aliases[m.group(1)] = m.group(2)
                elif section == "Available skills" and line.startswith("- "):
                    m = re.match(r"^- (.*?): (?:(.*) )?\(file: (.*)\)$", line)
                    if not m:
                        continue
                    path = m.group(3)
                    head, _, rest = path.partition("/")
                    if head in aliases:
                        path = aliases[head] + "/" + rest
                    if "/.codex/skills/.system/" in path:
                        continue
                    skills.append({"name": m.group(1), "description": m.group(2) or "", "path": path})
    return skills


skills = skills_of(items)
text = ""
for item in items:
    if item.get("type") != "message" or item.get("role") != "user":
        continue
    for c in item.get("content", []):
        t = c.get("text", "")
        if t.startswith("# AGENTS.md instructions for "):
            text = t
if not text:
    print(json.dumps({"tool": "codex", "version": "0.171.0", "files": [], "text": "", "skills": skills}))
    sys.exit(0)
body = text[text.index("<INSTRUCTIONS>\n") + len("<INSTRUCTIONS>\n"):text.rindex("\n</INSTRUCTIONS>")]
# Candidates: AGENTS*.md on the path from / to cwd, and in ~/.codex.
cands = []
d = os.path.abspath(cwd)
while True:
    for n in ("AGENTS.override.md", "AGENTS.md"):
        p = os.path.join(d, n)
        if os.path.isfile(p):
            cands.append(p)
    if d == "/":
        break
    d = os.path.dirname(d)
for n in ("AGENTS.override.md", "AGENTS.md"):
    p = os.path.join(home, ".codex", n)
    if os.path.isfile(p):
        cands.append(p)
found = []
for p in cands:
    data = open(p, "rb").read().decode("utf-8", "replace")
    if not data.strip():
        continue
    i = body.find(data)
    if i >= 0:
        found.append((i, p, None))
        continue
    # cut: the longest prefix that ends the body
    for k in range(len(data) - 1, 15, -1):
        if body.endswith(data[:k]):
            found.append((len(body) - k, p, len(data[:k].encode("utf-8"))))
            break
found.sort()
files = [{"path": p, "truncated_at": t} for _, p, t in found]
print(json.dumps({"tool": "codex", "version": "0.171.0", "files": files, "text": text, "skills": skills}, ensure_ascii=False))
