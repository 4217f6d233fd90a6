/**
 * Coalesces many small writes into few: items added while a write is running wait for the next one,
 * which takes them all. With many sends in flight this is one statement for a whole group; with one,
 * it is one per item, never a wait for a group to fill.
 */
export function groupWriter<Item, Answer>(write: (group: Item[]) => Promise<Map<Item, Answer>>) {
  let queued: { item: Item; resolve: (answer: Answer) => void; reject: (error: unknown) => void }[] = [];
  let running: Promise<void> | null = null;

  async function drain() {
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
