// Writes random datums of Avro schemas with avsc: reads a JSON array of
// schema texts on stdin, prints a JSON array holding, for each schema,
// an object: {datums: [hex...]}, {infinite: true} when the schema has
// no finite datum, or {refused: why} when avsc refuses the schema. The values are drawn here so that logical types get valid
// ones (a decimal within its precision, a uuid's text); avsc encodes
// them. Usage: node random.js AVSC_DIR SEED COUNT
'use strict';
const avsc = require(require('path').resolve(process.argv[2]));
let seed = Number(process.argv[3]) >>> 0;
const count = Number(process.argv[4]);

function rand() { // xorshift32, so that a seed gives the same datums
  seed ^= seed << 13; seed >>>= 0;
  seed ^= seed >>> 17;
  seed ^= seed << 5; seed >>>= 0;
  return seed / 4294967296;
}
function int(n) { return Math.floor(rand() * n); }
function pick(a) { return a[int(a.length)]; }

const TOO_DEEP = {};

function value(s, names, ns, depth) {
  if (depth > 40) throw TOO_DEEP;
  if (typeof s === 'string') {
    const prim = primitive(s);
    if (prim !== undefined) return prim;
    const full = s.includes('.') || !ns ? s : ns + '.' + s;
    const def = names[full] || names[s];
    return value(def, names, def.__ns, depth + 1);
  }
  if (Array.isArray(s)) {
    // Deep down, take the branch least likely to go deeper.
    let i = int(s.length);
    if (depth > 6) {
      const flat = s.findIndex((b) => typeof b === 'string' && primitive(b) !== undefined);
      if (flat >= 0) i = flat;
    }
    const b = s[i];
    return { [branchName(b, ns)]: value(b, names, ns, depth + 1) };
  }
  const t = s.type;
  if (typeof t === 'object') return value(t, names, ns, depth + 1);
  const lt = s.logicalType;
  switch (t) {
    case 'record': case 'error': {
      const rns = s.__ns;
      const o = {};
      for (const f of s.fields) o[f.name] = value(f.type, names, rns, depth + 1);
      return o;
    }
    case 'enum':
      return pick(s.symbols);
    case 'fixed': {
      if (lt === 'decimal' && validDecimal(s, s.size)) return decimal(s.precision, s.size);
      return bytes(s.size);
    }
    case 'array': {
      const n = depth > 6 ? 0 : int(4);
      const a = [];
      for (let i = 0; i < n; i++) a.push(value(s.items, names, ns, depth + 1));
      return a;
    }
    case 'map': {
      const n = depth > 6 ? 0 : int(4);
      const m = {};
      for (let i = 0; i < n; i++) m['k' + i + text(3)] = value(s.values, names, ns, depth + 1);
      return m;
    }
    case 'bytes':
      if (lt === 'decimal' && validDecimal(s, 0)) return decimal(s.precision, 0);
      if (lt === 'big-decimal' && s.precision === undefined && s.scale === undefined) return bigDecimal();
      return bytes(int(12));
    case 'string':
      if (lt === 'uuid') return uuid();
      if (s['go.type'] === 'net/netip.Addr') return [int(256), int(256), int(256), int(256)].join('.');
      return text(int(12));
    case 'int':
      if (lt === 'date') return int(80000) - 40000;
      if (lt === 'time-millis') return int(86400000);
      return primitive('int');
    case 'long':
      if (lt === 'time-micros') return int(86400) * 1000000 + int(1000000);
      return primitive('long');
  }
  return primitive(t);
}

// collect records every named type of s by full name, with the namespace
// its references are resolved in.
function collect(s, names, ns) {
  if (Array.isArray(s)) {
    for (const b of s) collect(b, names, ns);
    return;
  }
  if (typeof s !== 'object' || s === null) return;
  if (typeof s.type === 'object') return collect(s.type, names, ns);
  if (['record', 'error', 'enum', 'fixed'].includes(s.type)) {
    const full = fullName(s, ns);
    names[full] = s;
    const inner = full.includes('.') ? full.slice(0, full.lastIndexOf('.')) : '';
    s.__ns = inner;
    for (const f of s.fields || []) collect(f.type, names, inner);
    return;
  }
  if (s.type === 'array') collect(s.items, names, ns);
  if (s.type === 'map') collect(s.values, names, ns);
}

function primitive(t) {
  switch (t) {
    case 'null': return null;
    case 'boolean': return rand() < 0.5;
    case 'int': return pick([0, 1, -1, 127, -128, 2147483647, -2147483648, int(1 << 30) - (1 << 29)]);
    case 'long': return pick([0, 1, -1, 2 ** 40, -(2 ** 40), 2 ** 52, -(2 ** 52), int(1e9) - 5e8]);
    case 'float': return Math.fround(rand() * 1000 - 500);
    case 'double': return rand() * 1e6 - 5e5;
    case 'bytes': return bytes(int(12));
    case 'string': return text(int(12));
  }
  return undefined;
}

function fullName(s, ns) {
  if (s.name.includes('.')) return s.name;
  const n = s.namespace !== undefined ? s.namespace : ns;
  return n ? n + '.' + s.name : s.name;
}

function branchName(b, ns) {
  if (typeof b === 'string') {
    if (primitive(b) !== undefined || b === 'null') return b;
    return b.includes('.') || !ns ? b : ns + '.' + b;
  }
  if (['record', 'error', 'enum', 'fixed'].includes(b.type)) return fullName(b, ns);
  return typeof b.type === 'string' ? b.type : branchName(b.type, ns);
}

function bytes(n) {
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) b[i] = int(256);
  return b;
}

function text(n) {
  const chars = 'abcXYZ019 _-é€😀';
  let s = '';
  for (let i = 0; i < n; i++) s += pick(Array.from(chars));
  return s;
}

function uuid() {
  const h = '0123456789abcdef';
  let s = '';
  for (let i = 0; i < 32; i++) {
    s += h[int(16)];
    if (i === 7 || i === 11 || i === 15 || i === 19) s += '-';
  }
  return s;
}

// bigDecimal returns a big-decimal's payload: the unscaled value as Avro
// bytes, then the scale as an Avro int.
// A *big.Rat keeps the value, not the scale: the datums are written with
// the least scale that holds their value, as the Go side writes them.
function bigDecimal() {
  const scale = int(6);
  let unscaled = decimal(15, 0);
  while (scale > 0 && unscaled.length > 0 && twos(unscaled) % 10n === 0n) unscaled = decimal(15, 0);
  return Buffer.concat([Buffer.from([unscaled.length * 2]), unscaled, Buffer.from([scale * 2])]);
}

function twos(b) {
  let v = 0n;
  for (const x of b) v = (v << 8n) | BigInt(x);
  if (b.length && b[0] & 0x80) v -= 1n << BigInt(8 * b.length);
  return v;
}

// validDecimal reports whether a decimal's attributes are valid: when
// they are not, the logical type is ignored, as the specification says.
function validDecimal(s, size) {
  const p = s.precision;
  const sc = s.scale === undefined ? 0 : s.scale;
  if (!Number.isInteger(p) || p <= 0 || !Number.isInteger(sc) || sc < 0 || sc > p) return false;
  return !size || p <= Math.floor(Math.log10(2) * (8 * size - 1));
}

// decimal returns the two's-complement bytes of an unscaled value with at
// most precision digits (and at most 15, which a double holds exactly).
function decimal(precision, size) {
  const digits = Math.min(precision, 15);
  let v = BigInt(int(10 ** Math.min(digits, 9))) * BigInt(10 ** Math.max(0, digits - 9)) / 7n;
  if (rand() < 0.5) v = -v;
  let len = size;
  if (!len) {
    len = 1;
    while (v >= 1n << BigInt(8 * len - 1) || v < -(1n << BigInt(8 * len - 1))) len++;
  }
  const out = Buffer.alloc(len);
  let u = v < 0n ? (1n << BigInt(8 * len)) + v : v;
  for (let i = len - 1; i >= 0; i--) {
    out[i] = Number(u & 255n);
    u >>= 8n;
  }
  return out;
}

const schemas = JSON.parse(require('fs').readFileSync(0, 'utf8'));
const out = schemas.map((text) => {
  const s = JSON.parse(text);
  let type;
  try {
    type = avsc.Type.forSchema(s, { wrapUnions: true });
  } catch (e) {
    return { refused: String(e.message) };
  }
  const names = {};
  collect(s, names, '');
  const datums = [];
  for (let i = 0; i < count; i++) {
    let v;
    try {
      v = value(s, names, '', 0);
    } catch (e) {
      if (e === TOO_DEEP) return { infinite: true };
      throw e;
    }
    datums.push(type.toBuffer(v).toString('hex'));
  }
  return { datums };
});
process.stdout.write(JSON.stringify(out));
