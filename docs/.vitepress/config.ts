import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type DefaultTheme, type MarkdownRenderer } from 'vitepress';

/**
 * The documentation site: the pages of docs/ as they read on GitHub, built by `npm run build:docs`
 * into docs/.vitepress/dist and served by Lokator at /docs/. The home (docs/index.md) opens with
 * the README's first sections; the sidebar is docs/index.md's list, one group per reader.
 */

const docsDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const repoDir = resolve(docsDir, '..');

/** docs/index.md's `## Reader` sections and their page links, as the sidebar's groups. */
function sidebarFromIndex(): DefaultTheme.SidebarItem[] {
  const groups: { text: string; collapsed: boolean; items: DefaultTheme.SidebarItem[] }[] = [];
  for (const line of readFileSync(join(docsDir, 'index.md'), 'utf8').split('\n')) {
    const heading = /^## (.+)$/.exec(line);
    if (heading) groups.push({ text: heading[1] ?? '', collapsed: false, items: [] });
    const group = groups.at(-1);
    if (!group || line.startsWith('#')) continue;
    for (const [, text = '', target = ''] of line.matchAll(/\[([^\]]+)\]\(([^)#]+\.md)\)/g)) {
      if (!existsSync(join(docsDir, target))) continue;
      group.items.push({ text: text.charAt(0).toUpperCase() + text.slice(1), link: `/${target.replace(/\.md$/, '')}` });
    }
  }
  return groups;
}

/** GitHub's anchor for a heading, so that a link `page.md#heading` works on GitHub and in the site alike. */
function githubSlug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/**
 * Links as they read on GitHub, made to work in the site: the home's README text links (and shows
 * images) into `docs/` from the repository's root, the README itself is the home, and another file of the
 * repository (bench/README.md) is not part of the site, so its link becomes its path as text.
 */
function repositoryLinks(md: MarkdownRenderer) {
  md.core.ruler.push('repository_links', (state) => {
    const page: string = state.env.relativePath ?? '';
    for (const block of state.tokens) {
      const tokens = block.children ?? [];
      tokens.forEach((token, i) => {
        const src = token.type === 'image' ? token.attrGet('src') : null;
        if (page === 'index.md' && src?.startsWith('docs/')) return token.attrSet('src', `./${src.slice('docs/'.length)}`);
        const href = token.type === 'link_open' ? token.attrGet('href') : null;
        if (!href || /^[a-z][a-z0-9+.-]*:|^[#/]/i.test(href)) return;
        if (page === 'index.md' && href.startsWith('docs/')) return token.attrSet('href', href.slice('docs/'.length));
        const [path = '', hash] = href.split('#');
        const fromPage = resolve(docsDir, dirname(page), decodeURIComponent(path));
        // The home's README text names the repository's other files from the root (.env.example).
        const fromRoot = resolve(repoDir, decodeURIComponent(path));
        const target = page === 'index.md' && !existsSync(fromPage) && existsSync(fromRoot) ? fromRoot : fromPage;
        if (!relative(docsDir, target).startsWith('..')) return;
        if (target === join(repoDir, 'README.md')) return token.attrSet('href', `/#${hash ?? 'start'}`);
        const close = tokens.findIndex((t, j) => j > i && t.type === 'link_close');
        const open = new state.Token('html_inline', '', 0);
        open.content = `<span title="${relative(repoDir, target)} in the repository">`;
        const end = new state.Token('html_inline', '', 0);
        end.content = '</span>';
        tokens.splice(i, 1, open);
        tokens.splice(close, 1, end);
      });
    }
  });
}

export default defineConfig({
  title: 'Lokator',
  description: 'Self-hosted tracking of field employees and vehicles: the documentation.',
  lang: 'en',
  base: '/docs/',
  cleanUrls: false,
  lastUpdated: false,
  // No favicon request (the workspace does the same); the pages load nothing from elsewhere.
  head: [['link', { rel: 'icon', href: 'data:,' }]],
  markdown: { config: repositoryLinks, anchor: { slugify: githubSlug }, headers: { slugify: githubSlug } },
  transformPageData(pageData) {
    if (pageData.relativePath !== 'index.md') return;
    pageData.frontmatter.layout = 'home';
    pageData.frontmatter.hero = {
      name: 'Lokator',
      text: 'Tracking field employees and vehicles, on your own server',
      tagline: 'Phones, trackers and integrators in; tracks, events, geozones, reports and webhooks out.',
      actions: [
        { theme: 'brand', text: 'Start', link: '/#start' },
        { theme: 'alt', text: 'API reference', link: '/api-reference.html', target: '_self' },
      ],
    };
  },
  themeConfig: {
    nav: [
      { text: 'Home', link: '/' },
      { text: 'Coordinators', link: '/coordinators/workspace' },
      { text: 'Integrators', link: '/integrators/api' },
      { text: 'Operators', link: '/operators/configuration' },
      { text: 'Developers', link: '/developers/architecture' },
      { text: 'Performance', link: '/performance' },
      // The server's own rendering of its OpenAPI document, outside this site: see public/api-reference.html.
      { text: 'API reference', link: '/api-reference.html', target: '_self' },
    ],
    sidebar: sidebarFromIndex(),
    search: { provider: 'local' },
    outline: { level: [2, 3] },
  },
});
