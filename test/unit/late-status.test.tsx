import { Suspense, use } from 'react';
import { afterEach, describe, expect, test } from 'vitest';
import { defineRoute, type PageProps } from '../../shared/api/route-definition.ts';
import { statusOfDigest } from '../../shared/protocol/server-digests.ts';
import { statusMessage } from '../../shared/wording/status-messages.ts';
import { forbidden, notFound, unauthorized } from '../../shared/api/status-helpers.ts';
import { buildApp, LEVEL, waitFor } from '../support/build-app.ts';
import { closeTestServers, DESKTOP_CHROME, getTimed, listenForTest } from '../support/http-client.ts';
import { createSettleAfter } from '../support/settle-after.ts';

const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

const HELPERS = { 'not-found': notFound, unauthorized, forbidden } as const;

function isHelperName(kind: string): kind is keyof typeof HELPERS {
  return Object.hasOwn(HELPERS, kind);
}

interface LateData {
  readonly kind: string;
}

const settleAfter = createSettleAfter<never>();

/** Calls its status helper 30 ms into the render: after a browser's shell was sent. */
function LateStatus({ data }: { readonly data: LateData }) {
  use(
    settleAfter(data, 30, () => {
      if (isHelperName(data.kind)) HELPERS[data.kind]();
      throw new Error(`no helper called ${data.kind}`);
    }),
  );
  return null;
}

function LateStatusPage({ data }: PageProps<LateData>) {
  return (
    <main>
      <h1>SHELL-HEADING</h1>
      <Suspense fallback={<p>LOADING-FALLBACK</p>}>
        <LateStatus data={data} />
      </Suspense>
    </main>
  );
}

const routes = [defineRoute({ path: '/late/:kind', component: LateStatusPage, load: ({ params }) => ({ kind: params.kind ?? '' }) })];

/**
 * The digests React streamed for boundaries that fell back to client rendering: in the
 * `$RX(id, digest)` instruction of a boundary that failed after its fallback was sent, or on the
 * `<template data-dgst>` of one that failed before.
 */
function streamedDigests(html: string): string[] {
  const instructions = [...html.matchAll(/\$RX\("[^"]*","([^"]*)"/g)].map((match) => match[1] ?? '');
  const templates = [...html.matchAll(/<template[^>]* data-dgst="([^"]*)"/g)].map((match) => match[1] ?? '');
  return [...instructions, ...templates];
}

afterEach(closeTestServers);

/** The app's words for the statuses, in French (docs/status-pages.md#the-apps-choices). */
const FRENCH = { fr: { 404: 'Page introuvable.', 401: 'Connectez-vous.', 403: 'Accès refusé.' } };

async function serve(statusPages?: { readonly messages: typeof FRENCH }) {
  const built = buildApp(routes, statusPages === undefined ? {} : { statusPages });
  const { origin } = await listenForTest(built.app);
  return { ...built, origin };
}

describe('a status helper called in a boundary after the shell was sent', () => {
  test.each([
    ['not-found', 404],
    ['unauthorized', 401],
    ['forbidden', 403],
  ])('%s: the browser keeps its 200, and the stream carries the status for the client to show', async (kind, status) => {
    const { origin, logs } = await serve();
    const res = await getTimed(`${origin}/late/${kind}`, { 'User-Agent': DESKTOP_CHROME });

    // The status line left with the shell, before the helper was called.
    expect(res.status).toBe(200);
    expect(res.chunks[0]?.text).toContain('LOADING-FALLBACK');
    const digests = streamedDigests(res.body);
    expect(digests).toHaveLength(1);
    expect(digests.map(statusOfDigest)).toEqual([{ status, message: statusMessage(status) }]);

    await waitFor(() => logs.some((line) => line.msg === 'request completed'));
    const problems = logs.filter((line) => line.level >= LEVEL.warn);
    expect(problems).toEqual([expect.objectContaining({ level: LEVEL.warn, msg: 'status helper called after the shell was sent', route: '/late/:kind', status })]);
  });

  test.each([
    ['not-found', 404, 'Page introuvable.'],
    ['unauthorized', 401, 'Connectez-vous.'],
    ['forbidden', 403, 'Accès refusé.'],
  ])("%s: the status's words in the stream are the app's, in the request's language, as its status page says them", async (kind, status, words) => {
    const { origin } = await serve({ messages: FRENCH });
    const res = await getTimed(`${origin}/late/${kind}`, { 'User-Agent': DESKTOP_CHROME, 'Accept-Language': 'fr' });
    expect(res.status).toBe(200);
    expect(streamedDigests(res.body).map(statusOfDigest)).toEqual([{ status, message: words }]);
    const english = await getTimed(`${origin}/late/${kind}`, { 'User-Agent': DESKTOP_CHROME, 'Accept-Language': 'en' });
    expect(streamedDigests(english.body).map(statusOfDigest)).toEqual([{ status, message: statusMessage(status) }]);
  });

  test('a crawler, which waits for the whole document, gets the status page itself', async () => {
    const { origin, logs } = await serve();
    const res = await getTimed(`${origin}/late/not-found`, { 'User-Agent': GOOGLEBOT });
    expect(res.status).toBe(404);
    expect(res.body).toContain('<h1>404</h1>');
    expect(res.body).toContain('This page could not be found.');
    expect(res.body).toContain('<meta name="robots" content="noindex"/>');
    expect(logs.filter((line) => line.level >= LEVEL.warn)).toEqual([]);
  });
});
