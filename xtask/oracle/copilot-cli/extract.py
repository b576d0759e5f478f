#!/usr/bin/env python3
"""The instructions GitHub Copilot CLI 1.0.102 sent, from the recorded request and its own
lists (`copilot instruction list --json`, `copilot skill list --json`, run in the same
sandbox). Prints one JSON object:

- `text`: the system prompt between `</tools>` and `<system_notifications>` (its
  `<custom_instruction>` blocks, the always-on instruction files as written, the table of
  path-scoped files), trailing line breaks removed;
- `files`: the files whose text is in it, in the prompt's order: each file of the tool's
  instruction list that is not path-scoped (an `applyTo` other than `**`), placed where its
  whole text (else its first line that is not blank) first appears in `text` (the list's
  order breaks ties);
- `skills`: the `<available_skills>` entries (name, description unescaped, `SKILL.md` path
  from the skill list), the tool's built-in skills left out."""
import html, json, os, re, sys

scratch = sys.argv[1]
cwd = os.environ.get("ORACLE_CWD", "")
system = None
for line in open(f"{scratch}/req.jsonl", encoding="utf-8"):
    req = json.loads(line)
    try:
        body = json.loads(req["body"])
    except ValueError:
        continue
    if not isinstance(body, dict) or "messages" not in body:
        continue
    system = "\n".join(
        m["content"] if isinstance(m["content"], str)
        else "\n".join(part.get("text", "") for part in m["content"])
        for m in body["messages"] if m["role"] == "system")
    if "</tools>" in system:
        break
if system is None:
    sys.exit("oracle: no model request was recorded")
start = system.find("</tools>\n")
end = system.find("<system_notifications>")
if start < 0 or end < start:
    sys.exit("oracle: the instructions region was not found")
text = system[start + len("</tools>\n"):end].strip("\n")

root = os.environ.get("ORACLE_ROOT", cwd)
listed = json.load(open(f"{scratch}/instruction.json", encoding="utf-8"))
placed = []
for n, entry in enumerate(listed):
    apply_to = entry.get("applyTo")
    if apply_to and not all(p in ("**",) for p in apply_to):
        continue
    # Files of the same text are one entry, `A + B`, sent once: the first is the one sent.
    path = entry["sourcePath"].split(" + ")[0]
    # Relative to the root, or (the working directory's own files) to the working
    # directory; the list names AGENTS.md, CLAUDE.md and GEMINI.md in capitals whatever the
    # file's case: the file is the one of that name in any case.
    bases = [""] if os.path.isabs(path) else [root, cwd]
    found = None
    for base in bases:
        candidate = os.path.join(base, path)
        if os.path.exists(candidate):
            found = candidate
            break
        folder, name = os.path.split(candidate)
        if os.path.isdir(folder):
            found = next((os.path.join(folder, f) for f in sorted(os.listdir(folder))
                          if f.lower() == name.lower()), None)
            if found:
                break
    path = found or os.path.join(bases[0], path)
    try:
        content = open(path, encoding="utf-8", errors="replace").read()
    except OSError:
        content = ""
    # The file's whole text where the tool sends it as written; else (a block whose
    # imports were expanded) its first line that is not blank.
    at = text.find(content) if content.strip() else -1
    if at < 0:
        first = next((l for l in content.split("\n") if l.strip()), None)
        at = text.find(first) if first is not None else -1
    if at < 0:
        continue
    placed.append((at, n, path))
placed.sort()
files = [p for _, _, p in placed]

skills_at = re.search(r"<available_skills>(.*?)</available_skills>", system, re.S)
by_name = {}
try:
    for s in json.load(open(f"{scratch}/skill.json", encoding="utf-8")):
        by_name.setdefault(s["name"], s["path"])
except (OSError, ValueError):
    pass
skills = []
if skills_at:
    for block in re.finditer(r"<skill>\n(.*?)</skill>", skills_at.group(1), re.S):
        fields = dict(
            (m.group(1), html.unescape(m.group(2)))
            for m in re.finditer(r"<(name|description|location)>(.*?)</\1>", block.group(1), re.S))
        if fields.get("location") == "builtin":
            continue
        folder = by_name.get(fields.get("name", ""), "")
        skills.append({
            "name": fields.get("name", ""),
            "description": fields.get("description", ""),
            "path": os.path.join(folder, "SKILL.md") if folder else "",
        })
print(json.dumps({"files": files, "text": text, "skills": skills}))
