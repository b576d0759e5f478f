// Loopback recorder: logs every request (JSONL) and answers with a minimal
// canned Gemini API response so the CLI finishes quickly. Never forwards.
import http from 'node:http';
import fs from 'node:fs';
const [,, logFile, portFile] = process.argv;
const candidate = { content: { role: 'model', parts: [{ text: 'ok' }] }, finishReason: 'STOP', index: 0 };
const usage = { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 };
const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    fs.appendFileSync(logFile, JSON.stringify({ method: req.method, url: req.url, body }) + '\n');
    const url = req.url || '';
    if (url.includes(':streamGenerateContent')) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end('data: ' + JSON.stringify({ candidates: [candidate], usageMetadata: usage, modelVersion: 'fake' }) + '\r\n\r\n');
    } else if (url.includes(':generateContent')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ candidates: [{ ...candidate, content: { role: 'model', parts: [{ text: '{"complexity_reasoning":"x","complexity_score":1}' }] } }], usageMetadata: usage }));
    } else if (url.includes(':countTokens')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ totalTokens: 1 }));
    } else {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 404, message: 'oracle recorder: refused', status: 'NOT_FOUND' } }));
    }
  });
});
server.listen(0, '127.0.0.1', () => {
  fs.writeFileSync(portFile, String(server.address().port));
});
