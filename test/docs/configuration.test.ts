import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { settings } from '../../src/config.js';
import { deviceProtocols } from '../../src/devices/protocols.js';

/**
 * The operators' configuration page lists every environment variable the server reads, and only
 * those: a setting added to src/config.ts without its line in the table fails here. The device
 * protocols' ports are listed with their protocols on the vehicle trackers page (protocols.test.ts
 * keeps that table equal to the list of protocols).
 */

const page = readFileSync(new URL('../../docs/operators/configuration.md', import.meta.url), 'utf8');
const example = readFileSync(new URL('../../.env.example', import.meta.url), 'utf8');

/** The `NAME=value` lines of .env.example, commented out or not. */
function exampleLines(text: string): [string, string][] {
  return [...text.matchAll(/^#? ?([A-Z][A-Z0-9_]*)=(.*)$/gm)].map((match) => [match[1] ?? '', match[2] ?? '']);
}

/** The variables named in the first column of the page's table (a row may name several). */
function documentedVariables(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .flatMap((line) => [...(line.split('|')[1] ?? '').matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((match) => match[1] ?? ''));
}

describe('the configuration page', () => {
  it('lists every setting of src/config.ts, and nothing else', () => {
    const documented = documentedVariables(page);
    const ports = deviceProtocols.map((protocol) => protocol.port.setting);
    assert.deepEqual([...new Set([...documented, ...ports])].sort(), Object.keys(settings).sort());
    assert.equal(new Set(documented).size, documented.length, 'each variable is listed once');
  });

  it('.env.example names every setting once (a device protocol\'s port may be left to its page), each with a value its setting takes or none', () => {
    const lines = exampleLines(example);
    const names = lines.map(([name]) => name);
    const ports = deviceProtocols.map((protocol) => protocol.port.setting);
    assert.deepEqual([...new Set([...names, ...ports])].sort(), Object.keys(settings).sort());
    assert.equal(new Set(names).size, names.length, 'each variable is named once');
    for (const [name, value] of lines) {
      if (value === '') continue;
      assert.doesNotThrow(() => settings[name as keyof typeof settings].parse(value), `${name}=${value}`);
    }
  });
});
