// The Node package against the CLI built from the same crates: the same rules, the same
// prompt text byte for byte, rule:// round trips, the TTSR matcher on a chunked stream,
// and bad input as a JS Error with a code (never a crash).
//
// Run by `cargo xtask ci` with RULEBOOK_BIN (the CLI) and RULEBOOK_FIXTURE (fixtures/demo).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync, spawnSync } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
const rulebook = require('../index.js')

const BIN = process.env.RULEBOOK_BIN
const FIXTURE = process.env.RULEBOOK_FIXTURE

function demo () {
  const root = mkdtempSync(join(tmpdir(), 'rulebook-node-'))
  cpSync(FIXTURE, join(root, 'demo'), { recursive: true })
  const project = join(root, 'demo/project')
  const home = join(root, 'demo/home')
  mkdirSync(join(project, '.git'))
  return { project, home }
}

function cli (project, home, ...args) {
  return execFileSync(BIN, ['-C', project, '--home', home, ...args])
}

test('the rules are the CLI\'s', async () => {
  const { project, home } = demo()
  const book = await rulebook.discover(project, { home })
  const listed = JSON.parse(cli(project, home, 'explain', '--json'))
  assert.deepEqual(
    book.rules().map(r => [r.name, r.status]),
    listed.files.map(f => [f.name, f.status]))
  assert.equal(book.profile, 'extended')
})

test('the prompt is the CLI\'s byte for byte', async () => {
  const { project, home } = demo()
  const book = await rulebook.discover(project, { home })
  assert.deepEqual(Buffer.from(book.prompt() + '\n'), cli(project, home, 'prompt'))
  assert.deepEqual(Buffer.from(book.prompt(['src/web/cart.ts']) + '\n'),
    cli(project, home, 'prompt', '--paths', 'src/web/cart.ts'))
  const reference = rulebook.discoverSync(project, { home, profile: 'reference' })
  assert.deepEqual(Buffer.from(reference.prompt() + '\n'),
    cli(project, home, '--profile', 'reference', 'prompt'))
})

test('a rule:// URL round-trips', async () => {
  const { project, home } = demo()
  const book = await rulebook.discover(project, { home })
  let resolved = 0
  for (const rule of book.rules()) {
    const url = `rule://${rule.name}`
    const read = spawnSync(BIN, ['-C', project, '--home', home, 'read', url, '--json'])
    if (read.status === 0) {
      const answer = book.resolve(url)
      assert.equal(answer.name, rule.name)
      assert.equal(answer.content, JSON.parse(read.stdout).content)
      resolved++
    } else {
      assert.throws(() => book.resolve(url))
    }
  }
  assert.ok(resolved > 0)
  assert.throws(() => book.resolve('rule://no-such-rule'), { code: 'unknown-rule' })
  assert.throws(() => book.resolve('http://x'), { code: 'not-a-rule-url' })
})

test('the TTSR matcher fires on a chunked stream', async () => {
  const { project, home } = demo()
  const book = await rulebook.discover(project, { home })
  const matcher = book.ttsr()
  const stream = 'Here is the fix:\n```ts\nconsole.lo' + "g('debug')\n```\n"
  const fired = []
  for (let i = 0; i < stream.length; i += 5) fired.push(...matcher.feed(stream.slice(i, i + 5)))
  assert.deepEqual(fired.map(f => f.name), ['no-console-log'])
  assert.equal(fired[0].condition, 'console\\.log\\(')
  // Once for the life of the matcher (the default repeat policy); a new one starts afresh.
  matcher.nextTurn()
  assert.deepEqual(matcher.feed('debugger;'), [])
  assert.deepEqual(book.ttsr().feed('debugger;').map(f => f.name), ['no-console-log'])
})

test('views, skills, check and rules for paths', async () => {
  const { project, home } = demo()
  const book = await rulebook.discover(project, { home })
  const view = book.view('cursor')
  const cursor = JSON.parse(cli(project, home, 'explain', '--as', 'cursor', '--json'))
  assert.deepEqual(view.files.map(f => f.path), cursor.files.map(f => f.path).slice(0, view.files.length))
  assert.ok(rulebook.tools().includes('claude'))
  const report = await book.check()
  const checked = JSON.parse(cli(project, home, 'check', '--json'))
  assert.deepEqual([report.errors, report.warnings, report.infos],
    [checked.errors, checked.warnings, checked.infos])
  assert.ok(Array.isArray(book.skills()))
  assert.equal(book.rulesForPaths(['src/web/cart.ts']).paths[0].path, 'src/web/cart.ts')
  assert.throws(() => book.view('no-such-tool'), { code: 'unknown-tool' })
})

test('bad input is an Error with a code, not a crash', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rulebook-node-'))
  await assert.rejects(rulebook.discover(join(dir, 'missing')), { code: 'not-a-directory' })
  await assert.rejects(rulebook.discover(dir, { providers: ['no-such-provider'] }), { code: 'unknown-provider' })
  assert.throws(() => rulebook.discoverSync(dir, { profile: 'fast' }), { code: 'unknown-profile' })
  // A file name that is not UTF-8: read, its path lossy.
  const rules = join(dir, '.cursor', 'rules')
  mkdirSync(rules, { recursive: true })
  writeFileSync(Buffer.concat([Buffer.from(rules + '/caf'), Buffer.from([0xe9]), Buffer.from('.mdc')]),
    '---\nalwaysApply: true\n---\nBody.\n')
  const book = await rulebook.discover(dir, { home: join(dir, 'home') })
  assert.ok(book.rules().some(r => r.path.includes('caf')))
  // A string that cannot be a path (a lone surrogate) is an error, not a crash.
  await assert.rejects(rulebook.discover('\ud800'), { code: 'not-a-directory' })
})

test('the README\'s example runs as written', async () => {
  const { project, home } = demo()
  const readme = readFileSync(join(FIXTURE, '../../README.md'), 'utf8')
  const start = readme.indexOf('```js\n') + 6
  const example = readme.slice(start, readme.indexOf('```', start))
  // Beside a node_modules that holds this package, as an installed one would.
  const dir = mkdtempSync(join(tmpdir(), 'rulebook-node-example-'))
  mkdirSync(join(dir, 'node_modules'))
  symlinkSync(resolve(import.meta.dirname, '..'), join(dir, 'node_modules/rulebook-rs'))
  writeFileSync(join(dir, 'example.mjs'), example)
  const env = { ...process.env, HOME: home }
  const ran = execFileSync('node', [join(dir, 'example.mjs')], { cwd: project, env })
  const prompt = execFileSync(BIN, ['prompt', '--paths', 'src/app.ts'], { cwd: project, env })
  assert.deepEqual(ran.subarray(0, prompt.length), prompt)
  const listed = JSON.parse(execFileSync(BIN, ['explain', '--json'], { cwd: project, env }))
  const lines = ran.subarray(prompt.length).toString().trim().split('\n')
  assert.deepEqual(lines.map(l => l.split(' ')[0]), listed.files.map(f => f.name))
})
