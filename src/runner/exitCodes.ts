/**
 * The command-line runner's exit codes, in one place (the README lists them): a CI job or a cron
 * wrapper tells "done", "refused before anything was sent", "failed" and "may have been charged"
 * apart by the code alone.
 */
export const EXIT = {
  /** Every step done. */
  done: 0,
  /** A step failed (a job failed on the server, a download was cut); what was charged is known and said. */
  failed: 1,
  /** A bad argument or file: nothing was sent. */
  badInput: 2,
  /** Refused by the plan (past --max-credits), a ceiling, a budget or the balance: nothing was sent for it. */
  refused: 3,
  /** A paid call ended with no clear answer: it may have been charged (check the request history before running it again). */
  mayBeCharged: 4,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];
