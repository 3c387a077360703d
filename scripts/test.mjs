#!/usr/bin/env node
// `npm test`: typecheck and lint, the builds the browser and docs tests read, then every test file on
// SQLite and, when PostgreSQL's binaries are on this machine (or TEST_DATABASE_URL names a server),
// on PostgreSQL too. A throwaway cluster is started for the run and removed after it.
//
// The files run in two tiers: first the fast one (files that start no server, database, process or
// browser, found from their imports), then the rest, several files at a time, each in its own process
// with its own databases copied from the run's migrated templates.
//
//   --quick        skip typecheck and lint (the edit-test loop)
//   --tests-only   skip typecheck, lint and the builds (a second Node major in CI: they do not depend on it)
//   --jobs=N       test files at a time in the second tier (default: TEST_JOBS, else 2 per core)
import './require-node.mjs';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { findPostgresBin, processCpuSeconds, startCluster } from './pg-cluster.mjs';

const root = new URL('..', import.meta.url).pathname;
const args = process.argv.slice(2);
const only = args.filter((a) => !a.startsWith('--'));
const testsOnly = args.includes('--tests-only');
const quick = testsOnly || args.includes('--quick');
const jobsArg = args.find((a) => a.startsWith('--jobs='))?.slice('--jobs='.length);
const jobs = Number(jobsArg ?? process.env.TEST_JOBS ?? 2 * availableParallelism());
const started = Date.now();

function elapsed() {
  return `${((Date.now() - started) / 1000).toFixed(0)} s`;
}

/** Runs commands at once; exits the run when one fails. */
async function steps(list) {
  const results = await Promise.all(
    list.map(
      ({ name, command, commandArgs }) =>
        new Promise((done) => {
          process.stdout.write(`\n== ${name}\n`);
          const child = spawn(command, commandArgs, { stdio: 'inherit', cwd: root });
          child.on('exit', (code) => done({ name, code: code ?? 1 }));
        }),
    ),
  );
  for (const { name, code } of results) {
    if (code !== 0) {
      process.stdout.write(`${name} failed\n`);
      process.exit(code);
    }
  }
}

function testFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'helpers' ? [] : testFiles(path);
    return name.endsWith('.test.ts') ? [path] : [];
  });
}

// What makes a test file slow: a database, a server, a child process, a browser, a mail server, a socket.
const HEAVY = /helpers\/(stores|server|process|browser|smtp|tracker-client|osmand)\.js|src\/store\/database\.js|node:child_process|node:net'|playwright/;

/** Whether the file, or a test module it imports (transitively), reaches for something heavy. */
function isHeavy(file, seen = new Set()) {
  if (seen.has(file)) return false;
  seen.add(file);
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return false;
  }
  if (HEAVY.test(text)) return true;
  for (const [, spec] of text.matchAll(/from '(\.{1,2}\/[^']+)'/g)) {
    const target = resolve(dirname(file), spec.replace(/\.js$/, '.ts'));
    if (target.startsWith(join(root, 'test')) && isHeavy(target, seen)) return true;
  }
  return false;
}

function runTests(name, files, env, concurrency) {
  return new Promise((done) => {
    if (!files.length) return done(0);
    process.stdout.write(`\n== ${name}: ${files.length} files, ${concurrency} at a time (${elapsed()} since the start)\n`);
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, '--test-reporter=spec', ...files.map((f) => relative(root, f))],
      { stdio: 'inherit', cwd: root, env },
    );
    process.on('SIGINT', () => child.kill('SIGINT'));
    child.on('exit', (code, signal) => done(code ?? (signal ? 1 : 0)));
  });
}

if (!quick) {
  await steps([
    { name: 'typecheck', command: 'npm', commandArgs: ['run', '--silent', 'typecheck'] },
    { name: 'lint', command: 'npm', commandArgs: ['run', '--silent', 'lint'] },
  ]);
}
/** CPU seconds used by the processes this run has started and waited for (Linux; 0 elsewhere). */
function childrenCpu() {
  return processCpuSeconds(process.pid, true) - processCpuSeconds(process.pid, false);
}

/**
 * What the run cost in CPU and so the least time it could take on this machine's cores: the tests'
 * processes (servers and browsers they waited for included) and the throwaway PostgreSQL cluster.
 */
function cpuSummary({ tests, postgres, before }) {
  if (!tests) return '';
  const cores = availableParallelism();
  const total = tests + postgres;
  const seconds = (n) => `${n.toFixed(0)} s`;
  return (
    `== CPU: before the tests (typecheck, lint, builds, templates) ${seconds(before)}; tests ${seconds(tests)}, PostgreSQL ${seconds(postgres)}; ` +
    `the tests cannot take less than ${seconds(total / cores)} on ${cores} cores\n`
  );
}

/** The newest modification time of a file under `path`, build output and caches left out. */
function newest(path) {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).filter((name) => !['dist', 'cache', 'node_modules'].includes(name)).map((name) => newest(join(path, name))));
}

// What the server serves and the tests read, built from the current sources unless the build is
// newer than every one of them (as right after `npm ci`, whose prepare step built both).
const builds = [
  {
    name: 'build the workspace',
    output: 'web/dist/index.html',
    sources: ['web/src', 'web/index.html', 'web/vite.config.ts', 'package-lock.json'],
    command: 'npm',
    commandArgs: ['run', '--silent', 'build:web'],
  },
  {
    name: 'build the documentation site',
    output: 'docs/.vitepress/dist/index.html',
    sources: ['docs', 'README.md', 'package-lock.json'],
    command: 'npm',
    commandArgs: ['run', '--silent', 'build:docs'],
  },
];
if (!testsOnly) {
  await steps(builds.filter(({ output, sources }) => newest(join(root, output)) <= Math.max(...sources.map((p) => newest(join(root, p))))));
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
const templateDir = mkdtempSync(join(tmpdir(), 'lokator-templates-'));
const cleanUp = () => {
  cluster?.stop();
  rmSync(templateDir, { recursive: true, force: true });
};
process.on('SIGINT', cleanUp);

const made = spawnSync(process.execPath, ['--import', 'tsx', 'test/helpers/make-templates.ts', templateDir], { cwd: root, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
if (made.status !== 0) {
  const why = made.error?.message ?? (made.signal ? `killed by ${made.signal}` : `exit ${made.status}`);
  process.stdout.write(`\n== the template databases could not be made (${why})\n`);
  cleanUp();
  process.exit(made.status ?? 1);
}
Object.assign(env, JSON.parse(made.stdout));

const files = only.length ? only.map((f) => resolve(root, f)) : testFiles(join(root, 'test')).sort();
const fast = files.filter((f) => !isHeavy(f));
const rest = files.filter((f) => isHeavy(f));
process.stdout.write(`\n== tests (${files.length} files) on ${env.TEST_DATABASE_URL ? 'SQLite and PostgreSQL' : 'SQLite only'}\n`);
const cpuBefore = childrenCpu();
let code = await runTests('fast tier', fast, env, availableParallelism());
if (code === 0) code = await runTests('the rest', rest, env, jobs);
else process.stdout.write('\n== the fast tier failed: the rest does not run\n');
const cpu = { tests: childrenCpu() - cpuBefore, postgres: cluster?.cpuSeconds() ?? 0, before: cpuBefore };
cleanUp();
process.stdout.write(`\n== ${code === 0 ? 'passed' : 'FAILED'} in ${elapsed()}\n`);
process.stdout.write(cpuSummary(cpu));
process.exit(code);
