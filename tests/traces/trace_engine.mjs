// Loads npusim's Perfetto JSON traces into Chrome's trace engine (the
// DevTools performance panel's model, npm @paulirish/trace_engine) and
// checks that it links every flow: each DMA -> the wait it released.
//   node tests/traces/trace_engine.mjs ENGINE_DIR TRACE.json[.gz]...
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import {pathToFileURL} from 'node:url';

const [engineDir, ...files] = process.argv.slice(2);
if (!engineDir || files.length === 0) {
  console.error('usage: node trace_engine.mjs ENGINE_DIR TRACE.json...');
  process.exit(2);
}
// the engine runs in a page; in node it needs DOMRect (its README says so)
if (!globalThis.DOMRect) {
  globalThis.DOMRect = class DOMRect {
    constructor(x = 0, y = 0, width = 0, height = 0) { Object.assign(this, {x, y, width, height}); }
  };
}
const Trace = await import(pathToFileURL(path.join(engineDir, 'models/trace/trace.js')).href);

let passed = 0, failed = 0;
for (const file of files) {
  let buf = fs.readFileSync(file);
  if (buf[0] === 0x1f && buf[1] === 0x8b) buf = zlib.gunzipSync(buf);
  const events = JSON.parse(buf.toString('utf8')).traceEvents;
  const starts = new Set(), ends = new Set();
  for (const e of events) {
    if (e.ph === 's') starts.add(e.id);
    if (e.ph === 'f') ends.add(e.id);
  }
  const pairs = [...starts].filter(id => ends.has(id)).length;
  const model = Trace.TraceModel.Model.createWithAllHandlers();
  await model.parse(events);
  const parsed = model.parsedTrace();
  const flows = (parsed.data ?? parsed).Flows.flows;
  // every flow links two slices: a DMA and the wait or instruction it released
  const linked = flows.filter(f => f.length === 2 && f.every(e => e.ph === 'X')).length;
  const ok = pairs > 0 && flows.length === pairs && linked === pairs;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${file}: ${flows.length} flows recognised of ${pairs} written (${linked} link two slices)`);
  if (ok) passed++; else failed++;
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
