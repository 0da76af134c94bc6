import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { describe, expect, it } from 'vitest';
import { LimiteEnLotes, loteDe } from '../../../server/limits';

/** A shared store (what PostgreSQL is to several processes) that counts the round trips made to it. */
function almacen(points: number) {
  const store = new RateLimiterMemory({ points, duration: 60 });
  let viajes = 0;
  const consume = store.consume.bind(store);
  store.consume = (key, p, opts) => {
    viajes++;
    return consume(key, p, opts);
  };
  return { store, viajes: () => viajes };
}

/** Spend one point per request, `n` requests at once; how many were served, and the remaining points each answer said. */
async function rafaga(limite: { consume(key: string, p?: number): Promise<RateLimiterRes> }, n: number, key = 'key:1') {
  const r = await Promise.allSettled(Array.from({ length: n }, () => limite.consume(key)));
  const servidas = r.flatMap((x) => (x.status === 'fulfilled' ? [x.value] : []));
  for (const x of r) if (x.status === 'rejected') expect(x.reason).toBeInstanceOf(RateLimiterRes);
  return servidas;
}

describe('the API limit taken in leases', () => {
  it('serves exactly the limit in one process, with exact remaining counts, in a tenth of the round trips', async () => {
    const { store, viajes } = almacen(120);
    const limite = new LimiteEnLotes(store, loteDe(120));
    const restantes: number[] = [];
    for (let i = 0; i < 120; i++) restantes.push((await limite.consume('key:1')).remainingPoints);
    expect(restantes).toEqual(Array.from({ length: 120 }, (_, i) => 119 - i));
    await expect(limite.consume('key:1')).rejects.toBeInstanceOf(RateLimiterRes);
    expect(viajes()).toBe(13);
  });

  it('never serves more than the limit to a burst of parallel requests of one key', async () => {
    const { store, viajes } = almacen(30);
    const limite = new LimiteEnLotes(store, 10);
    expect(await rafaga(limite, 50)).toHaveLength(30);
    expect(viajes()).toBeLessThanOrEqual(5);
  });

  it('takes what was left when a lease meets the limit, and gives the rest back', async () => {
    const { store } = almacen(25);
    const limite = new LimiteEnLotes(store, 10);
    expect(await rafaga(limite, 25)).toHaveLength(25);
    expect((await store.get('key:1'))?.consumedPoints).toBe(25);
    await expect(limite.consume('key:1')).rejects.toBeInstanceOf(RateLimiterRes);
  });

  it('across processes serves at most the limit and refuses at most P × (lote − 1) early', async () => {
    const { store } = almacen(120);
    const procesos = [new LimiteEnLotes(store, 10), new LimiteEnLotes(store, 10), new LimiteEnLotes(store, 10)];
    let servidas = 0;
    for (let i = 0; i < 200; i++) {
      try {
        await procesos[i % 3]!.consume('key:1');
        servidas++;
      } catch (err) {
        expect(err).toBeInstanceOf(RateLimiterRes);
      }
    }
    expect(servidas).toBeLessThanOrEqual(120);
    expect(servidas).toBeGreaterThanOrEqual(120 - 3 * 9);
  });

  it('spends several points at once (a JSON-RPC batch) and refuses a batch larger than what is left, dropping the lease', async () => {
    const { store } = almacen(20);
    const limite = new LimiteEnLotes(store, 10);
    await limite.consume('key:1');
    expect((await limite.consume('key:1', 15)).remainingPoints).toBe(4);
    await expect(limite.consume('key:1', 5)).rejects.toBeInstanceOf(RateLimiterRes);
    // The refusal spent its points, as any refused request's: nothing is left for anyone.
    await expect(limite.consume('key:1')).rejects.toBeInstanceOf(RateLimiterRes);
  });

  it('keeps each key to its own count', async () => {
    const { store } = almacen(12);
    const limite = new LimiteEnLotes(store, 10);
    expect(await rafaga(limite, 20, 'key:1')).toHaveLength(12);
    expect(await rafaga(limite, 20, 'key:2')).toHaveLength(12);
  });
});
