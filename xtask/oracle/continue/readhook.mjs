// Preloaded with `node --import`: logs every fs.readFileSync path (absolute) to the file named
// by the first line of ./readhook.target next to this file's copy. Read-only observation.
import fs from "node:fs";
import path from "node:path";
import { syncBuiltinESMExports } from "node:module";
import { fileURLToPath } from "node:url";
const target = fs.readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), "readhook.target"), "utf8").trim();
const orig = fs.readFileSync;
fs.readFileSync = function (p, ...rest) {
  try {
    if (typeof p === "string" || p instanceof URL) {
      const s = p instanceof URL ? fileURLToPath(p) : p;
      fs.appendFileSync(target, JSON.stringify(path.resolve(s)) + "\n");
    }
  } catch {}
  return orig.call(this, p, ...rest);
};
syncBuiltinESMExports();
