import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { api } from '../../api';
import type { Point } from '../../map/place-picker';
import type { MapObject } from '../../types';
import { ConfirmStep, useConfirmStep } from '../../ui/confirm';
import { Field } from '../../ui/field';
import { formErrors, NO_ERRORS, type FormErrors } from '../../ui/form-errors';
import { ErrorAlert } from '../../ui/messages';
import { t } from '../../i18n/i18n';

export const MAP_OBJECTS = '/v6/api/mapObjectManagement/mapObjects';

const FIELDS = ['name', 'address', 'latitude', 'longitude', 'externalID', 'comment'];

interface Props {
  /** null: a new object, placed by a click on the map or typed coordinates. */
  object: MapObject | null;
  /** The point clicked on the map for it, if any. */
  picked: Point | null;
  /** Typed coordinates move the draft on the map. */
  onPoint: (point: Point | null) => void;
  onSaved: (object: MapObject, message: string) => Promise<void>;
  onDeleted: (message: string) => Promise<void>;
  onClose: () => void;
}

const coordinate = (value: number | undefined) => (value === undefined ? '' : String(value));

/** A map object's form (CONTRACT §3): name, address, point, external id and comment; deleting it. */
export function MapObjectForm({ object, picked, onPoint, onSaved, onDeleted, onClose }: Props) {
  const [name, setName] = useState(object?.name ?? '');
  const [address, setAddress] = useState(object?.address ?? '');
  const [latitude, setLatitude] = useState(coordinate(object?.latitude));
  const [longitude, setLongitude] = useState(coordinate(object?.longitude));
  const [externalID, setExternalID] = useState(object?.externalID ?? '');
  const [comment, setComment] = useState(object?.comment ?? '');
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  const [busy, setBusy] = useState(false);
  const deleting = useConfirmStep();
  const heading = useRef<HTMLHeadingElement>(null);

  useLayoutEffect(() => heading.current?.focus(), []);
  // A click on the map fills the point in.
  useEffect(() => {
    if (!picked) return;
    setLatitude(String(picked.latitude));
    setLongitude(String(picked.longitude));
  }, [picked]);

  const typed = (lat: string, lon: string) => {
    const point = { latitude: Number(lat), longitude: Number(lon) };
    const valid = lat.trim() !== '' && lon.trim() !== '' && Math.abs(point.latitude) <= 90 && Math.abs(point.longitude) <= 180;
    onPoint(valid ? point : null);
  };

  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setErrors(NO_ERRORS);
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
      if (latitude.trim() === '' || longitude.trim() === '') {
        setErrors({ fields: { latitude: t('objects.pointNeeded') }, message: '' });
        return;
      }
      const body = {
        name: name.trim(),
        address: address.trim(),
        latitude: Number(latitude),
        longitude: Number(longitude),
        externalID: externalID.trim() === '' ? null : externalID.trim(),
        comment,
      };
      if (object) {
        await api.put(`${MAP_OBJECTS}/${object.mapObjectID}`, body);
        await onSaved({ ...object, ...body }, t('objects.saved', { name: body.name }));
      } else {
        const created = await api.post<MapObject>(MAP_OBJECTS, body);
        await onSaved(created, t('objects.added', { name: created.name }));
      }
    });
  };

  const remove = () =>
    run(async () => {
      if (!object) return;
      await api.delete(`${MAP_OBJECTS}/${object.mapObjectID}`);
      await onDeleted(t('objects.deleted', { name: object.name }));
    }).finally(deleting.end);

  const f = errors.fields;
  return (
    <div class="side-panel" role="region" aria-labelledby="map-object-form-title">
      <h2 id="map-object-form-title" tabIndex={-1} ref={heading}>
        {object ? t('objects.titleOf', { name: object.name }) : t('objects.new')}
      </h2>
      {!object && <p class="hint">{t('objects.pointNeeded')}</p>}
      <form onSubmit={save} noValidate aria-labelledby="map-object-form-title">
        <Field id="map-object-name" label={t('objects.name')} error={f.name}>
          {(control) => <input {...control} value={name} aria-required="true" maxLength={200} autocomplete="off" onInput={(e) => setName(e.currentTarget.value)} />}
        </Field>
        <Field id="map-object-address" label={t('objects.address')} error={f.address}>
          {(control) => <input {...control} value={address} maxLength={1000} onInput={(e) => setAddress(e.currentTarget.value)} />}
        </Field>
        <div class="field-grid">
          <Field id="map-object-latitude" label={t('objects.latitude')} error={f.latitude}>
            {(control) => (
              <input
                {...control}
                type="number"
                step="any"
                inputMode="decimal"
                value={latitude}
                onInput={(e) => {
                  setLatitude(e.currentTarget.value);
                  typed(e.currentTarget.value, longitude);
                }}
              />
            )}
          </Field>
          <Field id="map-object-longitude" label={t('objects.longitude')} error={f.longitude}>
            {(control) => (
              <input
                {...control}
                type="number"
                step="any"
                inputMode="decimal"
                value={longitude}
                onInput={(e) => {
                  setLongitude(e.currentTarget.value);
                  typed(latitude, e.currentTarget.value);
                }}
              />
            )}
          </Field>
        </div>
        <Field id="map-object-externalID" label={t('objects.externalId')} error={f.externalID}>
          {(control) => <input {...control} value={externalID} maxLength={200} autocomplete="off" onInput={(e) => setExternalID(e.currentTarget.value)} />}
        </Field>
        <Field id="map-object-comment" label={t('objects.comment')} error={f.comment}>
          {(control) => <textarea {...control} rows={2} value={comment} onInput={(e) => setComment(e.currentTarget.value)} />}
        </Field>
        <ErrorAlert message={errors.message} />
        <div class="actions">
          <button type="submit" disabled={busy}>
            {object ? t('objects.save') : t('objects.add')}
          </button>
          <button type="button" class="secondary" onClick={onClose}>
            {object ? t('objects.close') : t('common.cancel')}
          </button>
        </div>
      </form>
      {object &&
        (deleting.asking ? (
          <ConfirmStep
            question={t('objects.confirmDelete', { name: object.name })}
            confirm={t('objects.yesDelete')}
            cancel={t('objects.keep')}
            focus="confirm"
            busy={busy}
            onConfirm={() => void remove()}
            onCancel={deleting.cancel}
          />
        ) : (
          <div class="actions">
            <button type="button" class="danger" ref={deleting.askButton} onClick={deleting.ask}>
              {t('objects.delete')}
            </button>
          </div>
        ))}
    </div>
  );
}
