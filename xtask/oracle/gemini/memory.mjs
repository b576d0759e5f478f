// Oracle helper: asks the installed Gemini CLI 0.61.0 core (bundled chunk) which
// context/memory files it loads at startup for process.cwd() and $HOME, and how
// the text is wrapped for the model. Must be run offline (see run.sh).
//
// Uses the real, unmodified functions of the installed bundle:
//   MemoryContextManager.refresh()  (getGlobalMemoryPaths, getEnvironmentMemoryPaths,
//   getUserProjectMemoryPaths, getExtensionMemoryPaths, readGeminiMdFiles/processImports,
//   categorizeAndConcatenate/concatenateInstructions)
//   Config.prototype.getSystemInstructionMemory / getSessionMemory / getUserMemory
//   renderUserMemory (extracted verbatim from the bundle text at runtime)
// with a stub config carrying the CLI defaults (trusted folder, no include dirs,
// no extensions, memoryBoundaryMarkers [".git"], importFormat "tree", GEMINI.md).
import fs from 'node:fs';
import path from 'node:path';

const BUNDLE = path.join(process.env.ORACLE_CACHE, 'gemini/node_modules/@google/gemini-cli/bundle');
// gemini.js -> gemini-3HFX2LNT.js -> core chunk:
const CORE = path.join(BUNDLE, 'chunk-JDPZ4CE3.js');
const core = await import(CORE);
const {
  SkillManager,
  MemoryContextManager, Config, Storage, SimpleExtensionLoader, WorkspaceContext,
  DEFAULT_CONTEXT_FILENAME, getAllGeminiMdFilenames, setGeminiMdFilename, resetGeminiMdFilename,
  flattenMemory, debugLogger,
} = core;

// Silence debug logging noise on stdout/stderr (debugLogger writes to console).
const warnings = [];
for (const k of ['log', 'info', 'warn', 'error', 'debug']) {
  console[k] = (...a) => { if (k === 'warn' || k === 'error') warnings.push(a.map(String).join(' ')); };
}

// renderUserMemory (modern snippets, used for gemini-3 default model) — taken
// verbatim from the installed bundle so wrapping text can't drift.
const src = fs.readFileSync(CORE, 'utf8');
const m = src.match(/\nfunction renderUserMemory\(memory, contextFilenames\) \{[\s\S]*?\n\}\n/);
if (!m) throw new Error('renderUserMemory not found in bundle');
const renderUserMemory = new Function('DEFAULT_CONTEXT_FILENAME', `${m[0]}; return renderUserMemory;`)(DEFAULT_CONTEXT_FILENAME);

const cwd = process.cwd(); // physical path, as the CLI sees it
const targetDir = path.resolve(cwd);
const fileName = process.env.ORACLE_CONTEXT_FILENAME; // optional override (settings context.fileName)
if (fileName) setGeminiMdFilename(fileName.includes(',') ? fileName.split(',') : fileName);
else resetGeminiMdFilename(DEFAULT_CONTEXT_FILENAME);
const trusted = process.env.ORACLE_UNTRUSTED !== '1';

const storage = new Storage(targetDir, 'oracle');
try { await storage.initialize(); } catch (e) { warnings.push('storage.initialize failed: ' + e.message); }

const stub = {
  targetDir,
  storage,
  getExtensionLoader: () => new SimpleExtensionLoader([]),
  isTrustedFolder: () => trusted,
  getWorkspaceContext: () => new WorkspaceContext(targetDir, []),
  getMemoryBoundaryMarkers: () => ['.git'],
  getImportFormat: () => 'tree',
  getMcpClientManager: () => undefined,
};
const mgr = new MemoryContextManager(stub);
stub.memoryContextManager = mgr;
const paths = await mgr.discoverMemoryPaths();
const contents = await mgr.loadMemoryContents(paths);
mgr.categorizeMemoryContents(paths, contents);

const systemMemory = Config.prototype.getSystemInstructionMemory.call(stub);
const systemInstructionMemory = renderUserMemory(systemMemory, getAllGeminiMdFilenames());
const sessionMemory = Config.prototype.getSessionMemory.call(stub);
const userMemory = Config.prototype.getUserMemory.call(stub);

// A file is "loaded" iff its block appears in the assembled text: content
// read OK (not null), survived identity dedup, and non-empty after trim.
const loadedIn = (list) => list.filter((p) => {
  const c = contents.get(p);
  return c && typeof c.content === 'string' && c.content.trim().length > 0;
});
const tiers = {
  global: loadedIn(paths.global),
  userProjectMemory: loadedIn(paths.userProjectMemory ?? []),
  extension: loadedIn(paths.extension),
  project: trusted ? loadedIn(paths.project) : [],
};
// Model-facing order: system instruction (global, private project memory),
// then first user message (extension, project).
const files = [...tiers.global, ...tiers.userProjectMemory, ...tiers.extension, ...tiers.project];
const blocks = [userMemory.global, userMemory.userProjectMemory, userMemory.extension, userMemory.project]
  .filter((s) => typeof s === 'string' && s.trim().length > 0);

if (fs.existsSync(path.join(core.homedir(), '.gemini', 'extensions'))) warnings.push('~/.gemini/extensions exists: extensions are NOT modelled by memory.mjs (use record.sh)');
for (const s of [path.join(core.homedir(), '.gemini', 'settings.json'), path.join(targetDir, '.gemini', 'settings.json'), '/etc/gemini-cli/settings.json']) {
  try { if (/"context"|"security"/.test(fs.readFileSync(s, 'utf8'))) warnings.push(`${s} has context/security settings: NOT modelled (defaults assumed)`); } catch {}
}

// The skills, as SkillManager.discoverSkills finds them in a trusted folder with no
// extension (the CLI's run without GEMINI_CLI_TRUST_WORKSPACE would leave the workspace's
// out): getSkills() in its order (the prompt's), the built-in skills left out.
const skillManager = new SkillManager();
await skillManager.discoverSkills(new Storage(targetDir), [], true);
const skills = skillManager.getSkills()
  .filter((s) => !s.isBuiltin)
  .map((s) => ({ name: s.name, description: s.description, path: s.location }));

process.stdout.write(JSON.stringify({
  tool: 'gemini',
  skills,
  version: '0.61.0',
  cwd: targetDir,
  home: core.homedir(),
  files,
  // All per-file blocks in model-facing order, joined like concatenateInstructions ("\n\n").
  text: blocks.join('\n\n'),
  tiers,
  discovered: paths,
  // Exactly what is appended to the system instruction (after basePrompt + "\n\n"):
  system_instruction_memory: systemInstructionMemory,
  // Exactly what is placed inside <session_context> of the first user message:
  session_memory: sessionMemory,
  // What /memory show style flattening produces (flattenMemory(getUserMemory())):
  flattened: flattenMemory(userMemory),
  warnings,
}) + '\n');
process.exit(0);
