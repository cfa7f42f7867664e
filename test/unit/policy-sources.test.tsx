import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { defineRoute } from '../../shared/api/route-definition.ts';
import { ConfigError, defineApp, type PolicySources } from '../../server/index.ts';
import { createTestApp } from '../../server/testing/index.ts';

/**
 * The app's own Content-Security-Policy sources (`defineApp({ contentSecurityPolicy })`,
 * docs/security.md#the-apps-own-sources), through the public API: added to each directive beside
 * the site itself, the nonce and 'strict-dynamic' kept, and every source checked as the app is
 * built, a bad one a ConfigError naming the option.
 */

const routes = [defineRoute({ path: '/', component: () => <main>PAGE</main> })];

function policyOf(sources: PolicySources): Promise<Map<string, string>> {
  const { app } = createTestApp(defineApp({ routes, contentSecurityPolicy: sources }));
  return request(app)
    .get('/')
    .expect(200)
    .then(
      (res) =>
        new Map(
          String(res.headers['content-security-policy'])
            .split(';')
            .map((directive) => [directive.split(' ')[0] ?? '', directive]),
        ),
    );
}

describe("the app's own policy sources", () => {
  test('each is added to its directive beside the site; scripts keep their nonce and strict-dynamic', async () => {
    const policy = await policyOf({
      imgSrc: ['https://images.example.com'],
      connectSrc: ['https://api.example.com'],
      fontSrc: ['https://fonts.example.com'],
      frameSrc: ['https://www.youtube-nocookie.com'],
      formAction: ['https://pay.example.com'],
      mediaSrc: ['https://media.example.com'],
    });
    expect(policy.get('img-src')).toBe("img-src 'self' data: https://images.example.com");
    expect(policy.get('connect-src')).toBe("connect-src 'self' https://api.example.com");
    expect(policy.get('font-src')).toBe("font-src 'self' https://fonts.example.com");
    expect(policy.get('frame-src')).toBe("frame-src 'self' https://www.youtube-nocookie.com");
    expect(policy.get('form-action')).toBe("form-action 'self' https://pay.example.com");
    expect(policy.get('media-src')).toBe("media-src 'self' https://media.example.com");
    expect(policy.get('script-src')).toMatch(/^script-src 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'$/);
    expect(policy.get('default-src')).toBe("default-src 'self'");
  });

  test('without any, the policy is the framework default', async () => {
    const policy = await policyOf({});
    expect(policy.get('img-src')).toBe("img-src 'self' data:");
    expect(policy.has('frame-src')).toBe(false);
  });

  test.each([
    ['a semicolon, which would start a directive', { imgSrc: ["https://cdn.example.com; script-src 'unsafe-inline'"] }, 'contentSecurityPolicy.imgSrc'],
    ['a quoted keyword', { scriptSrc: ["'unsafe-inline'"] }, 'contentSecurityPolicy.scriptSrc'],
    ['a space, which would add a source', { connectSrc: ['https://a.example.com https://b.example.com'] }, 'contentSecurityPolicy.connectSrc'],
    ['a comma, which would start a second policy', { formAction: ['https://a.example.com,https://b.example.com'] }, 'contentSecurityPolicy.formAction'],
    ['a directive the app cannot add to', { objectSrc: ['https://x.example.com'] }, 'contentSecurityPolicy.objectSrc'],
  ])('%s stops the app as it is built, naming the option', (_case, sources, setting) => {
    // Typed apps cannot write most of these; one in JavaScript can, so the check runs as the app is built.
    const build = () => createTestApp(defineApp({ routes, contentSecurityPolicy: sources as PolicySources }));
    expect(build).toThrow(ConfigError);
    expect(build).toThrow(`Invalid ${setting}=`);
  });

  test.each([
    ['a list that is no list', { imgSrc: 'https://cdn.example.com' }, 'Invalid contentSecurityPolicy.imgSrc="https://cdn.example.com": expected a list of sources'],
    ['a source that is no text', { imgSrc: [42] }, 'Invalid contentSecurityPolicy.imgSrc="42": expected a host or scheme source, such as https://cdn.example.com'],
    [
      'a directive the app cannot add to',
      { objectSrc: [] },
      'Invalid contentSecurityPolicy.objectSrc="objectSrc": expected one of imgSrc, connectSrc, fontSrc, frameSrc, formAction, mediaSrc, styleSrc, scriptSrc',
    ],
  ])('%s is named with what was expected', (_case, sources, message) => {
    expect(() => createTestApp(defineApp({ routes, contentSecurityPolicy: sources as unknown as PolicySources }))).toThrow(message);
  });
});
