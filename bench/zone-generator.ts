/**
 * Deterministic zones and points for the zone benchmark: blob-shaped (mostly concave) rings with
 * 20 to 2,000 vertices, spread and overlapping over a region, and fixes scattered over it.
 */
import { random } from './common.js';

export type Ring = [number, number][];

export interface BenchZone {
  zoneID: number;
  ring: Ring;
}

export interface Area {
  minLon: number;
  maxLon: number;
  minLat: number;
  maxLat: number;
}

/** A region the size of Europe: 60° of longitude by 30° of latitude. */
export const AREA: Area = { minLon: 0, maxLon: 60, minLat: 30, maxLat: 60 };

/** Coordinates as clients send them: 6 decimals, about 0.1 m. */
const round6 = (value: number) => Math.round(value * 1e6) / 1e6;
const logUniform = (rand: () => number, min: number, max: number) => Math.exp(Math.log(min) + rand() * (Math.log(max) - Math.log(min)));

/**
 * `count` zones. Vertex counts and radii are log-uniform (20-2,000 vertices, mean about 430;
 * radius 0.02°-1°, from a site to a province), as real geofences are: many small, a few large.
 * The outline is a circle whose radius wobbles with a few random harmonics (large bays and
 * capes: most rings are concave), plus per-vertex jitter of the order of the spacing between
 * vertices, which makes the outline about 1.4 times as long as the smooth curve, as crinkled as
 * real borders. (Jitter of a fixed share of the radius would make rings of 2,000 vertices hairy,
 * with outlines tens of times longer than their circle: nothing a real zone looks like.)
 */
export function generateZones(count: number, area: Area = AREA, seed = 20260520): BenchZone[] {
  const rand = random(seed);
  const zones: BenchZone[] = [];
  for (let zoneID = 1; zoneID <= count; zoneID++) {
    const vertices = Math.round(logUniform(rand, 20, 2000));
    const radius = logUniform(rand, 0.02, 1);
    const lat = area.minLat + rand() * (area.maxLat - area.minLat);
    const lon = area.minLon + rand() * (area.maxLon - area.minLon);
    const lonScale = 1 / Math.cos((lat * Math.PI) / 180);
    const harmonics = Array.from({ length: 4 }, (_, k) => ({ order: k + 2, amplitude: rand() * 0.15, phase: rand() * 2 * Math.PI }));
    const ring: Ring = [];
    for (let i = 0; i < vertices; i++) {
      const angle = (2 * Math.PI * i) / vertices;
      let r = 1 + (rand() - 0.5) * ((4 * Math.PI) / vertices);
      for (const h of harmonics) r += h.amplitude * Math.sin(h.order * angle + h.phase);
      ring.push([round6(lon + radius * r * Math.cos(angle) * lonScale), round6(lat + radius * r * Math.sin(angle))]);
    }
    zones.push({ zoneID, ring });
  }
  return zones;
}

/** Fixes scattered uniformly over the area (most inside one zone or more, some in none). */
export function generatePoints(count: number, area: Area = AREA, seed = 7): { latitude: number; longitude: number }[] {
  const rand = random(seed);
  return Array.from({ length: count }, () => ({
    latitude: round6(area.minLat + rand() * (area.maxLat - area.minLat)),
    longitude: round6(area.minLon + rand() * (area.maxLon - area.minLon)),
  }));
}

/**
 * Fixes as the pipeline sees them: `vehicles` vehicles, each driving at 30-90 km/h with a fix
 * every 10 s along a gently turning track, listed vehicle by vehicle in time order.
 */
export function generateTracks(vehicles: number, fixesPerVehicle: number, area: Area = AREA, seed = 11): { latitude: number; longitude: number }[] {
  const rand = random(seed);
  const fixes: { latitude: number; longitude: number }[] = [];
  for (let v = 0; v < vehicles; v++) {
    let lat = area.minLat + rand() * (area.maxLat - area.minLat);
    let lon = area.minLon + rand() * (area.maxLon - area.minLon);
    let heading = rand() * 2 * Math.PI;
    const stepKm = ((30 + rand() * 60) * 10) / 3600;
    for (let i = 0; i < fixesPerVehicle; i++) {
      heading += (rand() - 0.5) * 0.5;
      lat += (stepKm * Math.cos(heading)) / 111.32;
      lon += (stepKm * Math.sin(heading)) / (111.32 * Math.cos((lat * Math.PI) / 180));
      fixes.push({ latitude: round6(lat), longitude: round6(lon) });
    }
  }
  return fixes;
}
