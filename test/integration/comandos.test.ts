import { randomUUID } from 'node:crypto';
import { describe, expect } from 'vitest';
import { ejecutar } from '../../server/commands/command';
import { crearClaveCommand } from '../../server/commands/cuenta';
import { archivarDecaCommand, crearDecaCommand, sustituirDecaCommand, verDecaCommand } from '../../server/commands/decas';
import { crearWebhookCommand } from '../../server/commands/webhooks';
import type { Actor } from '../../server/domain/actor';
import { AppError } from '../../shared/errors';
import { Deca } from '../../shared/schemas/deca';
import { decaCompleta } from '../support/decas';
import { contarDecas, numerosTomados } from '../support/decas-http';
import { buildCuenta } from '../support/factories';
import { type Fx, it } from '../support/fixtures';

function actor({ app, c }: Fx, over: Partial<Actor> = {}): Actor {
  return {
    accountId: c.account.id,
    cuenta: c.account,
    entorno: 'produccion',
    canal: 'importacion',
    keyId: c.keyIds.live,
    userId: null,
    rol: null,
    soloLectura: false,
    etiqueta: 'prueba',
    ...over,
  };
}

async function rechazo(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

describe('the command layer, called directly (what REST, the app, the CLI, CSV and MCP call)', () => {
  it('refuses a write command to a read-only actor, and stores nothing', async ({ app, c }) => {
    const antes = await contarDecas(app, c.account.id);
    const ro = actor({ app, c }, { soloLectura: true, keyId: c.keyIds.liveReadOnly });
    for (const [cmd, input] of [
      [crearDecaCommand, decaCompleta()],
      [archivarDecaCommand, { id: '1', archivado: true }],
      [crearWebhookCommand, { url: 'https://ejemplo.es/deca' }],
    ] as const) {
      const err = await rechazo(ejecutar(app.services, cmd as typeof crearDecaCommand, ro, input));
      expect(err.codigo).toBe('solo_lectura');
      expect(err.status).toBe(403);
    }
    expect(await contarDecas(app, c.account.id)).toBe(antes);
    const hooks = await app.database.db.selectFrom('webhooks').select('id').where('account_id', '=', c.account.id).execute();
    expect(hooks).toEqual([]);
  });

  it('lets the same actor read, and a read-write actor write, with its canal recorded', async ({ app, c }) => {
    const r = await ejecutar(app.services, crearDecaCommand, actor({ app, c }), decaCompleta());
    expect(r.valor.tipo).toBe('creada');
    if (r.valor.tipo !== 'creada') return;
    expect(r.valor.deca.canal).toBe('importacion');
    const leida = await ejecutar(app.services, verDecaCommand, actor({ app, c }, { soloLectura: true }), { id: String(r.valor.deca.id) });
    expect(leida.valor).toEqual(r.valor.deca);
  });

  it('keeps administration to administrators: an office user of the account may not create keys', async ({ app, c }) => {
    const oficina = actor({ app, c }, { keyId: null, userId: 1, rol: 'oficina', canal: 'web' });
    expect((await rechazo(ejecutar(app.services, crearClaveCommand, oficina, { entorno: 'pruebas' }))).codigo).toBe('prohibido');
    const porClave = actor({ app, c });
    expect((await rechazo(ejecutar(app.services, crearClaveCommand, porClave, { entorno: 'pruebas' }))).codigo).toBe('prohibido');
  });

  it('validates the input with the shared schema (422 naming every field) before anything runs', async ({ app, c }) => {
    const err = await rechazo(ejecutar(app.services, crearDecaCommand, actor({ app, c }), { matricula: 5, envios: [{ peso: 'mucho' }] }));
    expect(err.codigo).toBe('validacion');
    expect(Object.keys(err.campos)).toEqual(expect.arrayContaining(['matricula', 'envios[0].peso']));
  });

  it('honours an idempotency key the same way whatever the front door: once, then the same result, and 422 for another input', async ({ app, c }) => {
    const key = randomUUID();
    const a = await ejecutar(app.services, crearDecaCommand, actor({ app, c }), decaCompleta({ referencia: 'idem' }), { idempotencyKey: key });
    const b = await ejecutar(app.services, crearDecaCommand, actor({ app, c }), decaCompleta({ referencia: 'idem' }), { idempotencyKey: key });
    expect(a.repetida).toBe(false);
    expect(b.repetida).toBe(true);
    if (a.valor.tipo !== 'creada' || b.valor.tipo !== 'creada') throw new Error('expected creations');
    expect(b.valor.deca.id).toBe(a.valor.deca.id);
    const err = await rechazo(ejecutar(app.services, crearDecaCommand, actor({ app, c }), decaCompleta({ referencia: 'otra' }), { idempotencyKey: key }));
    expect(err.codigo).toBe('validacion');
    expect(err.campos).toHaveProperty('Idempotency-Key');
  });

  it('returns one representation: the command, GET /decas/{id} and the webhook payload carry the same object', async ({ app, c }) => {
    const res = await app.request('POST', '/api/v1/decas', { key: c.live, body: decaCompleta({ referencia: 'una representación' }) });
    expect(res.status).toBe(201);
    const id = res.body.deca.id as number;
    const get = Deca.parse((await app.request('GET', `/api/v1/decas/${id}`, { key: c.live })).body.deca);
    expect(res.body.deca).toEqual(get);
    const ev = await app.database.db.selectFrom('eventos').select('data').where('deca_id', '=', id).where('evento', '=', 'deca.emitido').executeTakeFirstOrThrow();
    expect((ev.data as { deca: unknown }).deca).toEqual(get);
    const cmd = await ejecutar(app.services, verDecaCommand, actor({ app, c }), { id: String(id) });
    expect(cmd.valor).toEqual(get);
  });
});

describe('the presented-DeCA cache of a process', () => {
  it('is filled by a read, dropped by a change, and never serves the old version', async ({ app, c }) => {
    const res = await app.request('POST', '/api/v1/decas', { key: c.live, body: decaCompleta({ referencia: 'cache' }) });
    const id = res.body.deca.id as number;
    const clave = `${c.account.id}:produccion:${id}`;
    expect(app.services.caches.decas.get(clave)).toBeUndefined();
    await app.request('GET', `/api/v1/decas/${id}`, { key: c.live });
    expect(app.services.caches.decas.get(clave)?.deca.referencia).toBe('cache');
    const m = await app.request('PATCH', `/api/v1/decas/${id}`, { key: c.live, body: { referencia: 'cambiada', motivo: 'prueba' } });
    expect(m.status).toBe(200);
    expect(app.services.caches.decas.get(clave)).toBeUndefined();
    const again = await app.request('GET', `/api/v1/decas/${id}`, { key: c.live });
    expect(again.body.deca).toMatchObject({ referencia: 'cambiada', version: 2 });
    // Another account asking for the same id is not served from it.
    const otra = await buildCuenta(app);
    expect((await app.request('GET', `/api/v1/decas/${id}`, { key: otra.live })).status).toBe(404);
  });
});

describe('a replacement that meets a concurrent change', () => {
  it('retries with the number it took: no number is burned', async ({ app, cuentaNueva: c }) => {
    const creada = await ejecutar(app.services, crearDecaCommand, actor({ app, c }), decaCompleta({ referencia: 'original' }));
    if (creada.valor.tipo !== 'creada') throw new Error('not created');
    const id = String(creada.valor.deca.id);
    // While the new DeCA's PDF renders (outside the transaction), the office changes the old one.
    let cambios = 0;
    const services = {
      ...app.services,
      renderPdf: async (...args: Parameters<typeof app.services.renderPdf>) => {
        if (cambios++ === 0) {
          const patch = await app.request('PATCH', `/api/v1/decas/${id}`, { key: c.live, body: { observaciones: 'Cambio a la vez', motivo: 'Oficina' } });
          expect(patch.status, patch.text).toBe(200);
        }
        return app.services.renderPdf(...args);
      },
    };
    const r = await ejecutar(services, sustituirDecaCommand, actor({ app, c }), { id, motivo: 'Otro camión', matricula: '5678FGH' });
    expect(cambios).toBe(2); // rendered again after the conflict
    expect(r.valor.numero).toBe(`${creada.valor.deca.numero.slice(0, 5)}000002`);
    expect(r.valor.sustituye_a?.numero).toBe(creada.valor.deca.numero);
    expect(r.valor.observaciones).toBe('Cambio a la vez'); // built on the changed DeCA
    expect(await numerosTomados(app, c.account.id)).toBe(2);
  });
});
