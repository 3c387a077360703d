import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { protocolTable, TRACKERS_PAGE, withProtocolTable } from '../../scripts/protocol-table.js';

/**
 * The operators' page on devices lists the protocols of src/devices/protocols.ts with their ports
 * and settings: a protocol added to the list, or a port changed, without the table rendered again
 * (`node --import tsx scripts/protocol-table.ts`) fails here.
 */
describe('the vehicle trackers page', () => {
  it('lists every device protocol with its port and setting, as the list declares them', () => {
    const page = readFileSync(TRACKERS_PAGE, 'utf8');
    assert.ok(page.includes(protocolTable()), 'render it again: node --import tsx scripts/protocol-table.ts');
    assert.equal(withProtocolTable(page), page);
  });
});
