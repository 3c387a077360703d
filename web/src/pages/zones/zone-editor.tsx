import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { api } from '../../api';
import { zoneColor } from '../../map/base-map';
import type { Zone, ZoneGroup } from '../../types';
import { formatCoordinates, parseCoordinates, type Bounds } from './coordinates';
import { ConfirmStep, useConfirmStep } from '../../ui/confirm';
import { Field, FieldError, fieldAria } from '../../ui/field';
import { ErrorAlert } from '../../ui/messages';
import { formErrors, NO_ERRORS, type FormErrors } from '../../ui/form-errors';
import { ShapeTools, type ShapeMode } from './shape-tools';
import type { ZoneMap } from './zone-map';
import { t } from '../../i18n/i18n';

export const ZONES = '/v6/api/zoneManagement/zones';

/** The fields the form shows; any other validation key goes into the form's message. */
const FIELDS = ['name', 'zoneGroupID', 'color', 'comment', 'enabled', 'bounds'];

interface Props {
  /** The zone to edit; null for a new zone, whose outline is the map's draft. */
  zone: Zone | null;
  groups: ZoneGroup[];
  zoneMap: ZoneMap;
  /** A new zone typed as coordinates: the textarea is open and has the focus. */
  startWithCoordinates?: boolean;
  onSaved: (zoneID: number, message: string) => Promise<void>;
  onDeleted: (message: string) => Promise<void>;
  onClose: () => void;
}

/** The form of one zone (or a new one): its fields, its shape, and deleting it. */
export function ZoneEditor({ zone, groups, zoneMap, startWithCoordinates = false, onSaved, onDeleted, onClose }: Props) {
  const [name, setName] = useState(zone?.name ?? '');
  const [groupID, setGroupID] = useState(zone?.zoneGroupID != null ? String(zone.zoneGroupID) : '');
  const [colour, setColour] = useState(zoneColor(zone?.color));
  const [comment, setComment] = useState(zone?.comment ?? '');
  const [enabled, setEnabled] = useState(zone?.enabled ?? true);
  const [shapeMode, setShapeMode] = useState<ShapeMode>(startWithCoordinates ? 'coordinates' : 'view');
  const [coordinates, setCoordinates] = useState(zone ? formatCoordinates(zone.bounds) : '');
  const [draftCorners, setDraftCorners] = useState(() => zoneMap.draftBounds()?.length ?? 0);
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  const [busy, setBusy] = useState(false);
  const deleting = useConfirmStep();
  const heading = useRef<HTMLHeadingElement>(null);
  const nameInput = useRef<HTMLInputElement>(null);

  // Focus moves in the render's own task (a layout effect), so a key pressed at once reaches the
  // control it was pressed on, not the heading that took the focus a frame later.
  useLayoutEffect(() => {
    if (startWithCoordinates) document.getElementById('zone-bounds')?.focus();
    else if (zone) heading.current?.focus();
    else nameInput.current?.focus();
  }, []);

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

  /** The outline typed in the textarea, or an error shown under it. */
  const typedBounds = (): Bounds | null => {
    const parsed = parseCoordinates(coordinates);
    if ('error' in parsed) {
      setErrors({ fields: { bounds: parsed.error }, message: '' });
      return null;
    }
    return parsed.bounds;
  };

  const fields = () => ({
    name: name.trim(),
    zoneGroupID: groupID === '' ? null : Number(groupID),
    // An unchanged colour keeps the stored integer, which may carry an alpha byte.
    color: zone && typeof zone.color === 'number' && colour === zoneColor(zone.color) ? zone.color : parseInt(colour.slice(1), 16),
    comment,
    enabled,
  });

  const save = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      // Corners being dragged or typed are part of the save.
      let bounds = shapeMode === 'vertices' ? (zone ? zoneMap.editedBounds() : zoneMap.draftBounds()) : null;
      if (shapeMode === 'coordinates' && (coordinates.trim() !== '' || !zone)) {
        bounds = typedBounds();
        if (!bounds) return;
      }
      if (zone) {
        await api.patch(`${ZONES}/${zone.zoneID}`, { ...fields(), ...(bounds ? { bounds } : {}) });
        zoneMap.stopEditing(true);
        setShapeMode('view');
        await onSaved(zone.zoneID, t('zones.saved', { name: name.trim() }));
        return;
      }
      bounds ??= zoneMap.draftBounds();
      if (!bounds) {
        setErrors({ fields: { bounds: t('zones.drawFirst') }, message: '' });
        return;
      }
      const created = await api.post<Zone>(ZONES, { ...fields(), bounds });
      await onSaved(created.zoneID, t('zones.created', { name: created.name }));
    });
  };

  const editVertices = () => {
    setErrors(NO_ERRORS);
    if (zoneMap.editVertices(zone ? zone.zoneID : 'draft')) setShapeMode('vertices');
    else setErrors({ fields: { bounds: t('zones.noShape') }, message: '' });
  };

  const saveShape = () =>
    run(async () => {
      const bounds = zoneMap.editedBounds();
      if (!zone || !bounds) return;
      await api.patch(`${ZONES}/${zone.zoneID}`, { bounds });
      zoneMap.stopEditing(true);
      setShapeMode('view');
      await onSaved(zone.zoneID, t('zones.shapeSaved', { name: zone.name }));
    });

  const cancelShape = () => {
    zoneMap.stopEditing(false);
    setErrors(NO_ERRORS);
    setShapeMode('view');
  };

  const finishDraftEdit = () => {
    zoneMap.stopEditing(true);
    setDraftCorners(zoneMap.draftBounds()?.length ?? 0);
    setShapeMode('view');
  };

  const openCoordinates = () => {
    zoneMap.stopEditing(false);
    const current = zone ? zone.bounds : zoneMap.draftBounds();
    if (current) setCoordinates(formatCoordinates(current));
    setErrors(NO_ERRORS);
    setShapeMode('coordinates');
  };

  const applyCoordinates = () =>
    run(async () => {
      const bounds = typedBounds();
      if (!bounds) return;
      if (zone) {
        await api.patch(`${ZONES}/${zone.zoneID}`, { bounds });
        setShapeMode('view');
        await onSaved(zone.zoneID, t('zones.shapeSaved', { name: zone.name }));
      } else {
        zoneMap.showDraft(bounds);
        setDraftCorners(bounds.length);
        setShapeMode('view');
      }
    });

  const remove = () =>
    run(async () => {
      if (!zone) return;
      await api.delete(`${ZONES}/${zone.zoneID}`);
      await onDeleted(t('zones.deleted', { name: zone.name }));
    }).finally(deleting.end);

  const title = zone ? t('zones.titleOf', { name: zone.name }) : t('zones.new');
  const f = errors.fields;
  return (
    <div class="zone-panel" role="region" aria-labelledby="zone-editor-title">
      <h2 id="zone-editor-title" tabIndex={-1} ref={heading}>
        {title}
      </h2>
      <form onSubmit={save} aria-labelledby="zone-editor-title" noValidate>
        <Field id="zone-name" label={t('zones.name')} error={f.name}>
          {(control) => <input {...control} ref={nameInput} value={name} aria-required="true" maxLength={200} onInput={(e) => setName(e.currentTarget.value)} />}
        </Field>
        <Field id="zone-group" label={t('zones.group')} error={f.zoneGroupID}>
          {(control) => (
            <select {...control} value={groupID} onChange={(e) => setGroupID(e.currentTarget.value)}>
              <option value="">{t('zones.noGroup')}</option>
              {groups.map((g) => (
                <option key={g.zoneGroupID} value={String(g.zoneGroupID)}>
                  {g.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field id="zone-color" label={t('zones.colour')} error={f.color}>
          {(control) => <input {...control} type="color" value={colour} onInput={(e) => setColour(e.currentTarget.value)} />}
        </Field>
        <Field id="zone-comment" label={t('zones.comment')} error={f.comment}>
          {(control) => <textarea {...control} rows={2} value={comment} onInput={(e) => setComment(e.currentTarget.value)} />}
        </Field>
        <label class="inline">
          <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.currentTarget.checked)} {...fieldAria('zone-enabled', f.enabled)} />
          {t('zones.enabled')}
        </label>
        <FieldError id="zone-enabled" message={f.enabled} />

        <ShapeTools
          isNew={!zone}
          corners={zone ? zone.bounds.length : draftCorners}
          mode={shapeMode}
          coordinates={coordinates}
          error={f.bounds}
          busy={busy}
          onCoordinates={setCoordinates}
          onEditVertices={editVertices}
          onSaveShape={saveShape}
          onCancelShape={cancelShape}
          onFinishDraftEdit={finishDraftEdit}
          onOpenCoordinates={openCoordinates}
          onApplyCoordinates={applyCoordinates}
        />

        <ErrorAlert message={errors.message} />
        <div class="actions">
          <button type="submit" disabled={busy}>
            {t('zones.save')}
          </button>
          <button type="button" class="secondary" onClick={onClose}>
            {zone ? t('common.close') : t('common.cancel')}
          </button>
        </div>
      </form>
      {zone &&
        (deleting.asking ? (
          // The confirming answer has the focus, so Enter deletes.
          <ConfirmStep
            question={t('zones.confirmDelete', { name: zone.name })}
            confirm={t('zones.yesDelete')}
            cancel={t('zones.keep')}
            focus="confirm"
            busy={busy}
            onConfirm={remove}
            onCancel={deleting.cancel}
          />
        ) : (
          <button type="button" class="danger delete-zone" ref={deleting.askButton} onClick={deleting.ask}>
            {t('zones.delete')}
          </button>
        ))}
    </div>
  );
}
