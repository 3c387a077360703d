/**
 * The client of bench/devices.ts, run as its own process so that it does not share the server's
 * event loop: autocannon with `connections` connections sending single OsmAnd fixes
 * (`GET /?id=…&lat=…&lon=…&timestamp=…&speed=…`) of `devices` devices in turn, for `seconds`
 * seconds. Device d's k-th fix is dated `startS + k * 5` seconds and moves it a little north-east,
 * so each device's fixes are in time order and the pipeline has tracks to build. Prints one JSON
 * line: requests, 2xx, other answers, errors, fixes/s, p50/p99 latency in ms.
 *
 *   tsx bench/devices-client.ts <baseUrl> <devices> <seconds> <connections> <startS> <firstRequest> [amount]
 *
 * With `amount`, exactly that many requests are sent instead of running for `seconds`.
 */
import autocannon from 'autocannon';

const [baseUrl, devices, seconds, connections, startS, firstRequest, amount] = process.argv.slice(2) as [string, string, string, string, string, string, string?];
const deviceCount = Number(devices);
let sent = Number(firstRequest);

const result = await autocannon({
  url: baseUrl,
  connections: Number(connections),
  ...(amount ? { amount: Number(amount) } : { duration: Number(seconds) }),
  requests: [
    {
      method: 'GET',
      setupRequest: (request: { path?: string }) => {
        const n = sent++;
        const device = n % deviceCount;
        const round = Math.floor(n / deviceCount);
        const lat = (55.6 + (device % 100) * 0.003 + round * 0.0003).toFixed(6);
        const lon = (37.4 + Math.floor(device / 100) * 0.004 + round * 0.0003).toFixed(6);
        request.path = `/?id=device-${device}&lat=${lat}&lon=${lon}&timestamp=${Number(startS) + round * 5}&speed=15.0&bearing=45`;
        return request;
      },
    },
  ],
});

process.stdout.write(
  `${JSON.stringify({
    requests: result.requests.total,
    ok: result['2xx'],
    other: result.non2xx,
    errors: result.errors + result.timeouts,
    perSecond: result['2xx'] / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    next: sent,
  })}\n`,
);
