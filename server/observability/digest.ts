import { createHash, randomBytes } from 'node:crypto';

/** An opaque, URL-safe id for one occurrence of an error: 96 random bits (docs/status-pages.md). */
export function createDigest(): string {
  return randomBytes(12).toString('base64url');
}

/**
 * A stable hash of what makes two errors "the same bug": name, message and the first stack
 * frame. Log tools group by it; it reveals nothing the log line does not already hold.
 */
export function fingerprintError(name: string, message: string, stack: string | undefined): string {
  const firstFrame = stack?.split('\n').find((line) => line.trimStart().startsWith('at ')) ?? '';
  return createHash('sha256').update(`${name}\n${message}\n${firstFrame.trim()}`).digest('hex').slice(0, 16);
}
