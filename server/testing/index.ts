/**
 * The package's testing door (`react-stream-shell/testing`): the app built from its declaration
 * for its own tests, without listening. Public and semver-bound (docs/api.md).
 */

export { createCapturingLogger, createTestApp, type TestApp, type TestAppOptions, type TestLogLine } from './test-app.ts';
