#!/usr/bin/env node
// `npm test`: typecheck, lint, then every test file on SQLite and, when PostgreSQL's binaries are
// on this machine (or TEST_DATABASE_URL names a server), on PostgreSQL too. A throwaway cluster is
// started for the run and removed after it.
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { findPostgresBin, startCluster } from './pg-cluster.mjs';

const root = new URL('..', import.meta.url).pathname;
const args = process.argv.slice(2);
const only = args.filter((a) => !a.startsWith('--'));
const quick = args.includes('--quick'); // skip typecheck and lint (for the edit-test loop)

function run(command, commandArgs, options = {}) {
  const result = spawnSync(command, commandArgs, { stdio: 'inherit', cwd: root, ...options });
  return result.status ?? 1;
}

function step(name, command, commandArgs) {
  process.stdout.write(`\n== ${name}\n`);
  const status = run(command, commandArgs);
  if (status !== 0) {
    process.stdout.write(`${name} failed\n`);
    process.exit(status);
  }
}

function testFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'helpers' ? [] : testFiles(path);
    return name.endsWith('.test.ts') ? [path] : [];
  });
}

if (!quick) {
  step('typecheck', 'npm', ['run', '--silent', 'typecheck']);
  step('lint', 'npm', ['run', '--silent', 'lint']);
}
// The browser tests use the workspace the server serves: build it from the current sources.
step('build the workspace', 'npx', ['vite', 'build', '--config', 'web/vite.config.ts', '--logLevel', 'warn']);
// The documentation site the server serves at /docs/, and whose links test/docs checks.
step('build the documentation site', 'npm', ['run', '--silent', 'build:docs']);

let cluster = null;
const env = { ...process.env };
if (env.TEST_DATABASE_URL) {
  process.stdout.write(`\n== PostgreSQL: using TEST_DATABASE_URL\n`);
} else {
  const bin = findPostgresBin();
  if (!bin) {
    process.stdout.write('\n== PostgreSQL binaries not found: the tests run on SQLite ONLY.\n');
  } else {
    cluster = await startCluster(bin, ['fsync=off']);
    if (cluster.error) {
      process.stdout.write(`\n== PostgreSQL could not start (${cluster.error}): the tests run on SQLite ONLY.\n`);
      cluster = null;
    } else {
      env.TEST_DATABASE_URL = cluster.url;
      process.stdout.write(`\n== PostgreSQL: throwaway cluster at ${cluster.url}\n`);
    }
  }
}

const files = only.length ? only : testFiles(join(root, 'test')).sort();
process.stdout.write(`\n== tests (${files.length} files) on ${env.TEST_DATABASE_URL ? 'SQLite and PostgreSQL' : 'SQLite only'}\n`);
const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...files], { stdio: 'inherit', cwd: root, env });
const stopCluster = () => cluster?.stop();
process.on('SIGINT', () => child.kill('SIGINT'));
child.on('exit', (code, signal) => {
  stopCluster();
  process.exit(code ?? (signal ? 1 : 0));
});
