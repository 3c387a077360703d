/**
 * The client of `bench:devices -- --fleet`, run as its own process: `devices` phones, each with a
 * keep-alive connection of its own, each sending one OsmAnd fix every `everySeconds`, their sends
 * spread evenly over the interval (an open loop: the rate offered is devices / everySeconds
 * whatever the server does). The first round brings every phone online and connected; it prints
 * `measuring` when the measured rounds begin, which last `seconds`. A phone sends its fixes one
 * after another, as Traccar Client does: a fix due while the last is unanswered waits for it, and
 * its latency counts from when it was due, so a slow server shows in the figures instead of
 * lowering the rate asked of it. Device d's k-th fix is dated `startS + k * everySeconds`, a
 * little north-east of the last. Prints one JSON line of the measured rounds: fixes due, answered,
 * 2xx, other answers, errors, p50/p99/max latency in ms, their length in seconds, and this
 * process's CPU time over them (the phones share the machine with the server); besides, p50/p99
 * of the first round (every phone connecting and coming online at once, as after a restart) and
 * of the fixes due in the second half of the measured time (what is left of that by then).
 *
 *   tsx bench/fleet-client.ts <baseUrl> <devices> <everySeconds> <seconds> <startS>
 */
import { Agent, request } from 'node:http';

const [baseUrl, devicesText, everyText, secondsText, startText] = process.argv.slice(2) as [string, string, string, string, string];
const devices = Number(devicesText);
const everyMs = Number(everyText) * 1000;
const measuredMs = Number(secondsText) * 1000;
const startS = Number(startText);
const url = new URL(baseUrl);

const latencies: number[] = [];
/** Latencies of the first round, and of fixes due in the second half of the measured time. */
const firstRound: number[] = [];
const secondHalf: number[] = [];
const counts = { due: 0, ok: 0, other: 0, errors: 0 };

/** One phone: its own connection, its fixes one after another; round 0 is the warm-up. */
async function phone(device: number, startedAt: number): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const lat0 = 55.6 + (device % 100) * 0.003;
  const lon0 = 37.4 + Math.floor(device / 100) * 0.004;
  try {
    for (let round = 0; ; round++) {
      const dueAt = startedAt + (device / devices) * everyMs + round * everyMs;
      if (dueAt >= startedAt + everyMs + measuredMs) return;
      const wait = dueAt - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const path = `/?id=device-${device}&lat=${(lat0 + round * 0.0003).toFixed(6)}&lon=${(lon0 + round * 0.0003).toFixed(6)}&timestamp=${startS + round * (everyMs / 1000)}&speed=15.0&bearing=45`;
      const status = await send(agent, path);
      const latency = performance.now() - dueAt;
      if (round === 0) {
        firstRound.push(latency);
        continue;
      }
      latencies.push(latency);
      if (dueAt >= startedAt + everyMs + measuredMs / 2) secondHalf.push(latency);
      counts.due++;
      if (status === 200) counts.ok++;
      else if (status > 0) counts.other++;
      else counts.errors++;
    }
  } finally {
    agent.destroy();
  }
}

/** The answer's status, or 0 when the request failed. */
function send(agent: Agent, path: string): Promise<number> {
  return new Promise((resolve) => {
    const req = request({ host: url.hostname, port: url.port, path, agent, method: 'GET' }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
      response.on('error', () => resolve(0));
    });
    req.on('error', () => resolve(0));
    req.end();
  });
}

const startedAt = performance.now();
let cpuAtMeasuring = process.cpuUsage();
setTimeout(() => {
  cpuAtMeasuring = process.cpuUsage();
  process.stdout.write('measuring\n');
}, everyMs);
await Promise.all(Array.from({ length: devices }, (_, device) => phone(device, startedAt)));
/** The q-quantile of `values` in ms, one decimal. */
function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! * 10) / 10 : 0;
}
const seconds = (performance.now() - startedAt - everyMs) / 1000;
const cpu = process.cpuUsage(cpuAtMeasuring);
process.stdout.write(`${JSON.stringify({ ...counts, answered: latencies.length, p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99), max: quantile(latencies, 1), seconds,
    firstRound: { p50: quantile(firstRound, 0.5), p99: quantile(firstRound, 0.99) },
    secondHalf: { p50: quantile(secondHalf, 0.5), p99: quantile(secondHalf, 0.99) }, clientCpuSeconds: (cpu.user + cpu.system) / 1e6 })}\n`);
