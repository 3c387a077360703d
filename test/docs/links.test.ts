import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, it } from 'node:test';

/**
 * The documentation stays whole: every relative link in README.md and docs/**.md names a file that
 * exists, and a link with an anchor names a heading of that page, as GitHub makes its anchors. The
 * built site (docs/.vitepress/dist, when `npm run build:docs` made it) is checked the same way: every
 * link and asset of its pages names one of its files, and every anchor an id of that page.
 */

const root = new URL('../..', import.meta.url).pathname;

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name.startsWith('.') ? [] : markdownFiles(path);
    return name.endsWith('.md') ? [path] : [];
  });
}

/** The text outside fenced code blocks, line by line (links and headings inside them are examples). */
function proseLines(text: string): string[] {
  let fenced = false;
  return text.split('\n').filter((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return false;
    }
    return !fenced;
  });
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function headingAnchors(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseLines(text)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const slug = (heading[1] ?? '')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** The targets of the inline links `[text](target)` in the prose, code spans left out. */
function linkTargets(text: string): string[] {
  const targets: string[] = [];
  for (const line of proseLines(text)) {
    const prose = line.replace(/`[^`]*`/g, '');
    for (const match of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) targets.push(match[1] ?? '');
  }
  return targets;
}

function brokenLinks(file: string): string[] {
  const broken: string[] = [];
  for (const target of linkTargets(readFileSync(file, 'utf8'))) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: and the like
    const hash = target.indexOf('#');
    const pathPart = hash === -1 ? target : target.slice(0, hash);
    const anchor = hash === -1 ? undefined : target.slice(hash + 1);
    const linked = pathPart === '' ? file : join(dirname(file), decodeURIComponent(pathPart));
    const where = `${relative(root, file)} → ${target}`;
    if (!existsSync(linked)) {
      broken.push(`${where}: no such file`);
      continue;
    }
    if (anchor === undefined || anchor === '') continue;
    if (!linked.endsWith('.md')) {
      broken.push(`${where}: an anchor into a file that is not Markdown`);
      continue;
    }
    if (!headingAnchors(readFileSync(linked, 'utf8')).has(decodeURIComponent(anchor))) broken.push(`${where}: no such heading`);
  }
  return broken;
}

describe('documentation links', () => {
  const files = [join(root, 'README.md'), ...markdownFiles(join(root, 'docs'))];

  it('resolve to existing files and headings', () => {
    assert.ok(files.length > 2, 'README.md and the pages of docs/ are found');
    assert.deepEqual(files.flatMap(brokenLinks), []);
  });

  it('reach every page of docs/ from docs/index.md', () => {
    const index = join(root, 'docs/index.md');
    const listed = new Set(linkTargets(readFileSync(index, 'utf8')).map((target) => join(dirname(index), target.split('#')[0] ?? '')));
    const unlisted = files.filter((file) => file.startsWith(join(root, 'docs')) && file !== index && !listed.has(file));
    assert.deepEqual(unlisted.map((file) => relative(root, file)), []);
  });

  it('leave the README a door: at most 250 lines, pointing to docs/ and the site', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    assert.ok(readme.trimEnd().split('\n').length <= 250, `README.md has ${readme.trimEnd().split('\n').length} lines`);
    assert.ok(linkTargets(readme).includes('docs/index.md'), 'README.md links to docs/index.md');
    assert.match(readme, /localhost:8080\/docs\//, 'README.md names the site Lokator serves');
  });

  it('make anchors and find links as GitHub does', () => {
    assert.deepEqual([...headingAnchors('# Lokator\n## The ingest queue (group commit)\n```\n# not a heading\n```\n## Start\n## Start\n### `DATA_DIR` and §2, 3–4\n')], [
      'lokator',
      'the-ingest-queue-group-commit',
      'start',
      'start-1',
      'data_dir-and-2-34',
    ]);
    assert.deepEqual(linkTargets('See [a](docs/a.md#x), `[b](not-a-link.md)` and [c](https://example.com).\n```\n[d](code.md)\n```\n'), [
      'docs/a.md#x',
      'https://example.com',
    ]);
  });
});

const site = join(root, 'docs/.vitepress/dist');
/** The site's base path, where Lokator serves it. */
const BASE = '/docs/';
/** Paths outside the site that its pages may link to: the server's own API reference. */
const SERVER_PATHS = new Set(['/v6/docs']);

function htmlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return htmlFiles(path);
    return name.endsWith('.html') ? [path] : [];
  });
}

/** The file of the built site a URL path names (a directory's index.html), or null outside the site. */
function siteFile(pathname: string): string | null {
  if (!pathname.startsWith(BASE)) return null;
  const path = join(site, decodeURIComponent(pathname.slice(BASE.length)));
  return pathname.endsWith('/') ? join(path, 'index.html') : path;
}

function brokenSiteLinks(file: string, ids: (file: string) => Set<string>): string[] {
  const html = readFileSync(file, 'utf8');
  const page = new URL(`http://site${BASE}${relative(site, file)}`);
  const broken: string[] = [];
  for (const match of html.matchAll(/\s(?:href|src)="([^"]*)"/g)) {
    const raw = (match[1] ?? '').replace(/&amp;/g, '&');
    if (/^[a-z][a-z0-9+.-]*:|^\/\//i.test(raw)) continue; // https:, mailto: and the like
    const url = new URL(raw, page);
    const where = `${relative(root, file)} → ${raw}`;
    if (SERVER_PATHS.has(url.pathname)) continue;
    const target = siteFile(url.pathname);
    if (!target || !existsSync(target) || statSync(target).isDirectory()) {
      broken.push(`${where}: no such file in the site`);
      continue;
    }
    const anchor = decodeURIComponent(url.hash.slice(1));
    if (anchor && target.endsWith('.html') && !ids(target).has(anchor)) broken.push(`${where}: no such id`);
  }
  return broken;
}

describe('the built documentation site', { skip: existsSync(join(site, 'index.html')) ? false : 'not built (npm run build:docs)' }, () => {
  it('links only to its own files and ids, and to the API reference', () => {
    const cache = new Map<string, Set<string>>();
    const ids = (file: string) => {
      let found = cache.get(file);
      if (!found) cache.set(file, (found = new Set([...readFileSync(file, 'utf8').matchAll(/\sid="([^"]*)"/g)].map((m) => m[1] ?? ''))));
      return found;
    };
    const pages = htmlFiles(site);
    assert.ok(pages.length > markdownFiles(join(root, 'docs')).length, 'a page per Markdown file, and the 404 page');
    assert.deepEqual(pages.flatMap((page) => brokenSiteLinks(page, ids)), []);
  });

  it('has a page for every page of docs/', () => {
    const missing = markdownFiles(join(root, 'docs'))
      .map((file) => relative(join(root, 'docs'), file).replace(/\.md$/, '.html'))
      .filter((page) => !existsSync(join(site, page)));
    assert.deepEqual(missing, []);
  });
});
