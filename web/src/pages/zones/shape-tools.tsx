import { FieldError, fieldAria } from '../../ui/field';
import { t } from '../../i18n/i18n';

/** `view`: the outline as saved; `vertices`: corners draggable on the map; `coordinates`: the textarea. */
export type ShapeMode = 'view' | 'vertices' | 'coordinates';

interface Props {
  isNew: boolean;
  corners: number;
  mode: ShapeMode;
  coordinates: string;
  error: string | undefined;
  busy: boolean;
  onCoordinates: (text: string) => void;
  onEditVertices: () => void;
  onSaveShape: () => void;
  onCancelShape: () => void;
  onFinishDraftEdit: () => void;
  onOpenCoordinates: () => void;
  onApplyCoordinates: () => void;
}

/**
 * The zone's outline: dragging corners on the map, or (for keyboards, and for outlines copied from
 * elsewhere) typing them as `latitude, longitude` lines.
 */
export function ShapeTools(props: Props) {
  const { isNew, corners, mode, busy } = props;
  return (
    <fieldset class="shape-tools">
      <legend>{t('zones.shape')}</legend>
      <p class="muted" id="zone-shape-summary">
        {corners >= 3 ? t('zones.corners', { count: corners }) : isNew ? t('zones.notDrawn') : t('zones.noOutline')}
      </p>
      {mode === 'view' && (
        <div class="actions">
          <button type="button" class="secondary" onClick={props.onEditVertices} disabled={corners < 3}>
            {t('zones.editVertices')}
          </button>
          <button type="button" class="secondary" onClick={props.onOpenCoordinates}>
            {t('zones.enterCoordinates')}
          </button>
        </div>
      )}
      {mode === 'vertices' && (
        <>
          <p role="status">{t('zones.dragHint')}</p>
          <div class="actions">
            {isNew ? (
              <button type="button" onClick={props.onFinishDraftEdit}>
                {t('zones.finishEditing')}
              </button>
            ) : (
              <button type="button" onClick={props.onSaveShape} disabled={busy}>
                {t('zones.saveShape')}
              </button>
            )}
            <button type="button" class="secondary" onClick={props.onCancelShape}>
              {t('zones.cancelShape')}
            </button>
          </div>
        </>
      )}
      {mode === 'coordinates' && (
        <>
          <label for="zone-bounds">{t('zones.coordinatesLabel')}</label>
          <textarea
            id="zone-bounds"
            rows={6}
            spellcheck={false}
            placeholder={'55.7512, 37.6184\n55.7530, 37.6250\n55.7480, 37.6270'}
            value={props.coordinates}
            onInput={(e) => props.onCoordinates(e.currentTarget.value)}
            {...fieldAria('zone-bounds', props.error)}
          />
          <div class="actions">
            <button type="button" onClick={props.onApplyCoordinates} disabled={busy}>
              {isNew ? t('zones.useCoordinates') : t('zones.saveCoordinates')}
            </button>
            <button type="button" class="secondary" onClick={props.onCancelShape}>
              {t('zones.cancelCoordinates')}
            </button>
          </div>
        </>
      )}
      {/* Under the fieldset, not the textarea: a missing or uneditable shape is told in every mode. */}
      <FieldError id="zone-bounds" message={props.error} />
    </fieldset>
  );
}
