import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { defineApp } from '../../server/index.ts';
import { createTestApp } from '../../server/testing/index.ts';
import { layout, Outlet, route, useActionData, useLoaderData, useParams, type ActionContext, type LayoutModule, type PageModule, type PageProps } from '../../shared/index.ts';

/**
 * What a layout sees of the route it frames, on the server's render (docs/building-an-app.md#layouts
 * and #typed-data-hooks): the route's path parameters, in its props and through `useParams()`;
 * its own data, from a `load` that gets no path parameters (its data holds for every page inside
 * it); and after a post to its page's action, no action data (the action is the page's, which
 * reads it), in its props as through `useActionData()`.
 */

function Frame({ params, actionData }: PageProps<{ readonly paramsInLoad: string }>) {
  const { name } = useParams();
  const { paramsInLoad } = useLoaderData<() => { paramsInLoad: string }>();
  const fromHook = useActionData();
  return (
    <div>
      <p>{`LAYOUT-PROPS-PARAMS ${String(params.name)} HOOK-PARAMS ${String(name)} LOAD-PARAMS [${paramsInLoad}]`}</p>
      <p>{`LAYOUT-ACTION props:${JSON.stringify(actionData) ?? 'none'} hook:${JSON.stringify(fromHook) ?? 'none'}`}</p>
      <Outlet />
    </div>
  );
}

const frame: LayoutModule<{ readonly paramsInLoad: string }> = {
  default: Frame,
  load: ({ params }) => ({ paramsInLoad: Object.keys(params).join(',') }),
};

function Page({ params }: PageProps) {
  const signed = useActionData<() => { signedBy: string }>();
  return <main>{`PAGE ${String(params.name)} ACTION ${signed?.signedBy ?? 'none'}`}</main>;
}

const page: PageModule = {
  default: Page,
  action: ({ body }: ActionContext) => ({ signedBy: String(body.visitor) }),
};

const app = defineApp({ routes: [layout(frame, [route('/books/:name', page)], { id: 'frame' })] });

describe("a layout's view of the route it frames", () => {
  test("gets the route's path parameters in its props and from useParams(), none in its load", async () => {
    const { app: server } = createTestApp(app);
    const res = await request(server).get('/books/dune').expect(200);
    expect(res.text).toContain('LAYOUT-PROPS-PARAMS dune HOOK-PARAMS dune LOAD-PARAMS []');
    expect(res.text).toContain('PAGE dune ACTION none');
  });

  test("gets no action data after its page's action, which the page reads", async () => {
    const { app: server } = createTestApp(app);
    const res = await request(server).post('/books/dune').set('Sec-Fetch-Site', 'same-origin').type('form').send({ visitor: 'ada' }).expect(200);
    expect(res.text).toContain('PAGE dune ACTION ada');
    expect(res.text).toContain('LAYOUT-ACTION props:none hook:none');
    expect(res.text).toContain('LAYOUT-PROPS-PARAMS dune HOOK-PARAMS dune');
  });
});
