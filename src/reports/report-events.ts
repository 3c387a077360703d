/** Interface 2.3 types the reports read. */
export const EVENT = { filling: 1, drain: 2, speeding: 4, prolongedSpeeding: 5 } as const;
