#!/usr/bin/env node
// SPDX-License-Identifier: Apache-2.0
// CEL's conformance cases (npm @bufbuild/cel-spec, the cel-spec repository's
// simple tests) run against `capops-lint eval --format json -`.
//
// CPL is not CEL: it has no uint, bytes, protobuf messages or timestamps, and
// it refuses what it cannot type. So a case is either not accepted (CPL
// refuses it at compile time: counted, never a failure) or accepted, and then
// it must give CEL's answer: the same value, or an error where CEL expects one.
//
// Fails when
//   - an accepted case gives another answer than CEL's;
//   - a case listed in accepted.txt is no longer accepted (CPL lost a feature);
//   - capops-lint crashes or its output cannot be paired with its input.
// A case newly accepted and agreeing is reported, to be added to accepted.txt.
//
//   node tests/cel/conformance.js build/engine/capops-lint [--write-accepted]
"use strict";
const fs = require("fs");
const path = require("path");
const { spawnSync } = require("child_process");

const lint = process.argv[2];
const writeAccepted = process.argv.includes("--write-accepted");
if (!lint) {
  console.error("usage: conformance.js CAPOPS-LINT [--write-accepted]");
  process.exit(2);
}
const { tests: suite } = require("@bufbuild/cel-spec/testdata/conformance.js");
const acceptedFile = path.join(__dirname, "accepted.txt");

// A JSON reader that keeps numbers as their text, so that int64 values beyond
// 2^53 and the difference between 1 and 1.0 survive.
function parseJson(text) {
  let i = 0;
  const fail = (what) => {
    throw new Error(`bad JSON from capops-lint (${what}) at ${i}: ${text.slice(0, 200)}`);
  };
  const space = () => {
    while (i < text.length && " \t\r\n".includes(text[i])) i++;
  };
  function value() {
    space();
    const c = text[i];
    if (c === "{") {
      i++;
      const object = new Map();
      space();
      if (text[i] === "}") return i++, { kind: "object", object };
      for (;;) {
        const key = value();
        if (key.kind !== "string") fail("key");
        space();
        if (text[i++] !== ":") fail("colon");
        object.set(key.string, value());
        space();
        if (text[i] === ",") i++;
        else if (text[i++] === "}") return { kind: "object", object };
        else fail("object");
      }
    }
    if (c === "[") {
      i++;
      const items = [];
      space();
      if (text[i] === "]") return i++, { kind: "array", items };
      for (;;) {
        items.push(value());
        space();
        if (text[i] === ",") i++;
        else if (text[i++] === "]") return { kind: "array", items };
        else fail("array");
      }
    }
    if (c === '"') {
      const start = i++;
      while (text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
      i++;
      return { kind: "string", string: JSON.parse(text.slice(start, i)) };
    }
    const m = /^(true|false|null|-?\d+(\.\d+)?([eE][+-]?\d+)?)/.exec(text.slice(i, i + 400));
    if (!m) fail("value");
    i += m[0].length;
    if (m[0] === "true" || m[0] === "false") return { kind: "bool", bool: m[0] === "true" };
    if (m[0] === "null") return { kind: "null" };
    return { kind: "number", number: m[0] };
  }
  const v = value();
  space();
  if (i !== text.length) fail("trailing text");
  return v;
}

const isIntText = (t) => /^-?\d+$/.test(t);
const special = { NaN: NaN, Infinity: Infinity, "-Infinity": -Infinity };

function sameDouble(expected, actual) {
  let x = typeof expected === "string" ? special[expected] ?? Number(expected) : expected;
  let y;
  if (actual.kind === "string" && actual.string in special) y = special[actual.string];
  else if (actual.kind === "number" && !isIntText(actual.number)) y = Number(actual.number);
  else return false;
  if (Number.isNaN(x)) return Number.isNaN(y);
  return Object.is(x, y) || (x === y && x !== 0);
}

// Why `actual` (capops-lint's JSON value) is not CEL's `expected` (a
// cel.expr.Value in protobuf JSON), or "" when they agree.
function differ(expected, actual) {
  const show = () => `CEL ${JSON.stringify(expected)}, capops ${JSON.stringify(plain(actual))}`;
  if ("int64Value" in expected) {
    return actual.kind === "number" && isIntText(actual.number) && BigInt(actual.number) === BigInt(expected.int64Value)
      ? ""
      : show();
  }
  if ("doubleValue" in expected) return sameDouble(expected.doubleValue, actual) ? "" : show();
  if ("stringValue" in expected) return actual.kind === "string" && actual.string === expected.stringValue ? "" : show();
  if ("boolValue" in expected) return actual.kind === "bool" && actual.bool === expected.boolValue ? "" : show();
  if ("nullValue" in expected) return actual.kind === "null" ? "" : show();
  if ("listValue" in expected) {
    const values = expected.listValue.values ?? [];
    if (actual.kind !== "array" || actual.items.length !== values.length) return show();
    for (let k = 0; k < values.length; k++) {
      const why = differ(values[k], actual.items[k]);
      if (why) return `[${k}]: ${why}`;
    }
    return "";
  }
  if ("mapValue" in expected) {
    const entries = expected.mapValue.entries ?? [];
    if (actual.kind !== "object" || actual.object.size !== entries.length) return show();
    for (const e of entries) {
      const key = Object.values(e.key)[0];
      const got = actual.object.get(String(key));
      if (!got) return `key ${JSON.stringify(key)} missing: ${show()}`;
      const why = differ(e.value, got);
      if (why) return `[${key}]: ${why}`;
    }
    return "";
  }
  // uint, bytes, types, enums and protobuf messages have no CPL value.
  return `CEL expects ${Object.keys(expected)[0]}, which CPL has no value for: ${show()}`;
}

function plain(v) {
  switch (v.kind) {
    case "object":
      return Object.fromEntries([...v.object].map(([k, x]) => [k, plain(x)]));
    case "array":
      return v.items.map(plain);
    case "string":
      return v.string;
    case "bool":
      return v.bool;
    case "null":
      return null;
    default:
      return v.number;
  }
}

// CEL's answer for a case: {error: true} or {value}.
function expectation(t) {
  if ("evalError" in t || "anyEvalErrors" in t) return { error: true };
  if ("typedResult" in t) return { value: t.typedResult.result };
  if ("value" in t) return { value: t.value };
  return { value: { boolValue: true } };  // the default of a SimpleTest
}

// Cases CPL cannot take as they stand: they need variables bound, only a type
// check, or macros turned off.
function notRunnable(t) {
  if (t.bindings) return "binds variables";
  if (t.checkOnly) return "type check only";
  if (t.disableMacros) return "macros disabled";
  if ("unknown" in t || "anyUnknowns" in t) return "unknowns";
  return "";
}

const cases = [];
(function walk(s, trail) {
  for (const sub of s.suites ?? []) walk(sub, [...trail, sub.name]);
  for (const t of s.tests ?? []) cases.push({ section: trail[0], id: [...trail, t.original.name].join("/"), t: t.original });
})(suite, []);

function evaluate(exprs) {
  const r = spawnSync(lint, ["eval", "--format", "json", "-"], {
    input: exprs.join("\n") + "\n",
    maxBuffer: 1 << 28,
    encoding: "utf8",
  });
  if (r.error || r.status === null || r.status > 2) {
    throw new Error(`capops-lint eval failed (${r.error ?? `status ${r.status}, signal ${r.signal}`}): ${r.stderr}`);
  }
  const lines = r.stdout.split("\n").filter((l) => l !== "");
  if (lines.length !== exprs.length) {
    throw new Error(`capops-lint eval printed ${lines.length} lines for ${exprs.length} expressions: ${r.stderr}`);
  }
  return lines.map(parseJson);
}

// One line per expression on stdin; the few that span lines go one at a time.
const runnable = cases.filter((c) => !(c.skip = notRunnable(c.t)));
const batch = runnable.filter((c) => !/[\n\r]/.test(c.t.expr));
evaluate(batch.map((c) => c.t.expr)).forEach((out, k) => (batch[k].out = out));
for (const c of runnable.filter((c) => /[\n\r]/.test(c.t.expr))) {
  const r = spawnSync(lint, ["eval", "--format", "json", c.t.expr], { encoding: "utf8" });
  if (r.status === null || r.status > 2) throw new Error(`capops-lint eval crashed on ${c.id}: ${r.stderr}`);
  c.out = parseJson(r.stdout.trim());
}

const failures = [];
for (const c of runnable) {
  const o = c.out.object;
  if (o.get("expression")?.string !== c.t.expr) throw new Error(`output out of step at ${c.id}`);
  c.accepted = !o.has("errors");
  if (!c.accepted) continue;
  const want = expectation(c.t);
  const value = o.get("value");
  const gotError = value.kind === "object" && value.object.has("error") && value.object.size === 1;
  let why = "";
  if (want.error && !gotError) why = `CEL expects an error, capops gives ${JSON.stringify(plain(value))}`;
  else if (!want.error && gotError) why = `capops gives the error "${value.object.get("error").string}"`;
  else if (!want.error) why = differ(want.value, value);
  if (why) failures.push(`${c.id}: ${c.t.expr}\n    ${why}`);
}

// Per section: cases, runnable ones, accepted ones (all of which agree, or the run fails).
const sections = new Map();
for (const c of cases) {
  const s = sections.get(c.section) ?? { cases: 0, runnable: 0, accepted: 0 };
  s.cases++;
  if (!c.skip) s.runnable++;
  if (c.accepted) s.accepted++;
  sections.set(c.section, s);
}
const pad = (x, n) => String(x).padStart(n);
console.log(`${"section".padEnd(16)} ${pad("cases", 6)} ${pad("runnable", 9)} ${pad("accepted", 9)}`);
const total = { cases: 0, runnable: 0, accepted: 0 };
for (const [name, s] of sections) {
  console.log(`${name.padEnd(16)} ${pad(s.cases, 6)} ${pad(s.runnable, 9)} ${pad(s.accepted, 9)}`);
  for (const k in total) total[k] += s[k];
}
console.log(`${"all".padEnd(16)} ${pad(total.cases, 6)} ${pad(total.runnable, 9)} ${pad(total.accepted, 9)}`);
const skipped = {};
for (const c of cases) if (c.skip) skipped[c.skip] = (skipped[c.skip] ?? 0) + 1;
console.log(`not runnable: ${Object.entries(skipped).map(([k, n]) => `${n} ${k}`).join(", ")}`);

const accepted = cases.filter((c) => c.accepted).map((c) => c.id).sort();
if (writeAccepted) {
  fs.writeFileSync(acceptedFile, accepted.join("\n") + "\n");
  console.log(`wrote ${accepted.length} cases to ${acceptedFile}`);
}
const before = fs.existsSync(acceptedFile) ? fs.readFileSync(acceptedFile, "utf8").split("\n").filter(Boolean) : [];
const now = new Set(accepted);
const lost = before.filter((id) => !now.has(id));
const gained = accepted.filter((id) => !before.includes(id));
for (const id of lost) failures.push(`${id}: was accepted (tests/cel/accepted.txt), now refused`);
if (gained.length) console.log(`newly accepted (add to accepted.txt with --write-accepted):\n  ${gained.join("\n  ")}`);

if (failures.length) {
  console.log(`\n${failures.length} case(s) where capops-lint is not CEL:\n${failures.join("\n")}`);
  process.exit(1);
}
console.log(`\nevery accepted case gives CEL's answer (${accepted.length} of ${total.cases})`);
