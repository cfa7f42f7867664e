import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';

/**
 * The README and docs/ must stand on their own: every relative link leads to a file of the
 * repository (and to a heading there when it names one), every repository path they name in
 * code exists, and nothing points at team material outside the repository.
 */
const ROOT = resolve(import.meta.dirname, '..', '..');
const DOCS = join(ROOT, 'docs');

const documents = [
  join(ROOT, 'README.md'),
  ...readdirSync(DOCS)
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => join(DOCS, name)),
];

/** Fenced code blocks are examples and program output: no links, and no code spans, inside. */
function withoutFences(markdown: string): string {
  return markdown.replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
}

function codeSpans(markdown: string): string[] {
  return [...withoutFences(markdown).matchAll(/(`+)([^`]+?)\1/g)].map((match) => (match[2] ?? '').trim());
}

/** Targets of inline links and images, `[text](target "title")`, and of reference definitions. */
function linkTargets(markdown: string): string[] {
  const prose = withoutFences(markdown).replace(/(`+)[^`]+?\1/g, '');
  const inline = [...prose.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => match[1] ?? '');
  const references = [...prose.matchAll(/^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((match) => match[1] ?? '');
  return [...inline, ...references];
}

/** GitHub's heading anchors: lower case, punctuation dropped, each space a hyphen, repeats numbered. */
function headingSlugs(markdown: string): Set<string> {
  const slugs = new Set<string>();
  const seen = new Map<string, number>();
  for (const match of withoutFences(markdown).matchAll(/^ {0,3}#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const text = (match[1] ?? '').replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/<[^>]+>/g, '');
    const base = text
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    slugs.add(count === 0 ? base : `${base}-${count}`);
  }
  return slugs;
}

const EXTERNAL = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i;

/** What is wrong with one link target of `file`, or undefined when it resolves. */
function checkTarget(file: string, target: string, readMarkdown: (path: string) => string = (path) => readFileSync(path, 'utf8')): string | undefined {
  if (EXTERNAL.test(target)) return undefined;
  const hash = target.indexOf('#');
  const pathPart = decodeURI(hash === -1 ? target : target.slice(0, hash));
  const anchor = hash === -1 ? undefined : decodeURIComponent(target.slice(hash + 1));
  const resolved = pathPart === '' ? file : pathPart.startsWith('/') ? join(ROOT, pathPart) : resolve(dirname(file), pathPart);
  if (!resolved.startsWith(ROOT)) return `${target}: leaves the repository`;
  if (!existsSync(resolved)) return `${target}: ${relative(ROOT, resolved)} does not exist`;
  if (anchor === undefined || anchor === '') return undefined;
  if (!resolved.endsWith('.md')) return undefined;
  if (!headingSlugs(readMarkdown(resolved)).has(anchor)) return `${target}: ${relative(ROOT, resolved)} has no heading #${anchor}`;
  return undefined;
}

/** Repository paths named in code spans, e.g. `server/config.ts` or `docs/security.md#csp`. */
const REPO_PATH =
  /^(?:(?:server|client|shared|scripts|test|deploy|docs|\.ci)\/[\w./-]*(?:#[\w-]+)?|(?:README\.md|Dockerfile|package\.json|package-lock\.json|tsconfig\.json|vitest\.config\.ts)(?:#[\w-]+)?)$/;

/** Team material outside the repository, and work-item numbers, mean nothing to a reader. */
const FORBIDDEN: ReadonlyArray<readonly [RegExp, string]> = [
  // `../shared` beside the checkout; an import of a module of the repository's own shared/
  // (`'../shared/api/route-definition.ts'` from app/) is not it.
  [/\.\.\/shared\b(?!(?:\/[\w-]+)*\/[\w-]+\.tsx?\b)/, 'a path outside the repository (../shared)'],
  [/\bSPEC\b/, 'the team specification (SPEC)'],
  [/§/, 'a section sign'],
  [/\bissues?\s*#?\d+/i, 'an issue number'],
  [/\bwork[- ]items?\s*#?\d+/i, 'a work-item number'],
];

function forbiddenMentions(markdown: string): string[] {
  const found: string[] = [];
  markdown.split('\n').forEach((line, index) => {
    for (const [pattern, what] of FORBIDDEN) if (pattern.test(line)) found.push(`line ${index + 1}: ${what}: ${line.trim()}`);
  });
  return found;
}

describe('README.md and docs/', () => {
  test('there is documentation to check', () => {
    expect(documents.map((file) => relative(ROOT, file))).toEqual(expect.arrayContaining(['README.md', 'docs/status-pages.md', 'docs/deployment.md']));
  });

  test.each(documents.map((file) => [relative(ROOT, file), file] as const))('%s: every relative link resolves, anchors included', (_name, file) => {
    const broken = linkTargets(readFileSync(file, 'utf8'))
      .map((target) => checkTarget(file, target))
      .filter((problem) => problem !== undefined);
    expect(broken).toEqual([]);
  });

  test.each(documents.map((file) => [relative(ROOT, file), file] as const))('%s: every repository path named in code exists', (_name, file) => {
    const missing = codeSpans(readFileSync(file, 'utf8'))
      .filter((span) => REPO_PATH.test(span))
      .map((span) => checkTarget(join(ROOT, 'README.md'), `/${span}`))
      .filter((problem) => problem !== undefined);
    expect(missing).toEqual([]);
  });

  test.each(documents.map((file) => [relative(ROOT, file), file] as const))('%s: mentions no outside specification or issue number', (_name, file) => {
    expect(forbiddenMentions(readFileSync(file, 'utf8'))).toEqual([]);
  });
});

describe('the checks themselves', () => {
  const readme = join(ROOT, 'README.md');
  const page = ['# Title', '', '## Health, shutdown and exit codes', '', '## `COMPRESSION` off', '## Repeat', '## Repeat'].join('\n');

  test('find links outside code, not inside it', () => {
    const markdown = ['See [a](docs/a.md) and ![b](b.png "t").', '`[c](c.md)`', '```', '[d](d.md)', '```', '[e]: docs/e.md'].join('\n');
    expect(linkTargets(markdown)).toEqual(['docs/a.md', 'b.png', 'docs/e.md']);
  });

  test('make anchors as GitHub does', () => {
    expect([...headingSlugs(page)]).toEqual(['title', 'health-shutdown-and-exit-codes', 'compression-off', 'repeat', 'repeat-1']);
  });

  test('report a missing file, a missing heading and a path that leaves the repository', () => {
    expect(checkTarget(readme, 'docs/no-such-page.md')).toContain('does not exist');
    expect(checkTarget(readme, 'docs/deployment.md#no-such-heading', () => page)).toContain('has no heading #no-such-heading');
    // Spelt in pieces, so that this file itself names nothing outside the repository.
    expect(checkTarget(readme, ['..', 'shared', 'SPEC.md'].join('/'))).toBeDefined();
    expect(checkTarget(readme, 'docs/deployment.md#health-shutdown-and-exit-codes', () => page)).toBeUndefined();
    expect(checkTarget(readme, 'https://example.com/missing')).toBeUndefined();
  });

  test('report outside material and issue numbers', () => {
    expect(forbiddenMentions(`see ${['..', 'shared', 'SPEC.md'].join('/')} ${'§'}4 (${'issue'} 7)`)).toHaveLength(4);
    expect(forbiddenMentions('Targets, as set for the service')).toEqual([]);
    expect(forbiddenMentions("import type { PageProps } from '../shared/api/route-definition.ts';")).toEqual([]);
    expect(forbiddenMentions(`read ${['..', 'shared', 'STYLE.md'].join('/')} first`)).toHaveLength(1);
  });
});

/**
 * The benchmark page states the method, the targets, the latest run and why each missed target
 * is missed; its history lives in git. A page that grows past this is turning into a notebook.
 */
test('the benchmark page stays under 250 lines', () => {
  const lines = readFileSync(join(DOCS, 'benchmark.md'), 'utf8').split('\n');
  // A final newline ends the last line; it does not start another.
  expect(lines.at(-1) === '' ? lines.length - 1 : lines.length).toBeLessThan(250);
});
