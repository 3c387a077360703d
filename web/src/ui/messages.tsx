import { t } from '../i18n/i18n';

/*
 * How a page tells the user what happened: a status line for what went as asked, an alert for
 * what did not, and for a load that failed an alert with a way to try again.
 */

/**
 * A polite live region. It stays rendered while empty: a screen reader announces a change of its
 * text only if the region was there before the text came.
 */
export function StatusLine({ message, class: className }: { message: string; class?: string }) {
  return (
    <p role="status" class={className ? `status-line ${className}` : 'status-line'}>
      {message}
    </p>
  );
}

/** A failure, announced at once; nothing while there is none. */
export function ErrorAlert({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <p role="alert" class="error">
      {message}
    </p>
  );
}

/**
 * A load that failed, with a button that tries it again: what every page that reads data shows
 * instead of going on with nothing (nothing while there is no failure).
 */
export function LoadFailure({ message, onRetry }: { message: string | null | undefined; onRetry: () => void }) {
  if (!message) return null;
  return (
    <div role="alert" class="error load-failure">
      <span>{message}</span>
      <button type="button" class="secondary" onClick={onRetry}>
        {t('app.retry')}
      </button>
    </div>
  );
}
