import type L from 'leaflet';
import type { Employee, Location } from '../../types';
import { EmployeeMarkers, type EmployeeLayer } from './employee-markers';
import { FleetCanvas } from './fleet-canvas';

/**
 * More employees with a position than this and they are drawn on a canvas: a DOM marker each
 * (focusable, with initials) is the better map for a small fleet, but 2,000 of them moving every
 * few seconds keep the browser busy for most of each frame (see bench/workspace-map.ts).
 */
export const CANVAS_FROM = 300;

/** The live map's employees: DOM markers for a small fleet, one canvas for a big one, switched as the fleet grows or shrinks. */
export class FleetLayer implements EmployeeLayer {
  private current: EmployeeLayer;
  private canvas = false;
  private selected: number | null = null;

  constructor(
    private readonly map: L.Map,
    private readonly timeZone: string,
    private readonly onSelect: (subscriberID: number) => void,
  ) {
    this.current = new EmployeeMarkers(map, timeZone, onSelect);
  }

  show(employees: ReadonlyMap<number, Employee>, positions: ReadonlyMap<number, Location>): void {
    const big = positions.size > CANVAS_FROM;
    if (big !== this.canvas) {
      this.current.remove();
      this.current = big ? new FleetCanvas(this.map, this.timeZone, this.onSelect) : new EmployeeMarkers(this.map, this.timeZone, this.onSelect);
      this.canvas = big;
    }
    this.current.show(employees, positions);
    this.current.mark(this.selected);
  }

  bounds(): L.LatLngBounds {
    return this.current.bounds();
  }

  focus(subscriberID: number): void {
    this.selected = subscriberID;
    this.current.focus(subscriberID);
  }

  mark(subscriberID: number | null): void {
    this.selected = subscriberID;
    this.current.mark(subscriberID);
  }

  remove(): void {
    this.current.remove();
  }
}
