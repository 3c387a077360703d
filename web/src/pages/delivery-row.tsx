/** One delivery of the log (CONTRACT §4) as a table row, and its attempts as a row below it. */

import { formatDateTime } from '../i18n/format';
import { t, type PlainKey } from '../i18n/i18n';
import { kindLabel } from './alerts/alert-kinds';
import { eventSummary } from './delivery-summary';

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface DeliveryAttempt {
  attemptedAt: string;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

/** `GET /v6/api/eventManagement/deliveries` → `data[]`. */
export interface Delivery {
  deliveryID: number;
  eventID: number | null;
  channel: string;
  target: string;
  messageID: string;
  status: DeliveryStatus;
  createdAt: string;
  nextAttemptAt: string | null;
  finishedAt: string | null;
  attemptCount: number;
  lastStatusCode: number | null;
  lastError: string | null;
  payload: unknown;
  attempts: DeliveryAttempt[];
}

export interface RuleName {
  eventID: number;
  name: string;
}

/** The columns of the log; the attempts row spans them all. */
export const COLUMNS: PlainKey[] = ['deliv.colRule', 'deliv.colChannel', 'deliv.colTarget', 'deliv.status', 'deliv.colAttempts', 'deliv.colResult', 'deliv.created', 'deliv.colActions'];

/** A delivery's status in words; the English ones are the API's own. */
export const STATUS_LABELS: Record<DeliveryStatus, PlainKey> = { pending: 'deliv.pending', delivered: 'deliv.delivered', failed: 'deliv.failed' };

const CHANNELS: Record<string, PlainKey> = {
  webhook: 'deliv.channel_webhook',
  email: 'deliv.channel_email',
  sms: 'deliv.channel_sms',
  messenger: 'deliv.channel_messenger',
  messenger2: 'deliv.channel_messenger2',
};
const channelLabel = (channel: string) => (CHANNELS[channel] ? t(CHANNELS[channel]) : channel);

/**
 * The server writes times in the account's zone with its offset (`2026-05-20T14:30:00.123+03:00`);
 * the coordinator works in that zone, so the wall time is shown and the full value is the tooltip.
 */
export function wallTime(dateTime: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})/.exec(dateTime);
  return match ? `${match[1]} ${match[2]}` : dateTime;
}

function Time({ value }: { value: string }) {
  return (
    <time dateTime={value} title={value}>
      {formatDateTime(`${wallTime(value).replace(' ', 'T')}Z`, 'UTC', true)}
    </time>
  );
}

/** A status code and an error, without repeating `HTTP 500` under `500`. */
export function describeResult(statusCode: number | null, error: string | null): string {
  const parts: string[] = [];
  if (statusCode !== null) parts.push(String(statusCode));
  if (error && error !== `HTTP ${statusCode}`) parts.push(error);
  return parts.join(' · ');
}

function ruleLabel(delivery: Delivery, rules: Map<number, string>): string {
  if (delivery.eventID === null) return t('deliv.noRule');
  const name = rules.get(delivery.eventID);
  return name ? `${name} (#${delivery.eventID})` : t('deliv.ruleN', { id: delivery.eventID });
}

export interface DeliveryRowProps {
  delivery: Delivery;
  rules: Map<number, string>;
  /** Employees' names by subscriberID (a number while they load or for one deleted). */
  employees: ReadonlyMap<number, string>;
  expanded: boolean;
  onToggle: () => void;
  /** A resend of this row is under way (sent, or waiting for its attempt). */
  resending: boolean;
  /** Resent from this page: keeps its button while pending, so focus is not lost. */
  resentHere: boolean;
  onResend: () => void;
  /** The outcome of the last resend from this page. */
  outcome?: string;
}

export function DeliveryRow(props: DeliveryRowProps) {
  const { delivery: d, expanded } = props;
  const attemptsId = `delivery-${d.deliveryID}-attempts`;
  const showResend = d.status !== 'pending' || props.resentHere;
  const resendBlocked = d.status === 'pending' || props.resending;
  const last = describeResult(d.lastStatusCode, d.lastError);
  return (
    <>
      <tr class={`delivery delivery-${d.status}`}>
        <td>
          {ruleLabel(d, props.rules)}
          <div class="muted small">
            #{d.deliveryID} · {eventSummary(d.payload, props.employees, kindLabel)}
          </div>
        </td>
        <td>{channelLabel(d.channel)}</td>
        <td class="delivery-target">{d.target}</td>
        <td>
          <span class={`delivery-status delivery-status-${d.status}`}>{t(STATUS_LABELS[d.status])}</span>
        </td>
        <td>
          <button type="button" class="link" aria-expanded={expanded} aria-controls={attemptsId} onClick={props.onToggle}>
            {t('deliv.attempts', { count: d.attempts.length })}
            <span class="sr-only">{t('deliv.ofDelivery', { id: d.deliveryID })}</span>
          </button>
        </td>
        <td class="delivery-result">{last || <span class="muted">—</span>}</td>
        <td>
          <Time value={d.createdAt} />
        </td>
        <td>
          {showResend && (
            <button
              type="button"
              class="secondary"
              aria-disabled={resendBlocked ? 'true' : undefined}
              onClick={() => {
                if (!resendBlocked) props.onResend();
              }}
            >
              {props.resending ? t('deliv.resending') : t('deliv.resend')}
              <span class="sr-only">{t('deliv.deliveryN', { id: d.deliveryID })}</span>
            </button>
          )}
          {props.outcome && <div class="small delivery-outcome">{props.outcome}</div>}
        </td>
      </tr>
      <tr id={attemptsId} class="delivery-attempts" hidden={!expanded}>
        {expanded && (
          <td colSpan={COLUMNS.length}>
            <Attempts delivery={d} />
          </td>
        )}
      </tr>
    </>
  );
}

function Attempts({ delivery: d }: { delivery: Delivery }) {
  return (
    <div class="delivery-details">
      <dl>
        <dt>webhook-id</dt>
        <dd>
          <code>{d.messageID}</code>
        </dd>
        {d.nextAttemptAt && (
          <>
            <dt>{t('deliv.nextAttempt')}</dt>
            <dd>
              <Time value={d.nextAttemptAt} />
            </dd>
          </>
        )}
        {d.finishedAt && (
          <>
            <dt>{d.status === 'delivered' ? t('deliv.deliveredAt') : t('deliv.gaveUp')}</dt>
            <dd>
              <Time value={d.finishedAt} />
            </dd>
          </>
        )}
      </dl>
      {d.attempts.length === 0 ? (
        <p class="muted">{t('deliv.noAttempts')}</p>
      ) : (
        <table class="delivery-attempt-table">
          <caption>{t('deliv.attemptsCaption', { id: d.deliveryID })}</caption>
          <thead>
            <tr>
              <th scope="col">{t('deliv.time')}</th>
              <th scope="col">{t('deliv.statusCode')}</th>
              <th scope="col">{t('deliv.duration')}</th>
              <th scope="col">{t('deliv.error')}</th>
            </tr>
          </thead>
          <tbody>
            {d.attempts.map((a, i) => (
              <tr key={i}>
                <td>
                  <Time value={a.attemptedAt} />
                </td>
                <td>{a.statusCode ?? '—'}</td>
                <td>{t('deliv.ms', { value: a.durationMs })}</td>
                <td>{a.error ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <details>
        <summary>{t('deliv.body')}</summary>
        <pre>{JSON.stringify(d.payload, null, 2)}</pre>
      </details>
    </div>
  );
}
