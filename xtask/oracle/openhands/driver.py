"""The OpenHands SDK 1.58.2's own loaders and renderer, run in the working directory.

Prints one JSON object: `files` (the sources of the always-on skills, in the order of
`<REPO_CONTEXT>`), `text` (the `<REPO_CONTEXT>` section as rendered, or "") and `skills`
(each `<available_skills>` entry: name, description as rendered and unescaped, and its
source file)."""
import html, json, logging, os, re, sys

logging.disable(logging.CRITICAL)
from openhands.sdk.context.agent_context import AgentContext
from openhands.sdk.skills.skill import load_project_skills, load_user_skills

cwd = os.getcwd()
try:
    project = load_project_skills(cwd)
except Exception:
    # A conversation catches a failed load (`load_available_skills`): no project skill.
    project = []
seen, skills = set(), []
for skill in project + load_user_skills():
    if skill.name in seen:
        continue
    seen.add(skill.name)
    skills.append(skill)
context = AgentContext(skills=skills, load_user_skills=False, load_public_skills=False,
                       current_datetime=None)
suffix = context.get_system_message_suffix() or ""
repo = re.search(r"<REPO_CONTEXT>.*?</REPO_CONTEXT>", suffix, re.S)
by_name = {s.name: s for s in skills}
files = [s.source for s in skills
         if not (s.is_agentskills_format or s.trigger is not None) and s.source]
listed = []
block = re.search(r"<available_skills>(.*?)</available_skills>", suffix, re.S)
if block:
    for entry in re.finditer(r"<skill>\s*<name>(.*?)</name>\s*<description>(.*?)</description>\s*</skill>",
                             block.group(1), re.S):
        name = html.unescape(entry.group(1))
        source = getattr(by_name.get(name), "source", "") or ""
        listed.append({"name": name, "description": html.unescape(entry.group(2)), "path": source})
print(json.dumps({"files": files, "text": repo.group(0) if repo else "", "skills": listed}))
