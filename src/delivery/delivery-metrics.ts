import { Counter, Histogram, type Registry } from 'prom-client';

export interface DeliveryMetrics {
  /** Attempts by channel and outcome: delivered, retry (failed, will try again) or failed (for good). */
  attempts: Counter<'channel' | 'outcome'>;
  attemptDuration: Histogram<'channel'>;
  /** From the outbox write to the first attempt: how quickly new events leave. */
  firstAttemptDelay: Histogram<'channel'>;
}

/** The delivery worker's series on the server's /metrics registry. */
export function createDeliveryMetrics(registry: Registry): DeliveryMetrics {
  return {
    attempts: new Counter({
      name: 'lokator_delivery_attempts_total',
      help: 'Delivery attempts by channel and outcome (delivered, retry, failed)',
      labelNames: ['channel', 'outcome'],
      registers: [registry],
    }),
    attemptDuration: new Histogram({
      name: 'lokator_delivery_attempt_duration_seconds',
      help: 'Duration of one delivery attempt, by channel',
      labelNames: ['channel'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    firstAttemptDelay: new Histogram({
      name: 'lokator_delivery_first_attempt_delay_seconds',
      help: 'Time from writing a delivery to the outbox to its first attempt, by channel',
      labelNames: ['channel'],
      buckets: [0.01, 0.025, 0.05, 0.1, 0.2, 0.5, 1, 2.5, 10, 60],
      registers: [registry],
    }),
  };
}
