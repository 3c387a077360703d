import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { startProcess, type RunningProcess } from '../helpers/process.js';
import { untilValue } from '../helpers/wait.js';

/**
 * `/ready` is what a load balancer or orchestrator asks before sending traffic (docs/operators/operations.md): 503 while the device listeners start (startProcess waits for its 200, and the
 * terminal simulator's test checks the tracker ports accept then) and from the moment shutdown
 * begins, while the listeners drain, before the API itself closes.
 */
describe('/ready during shutdown (the real server process)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'lokator-readiness-'));
  let server: RunningProcess | null = null;
  after(() => {
    if (server?.child.exitCode === null) server.child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers 503 with the envelope once SIGTERM arrives, while a device request in flight holds the shutdown', async () => {
    server = await startProcess({ DATA_DIR: dataDir, LOKATOR_BOOTSTRAP_TOKEN: 'readiness-token-0123456789' });
    const running = server;
    const ready = async () => {
      const response = await fetch(`http://127.0.0.1:${running.port}/ready`);
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    assert.deepEqual(await ready(), { status: 200, body: { status: 'ready' } });

    // A phone's request whose body never finishes: the OsmAnd listener waits for it while closing.
    const held = connect(running.osmandPort, '127.0.0.1');
    await new Promise<void>((resolve) => held.once('connect', resolve));
    held.on('error', () => {});
    held.write('POST / HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/x-www-form-urlencoded\r\ncontent-length: 100\r\n\r\nid=');

    running.child.kill('SIGTERM');
    const answer = await untilValue('/ready to say 503', async () => {
      const now = await ready();
      return now.status === 503 ? now : null;
    });
    assert.deepEqual(answer.body, { status: 503, code: 1014, description: 'SERVICE_UNAVAILABLE', message: 'the server is shutting down' });

    held.destroy();
    assert.equal(await running.exited, 0, running.output());
  });
});
