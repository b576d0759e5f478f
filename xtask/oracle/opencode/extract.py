#!/usr/bin/env python3
"""The main agent's system prompt as OpenCode 1.18.33 sent it (the request whose system text
holds `<env>`): after `</env>` come its instruction blocks, each `Instructions from: PATH` and
the file's text, joined by "\\n", then the skills text. Prints one JSON object: `files` (the
paths in the tool's order), `text` (the instruction blocks as sent) and `skills` (name,
description and SKILL.md path as listed; the tool's own built-in skill left out). Kilo Code
CLI, built on OpenCode, sends the same blocks: its runner uses this script too; after its
`</env>` comes a paragraph of its own before the first block, which is left out too."""
import html, json, re, sys

scratch = sys.argv[1]
main = None
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
    if "<env>" in system:
        main = system
        break
if main is None:
    sys.exit("oracle: no request of the main agent was recorded")
after = main[main.index("</env>\n") + len("</env>\n"):] if "</env>\n" in main else ""
skills_at = after.find("Skills provide specialized instructions")
instructions = after if skills_at < 0 else after[:skills_at]
if skills_at >= 0 and instructions.endswith("\n"):
    instructions = instructions[:-1]
first = instructions.find("Instructions from: ")
instructions = instructions[first:] if first >= 0 else ""
files = [m.group(1) for m in re.finditer(r"(?:^|\n)Instructions from: ([^\n]*)\n", instructions)]
skills = []
if skills_at >= 0:
    for block in re.finditer(r"<skill>\n\s*<name>(.*?)</name>\n\s*<description>(.*?)</description>\n\s*<location>(.*?)</location>\n\s*</skill>", after[skills_at:], re.S):
        location = html.unescape(block.group(3))
        if location in ("<built-in>", "builtin"):
            continue
        skills.append({"name": block.group(1), "description": block.group(2), "path": location})
print(json.dumps({"files": files, "text": instructions, "skills": skills}))
