/** A one-shot signal between a test and the code it holds: `wait` settles once `fire` is called. */
export function signal(): { wait: Promise<void>; fire: () => void } {
  let fire!: () => void;
  const wait = new Promise<void>((resolve) => {
    fire = resolve;
  });
  return { wait, fire };
}
