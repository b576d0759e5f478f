#!/usr/bin/env python3
"""Extract the '# Rules' section from the recorded system prompt and map each
'## title' section back to the file it came from (fixture files have unique content)."""
import json, os, re, sys

R, CWD, HOME = sys.argv[1], sys.argv[2], sys.argv[3]
FM = re.compile(r'^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$')
MARK = "\n\n# Rules\n"
MAX_FILES = 20000

def die(msg):
    for f in ("auth.out", "run.out", "run.err", "recorder.err"):
        p = os.path.join(R, f)
        if os.path.exists(p):
            sys.stderr.write("--- %s\n%s\n" % (f, open(p, errors="replace").read()[-3000:]))
    sys.stderr.write("oracle-cline: %s\n" % msg)
    sys.exit(1)

# ---- recorded system prompt
system = None
try:
    for line in open(os.path.join(R, "log.jsonl")):
        rec = json.loads(line)
        if rec["method"] != "POST":
            continue
        try:
            body = json.loads(rec["body"])
        except ValueError:
            continue
        msgs = body.get("messages") or []
        if msgs and msgs[0].get("role") == "system":
            c = msgs[0]["content"]
            system = c if isinstance(c, str) else "".join(p.get("text", "") for p in c)
            break
        if "system" in body:  # anthropic-style
            c = body["system"]
            system = c if isinstance(c, str) else "".join(p.get("text", "") for p in c)
            break
except FileNotFoundError:
    pass
if system is None:
    die("no model request recorded")
with open(os.path.join(R, "system.txt"), "w") as f:
    f.write(system)

idx = system.find(MARK)
if idx < 0:
    print(json.dumps({"tool": "cline", "version": "3.0.65", "files": [], "text": ""}))
    sys.exit(0)
text = system[idx + 2:]

# ---- candidate files: everything under CWD, rule-ish things in ancestors, everything under HOME
def walk(root, skip=()):
    out = []; real = set()
    for d, dirs, files in os.walk(root, followlinks=True):
        rp = os.path.realpath(d)
        if rp in real:  # symlink loop guard
            dirs[:] = []; continue
        real.add(rp)
        dirs[:] = [x for x in dirs if x not in (".git", "node_modules") and os.path.join(d, x) not in skip]
        for fn in files:
            out.append(os.path.join(d, fn))
            if len(out) > MAX_FILES:
                return out
    return out

cands = walk(CWD) + walk(HOME, skip=(os.path.join(HOME, ".cline", "data"),))
p = os.path.dirname(CWD)
while True:
    for n in ("AGENTS.md", ".clinerules", ".cline"):
        q = os.path.join(p, n)
        if os.path.isfile(q):
            cands.append(q)
        elif os.path.isdir(q):
            cands += walk(q)
    if p == os.path.dirname(p):
        break
    p = os.path.dirname(p)
seen = set(); cl = []
for c in cands:
    if c not in seen and os.path.isfile(c):
        seen.add(c); cl.append(c)

def bodies(path):
    try:
        s = open(path, encoding="utf-8", errors="replace", newline="").read()
    except (UnicodeDecodeError, OSError):
        return None, set()
    if s.startswith("\ufeff"):
        s = s[1:]
    out = {s.strip()}
    m = FM.match(s)
    name = None
    if m:
        out.add(m.group(2).strip())
        mm = re.search(r'^name:\s*["\']?(.*?)["\']?\s*$', m.group(1), re.M)
        if mm:
            name = mm.group(1).strip()
    out.discard("")
    return name, out

info = {}
for c in cl:
    name, bs = bodies(c)
    if bs:
        info[c] = (name, bs)

def expected_titles(path, name):
    t = set()
    if name:
        t.add(name)
    b = os.path.basename(path)
    t.add(os.path.splitext(b)[0])
    if b.lower() == "agents.md":
        t.update({"Workspace AGENTS.md", "Global AGENTS.md"})
    return t

# ---- parse '# Rules\n## t\nbody\n\n## t\nbody...' using candidate bodies to delimit
files = []
pos = len("# Rules\n")
while pos < len(text):
    if not text.startswith("## ", pos):
        die("unexpected text at offset %d: %r" % (pos, text[pos:pos + 80]))
    nl = text.find("\n", pos)
    title = text[pos + 3:nl]
    start = nl + 1
    matches = []
    for c, (name, bs) in info.items():
        for b in bs:
            end = start + len(b)
            if text.startswith(b, start) and (end == len(text) or text.startswith("\n\n## ", end)):
                matches.append((len(b), title in expected_titles(c, name), c, end))
    if matches:
        matches.sort(key=lambda m: (-m[0], not m[1], m[2]))
        best = [m for m in matches if m[0] == matches[0][0]]
        pref = [m for m in best if m[1]] or best
        if len(pref) > 1:
            sys.stderr.write("oracle-cline: ambiguous section %r: %s\n" % (title, [m[2] for m in pref]))
        files.append(pref[0][2]); end = pref[0][3]
    else:
        sys.stderr.write("oracle-cline: no file matches section %r\n" % title)
        files.append("?" + title)
        n = text.find("\n\n## ", start)
        end = len(text) if n < 0 else n
    pos = end + 2 if end < len(text) else end

print(json.dumps({"tool": "cline", "version": "3.0.65", "files": files, "text": text}, ensure_ascii=False))
