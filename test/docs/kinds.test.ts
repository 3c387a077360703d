import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { REPORT_KINDS } from '../../src/reports/kinds/report-kinds.js';
import { SIGNAL_KINDS } from '../../src/signals/kinds/rule-kinds.js';

/**
 * The integrators' pages list the signal kinds and the reports: each table holds the list's
 * kinds in its order, with their parameters and own fields, so a kind added to a list without
 * its row (or a row left of one removed) fails here.
 */

const page = (path: string) => readFileSync(new URL(`../../docs/${path}`, import.meta.url), 'utf8');
/** The cells of the table rows whose first cell matches. */
const rows = (text: string, first: RegExp) =>
  text
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .map((line) => line.split('|').slice(1, -1).map((cell) => cell.trim()))
    .filter((cells) => first.test(cells[0] ?? ''));
/** The names a cell writes in backticks (`zoneIDs[]` is `zoneIDs`). */
const names = (cell: string) => [...cell.matchAll(/`(\w+)(?:\[\])?`/g)].map((m) => m[1]!);

describe('the docs’ lists of kinds', () => {
  it('signals.md has a row per signal kind: its number and name, its parameters, its own fields', () => {
    const table = rows(page('integrators/signals.md'), /^\d+ /);
    assert.deepEqual(
      table.map((cells) => cells[0]),
      SIGNAL_KINDS.map((kind) => kind.summary),
    );
    table.forEach(([, parameters, , fields], i) => {
      const kind = SIGNAL_KINDS[i]!;
      const properties = Object.keys((kind.parameters as { properties?: object }).properties ?? {});
      assert.deepEqual(names(parameters ?? '').sort(), properties.sort(), `${kind.summary}: parameters`);
      assert.deepEqual(names(fields ?? ''), [...kind.bodyFields], `${kind.summary}: its own fields`);
    });
  });

  it('reports.md has a row per report, in the routes’ order, and names every route', () => {
    const text = page('integrators/reports.md');
    assert.deepEqual(
      rows(text, /^`\w+`$/).map((cells) => names(cells[0]!)[0]),
      REPORT_KINDS.map((report) => report.name),
    );
    assert.ok(text.includes(`GET /v6/api/reports/{${REPORT_KINDS.map((report) => report.name).join('|')}}`), 'the route line names every report');
  });
});
