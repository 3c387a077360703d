import type { InputHTMLAttributes } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { api } from '../../api';
import type { Point } from '../../map/place-picker';
import type { Employee, MapObject, Task } from '../../types';
import { Field } from '../../ui/field';
import { formErrors, NO_ERRORS, type FormErrors } from '../../ui/form-errors';
import { ErrorAlert } from '../../ui/messages';
import { TASKS } from './task-model';
import { t } from '../../i18n/i18n';

const FIELDS = ['title', 'startDate', 'deadline', 'subscriberID', 'address', 'latitude', 'longitude', 'mapObjectID', 'description', 'clientName', 'clientPhone', 'priority'];

interface Props {
  day: string;
  employees: Employee[];
  mapObjects: MapObject[];
  /** The point clicked on the map for it, if any. */
  picked: Point | null;
  /** The task's point as typed or taken from a map object: the map shows it. */
  onPoint: (point: Point | null) => void;
  onCreated: (task: Task) => Promise<void>;
  onClose: () => void;
}

/**
 * A new task (interface 2.8): placed by a click on the map, or at a map object (its address and
 * point), or at typed coordinates; assigned now or later.
 */
export function TaskForm({ day, employees, mapObjects, picked, onPoint, onCreated, onClose }: Props) {
  const [title, setTitle] = useState('');
  const [startDate, setStartDate] = useState(`${day}T09:00`);
  const [deadline, setDeadline] = useState('');
  const [assignee, setAssignee] = useState('');
  const [mapObjectID, setMapObjectID] = useState('');
  const [address, setAddress] = useState('');
  const [latitude, setLatitude] = useState('');
  const [longitude, setLongitude] = useState('');
  const [description, setDescription] = useState('');
  const [clientName, setClientName] = useState('');
  const [clientPhone, setClientPhone] = useState('');
  const [priority, setPriority] = useState('0');
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  const [busy, setBusy] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);

  useLayoutEffect(() => heading.current?.focus(), []);
  useEffect(() => {
    if (!picked) return;
    setLatitude(String(picked.latitude));
    setLongitude(String(picked.longitude));
    setMapObjectID('');
  }, [picked]);

  const typed = (lat: string, lon: string) => {
    const valid = lat.trim() !== '' && lon.trim() !== '' && Math.abs(Number(lat)) <= 90 && Math.abs(Number(lon)) <= 180;
    onPoint(valid ? { latitude: Number(lat), longitude: Number(lon) } : null);
  };

  const chooseObject = (id: string) => {
    setMapObjectID(id);
    const object = mapObjects.find((o) => String(o.mapObjectID) === id);
    if (!object) return;
    setAddress(object.address || object.name);
    setLatitude(String(object.latitude));
    setLongitude(String(object.longitude));
    onPoint({ latitude: object.latitude, longitude: object.longitude });
  };

  const save = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setErrors(NO_ERRORS);
    try {
      const point = latitude.trim() !== '' && longitude.trim() !== '' ? { latitude: Number(latitude), longitude: Number(longitude) } : {};
      const created = await api.post<Task>(TASKS, {
        title: title.trim(),
        startDate: startDate || null,
        deadline: deadline || null,
        subscriberID: assignee === '' ? null : Number(assignee),
        mapObjectID: mapObjectID === '' ? null : Number(mapObjectID),
        address: address.trim(),
        description,
        clientName: clientName.trim(),
        clientPhone: clientPhone.trim(),
        priority: Number(priority),
        ...point,
      });
      await onCreated(created);
    } catch (error) {
      setErrors(formErrors(error, FIELDS));
    } finally {
      setBusy(false);
    }
  };

  const f = errors.fields;
  const text = (id: string, label: string, value: string, set: (v: string) => void, error: string | undefined, type: 'text' | 'number' | 'tel' | 'datetime-local' = 'text') => (
    <Field id={`task-${id}`} label={label} error={error}>
      {(control) => (
        // Preact's types tell inputs apart by a literal `type`; this one is chosen at run time.
        <input {...({ ...control, type, step: type === 'number' ? 'any' : undefined, value } as InputHTMLAttributes)} onInput={(e) => set(e.currentTarget.value)} />
      )}
    </Field>
  );
  return (
    <div class="side-panel" role="region" aria-labelledby="task-form-title">
      <h2 id="task-form-title" tabIndex={-1} ref={heading}>
        {t('tasks.new')}
      </h2>
      <p class="hint">{t('tasks.formHint')}</p>
      <form onSubmit={(e) => void save(e)} noValidate aria-labelledby="task-form-title">
        <Field id="task-title" label={t('tasks.titleField')} error={f.title}>
          {(control) => <input {...control} value={title} aria-required="true" maxLength={500} autocomplete="off" onInput={(e) => setTitle(e.currentTarget.value)} />}
        </Field>
        <div class="field-grid">
          {text('startDate', t('tasks.start'), startDate, setStartDate, f.startDate, 'datetime-local')}
          {text('deadline', t('tasks.deadline'), deadline, setDeadline, f.deadline, 'datetime-local')}
        </div>
        <Field id="task-assignee" label={t('tasks.assignee')} error={f.subscriberID}>
          {(control) => (
            <select {...control} value={assignee} onChange={(e) => setAssignee(e.currentTarget.value)}>
              <option value="">{t('tasks.notAssigned')}</option>
              {employees.map((e) => (
                <option key={e.subscriberID} value={String(e.subscriberID)}>
                  {e.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field id="task-mapObject" label={t('tasks.atObject')} error={f.mapObjectID}>
          {(control) => (
            <select {...control} value={mapObjectID} onChange={(e) => chooseObject(e.currentTarget.value)}>
              <option value="">{t('tasks.noObject')}</option>
              {mapObjects.map((o) => (
                <option key={o.mapObjectID} value={String(o.mapObjectID)}>
                  {o.address ? `${o.name}, ${o.address}` : o.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        {text('address', t('tasks.address'), address, setAddress, f.address)}
        <div class="field-grid">
          {text('latitude', t('tasks.latitude'), latitude, (v) => (setLatitude(v), typed(v, longitude)), f.latitude, 'number')}
          {text('longitude', t('tasks.longitude'), longitude, (v) => (setLongitude(v), typed(latitude, v)), f.longitude, 'number')}
        </div>
        <details>
          <summary>{t('tasks.details')}</summary>
          {text('clientName', t('tasks.clientName'), clientName, setClientName, f.clientName)}
          {text('clientPhone', t('tasks.clientPhone'), clientPhone, setClientPhone, f.clientPhone, 'tel')}
          <Field id="task-priority" label={t('tasks.priority')} error={f.priority}>
            {(control) => (
              <select {...control} value={priority} onChange={(e) => setPriority(e.currentTarget.value)}>
                <option value="0">{t('tasks.low')}</option>
                <option value="1">{t('tasks.medium')}</option>
                <option value="2">{t('tasks.high')}</option>
              </select>
            )}
          </Field>
          <Field id="task-description" label={t('tasks.description')} error={f.description}>
            {(control) => <textarea {...control} rows={3} value={description} onInput={(e) => setDescription(e.currentTarget.value)} />}
          </Field>
        </details>
        <ErrorAlert message={errors.message} />
        <div class="actions">
          <button type="submit" disabled={busy}>
            {t('tasks.create')}
          </button>
          <button type="button" class="secondary" onClick={onClose}>
            {t('common.cancel')}
          </button>
        </div>
      </form>
    </div>
  );
}
