// Validates YAML fact files against a JSON Schema with ajv (draft 2020-12,
// with ajv-formats), reading YAML as YAML 1.2's core schema does, so that
// `2027-04-15` stays the string the capops loader reads, not a Date.
// Usage: node validate_facts.js SCHEMA FILE…
// Prints `FILE: valid`, `FILE: invalid: …` or `FILE: not YAML: …` per file.
const fs = require('fs');
const path = require('path');
const modules = path.join(__dirname, '..', 'sarif', 'node_modules');
const Ajv2020 = require(path.join(modules, 'ajv', 'dist', '2020')).default;
const addFormats = require(path.join(modules, 'ajv-formats'));
const yaml = require(path.join(modules, 'js-yaml'));

const [schemaFile, ...files] = process.argv.slice(2);
// Strict, but for union types (`["string", "number"]`), which JSON Schema allows.
const ajv = new Ajv2020({allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true});
addFormats(ajv);
const validate = ajv.compile(JSON.parse(fs.readFileSync(schemaFile, 'utf8')));
for (const file of files) {
  let documents;
  try {
    documents = yaml.loadAll(fs.readFileSync(file, 'utf8'), null, {schema: yaml.CORE_SCHEMA});
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
