// How a bench script ends: exit 0 when its work resolves, else the error's stack on stderr and exit 1.

/** An error as text for the console or a parent process: its stack where it has one. */
export function errorText(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

/** Runs a bench script's `main` and exits with its outcome. */
export function runScript(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`${errorText(error)}\n`);
      process.exit(1);
    },
  );
}
