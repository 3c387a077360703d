import { useEffect, useRef, useState } from 'preact/hooks';
import { api, describe, query } from '../api';
import { formatDateTime } from '../i18n/format';
import { t, untranslated, type PlainKey } from '../i18n/i18n';
import { tRich } from '../i18n/rich';
import { useSessionInfo } from '../session';
import { ErrorAlert, StatusLine } from '../ui/messages';
import { auditCsv } from './audit-csv';
import './two-factor.css';

const AUDIT = '/v6/api/accountManagement/auditLog';
const PAGE_SIZE = 100;
/** The export pages through the filtered entries at the API's largest page, up to this many. */
const EXPORT_LIMIT = 50_000;

export interface AuditActor {
  kind: 'user' | 'token' | 'system';
  id: number | null;
  name: string | null;
}

export interface AuditEntry {
  auditID: number;
  date: string;
  actor: AuditActor;
  address: string | null;
  kind: string;
  objectID: number | null;
  changes: Record<string, { before: unknown; after: unknown }>;
}

/** The objects the log speaks of, as `kind` prefixes, with their names. */
const OBJECT_LABELS = {
  account: 'audit.kind.account',
  user: 'audit.kind.user',
  token: 'audit.kind.token',
  employee: 'audit.kind.employee',
  subscriberGroup: 'audit.kind.subscriberGroup',
  zone: 'audit.kind.zone',
  zoneGroup: 'audit.kind.zoneGroup',
  mapObject: 'audit.kind.mapObject',
  rule: 'audit.kind.rule',
  task: 'audit.kind.task',
  signingSecret: 'audit.kind.signingSecret',
  session: 'audit.kind.session',
  twoFactor: 'audit.kind.twoFactor',
} as const satisfies Record<string, PlainKey>;
const VERB_LABELS = {
  create: 'audit.verb.create',
  update: 'audit.verb.update',
  delete: 'audit.verb.delete',
  rotate: 'audit.verb.rotate',
  revoke: 'audit.verb.revoke',
  passwordChange: 'audit.verb.passwordChange',
  signIn: 'audit.verb.signIn',
  signInFailed: 'audit.verb.signInFailed',
  enable: 'audit.verb.enable',
  disable: 'audit.verb.disable',
  recoveryCodeUsed: 'audit.verb.recoveryCodeUsed',
} as const satisfies Record<string, PlainKey>;
const OBJECTS = Object.keys(OBJECT_LABELS) as (keyof typeof OBJECT_LABELS)[];

/** What happened, in the reader's words: "Zones: changed"; a kind this page does not know, as it is. */
export function describeKind(kind: string): string {
  const [object = '', verb = ''] = kind.split('.');
  const objectKey = (OBJECT_LABELS as Record<string, PlainKey>)[object];
  const verbKey = (VERB_LABELS as Record<string, PlainKey>)[verb];
  return objectKey && verbKey ? `${t(objectKey)}: ${t(verbKey)}` : kind;
}

const nameOf = (actor: AuditActor) => actor.name ?? `#${actor.id ?? '?'}`;

/** Who, for the table: "user anna", the name (data) marked as not to be translated. */
function Actor({ actor }: { actor: AuditActor }) {
  if (actor.kind === 'system') return <>{t('audit.system')}</>;
  const name = <span {...untranslated}>{nameOf(actor)}</span>;
  return <>{actor.kind === 'user' ? tRich('audit.user', { name }) : tRich('audit.token', { name })}</>;
}

function describeValue(value: unknown): string {
  if (value === '[redacted]') return t('audit.redacted');
  if (value === null || value === undefined || value === '') return t('audit.empty');
  return typeof value === 'string' ? value : JSON.stringify(value);
}

interface Filters {
  /** `user:5`, `token:2`, or '' for everyone. */
  who: string;
  kind: string;
  from: string;
  to: string;
}

function filterQuery(filters: Filters): Record<string, string | undefined> {
  const [actorKind, actorId] = filters.who.split(':');
  return {
    userID: actorKind === 'user' ? actorId : undefined,
    tokenID: actorKind === 'token' ? actorId : undefined,
    kind: filters.kind || undefined,
    // Days of the account's zone: a date-time without an offset is read in it.
    dateFrom: filters.from ? `${filters.from}T00:00:00` : undefined,
    dateTo: filters.to ? `${filters.to}T23:59:59` : undefined,
  };
}

/** Settings → Audit log: who changed what, and every sign-in, newest first; filters, more, CSV. */
export function AuditLogPage() {
  const { account } = useSessionInfo();
  const [filters, setFilters] = useState<Filters>({ who: '', kind: '', from: '', to: '' });
  const [entries, setEntries] = useState<AuditEntry[]>([]);
  const [actors, setActors] = useState<Map<string, AuditActor>>(new Map());
  const [hasMore, setHasMore] = useState(false);
  const [loading, setLoading] = useState(true);
  const [failure, setFailure] = useState('');
  const [status, setStatus] = useState('');
  const loadSeq = useRef(0);

  const load = async (more: boolean) => {
    const seq = ++loadSeq.current;
    setLoading(true);
    setFailure('');
    try {
      const last = more ? entries[entries.length - 1] : undefined;
      const page = await api.get<AuditEntry[]>(`${AUDIT}${query({ ...filterQuery(filters), count: PAGE_SIZE, lastAuditID: last?.auditID })}`);
      if (seq !== loadSeq.current) return;
      setEntries(more ? [...entries, ...page] : page);
      setHasMore(page.length === PAGE_SIZE);
      // Whom the filter offers: everyone seen so far.
      setActors((known) => {
        const next = new Map(known);
        for (const entry of page) if (entry.actor.kind !== 'system') next.set(`${entry.actor.kind}:${entry.actor.id}`, entry.actor);
        return next;
      });
    } catch (error) {
      if (seq === loadSeq.current) setFailure(t('audit.loadFailed', { reason: describe(error) }));
    } finally {
      if (seq === loadSeq.current) setLoading(false);
    }
  };
  useEffect(() => void load(false), [filters]);

  const exportCsv = async () => {
    setStatus('');
    setFailure('');
    try {
      const rows: AuditEntry[] = [];
      for (;;) {
        const last = rows[rows.length - 1];
        const page = await api.get<AuditEntry[]>(`${AUDIT}${query({ ...filterQuery(filters), count: 1000, lastAuditID: last?.auditID })}`);
        rows.push(...page);
        if (page.length < 1000 || rows.length >= EXPORT_LIMIT) break;
      }
      const blob = new Blob([auditCsv(rows)], { type: 'text/csv;charset=utf-8' });
      const link = document.createElement('a');
      link.href = URL.createObjectURL(blob);
      link.download = `audit-log-${new Date().toISOString().slice(0, 10)}.csv`;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
      setStatus(t('audit.exported', { count: rows.length }));
    } catch (error) {
      setFailure(t('audit.exportFailed', { reason: describe(error) }));
    }
  };

  return (
    <section class="audit-page" aria-labelledby="audit-title">
      <p>
        <a href="#/settings">{t('audit.back')}</a>
      </p>
      <h1 id="audit-title">{t('audit.title')}</h1>
      <p class="muted">{t('audit.intro')}</p>
      <div class="toolbar" role="group" aria-label={t('audit.filters')}>
        <label>
          {t('audit.who')}
          <select aria-label={t('audit.who')} value={filters.who} onChange={(e) => setFilters({ ...filters, who: e.currentTarget.value })}>
            <option value="">{t('audit.everyone')}</option>
            {(['user', 'token'] as const).map((kind) => {
              const ofKind = [...actors].filter(([, actor]) => actor.kind === kind);
              if (ofKind.length === 0) return null;
              return (
                <optgroup key={kind} label={t(kind === 'user' ? 'audit.users' : 'audit.tokens')}>
                  {ofKind.map(([key, actor]) => (
                    <option key={key} value={key} {...untranslated}>
                      {nameOf(actor)}
                    </option>
                  ))}
                </optgroup>
              );
            })}
          </select>
        </label>
        <label>
          {t('audit.kind')}
          <select aria-label={t('audit.kind')} value={filters.kind} onChange={(e) => setFilters({ ...filters, kind: e.currentTarget.value })}>
            <option value="">{t('audit.allKinds')}</option>
            {OBJECTS.map((object) => (
              <option key={object} value={object}>
                {t(OBJECT_LABELS[object])}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('audit.from')}
          <input type="date" aria-label={t('audit.from')} value={filters.from} onChange={(e) => setFilters({ ...filters, from: e.currentTarget.value })} />
        </label>
        <label>
          {t('audit.to')}
          <input type="date" aria-label={t('audit.to')} value={filters.to} onChange={(e) => setFilters({ ...filters, to: e.currentTarget.value })} />
        </label>
        <button type="button" class="secondary" onClick={() => void exportCsv()}>
          {t('audit.export')}
        </button>
      </div>
      <ErrorAlert message={failure} />
      <StatusLine message={status} />
      {!loading && entries.length === 0 && !failure && <p>{t('audit.none')}</p>}
      {entries.length > 0 && (
        <table class="audit-table">
          <thead>
            <tr>
              <th scope="col">{t('audit.date')}</th>
              <th scope="col">{t('audit.who')}</th>
              <th scope="col">{t('audit.kind')}</th>
              <th scope="col">{t('audit.object')}</th>
              <th scope="col">{t('audit.changes')}</th>
              <th scope="col">{t('audit.address')}</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => (
              <tr key={entry.auditID}>
                <td>{formatDateTime(entry.date, account.timeZone, true)}</td>
                <td>
                  <Actor actor={entry.actor} />
                </td>
                <td>{describeKind(entry.kind)}</td>
                <td>{entry.objectID ?? ''}</td>
                <td class="changes">
                  <ul>
                    {Object.entries(entry.changes).map(([field, change]) => (
                      <li key={field}>
                        <code {...untranslated}>{field}</code>: <span {...untranslated}>{describeValue(change.before)}</span> →{' '}
                        <span {...untranslated}>{describeValue(change.after)}</span>
                      </li>
                    ))}
                  </ul>
                </td>
                <td {...untranslated}>{entry.address ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {hasMore && (
        <button type="button" onClick={() => void load(true)} disabled={loading}>
          {t('audit.more')}
        </button>
      )}
    </section>
  );
}
