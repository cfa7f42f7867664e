import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { ConfigError, parseConfig, readSecret } from '../../server/config.ts';

const defaults = { assetsDir: '/srv/client' };
const SET = 'a-secret-set-by-the-developer-of-32-chars';

/**
 * Development's kept secrets (DEV_SECRETS_FILE, which `react-stream-shell dev` sets): a secret left
 * unset is made once and read back after every restart, so a save keeps the visitor signed in;
 * never outside development.
 */
describe('DEV_SECRETS_FILE', () => {
  let folder: string;
  let file: string;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'dev-secrets-'));
    file = join(folder, '.react-stream-shell', 'dev-secrets.json');
  });
  afterEach(() => rm(folder, { recursive: true, force: true }));

  test('keeps the CSRF secret and the app secrets it makes, the same across restarts, in a file only its owner reads', async () => {
    const env = { NODE_ENV: 'development', DEV_SECRETS_FILE: file };
    const first = parseConfig(env, defaults);
    const session = readSecret(env, 'SESSION_SECRET');
    // A restart: the same file, read again.
    expect(parseConfig(env, defaults).forms.secret).toBe(first.forms.secret);
    expect(readSecret(env, 'SESSION_SECRET')).toBe(session);
    // Kept, not made for the process: no "CSRF_SECRET not set" line after every save.
    expect(first.forms.secretGenerated).toBe(false);
    expect(first.forms.secret.length).toBeGreaterThanOrEqual(32);
    expect(session).not.toBe(first.forms.secret);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ CSRF_SECRET: first.forms.secret, SESSION_SECRET: session });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  test('gives way to a secret the environment sets, and makes again one the file holds too short', async () => {
    const env = { NODE_ENV: 'development', DEV_SECRETS_FILE: file };
    expect(readSecret({ ...env, SESSION_SECRET: SET }, 'SESSION_SECRET')).toBe(SET);
    const made = readSecret(env, 'SESSION_SECRET');
    await writeFile(file, JSON.stringify({ SESSION_SECRET: 'short' }));
    const again = readSecret(env, 'SESSION_SECRET');
    expect(again).not.toBe('short');
    expect(again.length).toBeGreaterThanOrEqual(32);
    expect(again).not.toBe(made);
  });

  test.each(['production', 'test'])('is refused with NODE_ENV=%s, naming the setting', (environment) => {
    const env = { NODE_ENV: environment, DEV_SECRETS_FILE: file, MAKE_MISSING_SECRETS: 'on' };
    expect(() => parseConfig(env, defaults)).toThrow(ConfigError);
    expect(() => parseConfig(env, defaults)).toThrow('Invalid DEV_SECRETS_FILE=');
    expect(() => readSecret(env, 'SESSION_SECRET')).toThrow('kept secrets are for NODE_ENV=development only');
    // Refused though every secret is set: the setting itself has no place there.
    expect(() => parseConfig({ ...env, CSRF_SECRET: SET }, defaults)).toThrow('Invalid DEV_SECRETS_FILE=');
  });

  test('unset, development makes a new secret each start, as before', () => {
    const first = parseConfig({ NODE_ENV: 'development' }, defaults);
    expect(first.forms.secretGenerated).toBe(true);
    expect(parseConfig({ NODE_ENV: 'development' }, defaults).forms.secret).not.toBe(first.forms.secret);
  });
});
