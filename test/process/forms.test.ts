import { spawnSync } from 'node:child_process';
import { request, type IncomingHttpHeaders } from 'node:http';
import { afterEach, describe, expect, test } from 'vitest';
import { START_EXIT } from '../../server/start-server.ts';
import { FORM_TOKEN_FIELD } from '../../shared/protocol/form-token-field.ts';
import { waitFor } from '../support/build-app.ts';
import { startServerProcess, type ServerProcess } from '../support/proxy-harness.ts';
import { startServerEntry } from '../support/server-process.ts';
import { FIXTURE_MAIN_ENTRY } from '../support/fixture-server-build.ts';

/**
 * Form posts across instances (docs/security.md, "Cross-site request forgery"): the built
 * fixture server (test/support/fixture-server.tsx, its /fixtures/form page) as real processes.
 */
const SHARED_SECRET = 'process-test-shared-csrf-secret-0123456789';
const OTHER_SECRET = 'process-test-other-csrf-secret-9876543210';

interface Answer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** A request with exactly these headers: no client adds `Origin` or `Sec-Fetch-Site` here. */
function send(url: string, method: string, headers: Record<string, string>, body = ''): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The token instance `server` hands out with its form page: the cookie and the hidden field. */
async function tokenFrom(server: ServerProcess): Promise<{ readonly cookie: string; readonly field: string }> {
  const page = await send(`${server.origin}/fixtures/form`, 'GET', {});
  expect(page.status).toBe(200);
  const cookie = page.headers['set-cookie']?.find((header) => header.startsWith('csrf='));
  const value = /^csrf=([^;]+)/.exec(cookie ?? '')?.[1];
  const field = new RegExp(`name="${FORM_TOKEN_FIELD}" value="([^"]+)"`).exec(page.body)?.[1];
  if (value === undefined || field === undefined) throw new Error(`no token on the form page: ${cookie}`);
  return { cookie: value, field };
}

/** A valid sign-up posted as an old browser would: neither `Sec-Fetch-Site` nor `Origin`. */
function postSignup(server: ServerProcess, cookie: string, field: string): Promise<Answer> {
  const body = new URLSearchParams({ name: 'Ada', email: 'ada@example.com', [FORM_TOKEN_FIELD]: field }).toString();
  return send(
    `${server.origin}/fixtures/form`,
    'POST',
    {
      'Content-Type': 'application/x-www-form-urlencoded',
      'Content-Length': String(Buffer.byteLength(body)),
      Cookie: `csrf=${cookie}`,
    },
    body,
  );
}

const running: ServerProcess[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.stop()));
});

async function start(env: Record<string, string>): Promise<ServerProcess> {
  const server = await startServerProcess(env);
  running.push(server);
  return server;
}

describe('form tokens across instances', () => {
  test('a token instance A issued is accepted by instance B with the same CSRF_SECRET, and refused by one with another', async () => {
    const [a, b, other] = await Promise.all([start({ CSRF_SECRET: SHARED_SECRET }), start({ CSRF_SECRET: SHARED_SECRET }), start({ CSRF_SECRET: OTHER_SECRET })]);
    const { cookie, field } = await tokenFrom(a);
    expect(field).toBe(cookie);

    const accepted = await postSignup(b, cookie, field);
    expect(accepted.status).toBe(303);
    expect(accepted.headers.location).toBe('/fixtures/form/done?name=Ada');
    const done = await send(`${b.origin}${accepted.headers.location}`, 'GET', { Cookie: `csrf=${cookie}` });
    expect(done.body).toContain('Welcome, Ada.');
    // B found the cookie valid: it set none of its own.
    expect(done.headers['set-cookie']).toBeUndefined();

    const refused = await postSignup(other, cookie, field);
    expect(refused.status).toBe(403);
    // Lines reach stdout at the end of the event loop's turn: wait for the completion line of the refused post.
    await waitFor(() => other.logs.some((line) => line.msg === 'request completed' && line.status === 403), 2_000, 'the 403 completion line');
    expect(other.logs.filter((line) => line.msg === 'csrf refused')).toEqual([expect.objectContaining({ level: 40, reason: 'bad signature' })]);

    for (const server of [a, b, other]) {
      const log = JSON.stringify(server.logs);
      for (const secret of [SHARED_SECRET, OTHER_SECRET, cookie]) expect(log).not.toContain(secret);
      // Production with a secret given: no line about a generated one.
      expect(server.logs.map((line) => line.msg)).not.toContain('CSRF_SECRET not set: form tokens are signed with a random secret made for this process');
    }
  });

  test('an invalid submission is shown again with 422, its errors and its values', async () => {
    const server = await start({ CSRF_SECRET: SHARED_SECRET });
    const body = 'name=&email=not-an-address';
    const answer = await send(
      `${server.origin}/fixtures/form`,
      'POST',
      {
        'Content-Type': 'application/x-www-form-urlencoded',
        'Content-Length': String(body.length),
        'Sec-Fetch-Site': 'same-origin',
      },
      body,
    );
    expect(answer.status).toBe(422);
    expect(answer.body).toContain('Enter your name.');
    expect(answer.body).toContain('value="not-an-address"');
  });
});

describe('CSRF_SECRET at start', () => {
  test('production without it: exit 78 and one line naming it, nothing started', () => {
    const result = spawnSync(process.execPath, [FIXTURE_MAIN_ENTRY], {
      env: { ...process.env, NODE_ENV: 'production', PORT: '0', HOST: '127.0.0.1', CSRF_SECRET: '' },
      encoding: 'utf8',
      timeout: 10_000,
    });
    expect(result.status).toBe(START_EXIT.badConfig);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('CSRF_SECRET');
    expect(result.stdout).toBe('');
  });

  test('NODE_ENV=test without it: starts, and says once that the secret was made for the process', async () => {
    const server = await startServerEntry(FIXTURE_MAIN_ENTRY, { NODE_ENV: 'test', CSRF_SECRET: '', PORT: '0', HOST: '127.0.0.1' });
    running.push(server);
    const notes = server.logs.filter((line) => line.setting === 'CSRF_SECRET');
    expect(notes).toEqual([expect.objectContaining({ level: 30, environment: 'test' })]);
    expect(Object.keys(notes[0] ?? {})).not.toContain('secret');
  });
});
