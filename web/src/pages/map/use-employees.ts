import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { api, describe, query } from '../../api';
import type { Employee, SubscriberGroup } from '../../types';
import { t } from '../../i18n/i18n';

/** Online states change without a position; the list is read again this often. */
const REFRESH_MS = 30_000;

export interface Employees {
  /** By subscriberID; null until the first answer. */
  byId: ReadonlyMap<number, Employee> | null;
  /** The account's employee groups, by name. */
  groups: readonly SubscriberGroup[];
  error: string | null;
  /** Reads the list again (at most one request at a time). */
  refresh: () => void;
}

/** The account's employees and their groups, read again every 30 s; a failure is kept until a read succeeds. */
export function useEmployees(): Employees {
  const [byId, setById] = useState<ReadonlyMap<number, Employee> | null>(null);
  const [groups, setGroups] = useState<readonly SubscriberGroup[]>([]);
  const [error, setError] = useState<string | null>(null);
  const inFlight = useRef(false);
  const mounted = useRef(true);

  const refresh = useCallback(() => {
    if (inFlight.current) return;
    inFlight.current = true;
    Promise.all([
      api.get<Employee[]>(`/v6/api/subscriberManagement/subscribers${query({ withCustomTemplateItems: false })}`),
      api.get<SubscriberGroup[]>('/v6/api/subscriberManagement/subscriberGroups'),
    ])
      .then(([list, groupList]) => {
        if (!mounted.current) return;
        setById(new Map(list.map((employee) => [employee.subscriberID, employee])));
        const sorted = [...groupList].sort((a, b) => a.name.localeCompare(b.name));
        setGroups((held) => (JSON.stringify(held) === JSON.stringify(sorted) ? held : sorted));
        setError(null);
      })
      .catch((failure: unknown) => mounted.current && setError(t('map.employeesFailed', { reason: describe(failure) })))
      .finally(() => (inFlight.current = false));
  }, []);

  useEffect(() => {
    mounted.current = true;
    refresh();
    const timer = setInterval(refresh, REFRESH_MS);
    return () => {
      mounted.current = false;
      clearInterval(timer);
    };
  }, []);

  return { byId, groups, error, refresh };
}
