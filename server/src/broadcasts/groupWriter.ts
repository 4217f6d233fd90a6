/**
 * Coalesces many small writes into few: items added in the same turn of the event loop go in one
 * write, items added while a write is running wait for the next one, which takes them all. With many
 * sends answered at once (the sandbox, a fast FCM) this is one transaction for a whole batch; with
 * one, it is one per item, never a wait for a group to fill.
 */
export function groupWriter<Item, Answer>(write: (group: Item[]) => Promise<Map<Item, Answer>>) {
  let queued: { item: Item; resolve: (answer: Answer) => void; reject: (error: unknown) => void }[] = [];
  let running: Promise<void> | null = null;

  async function drain() {
    // Answers that arrive together (a batch's sends resolving in one turn) make one group.
    await new Promise<void>((resolve) => setImmediate(resolve));
    while (queued.length > 0) {
      const group = queued;
      queued = [];
      try {
        const answers = await write(group.map((entry) => entry.item));
        for (const entry of group) entry.resolve(answers.get(entry.item) as Answer);
      } catch (error) {
        for (const entry of group) entry.reject(error);
      }
    }
    running = null;
  }

  return {
    add(item: Item): Promise<Answer> {
      return new Promise<Answer>((resolve, reject) => {
        queued.push({ item, resolve, reject });
        running ??= drain();
      });
    },
  };
}
