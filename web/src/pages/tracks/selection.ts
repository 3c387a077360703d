/** What the user picked in a table or on the map: it is highlighted and zoomed to. */
export interface Selection {
  kind: 'track' | 'stop' | 'event';
  index: number;
}

export const isSelected = (selection: Selection | null, kind: Selection['kind'], index: number) =>
  selection?.kind === kind && selection.index === index;
