// What a trap of the core means, in words for the user. Kept apart from the worker so that it
// can be tested without instantiating the core.

const MB = 1 << 20;

/** A heap this large when the core trapped without a panic means an allocation failed. */
export const OUT_OF_MEMORY_BYTES = 1024 * MB;

/** `panic`: the panic hook's message, empty if none; `error`: the trap's own message;
 * `memoryBytes`: the core's heap when it trapped. */
export function trapMessage(panic: string, error: string, memoryBytes: number): string {
  if (panic) return `the simulator panicked: ${panic}`;
  // An allocation that fails aborts without a panic message.
  if (memoryBytes >= OUT_OF_MEMORY_BYTES || /out of memory|allocation/i.test(error))
    return `the scenario needed more memory than this tab has (the simulator held ${Math.round(memoryBytes / MB)} MB when it ran out)`;
  return `the simulator stopped with an internal error (${error || 'a WebAssembly trap'})`;
}
