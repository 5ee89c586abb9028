// avsc (JavaScript) side of the SchemaOf interop test.
//   node read_ocf.js FILE...
// For each container file, reads every record with createFileDecoder and
// writes it back with the file's type (type.toBuffer). Prints a JSON array
// with, per file, {"hex": [one hex string per record]} or {"error": "..."}.
'use strict';
const path = require('path');
// avsc is installed once, for the ocf interop tests, by scripts/setup.
const avro = require(path.join(__dirname, '..', '..', 'ocf', 'testdata', 'js', 'node_modules', 'avsc'));

function read(file) {
  return new Promise((resolve) => {
    const hex = [];
    let type;
    avro.createFileDecoder(file)
      .on('metadata', (t) => { type = t; })
      .on('data', (record) => {
        try {
          hex.push(type.toBuffer(record).toString('hex'));
        } catch (e) {
          resolve({error: String(e.message || e)});
        }
      })
      .on('error', (e) => resolve({error: String(e.message || e)}))
      .on('end', () => resolve({hex}));
  });
}

(async () => {
  const out = [];
  for (const file of process.argv.slice(2)) {
    out.push(await read(file));
  }
  process.stdout.write(JSON.stringify(out));
})();
