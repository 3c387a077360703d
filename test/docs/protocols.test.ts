import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { deviceProtocols } from '../../src/devices/protocols.js';

/**
 * The operators' page on devices lists the protocols of src/devices/protocols.ts with their ports
 * and settings, as this table renders them: a protocol added to the list without its row, or a
 * port changed, fails here with the table to paste.
 */

const page = readFileSync(new URL('../../docs/operators/trackers.md', import.meta.url), 'utf8');

function protocolTable(): string {
  const rows = deviceProtocols.map(
    (p) => `| ${p.label} | \`${p.name}\` | ${p.transport.toUpperCase()} | \`${p.port.setting}\` | ${p.port.default} | ${p.password ? 'in its login, checked when the employee has one' : '–'} |`,
  );
  return ['| protocol | `deviceProtocol` | transport | port setting | default port | device password |', '|---|---|---|---|---|---|', ...rows].join('\n');
}

describe('the vehicle trackers page', () => {
  it('lists every device protocol with its port and setting, as the list declares them', () => {
    const table = protocolTable();
    assert.ok(page.includes(table), `docs/operators/trackers.md should hold this table:\n\n${table}\n`);
  });
});
