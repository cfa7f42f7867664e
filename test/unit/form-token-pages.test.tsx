import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { Form } from '../../shared/api/form.tsx';
import { defineRoute } from '../../shared/api/route-definition.ts';
import { asHydrating, buildApp } from '../support/build-app.ts';
import { pageDataOf } from '../support/page-data-scripts.ts';

const NAVIGATION = { 'X-Navigation': 'data', 'X-Navigation-Scope': 'n1', Accept: 'application/x-ndjson, application/json;q=0.9' };

/** An app with one form page and one read-only page. */
const { routes, assets } = asHydrating([
  defineRoute({ path: '/sign', component: () => <Form method="post">sign</Form>, action: () => ({ signed: true }) }),
  defineRoute({ path: '/read', component: () => <p>nothing to post</p> }),
]);

function cookies(res: request.Response): string[] {
  const header: unknown = res.headers['set-cookie'];
  return Array.isArray(header) ? header.map(String) : [];
}

describe('the form token, in an app with actions', () => {
  test('a page whose route takes posts hands one out: the cookie, the field and the page data', async () => {
    const { app } = buildApp(routes, { assets });
    const res = await request(app).get('/sign').expect(200);
    expect(cookies(res).filter((cookie) => cookie.startsWith('csrf='))).toHaveLength(1);
    expect(res.text).toContain('name="_csrf"');
    expect(Reflect.get(pageDataOf(res.text) ?? {}, 'formToken')).toEqual(expect.any(String));
  });

  test('a read-only page signs nothing: no cookie, no token in its data', async () => {
    const { app } = buildApp(routes, { assets });
    const res = await request(app).get('/read').expect(200);
    expect(cookies(res)).toEqual([]);
    expect(res.text).not.toContain('_csrf');
    expect(Reflect.get(pageDataOf(res.text) ?? {}, 'formToken')).toBeUndefined();
  });

  test('an in-place navigation brings the token to the form page only, with its cookie', async () => {
    const { app } = buildApp(routes, { assets });
    const toForm = await request(app).get('/sign').set(NAVIGATION).expect(200);
    expect(cookies(toForm).filter((cookie) => cookie.startsWith('csrf='))).toHaveLength(1);
    expect(toForm.text).toContain('formToken:');
    const toRead = await request(app).get('/read').set(NAVIGATION).expect(200);
    expect(cookies(toRead)).toEqual([]);
    expect(toRead.text).not.toContain('formToken');
  });
});
