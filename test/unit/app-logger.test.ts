import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { defineApp, type AppLoggerOptions } from '../../server/index.ts';
import { createTestApp } from '../../server/testing/index.ts';

/**
 * The app's logger options (docs/observability.md#the-apps-logger), through its declaration: its
 * redaction paths add to the framework's, its mixin adds a trace id to every line, its level and
 * destination are the logger's. Lines are read as the destination received them, parsed.
 */

/** A destination that keeps every line it is given, parsed. */
function collectingDestination(): { readonly write: (line: string) => void; readonly lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  return {
    lines,
    write(line: string) {
      lines.push(JSON.parse(line));
    },
  };
}

/** An app whose middleware logs a line holding what the app asks to leave out, and secrets it never could keep. */
function loggingApp(logger: AppLoggerOptions | undefined) {
  return createTestApp(
    defineApp({
      routes: [],
      logger,
      middleware: (router) => {
        router.get('/signed-in', (req, res) => {
          req.log.warn(
            { user: { name: 'Grace', email: 'grace@example.com' }, headers: { cookie: 'sid=secret-session', authorization: 'Bearer secret-token', accept: 'text/html' } },
            'signed in',
          );
          res.send('ok');
        });
      },
    }),
  );
}

describe("the app's logger options", () => {
  test("redact adds the app's paths, and cookie and authorization stay removed whatever the app's list", async () => {
    const destination = collectingDestination();
    const { app } = loggingApp({ redact: ['user.email', 'headers.accept'], destination });
    await request(app).get('/signed-in').set('Cookie', 'sid=secret-session').expect(200);
    const line = destination.lines.find((candidate) => candidate.msg === 'signed in');
    expect(line).toMatchObject({ user: { name: 'Grace' }, headers: {} });
    expect(line?.user).not.toHaveProperty('email');
    expect(line?.headers).toEqual({});
    expect(JSON.stringify(destination.lines)).not.toMatch(/secret-session|secret-token|grace@example\.com/);
  });

  test("mixin adds its fields to every line, the framework's included; a line's own field wins", async () => {
    const destination = collectingDestination();
    const { app } = loggingApp({ mixin: () => ({ traceId: 'trace-4bf92f35', user: 'from the mixin' }), destination });
    await request(app).get('/signed-in').expect(200);
    const completion = destination.lines.find((candidate) => candidate.msg === 'request completed');
    expect(completion).toMatchObject({ traceId: 'trace-4bf92f35', status: 200 });
    const own = destination.lines.find((candidate) => candidate.msg === 'signed in');
    expect(own).toMatchObject({ traceId: 'trace-4bf92f35', user: { name: 'Grace' } });
  });

  test('level is the lowest level written; the destination receives every line the logs do', async () => {
    const destination = collectingDestination();
    const { app, logs } = loggingApp({ level: 'warn', destination });
    await request(app).get('/signed-in').expect(200);
    expect(destination.lines.map((line) => line.msg)).toEqual(['signed in']);
    expect(logs.map((line) => line.msg)).toEqual(['signed in']);
  });

  test('without options: no extra fields, every level from debug, the request line written', async () => {
    const { app, logs } = loggingApp(undefined);
    await request(app).get('/signed-in').expect(200);
    expect(logs.map((line) => line.msg)).toEqual(['signed in', 'request completed']);
    expect(logs[1]).not.toHaveProperty('traceId');
    expect(JSON.stringify(logs)).not.toMatch(/secret-session|secret-token/);
  });
});
