import { useLayoutEffect, useRef } from 'preact/hooks';
import { ApiFailure, describe } from '../../api';

/** A failed save as the form shows it: messages per field (the envelope's validationErrors) and one line for the rest. */
export interface FormErrors {
  fields: Record<string, string>;
  message: string;
}

export const NO_ERRORS: FormErrors = { fields: {}, message: '' };

/**
 * Splits a failure into the fields the form shows (`known`: a key, or a prefix such as `bounds`
 * for `bounds[2].latitude`) and a message for whatever no field shows.
 */
export function formErrors(error: unknown, known: string[]): FormErrors {
  if (!(error instanceof ApiFailure)) return { fields: {}, message: describe(error) };
  const fields: Record<string, string> = {};
  let unshown = false;
  for (const [key, why] of Object.entries(error.envelope.validationErrors ?? {})) {
    const field = known.find((k) => key === k || key.startsWith(`${k}[`) || key.startsWith(`${k}.`));
    if (field) fields[field] = key === field ? why : `${key} ${why}`;
    else unshown = true;
  }
  const shown = Object.keys(fields).length > 0;
  return { fields, message: shown && !unshown ? '' : describe(error) };
}

/** The message under a field; its id goes in the field's aria-describedby. */
export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} class="field-error">
      {message}
    </p>
  );
}

/** aria attributes tying a field to its message. */
export function invalid(id: string, message: string | undefined) {
  return message ? { 'aria-invalid': true, 'aria-describedby': id } : {};
}

/**
 * An inline confirmation instead of window.confirm: the confirming button takes the focus, Escape
 * or the other button keeps things as they are.
 */
export function Confirm(props: { question: string; confirm: string; cancel: string; busy?: boolean; onConfirm: () => void; onCancel: () => void }) {
  const button = useRef<HTMLButtonElement>(null);
  useLayoutEffect(() => button.current?.focus(), []);
  const keyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      props.onCancel();
    }
  };
  return (
    <div class="confirm" role="group" aria-label={props.question} onKeyDown={keyDown}>
      <p>{props.question}</p>
      <button type="button" class="danger" ref={button} disabled={props.busy} onClick={props.onConfirm}>
        {props.confirm}
      </button>
      <button type="button" class="secondary" onClick={props.onCancel}>
        {props.cancel}
      </button>
    </div>
  );
}
