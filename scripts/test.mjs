#!/usr/bin/env node
// `npm test`: typecheck, lint, then every test file on SQLite and, when PostgreSQL's binaries are
// on this machine (or TEST_DATABASE_URL names a server), on PostgreSQL too. A throwaway cluster is
// started for the run and removed after it.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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

function findPostgresBin() {
  const onPath = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' }).stdout.trim();
  if (onPath) return onPath.replace(/\/initdb$/, '');
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return null;
  const versions = readdirSync(base).filter((v) => existsSync(join(base, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a));
  return versions.length ? join(base, versions[0], 'bin') : null;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** initdb + pg_ctl start in a temp folder; as root, through the `postgres` user (initdb refuses root). */
async function startCluster(bin) {
  const asRoot = process.getuid?.() === 0;
  if (asRoot && spawnSync('id', ['-u', 'postgres']).status !== 0) {
    return { error: 'running as root and there is no `postgres` user to run PostgreSQL as' };
  }
  const dir = mkdtempSync(join(tmpdir(), 'lokator-pg-'));
  chmodSync(dir, 0o777);
  const dataDir = join(dir, 'data');
  const port = await freePort();
  const as = (command, commandArgs) =>
    asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, command), ...commandArgs]] : [join(bin, command), commandArgs];
  const [initCmd, initArgs] = as('initdb', ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync']);
  if (run(initCmd, initArgs, { stdio: 'ignore' }) !== 0) return { error: 'initdb failed' };
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
  const [ctlCmd, ctlArgs] = as('pg_ctl', ['-D', dataDir, '-o', options, '-l', join(dir, 'log'), '-w', 'start']);
  if (run(ctlCmd, ctlArgs, { stdio: 'ignore' }) !== 0) return { error: `pg_ctl start failed (see ${join(dir, 'log')})` };
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop() {
      const [stopCmd, stopArgs] = as('pg_ctl', ['-D', dataDir, '-m', 'immediate', 'stop']);
      run(stopCmd, stopArgs, { stdio: 'ignore' });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function testFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'helpers' ? [] : testFiles(path);
    return name.endsWith('.test.ts') ? [path] : [];
  });
}

if (!quick) {
  step('typecheck', 'npx', ['tsc', '--noEmit']);
  step('lint', 'npx', ['eslint', '.']);
}

let cluster = null;
const env = { ...process.env };
if (env.TEST_DATABASE_URL) {
  process.stdout.write(`\n== PostgreSQL: using TEST_DATABASE_URL\n`);
} else {
  const bin = findPostgresBin();
  if (!bin) {
    process.stdout.write('\n== PostgreSQL binaries not found: the tests run on SQLite ONLY.\n');
  } else {
    cluster = await startCluster(bin);
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
