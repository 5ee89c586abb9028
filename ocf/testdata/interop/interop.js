// avsc (JavaScript) side of the ocf interop tests.
//   node interop.js read FILE                 print {"codec","meta","records"} as JSON
//   node interop.js write FILE CODEC N SCHEMA  write N generated records
'use strict';
const fs = require('fs');
const path = require('path');
const avro = require(path.join(__dirname, '..', 'js', 'node_modules', 'avsc'));

function conv(x) {
  if (Buffer.isBuffer(x)) return {'$bytes_hex': x.toString('hex')};
  if (Array.isArray(x)) return x.map(conv);
  if (x !== null && typeof x === 'object') {
    const o = {};
    for (const k of Object.keys(x)) o[k] = conv(x[k]);
    return o;
  }
  return x;
}

// Keep in step with toolRecord in interop_test.go.
function gen(i) {
  const raw = Buffer.alloc(16);
  for (let j = 0; j < 16; j++) raw[j] = (i * j) & 255;
  return {
    id: i, ts: 1700000000000 + i * 7919, name: 'name-' + i, score: i * 1.5 - 7.25,
    active: i % 2 === 0, values: [i, -i, i * 1000, 2 ** 40 + i, -(2 ** 50), 0],
    tags: {a: String(i), b: 'x'.repeat(i % 5)}, note: i % 3 === 0 ? null : 'note-' + i,
    raw, inner: {x: -i, label: 'L' + i},
  };
}

const [mode, file] = process.argv.slice(2);
if (mode === 'read') {
  const recs = [];
  let codec = 'null';
  const meta = {};
  avro.createFileDecoder(file)
    .on('metadata', (type, c, header) => {
      codec = c;
      for (const k of Object.keys(header.meta)) {
        if (k !== 'avro.schema') meta[k] = header.meta[k].toString('latin1');
      }
    })
    .on('data', (r) => recs.push(conv(r)))
    .on('error', (e) => { console.error(e); process.exit(1); })
    .on('end', () => console.log(JSON.stringify({codec, meta, records: recs})));
} else {
  const [, , codec, n, schemaFile] = process.argv.slice(2);
  const type = avro.Type.forSchema(JSON.parse(fs.readFileSync(schemaFile, 'utf8')));
  const enc = avro.createFileEncoder(file, type, {codec, blockSize: 4096, metadata: {'user.key': Buffer.from('from-avsc')}});
  for (let i = 0; i < Number(n); i++) enc.write(gen(i));
  enc.end();
}
