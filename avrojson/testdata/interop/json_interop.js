// avsc (JavaScript) side of the avrojson interop tests.
//   node json_interop.js IN OUT
// IN and OUT are as for JSONInterop.java: for each JSON text the binary
// datum that avsc reads from it (type.fromString, then type.toBuffer), and
// for each binary datum the JSON text that avsc writes for it
// (type.fromBuffer, then type.toString).
'use strict';
const fs = require('fs');
const path = require('path');
// avsc is installed once, for the ocf interop tests, by scripts/setup.
const avro = require(path.join(__dirname, '..', '..', '..', 'ocf', 'testdata', 'js', 'node_modules', 'avsc'));

const [inFile, outFile] = process.argv.slice(2);
const input = fs.readFileSync(inFile);
let pos = 0;
function u32() {
  const n = input.readUInt32BE(pos);
  pos += 4;
  return n;
}
function item() {
  const n = u32();
  const b = input.subarray(pos, pos + n);
  pos += n;
  return b;
}

const out = [];
function result(ok, err) {
  const body = err ? Buffer.from(String(err.message || err), 'utf8') : ok;
  const head = Buffer.alloc(5);
  head[0] = err ? 1 : 0;
  head.writeUInt32BE(body.length, 1);
  out.push(head, body);
}

// Reports text that is not UTF-8 rather than replacing it.
const utf8 = new TextDecoder('utf-8', {fatal: true, ignoreBOM: true});
const cases = u32();
for (let c = 0; c < cases; c++) {
  // The default options, as users have them: unambiguous unions are
  // unwrapped in memory, and fromString and toString tag them all the same.
  const type = avro.Type.forSchema(JSON.parse(item().toString('utf8')));
  u32(); // flags, for Java only
  const texts = u32();
  for (let i = 0; i < texts; i++) {
    const text = item();
    try {
      result(type.toBuffer(type.fromString(utf8.decode(text))));
    } catch (e) {
      result(null, e);
    }
  }
  const datums = u32();
  for (let i = 0; i < datums; i++) {
    const data = item();
    try {
      result(Buffer.from(type.toString(type.fromBuffer(data)), 'utf8'));
    } catch (e) {
      result(null, e);
    }
  }
}
fs.writeFileSync(outFile, Buffer.concat(out));
