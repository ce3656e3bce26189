/** A minimal event emitter for core code (which may not use VS Code's). */
export class Listeners<T> {
  private readonly set = new Set<(value: T) => void>();

  /** Adds a listener; returns the function that removes it. */
  add(listener: (value: T) => void): () => void {
    this.set.add(listener);
    return () => this.set.delete(listener);
  }

  /** Calls every listener; one that throws does not stop the others. */
  fire(value: T): void {
    for (const l of [...this.set]) {
      try {
        l(value);
      } catch {
        // A listener's failure is its own; the data path goes on.
      }
    }
  }
}
