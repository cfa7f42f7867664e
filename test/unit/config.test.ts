import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import createExpress from 'express';
import { describe, expect, test } from 'vitest';
import { ConfigError, DEFAULTS, PAGE_DEFAULTS, parseConfig, readSecret } from '../../server/config.ts';
import { FIXTURE_MAIN_ENTRY } from '../support/fixture-server-build.ts';

const defaults = { assetsDir: '/srv/client' };
/** Production needs CSRF_SECRET; every case but those about it has one. */
const SECRET = 'a-csrf-secret-of-at-least-32-characters';
const parse = (env: Record<string, string>) => parseConfig({ CSRF_SECRET: SECRET, ...env }, defaults);

describe('configuration defaults', () => {
  test('suit a production service behind a load balancer', () => {
    const config = parse({});
    expect(config).toMatchObject({
      environment: 'production',
      logLevel: 'info',
      listen: { port: 3000, host: undefined },
      proxy: { publicOrigin: undefined, trustProxy: false },
      connections: { keepAliveTimeoutMs: 65_000, headersTimeoutMs: 66_000, requestTimeoutMs: 300_000 },
      pages: { renderTimeoutMs: 10_000, compression: true },
      shutdown: { delayMs: 5_000, deadlineMs: 20_000 },
      assetsDir: '/srv/client',
      analytics: { pageViews: false, speedInsights: false },
      telemetry: { enabled: false, ratePerMinute: 60 },
      metrics: undefined,
      liveReloadUrl: undefined,
    });
    expect(config.connections.headersTimeoutMs).toBeGreaterThan(config.connections.keepAliveTimeoutMs);
    expect(DEFAULTS.keepAliveTimeoutMs).toBe(config.connections.keepAliveTimeoutMs);
    expect(PAGE_DEFAULTS).toEqual(config.pages);
  });

  test('wait no shutdown delay in development and tests', () => {
    expect(parse({ NODE_ENV: 'development' }).shutdown.delayMs).toBe(0);
    expect(parse({ NODE_ENV: 'test' }).shutdown.delayMs).toBe(0);
  });
});

describe('configuration values', () => {
  test('are read from the environment', () => {
    const config = parse({
      PORT: '8080',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      PUBLIC_ORIGIN: 'https://shop.example.com',
      KEEP_ALIVE_TIMEOUT_MS: '75000',
      RENDER_TIMEOUT_MS: '2500',
      SHUTDOWN_DELAY_MS: '0',
      SHUTDOWN_DEADLINE_MS: '1000',
      ANALYTICS_PAGE_VIEWS: 'on',
      ANALYTICS_SPEED_INSIGHTS: 'https://cdn.example.com/si.js',
      WEB_VITALS: 'on',
      METRICS_PORT: '9464',
    });
    expect(config).toMatchObject({
      listen: { port: 8080, host: '127.0.0.1' },
      logLevel: 'warn',
      connections: { keepAliveTimeoutMs: 75_000, headersTimeoutMs: 76_000 },
      pages: { renderTimeoutMs: 2_500, compression: true },
      shutdown: { delayMs: 0, deadlineMs: 1_000 },
      analytics: { pageViews: true, speedInsights: 'https://cdn.example.com/si.js' },
      telemetry: { enabled: true },
      metrics: { port: 9464, host: undefined },
    });
    expect(config.proxy.publicOrigin?.hostname).toBe('shop.example.com');
  });

  test.each([
    ['HOST', '::', 'listen.host', '::'],
    ['HOST', 'localhost', 'listen.host', 'localhost'],
    ['HEADERS_TIMEOUT_MS', '70000', 'connections.headersTimeoutMs', 70_000],
    ['REQUEST_TIMEOUT_MS', '0', 'connections.requestTimeoutMs', 0],
    ['REQUEST_TIMEOUT_MS', '120000', 'connections.requestTimeoutMs', 120_000],
    ['SHUTDOWN_DELAY_MS', '15000', 'shutdown.delayMs', 15_000],
    ['ASSETS_DIR', '/opt/app/client', 'assetsDir', '/opt/app/client'],
    ['ANALYTICS_PAGE_VIEWS', '/scripts/pv.js', 'analytics.pageViews', '/scripts/pv.js'],
    ['ANALYTICS_PAGE_VIEWS', 'https://cdn.example.com:8443/v1/pv.js?site=a-1', 'analytics.pageViews', 'https://cdn.example.com:8443/v1/pv.js?site=a-1'],
    ['ANALYTICS_SPEED_INSIGHTS', 'off', 'analytics.speedInsights', false],
    ['WEB_VITALS', 'off', 'telemetry.enabled', false],
    ['TELEMETRY_RATE_PER_MINUTE', '600', 'telemetry.ratePerMinute', 600],
    ['LOG_LEVEL', 'silent', 'logLevel', 'silent'],
    ['NODE_ENV', 'test', 'environment', 'test'],
  ] as const)('read %s=%s into %s', (variable, raw, path, expected) => {
    const value = path.split('.').reduce<unknown>((group, key) => Reflect.get(Object(group), key), parse({ [variable]: raw }));
    expect(value).toEqual(expected);
  });

  test('read METRICS_HOST beside METRICS_PORT, and refuse a bad one even with the metrics off', () => {
    expect(parse({ METRICS_PORT: '9464', METRICS_HOST: '127.0.0.1' }).metrics).toEqual({ port: 9464, host: '127.0.0.1' });
    expect(parse({ METRICS_HOST: '127.0.0.1' }).metrics).toBeUndefined();
    expect(() => parse({ METRICS_HOST: '256.1.1.1' })).toThrow('Invalid METRICS_HOST="256.1.1.1"');
  });

  test.each([
    ['COMPRESSION', 'off', { compression: false }],
    ['COMPRESSION', 'on', { compression: true }],
    ['RENDER_TIMEOUT_MS', '400', { renderTimeoutMs: 400 }],
  ] as const)('read %s=%s into the pages group', (variable, raw, expected) => {
    expect(parse({ [variable]: raw }).pages).toMatchObject(expected);
  });

  test('read LIVE_RELOAD_URL in development only', () => {
    expect(parse({ NODE_ENV: 'development', LIVE_RELOAD_URL: 'http://127.0.0.1:35729/events' }).liveReloadUrl?.href).toBe('http://127.0.0.1:35729/events');
    expect(parse({ LIVE_RELOAD_URL: 'http://127.0.0.1:35729/events' }).liveReloadUrl).toBeUndefined();
  });

  test('treat an empty value as unset', () => {
    expect(parse({ PORT: '', TRUST_PROXY: ' ', COMPRESSION: '' })).toMatchObject({ listen: { port: 3000 }, proxy: { trustProxy: false }, pages: { compression: true } });
  });

  test.each([
    ['true', true],
    ['false', false],
    ['2', 2],
    ['loopback', ['loopback']],
    ['10.0.0.0/8, 192.168.1.1', ['10.0.0.0/8', '192.168.1.1']],
    ['::1,fd00::/8,uniquelocal', ['::1', 'fd00::/8', 'uniquelocal']],
  ])('accept TRUST_PROXY=%s as Express does', (raw, expected) => {
    expect(parse({ TRUST_PROXY: raw }).proxy.trustProxy).toEqual(expected);
  });

  test('take a subnet list exactly when Express does: what it would refuse at start is refused here, naming the variable', () => {
    const entries = [
      '10.0.0.0/8',
      '10.0.0.0/1',
      '10.0.0.0/32',
      '10.0.0.0/33',
      '10.0.0.0/0',
      '10.0.0.0/255.255.0.0',
      '10.0.0.0/255.255.255.255',
      '10.0.0.0/255.0.255.0',
      '10.0.0.0/0.0.0.0',
      '10.0.0.0/128.0.0.0',
      '::1/128',
      '::1/129',
      '::1/0',
      '::1/255.255.255.0',
      'fd00::/8',
      '::ffff:10.0.0.1',
    ];
    for (const entry of entries) {
      let express = true;
      try {
        createExpress().set('trust proxy', [entry]);
      } catch {
        express = false;
      }
      let config = true;
      try {
        parse({ TRUST_PROXY: entry });
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        config = false;
      }
      expect({ entry, config }).toEqual({ entry, config: express });
    }
  });

  test('a keep-alive long enough to push the headers timeout past the request timeout default takes the request timeout along', () => {
    // Before, this refused REQUEST_TIMEOUT_MS, which the operator never set.
    expect(parse({ KEEP_ALIVE_TIMEOUT_MS: '300000' }).connections).toEqual({ keepAliveTimeoutMs: 300_000, headersTimeoutMs: 301_000, requestTimeoutMs: 301_000 });
    expect(parse({ HEADERS_TIMEOUT_MS: '400000' }).connections).toMatchObject({ headersTimeoutMs: 400_000, requestTimeoutMs: 400_000 });
    // One the operator sets is still checked, and named.
    expect(() => parse({ KEEP_ALIVE_TIMEOUT_MS: '300000', REQUEST_TIMEOUT_MS: '300000' })).toThrow('Invalid REQUEST_TIMEOUT_MS="300000"');
  });
});

describe('a bad value', () => {
  test.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '-1'],
    ['LOG_LEVEL', 'loud'],
    ['NODE_ENV', 'staging'],
    ['PUBLIC_ORIGIN', 'shop.example.com'],
    ['PUBLIC_ORIGIN', 'https://shop.example.com/path'],
    ['PUBLIC_ORIGIN', 'ftp://shop.example.com'],
    ['TRUST_PROXY', 'everyone'],
    ['TRUST_PROXY', '10.0.0.0/99'],
    // What proxy-addr refuses, which would otherwise throw inside createApp with a stack and exit 1.
    ['TRUST_PROXY', '10.0.0.0/255.0.255.0'],
    ['TRUST_PROXY', '10.0.0.0/0.0.0.0'],
    ['TRUST_PROXY', '10.0.0.0/0'],
    ['TRUST_PROXY', '::1/255.255.255.0'],
    ['KEEP_ALIVE_TIMEOUT_MS', '1.5'],
    ['HEADERS_TIMEOUT_MS', '1000'],
    ['REQUEST_TIMEOUT_MS', '2000'],
    ['RENDER_TIMEOUT_MS', '0'],
    ['SHUTDOWN_DEADLINE_MS', 'soon'],
    ['ANALYTICS_PAGE_VIEWS', 'javascript:alert(1)'],
    ['WEB_VITALS', 'maybe'],
    ['METRICS_PORT', '0'],
    ['HOST', 'not a host'],
    ['HOST', '-bad-.example'],
    // Not an address, and no host name either: a host name's last label is not all digits.
    ['HOST', '256.1.1.1'],
    ['METRICS_HOST', '1234'],
    ['METRICS_HOST', 'http://127.0.0.1'],
    ['HEADERS_TIMEOUT_MS', '65000'],
    ['REQUEST_TIMEOUT_MS', '-1'],
    ['SHUTDOWN_DELAY_MS', '-5'],
    ['SHUTDOWN_DELAY_MS', '5s'],
    ['ANALYTICS_SPEED_INSIGHTS', '//cdn.example.com/si.js'],
    ['COMPRESSION', 'brotli'],
    ['LISTEN_BACKLOG', '0'],
    ['LISTEN_SOCKETS', '0'],
    ['LISTEN_SOCKETS', '257'],
    ['OVERLOAD_GUARD', 'maybe'],
    ['OVERLOAD_MAX_EVENT_LOOP_DELAY_MS', '100ms'],
    ['OVERLOAD_MAX_IN_FLIGHT', '-1'],
    ['OVERLOAD_MAX_HEAP_USED_MB', '1.5'],
    ['OVERLOAD_MAX_RSS_MB', 'lots'],
    ['OVERLOAD_RETRY_AFTER_S', '0'],
    ['TELEMETRY_RATE_PER_MINUTE', '0'],
    // A script's origin goes into the Content-Security-Policy: nothing that could split it.
    ['ANALYTICS_PAGE_VIEWS', 'https://evil.example;script-src-elem'],
    ['ANALYTICS_PAGE_VIEWS', 'https://evil.example,script-src'],
    ['ANALYTICS_PAGE_VIEWS', "https://evil.example'unsafe-inline'"],
    ['ANALYTICS_PAGE_VIEWS', 'https://evil.example/"x"'],
    ['ANALYTICS_PAGE_VIEWS', 'https://cdn.example.com/a b.js'],
    ['ANALYTICS_PAGE_VIEWS', 'https://cdn.example.com/a\tb.js'],
    ['ANALYTICS_PAGE_VIEWS', 'https://cdn_1.example.com/pv.js'],
    ['ANALYTICS_PAGE_VIEWS', 'https://[::1]/pv.js'],
    ['ANALYTICS_SPEED_INSIGHTS', '/scripts/si.js;script-src'],
    ['ANALYTICS_SPEED_INSIGHTS', "/scripts/si.js'"],
    // Browsers read a backslash as a slash: a path in name, another host in fact.
    ['ANALYTICS_PAGE_VIEWS', '/\\evil.example/x.js'],
  ])('%s=%s is refused with a message naming both', (variable, value) => {
    let caught: unknown;
    try {
      parse({ [variable]: value });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const error = caught instanceof ConfigError ? caught : undefined;
    expect(error?.variable).toBe(variable);
    expect(error?.message).toContain(`${variable}=${JSON.stringify(value)}`);
  });

  test('names a bad LIVE_RELOAD_URL in development', () => {
    expect(() => parse({ NODE_ENV: 'development', LIVE_RELOAD_URL: 'ws//nope' })).toThrow('Invalid LIVE_RELOAD_URL="ws//nope"');
  });

  test.each([
    ['PORT', 'eighty'],
    ['TRUST_PROXY', 'everyone'],
    ['TRUST_PROXY', '10.0.0.0/255.0.255.0'],
    ['COMPRESSION', 'brotli'],
    ['SHUTDOWN_DEADLINE_MS', '20s'],
    ['ANALYTICS_PAGE_VIEWS', 'https://evil.example;script-src-elem'],
  ])('%s=%s stops the real process with exit code 78 and the message on stderr', (variable, value) => {
    const result = spawnSync(process.execPath, [FIXTURE_MAIN_ENTRY], {
      env: { ...process.env, NODE_ENV: 'production', CSRF_SECRET: SECRET, PORT: '0', [variable]: value },
      encoding: 'utf8',
      timeout: 10_000,
    });
    expect(result.status).toBe(78);
    expect(result.stderr).toContain(`Invalid ${variable}=${JSON.stringify(value)}`);
    expect(result.stdout).not.toContain('listening');
  });
});

describe('CSRF_SECRET', () => {
  test('is required in production, and the message names it', () => {
    expect(() => parseConfig({}, defaults)).toThrow(ConfigError);
    expect(() => parseConfig({ CSRF_SECRET: ' ' }, defaults)).toThrow('Invalid CSRF_SECRET="": expected a secret of at least 32 characters');
  });

  test('is read as given, and never made up, in production', () => {
    expect(parse({}).forms).toEqual({ secret: SECRET, secretGenerated: false });
  });

  test.each(['development', 'test'])('is made for the process when unset with NODE_ENV=%s', (environment) => {
    const first = parseConfig({ NODE_ENV: environment }, defaults);
    const second = parseConfig({ NODE_ENV: environment }, defaults);
    expect(first.forms.secretGenerated).toBe(true);
    expect(first.forms.secret.length).toBeGreaterThanOrEqual(32);
    expect(first.forms.secret).not.toBe(second.forms.secret);
    expect(parse({ NODE_ENV: environment }).forms).toEqual({ secret: SECRET, secretGenerated: false });
  });

  test('shorter than 32 characters is refused without showing the value', () => {
    let caught: unknown;
    try {
      parse({ NODE_ENV: 'development', CSRF_SECRET: 'short-secret-value' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    expect((caught as ConfigError).variable).toBe('CSRF_SECRET');
    expect((caught as ConfigError).message).toContain('Invalid CSRF_SECRET="<18 characters, not shown>"');
    expect((caught as ConfigError).message).not.toContain('short-secret-value');
  });
});

describe('MAKE_MISSING_SECRETS (npm start)', () => {
  test('on: production without CSRF_SECRET or an app secret starts with ones made for the process, a new one each time', () => {
    const env = { MAKE_MISSING_SECRETS: 'on' };
    const first = parseConfig(env, defaults);
    expect(first).toMatchObject({ environment: 'production', forms: { secretGenerated: true } });
    expect(first.forms.secret.length).toBeGreaterThanOrEqual(32);
    expect(parseConfig(env, defaults).forms.secret).not.toBe(first.forms.secret);
    const appSecret = readSecret(env, 'ANY_APP_SECRET');
    expect(appSecret.length).toBeGreaterThanOrEqual(32);
    expect(readSecret(env, 'ANY_APP_SECRET')).not.toBe(appSecret);
  });

  test('on: a secret that is set is used as given, and one too short is still refused', () => {
    expect(parse({ MAKE_MISSING_SECRETS: 'on' }).forms).toEqual({ secret: SECRET, secretGenerated: false });
    expect(readSecret({ MAKE_MISSING_SECRETS: 'on', APP_SECRET: SECRET }, 'APP_SECRET')).toBe(SECRET);
    expect(() => readSecret({ MAKE_MISSING_SECRETS: 'on', APP_SECRET: 'short' }, 'APP_SECRET')).toThrow('Invalid APP_SECRET="<5 characters, not shown>"');
  });

  test.each(['off', ''])('%s (or unset): production still requires every secret', (value) => {
    expect(() => parseConfig({ MAKE_MISSING_SECRETS: value }, defaults)).toThrow('Invalid CSRF_SECRET=""');
    expect(() => readSecret({ MAKE_MISSING_SECRETS: value }, 'APP_SECRET')).toThrow('Invalid APP_SECRET=""');
  });

  test('a value that is not on or off is refused, naming it, whether or not a secret is missing', () => {
    expect(() => parseConfig({ MAKE_MISSING_SECRETS: 'yes please' }, defaults)).toThrow('Invalid MAKE_MISSING_SECRETS="yes please"');
    expect(() => parse({ MAKE_MISSING_SECRETS: 'yes please' })).toThrow('Invalid MAKE_MISSING_SECRETS="yes please"');
    expect(() => readSecret({ MAKE_MISSING_SECRETS: 'yes please', APP_SECRET: SECRET }, 'APP_SECRET')).toThrow('Invalid MAKE_MISSING_SECRETS="yes please"');
  });
});

describe('the overload settings', () => {
  test('default to refusing past 100 ms of event-loop delay, with Retry-After: 2, a backlog of 2,048 and 16 listening sockets on Linux', () => {
    const config = parse({});
    expect(config.overload).toEqual({ maxEventLoopDelayMs: 100, maxInFlight: 0, maxHeapUsedBytes: 0, maxRssBytes: 0, retryAfterSeconds: 2 });
    expect(config.listen).toMatchObject({ backlog: 2_048, sockets: process.platform === 'linux' ? 16 : 1 });
  });

  test('are read from the environment, memory in MiB', () => {
    const config = parse({
      OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '250',
      OVERLOAD_MAX_IN_FLIGHT: '400',
      OVERLOAD_MAX_HEAP_USED_MB: '512',
      OVERLOAD_MAX_RSS_MB: '1024',
      OVERLOAD_RETRY_AFTER_S: '10',
      LISTEN_BACKLOG: '511',
      LISTEN_SOCKETS: '1',
    });
    expect(config.overload).toEqual({ maxEventLoopDelayMs: 250, maxInFlight: 400, maxHeapUsedBytes: 512 * 1_048_576, maxRssBytes: 1024 * 1_048_576, retryAfterSeconds: 10 });
    expect(config.listen).toMatchObject({ backlog: 511, sockets: 1 });
  });

  test('OVERLOAD_GUARD=off refuses nothing, and a bad limit is still named', () => {
    expect(parse({ OVERLOAD_GUARD: 'off' }).overload).toBeUndefined();
    expect(() => parse({ OVERLOAD_GUARD: 'off', OVERLOAD_RETRY_AFTER_S: 'soon' })).toThrow('Invalid OVERLOAD_RETRY_AFTER_S="soon"');
  });
});

describe('the configuration table in README.md', () => {
  test('lists every variable the server reads, each with a default', () => {
    const source = readFileSync(join(import.meta.dirname, '..', '..', 'server', 'config.ts'), 'utf8');
    const read = new Set([...source.matchAll(/\(env, '([A-Z][A-Z0-9_]+)'/g)].map((match) => match[1]));
    const doc = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');
    const rows = new Map([...doc.matchAll(/^\| `([A-Z][A-Z0-9_]+)` \| ([^|]+) \|/gm)].map((match) => [match[1], match[2]?.trim()]));
    expect(read.size).toBeGreaterThan(15);
    expect([...read].filter((name) => !rows.has(name))).toEqual([]);
    for (const name of read) expect(rows.get(name), name).toBeTruthy();
  });
});
