/**
 * A small in-memory stand-in for the DeCA API (only what the sync engine
 * calls), with the server's idempotency rule: the same Idempotency-Key with
 * the same body answers the first result again; with another body, 422.
 * Each request can be made to fail: before the server sees it, or after it
 * committed (the answer is lost on the way back, as when an app is killed).
 */
export type Fallo = 'red' | 'perdida' | { status: number; codigo: string; campos?: Record<string, string>; retryAfter?: number };

export interface Llamada {
  method: string;
  path: string;
  key: string | null;
  body: unknown;
}

const ERROR = (status: number, codigo: string, campos: Record<string, string> = {}) => ({
  error: { codigo, mensaje: `Error ${codigo}`, campos, avisos: [], request_id: 'req_test' },
});

export class FakeServer {
  decas = new Map<number, Record<string, unknown>>();
  llamadas: Llamada[] = [];
  fallos: Fallo[] = [];
  /** Per-path failures, consumed in order (path prefix match). */
  fallosPara: { ruta: RegExp; fallo: Fallo }[] = [];
  private siguienteId = 1;
  private idem = new Map<string, { huella: string; status: number; body: unknown }>();

  deca(id: number): Record<string, unknown> {
    const d = this.decas.get(id);
    if (!d) throw new Error(`no deca ${id}`);
    return d;
  }

  private crear(body: Record<string, unknown>): Record<string, unknown> {
    const id = this.siguienteId++;
    const { emitir, ...datos } = body;
    const d: Record<string, unknown> = {
      envios: [],
      ...datos,
      id,
      numero: `2026-${String(id).padStart(6, '0')}`,
      estado: emitir === false ? 'pendiente' : 'emitido',
      version: 1,
      archivado: false,
      ref_externa: (datos.ref_externa as string | undefined) ?? null,
      fecha_transporte: (datos.fecha_transporte as string | undefined) ?? null,
    };
    this.decas.set(id, d);
    return d;
  }

  private manejar(method: string, path: string, body: Record<string, unknown>): { status: number; body: unknown } {
    let m: RegExpExecArray | null;
    if (method === 'POST' && path === '/api/v1/decas') {
      const ref = body.ref_externa;
      const ya = ref ? [...this.decas.values()].find((d) => d.ref_externa === ref) : undefined;
      if (ya) return { status: 200, body: { deca: ya, avisos: [{ campo: 'ref_externa', codigo: 'ref_externa_repetida', mensaje: 'Ya existía' }] } };
      return { status: 201, body: { deca: this.crear(body), avisos: [] } };
    }
    if ((m = /^\/api\/v1\/decas\/(\d+)(?:\/(\w+))?$/.exec(path))) {
      const d = this.decas.get(Number(m[1]));
      if (!d) return { status: 404, body: ERROR(404, 'no_encontrado') };
      const accion = m[2];
      if (method === 'GET' && !accion) return { status: 200, body: { deca: d } };
      if (method === 'PATCH') {
        const { motivo: _m, emitir, ...cambios } = body;
        if (cambios.ref_externa && [...this.decas.values()].some((x) => x !== d && x.ref_externa === cambios.ref_externa)) {
          return { status: 409, body: ERROR(409, 'ref_externa_usada', { ref_externa: 'Ya usada' }) };
        }
        Object.assign(d, cambios);
        if (emitir) d.estado = 'emitido';
        return { status: 200, body: { deca: d } };
      }
      if (method === 'DELETE') {
        this.decas.delete(d.id as number);
        return { status: 200, body: { eliminada: true } };
      }
      if (method === 'POST' && accion === 'archivar') {
        d.archivado = body.archivado;
        return { status: 200, body: { deca: d } };
      }
      if (method === 'POST' && accion === 'emitir') {
        d.estado = 'emitido';
        return { status: 200, body: { deca: d } };
      }
      if (method === 'POST' && accion === 'fin') {
        d.fin_servicio_at = '2026-11-21 10:00:00';
        return { status: 200, body: { deca: d } };
      }
      if (method === 'POST' && accion === 'sustituir') {
        const { motivo: _m, ...cambios } = body;
        const nueva = this.crear({ ...d, ...cambios, id: undefined, emitir: true });
        d.estado = 'sustituido';
        return { status: 200, body: { deca: nueva } };
      }
    }
    return { status: 404, body: ERROR(404, 'no_encontrado') };
  }

  /** The `fetch` the client's API module is given. */
  fetch: typeof fetch = async (input, init) => {
    const url = new URL(String(input), 'http://test.local');
    const method = init?.method ?? 'GET';
    const headers = new Headers(init?.headers);
    const key = headers.get('Idempotency-Key');
    const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : {};
    this.llamadas.push({ method, path: url.pathname, key, body });
    const porRuta = this.fallosPara.findIndex((f) => f.ruta.test(`${method} ${url.pathname}`));
    const fallo = porRuta >= 0 ? this.fallosPara.splice(porRuta, 1)[0]!.fallo : this.fallos.shift();
    if (fallo === 'red') throw new TypeError('Failed to fetch');
    if (fallo && typeof fallo === 'object') {
      const h: Record<string, string> = { 'Content-Type': 'application/json' };
      if (fallo.retryAfter) h['Retry-After'] = String(fallo.retryAfter);
      return new Response(JSON.stringify(ERROR(fallo.status, fallo.codigo, fallo.campos)), { status: fallo.status, headers: h });
    }
    if (headers.get('X-DeCA-CSRF') !== '1' && method !== 'GET') {
      return new Response(JSON.stringify(ERROR(403, 'csrf')), { status: 403 });
    }
    let res: { status: number; body: unknown };
    let replayed = false;
    const huella = JSON.stringify(body);
    const prev = key ? this.idem.get(`${method} ${url.pathname} ${key}`) : undefined;
    if (prev) {
      if (prev.huella !== huella) res = { status: 422, body: ERROR(422, 'idempotencia_distinta') };
      else {
        res = prev;
        replayed = true;
      }
    } else {
      res = this.manejar(method, url.pathname, body);
      if (key && res.status < 300) this.idem.set(`${method} ${url.pathname} ${key}`, { huella, ...res });
    }
    if (fallo === 'perdida') throw new TypeError('network error: response lost');
    const h: Record<string, string> = { 'Content-Type': 'application/json' };
    if (replayed) h['Idempotent-Replayed'] = 'true';
    return new Response(JSON.stringify(res.body), { status: res.status, headers: h });
  };
}
