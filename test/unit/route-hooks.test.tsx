import request from 'supertest';
import { describe, expect, expectTypeOf, test } from 'vitest';
import { type InvalidData, invalid } from '../../shared/api/action-helpers.ts';
import { data } from '../../shared/api/answers.ts';
import type { ActionContext, LoadContext, LoadedData } from '../../shared/api/route-definition.ts';
import { defineRoute } from '../../shared/api/route-definition.ts';
import type { useRouteError } from '../../shared/api/route-errors.tsx';
import { type ActionDataOf, Outlet, type PathParams, useActionData, useLoaderData, useParams, type useRouteLoaderData } from '../../shared/api/route-hooks.tsx';
import { renderToString } from 'react-dom/server';
import { buildApp } from '../support/build-app.ts';

async function load({ params }: LoadContext) {
  return data({ title: `Entry ${params.id ?? ''}`, at: new Date(Date.UTC(2026, 10, 25)) }, { headers: { 'X-Entry': 'yes' } });
}

async function action({ body }: ActionContext) {
  if (body.name === '') return invalid({ name: 'Enter your name.' }, { name: '' });
  return { saved: true as const };
}

/** A component deep in the page that reads everything through the hooks, nothing through props. */
function Details() {
  const { title, at } = useLoaderData<typeof load>();
  const { id } = useParams<'/entries/:id'>();
  const result = useActionData<typeof action>();
  const outcome = result === undefined ? 'no post' : 'errors' in result ? `refused: ${result.errors.name}` : `saved: ${result.saved}`;
  return <p id="details">{`${title} | id ${id} | ${at.toISOString()} | ${outcome}`}</p>;
}

/** A component rendered on its own, with no page around it. */
function Stray() {
  useParams();
  return null;
}

const routes = [defineRoute({ path: '/entries/:id', component: () => <Details />, load, action })];

describe('the route hooks', () => {
  test('give a component the page data, the path parameters and the action result, on the server', async () => {
    const { app } = buildApp(routes);
    const page = await request(app).get('/entries/7').expect(200);
    expect(page.text).toContain('Entry 7 | id 7 | 2026-11-25T00:00:00.000Z | no post');
    const refused = await request(app).post('/entries/7').set('Sec-Fetch-Site', 'same-origin').type('form').send({ name: '' }).expect(422);
    expect(refused.text).toContain('refused: Enter your name.');
    const saved = await request(app).post('/entries/7').set('Sec-Fetch-Site', 'same-origin').type('form').send({ name: 'Ada' }).expect(200);
    expect(saved.text).toContain('saved: true');
  });

  test('called outside a page, fail with the name of the hook', () => {
    expect(() => renderToString(<Stray />)).toThrow('useParams() is called outside a page');
    expect(() => renderToString(<Outlet />)).toThrow('Outlet() is called outside a page');
  });

  test('are typed from load, action and the path, with nothing written by hand', () => {
    expectTypeOf<ReturnType<typeof useLoaderData<typeof load>>>().toEqualTypeOf<{ title: string; at: Date }>();
    expectTypeOf<ActionDataOf<typeof action>>().toEqualTypeOf<InvalidData<{ name: string }, { name: string }> | { saved: true }>();
    expectTypeOf<PathParams<'/guestbook/:id'>>().toEqualTypeOf<{ readonly id: string }>();
    expectTypeOf<PathParams<'/files/*path'>>().toEqualTypeOf<{ readonly path: string }>();
    expectTypeOf<PathParams<'/users{/:id}'>>().toEqualTypeOf<{ readonly id?: string }>();
    expectTypeOf<PathParams<'/flights/:from-:to'>>().toEqualTypeOf<{ readonly from: string; readonly to: string }>();
    // biome-ignore lint/complexity/noBannedTypes: the empty object type is exactly what a path without parameters gives
    expectTypeOf<PathParams<'/'>>().toEqualTypeOf<{}>();
    expectTypeOf<PathParams<string>>().toEqualTypeOf<Readonly<Record<string, string>>>();
    // A parent's data by id: typed from its load, and undefined when that route is not on the screen.
    expectTypeOf<ReturnType<typeof useRouteLoaderData<typeof load>>>().toEqualTypeOf<{ title: string; at: Date } | undefined>();
    expectTypeOf<ReturnType<typeof useRouteError>>().toEqualTypeOf<unknown>();
  });

  test('a load that answers data() on one branch and plain data on another gives each unwrapped', () => {
    async function either({ params }: LoadContext) {
      if (params.id === 'gone') return data({ product: null, suggestions: ['lamp'] }, 404);
      return { product: { name: 'lamp' }, suggestions: [] as string[] };
    }
    type Either = { product: null; suggestions: string[] } | { product: { name: string }; suggestions: string[] };
    expectTypeOf<LoadedData<typeof either>>().toEqualTypeOf<Either>();
    expectTypeOf<ReturnType<typeof useLoaderData<typeof either>>>().toEqualTypeOf<Either>();
  });
});
