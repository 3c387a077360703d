import { connect } from 'node:net';
import type { Services } from '../../src/app.js';
import { buildHttpListener, type HttpListener as Listener, type HttpListenerOptions } from '../../src/devices/http-listener.js';
import { osmandProtocol } from '../../src/devices/osmand/osmand-protocol.js';

/** What Traccar Client (Android <= 8, iOS) and OsmAnd put after `id=…`: speed in knots. */
export const CLASSIC_QUERY =
  'timestamp=1716200000&lat=55.7558&lon=37.6173&speed=10.0&bearing=90.0&altitude=150.0&accuracy=5.0&batt=87.0&charge=false';

/** The body Traccar Client 9+ posts (the background-geolocation format): speed in m/s. A fresh copy each call, to change at will. */
export function traccarClient9Payload(deviceKey: string): Record<string, any> {
  return {
    location: {
      timestamp: '2024-05-20T10:00:00.000Z',
      coords: { latitude: 55.7558, longitude: 37.6173, accuracy: 5, speed: 2.5, heading: 90, altitude: 150 },
      is_moving: true,
      odometer: 1234.5,
      event: 'motionchange',
      battery: { level: 0.87, is_charging: false },
      activity: { type: 'in_vehicle' },
      extras: {},
    },
    device_id: deviceKey,
  };
}

export interface OsmAndResponse {
  status: number;
  text: string;
  /** The parsed JSON error envelope, or null when the answer is not JSON. */
  body: any;
}

/** The OsmAnd listener on loopback, and ways to talk to it as phones and trackers do. */
export interface OsmAndListener {
  app: Listener;
  host: string;
  port: number;
  baseUrl: string;
  /** A request through fetch; `body` is sent as is, with `contentType` when given. */
  send(method: 'GET' | 'POST', path: string, body?: string, contentType?: string): Promise<OsmAndResponse>;
  /** Exactly these bytes on a fresh connection (`{host}` is replaced by host:port); reads one response. */
  raw(request: string): Promise<OsmAndResponse>;
  close(): Promise<void>;
}

export async function startOsmAnd(
  services: Services,
  clock?: () => number,
  options: Partial<Pick<HttpListenerOptions, 'logger' | 'keyGuessLimits' | 'requestTimeoutMs'>> & { port?: number } = {},
): Promise<OsmAndListener> {
  const { port: wanted = 0, ...osmand } = options;
  const app = buildHttpListener({
    protocol: osmandProtocol,
    ingest: services.positioning.ingest,
    ...(clock ? { clock } : {}),
    ...osmand,
  });
  const { port } = await app.listen({ port: wanted, host: '127.0.0.1' });
  const host = '127.0.0.1';
  const baseUrl = `http://${host}:${port}`;
  return {
    app,
    host,
    port,
    baseUrl,
    async send(method, path, body, contentType) {
      const headers: Record<string, string> = {};
      if (contentType) headers['content-type'] = contentType;
      const init: RequestInit = { method, headers };
      if (body !== undefined) init.body = body;
      const response = await fetch(`${baseUrl}${path}`, init);
      const text = await response.text();
      return { status: response.status, text, body: parseJson(response.headers.get('content-type'), text) };
    },
    raw(request) {
      return rawRequest(host, port, request.replaceAll('{host}', `${host}:${port}`));
    },
    async close() {
      await app.close();
    },
  };
}

function parseJson(contentType: string | null, text: string): unknown {
  return (contentType ?? '').includes('json') && text !== '' ? JSON.parse(text) : null;
}

/** Writes the bytes, reads one response framed by Content-Length (the listener always sends it). */
function rawRequest(host: string, port: number, request: string): Promise<OsmAndResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port });
    let received = Buffer.alloc(0);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete response; received so far: ${received.toString('latin1')}`));
    }, 5000);
    const finish = (result: OsmAndResponse) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const headEnd = received.indexOf('\r\n\r\n');
      if (headEnd < 0) return;
      const head = received.subarray(0, headEnd).toString('latin1');
      const [statusLine = '', ...headerLines] = head.split('\r\n');
      const status = Number(statusLine.split(' ')[1]);
      const header = (name: string) =>
        headerLines.find((line) => line.toLowerCase().startsWith(`${name}:`))?.slice(name.length + 1).trim() ?? null;
      const length = Number(header('content-length') ?? 0);
      const bodyBytes = received.subarray(headEnd + 4);
      if (bodyBytes.length < length) return;
      const text = bodyBytes.subarray(0, length).toString('utf8');
      finish({ status, text, body: parseJson(header('content-type'), text) });
    });
    socket.on('end', () => {
      clearTimeout(timer);
      reject(new Error(`connection closed before a complete response: ${received.toString('latin1')}`));
    });
    socket.write(request);
  });
}
