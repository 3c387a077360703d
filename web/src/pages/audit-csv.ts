import type { AuditEntry } from './audit-log';

/** One CSV field: quoted when it holds a quote, a separator or a line break (RFC 4180); a formula's lead character defused. */
function field(value: unknown): string {
  let text = value === null || value === undefined ? '' : String(value);
  // A spreadsheet would run a cell starting with these as a formula (CSV injection).
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The entries as CSV, with a BOM so spreadsheets read the UTF-8 names: one row per entry, the changes as JSON. */
export function auditCsv(entries: AuditEntry[]): string {
  const header = ['auditID', 'date', 'actorKind', 'actorID', 'actorName', 'address', 'kind', 'objectID', 'changes'];
  const rows = entries.map((entry) =>
    [entry.auditID, entry.date, entry.actor.kind, entry.actor.id, entry.actor.name, entry.address, entry.kind, entry.objectID, JSON.stringify(entry.changes)].map(field).join(','),
  );
  return `\ufeff${[header.join(','), ...rows].join('\r\n')}\r\n`;
}
