import type autocannon from 'autocannon';
import { decaCompleta } from '../test/support/decas';

/**
 * The mixed workload of the load and soak benchmarks, as autocannon entries:
 * - 70 % reads: the list (a page of 20) and one DeCA;
 * - 20 % create + issue (a complete DeCA, its PDF rendered and sealed);
 * - 10 % changes: modify (method 1, new version and PDF), replace (method 2)
 *   and end the service, each on DeCAs issued for it beforehand.
 */
export interface Mezcla {
  /** One cycle of 20 requests per connection: 14 reads, 4 creates, 2 changes. */
  requests: autocannon.Request[];
  /** Requests sent so far, by kind. */
  porTipo: Record<string, number>;
}

async function crearPrevia(url: string, key: string, n: number): Promise<number> {
  const res = await fetch(`${url}/api/v1/decas`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(decaCompleta({ referencia: `Previa ${n}` })),
  });
  if (res.status !== 201) throw new Error(`crear: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { deca: { id: number } }).deca.id;
}

/** Up to `n` at a time: setting up hundreds of DeCAs one by one would take longer than the run. */
async function enParalelo<T>(total: number, n: number, f: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < total; i += n) out.push(...(await Promise.all(Array.from({ length: Math.min(n, total - i) }, (_, j) => f(i + j)))));
  return out;
}

/** Issue `previas` DeCAs for each kind of change, then build the entries. */
export async function prepararMezcla(url: string, key: string, previas: number): Promise<Mezcla> {
  const lote = (k: number) => enParalelo(previas, 8, (i) => crearPrevia(url, key, k * previas + i));
  const modificables = await lote(0);
  const sustituibles = await lote(1);
  const finalizables = await lote(2);
  let n = 0;
  const porTipo: Record<string, number> = {};
  const auth = { authorization: `Bearer ${key}` };
  const json = { ...auth, 'content-type': 'application/json' };
  const contar = (tipo: string) => (porTipo[tipo] = (porTipo[tipo] ?? 0) + 1);
  const id = () => modificables[Math.floor(Math.random() * modificables.length)]!;
  // One entry per kind of request, each with its own method and headers (autocannon keeps an
  // entry's method; changing it in setupRequest leaves connections waiting).
  const listar: autocannon.Request = { method: 'GET', path: '/api/v1/decas?limite=20', headers: auth, setupRequest: (r) => (contar('listar'), r) };
  const ver: autocannon.Request = { method: 'GET', headers: auth, setupRequest: (r) => (contar('ver'), { ...r, path: `/api/v1/decas/${id()}` }) };
  const crear: autocannon.Request = {
    method: 'POST',
    path: '/api/v1/decas',
    headers: json,
    setupRequest: (r) => (contar('crear'), { ...r, body: JSON.stringify(decaCompleta({ referencia: `Carga ${++n}` })) }),
  };
  const modificar: autocannon.Request = {
    method: 'PATCH',
    headers: json,
    setupRequest: (r) => (contar('modificar'), { ...r, path: `/api/v1/decas/${id()}`, body: JSON.stringify({ conductor_nombre: `Conductor ${++n}`, motivo: 'Cambio de conductor' }) }),
  };
  // Replace and end alternate; each DeCA is replaced or ended once (a second time would be a 409).
  let turno = 0;
  const sustituirOFin: autocannon.Request = {
    method: 'POST',
    headers: json,
    setupRequest: (r) => {
      const sustituir = turno++ % 2 === 0 && sustituibles.length > 0;
      const objetivo = sustituir ? sustituibles.pop() : finalizables.pop();
      if (objetivo === undefined) return (contar('crear'), { ...r, method: 'POST', path: '/api/v1/decas', body: JSON.stringify(decaCompleta({ referencia: `Carga ${++n}` })) });
      contar(sustituir ? 'sustituir' : 'fin');
      return sustituir
        ? { ...r, path: `/api/v1/decas/${objetivo}/sustituir`, body: JSON.stringify({ ...decaCompleta({ referencia: `Sustituta ${++n}` }), motivo: 'Otra mercancía' }) }
        : { ...r, path: `/api/v1/decas/${objetivo}/fin`, body: '{}' };
    },
  };
  return {
    requests: [listar, ver, crear, listar, ver, modificar, listar, ver, listar, ver, crear, listar, ver, sustituirOFin, listar, ver, crear, ver, listar, crear],
    porTipo,
  };
}
