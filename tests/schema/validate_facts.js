// SPDX-License-Identifier: Apache-2.0
// Validates YAML fact files against a JSON Schema with ajv (draft 2020-12,
// with ajv-formats), reading YAML with the `yaml` package's YAML 1.2 core
// schema, as the YAML language server and the capops loader read it:
// `2027-04-15` stays a string, not a Date, and `1_000`, `0b101` and `1:30`
// are strings, not the numbers YAML 1.1 readers make of them.
// Usage: node validate_facts.js SCHEMA FILE…
// Prints `FILE: valid`, `FILE: invalid: …` or `FILE: not YAML: …` per file.
const fs = require('fs');
const path = require('path');
const modules = path.join(__dirname, '..', 'sarif', 'node_modules');
const Ajv2020 = require(path.join(modules, 'ajv', 'dist', '2020')).default;
const addFormats = require(path.join(modules, 'ajv-formats'));
const YAML = require(path.join(modules, 'yaml'));

const [schemaFile, ...files] = process.argv.slice(2);
// Strict, but for union types (`["string", "number"]`), which JSON Schema allows.
const ajv = new Ajv2020({allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true});
addFormats(ajv);
// Annotations for editors (the YAML language server): no part of validation.
ajv.addKeyword('markdownDescription');
ajv.addKeyword('errorMessage');
const validate = ajv.compile(JSON.parse(fs.readFileSync(schemaFile, 'utf8')));
for (const file of files) {
  let documents;
  try {
    const parsed = YAML.parseAllDocuments(fs.readFileSync(file, 'utf8'), {schema: 'core'});
    const broken = parsed.flatMap(d => d.errors);
    if (broken.length) throw broken[0];
    documents = parsed.map(d => d.toJS());
  } catch (e) {
    console.log(`${file}: not YAML: ${String(e.message).split('\n')[0]}`);
    continue;
  }
  const problems = [];
  documents.forEach((doc, i) => {
    if (doc === null || doc === undefined) return;  // an empty document
    if (!validate(doc)) {
      for (const e of validate.errors) problems.push(`document ${i + 1} ${e.instancePath || '/'} ${e.message}`);
    }
  });
  console.log(problems.length ? `${file}: invalid: ${problems.slice(0, 3).join('; ')}` : `${file}: valid`);
}
