import { describe, expect } from 'vitest';
import { OPERACIONES_API as OPERACIONES, type OperacionApi } from '../../server/commands/operaciones';
import { crearClave, revocarClave } from '../../server/domain/accounts/api-keys';
import { ErrorBody } from '../../shared/errors';
import { puede, type RolUsuario } from '../../shared/rules/roles';
import { DecaList } from '../../shared/schemas/deca';
import type { TestApp } from '../support/app';
import { decaCompleta } from '../support/decas';
import { iniciarSesion } from '../support/decas-helpers';
import { type CuentaDePrueba, it, test } from '../support/fixtures';
import { fotoGuardada } from '../support/fotos';
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
/** A driver on a DeCA that is not theirs (shared/rules/roles.ts): what their role forbids is 403, anything else 404, as another account's. */
const conductorAjena = (op: OperacionApi) => (porRol('conductor')(op) === 403 ? 403 : op.ruta.startsWith('/decas/{id}') ? 404 : 'permitido');

/** Ids of the account's own resources for the path: a fresh pending DeCA (operations change it), its webhook. */
async function ruta(app: TestApp, c: CuentaDePrueba, op: OperacionApi, webhookId: number): Promise<string> {
  let r = op.ruta;
  if (r.includes('{id}')) {
    if (r.startsWith('/webhooks')) r = r.replace('{id}', String(webhookId));
    else if (r.startsWith('/agenda/')) {
      // An entry of the account's address book, of the path's kind.
      const tipo = r.split('/')[2]!;
      const e = await app.request('POST', `/api/v1/agenda/${tipo}`, { key: c.live, body: CUERPOS[`post /agenda/${tipo}`] });
      r = r.replace('{id}', String(e.body.entrada.id));
    } else {
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
  'post /decas/{id}/entregas': { resultado: 'rechazada', motivo_rechazo: 'Cerrado', registrada_at: '2026-11-25T10:15:00+01:00' },
  'post /agenda/empresas': { nombre: 'Cargas del Sur', nif: 'B65410011' },
  'post /agenda/vehiculos': { matricula: '1234 BCD' },
  'post /agenda/lugares': { texto: 'Mercamadrid' },
  'patch /agenda/empresas/{id}': { domicilio: 'Sevilla' },
  'patch /agenda/vehiculos/{id}': { conductor_nombre: 'Ana' },
  'patch /agenda/lugares/{id}': { texto: 'Mercamadrid, nave 3' },
  'post /agenda/empresas/{id}/fusionar': { otra: 1 },
  'post /agenda/vehiculos/{id}/fusionar': { otra: 1 },
  'post /agenda/lugares/{id}/fusionar': { otra: 1 },
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
      // The DeCA of each path was made by an API key and names no vehicle of this driver: it does not exist for them.
      {
        nombre: 'sesión de conductor',
        auth: { cookie: conductor },
        espera: conductorAjena,
        codigo: (op) => (porRol('conductor')(op) === 403 ? 'prohibido' : op.ruta.startsWith('/decas/{id}') ? 'no_encontrado' : undefined),
      },
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
  }, 180_000);

  it('lets a driver see and change only their DeCAs — those they made and those of their assigned vehicle — and answers any other as not found, for every operation on a DeCA', async ({ app, c }) => {
    const admin = await iniciarSesion(app, c.email, c.password);
    const pepe = await usuarioCon(app, admin, 'conductor');
    const otro = (await usuarioCon(app, admin, 'conductor')).cookie;
    const oficina = (await usuarioCon(app, admin, 'oficina')).cookie;
    const asignar = await app.request('PATCH', `/app/api/usuarios/${pepe.id}`, { cookie: admin, headers: CSRF, body: { matriculas: ['5678 fgh'] } });
    expect(asignar.status, asignar.text).toBe(200);
    expect(asignar.body.usuario.matriculas).toEqual(['5678FGH']);

    // An operation that needs an issued DeCA gets one; the rest a pending one (each its own: operations change it).
    const EMITIDA = new Set([
      '/decas/{id}/fin',
      '/decas/{id}/pdf',
      '/decas/{id}/qr.png',
      '/decas/{id}/efti',
      '/decas/{id}/enviar',
      '/decas/{id}/control',
      '/decas/{id}/entregas',
      '/decas/{id}/entregas/{n}/pdf',
      '/decas/{id}/entregas/{n}/firma.png',
      '/decas/{id}/entregas/firma-remota',
      '/decas/{id}/entregas/firma-remota/{solicitud}',
    ]);
    /** The «Firmar en su móvil» link each DeCA got, for the operation that reads one. */
    const enlaces = new Map<number, number>();
    // The photo of a DeCA needs a DeCA made from one.
    const foto = async (op: OperacionApi) => (op.ruta === '/decas/{id}/foto' ? { foto_id: await fotoGuardada(app, c.account.id, 'produccion', Buffer.from(`foto ${Math.random()}`)) } : {});
    const hacer = async (quien: { key?: string; cookie?: string }, op: OperacionApi, matricula: string): Promise<number> => {
      const d = await app.request('POST', '/api/v1/decas', { ...quien, headers: CSRF, body: decaCompleta({ emitir: EMITIDA.has(op.ruta), matricula, ...(await foto(op)) }) });
      expect(d.status, d.text).toBe(201);
      // A receipt's PDF and a signature's PNG need a delivery (recorded by the account's key, which sees every DeCA).
      if (op.ruta.includes('{n}')) {
        // Signed, so that it has a signature's PNG too.
        const firma = {
          proporcion: 2,
          trazos: [
            [
              [0.1, 0.5],
              [0.9, 0.5],
            ],
          ],
        };
        const e = await app.request('POST', `/api/v1/decas/${d.body.deca.id}/entregas`, { key: c.live, body: { ...(CUERPOS['post /decas/{id}/entregas'] as object), firma } });
        expect(e.status, e.text).toBe(200);
      }
      // Reading a signing link needs one (asked for by the account's key).
      if (op.ruta.includes('{solicitud}')) {
        const l = await app.request('POST', `/api/v1/decas/${d.body.deca.id}/entregas/firma-remota`, { key: c.live, body: {} });
        expect(l.status, l.text).toBe(201);
        enlaces.set(d.body.deca.id as number, l.body.firma_remota.id as number);
      }
      return d.body.deca.id as number;
    };
    const DUENOS = [
      ['suya (la hizo él)', { cookie: pepe.cookie }, '9999 ZZZ', true],
      ['de su vehículo (la hizo la oficina)', { cookie: oficina }, '5678 FGH', true],
      ['de su vehículo (la hizo una clave de API)', { key: c.live }, '5678FGH', true],
      ['de otro conductor', { cookie: otro }, '1234 BCD', false],
      ['de la oficina, sin nombrar su vehículo', { cookie: oficina }, '1234 BCD', false],
      ['de una clave de API, sin nombrar su vehículo', { key: c.live }, '1234 BCD', false],
    ] as const;

    const vistos: string[] = [];
    const esperados: string[] = [];
    for (const op of OPERACIONES.filter((o) => o.ruta.startsWith('/decas/{id}'))) {
      for (const [duena, quien, matricula, suya] of DUENOS) {
        const id = await hacer(quien, op, matricula);
        const res = await app.request(
          op.metodo.toUpperCase(),
          `/api/v1${op.ruta
            .replace('{id}', String(id))
            .replace('{n}', '1')
            .replace('{solicitud}', String(enlaces.get(id)))}`,
          { cookie: pepe.cookie, headers: CSRF, body: cuerpo(op) },
        );
        const prohibida = porRol('conductor')(op) === 403;
        const espera = prohibida ? '403 prohibido' : suya ? 'hecho' : '404 no_encontrado';
        const codigo = res.headers.get('content-type')?.includes('json') && res.status >= 400 ? ErrorBody.parse(res.body).error.codigo : '';
        vistos.push(`${op.metodo.toUpperCase()} ${op.ruta} · DeCA ${duena} → ${res.status < 300 ? 'hecho' : `${res.status} ${codigo}`}`);
        esperados.push(`${op.metodo.toUpperCase()} ${op.ruta} · DeCA ${duena} → ${espera}`);
        // What the driver could not touch is as it was: not deleted, not changed.
        if (!suya) {
          const despues = await app.request('GET', `/api/v1/decas/${id}`, { key: c.live });
          expect(despues.status, `${op.ruta} · ${duena}`).toBe(200);
          expect(despues.body.deca.version).toBe(1);
          expect(despues.body.deca.fin_servicio_at).toBeNull();
          expect(despues.body.deca.referencia ?? null).toBeNull();
        }
      }
    }
    expect(vistos).toEqual(esperados);

    // The list, the road documents and the number lookup hold only theirs; the office and the key see them all.
    const listar = async (auth: { key?: string; cookie?: string }) => {
      const ids: number[] = [];
      let despues: string | null = null;
      do {
        const r = await app.request('GET', `/api/v1/decas?limite=100${despues ? `&despues_de=${despues}` : ''}`, auth);
        expect(r.status, r.text).toBe(200);
        const pagina = DecaList.parse(r.body);
        ids.push(...pagina.decas.map((d) => d.id));
        despues = pagina.siguiente;
      } while (despues);
      return ids;
    };
    const todas = await listar({ key: c.live });
    const deOficina = await listar({ cookie: oficina });
    expect(deOficina.sort()).toEqual([...todas].sort());
    const suyas = await listar({ cookie: pepe.cookie });
    expect(suyas.length).toBeGreaterThan(0);
    const filas = await app.database.db.selectFrom('decas').select(['id', 'creado_por_user_id', 'matricula']).where('id', 'in', todas).execute();
    const esperadas = filas.filter((f) => f.creado_por_user_id === pepe.id || f.matricula === '5678FGH').map((f) => f.id);
    expect(suyas.sort()).toEqual(esperadas.sort());
    const camino = await app.request('GET', '/api/v1/camino', { cookie: pepe.cookie });
    expect(camino.status, camino.text).toBe(200);
    for (const d of camino.body.documentos as { deca: { id: number } }[]) expect(esperadas).toContain(d.deca.id);
    const ajena = filas.find((f) => !esperadas.includes(f.id))!;
    const numero = (await app.request('GET', `/api/v1/decas/${ajena.id}`, { key: c.live })).body.deca.numero as string;
    expect((await app.request('GET', `/api/v1/decas/${numero}`, { cookie: pepe.cookie })).status).toBe(404);

    // Without the plate, the vehicle's DeCAs go from the driver's list at once; what they made stays.
    const quitar = await app.request('PATCH', `/app/api/usuarios/${pepe.id}`, { cookie: admin, headers: CSRF, body: { matriculas: [] } });
    expect(quitar.status, quitar.text).toBe(200);
    const sinPlaca = await listar({ cookie: pepe.cookie });
    expect(sinPlaca.sort()).toEqual(
      filas
        .filter((f) => f.creado_por_user_id === pepe.id)
        .map((f) => f.id)
        .sort(),
    );
  }, 180_000);

  it('lets only an administrator assign a driver’s plates, and refuses a plate list that is not one', async ({ app, c }) => {
    const admin = await iniciarSesion(app, c.email, c.password);
    const pepe = await usuarioCon(app, admin, 'conductor');
    const oficina = (await usuarioCon(app, admin, 'oficina')).cookie;
    for (const cookie of [oficina, pepe.cookie]) {
      const r = await app.request('PATCH', `/app/api/usuarios/${pepe.id}`, { cookie, headers: CSRF, body: { matriculas: ['5678FGH'] } });
      expect(r.status, r.text).toBe(403);
    }
    const malas = await app.request('PATCH', `/app/api/usuarios/${pepe.id}`, { cookie: admin, headers: CSRF, body: { matriculas: ['  ', 'x'.repeat(21)] } });
    expect(malas.status, malas.text).toBe(422);
    expect(Object.keys(ErrorBody.parse(malas.body).error.campos ?? {}).join(' ')).toMatch(/matriculas/);
    const sesion = await app.request('GET', '/app/api/sesion', { cookie: pepe.cookie });
    expect(sesion.body.usuario.matriculas).toEqual([]);
  });

  it('answers every MCP tool × every kind of key the same way: 401 without a valid key of the environment, solo_lectura for writes with a read-only key, not found for another account', async ({
    app,
    c,
    cuentaNueva,
  }) => {
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
      const args: Record<string, unknown> = {
        id: String(d.body.deca.id),
        ...(t.name === 'buscar_agenda' ? { tipo: 'empresas' } : {}),
        ...(t.name.startsWith('crear') || t.name.startsWith('validar') ? decaCompleta({ emitir: false }) : {}),
        ...(t.name === 'enviar_deca' ? { email: 'oficina@example.com' } : {}),
      };
      // What a read-only key is not offered, it may not call.
      const escritura = !deLectura.has(t.name);
      const conId = ['ver_deca', 'historial_deca', 'descargas_deca', 'modificar_deca', 'sustituir_deca', 'emitir_deca', 'enviar_deca', 'pedir_datos', 'fin_servicio', 'ver_entregas'].includes(t.name);
      for (const [quien, key, espera] of [
        ['sin clave', null, 'http 401'],
        ['clave revocada', revocada, 'http 401'],
        ['clave del otro entorno', c.test, 'http 401'],
        ['clave de solo lectura', c.liveReadOnly, escritura ? 'solo_lectura' : 'permitido'],
        ['clave de otra cuenta', cuentaNueva.live, conId ? 'no_encontrado' : 'permitido'],
      ] as const) {
        const r = await llamar(key, t.name, args);
        const visto =
          r.status === 401
            ? 'http 401'
            : r.codigo === 'solo_lectura' || r.codigo === 'no_encontrado' || r.codigo === 'prohibido' || r.codigo === 'no_autenticado'
              ? r.codigo
              : r.status === 200
                ? 'permitido'
                : `http ${r.status}`;
        vistos.push(`${t.name} · ${quien} → ${visto}`);
        esperados.push(`${t.name} · ${quien} → ${espera}`);
      }
    }
    expect(vistos).toEqual(esperados);
  });
});
