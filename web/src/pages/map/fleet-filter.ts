// Extensions in the imports: the unit tests run this file in Node too.
import { matchesWords, searchWords } from '../../../../src/http/free-text.js';
import type { FleetState } from './fleet-state.js';

/** What the filters read of an employee (interface 2.9). */
export interface FleetMember {
  subscriberID: number;
  name: string;
  subscriberGroupID: number | null;
}

/** What the list beside the map narrows the fleet to; the map shows the same employees. */
export interface FleetFilter {
  /** Words of the name, in any order and case. */
  text: string;
  /** A subscriberGroupID as text; '' every group. */
  groupID: string;
  /** '' every state. */
  state: FleetState | '';
}

export const EVERYONE: FleetFilter = { text: '', groupID: '', state: '' };

export function isFiltered(filter: FleetFilter): boolean {
  return filter.text.trim() !== '' || filter.groupID !== '' || filter.state !== '';
}

/** The employees (in the order given) that the filter leaves. */
export function filterFleet<E extends FleetMember>(employees: readonly E[], states: ReadonlyMap<number, FleetState>, filter: FleetFilter): readonly E[] {
  if (!isFiltered(filter)) return employees;
  const words = searchWords(filter.text);
  return employees.filter(
    (employee) =>
      (filter.groupID === '' || String(employee.subscriberGroupID) === filter.groupID) &&
      (filter.state === '' || states.get(employee.subscriberID) === filter.state) &&
      (words.length === 0 || matchesWords(employee.name, words)),
  );
}
