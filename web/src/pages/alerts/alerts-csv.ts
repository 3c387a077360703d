import { formatDateTime } from '../../i18n/format';
import { t } from '../../i18n/i18n';
import type { Alert } from '../../types';
import { kindLabel } from './alert-item';

/** A field as CSV writes it: quoted when it holds a quote, a separator or a line break. */
function field(value: string | number | null): string {
  const text = value === null ? '' : String(value);
  return /[",;\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * The alerts as a CSV file in the workspace's language, with a byte-order mark so that
 * spreadsheet programs read Cyrillic as UTF-8.
 */
export function alertsCsv(alerts: readonly Alert[], timeZone: string): string {
  const header = ['alerts.colWhen', 'alerts.colEmployee', 'alerts.kind', 'alerts.colWhat', 'alerts.colWhere', 'alerts.colRule', 'alerts.colHandled'] as const;
  const rows = alerts.map((a) =>
    [
      formatDateTime(a.occurredAt, timeZone, true),
      a.subscriberName ?? '',
      kindLabel(a.kind),
      a.what,
      a.where ?? '',
      a.eventName,
      a.handledAt === null ? '' : `${a.handledBy ?? ''} ${formatDateTime(a.handledAt, timeZone, true)}`.trim(),
    ]
      .map(field)
      .join(','),
  );
  return `\uFEFF${[header.map((key) => field(t(key))).join(','), ...rows].join('\r\n')}\r\n`;
}
