import { Field } from '../../ui/field';
import { PROTOCOLS, type TrackerProtocol } from './connection-settings';

/** What happens to the device key on save: kept, a new one generated, one typed (a tracker's IMEI), or none. */
export type KeyMode = 'keep' | 'generate' | 'type' | 'none';

export interface DeviceDraft {
  device: 'phone' | 'tracker';
  protocol: TrackerProtocol;
  keyMode: KeyMode;
  typedKey: string;
  /** A new device password ('' keeps what is set), and whether to remove the one set. */
  password: string;
  removePassword: boolean;
}

/** The protocols whose login carries a password (the server's `passwordProtocols`). */
export const PASSWORD_PROTOCOLS: readonly TrackerProtocol[] = ['egts', 'wialonIps'];

/** What the identifier is, per protocol, under the key field. */
const KEY_HINTS: Record<TrackerProtocol, string> = {
  egts: 'The terminal’s IMEI, else its terminal or object id (such as 866).',
  wialonIps: 'The id of its login (#L#id;…): the IMEI or a short id such as 2002.',
  teltonika: 'The terminal’s 15-digit IMEI. Teltonika terminals send no password: whoever knows the IMEI can report as this vehicle.',
};

// Unambiguous characters, as the server's own keys: the key may be typed into a phone by hand.
const KEY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** A new device key, made in the browser when an existing employee's key is replaced (the create makes its own on the server). */
export function newDeviceKey(): string {
  const bytes = crypto.getRandomValues(new Uint32Array(12));
  return Array.from(bytes, (n) => KEY_ALPHABET[n % KEY_ALPHABET.length]).join('');
}

interface Props {
  draft: DeviceDraft;
  /** The stored key's last characters (`…x7k2`); null for a new employee or one without a key. */
  hint: string | null;
  isNew: boolean;
  error: string | undefined;
  /** Whether the stored device has a password (it is never shown). */
  hasPassword: boolean;
  passwordError: string | undefined;
  onChange: (draft: DeviceDraft) => void;
}

/** The device part of the employee form: a phone with Traccar Client or a vehicle tracker, and its key. */
export function DeviceFields({ draft, hint, isNew, error, hasPassword, passwordError, onChange }: Props) {
  const set = (patch: Partial<DeviceDraft>) => onChange({ ...draft, ...patch });
  const tracker = draft.device === 'tracker';
  const choices: { value: KeyMode; label: string }[] = [
    ...(!isNew && hint ? [{ value: 'keep' as const, label: `Keep the current key (${hint})` }] : []),
    ...(tracker ? [] : [{ value: 'generate' as const, label: isNew ? 'Generate a key' : 'Generate a new key' }]),
    { value: 'type', label: tracker ? 'Set the IMEI' : 'Type a key' },
    { value: 'none', label: isNew || !hint ? 'No device yet' : 'Remove the key (the device stops reporting)' },
  ];
  // A tracker's key is its IMEI: it cannot be generated.
  const mode = choices.some((c) => c.value === draft.keyMode) ? draft.keyMode : choices[0]!.value;

  return (
    <fieldset class="device-fields">
      <legend>Device</legend>
      <div role="radiogroup" aria-label="Reports with" class="choice-row">
        <label class="inline">
          <input type="radio" name="device" checked={!tracker} onChange={() => set({ device: 'phone' })} />
          Phone with Traccar Client
        </label>
        <label class="inline">
          <input type="radio" name="device" checked={tracker} onChange={() => set({ device: 'tracker', keyMode: draft.keyMode === 'generate' ? 'type' : draft.keyMode })} />
          Vehicle tracker
        </label>
      </div>
      {tracker && (
        <Field id="employee-protocol" label="Protocol">
          {(control) => (
            <select {...control} value={draft.protocol} onChange={(e) => set({ protocol: e.currentTarget.value as TrackerProtocol })}>
              {PROTOCOLS.map((p) => (
                <option key={p.value} value={p.value}>
                  {p.label}
                </option>
              ))}
            </select>
          )}
        </Field>
      )}
      <div role="radiogroup" aria-label="Device key" class="choice-column">
        {choices.map((choice) => (
          <label class="inline" key={choice.value}>
            <input type="radio" name="key-mode" checked={mode === choice.value} onChange={() => set({ keyMode: choice.value })} />
            {choice.label}
          </label>
        ))}
      </div>
      {mode === 'type' && (
        <Field
          id="employee-deviceKey"
          label={tracker ? 'IMEI' : 'Device key'}
          hint={tracker ? KEY_HINTS[draft.protocol] : '6 to 128 characters without spaces.'}
          error={error}
        >
          {(control) => <input {...control} value={draft.typedKey} autocomplete="off" spellcheck={false} onInput={(e) => set({ typedKey: e.currentTarget.value, keyMode: 'type' })} />}
        </Field>
      )}
      {mode !== 'type' && error && (
        <p class="error field-error" id="employee-deviceKey-error">
          {error}
        </p>
      )}
      {tracker && PASSWORD_PROTOCOLS.includes(draft.protocol) && (
        <>
          <Field
            id="employee-devicePassword"
            label="Device password"
            hint={hasPassword ? 'A password is set: leave this empty to keep it.' : 'Optional: the terminal’s login must then carry it, and nobody else can report as this vehicle.'}
            error={passwordError}
          >
            {(control) => (
              <input {...control} type="password" value={draft.password} autocomplete="new-password" disabled={draft.removePassword} onInput={(e) => set({ password: e.currentTarget.value })} />
            )}
          </Field>
          {hasPassword && (
            <label class="inline">
              <input type="checkbox" checked={draft.removePassword} onChange={(e) => set({ removePassword: e.currentTarget.checked, password: '' })} />
              Remove the password
            </label>
          )}
        </>
      )}
    </fieldset>
  );
}

/** The key mode the form starts with. */
export function initialKeyMode(isNew: boolean, hint: string | null): KeyMode {
  return isNew ? 'generate' : hint ? 'keep' : 'none';
}
