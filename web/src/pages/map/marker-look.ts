import L from 'leaflet';
import type { Employee, Location } from '../../types';
import { formatAge, formatFullDateTime, formatSpeed } from '../../i18n/format';
import { t } from '../../i18n/i18n';
import { fixTime } from './fix-format';
import { FLEET_STATES, STATE_LABEL, type FleetState } from './fleet-state';

/** What one employee's marker is drawn from. */
export interface MarkerLook {
  employee: Employee;
  position: Location;
  state: FleetState;
  selected: boolean;
}

/** The dot's size; the marker's point is its centre, and the name's label starts to its right. */
const DOT_PX = 18;

/**
 * An employee's marker: a dot in the state's colour with an arrow for the course while moving,
 * and a label with the name. It is drawn from what is held when Leaflet asks for the element
 * (again each time the marker leaves a cluster), so a marker that changes while hidden in a
 * cluster needs no drawing until it shows.
 */
export class EmployeeIcon extends L.DivIcon {
  constructor(private readonly look: () => MarkerLook) {
    super({ className: 'employee-marker', iconSize: [DOT_PX, DOT_PX], iconAnchor: [DOT_PX / 2, DOT_PX / 2], tooltipAnchor: [DOT_PX / 2, 0] });
  }

  override createIcon(oldIcon?: HTMLElement): HTMLElement {
    const element = super.createIcon(oldIcon);
    paintMarker(element, this.look());
    return element;
  }
}

/** Brings a marker's element to its look: colour, course, name and selection. */
export function paintMarker(element: HTMLElement, { employee, position, state, selected }: MarkerLook): void {
  let label = element.querySelector<HTMLElement>('.employee-label');
  let arrow = element.querySelector<HTMLElement>('.course');
  if (!label || !arrow) {
    element.textContent = '';
    arrow = document.createElement('span');
    arrow.className = 'course';
    arrow.setAttribute('aria-hidden', 'true');
    label = document.createElement('span');
    label.className = 'employee-label';
    label.translate = false;
    element.append(arrow, label);
  }
  if (label.textContent !== employee.name) label.textContent = employee.name;
  element.dataset.subscriberId = String(employee.subscriberID);
  element.dataset.state = state;
  for (const each of FLEET_STATES) element.classList.toggle(`state-${each}`, each === state);
  element.classList.toggle('is-selected', selected);
  // The course (interface 2.1 `angle`, degrees clockwise from north) only says something while moving.
  arrow.hidden = state !== 'moving';
  arrow.style.transform = `rotate(${position.angle}deg)`;
}

/**
 * A cluster's icon: how many employees it holds, in a ring whose arcs are the shares of each
 * state, so a cluster with someone moving or gone offline shows it before it is opened.
 */
export function clusterIcon(looks: readonly MarkerLook[]): L.DivIcon {
  const counts = new Map<FleetState, number>();
  for (const look of looks) counts.set(look.state, (counts.get(look.state) ?? 0) + 1);
  let from = 0;
  const arcs = FLEET_STATES.filter((state) => counts.has(state)).map((state) => {
    const to = from + (counts.get(state)! / looks.length) * 100;
    const arc = `var(--state-${state}) ${from.toFixed(2)}% ${to.toFixed(2)}%`;
    from = to;
    return arc;
  });
  const size = looks.length < 10 ? 34 : looks.length < 100 ? 40 : 46;
  const box = document.createElement('span');
  box.className = 'cluster-ring';
  box.style.background = `conic-gradient(${arcs.join(', ')})`;
  const count = document.createElement('span');
  count.className = 'cluster-count';
  count.textContent = String(looks.length);
  count.setAttribute('aria-hidden', 'true');
  // The name a screen reader gives the cluster's button: how many and in which states.
  const said = document.createElement('span');
  said.className = 'visually-hidden';
  said.textContent = `${t('map.count', { count: looks.length })}: ${FLEET_STATES.filter((state) => counts.has(state))
    .map((state) => `${t(STATE_LABEL[state])} ${counts.get(state)}`)
    .join(', ')}`;
  box.append(count, said);
  return L.divIcon({ className: 'employee-cluster', html: box, iconSize: [size, size] });
}

/** A marker's tooltip: the name, the state, the fix's time in the account's zone and its age, and the speed. */
export function employeeTooltip({ employee, position, state }: MarkerLook, timeZone: string): HTMLElement {
  const box = document.createElement('div');
  box.className = 'employee-tooltip';
  const name = document.createElement('strong');
  name.textContent = employee.name;
  name.translate = false;
  const how = document.createElement('span');
  how.textContent = t(STATE_LABEL[state]);
  const when = document.createElement('span');
  when.textContent = `${fixTime(position.locationDate, timeZone)} · ${formatAge(position.locationDate, timeZone)}`;
  when.title = formatFullDateTime(position.locationDate, timeZone);
  const speed = document.createElement('span');
  speed.textContent = formatSpeed(position.velocity);
  box.append(name, how, when, speed);
  return box;
}
