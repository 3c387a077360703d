import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { foreignTableUses } from '../../scripts/check-tables.mjs';

/**
 * The boundary check of `npm run lint`: it passes on the code as it is, and it fails when a
 * module reads another module's table, reaches into another module's internals (the composition
 * root included), or an import cycle appears. Each breach is planted in a copy of src/ and the
 * check run on the copy.
 */

const root = new URL('../..', import.meta.url).pathname;

function depcruise(dir: string): { status: number; output: string } {
  const result = spawnSync(join(root, 'node_modules/.bin/depcruise'), ['src', '--config', join(root, '.dependency-cruiser.mjs'), '--output-type', 'err'], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
  });
  // Colours are off, and stripped besides: CI sets FORCE_COLOR, which some colour libraries prefer.
  return { status: result.status ?? 1, output: stripVTControlCharacters(`${result.stdout}${result.stderr}`) };
}

describe('module boundaries', () => {
  let copy: string;

  before(() => {
    copy = mkdtempSync(join(tmpdir(), 'lokator-boundaries-'));
    cpSync(join(root, 'src'), join(copy, 'src'), { recursive: true });
    cpSync(join(root, 'tsconfig.json'), join(copy, 'tsconfig.json'));
    mkdirSync(join(copy, 'node_modules'));
  });
  after(() => rmSync(copy, { recursive: true, force: true }));

  it('hold in the code as it is', () => {
    assert.deepEqual(foreignTableUses(root), []);
    const { status, output } = depcruise(copy);
    assert.equal(status, 0, output);
  });

  it("fail when a module reads another module's table", () => {
    const file = join(copy, 'src/tasks/planted-leak.ts');
    writeFileSync(file, "import type { Db } from '../store/database.js';\nexport const leak = (db: Db) => db.selectFrom('subscribers').selectAll().execute();\n");
    try {
      assert.deepEqual(foreignTableUses(copy), ['src/tasks/planted-leak.ts:2: module tasks uses table subscribers of module employees']);
    } finally {
      rmSync(file);
    }
  });

  it("fail when a module imports another's internals, or a lower module an upper one", () => {
    const file = join(copy, 'src/geozones/planted-import.ts');
    writeFileSync(file, "import { EmployeeService } from '../employees/employee-service.js';\nexport const planted = EmployeeService;\n");
    try {
      const { status, output } = depcruise(copy);
      assert.notEqual(status, 0);
      assert.match(output, /only-through-the-face: src\/geozones\/planted-import\.ts → src\/employees\/employee-service\.ts/);
      assert.match(output, /layers-geozones: src\/geozones\/planted-import\.ts → src\/employees\/employee-service\.ts/);
    } finally {
      rmSync(file);
    }
  });

  it("fail when the composition root reaches into a module's internals instead of its face", () => {
    const file = join(copy, 'src/planted-root.ts');
    writeFileSync(file, "import { EmployeeService } from './employees/employee-service.js';\nexport const planted = EmployeeService;\n");
    try {
      const { status, output } = depcruise(copy);
      assert.notEqual(status, 0);
      assert.match(output, /root-through-faces: src\/planted-root\.ts → src\/employees\/employee-service\.ts/);
    } finally {
      rmSync(file);
    }
  });

  it('fail on an import cycle, type imports included', () => {
    const a = join(copy, 'src/tasks/planted-a.ts');
    const b = join(copy, 'src/tasks/planted-b.ts');
    writeFileSync(a, "import type { B } from './planted-b.js';\nexport interface A { b?: B }\n");
    writeFileSync(b, "import type { A } from './planted-a.js';\nexport interface B { a?: A }\n");
    try {
      const { status, output } = depcruise(copy);
      assert.notEqual(status, 0);
      assert.match(output, /no-cycles: src\/tasks\/planted-a\.ts/);
    } finally {
      rmSync(a);
      rmSync(b);
    }
  });
});
