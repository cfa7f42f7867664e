import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { createTestApp } from '../server/testing/test-app.ts';
import app from './app.ts';

describe('the app', () => {
  test('serves its home page with its title', async () => {
    const { app: server } = createTestApp(app);
    const res = await request(server).get('/').expect(200);
    expect(res.text).toContain('<title>Home · React Stream Shell</title>');
    expect(res.text).toContain('The server streamed this page and the browser hydrated it.');
  });
});
