import { useEffect, useRef, useState } from 'preact/hooks';
import { api, describe, query } from '../api';
import { LoadFailure, StatusLine } from '../ui/messages';
import { COLUMNS, DeliveryRow, describeResult, STATUS_LABELS, type Delivery, type DeliveryStatus, type RuleName } from './delivery-row';
import { t, type PlainKey } from '../i18n/i18n';
import { tRich } from '../i18n/rich';
import './deliveries.css';

const DELIVERIES = '/v6/api/eventManagement/deliveries';
const RULES = '/v6/api/eventManagement/events';
const PAGE_SIZE = 50;
const STATUSES: DeliveryStatus[] = ['pending', 'delivered', 'failed'];
/** The API's own default is the last 72 h; longer periods are a choice. */
const PERIODS: { days: number; label: PlainKey }[] = [
  { days: 1, label: 'deliv.last1' },
  { days: 3, label: 'deliv.last3' },
  { days: 7, label: 'deliv.last7' },
  { days: 30, label: 'deliv.last30' },
];
/** How long a resend is watched for its first attempt (a webhook times out after 10 s). */
const OUTCOME_WAIT_MS = 15_000;
const OUTCOME_POLL_MS = 400;

interface Filters {
  status: DeliveryStatus | '';
  eventID: number | '';
  days: number;
}

/** One delivery, read again. */
function reread(delivery: Delivery): Promise<Delivery> {
  return api.get<Delivery>(`${DELIVERIES}/${delivery.deliveryID}`);
}

function outcomeOf(d: Delivery, attemptsBefore: number): string | undefined {
  const latest = d.attempts[d.attempts.length - 1];
  const result = latest ? describeResult(latest.statusCode, latest.error) : '';
  if (d.status === 'delivered') return t('deliv.resentDelivered', { id: d.deliveryID, result: result ? ` (${result})` : '' });
  if (d.status === 'failed') return t('deliv.resentFailed', { id: d.deliveryID, result: result ? ` (${result})` : '' });
  if (d.attempts.length > attemptsBefore) return t('deliv.resentRetry', { id: d.deliveryID, result: result || t('deliv.nothing') });
  return undefined;
}

/** The log of outgoing deliveries (CONTRACT §4): filters, attempts per delivery, resend. */
export function DeliveriesPage() {
  const [filters, setFilters] = useState<Filters>({ status: '', eventID: '', days: 3 });
  const [deliveries, setDeliveries] = useState<Delivery[]>([]);
  const [rules, setRules] = useState<Map<number, string>>(new Map());
  const [hasMore, setHasMore] = useState(false);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState('');
  const [message, setMessage] = useState('');
  const [expanded, setExpanded] = useState<Set<number>>(new Set());
  const [resending, setResending] = useState<Set<number>>(new Set());
  const [outcomes, setOutcomes] = useState<Map<number, string>>(new Map());
  /** Answers to an older load are dropped when the filters changed meanwhile. */
  const loadSeq = useRef(0);
  /** The start of the period of the current list, kept for its next pages. */
  const dateFrom = useRef('');
  const mounted = useRef(true);
  useEffect(() => () => void (mounted.current = false), []);
  /** After More, focus moves to the first new row (the More button may be gone). */
  const focusAfterLoad = useRef<number | null>(null);
  useEffect(() => {
    if (focusAfterLoad.current === null) return;
    document.querySelector<HTMLButtonElement>(`button[aria-controls="delivery-${focusAfterLoad.current}-attempts"]`)?.focus();
    focusAfterLoad.current = null;
  }, [deliveries]);

  /** Whether the last load was of a next page: Retry asks for the same. */
  const lastMore = useRef(false);
  const load = async (more: boolean) => {
    lastMore.current = more;
    const seq = ++loadSeq.current;
    if (!more) dateFrom.current = new Date(Date.now() - filters.days * 86_400_000).toISOString();
    setLoading(true);
    setError('');
    try {
      const last = more ? deliveries[deliveries.length - 1] : undefined;
      const page = await api.get<{ data: Delivery[] }>(
        `${DELIVERIES}${query({
          status: filters.status || undefined,
          eventID: filters.eventID === '' ? undefined : filters.eventID,
          dateFrom: dateFrom.current,
          count: PAGE_SIZE,
          lastDeliveryID: last?.deliveryID,
        })}`,
      );
      if (seq !== loadSeq.current) return;
      if (more && page.data[0]) focusAfterLoad.current = page.data[0].deliveryID;
      setDeliveries(more ? [...deliveries, ...page.data] : page.data);
      setHasMore(page.data.length === PAGE_SIZE);
      if (!more) setOutcomes(new Map());
    } catch (failure) {
      if (seq === loadSeq.current) setError(t('deliv.loadFailed', { reason: describe(failure) }));
    } finally {
      if (seq === loadSeq.current) setLoading(false);
    }
  };

  useEffect(() => {
    void load(false);
  }, [filters]);

  const loadRules = () =>
    api
      .get<RuleName[]>(RULES)
      .then((list) => setRules(new Map(list.map((r) => [r.eventID, r.name]))))
      // Without names the log still shows rule numbers.
      .catch(() => {});
  useEffect(() => void loadRules(), []);
  const [employees, setEmployees] = useState<ReadonlyMap<number, string>>(new Map());
  useEffect(() => {
    api
      .get<{ subscriberID: number; name: string }[]>(`/v6/api/subscriberManagement/subscribers${query({ withCustomTemplateItems: false })}`)
      .then((list) => setEmployees(new Map(list.map((e) => [e.subscriberID, e.name]))))
      // Without names the log still shows employee numbers.
      .catch(() => {});
  }, []);

  const replace = (updated: Delivery) =>
    setDeliveries((list) => list.map((d) => (d.deliveryID === updated.deliveryID ? updated : d)));
  const toggle = (id: number) =>
    setExpanded((open) => {
      const next = new Set(open);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const mark = (id: number, on: boolean) =>
    setResending((set) => {
      const next = new Set(set);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const tell = (id: number, text: string) => {
    setOutcomes((map) => new Map(map).set(id, text));
    setMessage(text);
  };

  /** Queues the delivery again, then watches it until its attempt is recorded. */
  const resend = async (delivery: Delivery) => {
    const id = delivery.deliveryID;
    mark(id, true);
    tell(id, t('deliv.queued', { id }));
    try {
      const queued = await api.post<Delivery>(`${DELIVERIES}/${id}/resend`);
      replace(queued);
      const before = queued.attempts.length;
      const deadline = Date.now() + OUTCOME_WAIT_MS;
      let outcome: string | undefined;
      while (!outcome && Date.now() < deadline && mounted.current) {
        await new Promise((r) => setTimeout(r, OUTCOME_POLL_MS));
        const now = await reread(queued);
        replace(now);
        outcome = outcomeOf(now, before);
      }
      tell(id, outcome ?? t('deliv.noAttempt', { id }));
    } catch (failure) {
      tell(id, t('deliv.notResent', { id, reason: describe(failure) }));
    } finally {
      mark(id, false);
    }
  };

  return (
    <section class="deliveries-page" aria-labelledby="deliveries-title">
      <h1 id="deliveries-title">{t('deliv.title')}</h1>
      <p class="muted">
        {tRich('deliv.intro', { id: <code>webhook-id</code> })}
      </p>
      <div class="toolbar" role="group" aria-label={t('deliv.filters')}>
        <label>
          {t('deliv.status')}
          <select
            value={filters.status}
            onChange={(e) => setFilters({ ...filters, status: e.currentTarget.value as Filters['status'] })}
          >
            <option value="">{t('deliv.all')}</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {t(STATUS_LABELS[s])}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('deliv.rule')}
          <select
            value={String(filters.eventID)}
            onChange={(e) => setFilters({ ...filters, eventID: e.currentTarget.value === '' ? '' : Number(e.currentTarget.value) })}
          >
            <option value="">{t('deliv.allRules')}</option>
            {[...rules].map(([id, name]) => (
              <option key={id} value={String(id)}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('deliv.created')}
          <select value={String(filters.days)} onChange={(e) => setFilters({ ...filters, days: Number(e.currentTarget.value) })}>
            {PERIODS.map((p) => (
              <option key={p.days} value={String(p.days)}>
                {t(p.label)}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          class="secondary"
          onClick={() => {
            void loadRules();
            void load(false);
          }}
        >
          {t('deliv.refresh')}
        </button>
      </div>
      <StatusLine class="deliveries-message" message={loading ? t('deliv.loading') : message} />
      <LoadFailure message={error} onRetry={() => void load(lastMore.current)} />
      <div class="table-scroll">
        <table class="deliveries-table">
          <caption class="sr-only">{t('deliv.caption')}</caption>
          <thead>
            <tr>
              {COLUMNS.map((c) => (
                <th key={c} scope="col">
                  {t(c)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {deliveries.map((d) => (
              <DeliveryRow
                key={d.deliveryID}
                delivery={d}
                rules={rules}
                employees={employees}
                expanded={expanded.has(d.deliveryID)}
                onToggle={() => toggle(d.deliveryID)}
                resending={resending.has(d.deliveryID)}
                resentHere={outcomes.has(d.deliveryID)}
                onResend={() => void resend(d)}
                outcome={outcomes.get(d.deliveryID)}
              />
            ))}
          </tbody>
        </table>
      </div>
      {!loading && !error && deliveries.length === 0 && <p class="muted">{t('deliv.none')}</p>}
      {hasMore && (
        <button
          type="button"
          class="secondary deliveries-more"
          aria-disabled={loading ? 'true' : undefined}
          onClick={() => {
            if (!loading) void load(true);
          }}
        >
          {t('deliv.more')}
        </button>
      )}
    </section>
  );
}
