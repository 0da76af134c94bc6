import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, onTestFinished } from 'vitest';
import { ManualClock } from '../../server/clock';
import { huella, registroDeClave } from '../../server/domain/idempotencia';
import { unaSentencia } from '../../server/domain/sentencia';
import { runMaintenanceOnce } from '../../server/jobs/maintenance';
import { Deca, DecaCreada } from '../../shared/schemas/deca';
import type { TestResponse } from '../support/app';
import { decaCompleta } from '../support/decas';
import { contarDecas, decaMinima, errorDe, numerosTomados, postDeca, usoDecas } from '../support/decas-http';
import { buildCuenta } from '../support/factories';
import { it, test } from '../support/fixtures';

const MES = '2026-11';
test.override('opcionesApp', { clock: new ManualClock('2026-11-21T10:00:00+01:00'), apiPoints: 100_000 });

const replayed = (res: TestResponse) => res.headers.get('idempotent-replayed');
const conClave = (key: string) => ({ headers: { 'Idempotency-Key': key } });

describe('POST /decas with Idempotency-Key', () => {
  it('returns the first DeCA again, with 200 and Idempotent-Replayed, for the same key and body', async ({ app, cuentaNueva: c }) => {
    const key = randomUUID();
    const body = decaCompleta({ referencia: 'IK-igual' });

    const first = await postDeca(app, c.live, body, conClave(key));
    expect(first.status, first.text).toBe(201);
    expect(replayed(first)).toBeNull();
    const creada = DecaCreada.parse(first.body).deca;

    const again = await postDeca(app, c.live, body, conClave(key));
    expect(again.status, again.text).toBe(200);
    expect(replayed(again)).toBe('true');
    const repetida = DecaCreada.parse(again.body).deca;
    expect(repetida.id).toBe(creada.id);
    expect(repetida.numero).toBe(creada.numero);
    expect(await contarDecas(app, c.account.id)).toBe(1);
    expect(await numerosTomados(app, c.account.id)).toBe(1);
    expect(await usoDecas(app, c.account.id, MES)).toBe(1);
  });

  it('refuses the same key with a different body (422 validacion on Idempotency-Key) and creates nothing', async ({ app, cuentaNueva: c }) => {
    const key = randomUUID();
    const first = await postDeca(app, c.live, decaCompleta({ referencia: 'A' }), conClave(key));
    expect(first.status, first.text).toBe(201);

    const other = await postDeca(app, c.live, decaCompleta({ referencia: 'B' }), conClave(key));
    expect(other.status, other.text).toBe(422);
    const err = errorDe(other);
    expect(err.codigo).toBe('validacion');
    expect(err.campos).toHaveProperty('Idempotency-Key');
    expect(replayed(other)).toBeNull();
    expect(await contarDecas(app, c.account.id)).toBe(1);
    expect(await usoDecas(app, c.account.id, MES)).toBe(1);
    // The refusal did not spoil the key: the original body still replays.
    const again = await postDeca(app, c.live, decaCompleta({ referencia: 'A' }), conClave(key));
    expect(again.status, again.text).toBe(200);
    expect(again.body.deca.id).toBe(first.body.deca.id);
  });

  it('creates exactly one DeCA for 20 parallel identical requests with the same key', async ({ app, cuentaNueva: c }) => {
    const key = randomUUID();
    const body = decaCompleta({ referencia: 'paralelo-clave' });
    const answers = await Promise.all(Array.from({ length: 20 }, () => postDeca(app, c.live, body, conClave(key))));

    for (const a of answers) expect([200, 201], a.text).toContain(a.status);
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    const ids = new Set(answers.map((a) => DecaCreada.parse(a.body).deca.id));
    expect(ids.size).toBe(1);
    for (const a of answers.filter((x) => x.status === 200)) expect(replayed(a)).toBe('true');
    expect(await contarDecas(app, c.account.id)).toBe(1);
    // No number burned and the quota counted once.
    expect(await numerosTomados(app, c.account.id)).toBe(1);
    expect(await usoDecas(app, c.account.id, MES)).toBe(1);
  });

  it('creates exactly one DeCA for 20 parallel identical requests with the same ref_externa and no key', async ({ app, cuentaNueva: c }) => {
    const body = decaCompleta({ ref_externa: 'PED-PARALELO-1' });
    const answers = await Promise.all(Array.from({ length: 20 }, () => postDeca(app, c.live, body)));

    for (const a of answers) expect([200, 201], a.text).toContain(a.status);
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    const parsed = answers.map((a) => DecaCreada.parse(a.body));
    expect(new Set(parsed.map((p) => p.deca.id)).size).toBe(1);
    for (const [i, a] of answers.entries()) {
      if (a.status === 200) {
        expect(replayed(a)).toBe('true');
        expect(parsed[i]?.avisos).toEqual([]);
      }
    }
    expect(await contarDecas(app, c.account.id)).toBe(1);
    expect(await numerosTomados(app, c.account.id)).toBe(1);
    expect(await usoDecas(app, c.account.id, MES)).toBe(1);
  });

  it('makes a repeat that arrives while the first is still running wait, and answer the same DeCA', async ({ app, cuentaNueva: c }) => {
    const key = randomUUID();
    const body = decaCompleta({ referencia: 'en-curso' });
    const [a, b] = await Promise.all([postDeca(app, c.live, body, conClave(key)), postDeca(app, c.live, body, conClave(key))]);
    expect([a.status, b.status].sort()).toEqual([200, 201]);
    expect(a.body.deca.id).toBe(b.body.deca.id);
    expect(replayed(a.status === 200 ? a : b)).toBe('true');
    expect(await contarDecas(app, c.account.id)).toBe(1);
  });

  it('keeps keys at least 7 days', async ({ app, cuentaNueva: c }) => {
    const key = randomUUID();
    const body = decaMinima(1);
    const first = await postDeca(app, c.live, body, conClave(key));
    expect(first.status, first.text).toBe(201);

    app.clock.advance(7 * 86_400_000);
    const late = await postDeca(app, c.live, body, conClave(key));
    expect(late.status, late.text).toBe(200);
    expect(replayed(late)).toBe('true');
    expect(late.body.deca.id).toBe(first.body.deca.id);
    expect(await contarDecas(app, c.account.id)).toBe(1);
  });

  it('returns the same DeCA for a create replayed after any time: the key is kept with the DeCA for good', async ({ app, cuentaNueva: c }) => {
    const key = randomUUID();
    const body = decaCompleta({ referencia: 'nueve-dias', ref_externa: `RX-${key}` });
    const first = await postDeca(app, c.live, body, conClave(key));
    expect(first.status, first.text).toBe(201);
    const creada = DecaCreada.parse(first.body).deca;

    // The office changes it meanwhile, and the key's own record expires and is purged.
    const antes = app.clock.now();
    onTestFinished(() => app.clock.set(antes)); // the month's quota counts of the next tests
    const patch = await app.request('PATCH', `/api/v1/decas/${creada.id}`, { key: c.live, body: { observaciones: 'Cambiada en la oficina', motivo: 'Dato corregido' } });
    expect(patch.status, patch.text).toBe(200);
    app.clock.advance(9 * 86_400_000);
    await runMaintenanceOnce({ db: app.database.db, clock: app.clock });
    const restantes = await app.database.db.selectFrom('idempotencia').select('clave').where('account_id', '=', c.account.id).execute();
    expect(restantes).toEqual([]);

    const late = await postDeca(app, c.live, body, conClave(key));
    expect(late.status, late.text).toBe(200);
    expect(replayed(late)).toBe('true');
    const r = DecaCreada.parse(late.body);
    expect(r.deca.id).toBe(creada.id);
    expect(r.deca.observaciones).toBe('Cambiada en la oficina'); // as it is now
    expect(r.avisos).toEqual([]); // a replay, not «ref_externa_repetida»
    expect(await contarDecas(app, c.account.id)).toBe(1);
    expect(await numerosTomados(app, c.account.id)).toBe(1);

    // Another request with that key, even weeks later, is still refused.
    const otra = await postDeca(app, c.live, decaCompleta({ referencia: 'otra' }), conClave(key));
    expect(otra.status, otra.text).toBe(422);
    expect(errorDe(otra).campos).toHaveProperty('Idempotency-Key');
    expect(await contarDecas(app, c.account.id)).toBe(1);
  });

  it('takes over a claim left by a dead request only when the database’s clock says so, and only the owner completes it', async ({ app, cuentaNueva: c }) => {
    const key = randomUUID();
    const body = decaMinima(1);
    const db = app.database.db;
    const ahora = app.clock.now();
    // The same request's claim, left by a process that died mid-way.
    await db
      .insertInto('idempotencia')
      .values({
        account_id: c.account.id,
        entorno: 'produccion',
        clave: `hdr:${key}`,
        huella: huella('crear_deca', body),
        estado: 'en_curso',
        created_at: ahora,
        expires_at: new Date(ahora.getTime() + 8 * 86_400_000),
        dueno: 'muerto',
      })
      .execute();

    // This process's clock runs 10 minutes ahead: the claim is still young by the database's, so it is not taken.
    onTestFinished(() => app.clock.set(ahora));
    app.clock.advance(10 * 60_000);
    const pronto = await postDeca(app, c.live, body, conClave(key));
    expect(pronto.status, pronto.text).toBe(409);
    expect(errorDe(pronto).codigo).toBe('en_curso');
    expect(pronto.headers.get('retry-after')).toBeTruthy();
    expect(await contarDecas(app, c.account.id)).toBe(0);

    // Two minutes old by the database's clock: abandoned, taken over, run once.
    await sql`update idempotencia set reclamada_at = now() - interval '2 minutes' where clave = ${`hdr:${key}`}`.execute(db);
    const relevo = await postDeca(app, c.live, body, conClave(key));
    expect(relevo.status, relevo.text).toBe(201);
    expect(await contarDecas(app, c.account.id)).toBe(1);

    // The dead request cannot complete the claim it lost.
    await expect(
      db.transaction().execute((trx) => unaSentencia(trx, [registroDeClave(trx, { accountId: c.account.id, entorno: 'produccion' }, `hdr:${key}`, 'muerto', { decaId: null })])),
    ).rejects.toMatchObject({
      codigo: 'en_curso',
    });
    const again = await postDeca(app, c.live, body, conClave(key));
    expect(again.status, again.text).toBe(200);
    expect(again.body.deca.id).toBe(relevo.body.deca.id);
  }, 20_000);

  it('refuses a malformed key with 422 validacion naming Idempotency-Key, and creates nothing', async ({ app, cuentaNueva: c }) => {
    for (const bad of ['k'.repeat(300), 'con espacio dentro']) {
      const res = await postDeca(app, c.live, decaMinima(1), conClave(bad));
      expect(res.status, res.text).toBe(422);
      const err = errorDe(res);
      expect(err.codigo).toBe('validacion');
      expect(Object.keys(err.campos)).toContain('Idempotency-Key');
    }
    expect(await contarDecas(app, c.account.id)).toBe(0);
    // The same limit holds on the other writes.
    const ok = await postDeca(app, c.live, decaMinima(2));
    const patch = await app.request('PATCH', `/api/v1/decas/${ok.body.deca.id}`, {
      key: c.live,
      body: { referencia: 'otra' },
      headers: { 'Idempotency-Key': 'k'.repeat(256) },
    });
    expect(patch.status, patch.text).toBe(422);
    expect(Object.keys(errorDe(patch).campos)).toContain('Idempotency-Key');
  });
});

describe('ref_externa as idempotency', () => {
  it('returns the existing DeCA for a repeated ref_externa: without aviso for the same body, with ref_externa_repetida for another', async ({ app, cuentaNueva: c }) => {
    const body = decaCompleta({ ref_externa: 'ALB-2026-0042' });
    const first = await postDeca(app, c.live, body);
    expect(first.status, first.text).toBe(201);
    const original = DecaCreada.parse(first.body).deca;

    const same = await postDeca(app, c.live, body);
    expect(same.status, same.text).toBe(200);
    expect(replayed(same)).toBe('true');
    const sameBody = DecaCreada.parse(same.body);
    expect(sameBody.deca.id).toBe(original.id);
    expect(sameBody.avisos).toEqual([]);

    const changed = await postDeca(app, c.live, { ...body, matricula: '9999 ZZZ', conductor_nombre: 'Otra Persona' });
    expect(changed.status, changed.text).toBe(200);
    const changedBody = DecaCreada.parse(changed.body);
    expect(changedBody.deca.id).toBe(original.id);
    expect(changedBody.avisos.map((a) => a.codigo)).toEqual(['ref_externa_repetida']);
    expect(changedBody.deca.matricula).toBe('1234BCD');

    // Unchanged in storage too.
    const now = Deca.parse((await app.request('GET', `/api/v1/decas/${original.id}`, { key: c.live })).body.deca);
    expect(now).toMatchObject({ matricula: '1234BCD', conductor_nombre: original.conductor_nombre, version: 1, pdf_sha256: original.pdf_sha256 });
    expect(await contarDecas(app, c.account.id)).toBe(1);
    expect(await usoDecas(app, c.account.id, MES)).toBe(1);
  });

  it('treats the same ref_externa in another account or in the test environment as a separate DeCA', async ({ app }) => {
    const a = await buildCuenta(app);
    const b = await buildCuenta(app);
    const body = decaCompleta({ ref_externa: 'PEDIDO-COMPARTIDO' });
    const inA = await postDeca(app, a.live, body);
    const inB = await postDeca(app, b.live, body);
    const inTest = await postDeca(app, a.test, body, { entorno: 'pruebas' });
    for (const r of [inA, inB, inTest]) {
      expect(r.status, r.text).toBe(201);
      expect(replayed(r)).toBeNull();
    }
    expect(new Set([inA.body.deca.id, inB.body.deca.id, inTest.body.deca.id]).size).toBe(3);
    expect(await contarDecas(app, a.account.id, 'produccion')).toBe(1);
    expect(await contarDecas(app, a.account.id, 'pruebas')).toBe(1);
    expect(await contarDecas(app, b.account.id, 'produccion')).toBe(1);
    // The same Idempotency-Key is also per account and environment.
    const key = randomUUID();
    const ka = await postDeca(app, a.live, decaMinima(1), conClave(key));
    const kb = await postDeca(app, b.live, decaMinima(1), conClave(key));
    const kt = await postDeca(app, a.test, decaMinima(1), { ...conClave(key), entorno: 'pruebas' });
    expect([ka.status, kb.status, kt.status]).toEqual([201, 201, 201]);
  });

  it('frees a ref_externa when its pending DeCA is deleted', async ({ app, cuentaNueva: c }) => {
    const body = decaMinima(1, { ref_externa: 'PED-BORRADO' });
    const first = await postDeca(app, c.live, body);
    expect(first.status, first.text).toBe(201);
    const del = await app.request('DELETE', `/api/v1/decas/${first.body.deca.id}`, { key: c.live });
    expect(del.status, del.text).toBe(200);

    const again = await postDeca(app, c.live, body);
    expect(again.status, again.text).toBe(201);
    expect(replayed(again)).toBeNull();
    const nueva = DecaCreada.parse(again.body).deca;
    expect(nueva.id).not.toBe(first.body.deca.id);
    expect(nueva.ref_externa).toBe('PED-BORRADO');
    expect(await contarDecas(app, c.account.id)).toBe(1);
  });

  it('frees the old ref_externa when a PATCH gives the DeCA another one', async ({ app, cuentaNueva: c }) => {
    const first = await postDeca(app, c.live, decaMinima(1, { ref_externa: 'PED-VIEJA' }));
    expect(first.status, first.text).toBe(201);
    const id = first.body.deca.id as number;
    const patch = await app.request('PATCH', `/api/v1/decas/${id}`, { key: c.live, body: { ref_externa: 'PED-NUEVA' } });
    expect(patch.status, patch.text).toBe(200);
    expect(patch.body.deca.ref_externa).toBe('PED-NUEVA');

    // The new value repeats the existing DeCA…
    const byNew = await postDeca(app, c.live, decaMinima(1, { ref_externa: 'PED-NUEVA' }));
    expect(byNew.status, byNew.text).toBe(200);
    expect(byNew.body.deca.id).toBe(id);
    // …and the old one belongs to nobody: it creates a new DeCA.
    const byOld = await postDeca(app, c.live, decaMinima(2, { ref_externa: 'PED-VIEJA' }));
    expect(byOld.status, byOld.text).toBe(201);
    const nueva = DecaCreada.parse(byOld.body).deca;
    expect(nueva.id).not.toBe(id);
    expect(nueva.ref_externa).toBe('PED-VIEJA');
    expect(await contarDecas(app, c.account.id)).toBe(2);
  });
  it('gives one of two DeCAs renamed at once to the same ref_externa the name, and the other 409 ref_externa_usada, never a 500', async ({ app, cuentaNueva: c }) => {
    for (let ronda = 0; ronda < 5; ronda++) {
      const a = DecaCreada.parse((await postDeca(app, c.live, decaMinima(1))).body).deca;
      const b = DecaCreada.parse((await postDeca(app, c.live, decaMinima(2))).body).deca;
      const ref = `CARRERA-${ronda}-${a.id}`;
      const answers = await Promise.all([a, b].map((d) => app.request('PATCH', `/api/v1/decas/${d.id}`, { key: c.live, body: { ref_externa: ref } })));
      expect(answers.map((r) => r.status).sort(), answers.map((r) => r.text).join('\n')).toEqual([200, 409]);
      const perdida = answers.find((r) => r.status === 409)!;
      expect(errorDe(perdida)).toMatchObject({ codigo: 'ref_externa_usada', campos: { ref_externa: expect.any(String) } });
    }
  });
});

describe('Idempotency-Key on the other writes', () => {
  it('applies a method-1 PATCH once: version 2, not 3, and the repeat is marked replayed', async ({ app, cuentaNueva: c }) => {
    const created = await postDeca(app, c.live, decaCompleta());
    const id = created.body.deca.id as number;
    const key = randomUUID();
    const change = { matricula: '5678 FGH', motivo: 'Cambio de camión' };

    const first = await app.request('PATCH', `/api/v1/decas/${id}`, { key: c.live, body: change, headers: { 'Idempotency-Key': key } });
    expect(first.status, first.text).toBe(200);
    expect(Deca.parse(first.body.deca).version).toBe(2);
    expect(replayed(first)).toBeNull();

    const again = await app.request('PATCH', `/api/v1/decas/${id}`, { key: c.live, body: change, headers: { 'Idempotency-Key': key } });
    expect(again.status, again.text).toBe(200);
    expect(replayed(again)).toBe('true');
    expect(Deca.parse(again.body.deca).version).toBe(2);

    const stored = Deca.parse((await app.request('GET', `/api/v1/decas/${id}`, { key: c.live })).body.deca);
    expect(stored.version).toBe(2);
    const cambios = await app.request('GET', `/api/v1/decas/${id}/cambios`, { key: c.live });
    expect(cambios.body.cambios.filter((x: { tipo: string }) => x.tipo === 'modificacion')).toHaveLength(1);

    // Same key, other change: refused rather than applied or silently replayed.
    const other = await app.request('PATCH', `/api/v1/decas/${id}`, {
      key: c.live,
      body: { matricula: '9999 ZZZ', motivo: 'Otro' },
      headers: { 'Idempotency-Key': key },
    });
    expect(other.status, other.text).toBe(422);
    expect(errorDe(other).codigo).toBe('validacion');
    expect(Object.keys(errorDe(other).campos)).toEqual(['Idempotency-Key']);
  });

  it('replays POST /fin with the same key instead of answering 409', async ({ app, cuentaNueva: c }) => {
    const id = (await postDeca(app, c.live, decaCompleta())).body.deca.id as number;
    const key = randomUUID();
    const first = await app.request('POST', `/api/v1/decas/${id}/fin`, { key: c.live, body: {}, headers: { 'Idempotency-Key': key } });
    expect(first.status, first.text).toBe(200);
    const fin = Deca.parse(first.body.deca).fin_servicio_at;
    expect(fin).not.toBeNull();

    const again = await app.request('POST', `/api/v1/decas/${id}/fin`, { key: c.live, body: {}, headers: { 'Idempotency-Key': key } });
    expect(again.status, again.text).toBe(200);
    expect(replayed(again)).toBe('true');
    expect(Deca.parse(again.body.deca).fin_servicio_at).toBe(fin);

    // Without the key the repeat is a real second attempt, refused by state.
    const noKey = await app.request('POST', `/api/v1/decas/${id}/fin`, { key: c.live, body: {} });
    expect(noKey.status, noKey.text).toBe(409);
  });

  it('answers 200 to a repeated DELETE of a pending DeCA with the same key', async ({ app, cuentaNueva: c }) => {
    const id = (await postDeca(app, c.live, decaMinima(1))).body.deca.id as number;
    const key = randomUUID();
    const first = await app.request('DELETE', `/api/v1/decas/${id}`, { key: c.live, headers: { 'Idempotency-Key': key } });
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({ eliminada: true, id, numero: expect.stringMatching(/^\d{4}-\d{6}$/) });

    const again = await app.request('DELETE', `/api/v1/decas/${id}`, { key: c.live, headers: { 'Idempotency-Key': key } });
    expect(again.status, again.text).toBe(200);
    expect(replayed(again)).toBe('true');
    // The replay is the first answer again (IETF Idempotency-Key draft), number included.
    expect(again.body).toEqual(first.body);

    expect(await contarDecas(app, c.account.id)).toBe(0);
    const noKey = await app.request('DELETE', `/api/v1/decas/${id}`, { key: c.live });
    expect(noKey.status, noKey.text).toBe(404);
  });
});
