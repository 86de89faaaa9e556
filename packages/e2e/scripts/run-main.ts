// The exit-code convention of this package's scripts: `main` resolves to the code; a throw is exit 2,
// printed as `code: message` for an `E2eError`.
import { isE2eError } from '../src/index.js';

/** Runs a script's `main` and sets `process.exitCode` from its result (2 when it throws). */
export function runMain(main: () => Promise<number>): void {
  main().then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      console.error(isE2eError(error) ? `${error.code}: ${error.message}` : error);
      process.exitCode = 2;
    },
  );
}
