import { EventType, type PipelineSink, type Point } from './pipeline-types.js';

export interface SensorLimit {
  sensorID: number;
  min: number | null;
  max: number | null;
}

export interface SensorDetectorState {
  /** Sensors currently outside their limits. */
  outside: number[];
}

/** Sensor value violation (3) of CONTRACT §2: one event per excursion outside the sensor's limits, with the reading that left them. */
export class SensorDetector {
  private readonly limits: Map<number, SensorLimit>;

  constructor(
    readonly state: SensorDetectorState,
    limits: SensorLimit[],
  ) {
    this.limits = new Map(limits.map((l) => [l.sensorID, l]));
  }

  static initialState(): SensorDetectorState {
    return { outside: [] };
  }

  step(point: Point, readings: { sensorID: number; value: number }[], sink: PipelineSink): void {
    if (this.limits.size === 0) return;
    for (const { sensorID, value } of readings) {
      const limit = this.limits.get(sensorID);
      if (!limit) continue;
      const outside = (limit.min !== null && value < limit.min) || (limit.max !== null && value > limit.max);
      const wasOutside = this.state.outside.includes(sensorID);
      if (outside && !wasOutside) {
        this.state.outside.push(sensorID);
        sink.event({ type: EventType.sensorViolation, eventMs: point.t, detail: sensorID, latitude: point.lat, longitude: point.lon, value });
      } else if (!outside && wasOutside) {
        this.state.outside = this.state.outside.filter((id) => id !== sensorID);
      }
    }
  }
}
