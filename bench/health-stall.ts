/**
 * How long other requests wait while something runs on the server: `/health` asked over real HTTP
 * again and again, one after another, each answer timed, with the resident memory sampled every
 * 10 ms and the event loop's delay recorded. The server runs in this process, so a stall of its
 * thread delays the loop's requests by as much; their longest wait is the longest stall.
 */
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';

export interface StallFigures {
  durationMs: number;
  requests: number;
  /** The longest time a `/health` took, start to answer. */
  longestMs: number;
  p99Ms: number;
  /** The event loop's longest delay (perf_hooks, 10 ms resolution). */
  loopDelayMaxMs: number;
  /** The highest resident set size during the run, less the one at its start. */
  rssGrowthMiB: number;
  /** What `work` answered (bytes of a download), 0 without work. */
  size: number;
}

const MIB = 1024 * 1024;

/** `/health` in a loop while `work` runs, or for `aloneMs` without it (the reference). */
export async function healthDuring(baseUrl: string, work: (() => Promise<number>) | null, aloneMs = 0): Promise<StallFigures> {
  (globalThis as { gc?: () => void }).gc?.();
  const baseline = process.memoryUsage.rss();
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 10);
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const started = performance.now();
  let done = false;
  let size = 0;
  const running = work
    ? work().then((n) => {
        size = n;
        done = true;
      })
    : new Promise<void>((resolve) =>
        setTimeout(() => {
          done = true;
          resolve();
        }, aloneMs),
      );
  const waits: number[] = [];
  try {
    while (!done) {
      const asked = performance.now();
      const response = await fetch(`${baseUrl}/health`);
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`/health answered ${response.status}`);
      waits.push(performance.now() - asked);
    }
    await running;
  } finally {
    clearInterval(sampler);
    delay.disable();
  }
  peak = Math.max(peak, process.memoryUsage.rss());
  const sorted = [...waits].sort((a, b) => a - b);
  return {
    durationMs: performance.now() - started,
    requests: waits.length,
    longestMs: sorted.at(-1) ?? 0,
    p99Ms: sorted[Math.min(sorted.length - 1, Math.ceil(0.99 * sorted.length) - 1)] ?? 0,
    loopDelayMaxMs: delay.max / 1e6,
    rssGrowthMiB: (peak - baseline) / MIB,
    size,
  };
}

/** A download over real HTTP, read as it comes and thrown away: its size in bytes. */
export async function download(url: string, headers: Record<string, string>): Promise<number> {
  const response = await fetch(url, { headers });
  if (response.status !== 200 || !response.body) throw new Error(`GET ${url}: ${response.status} ${await response.text()}`);
  let bytes = 0;
  for await (const chunk of response.body) bytes += (chunk as Uint8Array).byteLength;
  return bytes;
}
