import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { freePort, startProcess, type RunningProcess } from '../helpers/process.js';

/**
 * Every shell example of README.md and docs/ runs, as pasted, against a real server, and prints
 * what the page says it prints. The conventions (placeholders, the state each page starts from,
 * `# →` answers, `<!-- not run: why -->`) are written down in docs/developers/testing.md.
 */

const root = new URL('../..', import.meta.url).pathname;

interface Example {
  file: string;
  /** The line of the opening fence, from 1. */
  line: number;
  code: string;
  /** Why the block is not run, from `<!-- not run: why -->` on the line above its fence. */
  notRun: string | null;
}

/** The fenced `sh` and `bash` blocks of a Markdown text. */
function shellExamples(file: string, text: string): Example[] {
  const lines = text.split('\n');
  const examples: Example[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const open = /^(`{3,}|~{3,})\s*([\w-]*)/.exec(lines[i] ?? '');
    if (!open) continue;
    const fence = open[1] ?? '```';
    let end = i + 1;
    while (end < lines.length && !(lines[end] ?? '').trimEnd().startsWith(fence)) end += 1;
    if (open[2] === 'sh' || open[2] === 'bash') {
      const marker = /^<!--\s*not run:\s*(.+?)\s*-->$/.exec((lines[i - 1] ?? '').trim());
      examples.push({ file, line: i + 1, code: lines.slice(i + 1, end).join('\n'), notRun: marker ? (marker[1] ?? '') : null });
    }
    i = end;
  }
  return examples;
}

/** The separator the test prints where a block says `# → answer`. */
const SEPARATOR = '@@answer@@';

/**
 * The block as a script that prints SEPARATOR where the page shows an answer, and those answers:
 * a comment `# → answer`, continued on the comment lines indented under it.
 */
function withAnswers(code: string): { script: string; answers: string[] } {
  const answers: string[] = [];
  const script: string[] = [];
  for (const line of code.split('\n')) {
    const answer = /^#\s*→\s?(.*)$/.exec(line);
    const continued = /^#\s{2,}(\S.*)$/.exec(line);
    if (answer) {
      answers.push(answer[1] ?? '');
      script.push(`printf '\\n%s\\n' '${SEPARATOR}'`);
    } else if (continued && script.at(-1)?.includes(SEPARATOR)) {
      answers[answers.length - 1] += ` ${continued[1]}`;
    } else {
      script.push(line);
    }
  }
  return { script: script.join('\n'), answers };
}

/** Whether the output is the answer the page shows: white space aside, `…` standing for any text. */
function answerMatches(answer: string, output: string): boolean {
  const squeeze = (text: string) => text.replace(/\s+/g, '');
  const pattern = squeeze(answer)
    .split('…')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[\\s\\S]*?');
  return new RegExp(`^${pattern}$`).test(squeeze(output));
}

interface Target {
  port: number;
  osmandPort: number;
  trackerPorts: Record<'teltonika' | 'wialon' | 'egts', number>;
  token: string;
}

/** The block with the placeholders of docs/developers/testing.md made into this server's. */
function substitute(code: string, target: Target): string {
  return code
    .replace(/\blocalhost:8080\b/g, `127.0.0.1:${target.port}`)
    .replace(/\blocalhost:5055\b/g, `127.0.0.1:${target.osmandPort}`)
    .replace(/\blk_\.\.\./g, target.token)
    .replace(/\bnpm run simulate:terminal -- (teltonika|wialon|egts)\b/g, (_m, protocol: keyof Target['trackerPorts']) => {
      return `npm --prefix '${root}' run simulate:terminal -- ${protocol} --port ${target.trackerPorts[protocol]}`;
    });
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runBash(script: string, cwd: string, token: string): Promise<Run> {
  const prelude = 'set -e -o pipefail\ncurl() { command curl --fail-with-body "$@"; }\n';
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', prelude + script], {
      cwd,
      env: { ...process.env, TOKEN: token, PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}` },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += String(chunk)));
    child.stderr.on('data', (chunk) => (stderr += String(chunk)));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A Lokator process on `dataDir`, with every tracker listener on a port of its own. */
async function startLokator(dataDir: string): Promise<{ server: RunningProcess; trackerPorts: Target['trackerPorts'] }> {
  const trackerPorts = { teltonika: await freePort(), wialon: await freePort(), egts: await freePort() };
  const server = await startProcess({
    DATA_DIR: dataDir,
    TELTONIKA_PORT: String(trackerPorts.teltonika),
    WIALON_IPS_PORT: String(trackerPorts.wialon),
    EGTS_PORT: String(trackerPorts.egts),
  });
  return { server, trackerPorts };
}

async function stop(server: RunningProcess | undefined): Promise<void> {
  if (!server || server.child.exitCode !== null) return;
  server.child.kill('SIGTERM');
  await server.exited;
}

/** Runs one example against the target and checks its exit code and the answers it shows. */
async function runExample(example: Example, target: Target, cwd: string, server: RunningProcess): Promise<void> {
  const { script, answers } = withAnswers(substitute(example.code, target));
  const where = `${relative(root, example.file)}:${example.line}`;
  assert.doesNotMatch(script, /localhost:\d+/, `${where} names a port the convention does not know`);
  const run = await runBash(script, cwd, target.token);
  const printed = `stdout:\n${run.stdout}\nstderr:\n${run.stderr}`;
  assert.equal(run.code, 0, `${where} exited with ${run.code}\n${printed}\nserver:\n${server.output().slice(-2000)}`);
  const outputs = run.stdout.split(`\n${SEPARATOR}\n`);
  assert.equal(outputs.length, answers.length + 1, `${where}: every answer shown was reached\n${printed}`);
  answers.forEach((answer, i) => {
    assert.ok(answerMatches(answer, outputs[i] ?? ''), `${where}, answer ${i + 1}:\nthe page shows  ${answer}\nthe server said ${outputs[i]}`);
  });
}

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name.startsWith('.') ? [] : markdownFiles(path);
    return name.endsWith('.md') ? [path] : [];
  });
}

const readme = join(root, 'README.md');
const pages = markdownFiles(join(root, 'docs')).sort();
const examplesOf = (file: string) => shellExamples(file, readFileSync(file, 'utf8'));
const all = [readme, ...pages].flatMap(examplesOf);

describe('the shell examples of README.md and docs/', () => {
  const work = mkdtempSync(join(tmpdir(), 'lokator-examples-'));
  /** The README's server's data, once it has run the README's examples and stopped. */
  const afterReadme = join(work, 'readme');
  let token = '';
  after(() => rmSync(work, { recursive: true, force: true }));

  it('run, or are marked not run with a reason', (t) => {
    const notRun = all.filter((example) => example.notRun !== null);
    t.diagnostic(`${all.length - notRun.length} examples run, ${notRun.length} marked not run`);
    assert.ok(all.length - notRun.length >= 10, 'the pages keep their runnable examples');
    assert.deepEqual(
      notRun.filter((example) => example.notRun === '').map((example) => `${relative(root, example.file)}:${example.line}`),
      [],
      'every block not run says why',
    );
  });

  it('are found, and their answers checked, as the convention says', () => {
    const text = 'Text\n\n<!-- not run: it installs Node -->\n```sh\nnpm ci\n```\n\n```bash\ncurl -s localhost:8080/x\n# → {"a": 1,\n#    "b": 2}\n```\n```js\nx()\n```\n';
    const [skipped, runnable, ...rest] = shellExamples('page.md', text);
    assert.deepEqual(rest, []);
    assert.deepEqual(skipped, { file: 'page.md', line: 4, code: 'npm ci', notRun: 'it installs Node' });
    assert.equal(runnable?.notRun, null);
    const { script, answers } = withAnswers(runnable?.code ?? '');
    assert.deepEqual(answers, ['{"a": 1, "b": 2}']);
    assert.equal(script.split('\n').length, 2, 'the answer is one separator line');
    assert.ok(answerMatches('{"a": 1, "b": 2}', '{"a":1,"b":2}'));
    assert.ok(answerMatches('{"a": 1, …}', '{"a":1,"b":2}'));
    assert.ok(answerMatches('… done', 'step 1\nstep 2\ndone\n'));
    assert.ok(!answerMatches('{"a": 1}', '{"a":12}'), 'the whole output is the answer');
    assert.ok(!answerMatches('{"a": 1, …}', '{"a":2,"b":2}'));
  });

  /** The examples of one page, against a server on `dataDir`; `fromReadme` copies the README's state there first. */
  function page(file: string, dataDir: string, fromReadme: boolean): void {
    const examples = examplesOf(file);
    if (examples.length === 0) return;
    const runs = examples.some((example) => example.notRun === null);
    describe(relative(root, file), () => {
      if (!runs) {
        for (const example of examples) it(`the block at line ${example.line}`, { skip: `not run: ${example.notRun}` }, () => {});
        return;
      }
      let server: RunningProcess | undefined;
      let target: Target;
      const cwd = join(work, `${relative(root, file).replace(/\W/g, '-')}-cwd`);
      before(async () => {
        if (fromReadme) cpSync(afterReadme, dataDir, { recursive: true });
        const started = await startLokator(dataDir);
        server = started.server;
        if (!fromReadme) token = /API token \(shown once\):\s+(\S+)/.exec(server.output())?.[1] ?? '';
        assert.ok(token, `the first start printed the API token:\n${server.output()}`);
        target = { port: server.port, osmandPort: server.osmandPort, trackerPorts: started.trackerPorts, token };
        mkdirSync(cwd, { recursive: true });
      });
      after(() => stop(server));
      for (const example of examples) {
        const name = `the block at line ${example.line}`;
        if (example.notRun !== null) it(name, { skip: `not run: ${example.notRun}` }, () => {});
        else it(name, { timeout: 120_000 }, () => runExample(example, target, cwd, server!));
      }
    });
  }

  page(readme, afterReadme, false);
  pages.forEach((file, i) => page(file, join(work, `page-${i}`), true));
});
