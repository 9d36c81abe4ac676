// The limits every sandboxed script runs under (src/engine/js/sandbox.ts). One place, so that
// docs/security.md ("Template JavaScript") and the tests name the same figures.

/**
 * WebAssembly memory of one sandbox thread: QuickJS's heap, its stack and every ArrayBuffer live in it.
 * The memory object is created with this maximum, so growing past it fails inside QuickJS's malloc (the
 * script gets "out of memory"); QuickJS's own byte count is not trusted (in the Emscripten build it
 * counts blocks, not bytes). About 25 MiB of it is left for the script's values.
 */
export const SANDBOX_MEMORY_BYTES = 32 * 1024 * 1024;

/** How long a script may compute between two calls of host functions (a call's own time is not counted). */
export const SANDBOX_CPU_MS = 5_000;

/** A whole run (host calls included), when the caller names no deadline. */
export const SANDBOX_TIMEOUT_MS = 300_000;

/** QuickJS's own stack limit (its check throws a catchable "stack overflow" in the script). */
export const SANDBOX_STACK_BYTES = 1024 * 1024;

/** The sandbox thread's native stack, in MiB (a deeper recursion than QuickJS allows fails there first). */
export const SANDBOX_THREAD_STACK_MB = 8;

/**
 * Encoded values (arguments of a host call, what it answers, the values handed in, the result), in
 * characters: a larger one is a script error, never a copy that large.
 */
export const SANDBOX_VALUE_CHARS = 8 * 1024 * 1024;

/** Sandbox threads at once; a run beyond waits for one. Idle ones stop after SANDBOX_IDLE_MS. */
export const SANDBOX_MAX_THREADS = 8;
export const SANDBOX_IDLE_THREADS = 4;
export const SANDBOX_IDLE_MS = 30_000;

/**
 * After a run's deadline, its abort, or SANDBOX_CPU_MS of computing, the thread has this long to stop by
 * itself (QuickJS's interrupt handler) before it is terminated.
 */
export const SANDBOX_GRACE_MS = 2_000;
