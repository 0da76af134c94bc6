/** `fn` over `items`, at most `n` at a time; every item is attempted, then the first failure (if any) is thrown. */
export async function porTurnos<T>(items: readonly T[], n: number, fn: (item: T) => Promise<void>): Promise<void> {
  let siguiente = 0;
  const fallos: unknown[] = [];
  const turno = async () => {
    while (siguiente < items.length) {
      const item = items[siguiente++]!;
      await fn(item).catch((err: unknown) => void fallos.push(err));
    }
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, turno));
  if (fallos.length) throw fallos[0];
}
