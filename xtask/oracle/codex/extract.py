"""Extracts the AGENTS.md message of `codex debug prompt-input` output.

The files are found by content: a fixture file's text appears whole, or (when Codex cut
it) as the tail of the message. The tree's files have distinct first lines."""
import json, os, sys

out, cwd, home = sys.argv[1:4]
items = json.load(open(out, encoding="utf-8"))
text = ""
for item in items:
    if item.get("type") != "message" or item.get("role") != "user":
        continue
    for c in item.get("content", []):
        t = c.get("text", "")
        if t.startswith("# AGENTS.md instructions for "):
            text = t
if not text:
    print(json.dumps({"tool": "codex", "version": "0.171.0", "files": [], "text": ""}))
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
print(json.dumps({"tool": "codex", "version": "0.171.0", "files": files, "text": text}, ensure_ascii=False))
