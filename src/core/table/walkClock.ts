/** The clock of a CSV source's background walk (csvSource.ts): time and a timer for its pauses; tests drive them by hand. */
export interface WalkClock {
  now(): number;
  /** Runs `run` once after `ms`; returns what cancels it. */
  after(ms: number, run: () => void): () => void;
}

export const realClock: WalkClock = {
  now: () => performance.now(),
  after: (ms, run) => {
    const timer = setTimeout(run, ms); // not unref'd: the walk, like its reads, keeps the process alive until whenMapped()
    return () => clearTimeout(timer);
  },
};
