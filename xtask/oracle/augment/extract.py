#!/usr/bin/env python3
"""What Augment's CLI sent in its first chat request, as one JSON object:

- `files`: `.augment-guidelines` when its text was sent (`workspace_guidelines`), then the
  always-on rules (`type` 0) in the order sent; paths made absolute (a workspace rule's
  path is relative to the workspace root, a user rule's is absolute);
- `text`: what was sent, in a fixed form: `workspace_guidelines`, then each rule, each as
  `<<< PATH (always|agent-requested[: DESCRIPTION])` and its text; the CLI's own rule for
  `--print` (`non-interactive-prompt.md`) left out;
- `skills`: name, description and `SKILL.md` path of each entry of `skills`."""
import json, os, sys

scratch, cwd, home = sys.argv[1], sys.argv[2], sys.argv[3]
chat = None
for line in open(f"{scratch}/req.jsonl", encoding="utf-8"):
    req = json.loads(line)
    if req["path"].startswith("/chat-stream") and isinstance(req["body"], dict):
        chat = req["body"]
        break
if chat is None:
    sys.exit("oracle: no chat request was recorded")
folders = []
for node in chat.get("nodes", []):
    state = node.get("ide_state_node") or {}
    for folder in state.get("workspace_folders") or []:
        folders.append(folder.get("folder_root") or folder.get("repository_root") or "")
root = next((f for f in folders if f), cwd)
files, parts = [], []
guidelines = chat.get("workspace_guidelines") or ""
if guidelines:
    files.append(os.path.join(root, ".augment-guidelines"))
    parts.append("<<< .augment-guidelines (workspace_guidelines)\n" + guidelines)
for rule in chat.get("rules") or []:
    path = rule.get("path", "")
    if path == "non-interactive-prompt.md":
        continue
    kind = "always" if rule.get("type") == 0 else "agent-requested" if rule.get("type") == 2 else f"type {rule.get('type')}"
    if rule.get("description"):
        kind += ": " + rule["description"]
    full = path if os.path.isabs(path) else os.path.join(root, path)
    if rule.get("type") == 0:
        files.append(full)
    parts.append(f"<<< {full} ({kind})\n" + (rule.get("content") or ""))
skills = [{"name": s.get("name", ""), "description": s.get("description", ""), "path": s.get("location", "")}
          for s in chat.get("skills") or []]
print(json.dumps({"files": files, "text": "\n".join(parts), "skills": skills, "root": root}))
