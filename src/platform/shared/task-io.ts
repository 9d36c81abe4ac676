// Where an operator task (vigil templates import, intel update, ...) writes: the CLI process's streams, or
// the admin socket of a running `vigil serve` (see admin/tasks.ts).
export interface TaskIO {
  out(text: string): void;
  err(text: string): void;
  /** The user's terminal is a TTY: progress may rewrite one line in place. */
  tty: boolean;
}
