import { Type } from 'typebox';
import { changedLine, entityLabel, isObject, metaLine } from './change-lines.js';
import { defineChangeFeed } from './rule-kind.js';

/** Task changes (6.4): every task added, changed or deleted, as arrays of change elements. */
export const taskChanges = defineChangeFeed({
  kind: 'taskChanges',
  summary: 'taskChanges',
  parameters: Type.Object({}, { additionalProperties: false }),
  feed: 'task',
  entityTypeId: 1,
  entityKey: 'task',
  message: {
    lines(element, words, at) {
      const meta = isObject(element.signalMetadataInfo) ? element.signalMetadataInfo : {};
      const task = isObject(element.task) ? element.task : {};
      const label = entityLabel(task.title, task.taskID ?? meta.entityID, words);
      const change = Number(meta.signalTypeID);
      const changed = isObject(element.changedValues) ? element.changedValues : {};
      const status = words.taskStatus[Number(task.status)];
      let headline: string;
      if (change === 1) headline = words.taskAdded(label);
      else if (change === 3) headline = words.taskDeleted(label);
      else if ('status' in changed && status) headline = status(label);
      else headline = words.taskChanged(label);
      return [headline, ...changedLine(changed, words), ...metaLine(meta, at, words)];
    },
  },
  workspace: { label: 'rules.kindTasks' },
});
