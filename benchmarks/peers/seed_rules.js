// SPDX-License-Identifier: Apache-2.0
// The peer capops-lint's seed rules are measured against: the same three
// rules (CAP-ALC-001, CAP-SUP-001, CAP-CMP-001), written by hand in
// JavaScript over js-yaml, as a team would without a policy engine. Reads
// a plan and its inventory, prints one line per finding (rule, then the
// allocation) and, on stderr, the time to parse and to check.
//
//   node benchmarks/peers/seed_rules.js plan.yaml inventory.yaml
//
// The rules as the pack states them (policies/capops-ai): research on a
// production-replacement pool; evidence none of which is confirmed supply;
// a pool of other hardware than the demand's accelerator without a
// substitute record that passed every required validation. Enum members
// are the same with `-` or `_`, and sizes are compared as bytes, as the
// engine compares them.
'use strict';

const fs = require('fs');
const yaml = require('js-yaml');

const RESEARCH = new Set(['exploration', 'training', 'tuning']);
const CONFIRMED = new Set(['reservation', 'physical-confirmation']);
const REQUIRED = ['quality', 'memory', 'numerics', 'completion-window', 'checkpoint'];
const UNITS = {B: 1, KB: 1e3, MB: 1e6, GB: 1e9, TB: 1e12, KiB: 2 ** 10, MiB: 2 ** 20, GiB: 2 ** 30,
  TiB: 2 ** 40};

const member = (s) => (s === undefined || s === null ? '' : String(s).replace(/_/g, '-'));

function bytes(size) {
  const m = /^\s*([0-9.]+)\s*([A-Za-z]+)\s*$/.exec(String(size));
  return m && UNITS[m[2]] ? Number(m[1]) * UNITS[m[2]] : NaN;
}

function byId(list) {
  const index = new Map();
  for (const item of list || []) index.set(item.id, item);
  return index;
}

function sameHardware(x, y) {
  return x !== undefined && y !== undefined && x.model === y.model &&
      bytes(x.memory) === bytes(y.memory) && x.interconnect === y.interconnect;
}

// The documents of a file by kind; a plan split over several documents is
// not a shape the corpus writes.
function load(path) {
  const out = {};
  for (const doc of yaml.loadAll(fs.readFileSync(path, 'utf8'))) {
    if (doc && doc.kind) out[doc.kind] = doc;
  }
  return out;
}

function main(planPath, inventoryPath) {
  const t0 = process.hrtime.bigint();
  const plan = load(planPath).CapacityPlan;
  const inventory = load(inventoryPath).Inventory;
  const t1 = process.hrtime.bigint();
  const demands = byId(plan.demands);
  const pools = byId(inventory.pools);
  const supply = byId(inventory.supply);
  const types = byId(inventory.accelerator_types);
  const substitutes = plan.substitutes || [];
  const findings = [];
  for (const a of plan.allocations || []) {
    const d = demands.get(a.demand);
    const p = pools.get(a.pool);
    if (d === undefined || p === undefined) continue;
    // CAP-ALC-001
    if (RESEARCH.has(member(d.slice)) && member(p.role) === 'production-replacement') {
      findings.push(`CAP-ALC-001 ${a.id}`);
    }
    // CAP-SUP-001
    const evidence = a.evidence || [];
    if (evidence.length > 0 &&
        !evidence.some((e) => supply.has(e) && CONFIRMED.has(member(supply.get(e).kind)))) {
      findings.push(`CAP-SUP-001 ${a.id}`);
    }
    // CAP-CMP-001
    if (d.accelerator !== undefined) {
      const want = types.get(d.accelerator);
      const have = types.get(p.accelerator);
      const differs = !want || !have || want.model !== have.model ||
          bytes(want.memory) !== bytes(have.memory) || want.interconnect !== have.interconnect;
      if (differs && !sameHardware(want, have)) {
        const unvalidated = REQUIRED.filter((v) => !substitutes.some((s) =>
          sameHardware(types.get(s.replaces), want) && sameHardware(types.get(s.candidate), have) &&
            (s.service === undefined || (p.service !== undefined && s.service === p.service)) &&
            member((s.validation || {})[v] ?? (s.validation || {})[v.replace(/-/g, '_')]) ===
                'passed'));
        if (unvalidated.length > 0) findings.push(`CAP-CMP-001 ${a.id}`);
      }
    }
  }
  const t2 = process.hrtime.bigint();
  process.stdout.write(findings.map((f) => f + '\n').join(''));
  process.stderr.write(`parse ${Number(t1 - t0) / 1e6} ms, check ${Number(t2 - t1) / 1e6} ms, ` +
      `${findings.length} findings\n`);
}

const args = process.argv.slice(2);
if (args.length !== 2) {
  process.stderr.write('usage: node seed_rules.js PLAN.yaml INVENTORY.yaml\n');
  process.exit(2);
}
main(args[0], args[1]);
