/*
 * The two ways a page tells the user what happened: a status line for what went as asked, an
 * alert for what did not.
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
