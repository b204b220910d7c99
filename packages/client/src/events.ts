/**
 * A tiny typed event emitter that runs anywhere (no node:events). Listeners are called in order,
 * synchronously; a listener that throws does not stop the others or the SDK's work: its error is
 * rethrown on a microtask, as EventTarget reports listener errors.
 */
export class TypedEmitter<Events extends object> {
  readonly #listeners = new Map<keyof Events, Set<(event: never) => void>>();

  /** Adds a listener; returns the function that removes it. */
  on<K extends keyof Events>(type: K, listener: (event: Events[K]) => void): () => void {
    let set = this.#listeners.get(type);
    if (set === undefined) this.#listeners.set(type, (set = new Set()));
    set.add(listener);
    return () => this.off(type, listener);
  }

  off<K extends keyof Events>(type: K, listener: (event: Events[K]) => void): void {
    this.#listeners.get(type)?.delete(listener);
  }

  protected emit<K extends keyof Events>(type: K, event: Events[K]): void {
    for (const listener of [...(this.#listeners.get(type) ?? [])] as ((event: Events[K]) => void)[]) {
      try {
        listener(event);
      } catch (error) {
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  }
}
