import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { GENERATED_FILE, renderWorkspaceKinds, ruleKindViews } from '../../scripts/workspace-kinds.js';
import { RULE_KINDS } from '../../src/signals/kinds/rule-kinds.js';

/**
 * The workspace keeps no table of kinds: it reads web/src/generated/kinds.ts, written from the
 * server's lists. A kind added, removed or changed without `npm run kinds:workspace` fails here.
 */
describe('the workspace’s kinds', () => {
  it('are the server’s lists as scripts/workspace-kinds.ts writes them', () => {
    assert.equal(readFileSync(GENERATED_FILE, 'utf8'), renderWorkspaceKinds(), 'run `npm run kinds:workspace` and commit web/src/generated/kinds.ts');
  });

  it('show every number parameter a kind’s schema has, with its bounds', () => {
    for (const view of ruleKindViews()) {
      const definition = RULE_KINDS.find((k) => k.kind === view.kind)!;
      const properties = Object.keys((definition.parameters as { properties?: object }).properties ?? {});
      const shown = view.editor === 'zones' ? properties : view.numbers.map((p) => p.key);
      assert.deepEqual([...shown].sort(), [...properties].sort(), `kind ${view.kind}: the form asks for every parameter`);
    }
    const speed = ruleKindViews().find((v) => v.kind === 1)!;
    assert.deepEqual(speed.numbers[0], { key: 'speedLimit', label: 'rules.speedLimit', required: true, integer: false, min: 0, max: 1000, exclusiveMin: true });
  });
});
