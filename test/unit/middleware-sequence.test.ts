import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { middlewareSequence } from '../../server/http/middleware-sequence.ts';

/**
 * The edge's middlewares run as one router layer (middleware-sequence.ts) and must behave as
 * they did as separate layers: in order, then on to the routes; an error, a throw or a
 * rejection skips the rest and reaches the error handler; 'route' goes on, 'router' leaves.
 */

/** A middleware that notes its name in the `X-Ran` header and goes on. */
function noting(name: string): RequestHandler {
  return function note(_req, res, next) {
    res.append('X-Ran', name);
    next();
  };
}

/** A tiny app: the sequence, a route after it, and an error handler that names what it caught. */
function appWith(middlewares: RequestHandler[]) {
  const app = express();
  app.use(middlewareSequence(middlewares));
  app.get('/', (_req, res) => {
    res.append('X-Ran', 'route').send('page');
  });
  const onError: ErrorRequestHandler = (error, _req, res, _next) => {
    res.status(500).send(`caught: ${error instanceof Error ? error.message : String(error)}`);
  };
  app.use(onError);
  return app;
}

describe('middlewareSequence', () => {
  test('runs its middlewares in order, then the routes after it', async () => {
    const res = await request(appWith([noting('a'), noting('b'), noting('c')])).get('/');
    expect(res.status).toBe(200);
    expect(res.text).toBe('page');
    expect(res.headers['x-ran']).toBe('a, b, c, route');
  });

  test('goes on when a middleware calls next later, as an asynchronous one does', async () => {
    const later: RequestHandler = (_req, res, next) => {
      res.append('X-Ran', 'later');
      setTimeout(() => next(), 5);
    };
    const res = await request(appWith([later, noting('b')])).get('/');
    expect(res.headers['x-ran']).toBe('later, b, route');
  });

  test('next(error) skips the rest and the routes: the error handler gets that error', async () => {
    const failing: RequestHandler = (_req, _res, next) => next(new Error('refused'));
    const res = await request(appWith([noting('a'), failing, noting('c')])).get('/');
    expect(res.status).toBe(500);
    expect(res.text).toBe('caught: refused');
    expect(res.headers['x-ran']).toBe('a');
  });

  test('a throw reaches the error handler, also after a middleware that went on later', async () => {
    const throwing: RequestHandler = () => {
      throw new Error('thrown');
    };
    const later: RequestHandler = (_req, _res, next) => {
      setTimeout(() => next(), 5);
    };
    const res = await request(appWith([noting('a'), throwing, noting('c')])).get('/');
    expect(res.text).toBe('caught: thrown');
    expect(res.headers['x-ran']).toBe('a');
    // Thrown inside a timer's callback, it would crash the process without the sequence's catch.
    const afterLater = await request(appWith([later, throwing])).get('/');
    expect(afterLater.text).toBe('caught: thrown');
  });

  test("an async middleware's rejection reaches the error handler; one without a reason is an Error", async () => {
    const rejecting: RequestHandler = async () => {
      throw new Error('rejected');
    };
    const res = await request(appWith([rejecting, noting('b')])).get('/');
    expect(res.text).toBe('caught: rejected');
    expect(res.headers['x-ran']).toBeUndefined();
    const bare: RequestHandler = () => Promise.reject(undefined);
    expect((await request(appWith([bare])).get('/')).text).toBe('caught: Rejected promise');
  });

  test("next('route') goes on to the following middleware; next('router') leaves the app's routes", async () => {
    const onward: RequestHandler = (_req, _res, next) => next('route');
    expect((await request(appWith([onward, noting('b')])).get('/')).headers['x-ran']).toBe('b, route');
    const leaving: RequestHandler = (_req, _res, next) => next('router');
    const left = await request(appWith([noting('a'), leaving, noting('c')])).get('/');
    // Express's own final handler: neither the route nor the error handler answered.
    expect(left.status).toBe(404);
    expect(left.headers['x-ran']).toBe('a');
  });

  test('a falsy argument to next is no error, as Express reads it', async () => {
    const nulling: RequestHandler = (_req, _res, next) => next(null);
    expect((await request(appWith([nulling, noting('b')])).get('/')).headers['x-ran']).toBe('b, route');
  });
});
