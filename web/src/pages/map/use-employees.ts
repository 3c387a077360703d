import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { api, describe, query } from '../../api';
import type { Employee } from '../../types';
import { t } from '../../i18n/i18n';

/** Online states change without a position; the list is read again this often. */
const REFRESH_MS = 30_000;

export interface Employees {
  /** By subscriberID; null until the first answer. */
  byId: ReadonlyMap<number, Employee> | null;
  error: string | null;
  /** Reads the list again (at most one request at a time). */
  refresh: () => void;
}

export function useEmployees(): Employees {
  const [byId, setById] = useState<ReadonlyMap<number, Employee> | null>(null);
  const [error, setError] = useState<string | null>(null);
  const inFlight = useRef(false);
  const mounted = useRef(true);

  const refresh = useCallback(() => {
    if (inFlight.current) return;
    inFlight.current = true;
    api
      .get<Employee[]>(`/v6/api/subscriberManagement/subscribers${query({ withCustomTemplateItems: false })}`)
      .then((list) => {
        if (!mounted.current) return;
        setById(new Map(list.map((employee) => [employee.subscriberID, employee])));
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

  return { byId, error, refresh };
}
