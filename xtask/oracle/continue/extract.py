#!/usr/bin/env python3
"""Turn the recorded chat request into the oracle JSON.
text  = the userRules block of the system message, from '<context name="userRules">' to the
        end of the system message (cn appends it last; it ends with '\n</context>').
files = candidate files whose content (raw, or frontmatter-stripped like cn's parseMarkdownRule)
        occurs in that block, ordered by position. Fixture files must have unique content."""
import json, os, re, sys

T, CWD, HOME = sys.argv[1:4]
OPEN = '<context name="userRules">'

def fail(msg):
    err = ""
    for n in ("cn.err", "cn.out"):
        try: err += open(os.path.join(T, n), errors="replace").read()[-2000:]
        except OSError: pass
    print(json.dumps({"tool": "continue", "version": "1.5.47", "error": msg, "detail": err}))
    sys.exit(1)

reqs = []
try:
    for line in open(os.path.join(T, "requests.jsonl")):
        reqs.append(json.loads(line))
except OSError:
    fail("no request recorded")
chat = [r for r in reqs if "chat/completions" in r["path"] and isinstance(r["body"], dict)]
if not chat: fail("no chat/completions request recorded")
sysmsg = None
for m in chat[0]["body"].get("messages", []):
    if m.get("role") == "system":
        c = m.get("content")
        sysmsg = c if isinstance(c, str) else "".join(p.get("text", "") for p in c if isinstance(p, dict))
        break
if sysmsg is None: fail("no system message")

i = sysmsg.find(OPEN)
text = sysmsg[i:] if i >= 0 else ""

# ---- candidate files -------------------------------------------------------------------
# 1) files cn actually read (fs.readFileSync, logged by readhook.mjs), in first-read order;
# 2) fallback: files found on disk around CWD / HOME / ancestors.
reads = []
try:
    for line in open(os.path.join(T, "reads.jsonl")):
        f = json.loads(line)
        if f not in reads and not f.startswith(T + "/"): reads.append(f)
except OSError: pass

SKIP_DIRS = {".git", "node_modules", "logs", "sessions", "index"}
def walk(root, maxdepth):
    root = os.path.abspath(root)
    if not os.path.isdir(root): return
    base = root.rstrip("/").count("/")
    for d, dirs, files in os.walk(root):
        if d.count("/") - base >= maxdepth: dirs[:] = []
        dirs[:] = sorted(x for x in dirs if x not in SKIP_DIRS)
        for f in sorted(files): yield os.path.join(d, f)

scanned = []
scanned.extend(walk(CWD, 6)); scanned.extend(walk(HOME, 6))
p = os.path.dirname(CWD)
while True:                       # ancestors: direct files + their .continue/ .github/ .cursor/ trees
    try:
        for f in sorted(os.listdir(p)):
            fp = os.path.join(p, f)
            if os.path.isfile(fp): scanned.append(fp)
        for sub in (".continue", ".github", ".cursor"):
            scanned.extend(walk(os.path.join(p, sub), 6))
    except OSError: pass
    if p == "/": break
    p = os.path.dirname(p)
order = reads + [f for f in dict.fromkeys(scanned) if f not in reads]

def variants(raw):
    """raw text (AGENTS.md etc. are inserted raw); cn's parseMarkdownRule body:
    CRLF->LF, and if splitting on /^---\s*$/m gives >=3 parts, parts[2:] joined by '---', trimmed."""
    v = [raw]
    t = raw.replace("\r\n", "\n")
    parts = re.split(r"^---\s*$", t, flags=re.M)
    v.append("---".join(parts[2:]).strip() if len(parts) >= 3 else t)
    return [x for x in v if x.strip()]

AGENT_FILES = ("AGENTS.md", "AGENT.md", "CLAUDE.md", "CODEX.md")
cand = []   # (rank, path, [variants], is_agent)
for rank, f in enumerate(order):
    try:
        if not os.path.isfile(f) or os.path.getsize(f) > 1 << 20: continue
        raw = open(f, encoding="utf-8", errors="replace", newline="").read()
    except (OSError, UnicodeDecodeError):
        continue
    vs = variants(raw)
    # role-aware, as cn builds the block: agent file (cwd/AGENTS.md|AGENT.md|CLAUDE.md|CODEX.md)
    # is inserted raw and only first; *.md under a .continue/rules dir only as parsed body.
    is_agent = os.path.dirname(f) == CWD and os.path.basename(f) in AGENT_FILES
    if is_agent: vs = [raw] if raw.strip() else []
    elif f.endswith(".md") and "/.continue/rules/" in f: vs = vs[-1:]
    if vs: cand.append((rank, f, vs, is_agent))

files, warn = [], None
if text:
    END = "\n</context>"
    if not text.endswith(END): warn = "userRules block does not end with \\n</context>"
    body_end = len(text) - len(END)
    cur = len(OPEN) + 1            # OPEN + "\n"
    used = set()
    while cur < body_end:
        opts = []
        for rank, f, vs, is_agent in cand:
            if is_agent and cur != len(OPEN) + 1: continue
            for v in vs:
                e = cur + len(v)
                if text.startswith(v, cur) and (e == body_end or text.startswith("\n\n", e)):
                    opts.append((-len(v), f in used, rank, f, e))
        if not opts:
            warn = "could not attribute text at offset %d" % cur
            break
        opts.sort()
        _, _, _, f, e = opts[0]
        files.append(f); used.add(f)
        cur = e + 2 if e < body_end else e
    if warn:               # fallback: plain position search
        hits = []
        for rank, f, vs, _ in cand:
            ks = [(text.find(v, len(OPEN)), len(v)) for v in vs]
            ks = [k for k in ks if k[0] >= 0]
            if ks: hits.append((min(ks)[0], rank, f))
        files = [f for _, _, f in sorted(hits)]

out = {"tool": "continue", "version": "1.5.47", "files": files, "text": text}
if warn: out["warning"] = warn
print(json.dumps(out, ensure_ascii=False))
