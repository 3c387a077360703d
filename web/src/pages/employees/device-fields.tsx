import { Field } from '../../ui/field';
import { useSessionInfo } from '../../session';
import type { DeviceConnection } from '../../api';
import { trackerProtocols } from './connection-settings';
import { language, t } from '../../i18n/i18n';

/** What happens to the device key on save: kept, a new one generated, one typed (a tracker's IMEI), or none. */
export type KeyMode = 'keep' | 'generate' | 'type' | 'none';

export interface DeviceDraft {
  device: 'phone' | 'tracker';
  /** The tracker's deviceProtocol: one of the server's protocols (the session's `devices`). */
  protocol: string;
  keyMode: KeyMode;
  typedKey: string;
  /** A new device password ('' keeps what is set), and whether to remove the one set. */
  password: string;
  removePassword: boolean;
}

/** Whether the tracker's protocol carries a device password in its login, as the server says. */
export function carriesPassword(devices: readonly DeviceConnection[], protocol: string): boolean {
  return devices.some((d) => d.protocol === protocol && d.password);
}

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
  const { devices } = useSessionInfo();
  const set = (patch: Partial<DeviceDraft>) => onChange({ ...draft, ...patch });
  const tracker = draft.device === 'tracker';
  const protocols = trackerProtocols(devices);
  const chosen = protocols.find((p) => p.protocol === draft.protocol);
  const choices: { value: KeyMode; label: string }[] = [
    ...(!isNew && hint ? [{ value: 'keep' as const, label: t('emp.keepKey', { hint }) }] : []),
    ...(tracker ? [] : [{ value: 'generate' as const, label: isNew ? t('emp.generateKey') : t('emp.generateNewKey') }]),
    { value: 'type', label: tracker ? t('emp.setImei') : t('emp.typeKey') },
    { value: 'none', label: isNew || !hint ? t('emp.noDevice') : t('emp.removeKey') },
  ];
  // A tracker's key is its IMEI: it cannot be generated.
  const mode = choices.some((c) => c.value === draft.keyMode) ? draft.keyMode : choices[0]!.value;

  return (
    <fieldset class="device-fields">
      <legend>{t('emp.device')}</legend>
      <div role="radiogroup" aria-label={t('emp.reportsWith')} class="choice-row">
        <label class="inline">
          <input type="radio" name="device" checked={!tracker} onChange={() => set({ device: 'phone' })} />
          {t('emp.phoneApp')}
        </label>
        <label class="inline">
          <input type="radio" name="device" checked={tracker} onChange={() => set({ device: 'tracker', keyMode: draft.keyMode === 'generate' ? 'type' : draft.keyMode })} />
          {t('emp.tracker')}
        </label>
      </div>
      {tracker && (
        <Field id="employee-protocol" label={t('emp.protocol')}>
          {(control) => (
            <select {...control} value={draft.protocol} onChange={(e) => set({ protocol: e.currentTarget.value })}>
              {protocols.map((p) => (
                <option key={p.protocol} value={p.protocol}>
                  {p.label}
                </option>
              ))}
            </select>
          )}
        </Field>
      )}
      <div role="radiogroup" aria-label={t('emp.deviceKey')} class="choice-column">
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
          label={tracker ? 'IMEI' : t('emp.deviceKey')}
          hint={tracker ? chosen?.keyHint[language()] : t('emp.keyHint')}
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
      {tracker && carriesPassword(devices, draft.protocol) && (
        <>
          <Field
            id="employee-devicePassword"
            label={t('emp.devicePassword')}
            hint={hasPassword ? t('emp.passwordSetHint') : t('emp.passwordHint')}
            error={passwordError}
          >
            {(control) => (
              <input {...control} type="password" value={draft.password} autocomplete="new-password" disabled={draft.removePassword} onInput={(e) => set({ password: e.currentTarget.value })} />
            )}
          </Field>
          {hasPassword && (
            <label class="inline">
              <input type="checkbox" checked={draft.removePassword} onChange={(e) => set({ removePassword: e.currentTarget.checked, password: '' })} />
              {t('emp.removePassword')}
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
