import type { Readiness } from './health.ts';

/** Ready from start until shutdown begins; `/readyz` reads it. */
export class ReadinessState implements Readiness {
  #ready = true;

  isReady(): boolean {
    return this.#ready;
  }

  markShuttingDown(): void {
    this.#ready = false;
  }
}
