/** The two stores Lokator runs on: the embedded SQLite file, or PostgreSQL for scale. */
export type Dialect = 'sqlite' | 'postgres';
