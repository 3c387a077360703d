import { useEffect, useRef, useState } from 'preact/hooks';
import { api, describe, query } from '../../api';
import { RULE_KINDS } from '../../generated/kinds';
import { formatDateTime } from '../../i18n/format';
import { language, t, type PlainKey } from '../../i18n/i18n';
import { useSessionInfo } from '../../session';
import type { Alert, Employee, SubscriberGroup } from '../../types';
import { LoadFailure, StatusLine } from '../../ui/messages';
import { handledText, kindLabel, mapLink } from './alert-item';
import { alertsCsv } from './alerts-csv';
import { ALERTS, useAlertsContext } from './use-alerts';
import './alerts.css';

const PAGE_SIZE = 50;
const EXPORT_PAGE = 1000;
/** An export stops here: a file larger than this is not read by anyone. */
const EXPORT_MAX = 50_000;
const PERIODS: { days: number; label: PlainKey }[] = [
  { days: 1, label: 'alerts.last1' },
  { days: 3, label: 'alerts.last3' },
  { days: 7, label: 'alerts.last7' },
  { days: 30, label: 'alerts.last30' },
];

interface Filters {
  kind: string;
  subscriberID: number | '';
  groupID: number | '';
  days: number;
  state: '' | 'open' | 'handled';
}

/** The Alerts tab: every alert with filters, more on request, and a CSV export of what the filters select. */
export function AlertsPage() {
  const { account } = useSessionInfo();
  const live = useAlertsContext();
  const [filters, setFilters] = useState<Filters>({ kind: '', subscriberID: '', groupID: '', days: 1, state: '' });
  const [alerts, setAlerts] = useState<Alert[]>([]);
  const [employees, setEmployees] = useState<Employee[]>([]);
  const [groups, setGroups] = useState<SubscriberGroup[]>([]);
  const [hasMore, setHasMore] = useState(false);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState('');
  const [message, setMessage] = useState('');
  const seq = useRef(0);
  const dateFrom = useRef('');

  useEffect(() => {
    Promise.all([api.get<Employee[]>(`/v6/api/subscriberManagement/subscribers${query({ withCustomTemplateItems: false })}`), api.get<SubscriberGroup[]>('/v6/api/subscriberManagement/subscriberGroups')])
      .then(([list, groupList]) => {
        setEmployees([...list].sort((a, b) => a.name.localeCompare(b.name)));
        setGroups([...groupList].sort((a, b) => a.name.localeCompare(b.name)));
      })
      .catch(() => {});
  }, []);

  const params = (lastAlertID: number | undefined, count: number) =>
    query({
      kind: filters.kind || undefined,
      subscriberIDs: filters.subscriberID === '' ? undefined : [filters.subscriberID],
      subscriberGroupIDs: filters.groupID === '' ? undefined : [filters.groupID],
      dateFrom: dateFrom.current,
      handled: filters.state === '' ? undefined : filters.state === 'handled',
      lang: language(),
      count,
      lastAlertID,
    });

  const load = async (more: boolean) => {
    const mine = ++seq.current;
    if (!more) dateFrom.current = new Date(Date.now() - filters.days * 86_400_000).toISOString();
    setLoading(true);
    setError('');
    try {
      const last = more ? alerts[alerts.length - 1] : undefined;
      const page = await api.get<{ data: Alert[] }>(`${ALERTS}${params(last?.alertID, PAGE_SIZE)}`);
      if (mine !== seq.current) return;
      const next = more ? [...alerts, ...page.data] : page.data;
      setAlerts(next);
      setHasMore(page.data.length === PAGE_SIZE);
      setMessage(t('alerts.shown', { count: next.length }));
    } catch (failure) {
      if (mine === seq.current) setError(t('alerts.loadFailed', { reason: describe(failure) }));
    } finally {
      if (mine === seq.current) setLoading(false);
    }
  };

  useEffect(() => void load(false), [filters]);
  // A new alert or one handled elsewhere (the live stream's count) shows here too.
  useEffect(() => {
    if (live.unhandled !== null && !loading) void load(false);
  }, [live.unhandled, live.recent[0]?.alertID]);

  const handle = async (alert: Alert) => {
    try {
      await live.handle(alert);
      const [fresh] = (await api.get<{ data: Alert[] }>(`${ALERTS}${query({ lastAlertID: alert.alertID + 1, count: 1, lang: language() })}`)).data;
      if (fresh?.alertID === alert.alertID) setAlerts((list) => list.map((a) => (a.alertID === fresh.alertID ? fresh : a)));
    } catch (failure) {
      setError(t('alerts.notHandled', { reason: describe(failure) }));
    }
  };

  const exportCsv = async () => {
    setError('');
    try {
      const all: Alert[] = [];
      let last: number | undefined;
      for (;;) {
        const page = (await api.get<{ data: Alert[] }>(`${ALERTS}${params(last, EXPORT_PAGE)}`)).data;
        all.push(...page);
        if (page.length < EXPORT_PAGE || all.length >= EXPORT_MAX) break;
        last = page[page.length - 1]!.alertID;
      }
      const url = URL.createObjectURL(new Blob([alertsCsv(all, account.timeZone)], { type: 'text/csv;charset=utf-8' }));
      const link = document.createElement('a');
      link.href = url;
      link.download = `alerts-${new Date().toISOString().slice(0, 10)}.csv`;
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (failure) {
      setError(t('alerts.exportFailed', { reason: describe(failure) }));
    }
  };

  const set = (change: Partial<Filters>) => setFilters({ ...filters, ...change });
  return (
    <section class="alerts-page" aria-labelledby="alerts-title">
      <h1 id="alerts-title">{t('alerts.title')}</h1>
      <p class="muted">{t('alerts.intro')}</p>
      <fieldset class="alerts-filters">
        <legend>{t('alerts.filters')}</legend>
        <label>
          {t('alerts.kind')}
          <select value={filters.kind} onChange={(e) => set({ kind: e.currentTarget.value })}>
            <option value="">{t('alerts.allKinds')}</option>
            {RULE_KINDS.map((k) => (
              <option key={String(k.kind)} value={String(k.kind)}>
                {t(k.label)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('alerts.employee')}
          <select value={String(filters.subscriberID)} onChange={(e) => set({ subscriberID: e.currentTarget.value ? Number(e.currentTarget.value) : '' })}>
            <option value="">{t('alerts.allEmployees')}</option>
            {employees.map((employee) => (
              <option key={employee.subscriberID} value={employee.subscriberID}>
                {employee.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('alerts.group')}
          <select value={String(filters.groupID)} onChange={(e) => set({ groupID: e.currentTarget.value ? Number(e.currentTarget.value) : '' })}>
            <option value="">{t('alerts.allGroups')}</option>
            {groups.map((group) => (
              <option key={group.subscriberGroupID} value={group.subscriberGroupID}>
                {group.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('alerts.period')}
          <select value={filters.days} onChange={(e) => set({ days: Number(e.currentTarget.value) })}>
            {PERIODS.map((p) => (
              <option key={p.days} value={p.days}>
                {t(p.label)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('alerts.state')}
          <select value={filters.state} onChange={(e) => set({ state: e.currentTarget.value as Filters['state'] })}>
            <option value="">{t('alerts.stateAll')}</option>
            <option value="open">{t('alerts.stateOpen')}</option>
            <option value="handled">{t('alerts.stateHandled')}</option>
          </select>
        </label>
        <button type="button" class="secondary" onClick={() => void exportCsv()}>
          {t('alerts.export')}
        </button>
      </fieldset>
      <LoadFailure message={error} onRetry={() => void load(false)} />
      <StatusLine message={loading ? t('alerts.loading') : message} />
      {!loading && alerts.length === 0 && !error && <p>{t('alerts.empty')}</p>}
      {alerts.length > 0 && (
        <table class="alerts-table">
          <caption class="visually-hidden">{t('alerts.caption')}</caption>
          <thead>
            <tr>
              {(['alerts.colWhen', 'alerts.colEmployee', 'alerts.colWhat', 'alerts.colWhere', 'alerts.colRule', 'alerts.colHandled', 'alerts.colActions'] as const).map((key) => (
                <th key={key} scope="col">
                  {t(key)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {alerts.map((alert) => {
              const link = mapLink(alert);
              const name = alert.subscriberName ?? t('alerts.noEmployee');
              return (
                <tr key={alert.alertID} data-alert-id={alert.alertID}>
                  <td>
                    <time dateTime={alert.occurredAt}>{formatDateTime(alert.occurredAt, account.timeZone, true)}</time>
                  </td>
                  <td>{name}</td>
                  <td>
                    {alert.what}
                    <div class="muted small">{kindLabel(alert.kind)}</div>
                  </td>
                  <td>{alert.where ?? ''}</td>
                  <td>{alert.eventName}</td>
                  <td>{handledText(alert, account.timeZone)}</td>
                  <td class="alert-actions">
                    {link && (
                      <a href={link} aria-label={t('alerts.onMapOf', { name })}>
                        {t('alerts.onMap')}
                      </a>
                    )}
                    {alert.handledAt === null && (
                      <button type="button" class="secondary small" onClick={() => void handle(alert)} aria-label={t('alerts.markHandledOf', { what: alert.what })}>
                        {t('alerts.markHandled')}
                      </button>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {hasMore && (
        <button type="button" class="secondary" disabled={loading} onClick={() => void load(true)}>
          {t('alerts.more')}
        </button>
      )}
    </section>
  );
}
