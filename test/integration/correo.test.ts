import { createHash } from 'node:crypto';
import { describe, expect } from 'vitest';
import { runAdminCommand } from '../../server/admin/commands';
import { enqueueCorreo } from '../../server/domain/correo/correos';
import { runMailOnce, startMailWorker } from '../../server/jobs/mail-delivery';
import { ErrorBody } from '../../shared/errors';
import { type Deca, DecaCreada } from '../../shared/schemas/deca';
import { decaCompleta } from '../support/decas';
import { type Fx, it, test } from '../support/fixtures';
import { freePort, mailDeps, startSmtp } from '../support/smtp';

test.override('opcionesCuenta', { nombre: 'Transportes Núñez, S.L.' });

async function emitida({ app, c }: Fx): Promise<Deca> {
  const res = await app.request('POST', '/api/v1/decas', { key: c.live, body: decaCompleta() });
  expect(res.status).toBe(201);
  return DecaCreada.parse(res.body).deca;
}

async function pendientesDe({ app, c }: Fx, to: string) {
  return app.database.db.selectFrom('correos').selectAll().where('destinatario', '=', to).execute();
}

describe('sending a DeCA to the driver', () => {
  it('returns the text for the messaging app and a wa.me link, and queues the mail in the same transaction', async ({ app, c }) => {
    const deca = await emitida({ app, c });
    const res = await app.request('POST', `/api/v1/decas/${deca.id}/enviar`, { key: c.live, body: { email: 'conductor@example.com' } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.texto).toContain(deca.numero);
    expect(res.body.texto).toContain(deca.urls.conductor);
    expect(res.body.texto).toContain('Transportes Núñez, S.L.');
    expect(res.body.whatsapp_url).toBe(`https://wa.me/?text=${encodeURIComponent(res.body.texto)}`);
    expect(await pendientesDe({ app, c }, 'conductor@example.com')).toHaveLength(1);
  });

  it('delivers through a real SMTP server: recipient, subject, link, and the PDF whose bytes hash to pdf_sha256', async ({ app, c }) => {
    const smtp = await startSmtp();
    try {
      const deca = await emitida({ app, c });
      await app.request('POST', `/api/v1/decas/${deca.id}/enviar`, { key: c.live, body: { email: 'entrega@example.com' } });
      const r = await runMailOnce(mailDeps(app, smtp.url));
      expect(r.enviados).toBeGreaterThanOrEqual(1);
      const mail = smtp.mails.find((m) => m.subject?.includes(deca.numero));
      expect(mail).toBeDefined();
      expect(JSON.stringify(mail?.to)).toContain('entrega@example.com');
      expect(mail?.subject).toBe(`DeCA ${deca.numero} de Transportes Núñez, S.L.`);
      expect(mail?.text).toContain(deca.urls.conductor);
      expect(mail?.html || '').toContain(deca.urls.conductor);
      const pdf = mail?.attachments.find((a) => a.contentType === 'application/pdf');
      expect(pdf?.filename).toBe(`DeCA-${deca.numero}-v1.pdf`);
      expect(
        createHash('sha256')
          .update(pdf?.content ?? Buffer.alloc(0))
          .digest('hex'),
      ).toBe(deca.pdf_sha256);
      const [row] = await pendientesDe({ app, c }, 'entrega@example.com');
      expect(row?.estado).toBe('enviado');
    } finally {
      await smtp.close();
    }
  });

  it('refuses an invalid e-mail (422) and a pending DeCA (409)', async ({ app, c }) => {
    const deca = await emitida({ app, c });
    const bad = await app.request('POST', `/api/v1/decas/${deca.id}/enviar`, { key: c.live, body: { email: 'no-es-un-correo' } });
    expect(bad.status).toBe(422);
    expect(ErrorBody.parse(bad.body).error.campos).toHaveProperty('email');
    const pend = await app.request('POST', '/api/v1/decas', { key: c.live, body: { ...decaCompleta(), emitir: false } });
    const r = await app.request('POST', `/api/v1/decas/${pend.body.deca.id}/enviar`, { key: c.live, body: { email: 'a@example.com' } });
    expect(r.status).toBe(409);
    expect(ErrorBody.parse(r.body).error.codigo).toBe('pendiente');
  });
});

describe('asking the other party for its data', () => {
  it('emitir:false with pedir_datos_email mails the completion link', async ({ app, c }) => {
    const smtp = await startSmtp();
    try {
      const res = await app.request('POST', '/api/v1/decas', {
        key: c.live,
        body: { emitir: false, pedir_datos_email: 'cargador@example.com', matricula: '1234BCD', fecha_transporte: '2026-11-25' },
      });
      expect(res.status, res.text).toBe(201);
      const deca = DecaCreada.parse(res.body).deca;
      await runMailOnce(mailDeps(app, smtp.url));
      const mail = smtp.mails.find((m) => m.subject?.includes(deca.numero));
      expect(mail?.subject).toBe(`Transportes Núñez, S.L. le pide completar la DeCA ${deca.numero}`);
      expect(mail?.text).toContain(deca.urls.completar ?? 'x');
    } finally {
      await smtp.close();
    }
  });

  it('POST /pedir-datos returns the link, e-mails it when asked, and refuses an issued DeCA', async ({ app, c }) => {
    const pend = await app.request('POST', '/api/v1/decas', { key: c.live, body: { emitir: false } });
    const deca = DecaCreada.parse(pend.body).deca;
    const noMail = await app.request('POST', `/api/v1/decas/${deca.id}/pedir-datos`, { key: c.live, body: {} });
    expect(noMail.body).toEqual({ completar: deca.urls.completar, enviado_a: null });
    const withMail = await app.request('POST', `/api/v1/decas/${deca.id}/pedir-datos`, { key: c.live, body: { email: 'otra@example.com' } });
    expect(withMail.body.enviado_a).toBe('otra@example.com');
    expect(await pendientesDe({ app, c }, 'otra@example.com')).toHaveLength(1);
    const bad = await app.request('POST', `/api/v1/decas/${deca.id}/pedir-datos`, { key: c.live, body: { email: 'x@' } });
    expect(bad.status).toBe(422);
    const issued = await emitida({ app, c });
    const r = await app.request('POST', `/api/v1/decas/${issued.id}/pedir-datos`, { key: c.live, body: {} });
    expect(r.status).toBe(409);
  });
});

describe('mail outbox', () => {
  it('keeps mail with no SMTP_URL (never lost) and lists it with mail:list', async ({ app, c }) => {
    const deca = await emitida({ app, c });
    await app.request('POST', `/api/v1/decas/${deca.id}/enviar`, { key: c.live, body: { email: 'Guardado@Example.com' } });
    const r = await runMailOnce(mailDeps(app, null));
    expect(r.guardados).toBeGreaterThanOrEqual(1);
    const list = (await runAdminCommand(app.services, 'mail:list', { to: 'guardado@example.com' })) as {
      correos: { to: string; subject: string; text: string; created_at: string }[];
    };
    expect(list.correos).toHaveLength(1);
    expect(Object.keys(list.correos[0] ?? {}).sort()).toEqual(['created_at', 'subject', 'text', 'to']);
    expect(list.correos[0]?.subject).toContain(deca.numero);
    const [row] = await app.database.db.selectFrom('correos').select('estado').where('destinatario', '=', 'Guardado@Example.com').execute();
    expect(row?.estado).toBe('pendiente');
  });

  it('retries with backoff and delivers once the SMTP server comes up late', async ({ app, c }) => {
    const port = await freePort();
    const deca = await emitida({ app, c });
    await app.request('POST', `/api/v1/decas/${deca.id}/enviar`, { key: c.live, body: { email: 'tarde@example.com' } });
    const down = await runMailOnce(mailDeps(app, `smtp://127.0.0.1:${port}`));
    expect(down.fallidos).toBeGreaterThanOrEqual(1);
    let [row] = await pendientesDe({ app, c }, 'tarde@example.com');
    expect(row).toMatchObject({ estado: 'pendiente', intentos: 1 });
    expect(row?.ultimo_error).toBeTruthy();
    expect((row?.proximo_intento_at.getTime() ?? 0) - app.clock.now().getTime()).toBeGreaterThan(50_000);

    const smtp = await startSmtp(port);
    try {
      // Not due yet: nothing is sent before the backoff.
      await runMailOnce(mailDeps(app, smtp.url));
      expect(smtp.mails.find((m) => m.subject?.includes(deca.numero))).toBeUndefined();
      app.clock.advance(61_000);
      await runMailOnce(mailDeps(app, smtp.url));
      expect(smtp.mails.find((m) => m.subject?.includes(deca.numero))).toBeDefined();
      [row] = await pendientesDe({ app, c }, 'tarde@example.com');
      expect(row).toMatchObject({ estado: 'enviado', intentos: 2 });
    } finally {
      await smtp.close();
    }
  });
});

describe('the mail worker (the outbox runner with the mail lane)', () => {
  it('is woken by the commit; on stop it lets the mail being handed to SMTP finish and gives back the rest of its batch', async ({ app, c }) => {
    // Each message is held 1.5 s by the SMTP server, so a stop finds one in flight.
    const smtp = await startSmtp(0, { delayMs: 1_500 });
    const deca = await emitida({ app, c });
    const debidos = async () =>
      Number(
        (
          await app.database.db
            .selectFrom('correos')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('estado', '=', 'pendiente')
            .where('proximo_intento_at', '<=', app.clock.now())
            .executeTakeFirstOrThrow()
        ).n,
      );
    const filas = () => app.database.db.selectFrom('correos').select(['destinatario', 'estado', 'intentos', 'bloqueado_hasta']).where('destinatario', 'like', 'runner-%').orderBy('id').execute();
    // Its fallback poll comes only after this test has ended: only a commit's NOTIFY can wake it.
    const worker = await startMailWorker({ ...mailDeps(app, smtp.url), database: app.database, listener: app.services.listener ?? undefined, pollMs: 10 * 60_000 });
    let parado = false;
    try {
      // What earlier tests left due goes out first; then the worker has nothing left to look for.
      await expect.poll(debidos, { timeout: 60_000 }).toBe(0);
      const enviar = await app.request('POST', `/api/v1/decas/${deca.id}/enviar`, { key: c.live, body: { email: 'runner-0@example.com' } });
      expect(enviar.status).toBe(200);
      await expect.poll(async () => (await filas()).map((f) => f.estado), { timeout: 20_000 }).toEqual(['enviado']);

      // Three mails in one commit: one NOTIFY, one batch claimed. One is handed to SMTP while the others wait, leased.
      await app.database.db.transaction().execute(async (trx) => {
        for (const n of [1, 2, 3]) {
          await enqueueCorreo(
            trx,
            { accountId: c.account.id, entorno: 'produccion' },
            { tipo: 'enviar_deca', decaId: null, destinatario: `runner-${n}@example.com`, asunto: `Lote ${n}`, texto: 'Prueba', html: '<p>Prueba</p>' },
            app.clock.now(),
          );
        }
      });
      await expect.poll(async () => (await filas()).filter((f) => f.bloqueado_hasta !== null).length, { timeout: 20_000, interval: 20 }).toBeGreaterThanOrEqual(2);
      await worker.stop();
      parado = true;
      const tras = await filas();
      // Nothing stays leased: what was sent is recorded once, what was not went back with no attempt spent.
      expect(tras.filter((f) => f.bloqueado_hasta !== null)).toEqual([]);
      for (const f of tras) expect([f.estado, f.intentos]).toEqual(f.estado === 'enviado' ? ['enviado', 1] : ['pendiente', 0]);
      expect(tras.filter((f) => f.estado === 'pendiente').length).toBeGreaterThanOrEqual(1);

      // The next pass (any process's) sends what was given back at once.
      while ((await runMailOnce(mailDeps(app, smtp.url))).enviados > 0);
      expect((await filas()).map((f) => [f.estado, f.intentos])).toEqual(Array.from({ length: 4 }, () => ['enviado', 1]));
      const destinos = smtp.mails.flatMap((m) => (Array.isArray(m.to) ? m.to : [m.to]).flatMap((t) => t?.value.map((v) => v.address) ?? []));
      expect(destinos.filter((d) => d?.startsWith('runner-')).sort()).toEqual([0, 1, 2, 3].map((n) => `runner-${n}@example.com`));
    } finally {
      if (!parado) await worker.stop();
      await smtp.close();
    }
  });
});
