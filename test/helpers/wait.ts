// Waiting in tests: poll a condition until it holds or a deadline passes, never sleep for a guess.

/** Generous by default: test files run side by side on a small machine. */
const DEADLINE_MS = 30_000;
const EVERY_MS = 20;

/**
 * Polls `check` until it holds; fails naming `what` (a text, or a function that says what was seen
 * last) once `timeoutMs` have passed.
 */
export async function until(what: string | (() => string), check: () => boolean | Promise<boolean>, timeoutMs = DEADLINE_MS): Promise<void> {
  await untilValue(what, async () => ((await check()) ? true : null), timeoutMs);
}

/** Polls `probe` until it answers something other than null, and returns that. */
export async function untilValue<T>(what: string | (() => string), probe: () => T | null | Promise<T | null>, timeoutMs = DEADLINE_MS): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${typeof what === 'string' ? what : what()}`);
    await new Promise((resolve) => setTimeout(resolve, EVERY_MS));
  }
}
