/** The one source of time. Code asks `clock.now()`; tests and FAKE_NOW move it. */
export interface Clock {
  now(): Date;
}

/** Real time, or with FAKE_NOW a clock that starts there and runs on. */
export function createClock(fakeNow: string | null = null): Clock {
  if (!fakeNow) return { now: () => new Date() };
  const offset = Date.parse(fakeNow) - Date.now();
  return { now: () => new Date(Date.now() + offset) };
}

/** A clock tests can set and move forward. */
export class ManualClock implements Clock {
  private offset: number;
  constructor(start: string | Date = new Date()) {
    this.offset = new Date(start).getTime() - Date.now();
  }
  now(): Date {
    return new Date(Date.now() + this.offset);
  }
  set(to: string | Date): void {
    this.offset = new Date(to).getTime() - Date.now();
  }
  advance(ms: number): void {
    this.offset += ms;
  }
}
