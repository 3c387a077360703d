import { useState } from 'preact/hooks';
import { describe } from '../../api';
import { formatDateTime, formatTimeAgo } from '../../i18n/format';
import { t } from '../../i18n/i18n';
import { useSessionInfo } from '../../session';
import type { Alert } from '../../types';

export { kindLabel } from './alert-kinds';

/** Who handled an alert and when, or nothing while it is unhandled. */
export function handledText(alert: Alert, timeZone: string): string {
  if (alert.handledAt === null) return '';
  const when = formatDateTime(alert.handledAt, timeZone);
  return alert.handledBy ? t('alerts.handledBy', { who: alert.handledBy, when }) : t('alerts.handledByNobody', { when });
}

/** Opens the employee on the map: the Map tab selects them and centres on their position. */
export function mapLink(alert: Alert): string | null {
  return alert.subscriberID === null ? null : `#/map/${alert.subscriberID}`;
}

/**
 * One alert as the header's panel lists it: the employee, what, where, how long ago; a link to
 * the employee on the map, and "Mark handled" until someone has, then who did and when.
 */
export function AlertItem({ alert, nowMs, onHandle }: { alert: Alert; nowMs: number; onHandle: (alert: Alert) => Promise<void> }) {
  const { account } = useSessionInfo();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState('');
  const name = alert.subscriberName ?? t('alerts.noEmployee');
  const link = mapLink(alert);
  const handle = async () => {
    setBusy(true);
    setFailure('');
    try {
      await onHandle(alert);
    } catch (error) {
      setFailure(t('alerts.notHandled', { reason: describe(error) }));
    } finally {
      setBusy(false);
    }
  };
  return (
    <li class={alert.handledAt === null ? 'alert-item open' : 'alert-item handled'} data-alert-id={alert.alertID}>
      <div class="alert-head">
        <strong class="alert-employee">{name}</strong>
        <time class="alert-age" dateTime={alert.occurredAt} title={formatDateTime(alert.occurredAt, account.timeZone, true)}>
          {formatTimeAgo(alert.occurredAt, nowMs)}
        </time>
      </div>
      <div class="alert-what">{alert.what}</div>
      {alert.where && <div class="alert-where muted small">{alert.where}</div>}
      <div class="alert-actions">
        {link && (
          <a href={link} class="alert-map" aria-label={t('alerts.onMapOf', { name })}>
            {t('alerts.onMap')}
          </a>
        )}
        {alert.handledAt === null ? (
          <button type="button" class="secondary small" disabled={busy} onClick={handle} aria-label={t('alerts.markHandledOf', { what: alert.what })}>
            {t('alerts.markHandled')}
          </button>
        ) : (
          <span class="alert-handled muted small">{handledText(alert, account.timeZone)}</span>
        )}
      </div>
      {failure && (
        <p role="alert" class="error small">
          {failure}
        </p>
      )}
    </li>
  );
}
