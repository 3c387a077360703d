/**
 * The rule Done just saved, for the list to show once: the form goes back to `#/events`, and the
 * list says what was saved and marks its row.
 */
export interface SavedRule {
  eventID: number;
  name: string;
  how: 'created' | 'changed';
}

let saved: SavedRule | null = null;

export function rememberSaved(eventID: number, name: string, how: SavedRule['how']): void {
  saved = { eventID, name, how };
}

/** The rule saved last, once: a later visit to the list shows nothing. */
export function takeSaved(): SavedRule | null {
  const last = saved;
  saved = null;
  return last;
}
