import { Field, FieldError } from '../../ui/field';
import { READINGS, type ReadingDraft, type ReadingKey, type VehicleDraft } from './vehicle-model';
import { t } from '../../i18n/i18n';

/** The server's names of the fields this part shows, so its validation errors land under them. */
export const VEHICLE_FIELDS = [
  'vehicleSettings.speedLimit',
  'vehicleSettings.prolongedSpeedSeconds',
  'vehicleSettings.fuelFillThreshold',
  'vehicleSettings.fuelDrainThreshold',
  'vehicleSettings.initialOdometer',
  'vehicleSettings.sensorLimits',
  'vehicleSettings.readingMap',
];

interface Props {
  draft: VehicleDraft;
  errors: Record<string, string>;
  /** Shown unfolded (a vehicle's); a person's are folded away. */
  open?: boolean;
  onChange: (draft: VehicleDraft) => void;
}

type NumberKey = 'speedLimit' | 'prolongedSpeedSeconds' | 'fuelFillThreshold' | 'fuelDrainThreshold' | 'initialOdometer';

/**
 * Vehicle settings (CONTRACT §2): the thresholds of vehicle events, the fuel tank's filling and
 * drain thresholds, sensor limits, and how a tracker's inputs become readings (the reading map:
 * each reading from the protocol's default input, switched off, or from a named input).
 */
export function VehicleSettingsForm({ draft, errors, open = false, onChange }: Props) {
  const set = (patch: Partial<VehicleDraft>) => onChange({ ...draft, ...patch });
  const number = (key: NumberKey, label: string, hint?: string) => (
    <Field id={`vehicle-${key}`} label={label} hint={hint} error={errors[`vehicleSettings.${key}`]}>
      {(control) => <input {...control} type="number" inputMode="decimal" step="any" value={draft[key]} onInput={(e) => set({ [key]: e.currentTarget.value })} />}
    </Field>
  );
  const setReading = (key: ReadingKey, patch: Partial<ReadingDraft>) => set({ readings: { ...draft.readings, [key]: { ...draft.readings[key], ...patch } } });

  return (
    <details class="vehicle-settings" open={open}>
      <summary>{t('veh.title')}</summary>
      <div class="field-grid">
        {number('speedLimit', t('veh.speedLimit'), t('veh.default', { value: 90 }))}
        {number('prolongedSpeedSeconds', t('veh.prolonged'), t('veh.default', { value: 60 }))}
        {number('initialOdometer', t('veh.odometer'))}
      </div>
      <fieldset>
        <legend>{t('veh.tank')}</legend>
        <div class="field-grid">
          {number('fuelFillThreshold', t('veh.fill'), t('veh.default', { value: 10 }))}
          {number('fuelDrainThreshold', t('veh.drain'), t('veh.default', { value: 10 }))}
        </div>
      </fieldset>

      <fieldset>
        <legend>{t('veh.sensorLimits')}</legend>
        <FieldError id="vehicle-sensorLimits" message={errors['vehicleSettings.sensorLimits']} />
        {draft.sensorLimits.map((limit, index) => {
          const update = (patch: Partial<typeof limit>) => set({ sensorLimits: draft.sensorLimits.map((l, i) => (i === index ? { ...l, ...patch } : l)) });
          return (
            <div class="row-fields" key={index} role="group" aria-label={t('veh.sensorLimit', { n: index + 1 })}>
              <Field id={`limit-${index}-sensor`} label={t('veh.sensor')}>
                {(control) => <input {...control} type="number" inputMode="numeric" value={limit.sensorID} onInput={(e) => update({ sensorID: e.currentTarget.value })} />}
              </Field>
              <Field id={`limit-${index}-min`} label={t('veh.min')}>
                {(control) => <input {...control} type="number" step="any" value={limit.min} onInput={(e) => update({ min: e.currentTarget.value })} />}
              </Field>
              <Field id={`limit-${index}-max`} label={t('veh.max')}>
                {(control) => <input {...control} type="number" step="any" value={limit.max} onInput={(e) => update({ max: e.currentTarget.value })} />}
              </Field>
              <button type="button" class="link" aria-label={t('veh.removeLimit', { n: index + 1 })} onClick={() => set({ sensorLimits: draft.sensorLimits.filter((_, i) => i !== index) })}>
                {t('veh.remove')}
              </button>
            </div>
          );
        })}
        <button type="button" class="secondary" onClick={() => set({ sensorLimits: [...draft.sensorLimits, { sensorID: '', min: '', max: '' }] })}>
          {t('veh.addLimit')}
        </button>
      </fieldset>

      <fieldset>
        <legend>{t('veh.readingMap')}</legend>
        <p class="hint">{t('veh.readingHint')}</p>
        <FieldError id="vehicle-readingMap" message={errors['vehicleSettings.readingMap']} />
        {READINGS.map(({ key, label: labelKey, switch: isSwitch }) => {
          const label = t(labelKey);
          const reading = draft.readings[key];
          return (
            <div class="row-fields" key={key} role="group" aria-label={label}>
              <Field id={`reading-${key}`} label={label}>
                {(control) => (
                  <select {...control} value={reading.mode} onChange={(e) => setReading(key, { mode: e.currentTarget.value as ReadingDraft['mode'] })}>
                    <option value="default">{t('veh.protocolDefault')}</option>
                    <option value="off">{t('veh.off')}</option>
                    <option value="input">{t('veh.fromInput')}</option>
                  </select>
                )}
              </Field>
              {reading.mode === 'input' && (
                <>
                  <Field id={`reading-${key}-input`} label={t('veh.input')}>
                    {(control) => <input {...control} value={reading.input} placeholder="io239" autocomplete="off" onInput={(e) => setReading(key, { input: e.currentTarget.value })} />}
                  </Field>
                  <Field id={`reading-${key}-scale`} label={t('veh.scale')}>
                    {(control) => <input {...control} type="number" step="any" value={reading.scale} placeholder="1" onInput={(e) => setReading(key, { scale: e.currentTarget.value })} />}
                  </Field>
                  {isSwitch && (
                    <Field id={`reading-${key}-above`} label={t('veh.onAbove')}>
                      {(control) => <input {...control} type="number" step="any" value={reading.above} placeholder="0" onInput={(e) => setReading(key, { above: e.currentTarget.value })} />}
                    </Field>
                  )}
                </>
              )}
            </div>
          );
        })}
        {draft.sensorInputs.map((sensor, index) => {
          const update = (patch: Partial<typeof sensor>) => set({ sensorInputs: draft.sensorInputs.map((s, i) => (i === index ? { ...s, ...patch } : s)) });
          return (
            <div class="row-fields" key={`sensor-${index}`} role="group" aria-label={t('veh.sensorInput', { n: index + 1 })}>
              <Field id={`sensor-${index}-id`} label={t('veh.sensor')}>
                {(control) => <input {...control} type="number" inputMode="numeric" value={sensor.sensorID} onInput={(e) => update({ sensorID: e.currentTarget.value })} />}
              </Field>
              <Field id={`sensor-${index}-input`} label={t('veh.input')}>
                {(control) => <input {...control} value={sensor.input} autocomplete="off" onInput={(e) => update({ input: e.currentTarget.value })} />}
              </Field>
              <Field id={`sensor-${index}-scale`} label={t('veh.scale')}>
                {(control) => <input {...control} type="number" step="any" value={sensor.scale} placeholder="1" onInput={(e) => update({ scale: e.currentTarget.value })} />}
              </Field>
              <button type="button" class="link" aria-label={t('veh.removeInput', { n: index + 1 })} onClick={() => set({ sensorInputs: draft.sensorInputs.filter((_, i) => i !== index) })}>
                {t('veh.remove')}
              </button>
            </div>
          );
        })}
        <button type="button" class="secondary" onClick={() => set({ sensorInputs: [...draft.sensorInputs, { sensorID: '', input: '', scale: '' }] })}>
          {t('veh.addInput')}
        </button>
      </fieldset>
    </details>
  );
}
