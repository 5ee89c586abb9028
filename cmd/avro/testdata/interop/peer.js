// avsc (JavaScript) side of the avro command's interop tests.
//   node peer.js read FILE                print each record as JSON, one a line
//   node peer.js write FILE CODEC SCHEMA  write the JSON Lines of stdin as records
// Records are in the peers' JSON model (see peer.py); avsc leaves logical
// types as their underlying values and reads longs as BigInt, {"$long": "N"}.
'use strict';
const fs = require('fs');
const path = require('path');
const avro = require(path.join(__dirname, '..', '..', '..', '..', 'ocf', 'testdata', 'js', 'node_modules', 'avsc'));

// avsc refuses to read a long beyond 2^53 as a number.
const bigLong = avro.types.LongType.__with({
  fromBuffer: (b) => b.readBigInt64LE(),
  toBuffer: (n) => { const b = Buffer.alloc(8); b.writeBigInt64LE(BigInt(n)); return b; },
  fromJSON: BigInt,
  toJSON: Number,
  isValid: (n) => typeof n === 'bigint' || Number.isSafeInteger(n),
  compare: (a, b) => (a === b ? 0 : a < b ? -1 : 1),
});
const typeOf = (s) => avro.Type.forSchema(s, {wrapUnions: false, registry: {long: bigLong}});

function out(x) {
  if (Buffer.isBuffer(x)) return {'$bytes_hex': x.toString('hex')};
  if (typeof x === 'bigint') return {'$long': String(x)};
  if (typeof x === 'number' && (!Number.isFinite(x) || Object.is(x, -0))) return {'$float': Object.is(x, -0) ? '-0' : String(x)};
  if (Array.isArray(x)) return x.map(out);
  if (x !== null && typeof x === 'object') {
    const o = {};
    for (const k of Object.keys(x)) o[k] = out(x[k]);
    return o;
  }
  return x;
}

function inp(x) {
  if (Array.isArray(x)) return x.map(inp);
  if (x !== null && typeof x === 'object') {
    if ('$bytes_hex' in x) return Buffer.from(x['$bytes_hex'], 'hex');
    if ('$float' in x) return Number(x['$float']);
    const o = {};
    for (const k of Object.keys(x)) o[k] = inp(x[k]);
    return o;
  }
  return x;
}

const [mode, file, codec, schemaFile] = process.argv.slice(2);
if (mode === 'read') {
  const lines = [];
  avro.createFileDecoder(file, {parseHook: typeOf})
    .on('data', (r) => lines.push(JSON.stringify(out(r))))
    .on('error', (e) => { console.error(e); process.exit(1); })
    .on('end', () => process.stdout.write(lines.map((l) => l + '\n').join('')));
} else {
  const type = typeOf(JSON.parse(fs.readFileSync(schemaFile, 'utf8')));
  const enc = avro.createFileEncoder(file, type, {codec, blockSize: 2048});
  for (const line of fs.readFileSync(0, 'utf8').split('\n')) {
    if (line !== '') enc.write(inp(JSON.parse(line)));
  }
  enc.end();
}
