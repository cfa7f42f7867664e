import { Form } from '../../../shared/api/form.tsx';
import type { Route } from './+types/post-once.ts';

/**
 * A form whose action lives on another route with code of its own (post-once-saved.tsx), so the
 * answer to its in-place post needs a chunk this page has not loaded yet: a test can make that
 * chunk fail to load, or cut the answer, after the action ran.
 */
export default function PostOncePage({ params }: Route.PageProps) {
  return (
    <main>
      <h1 id="post-once-heading">Save once</h1>
      <Form method="post" action={`/fixtures/post-once/${params.key}/save`} id="post-once" aria-labelledby="post-once-heading">
        <label htmlFor="note">Note</label>
        <input id="note" name="note" defaultValue="a note" />
        <button type="submit" id="post-once-submit">
          Save
        </button>
      </Form>
    </main>
  );
}
