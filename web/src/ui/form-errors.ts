import { ApiFailure, describe, fieldProblem } from '../api';

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
    if (field) fields[field] = key === field ? fieldProblem(why) : `${key} ${fieldProblem(why)}`;
    else unshown = true;
  }
  const shown = Object.keys(fields).length > 0;
  return { fields, message: shown && !unshown ? '' : describe(error) };
}
