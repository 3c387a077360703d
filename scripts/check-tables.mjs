#!/usr/bin/env node
// Part of `npm run lint`: each module's SQL touches only the tables it owns (DESIGN "Modules").
// Another module's data is reached through the owner's face, never its table. The list below is
// the ownership; src/store (schema and migrations) and the composition root may name any table.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

export const tableOwners = {
  accounts: ['accounts', 'api_tokens', 'users', 'workspace_sessions', 'sign_in_attempts'],
  employees: ['subscribers', 'subscriber_groups'],
  tasks: ['tasks', 'task_changes'],
  positioning: ['locations', 'tracks', 'vehicle_events', 'statistics_buckets', 'pipeline_states', 'pipeline_checkpoints', 'subscriber_requests', 'zone_visits', 'location_retention'],
  geozones: ['zones', 'zone_groups', 'zone_versions', 'map_objects'],
  signals: ['event_rules', 'signal_ids', 'ingest_versions'],
  delivery: ['deliveries', 'delivery_attempts', 'signing_secrets'],
  http: ['idempotency_keys'],
  customfields: ['custom_field_templates'],
  reports: ['report_schedules', 'report_runs'],
  devices: ['egts_retranslators'],
  alerts: ['alerts'],
  files: ['form_files'],
};

const owners = new Map(Object.entries(tableOwners).flatMap(([module, tables]) => tables.map((table) => [table, module])));
// Where SQL names a table: Kysely's builders and the bulk writer take it as a string literal, raw SQL after a keyword.
const literal = /\b(?:selectFrom|updateTable|deleteFrom|insertInto|mergeInto|innerJoin|leftJoin|rightJoin|fullJoin|crossJoin)\(\s*'([a-z_]+)(?: as [a-z_]+)?'/g;
const bulk = /\btable: '([a-z_]+)'/g;
const rawSql = /\b(?:FROM|JOIN|UPDATE|INTO|TABLE)\s+"?([a-z_]+)"?/gi;

function sourceFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** Every use of a table outside its owner, as `file:line: module reads table of owner`. */
export function foreignTableUses(root) {
  const problems = [];
  for (const file of sourceFiles(join(root, 'src'))) {
    const path = relative(root, file);
    const module = path.split('/')[1];
    if (module === 'store' || !statSync(join(root, 'src', module)).isDirectory()) continue;
    readFileSync(file, 'utf8').split('\n').forEach((line, index) => {
      for (const pattern of [literal, bulk, rawSql]) {
        for (const match of line.matchAll(pattern)) {
          const owner = owners.get(match[1]);
          if (owner && owner !== module) problems.push(`${path}:${index + 1}: module ${module} uses table ${match[1]} of module ${owner}`);
        }
      }
    });
  }
  return problems;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = new URL('..', import.meta.url).pathname;
  const problems = foreignTableUses(root);
  for (const problem of problems) process.stderr.write(`${problem}\n`);
  if (problems.length > 0) {
    process.stderr.write(`\n${problems.length} use(s) of another module's tables: go through the owner's face instead.\n`);
    process.exit(1);
  }
}
