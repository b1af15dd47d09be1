#!/usr/bin/env node
// What grew between two heap snapshots of one process (V8's .heapsnapshot JSON): objects and
// their own (shallow) size by constructor, the second snapshot less the first, largest first,
// divided by `per` (the number of streams, requests... that the difference is made of).
// Usage: node bench/heap-snapshot-diff.mjs <before> <after> [per] [rows]
import { readFileSync } from "node:fs";

/** Count and self size of each node class of a snapshot: "<type>:<name>" (strings by type only). */
export function classSizes(file) {
  const snapshot = JSON.parse(readFileSync(file, "utf8"));
  const { node_fields: fields, node_types: types } = snapshot.snapshot.meta;
  const typeNames = types[0];
  const width = fields.length;
  const typeAt = fields.indexOf("type");
  const nameAt = fields.indexOf("name");
  const sizeAt = fields.indexOf("self_size");
  const { nodes, strings } = snapshot;
  const classes = new Map();
  for (let index = 0; index < nodes.length; index += width) {
    const type = typeNames[nodes[index + typeAt]];
    const name =
      type === "object" || type === "closure" || type === "native" || type === "hidden"
        ? `${type}:${strings[nodes[index + nameAt]]}`.slice(0, 90)
        : type;
    const entry = classes.get(name) ?? { count: 0, size: 0 };
    entry.count++;
    entry.size += nodes[index + sizeAt];
    classes.set(name, entry);
  }
  return classes;
}

export function diffClasses(before, after) {
  const rows = [];
  for (const [name, entry] of after) {
    const old = before.get(name) ?? { count: 0, size: 0 };
    rows.push({ name, count: entry.count - old.count, size: entry.size - old.size });
  }
  for (const [name, old] of before)
    if (!after.has(name)) rows.push({ name, count: -old.count, size: -old.size });
  return rows.sort((a, b) => b.size - a.size);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [beforeFile, afterFile, per = "1", rows = "40"] = process.argv.slice(2);
  const divisor = Number(per);
  const diff = diffClasses(classSizes(beforeFile), classSizes(afterFile));
  const total = diff.reduce((sum, row) => sum + row.size, 0);
  console.log(`| class | objects per ${divisor > 1 ? "unit" : "diff"} | bytes per unit |`);
  console.log(`|---|---|---|`);
  for (const row of diff.slice(0, Number(rows)))
    console.log(
      `| ${row.name.replaceAll("|", "\\|")} | ${(row.count / divisor).toFixed(2)} | ${(row.size / divisor).toFixed(0)} |`,
    );
  console.log(`| **all** | | **${(total / divisor).toFixed(0)}** |`);
}
