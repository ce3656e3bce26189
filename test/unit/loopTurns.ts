/**
 * How many times the event loop turned while `run` ran: a tick re-queued with setImmediate counts
 * each turn, so a test can tell work done in slices (the loop given back between them) from work
 * done in one synchronous stretch, without a clock.
 */
export async function countingTurns<T>(run: () => Promise<T>): Promise<{ value: T; turns: number }> {
  let turns = 0;
  let ticking = true;
  const tick = (): void => {
    turns++;
    if (ticking) setImmediate(tick);
  };
  setImmediate(tick);
  try {
    const value = await run();
    return { value, turns };
  } finally {
    ticking = false;
  }
}
