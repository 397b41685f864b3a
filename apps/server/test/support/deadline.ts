/**
 * A step a test takes itself (a driver call with no time limit of its own) bounded and named: on a
 * loaded box a hang then fails as "<label>: no answer in N ms" instead of as the test's own timeout,
 * which hides which step stood still and any assertion that failed before the clean-up hung.
 */
export async function deadline<T>(label: string, ms: number, step: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      step,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${label}: no answer in ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
