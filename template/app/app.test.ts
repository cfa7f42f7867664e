import request from 'supertest';
import { createTestApp } from 'react-stream-shell/testing';
import { describe, expect, test } from 'vitest';
import app from './app.ts';

describe('the app', () => {
  test('serves its home page with the greeting from load', async () => {
    const { app: server } = createTestApp(app);
    const res = await request(server).get('/').expect(200);
    expect(res.text).toContain('<title>Home · My app</title>');
    expect(res.text).toContain('Hello from the server.');
  });

  test('answers JSON at /api/hello and 404 elsewhere', async () => {
    const { app: server } = createTestApp(app);
    expect((await request(server).get('/api/hello').expect(200)).body).toEqual({ hello: 'world' });
    await request(server).get('/nowhere').expect(404);
  });
});
