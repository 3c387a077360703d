/**
 * The PostGIS reference of the zone benchmark: the same zones as `geometry(Polygon, 4326)` under a
 * GiST index, asked the same question with `ST_Covers` (a point on the boundary is covered, as in
 * Lokator's index) on a throwaway cluster or the server DATABASE_URL names.
 */
import pg from 'pg';
import { createPostgresDatabase, type Cleanup } from './common.js';
import type { BenchZone } from './zone-generator.js';

export interface PostgisZones {
  where: string;
  client: pg.Client;
  url: string;
}

/** A database with PostGIS and the zones loaded, indexed and analysed. */
export async function loadPostgis(zones: BenchZone[], cleanup: Cleanup): Promise<PostgisZones> {
  const { url, onThrowawayCluster } = await createPostgresDatabase('lokator_zones_bench', cleanup);
  const where = onThrowawayCluster ? 'throwaway local cluster' : 'DATABASE_URL';
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  cleanup.add(() => client.end());

  try {
    await client.query('CREATE EXTENSION postgis');
  } catch (error) {
    throw new Error('PostGIS is not installed for this PostgreSQL (Debian: postgresql-15-postgis-3)', { cause: error });
  }
  await client.query('CREATE TABLE zones (id integer PRIMARY KEY, geom geometry(Polygon, 4326) NOT NULL)');
  for (let i = 0; i < zones.length; i += 200) {
    const chunk = zones.slice(i, i + 200);
    await client.query('INSERT INTO zones SELECT id, ST_GeomFromText(wkt, 4326) FROM unnest($1::int[], $2::text[]) AS t(id, wkt)', [
      chunk.map((z) => z.zoneID),
      chunk.map((z) => wkt(z.ring)),
    ]);
  }
  await client.query('CREATE INDEX zones_geom ON zones USING GIST (geom)');
  await client.query('ANALYZE zones');
  return { where, client, url };
}

function wkt(ring: [number, number][]): string {
  const points = [...ring, ring[0]!].map(([lon, lat]) => `${lon} ${lat}`).join(',');
  return `POLYGON((${points}))`;
}

/** One set-based query over many points: what PostGIS does with no round trip per point. Returns ids per point. */
export async function coveringZonesInOneQuery(client: pg.Client, points: { latitude: number; longitude: number }[]): Promise<number[][]> {
  const { rows } = await client.query<{ i: number; id: number }>(
    `SELECT p.i::int AS i, z.id
       FROM unnest($1::float8[], $2::float8[]) WITH ORDINALITY AS p(lon, lat, i)
       JOIN zones z ON ST_Covers(z.geom, ST_SetSRID(ST_MakePoint(p.lon, p.lat), 4326))
      ORDER BY p.i, z.id`,
    [points.map((p) => p.longitude), points.map((p) => p.latitude)],
  );
  const found: number[][] = points.map(() => []);
  for (const row of rows) found[row.i - 1]!.push(row.id);
  return found;
}

/** One prepared query per point, as a service asking PostGIS per fix would, over `connections` connections. */
export async function coveringZonesPerQuery(url: string, points: { latitude: number; longitude: number }[], connections: number): Promise<number> {
  const clients = await Promise.all(
    Array.from({ length: connections }, async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      return client;
    }),
  );
  let next = 0;
  let hits = 0;
  const text = 'SELECT id FROM zones WHERE ST_Covers(geom, ST_SetSRID(ST_MakePoint($1, $2), 4326)) ORDER BY id';
  try {
    await Promise.all(
      clients.map(async (client) => {
        while (next < points.length) {
          const p = points[next++]!;
          const { rows } = await client.query({ name: 'covering-zones', text, values: [p.longitude, p.latitude] });
          hits += rows.length;
        }
      }),
    );
  } finally {
    await Promise.all(clients.map((c) => c.end()));
  }
  return hits;
}
