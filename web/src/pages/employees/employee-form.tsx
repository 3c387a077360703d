import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { api, describe, type DeviceConnection } from '../../api';
import { navigate } from '../../router';
import type { CreatedEmployee, Employee, SubscriberGroup } from '../../types';
import { ConfirmStep, useConfirmStep } from '../../ui/confirm';
import { Field } from '../../ui/field';
import { formErrors, NO_ERRORS, type FormErrors } from '../../ui/form-errors';
import { ErrorAlert, LoadFailure, StatusLine } from '../../ui/messages';
import { ConnectionSettings, PHONE_PROTOCOL, shownDeviceOf, trackerProtocols, type NewKey } from './connection-settings';
import { carriesPassword, DeviceFields, initialKeyMode, newDeviceKey, type DeviceDraft } from './device-fields';
import { useSessionInfo } from '../../session';
import { EMPLOYEES } from './employee-table';
import { vehicleDraft, vehicleSettingsOf, type VehicleDraft } from './vehicle-model';
import { VEHICLE_FIELDS, VehicleSettingsForm } from './vehicle-settings-form';
import { t } from '../../i18n/i18n';

const FIELDS = ['name', 'kind', 'vehiclePlate', 'vehicleModel', 'phone', 'externalSubscriberID', 'subscriberGroupID', 'deviceKey', 'deviceProtocol', 'deviceType', 'devicePassword', ...VEHICLE_FIELDS];

type EmployeeKind = Employee['kind'];

interface Props {
  /** null: a new employee. */
  subscriberID: number | null;
  /** What a new employee is (the list's "New employee" or "New vehicle"). */
  newKind?: EmployeeKind;
  groups: SubscriberGroup[];
  /** A key was set: the page shows the connection settings once. */
  onKeyed: (key: NewKey) => void;
  onChanged: (message: string) => void;
}

/** `#/employees/new` and `#/employees/<id>`: an employee's fields, device and vehicle settings; deactivating and deleting. */
export function EmployeeForm({ subscriberID, newKind = 'person', groups, onKeyed, onChanged }: Props) {
  const isNew = subscriberID === null;
  const { devices } = useSessionInfo();
  const [employee, setEmployee] = useState<Employee | null>(null);
  const [loadError, setLoadError] = useState('');
  const [name, setName] = useState('');
  const [kind, setKind] = useState<EmployeeKind>(newKind);
  const [plate, setPlate] = useState('');
  const [model, setModel] = useState('');
  const [phone, setPhone] = useState('');
  const [externalID, setExternalID] = useState('');
  const [groupID, setGroupID] = useState('');
  const [device, setDevice] = useState<DeviceDraft>({ device: newKind === 'vehicle' ? 'tracker' : 'phone', protocol: trackerProtocols(devices)[0]?.protocol ?? '', keyMode: initialKeyMode(true, null), typedKey: '', password: '', removePassword: false });
  const [vehicle, setVehicle] = useState<VehicleDraft>(() => vehicleDraft(null));
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);
  const deleting = useConfirmStep();
  const heading = useRef<HTMLHeadingElement>(null);

  const fill = (e: Employee) => {
    setEmployee(e);
    setName(e.name);
    setKind(e.kind);
    setPlate(e.vehiclePlate);
    setModel(e.vehicleModel);
    setPhone(e.phone);
    setExternalID(e.externalSubscriberID ?? '');
    setGroupID(e.subscriberGroupID === null ? '' : String(e.subscriberGroupID));
    const tracker = e.deviceType === 'tracker';
    const protocol = e.deviceProtocol !== null && e.deviceProtocol !== PHONE_PROTOCOL ? e.deviceProtocol : null;
    setDevice((d) => ({ ...d, device: tracker ? 'tracker' : 'phone', protocol: protocol ?? d.protocol, keyMode: initialKeyMode(false, e.deviceKeyHint), typedKey: '', password: '', removePassword: false }));
    setVehicle(vehicleDraft(e.vehicleSettings));
  };
  const load = () => {
    if (subscriberID === null) return;
    setLoadError('');
    api
      .get<Employee>(`${EMPLOYEES}/${subscriberID}`)
      .then(fill)
      .catch((error: unknown) => setLoadError(t('emp.loadOneFailed', { reason: describe(error) })));
  };
  useEffect(load, [subscriberID]);
  useLayoutEffect(() => heading.current?.focus(), []);

  // A new vehicle reports with a tracker unless the dispatcher chose otherwise.
  const chooseKind = (next: EmployeeKind) => {
    setKind(next);
    if (next === 'vehicle' && isNew) setDevice((d) => ({ ...d, device: 'tracker', keyMode: d.keyMode === 'generate' ? 'type' : d.keyMode }));
  };

  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setErrors(NO_ERRORS);
    setStatus('');
    try {
      await action();
    } catch (error) {
      setErrors(formErrors(error, FIELDS));
    } finally {
      setBusy(false);
    }
  };

  const save = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      const key = device.keyMode === 'generate' && !isNew ? newDeviceKey() : device.keyMode === 'type' ? device.typedKey.trim() : undefined;
      const body: Record<string, unknown> = {
        name: name.trim(),
        kind,
        vehiclePlate: kind === 'vehicle' ? plate.trim() : '',
        vehicleModel: kind === 'vehicle' ? model.trim() : '',
        phone: phone.trim(),
        externalSubscriberID: externalID.trim() === '' ? null : externalID.trim(),
        subscriberGroupID: groupID === '' ? null : Number(groupID),
        vehicleSettings: vehicleSettingsOf(vehicle),
        ...(key !== undefined ? { deviceKey: key } : device.keyMode === 'none' ? { deviceKey: null } : {}),
        deviceType: device.device,
        deviceProtocol: device.device === 'tracker' ? device.protocol : null,
        ...devicePasswordChange(device, employee?.hasDevicePassword ?? false, devices),
      };
      if (isNew) {
        const created = await api.post<CreatedEmployee>(EMPLOYEES, body);
        onChanged(t('emp.added', { name: created.name }));
        if (created.deviceKey) onKeyed({ subscriberID: created.subscriberID, name: created.name, deviceKey: created.deviceKey, device: device.device, protocol: device.protocol, hasPassword: created.hasDevicePassword });
        else navigate('employees');
        return;
      }
      await api.patch(`${EMPLOYEES}/${subscriberID}`, body);
      const saved = await api.get<Employee>(`${EMPLOYEES}/${subscriberID}`);
      fill(saved);
      setStatus(t('emp.saved', { name: name.trim() }));
      onChanged(t('emp.saved', { name: name.trim() }));
      if (key) onKeyed({ subscriberID: subscriberID!, name: name.trim(), deviceKey: key, device: device.device, protocol: device.protocol, hasPassword: saved.hasDevicePassword });
    });
  };

  const setActive = (active: boolean) =>
    run(async () => {
      await api.patch(`${EMPLOYEES}/${subscriberID}`, { isActive: active });
      fill(await api.get<Employee>(`${EMPLOYEES}/${subscriberID}`));
      setStatus(active ? t('emp.reactivated', { name }) : t('emp.deactivated', { name }));
      onChanged('');
    });

  const remove = () =>
    run(async () => {
      await api.delete(`${EMPLOYEES}/${subscriberID}`);
      onChanged(t('emp.deleted', { name: employee?.name ?? name }));
      navigate('employees');
    }).finally(deleting.end);

  const f = errors.fields;
  const title = isNew ? (kind === 'vehicle' ? t('emp.newVehicle') : t('emp.new')) : t('emp.titleOf', { name: employee?.name ?? '…' });
  return (
    <section class="employee-form" aria-labelledby="employee-form-title">
      <h1 id="employee-form-title" tabIndex={-1} ref={heading}>
        {title}
      </h1>
      <p>
        <a href="#/employees">{t('emp.back')}</a>
      </p>
      <LoadFailure message={loadError} onRetry={load} />
      {!isNew && employee && !employee.isActive && <p class="muted">{t('emp.deactivatedNote')}</p>}
      <form onSubmit={save} noValidate aria-labelledby="employee-form-title">
        <div role="radiogroup" aria-label={t('emp.kind')} class="choice-row">
          <label class="inline">
            <input type="radio" name="kind" checked={kind === 'person'} onChange={() => setKind('person')} />
            {t('emp.kindPerson')}
          </label>
          <label class="inline">
            <input type="radio" name="kind" checked={kind === 'vehicle'} onChange={() => chooseKind('vehicle')} />
            {t('emp.kindVehicle')}
          </label>
        </div>
        <Field id="employee-name" label={kind === 'vehicle' ? t('emp.vehicleName') : t('emp.name')} error={f.name}>
          {(control) => <input {...control} value={name} aria-required="true" maxLength={200} autocomplete="off" onInput={(e) => setName(e.currentTarget.value)} />}
        </Field>
        {kind === 'vehicle' && (
          <div class="field-grid">
            <Field id="employee-vehiclePlate" label={t('emp.plate')} error={f.vehiclePlate}>
              {(control) => <input {...control} value={plate} maxLength={20} autocomplete="off" onInput={(e) => setPlate(e.currentTarget.value)} />}
            </Field>
            <Field id="employee-vehicleModel" label={t('emp.model')} error={f.vehicleModel}>
              {(control) => <input {...control} value={model} maxLength={100} autocomplete="off" onInput={(e) => setModel(e.currentTarget.value)} />}
            </Field>
          </div>
        )}
        <div class="field-grid">
          <Field id="employee-phone" label={t('emp.phone')} error={f.phone}>
            {(control) => <input {...control} type="tel" value={phone} maxLength={50} onInput={(e) => setPhone(e.currentTarget.value)} />}
          </Field>
          <Field id="employee-externalSubscriberID" label={t('emp.externalId')} error={f.externalSubscriberID}>
            {(control) => <input {...control} value={externalID} maxLength={200} autocomplete="off" onInput={(e) => setExternalID(e.currentTarget.value)} />}
          </Field>
          <Field id="employee-group" label={t('emp.group')} error={f.subscriberGroupID}>
            {(control) => (
              <select {...control} value={groupID} onChange={(e) => setGroupID(e.currentTarget.value)}>
                <option value="">{t('emp.noGroup')}</option>
                {groups.map((g) => (
                  <option key={g.subscriberGroupID} value={String(g.subscriberGroupID)}>
                    {g.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>
        <DeviceFields
          draft={device}
          hint={employee?.deviceKeyHint ?? null}
          isNew={isNew}
          error={f.deviceKey ?? f.deviceProtocol}
          hasPassword={employee?.hasDevicePassword ?? false}
          passwordError={f.devicePassword}
          onChange={setDevice}
        />
        <VehicleSettingsForm draft={vehicle} errors={f} open={kind === 'vehicle'} onChange={setVehicle} />
        <ErrorAlert message={errors.message} />
        <StatusLine class="ok" message={status} />
        <div class="actions">
          <button type="submit" disabled={busy || (!isNew && !employee)}>
            {isNew ? t('emp.add') : t('emp.save')}
          </button>
          <a href="#/employees" class="button secondary">
            {t('common.cancel')}
          </a>
        </div>
      </form>
      {!isNew && employee && (employee.deviceKeyHint || employee.deviceStatus.lastConnectionDate) && <ConnectionSettings shown={shownDeviceOf(employee)} />}
      {!isNew && employee && (
        <div class="actions danger-zone">
          <button type="button" class="secondary" disabled={busy} onClick={() => void setActive(!employee.isActive)}>
            {employee.isActive ? t('emp.deactivate') : t('emp.reactivate')}
          </button>
          {deleting.asking ? (
            <ConfirmStep
              question={t('emp.confirmDelete', { name: employee.name })}
              confirm={t('emp.yesDelete')}
              cancel={t('emp.keep')}
              busy={busy}
              onConfirm={() => void remove()}
              onCancel={deleting.cancel}
            />
          ) : (
            <button type="button" class="danger" ref={deleting.askButton} onClick={deleting.ask}>
              {t('emp.delete')}
            </button>
          )}
        </div>
      )}
    </section>
  );
}

/**
 * The device password a save sends: a typed one; null to remove it (asked for, or the device
 * moves to a protocol whose login carries none); nothing to keep what is set.
 */
function devicePasswordChange(device: DeviceDraft, hasPassword: boolean, devices: readonly DeviceConnection[]): { devicePassword?: string | null } {
  const carries = device.device === 'tracker' && carriesPassword(devices, device.protocol);
  if (carries && device.password !== '' && !device.removePassword) return { devicePassword: device.password };
  return hasPassword && (!carries || device.removePassword) ? { devicePassword: null } : {};
}
