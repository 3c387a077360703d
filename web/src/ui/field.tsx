import type { ComponentChildren } from 'preact';
import './field.css';

/*
 * A form field and its messages. A field has an id (its control's, or its fieldset's); its hint
 * is `<id>-hint` and its error `<id>-error`, and aria-describedby on the control names them, so a
 * screen reader reads the error with the field and a test can find it.
 */

const hintId = (id: string) => `${id}-hint`;
const errorId = (id: string) => `${id}-error`;

/** aria-describedby of a field: its hint, if it has one, and its error, when there is one. */
export function describedBy(id: string, error: string | undefined, hasHint = false): string | undefined {
  const ids = [hasHint ? hintId(id) : null, error ? errorId(id) : null].filter(Boolean);
  return ids.length > 0 ? ids.join(' ') : undefined;
}

/** The attributes that tie a control to its hint and error. */
export function fieldAria(id: string, error: string | undefined, hasHint = false) {
  return { 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy(id, error, hasHint) } as const;
}

export function Hint({ id, children }: { id: string; children: ComponentChildren }) {
  return (
    <p id={hintId(id)} class="hint">
      {children}
    </p>
  );
}

/** The server's or the form's message about a field; nothing while there is none. */
export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={errorId(id)} class="error field-error">
      {message}
    </p>
  );
}

/** What the control of a Field spreads on itself: its id and the attributes tying it to its messages. */
export type ControlAttributes = { id: string } & ReturnType<typeof fieldAria>;

interface FieldProps {
  id: string;
  label: ComponentChildren;
  hint?: ComponentChildren;
  error?: string;
  /** The control, given the attributes that tie it to the label and the messages. */
  children: (control: ControlAttributes) => ComponentChildren;
}

/** A labelled control with its hint and its error under it. */
export function Field({ id, label, hint, error, children }: FieldProps) {
  const hasHint = hint !== undefined;
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {children({ id, ...fieldAria(id, error, hasHint) })}
      {hasHint && <Hint id={id}>{hint}</Hint>}
      <FieldError id={id} message={error} />
    </div>
  );
}
