// usage: node verify.mjs ORACLE.json REQUESTS.jsonl
// Checks run.sh output against what the real CLI sent (record.sh).
import fs from 'node:fs';
const o = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const reqs = fs.readFileSync(process.argv[3], 'utf8').trim().split('\n').filter(Boolean).map(JSON.parse);
const r = reqs.find((l) => l.url.includes(':streamGenerateContent'));
if (!r) { console.log('FAIL no main request recorded'); process.exit(1); }
const b = JSON.parse(r.body);
const si = b.systemInstruction.parts.map((p) => p.text).join('');
const first = b.contents[0].parts[0].text;
const sim = o.system_instruction_memory.trim();
const siOk = sim ? si.endsWith('\n\n' + sim) : !si.includes('<loaded_context>');
const sm = o.session_memory;
const smOk = sm ? first.includes('\n\n' + sm + '\n</session_context>') : !first.includes('<loaded_context>');
console.log(`${siOk && smOk ? 'PASS' : 'FAIL'} system_instruction=${siOk} session=${smOk}`);
if (!siOk) console.log('--- recorded SI tail:\n' + si.slice(-800));
if (!smOk) console.log('--- recorded first user msg:\n' + first);
process.exit(siOk && smOk ? 0 : 1);
