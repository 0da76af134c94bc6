import { describe, expect } from 'vitest';
import { ErrorBody } from '../../shared/errors';
import { puede, type RolUsuario } from '../../shared/rules/roles';
import { revocarClave, crearClave } from '../../server/domain/accounts/api-keys';
import { OPERACIONES, type OperacionApi } from '../../server/http/openapi';
import type { TestApp } from '../support/app';
import { decaCompleta } from '../support/decas';
import { iniciarSesion } from '../support/decas-helpers';
import { it, test, type CuentaDePrueba } from '../support/fixtures';
import { usuarioCon } from '../support/usuarios';

// Dozens of DeCAs and calls: a plan with no monthly limit, and room in the per-key limit.
test.override('opcionesCuenta', { plan: 'pro' });
test.override('opcionesApp', { apiPoints: 10_000 });

const CSRF = { 'X-DeCA-CSRF': '1' };

/** Who calls, and what they must get from an operation. */
interface Quien {
  nombre: string;
  auth: { key?: string; cookie?: string };
  /** The expected status class for this operation: a status, or `permitido` (neither 401 nor 403, never 500). */
  espera(op: OperacionApi): number | 'permitido';
  codigo?(op: OperacionApi): string | undefined;
}

const escribe = (op: OperacionApi) => op.metodo !== 'get';
const porRol = (rol: RolUsuario) => (op: OperacionApi) => (op.comando.permiso && !puede(rol, op.comando.permiso) ? 403 : 'permitido');

/** Ids of the account's own resources for the path: a fresh pending DeCA (operations change it), its webhook. */
async function ruta(app: TestApp, c: CuentaDePrueba, op: OperacionApi, webhookId: number): Promise<string> {
  let r = op.ruta;
  if (r.includes('{id}')) {
    if (r.startsWith('/webhooks')) r = r.replace('{id}', String(webhookId));
    else {
      const d = await app.request('POST', '/api/v1/decas', { key: c.live, body: decaCompleta({ emitir: false }) });
      r = r.replace('{id}', String(d.body.deca.id));
    }
  }
  return `/api/v1${r.replace('{entrega}', 'ent_inexistente')}`;
}

/**
 * A body each write's schema takes: the access check comes first anyway, but
 * a valid body also shows that another account's resource is not found (404)
 * rather than refused for its input.
 */
const CUERPOS: Record<string, unknown> = {
  'post /decas': decaCompleta({ emitir: false }),
  'patch /decas/{id}': { referencia: 'Pedido 12' },
  'post /decas/{id}/sustituir': { motivo: 'Otro cargador', cargador_nombre: 'Otra Carga SL' },
  'post /decas/{id}/archivar': { archivado: true },
  'post /decas/{id}/enviar': { email: 'oficina@example.com' },
  'post /decas/{id}/control': { codigo: '123456' },
  'post /agenda/empresas': { nombre: 'Cargas del Sur', nif: 'B65410011' },
  'post /agenda/vehiculos': { matricula: '1234 BCD' },
  'post /agenda/lugares': { texto: 'Mercamadrid' },
  'post /webhooks': { url: 'https://93.184.216.34/otro', eventos: ['deca.creado'] },
  'patch /webhooks/{id}': { activo: false },
};
function cuerpo(op: OperacionApi): unknown {
  return CUERPOS[`${op.metodo} ${op.ruta}`] ?? (escribe(op) ? {} : undefined);
}

describe('authorization, generated from the route table', () => {
  it('answers every operation × every kind of caller as its access and the caller’s role say, and never with a 500', async ({ app, c, cuentaNueva }) => {
    const revocada = await app.database.db.transaction().execute(async (trx) => {
      const k = await crearClave(trx, { accountId: c.account.id, entorno: 'produccion', soloLectura: false });
      await revocarClave(trx, k.row.id, c.account.id, new Date());
      return k.key;
    });
    const admin = await iniciarSesion(app, c.email, c.password);
    const oficina = (await usuarioCon(app, admin, 'oficina')).cookie;
    const conductor = (await usuarioCon(app, admin, 'conductor')).cookie;
    const hook = await app.request('POST', '/api/v1/webhooks', { key: c.live, body: { url: 'https://93.184.216.34/hook', eventos: ['deca.emitido'] } });
    expect(hook.status, hook.text).toBe(201);

    const quienes: Quien[] = [
      { nombre: 'sin clave', auth: {}, espera: () => 401 },
      { nombre: 'clave revocada', auth: { key: revocada }, espera: () => 401 },
      { nombre: 'clave del otro entorno', auth: { key: c.test }, espera: () => 401 },
      { nombre: 'clave de solo lectura', auth: { key: c.liveReadOnly }, espera: (op) => (escribe(op) ? 403 : 'permitido'), codigo: (op) => (escribe(op) ? 'solo_lectura' : undefined) },
      { nombre: 'clave de otra cuenta', auth: { key: cuentaNueva.live }, espera: (op) => (op.ruta.includes('{id}') ? 404 : 'permitido') },
      { nombre: 'sesión de conductor', auth: { cookie: conductor }, espera: porRol('conductor'), codigo: (op) => (porRol('conductor')(op) === 403 ? 'prohibido' : undefined) },
      { nombre: 'sesión de oficina', auth: { cookie: oficina }, espera: porRol('oficina'), codigo: (op) => (porRol('oficina')(op) === 403 ? 'prohibido' : undefined) },
    ];

    const vistos: string[] = [];
    const esperados: string[] = [];
    for (const op of OPERACIONES) {
      for (const q of quienes) {
        const camino = await ruta(app, c, op, hook.body.webhook.id);
        const res = await app.request(op.metodo.toUpperCase(), camino, { ...q.auth, headers: CSRF, body: cuerpo(op) });
        const espera = q.espera(op);
        const donde = `${op.metodo.toUpperCase()} ${op.ruta} · ${q.nombre}`;
        const clase = res.status === 401 || res.status === 403 || res.status >= 500 ? String(res.status) : espera === 'permitido' ? 'permitido' : String(res.status);
        vistos.push(`${donde} → ${clase}`);
        esperados.push(`${donde} → ${espera}`);
        if (res.status >= 400 && res.headers.get('content-type')?.includes('json')) {
          const err = ErrorBody.parse(res.body).error;
          const codigo = q.codigo?.(op);
          if (codigo && res.status === espera) expect(err.codigo, donde).toBe(codigo);
        }
      }
    }
    expect(vistos).toEqual(esperados);
  });

  it('answers every MCP tool × every kind of key the same way: 401 without a valid key of the environment, solo_lectura for writes with a read-only key, not found for another account', async ({ app, c, cuentaNueva }) => {
    const revocada = await app.database.db.transaction().execute(async (trx) => {
      const k = await crearClave(trx, { accountId: c.account.id, entorno: 'produccion', soloLectura: false });
      await revocarClave(trx, k.row.id, c.account.id, new Date());
      return k.key;
    });
    let id = 0;
    const llamar = async (key: string | null, name: string, args: Record<string, unknown>) => {
      const res = await fetch(`${app.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(key ? { authorization: `Bearer ${key}` } : {}) },
        body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method: name === '' ? 'tools/list' : 'tools/call', params: name === '' ? {} : { name, arguments: args } }),
      });
      const body = (await res.json()) as { result?: { tools?: { name: string; annotations?: { readOnlyHint?: boolean } }[]; isError?: boolean; content?: { text: string }[] } };
      const r = body.result;
      const codigo = r?.isError ? (JSON.parse(r.content?.[0]?.text ?? '{}') as { error?: { codigo?: string } }).error?.codigo : undefined;
      return { status: res.status, result: r, codigo };
    };
    const herramientas = (await llamar(c.live, '', {})).result!.tools!;
    expect(herramientas.length).toBeGreaterThan(10);
    const deLectura = new Set((await llamar(c.liveReadOnly, '', {})).result!.tools!.map((t) => t.name));
    const vistos: string[] = [];
    const esperados: string[] = [];
    for (const t of herramientas) {
      const d = await app.request('POST', '/api/v1/decas', { key: c.live, body: decaCompleta({ emitir: false }) });
      const args: Record<string, unknown> = { id: String(d.body.deca.id), ...(t.name === 'buscar_agenda' ? { tipo: 'empresas' } : {}), ...(t.name.startsWith('crear') || t.name.startsWith('validar') ? decaCompleta({ emitir: false }) : {}), ...(t.name === 'enviar_deca' ? { email: 'oficina@example.com' } : {}) };
      // What a read-only key is not offered, it may not call.
      const escritura = !deLectura.has(t.name);
      const conId = ['ver_deca', 'historial_deca', 'descargas_deca', 'modificar_deca', 'sustituir_deca', 'emitir_deca', 'enviar_deca', 'pedir_datos', 'fin_servicio'].includes(t.name);
      for (const [quien, key, espera] of [
        ['sin clave', null, 'http 401'],
        ['clave revocada', revocada, 'http 401'],
        ['clave del otro entorno', c.test, 'http 401'],
        ['clave de solo lectura', c.liveReadOnly, escritura ? 'solo_lectura' : 'permitido'],
        ['clave de otra cuenta', cuentaNueva.live, conId ? 'no_encontrado' : 'permitido'],
      ] as const) {
        const r = await llamar(key, t.name, args);
        const visto = r.status === 401 ? 'http 401' : r.codigo === 'solo_lectura' || r.codigo === 'no_encontrado' || r.codigo === 'prohibido' || r.codigo === 'no_autenticado' ? r.codigo : r.status === 200 ? 'permitido' : `http ${r.status}`;
        vistos.push(`${t.name} · ${quien} → ${visto}`);
        esperados.push(`${t.name} · ${quien} → ${espera}`);
      }
    }
    expect(vistos).toEqual(esperados);
  });
});
