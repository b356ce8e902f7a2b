/** Where a command's output goes, and whether a person is there: every command takes one; tests capture it. */

/** The operator's console of a manual session: a readable input and a writable output. */
export interface ConsoleIo {
  input: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?(on: boolean): unknown };
  output: NodeJS.WritableStream & { isTTY?: boolean };
}

/** Where output goes; tests capture it. */
export interface RunIo {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  /** Whether a person can be prompted. */
  interactive: boolean;
  /** Whether live progress is drawn (stdout is a terminal). @default interactive */
  progress?: boolean;
  /** Where a manual session's plan is confirmed (tests); else stdin and stdout when interactive. */
  operator?: ConsoleIo;
}
