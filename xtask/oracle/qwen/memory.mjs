// Oracle helper: asks the installed Qwen Code 0.24.4 core (bundled chunks) which context
// files and rules it loads at startup for process.cwd() and $HOME, and how the text is
// wrapped for the model. Must be run offline (see run.sh).
//
// Uses the real, unmodified functions of the installed bundle:
//   loadServerHierarchicalMemory  (memoryDiscovery.ts: getMemoryFilePathsInternal,
//     findProjectRoot, QWEN.local.md, dedupeByCanonicalIdentity, readMemoryFiles/processImports,
//     concatenateInstructions; rulesDiscovery.ts: loadRules/formatRules)
//   assembleSystemPrompt          (how the memory is appended to the system prompt)
// called exactly as Config.refreshHierarchicalMemory("session_start") calls it at startup,
// with the CLI defaults: trusted folder (security.folderTrust off), context file names
// ["QWEN.md", "AGENTS.md"], no include directories (context.loadFromIncludeDirectories off),
// no extensions, importFormat "tree", no contextRuleExcludes, not bare, not safe mode.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const VERSION = '0.24.4';
const PKG = path.join(process.env.ORACLE_CACHE, 'qwen/node_modules/@qwen-code/qwen-code');
const CHUNKS = path.join(PKG, 'chunks');
// The chunks of 0.24.4 that hold (and export) what is used below:
const CHUNK = {
  memory: 'chunk-DPEB6S2R.js', // loadServerHierarchicalMemory (core: memoryDiscovery, rulesDiscovery)
  names: 'chunk-NNN2PKPV.js', // setMemoryFilename, getAllMemoryFilenames, LOCAL_CONTEXT_FILENAME
  storage: 'chunk-EL2S73QY.js', // Storage (getGlobalQwenDir)
  paths: 'chunk-JSVXABP6.js', // QWEN_DIR, isSubpath, tildeifyPath
  prompt: 'chunk-JE3J5HFM.js', // assembleSystemPrompt
};
const installed = JSON.parse(fs.readFileSync(path.join(PKG, 'package.json'), 'utf8')).version;
if (installed !== VERSION) throw new Error(`Qwen Code ${installed} installed, ${VERSION} expected`);
const load = (k) => import(pathToFileURL(path.join(CHUNKS, CHUNK[k])).href);

// Keep stdout for the JSON alone.
const warnings = [];
for (const k of ['log', 'info', 'warn', 'error', 'debug']) {
  console[k] = (...a) => { if (k === 'warn' || k === 'error') warnings.push(a.map(String).join(' ')); };
}

const { loadServerHierarchicalMemory } = await load('memory');
const { setMemoryFilename, getAllMemoryFilenames, LOCAL_CONTEXT_FILENAME } = await load('names');
const { Storage } = await load('storage');
const { QWEN_DIR, isSubpath, tildeifyPath } = await load('paths');
const { assembleSystemPrompt } = await load('prompt');

const cwd = process.cwd(); // physical path, as the CLI sees it (loadCliConfig: process.cwd())
const home = os.homedir();
// Optional override, as settings.json context.fileName would set it (replaces the list).
const fileName = process.env.ORACLE_CONTEXT_FILENAME;
if (fileName) setMemoryFilename(fileName.includes(',') ? fileName.split(',') : fileName);
const trusted = process.env.ORACLE_UNTRUSTED !== '1';

// Every file read at the top level (loadReason "session_start") or through an @import ("include").
const notified = [];
const result = await loadServerHierarchicalMemory(
  cwd, // Config.getWorkingDir()
  [], // getMemoryDiscoveryDirectories(): loadFromIncludeDirectories is off by default
  undefined, // the file service is not used by discovery
  [], // getExtensionContextFilePaths(): no extension
  trusted, // isTrustedFolder(): trustedFolder ?? !folderTrust -> true by default
  'tree', // getImportFormat()
  [], // contextRuleExcludes
  {
    explicitOnly: false, // getBareMode()
    loadReason: 'session_start',
    onInstructionsLoaded: (n) => { notified.push(n); },
    extensionRuleSources: [],
  },
);
const { memoryContent, contextFilePaths, conditionalRules, projectRoot, ruleCount } = result;

// The context files with text, in the tool's order: contextFilePaths is that list as shown
// (formatContextFileDisplayPath: relative to the cwd, or ~/… outside it); map back to paths.
const topLevel = [...new Set(notified.filter((n) => n.loadReason !== 'include').map((n) => n.filePath))];
const shown = (p) => {
  if (isSubpath(cwd, p)) return path.relative(cwd, p);
  const t = tildeifyPath(p, home);
  return t !== p ? t : path.relative(cwd, p);
};
const contextFiles = contextFilePaths.map((d) => {
  const hit = topLevel.find((p) => shown(p) === d);
  if (!hit) warnings.push(`context file shown as ${d} not mapped back to a path`);
  return hit ?? d;
});
const memoryType = Object.fromEntries(notified.filter((n) => n.loadReason !== 'include').map((n) => [n.filePath, n.memoryType]));
const imports = notified
  .filter((n) => n.loadReason === 'include')
  .map((n) => ({ path: n.filePath, into: n.triggerFilePath, parent: n.parentFilePath ?? n.triggerFilePath }));

// The rules: loadRules reads ~/.qwen/rules/**/*.md then <root>/.qwen/rules/**/*.md (trusted);
// conditional ones (paths:) come back as objects; the baseline (always-on) ones only as
// text (formatRules: `--- Rule from: <path relative to the root> ---`), so they are found
// by their header in the text, in the text's order.
const mdFiles = (dir) => {
  let entries;
  try { entries = fs.readdirSync(dir, { withFileTypes: true }); } catch { return []; }
  return entries.flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return mdFiles(p);
    return e.isFile() && e.name.endsWith('.md') ? [p] : [];
  });
};
const globalRules = path.join(Storage.getGlobalQwenDir(), 'rules');
const projectRules = path.join(projectRoot, QWEN_DIR, 'rules');
const candidates = [...mdFiles(globalRules)];
if (trusted && path.resolve(projectRules) !== path.resolve(globalRules)) candidates.push(...mdFiles(projectRules));
const conditional = new Set(conditionalRules.map((r) => r.filePath));
const baselineRules = candidates
  .filter((p) => !conditional.has(p))
  .map((p) => ({ p, at: memoryContent.indexOf(`--- Rule from: ${path.relative(projectRoot, p).replace(/\\/g, '/')} ---\n`) }))
  .filter((r) => r.at >= 0)
  .sort((a, b) => a.at - b.at)
  .map((r) => r.p);
if (baselineRules.length !== ruleCount) warnings.push(`${ruleCount} baseline rules counted, ${baselineRules.length} found in the text`);

const qwenDir = Storage.getGlobalQwenDir();
if (fs.existsSync(path.join(qwenDir, 'extensions'))) warnings.push('~/.qwen/extensions exists: extensions are NOT modelled by memory.mjs');
for (const s of [path.join(qwenDir, 'settings.json'), path.join(cwd, QWEN_DIR, 'settings.json'), projectRoot && path.join(projectRoot, QWEN_DIR, 'settings.json')]) {
  try { if (/"context"|"security"|"folderTrust"/.test(fs.readFileSync(s, 'utf8'))) warnings.push(`${s} has context/security settings: NOT modelled (defaults assumed)`); } catch {}
}

const out = JSON.stringify({
  tool: 'qwen',
  version: VERSION,
  cwd,
  home,
  project_root: projectRoot,
  names: getAllMemoryFilenames(),
  local_name: LOCAL_CONTEXT_FILENAME,
  // What the model gets, in order: the context files with text, then the always-on rules.
  files: [...contextFiles, ...baselineRules],
  // All blocks in model-facing order (config.getUserMemory()): the `--- Context from: … ---`
  // blocks joined by "\n\n", then "\n\n" and the `--- Rule from: … ---` blocks.
  text: memoryContent,
  context_files: contextFiles.map((p) => ({ path: p, type: memoryType[p] ?? null })),
  // The files @imports brought in (inlined in the text; not in `files`).
  imports,
  rules: {
    // Always-on: in the text.
    baseline: baselineRules,
    // `paths:` rules: held by the ConditionalRulesRegistry, injected once when a tool touches
    // a matching file (globs relative to project_root).
    conditional: conditionalRules.map((r) => ({ path: r.filePath, paths: r.paths, description: r.description ?? null })),
  },
  // Exactly what is appended to the base system prompt (assembleSystemPrompt: base + this).
  system_prompt_suffix: assembleSystemPrompt({ base: '', contextFiles: memoryContent }),
  warnings,
}) + '\n';
// Exit once the whole document is written (a pipe takes 64 KiB at a time).
process.stdout.write(out, () => process.exit(0));
