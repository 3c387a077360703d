/** Which module owns each table. */
export const tableOwners: Record<string, string[]>;
/** Every use of a table outside its owning module under `root`/src, as `file:line: …`. */
export function foreignTableUses(root: string): string[];
