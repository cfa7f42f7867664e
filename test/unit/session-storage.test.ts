import request from 'supertest';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { createCookieSessionStorage, createMemorySessionStorage, createSessionStorage, defineApp, type SessionStorage } from '../../server/index.ts';
import { createTestApp } from '../../server/testing/index.ts';
import { data, defineRoute, unauthorized } from '../../shared/index.ts';

/**
 * Sessions kept in a store (createSessionStorage, createMemorySessionStorage), served as an app
 * serves them through the public doors: a sign-in and a sign-out answered by the app's own
 * middleware, the session read in `getLoadContext`, the members' page answering 401 without one.
 */

interface Member {
  readonly name: string;
}

declare module '../../shared/api/route-definition.ts' {
  interface AppLoadContext {
    readonly memberName?: string | undefined;
  }
}

const SECRET = 'session-store-secret-for-tests-32-chars!';
const cookie = { name: '__sid', secrets: [SECRET] } as const;

function membersApp(sessions: SessionStorage<Member>) {
  return createTestApp(
    defineApp({
      routes: [
        defineRoute({
          path: '/members',
          component: ({ data }: { data: { name: string } }) => `members' page of ${data.name}`,
          load: ({ context }) => {
            if (context.memberName === undefined) unauthorized();
            return { name: context.memberName };
          },
        }),
        defineRoute({
          path: '/notice',
          component: () => 'a public notice',
          load: () => data({}, { headers: { 'Cache-Control': 'public, max-age=60' } }),
        }),
      ],
      getLoadContext: async ({ request }) => ({ memberName: (await sessions.getSession(request.headers.get('cookie'))).get('name') }),
      middleware: (router) => {
        router.get('/sign-in/:name', async (req, res) => {
          const session = await sessions.getSession(req.get('cookie'));
          session.set('name', req.params.name);
          res.append('Set-Cookie', await sessions.commitSession(session)).redirect(303, '/members');
        });
        router.get('/sign-out', async (req, res) => {
          res.append('Set-Cookie', await sessions.destroySession(await sessions.getSession(req.get('cookie')))).redirect(303, '/');
        });
      },
    }),
  );
}

/** The `name=value` of the one `Set-Cookie` an answer sets. */
function setCookieOf(res: request.Response): string {
  const [setCookie] = res.headers['set-cookie'] as unknown as string[];
  return setCookie ?? '';
}

function pairOf(setCookie: string): string {
  return setCookie.split(';')[0] ?? '';
}

/** The session's id the cookie carries: base64url before the signature (and before the expiry with maxAge). */
function idOf(pair: string): string {
  const payload = pair.slice(pair.indexOf('=') + 1).split('.')[0] ?? '';
  return Buffer.from(payload, 'base64url').toString('utf8');
}

async function signIn(app: ReturnType<typeof membersApp>['app'], name: string, cookieHeader?: string): Promise<string> {
  const req = request(app).get(`/sign-in/${name}`);
  const res = await (cookieHeader === undefined ? req : req.set('Cookie', cookieHeader)).expect(303);
  return pairOf(setCookieOf(res));
}

/** A store in a Map that records each call, as an app's database would see them. */
function recordingStore() {
  const rows = new Map<string, Partial<Member>>();
  const calls: string[] = [];
  let next = 0;
  return {
    rows,
    calls,
    strategy: {
      async createData(data: Partial<Member>, expires: Date | undefined) {
        next += 1;
        const id = `row.${next}`;
        calls.push(`create ${id} ${JSON.stringify(data)} ${expires === undefined ? 'no end' : expires.toISOString()}`);
        rows.set(id, data);
        return id;
      },
      async readData(id: string) {
        calls.push(`read ${id}`);
        return rows.get(id) ?? null;
      },
      async updateData(id: string, data: Partial<Member>, expires: Date | undefined) {
        calls.push(`update ${id} ${JSON.stringify(data)} ${expires === undefined ? 'no end' : expires.toISOString()}`);
        rows.set(id, data);
      },
      async deleteData(id: string) {
        calls.push(`delete ${id}`);
        rows.delete(id);
      },
    },
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('sessions in a store', () => {
  test('a sign-out destroys the stored session: a copy of the cookie taken before it no longer signs in (401)', async () => {
    const { app } = membersApp(createMemorySessionStorage<Member>({ cookie }));
    const copied = await signIn(app, 'ada');
    expect((await request(app).get('/members').set('Cookie', copied).expect(200)).text).toContain('members&#x27; page of ada');

    const out = await request(app).get('/sign-out').set('Cookie', copied).expect(303);
    expect(setCookieOf(out)).toMatch(/^__sid=; .*Max-Age=0/);
    expect(setCookieOf(out)).toContain('Expires=Thu, 01 Jan 1970 00:00:00 GMT');

    await request(app).get('/members').set('Cookie', copied).expect(401);
  });

  test('a memory session committed again keeps its id and holds what was set last', async () => {
    const { app } = membersApp(createMemorySessionStorage<Member>({ cookie }));
    const first = await signIn(app, 'ada');
    const again = await signIn(app, 'grace', first);
    expect(idOf(again)).toBe(idOf(first));
    expect((await request(app).get('/members').set('Cookie', first).expect(200)).text).toContain('page of grace');
  });

  test('a sign-out without a stored session deletes nothing, and still clears the cookie', async () => {
    const store = recordingStore();
    const { app } = membersApp(createSessionStorage<Member>({ cookie, ...store.strategy }));
    const out = await request(app).get('/sign-out').set('Cookie', '__sid=not-signed').expect(303);
    expect(setCookieOf(out)).toMatch(/^__sid=; /);
    expect(store.calls).toEqual([]);
  });

  test('with the cookie storage a sign-out only clears the cookie: the copy still signs in until maxAge ends it', async () => {
    const { app } = membersApp(createCookieSessionStorage<Member>({ cookie: { ...cookie, name: '__copyable' } }));
    const copied = await signIn(app, 'ada');
    await request(app).get('/sign-out').set('Cookie', copied).expect(303);
    await request(app).get('/members').set('Cookie', copied).expect(200);
  });

  test("the cookie holds only a random id of 128 bits or more, signed, never the session's data", async () => {
    const { app } = membersApp(createMemorySessionStorage<Member>({ cookie }));
    const pairs = await Promise.all(Array.from({ length: 40 }, () => signIn(app, 'ada-lovelace')));
    const ids = pairs.map(idOf);
    expect(new Set(ids).size).toBe(40);
    for (const id of ids) {
      // base64url of 16 random bytes or more: 22 characters hold 132 bits.
      expect(id).toMatch(/^[A-Za-z0-9_-]{22,}$/);
      expect(Buffer.from(id, 'base64url').length).toBeGreaterThanOrEqual(16);
    }
    for (const pair of pairs) expect(Buffer.from(pair.slice('__sid='.length).split('.')[0] ?? '', 'base64url').toString('utf8')).not.toContain('ada');
  });

  test('an id cookie whose signature is changed, or that another secret signed, is no session', async () => {
    const { app } = membersApp(createMemorySessionStorage<Member>({ cookie }));
    const pair = await signIn(app, 'ada');
    const last = pair.at(-1) === 'A' ? 'B' : 'A';
    await request(app)
      .get('/members')
      .set('Cookie', `${pair.slice(0, -1)}${last}`)
      .expect(401);
    // The same id, signed by a storage with another secret.
    const other = createSessionStorage<Member>({
      cookie: { name: '__sid', secrets: ['another-secret-of-thirty-two-characters!'] },
      createData: async () => idOf(pair),
      readData: async () => null,
      updateData: async () => {},
      deleteData: async () => {},
    });
    const forged = pairOf(await other.commitSession(await other.getSession(undefined)));
    expect(idOf(forged)).toBe(idOf(pair));
    await request(app).get('/members').set('Cookie', forged).expect(401);
    await request(app).get('/members').set('Cookie', pair).expect(200);
  });

  test('a signed cookie whose id the store does not know is no session, and committing it makes a new id, never that one', async () => {
    const store = recordingStore();
    const sessions = createSessionStorage<Member>({ cookie, ...store.strategy });
    const { app } = membersApp(sessions);
    const first = await signIn(app, 'ada');
    expect(idOf(first)).toBe('row.1');
    store.rows.delete('row.1');

    await request(app).get('/members').set('Cookie', first).expect(401);
    const again = await signIn(app, 'grace', first);
    expect(idOf(again)).toBe('row.2');
    expect(store.calls.filter((call) => call.startsWith('update'))).toEqual([]);
    expect((await request(app).get('/members').set('Cookie', again).expect(200)).text).toContain('grace');
  });

  test('a commit of a stored session updates it under its id, with its new end; a new one is created', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-03-01T12:00:00.000Z'));
    const store = recordingStore();
    const { app } = membersApp(createSessionStorage<Member>({ cookie: { ...cookie, maxAge: 3600 }, ...store.strategy }));
    const first = await signIn(app, 'ada');
    vi.setSystemTime(new Date('2026-03-01T12:30:00.000Z'));
    const renamed = await signIn(app, 'grace', first);

    expect(idOf(renamed)).toBe('row.1');
    expect(store.calls).toEqual(['create row.1 {"name":"ada"} 2026-03-01T13:00:00.000Z', 'read row.1', 'update row.1 {"name":"grace"} 2026-03-01T13:30:00.000Z']);
    expect((await request(app).get('/members').set('Cookie', renamed).expect(200)).text).toContain('grace');
  });

  test('a memory session ends at maxAge: its cookie, kept past it, is no session', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-03-01T12:00:00.000Z'));
    const { app } = membersApp(createMemorySessionStorage<Member>({ cookie: { ...cookie, maxAge: 60 } }));
    const pair = await signIn(app, 'ada');
    vi.setSystemTime(new Date('2026-03-01T12:00:59.000Z'));
    await request(app).get('/members').set('Cookie', pair).expect(200);
    vi.setSystemTime(new Date('2026-03-01T12:01:00.000Z'));
    await request(app).get('/members').set('Cookie', pair).expect(401);
  });

  test('a store whose readData throws gives the 500 page and one error line, not a silent sign-out', async () => {
    const store = recordingStore();
    let failing = false;
    const sessions = createSessionStorage<Member>({
      cookie,
      ...store.strategy,
      readData: async (id) => {
        if (failing) throw new Error('the session database is down');
        return store.strategy.readData(id);
      },
    });
    const { app, logs } = membersApp(sessions);
    const pair = await signIn(app, 'ada');
    failing = true;
    const res = await request(app).get('/members').set('Cookie', pair).expect(500);
    expect(res.text).not.toContain('the session database is down');
    const errors = logs.filter((line) => line.level >= 50);
    expect(errors).toHaveLength(1);
    expect(JSON.stringify(errors[0])).toContain('the session database is down');
    expect(JSON.stringify(logs)).not.toContain(pair.slice('__sid='.length));
  });

  test("an answer to a request carrying the id cookie is private, as for the cookie storage's, though the page asks to be public", async () => {
    const { app } = membersApp(createMemorySessionStorage<Member>({ cookie: { ...cookie, name: '__noted' } }));
    const pair = await signIn(app, 'ada');
    expect((await request(app).get('/notice').expect(200)).headers['cache-control']).toBe('public, max-age=60');
    expect((await request(app).get('/notice').set('Cookie', pair).expect(200)).headers['cache-control']).toBe('private, max-age=60');
  });

  test('a store needs a secret of 32 characters or more, and a createData that gives an id; each storage names itself', async () => {
    const strategy = recordingStore().strategy;
    expect(() => createCookieSessionStorage<Member>({ cookie: { secrets: [] } })).toThrow('createCookieSessionStorage needs at least one secret (cookie.secrets)');
    expect(() => createSessionStorage<Member>({ cookie: { secrets: [] }, ...strategy })).toThrow('createSessionStorage needs at least one secret (cookie.secrets)');
    expect(() => createSessionStorage<Member>({ cookie: { secrets: ['short'] }, ...strategy })).toThrow('createSessionStorage: every secret must be at least 32 characters');
    const noId = createSessionStorage<Member>({ cookie, ...strategy, createData: async () => '' });
    await expect(noId.commitSession(await noId.getSession(undefined))).rejects.toThrow('createData gave no id');
  });
});
