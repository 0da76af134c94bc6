import { randomUUID } from 'node:crypto';
import { describe, expect } from 'vitest';
import { ManualClock } from '../../server/clock';
import { CuentaResponse, type Cuota, type Entorno, SesionResponse } from '../../shared/schemas/cuenta';
import { Deca, DecaValidada } from '../../shared/schemas/deca';
import { startTestApp, type TestApp } from '../support/app';
import { decaCompleta } from '../support/decas';
import { sessionCookieOf } from '../support/decas-helpers';
import { apiBase, contarDecas, decaMinima, enLotes, errorDe, numerosTomados, postDeca, usoDecas } from '../support/decas-http';
import { buildCuenta, type CuentaDePrueba } from '../support/factories';
import { it, test } from '../support/fixtures';

const INICIO = '2027-02-10T10:00:00+01:00';
test.override('opcionesApp', { clock: new ManualClock(INICIO), apiPoints: 100_000 });

async function cuotaDe(a: TestApp, key: string, entorno: Entorno = 'produccion'): Promise<Cuota> {
  const res = await a.request('GET', `${apiBase(entorno)}/cuenta`, { key });
  expect(res.status, res.text).toBe(200);
  return CuentaResponse.parse(res.body).cuenta.cuota;
}

/** Create `n` pending DeCA (10 in flight at a time) and check every one was created. */
async function crearPendientes(a: TestApp, key: string, n: number, entorno: Entorno = 'produccion'): Promise<void> {
  const answers = await enLotes(n, 10, (i) => postDeca(a, key, decaMinima(i), { entorno }));
  const refused = answers.filter((r) => r.status !== 201);
  expect(refused.map((r) => `${r.status} ${r.text}`)).toEqual([]);
}

function expectLimitePlan(res: Awaited<ReturnType<typeof postDeca>>, reinicia: string): void {
  expect(res.status, res.text).toBe(429);
  const err = errorDe(res);
  expect(err.codigo).toBe('limite_plan');
  expect(err.mensaje).toContain(reinicia);
  expect(err.mensaje).toMatch(/plan/i);
}

describe('monthly DeCA quota (free plan from 2027)', () => {
  it('lets a free account create 100 DeCA in a month and refuses the 101st with limite_plan', async ({ app, cuentaNueva: c }) => {
    const key = randomUUID();
    // Both count: 96 pending, 4 issued (one under a key, one with ref_externa).
    await crearPendientes(app, c.live, 96);
    for (const [i, r] of [
      await postDeca(app, c.live, decaCompleta({ referencia: 'E1' })),
      await postDeca(app, c.live, decaCompleta({ referencia: 'E2' })),
      await postDeca(app, c.live, decaCompleta({ ref_externa: 'PED-100' })),
      await postDeca(app, c.live, decaCompleta({ referencia: 'E4' }), { headers: { 'Idempotency-Key': key } }),
    ].entries()) {
      expect(r.status, `issued #${i}: ${r.text}`).toBe(201);
    }
    expect(await cuotaDe(app, c.live)).toEqual({ periodo: '2027-02', limite: 100, usadas: 100, restantes: 0, reinicia: '2027-03-01', fotos: { limite: 20, usadas: 0, restantes: 20 } });

    expectLimitePlan(await postDeca(app, c.live, decaMinima(101)), '2027-03-01');
    expectLimitePlan(await postDeca(app, c.live, decaCompleta({ ref_externa: 'PED-NUEVO' })), '2027-03-01');
    expectLimitePlan(await postDeca(app, c.live, decaCompleta(), { headers: { 'Idempotency-Key': randomUUID() } }), '2027-03-01');
    expect(await contarDecas(app, c.account.id)).toBe(100);
    // Refusals burn no document number.
    expect(await numerosTomados(app, c.account.id)).toBe(100);

    // Repeats of what already exists are answered, not refused: they create nothing.
    const repRef = await postDeca(app, c.live, decaCompleta({ ref_externa: 'PED-100' }));
    expect(repRef.status, repRef.text).toBe(200);
    const repKey = await postDeca(app, c.live, decaCompleta({ referencia: 'E4' }), { headers: { 'Idempotency-Key': key } });
    expect(repKey.status, repKey.text).toBe(200);
    // Validation stores nothing and is allowed with the quota used up.
    const val = await postDeca(app, c.live, decaCompleta({ solo_validar: true }));
    expect(val.status, val.text).toBe(200);
    expect(DecaValidada.parse(val.body).valida).toBe(true);

    const cuota = await cuotaDe(app, c.live);
    expect(cuota).toMatchObject({ usadas: 100, restantes: 0 });
    expect(await contarDecas(app, c.account.id)).toBe(100);
  });

  it('does not count solo_validar', async ({ app, cuentaNueva: c }) => {
    for (const body of [decaCompleta({ solo_validar: true }), decaMinima(1, { solo_validar: true }), { solo_validar: true, emitir: false }]) {
      const res = await postDeca(app, c.live, body);
      expect(res.status, res.text).toBe(200);
      DecaValidada.parse(res.body);
    }
    expect(await cuotaDe(app, c.live)).toMatchObject({ limite: 100, usadas: 0, restantes: 100 });
    expect(await contarDecas(app, c.account.id)).toBe(0);
    expect(await numerosTomados(app, c.account.id)).toBe(0);
  });

  it('never goes past the quota when the last creations arrive at once', async ({ app, cuentaNueva: c }) => {
    await crearPendientes(app, c.live, 95);
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => postDeca(app, c.live, decaMinima(1000 + i))));
    for (const a of answers) expect([201, 429], a.text).toContain(a.status);
    expect(answers.filter((a) => a.status === 201)).toHaveLength(5);
    for (const a of answers.filter((x) => x.status === 429)) expect(errorDe(a).codigo).toBe('limite_plan');
    expect(await contarDecas(app, c.account.id)).toBe(100);
    expect(await cuotaDe(app, c.live)).toMatchObject({ usadas: 100, restantes: 0 });
  });

  it('starts a new count on the first day of the next month, Madrid time', async ({ app, cuentaNueva: c }) => {
    await crearPendientes(app, c.live, 100);
    try {
      // 2027-02-28 23:59:30 in Madrid: still February.
      app.clock.set('2027-02-28T23:59:30+01:00');
      expectLimitePlan(await postDeca(app, c.live, decaMinima(101)), '2027-03-01');
      // 2027-03-01 00:00:30 in Madrid is still 28 February in UTC: the Madrid month decides.
      app.clock.set('2027-03-01T00:00:30+01:00');
      const res = await postDeca(app, c.live, decaMinima(102));
      expect(res.status, res.text).toBe(201);
      expect(await cuotaDe(app, c.live)).toEqual({ periodo: '2027-03', limite: 100, usadas: 1, restantes: 99, reinicia: '2027-04-01', fotos: { limite: 20, usadas: 0, restantes: 20 } });
    } finally {
      app.clock.set(INICIO);
    }
    expect(await cuotaDe(app, c.live)).toMatchObject({ periodo: '2027-02', usadas: 100, restantes: 0 });
  });

  it('counts a method-2 replacement as a creation', async ({ app, cuentaNueva: c }) => {
    const issued = await postDeca(app, c.live, decaCompleta());
    expect(issued.status, issued.text).toBe(201);
    await crearPendientes(app, c.live, 98);
    expect(await cuotaDe(app, c.live)).toMatchObject({ usadas: 99 });

    const first = await app.request('POST', `/api/v1/decas/${issued.body.deca.id}/sustituir`, {
      key: c.live,
      body: { motivo: 'Cambio de cargador', cargador_nombre: 'Otro Cargador, S.A.' },
    });
    expect(first.status, first.text).toBe(200);
    const nueva = Deca.parse(first.body.deca);
    expect(await cuotaDe(app, c.live)).toMatchObject({ usadas: 100, restantes: 0 });

    const second = await app.request('POST', `/api/v1/decas/${nueva.id}/sustituir`, {
      key: c.live,
      body: { motivo: 'Otro cambio', cargador_nombre: 'Tercer Cargador, S.A.' },
    });
    expectLimitePlan(second, '2027-03-01');
    const still = Deca.parse((await app.request('GET', `/api/v1/decas/${nueva.id}`, { key: c.live })).body.deca);
    expect(still.estado).toBe('emitido');
    expect(still.sustituido_por).toBeNull();
    expect(await contarDecas(app, c.account.id)).toBe(100);
  });
});

describe('accounts and environments without limit', () => {
  it('never limits a Pro account', async ({ app }) => {
    const c = await buildCuenta(app, { plan: 'pro' });
    await crearPendientes(app, c.live, 105);
    expect(await cuotaDe(app, c.live)).toEqual({ periodo: '2027-02', limite: null, usadas: 105, restantes: null, reinicia: '2027-03-01', fotos: { limite: null, usadas: 0, restantes: null } });
    expect(await contarDecas(app, c.account.id)).toBe(105);
  });

  it('neither counts nor limits the test environment', async ({ app }) => {
    const c: CuentaDePrueba = await buildCuenta(app);
    await crearPendientes(app, c.test, 105, 'pruebas');
    expect(await contarDecas(app, c.account.id, 'pruebas')).toBe(105);
    expect(await cuotaDe(app, c.test, 'pruebas')).toMatchObject({ limite: null, restantes: null });
    // The production quota is untouched and still whole.
    expect(await cuotaDe(app, c.live)).toMatchObject({ limite: 100, usadas: 0, restantes: 100 });
    const live = await postDeca(app, c.live, decaMinima(1));
    expect(live.status, live.text).toBe(201);
    expect(await cuotaDe(app, c.live)).toMatchObject({ usadas: 1, restantes: 99 });
  });

  it('leaves the free plan unlimited in December 2026 and limits it from January 2027', async ({ app }) => {
    const clock = new ManualClock('2026-12-15T10:00:00+01:00');
    const dec = await startTestApp({ clock, database: app.database, apiPoints: 100_000 });
    try {
      const c = await buildCuenta(dec);
      await crearPendientes(dec, c.live, 105);
      expect(await cuotaDe(dec, c.live)).toEqual({ periodo: '2026-12', limite: null, usadas: 105, restantes: null, reinicia: '2027-01-01', fotos: { limite: 20, usadas: 0, restantes: 20 } });
      expect(await contarDecas(dec, c.account.id)).toBe(105);

      clock.set('2027-01-01T00:00:30+01:00');
      expect(await cuotaDe(dec, c.live)).toEqual({ periodo: '2027-01', limite: 100, usadas: 0, restantes: 100, reinicia: '2027-02-01', fotos: { limite: 20, usadas: 0, restantes: 20 } });
    } finally {
      await dec.close();
    }
  });
});

describe('an account whose e-mail is not confirmed (5 live DeCAs)', () => {
  const CSRF = { 'X-DeCA-CSRF': '1' };
  let altas = 0;

  /** A sign-up through the app, as a person does it: an unconfirmed account and its session. */
  async function alta(app: TestApp): Promise<{ cookie: string; accountId: number }> {
    const res = await app.request('POST', '/app/api/registro', {
      headers: CSRF,
      body: {
        nombre: 'Transportes Sin Confirmar, S.L.',
        nif: 'B12345674',
        domicilio: 'Calle Real 2, Segovia',
        rol: 'transportista',
        email: `sin-confirmar-${++altas}-${Date.now()}@example.com`,
        password: 'una-clave-bien-larga',
      },
    });
    expect(res.status, res.text).toBe(201);
    const sesion = SesionResponse.parse(res.body);
    expect(sesion.cuenta.confirmada).toBe(false);
    return { cookie: sessionCookieOf(res), accountId: sesion.cuenta.id };
  }

  const crear = (app: TestApp, cookie: string, body: Record<string, unknown>) => app.request('POST', '/api/v1/decas', { cookie, headers: CSRF, body });

  function expectSinConfirmar(res: Awaited<ReturnType<typeof crear>>): void {
    expect(res.status, res.text).toBe(409);
    const err = errorDe(res);
    expect(err.codigo).toBe('cuenta_sin_confirmar');
    expect(err.mensaje).toMatch(/Confirme el correo/);
  }

  it('creates exactly 5 when 40 creations arrive at once, and refuses the other 35 with 409 cuenta_sin_confirmar', async ({ app }) => {
    const { cookie, accountId } = await alta(app);
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => crear(app, cookie, decaMinima(i))));
    const creadas = answers.filter((a) => a.status === 201);
    expect(creadas, answers.map((a) => a.status).join(' ')).toHaveLength(5);
    for (const a of answers.filter((x) => x.status !== 201)) expectSinConfirmar(a);
    expect(await contarDecas(app, accountId)).toBe(5);
    expect(await usoDecas(app, accountId, '2027-02')).toBe(5);
    // Five different numbers; each request took at most one (a refused racer leaves its own unused, as README says).
    expect(new Set(creadas.map((a) => Deca.parse(a.body.deca).numero)).size).toBe(5);
    const tomados = await numerosTomados(app, accountId);
    expect(tomados).toBeGreaterThanOrEqual(5);
    expect(tomados).toBeLessThanOrEqual(40);

    // One more, alone: refused before a number is taken.
    expectSinConfirmar(await crear(app, cookie, decaMinima(41)));
    expect(await numerosTomados(app, accountId)).toBe(tomados);
    expect(await contarDecas(app, accountId)).toBe(5);
  });

  it('counts a method-2 replacement racing with creations against the same 5', async ({ app }) => {
    const { cookie, accountId } = await alta(app);
    const emitida = await crear(app, cookie, decaCompleta());
    expect(emitida.status, emitida.text).toBe(201);
    for (let i = 0; i < 3; i++) expect((await crear(app, cookie, decaMinima(i))).status).toBe(201);
    // Four live: one place left, asked for by a replacement and 12 creations at once.
    const [sustitucion, ...creaciones] = await Promise.all([
      app.request('POST', `/api/v1/decas/${Deca.parse(emitida.body.deca).id}/sustituir`, { cookie, headers: CSRF, body: { motivo: 'Cambio de cargador', cargador_nombre: 'Otro Cargador, S.A.' } }),
      ...Array.from({ length: 12 }, (_, i) => crear(app, cookie, decaMinima(100 + i))),
    ]);
    const hechas = [sustitucion!, ...creaciones].filter((a) => a.status === 200 || a.status === 201);
    expect(hechas).toHaveLength(1);
    for (const a of [sustitucion!, ...creaciones].filter((x) => !hechas.includes(x))) expectSinConfirmar(a);
    expect(await contarDecas(app, accountId)).toBe(5);
  });
});
