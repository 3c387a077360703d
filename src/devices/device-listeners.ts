import type { Logger } from 'pino';
import type { IngestPort } from '../positioning/positioning.js';
import { buildHttpListener, type HttpListener } from './http-listener.js';
import { httpProtocols, tcpProtocols, type DeviceProtocol } from './protocols.js';
import { startTrackerThread, type TrackerListeners } from './tracker-listeners.js';
import type { DeviceDirectory } from './tracker-server.js';

export interface DeviceListenerOptions {
  /** Each protocol's port (`devicePorts` of the configuration); 0 leaves its listener off. */
  ports: Record<DeviceProtocol, number>;
  host: string;
  /** TRACKER_IDLE_TIMEOUT: a TCP connection that sends nothing for this long is closed. */
  idleTimeoutMs: number;
  /** REQUEST_TIMEOUT: an HTTP request must have arrived whole within this. */
  requestTimeoutMs: number;
  directory: DeviceDirectory;
  ingest: IngestPort;
  logger: Logger;
}

export interface DeviceListeners {
  /** The port each protocol listens on (those switched off are absent). */
  readonly ports: Partial<Record<DeviceProtocol, number>>;
  /** Stops taking fixes; resolves once every one handed over is stored or refused, and answered. */
  close(): Promise<void>;
}

/**
 * The listeners `npm start` runs, one per protocol of protocols.ts whose port is not 0: each HTTP
 * protocol on a thread of its own (http-listener.ts), every TCP protocol on one thread
 * (tracker-listeners.ts). Every fix goes through the one ingest port.
 */
export async function startDeviceListeners(options: DeviceListenerOptions): Promise<DeviceListeners> {
  const { ports: wanted, host, ingest, logger } = options;
  const ports: Partial<Record<DeviceProtocol, number>> = {};
  const http: HttpListener[] = [];
  let tcp: TrackerListeners | null = null;
  const close = async () => {
    // The TCP listeners first, as before any HTTP one: a tracker's buffer is the larger backlog.
    await tcp?.close();
    for (const listener of http) await listener.close();
  };
  try {
    for (const protocol of httpProtocols.filter(({ name }) => wanted[name] !== 0)) {
      const listener = buildHttpListener({ protocol, ingest, logger: logger.child({ listener: protocol.name }), requestTimeoutMs: options.requestTimeoutMs });
      http.push(listener);
      ports[protocol.name] = (await listener.listen({ port: wanted[protocol.name], host })).port;
    }
    const listeners = tcpProtocols.filter(({ name }) => wanted[name] !== 0).map(({ name }) => ({ protocol: name, port: wanted[name] }));
    if (listeners.length > 0) {
      tcp = await startTrackerThread({ listeners, host, idleTimeoutMs: options.idleTimeoutMs, directory: options.directory, ingest, logger: logger.child({ listener: 'trackers' }) });
      Object.assign(ports, tcp.ports);
    }
  } catch (error) {
    await close();
    throw error;
  }
  return { ports, close };
}
