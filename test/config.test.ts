import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ConfigError, DEFAULTS, parseConfig } from '../server/config.ts';

const defaults = { assetsDir: '/srv/client' };
const parse = (env: Record<string, string>) => parseConfig(env, defaults);

describe('configuration defaults', () => {
  test('suit a production service behind a load balancer', () => {
    const config = parse({});
    expect(config).toMatchObject({
      environment: 'production',
      port: 3000,
      host: undefined,
      logLevel: 'info',
      publicOrigin: undefined,
      trustProxy: false,
      keepAliveTimeoutMs: 65_000,
      headersTimeoutMs: 66_000,
      requestTimeoutMs: 300_000,
      renderTimeoutMs: 10_000,
      shutdownDelayMs: 5_000,
      shutdownDeadlineMs: 20_000,
      assetsDir: '/srv/client',
      analyticsPageViews: false,
      analyticsSpeedInsights: false,
      webVitals: false,
      metricsPort: undefined,
      liveReloadUrl: undefined,
    });
    expect(config.headersTimeoutMs).toBeGreaterThan(config.keepAliveTimeoutMs);
    expect(DEFAULTS.keepAliveTimeoutMs).toBe(config.keepAliveTimeoutMs);
  });

  test('wait no shutdown delay in development and tests', () => {
    expect(parse({ NODE_ENV: 'development' }).shutdownDelayMs).toBe(0);
    expect(parse({ NODE_ENV: 'test' }).shutdownDelayMs).toBe(0);
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
      port: 8080,
      host: '127.0.0.1',
      logLevel: 'warn',
      keepAliveTimeoutMs: 75_000,
      headersTimeoutMs: 76_000,
      renderTimeoutMs: 2_500,
      shutdownDelayMs: 0,
      shutdownDeadlineMs: 1_000,
      analyticsPageViews: true,
      analyticsSpeedInsights: 'https://cdn.example.com/si.js',
      webVitals: true,
      metricsPort: 9464,
    });
    expect(config.publicOrigin?.hostname).toBe('shop.example.com');
  });

  test.each([
    ['true', true],
    ['false', false],
    ['2', 2],
    ['loopback', ['loopback']],
    ['10.0.0.0/8, 192.168.1.1', ['10.0.0.0/8', '192.168.1.1']],
    ['::1,fd00::/8,uniquelocal', ['::1', 'fd00::/8', 'uniquelocal']],
  ])('accept TRUST_PROXY=%s as Express does', (raw, expected) => {
    expect(parse({ TRUST_PROXY: raw }).trustProxy).toEqual(expected);
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
    ['KEEP_ALIVE_TIMEOUT_MS', '1.5'],
    ['HEADERS_TIMEOUT_MS', '1000'],
    ['REQUEST_TIMEOUT_MS', '2000'],
    ['RENDER_TIMEOUT_MS', '0'],
    ['SHUTDOWN_DEADLINE_MS', 'soon'],
    ['ANALYTICS_PAGE_VIEWS', 'javascript:alert(1)'],
    ['WEB_VITALS', 'maybe'],
    ['METRICS_PORT', '0'],
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

  test('stops the real process with exit code 78 and the message on stderr', () => {
    const result = spawnSync(process.execPath, [join(import.meta.dirname, '..', 'dist', 'server', 'main.js')], {
      env: { ...process.env, PORT: 'eighty', NODE_ENV: 'production' },
      encoding: 'utf8',
      timeout: 10_000,
    });
    expect(result.status).toBe(78);
    expect(result.stderr).toContain('Invalid PORT="eighty"');
  });
});
