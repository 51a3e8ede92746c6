// Fan-out of realtime events to a user's open sockets. In-process here; a Redis implementation of the
// same interface carries events between processes in the scale-out mode.
import type { RealtimeEvent } from './realtime-event.js';

export type RealtimeHandler = (event: RealtimeEvent) => void;

export interface EventBus {
  publish(userId: string, event: RealtimeEvent): Promise<void>;
  /** Returns the function that unsubscribes. */
  subscribe(userId: string, handler: RealtimeHandler): () => void;
  close(): Promise<void>;
}

export class InProcessEventBus implements EventBus {
  readonly #handlers = new Map<string, Set<RealtimeHandler>>();

  publish(userId: string, event: RealtimeEvent): Promise<void> {
    for (const handler of [...(this.#handlers.get(userId) ?? [])]) {
      // One failing subscriber (a closed socket) must not stop delivery to the others.
      try {
        handler(event);
      } catch {
        this.#remove(userId, handler);
      }
    }
    return Promise.resolve();
  }

  subscribe(userId: string, handler: RealtimeHandler): () => void {
    let handlers = this.#handlers.get(userId);
    if (!handlers) {
      handlers = new Set();
      this.#handlers.set(userId, handlers);
    }
    handlers.add(handler);
    return () => this.#remove(userId, handler);
  }

  close(): Promise<void> {
    this.#handlers.clear();
    return Promise.resolve();
  }

  #remove(userId: string, handler: RealtimeHandler): void {
    const handlers = this.#handlers.get(userId);
    if (!handlers) return;
    handlers.delete(handler);
    if (handlers.size === 0) this.#handlers.delete(userId);
  }
}
