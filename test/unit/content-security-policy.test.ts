import { describe, expect, test } from 'vitest';
import {
  checkPolicySources,
  createContentSecurityPolicy,
  createStatusPagePolicy,
  isPolicySource,
  PolicySourceError,
  styleHashSource,
} from '../../server/security/content-security-policy.ts';

/**
 * The policy builders of server/security/content-security-policy.ts, whose strings every answer
 * carries as they are: which sources a list may hold, the pages' and the status pages' policies,
 * the nonce spliced in. The app's own sources through defineApp are policy-sources.test.tsx's.
 */
const HASH = styleHashSource('main { color: red }');
const OTHER_HASH = styleHashSource('main { color: blue }');

function directives(policy: string): Map<string, string> {
  return new Map(policy.split(';').map((directive) => [directive.split(' ')[0] ?? '', directive]));
}

describe('a policy source', () => {
  test.each([
    'https:',
    'web+app.x-1:',
    'HTTPS://CDN.EXAMPLE.COM',
    'https://cdn.example.com',
    'cdn.example.com',
    '*',
    '*.example.com',
    'https://*.example.com',
    'https://cdn.example.com:8443',
    'https://cdn.example.com:65535',
    'https://cdn.example.com:*',
    'https://cdn-2.example.com/assets/',
    'https://cdn.example.com/a-b_c.d~e!$&()*+=:@%/f',
    'wss://live.example.com',
    'localhost:3000',
  ])('%s is one', (source) => {
    expect(isPolicySource(source)).toBe(true);
  });

  test.each([
    ['a port of six digits', 'https://cdn.example.com:123456'],
    ['an empty port', 'https://cdn.example.com:'],
    ['a scheme that starts with a digit', '1https:'],
    ['a wildcard inside a label', 'https://cdn*.example.com'],
    ['a wildcard after the first label', 'https://cdn.*.example.com'],
    ['an empty label', 'https://cdn..example.com'],
    ['a query', 'https://cdn.example.com/a?b'],
    ['a fragment', 'https://cdn.example.com/#top'],
    ['a path without a host', 'https:///assets'],
    ['an underscore in a host', 'https://cdn_1.example.com'],
    ['a scheme and a path alone', 'https:/assets'],
    ['a keyword', "'self'"],
    ['something after it', 'https://cdn.example.com x'],
    ['something before it', 'x https://cdn.example.com'],
    ['nothing', ''],
  ])('%s is not (%s)', (_case, source) => {
    expect(isPolicySource(source)).toBe(false);
  });
});

describe("a page's policy (createContentSecurityPolicy)", () => {
  test('splices each request its own nonce, and lists the styles by hash, each once', () => {
    const policy = createContentSecurityPolicy({ styleHashes: [HASH, OTHER_HASH, HASH] });
    const first = directives(policy('n0nceA'));
    expect(first.get('script-src')).toBe("script-src 'nonce-n0nceA' 'strict-dynamic'");
    expect(first.get('style-src')).toBe(`style-src 'self' '${HASH}' '${OTHER_HASH}'`);
    expect(first.get('font-src')).toBe("font-src 'self'");
    expect(first.get('connect-src')).toBe("connect-src 'self'");
    expect(directives(policy('n0nceB')).get('script-src')).toBe("script-src 'nonce-n0nceB' 'strict-dynamic'");
  });

  test("adds the analytics' and the app's sources after the framework's own, each once; an empty list adds no directive", () => {
    const policy = createContentSecurityPolicy({
      scriptSources: ['https://analytics.example.com'],
      connectSources: ['https://analytics.example.com', 'ws://localhost:5173'],
      app: {
        scriptSrc: ['https://cdn.example.com'],
        styleSrc: ['https://styles.example.com'],
        imgSrc: ['data:', 'https://images.example.com', 'https://images.example.com'],
        connectSrc: ['https://analytics.example.com', 'https://api.example.com'],
        frameSrc: [],
      },
    })('n');
    const found = directives(policy);
    expect(found.get('script-src')).toBe("script-src 'nonce-n' 'strict-dynamic' https://analytics.example.com https://cdn.example.com");
    expect(found.get('style-src')).toBe("style-src 'self' https://styles.example.com");
    expect(found.get('img-src')).toBe("img-src 'self' data: https://images.example.com");
    expect(found.get('connect-src')).toBe("connect-src 'self' https://analytics.example.com ws://localhost:5173 https://api.example.com");
    expect(found.has('frame-src')).toBe(false);
  });

  test('refuses an analytics source or a style hash that could change what the policy means, naming it', () => {
    expect(() => createContentSecurityPolicy({ scriptSources: ["'unsafe-inline'"] })).toThrow(
      `Content-Security-Policy: "'unsafe-inline'" is not a host or scheme source script-src can hold safely`,
    );
    expect(() => createContentSecurityPolicy({ connectSources: ['https://a.example.com https://b.example.com'] })).toThrow(
      'Content-Security-Policy: "https://a.example.com https://b.example.com" is not a host or scheme source connect-src can hold safely',
    );
    expect(() => createContentSecurityPolicy({ styleHashes: [`${HASH}' 'unsafe-inline`] })).toThrow(
      `Content-Security-Policy: "${HASH}' 'unsafe-inline" is not a sha256 hash source`,
    );
    expect(() => createContentSecurityPolicy({ styleHashes: [`x${HASH}`] })).toThrow(TypeError);
    expect(() => createContentSecurityPolicy({ styleHashes: [`${HASH}x`] })).toThrow(TypeError);
    expect(() => createContentSecurityPolicy({ styleHashes: ['sha256-'] })).toThrow(TypeError);
    expect(() => createContentSecurityPolicy({ styleHashes: ['sha256-abc==='] })).toThrow(TypeError);
  });
});

describe("the status pages' policy (createStatusPagePolicy)", () => {
  test('without analytics allows no script at all, and is the same string for every answer', () => {
    const policy = createStatusPagePolicy({ styleHashes: [HASH, HASH] });
    const text = policy('n0nceA');
    expect(policy('n0nceB')).toBe(text);
    expect(text).not.toContain('n0nce');
    const found = directives(text);
    expect(found.get('script-src')).toBe("script-src 'none'");
    expect(found.get('style-src')).toBe(`style-src 'self' '${HASH}'`);
    expect(found.get('connect-src')).toBe("connect-src 'self'");
    expect(found.get('default-src')).toBe("default-src 'self'");
  });

  test("with analytics keeps the request's nonce and strict-dynamic, and their sources", () => {
    const policy = createStatusPagePolicy({ styleHashes: [HASH], analytics: { scriptSources: ['https://analytics.example.com'], connectSources: ['https://vitals.example.com'] } });
    const found = directives(policy('n0nceA'));
    expect(found.get('script-src')).toBe("script-src 'nonce-n0nceA' 'strict-dynamic' https://analytics.example.com");
    expect(found.get('connect-src')).toBe("connect-src 'self' https://vitals.example.com");
    expect(directives(policy('n0nceB')).get('script-src')).toContain("'nonce-n0nceB'");
    expect(() => createStatusPagePolicy({ styleHashes: [], analytics: { scriptSources: ['https://a.example.com;'], connectSources: [] } })).toThrow(
      'Content-Security-Policy: "https://a.example.com;" is not a host or scheme source script-src can hold safely',
    );
    expect(() => createStatusPagePolicy({ styleHashes: [], analytics: { scriptSources: [], connectSources: ['https://a.example.com;'] } })).toThrow(
      'Content-Security-Policy: "https://a.example.com;" is not a host or scheme source connect-src can hold safely',
    );
  });
});

describe("the app's sources, checked (checkPolicySources)", () => {
  test('a refusal is a PolicySourceError naming the option, the source and what it must be', () => {
    let caught: unknown;
    try {
      checkPolicySources({ imgSrc: ["'unsafe-inline'"] });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(PolicySourceError);
    expect(caught).toMatchObject({
      name: 'PolicySourceError',
      message: `contentSecurityPolicy.imgSrc: "'unsafe-inline'" is not allowed: expected a host or scheme source, such as https://cdn.example.com`,
      setting: 'contentSecurityPolicy.imgSrc',
      value: "'unsafe-inline'",
      expected: 'a host or scheme source, such as https://cdn.example.com',
    });
    expect(checkPolicySources(undefined)).toEqual({});
  });
});
