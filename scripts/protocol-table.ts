/**
 * The table of device protocols on docs/operators/trackers.md, rendered from src/devices/protocols.ts
 * (test/docs/protocols.test.ts keeps the page equal to it). After adding a protocol:
 *
 *   node --import tsx scripts/protocol-table.ts      # rewrites the table between its markers
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { deviceProtocols } from '../src/devices/protocols.js';

export const TRACKERS_PAGE = fileURLToPath(new URL('../docs/operators/trackers.md', import.meta.url));
const START = '<!-- protocols: rendered by scripts/protocol-table.ts from src/devices/protocols.ts -->';
const END = '<!-- /protocols -->';

/** One row per protocol, in the list's order. */
export function protocolTable(): string {
  const rows = deviceProtocols.map(
    (p) => `| ${p.label} | \`${p.name}\` | ${p.transport.toUpperCase()} | \`${p.port.setting}\` | ${p.port.default} | ${p.password ? 'in its login, checked when the employee has one' : '–'} |`,
  );
  return ['| protocol | `deviceProtocol` | transport | port setting | default port | device password |', '|---|---|---|---|---|---|', ...rows].join('\n');
}

/** The page with its table as rendered now. */
export function withProtocolTable(page: string): string {
  const start = page.indexOf(START);
  const end = page.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${TRACKERS_PAGE} has lost the table's markers`);
  return `${page.slice(0, start)}${START}\n${protocolTable()}\n${page.slice(end)}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(TRACKERS_PAGE, withProtocolTable(readFileSync(TRACKERS_PAGE, 'utf8')));
}
