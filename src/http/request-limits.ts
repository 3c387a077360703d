import type { FastifyReply } from 'fastify';
import { createServer, type RequestListener, type Server, type ServerOptions } from 'node:http';
import { ApiError } from './errors.js';

/**
 * How long one request may take to arrive and how many of them one credential holder may have
 * open. Without a deadline a client that sends a large Content-Length and holds back the last
 * bytes keeps its buffered body in memory for ever; without a cap one token holder can open as
 * many such requests as they like.
 */
export interface RequestLimits {
  /** REQUEST_TIMEOUT: the whole request (headers and body) must have arrived within this. */
  requestTimeoutMs: number;
  /** MAX_REQUESTS_IN_FLIGHT: requests one user (token or session) may have open at once. */
  maxInFlightPerUser: number;
}

export const defaultRequestLimits: RequestLimits = { requestTimeoutMs: 30_000, maxInFlightPerUser: 16 };

/** Node's request deadline is checked on an interval: keep it well below the deadline. */
const checkIntervalMs = (requestTimeoutMs: number) => Math.max(50, Math.min(1_000, Math.floor(requestTimeoutMs / 4)));

/**
 * Fastify's `serverFactory`: an HTTP server that cuts a request whose headers and body have not
 * all arrived within the deadline (a 408 through the client-error handler, then the socket is
 * closed and the buffered body freed).
 */
export function serverWithDeadline(requestTimeoutMs: number) {
  return (handler: RequestListener): Server => createServer(deadlineOptions(requestTimeoutMs), handler);
}

/** `node:http` server options for that deadline (a 408 comes through the client-error handler). */
export function deadlineOptions(requestTimeoutMs: number): ServerOptions {
  return {
    requestTimeout: requestTimeoutMs,
    headersTimeout: Math.min(60_000, requestTimeoutMs),
    connectionsCheckingInterval: checkIntervalMs(requestTimeoutMs),
  };
}

/**
 * Counts each user's requests in flight. A request over the cap is refused before its body is
 * read (429 code 1012 with Retry-After); a request leaves the count when its response closes,
 * whether it finished or the client went away.
 */
export class InFlightLimiter {
  private readonly counts = new Map<string, number>();

  constructor(private readonly max: number) {}

  enter(holder: string, reply: FastifyReply): void {
    const count = this.counts.get(holder) ?? 0;
    if (count >= this.max) {
      throw new ApiError('RATE_LIMITED', `at most ${this.max} requests may be in flight at once for one user; wait for an answer first`, undefined, {
        'retry-after': '1',
      });
    }
    this.counts.set(holder, count + 1);
    reply.raw.once('close', () => {
      const left = (this.counts.get(holder) ?? 1) - 1;
      if (left > 0) this.counts.set(holder, left);
      else this.counts.delete(holder);
    });
  }

  /** Requests in flight for this holder (for tests and metrics). */
  inFlight(holder: string): number {
    return this.counts.get(holder) ?? 0;
  }
}
