import type L from 'leaflet';
import type { Employee, Location } from '../../types';
import { formatAge, formatFullDateTime, formatSpeed } from '../../i18n/format';
import { fixTime } from './fix-format';

/** What a layer of the live map holds for one employee: its marker and what it was drawn from. */
export interface Shown<M extends L.Layer> {
  marker: M;
  employee: Employee;
  position: Location;
}

/**
 * Brings a layer's markers to the positions of known employees: the markers of those gone leave
 * the layer, new ones are created, and a marker whose employee or position changed is updated
 * (given what it showed before) after `held` took the new ones.
 */
export function syncShown<M extends L.Layer>(
  shown: Map<number, Shown<M>>,
  layer: L.LayerGroup,
  employees: ReadonlyMap<number, Employee>,
  positions: ReadonlyMap<number, Location>,
  create: (employee: Employee, position: Location) => M,
  update: (held: Shown<M>, before: Employee) => void,
): void {
  for (const [id, { marker }] of shown) {
    if (employees.has(id) && positions.has(id)) continue;
    layer.removeLayer(marker);
    shown.delete(id);
  }
  for (const [id, position] of positions) {
    const employee = employees.get(id);
    if (!employee) continue;
    const held = shown.get(id);
    if (!held) {
      shown.set(id, { marker: create(employee, position), employee, position });
      continue;
    }
    if (held.employee === employee && held.position === position) continue;
    const before = held.employee;
    held.employee = employee;
    held.position = position;
    update(held, before);
  }
}

/** A marker's tooltip: the employee's name, the fix's time in the account's zone and its age, and the speed. */
export function employeeTooltip(employee: Employee, position: Location, timeZone: string): HTMLElement {
  const box = document.createElement('div');
  box.className = 'employee-tooltip';
  const name = document.createElement('strong');
  name.textContent = employee.name;
  const when = document.createElement('span');
  when.textContent = `${fixTime(position.locationDate, timeZone)} · ${formatAge(position.locationDate, timeZone)}`;
  when.title = formatFullDateTime(position.locationDate, timeZone);
  const speed = document.createElement('span');
  speed.textContent = formatSpeed(position.velocity);
  box.append(name, when, speed);
  return box;
}
