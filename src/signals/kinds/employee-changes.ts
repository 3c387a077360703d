import { Type } from 'typebox';
import { changedLine, entityLabel, isObject, metaLine } from './change-lines.js';
import { defineChangeFeed } from './rule-kind.js';

/** Employee changes (6.5): every employee added, changed or deleted, as arrays of change elements. */
export const employeeChanges = defineChangeFeed({
  kind: 'employeeChanges',
  summary: 'employeeChanges',
  parameters: Type.Object({}, { additionalProperties: false }),
  feed: 'employee',
  entityTypeId: 2,
  entityKey: 'subscriber',
  message: {
    lines(element, words, at) {
      const meta = isObject(element.signalMetadataInfo) ? element.signalMetadataInfo : {};
      const subscriber = isObject(element.subscriber) ? element.subscriber : {};
      const label = entityLabel(subscriber.name, subscriber.subscriberID ?? meta.entityID, words);
      const change = Number(meta.signalTypeID);
      const headline = change === 1 ? words.employeeAdded(label) : change === 3 ? words.employeeDeleted(label) : words.employeeChanged(label);
      return [headline, ...changedLine(isObject(element.changedValues) ? element.changedValues : {}, words), ...metaLine(meta, at, words)];
    },
  },
  workspace: { label: 'rules.kindEmployees' },
});
