import { egtsProtocol } from './egts-protocol.js';
import { teltonikaProtocol } from './teltonika-protocol.js';
import { startTrackerServer, type KeyGuessGate, type TrackerLogger, type TrackerServer, type TrackerSink } from './tracker-server.js';
import type { TrackerProtocol } from './tracker-protocol.js';
import { wialonProtocol } from './wialon-protocol.js';

export interface TrackerPorts {
  /** EGTS_PORT, WIALON_IPS_PORT, TELTONIKA_PORT; 0 leaves that listener off. */
  egts: number;
  wialon: number;
  teltonika: number;
}

/** The tracker listeners `npm start` runs, one protocol per port. */
export async function startTrackerListeners(options: {
  ports: TrackerPorts;
  host: string;
  idleTimeoutMs: number;
  sink: TrackerSink;
  logger: TrackerLogger;
  /** One throttle for the three ports: a guesser cannot try 20 keys on each. */
  keyGuesses?: KeyGuessGate;
}): Promise<TrackerServer[]> {
  const wanted: [TrackerProtocol, number][] = [
    [egtsProtocol, options.ports.egts],
    [wialonProtocol, options.ports.wialon],
    [teltonikaProtocol, options.ports.teltonika],
  ];
  const started: TrackerServer[] = [];
  try {
    for (const [protocol, port] of wanted) {
      if (port === 0) continue;
      started.push(await startTrackerServer({ protocol, port, host: options.host, idleTimeoutMs: options.idleTimeoutMs, sink: options.sink, logger: options.logger, keyGuesses: options.keyGuesses }));
    }
  } catch (error) {
    await Promise.all(started.map((server) => server.close()));
    throw error;
  }
  return started;
}
