import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package version, for the OpenAPI document and the logs; read from package.json (src/ or dist/src/). */
function readVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 4; i++) {
    const candidate = join(dir, 'package.json');
    if (existsSync(candidate)) return (JSON.parse(readFileSync(candidate, 'utf8')) as { version: string }).version;
    dir = dirname(dir);
  }
  return '0.0.0';
}

export const version = readVersion();
