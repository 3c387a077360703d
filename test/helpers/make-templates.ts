// Run by scripts/test.mjs before the test files: migrates the run's template databases once and
// prints the environment that points the tests at them (see makeTemplates).
import { makeTemplates } from './stores.js';

const [dir] = process.argv.slice(2);
if (!dir) throw new Error('usage: make-templates.ts <dir>');
process.stdout.write(JSON.stringify(await makeTemplates(dir, process.env.TEST_DATABASE_URL)));
