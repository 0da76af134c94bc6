import { describe, expect, it, onTestFinished } from 'vitest';
import { startReceptor } from '../support/webhook-receiver';
import { CHROMIUM, enlaceDelCorreo, entrar, seguirEnlace } from './browser';
import { archivoE2e, decaCompleta, esperarNumero, numerosEnServidor, rellenarDeca } from './flujos';

/**
 * The office's side: integrations (webhooks, the plan's quota), DeCAs sent
 * by e-mail and asked of the other party, the long list, the account's
 * users and their roles, and signing out.
 */
describe.skipIf(!CHROMIUM)('the office: webhooks, e-mail, the list, users and sessions', () => {
  const e2e = archivoE2e({ politicas: true });

  it('creates a webhook with chosen events, shows its secret once, and a test ping reaches the receiver', async () => {
    const { env } = e2e;
    const { page, api } = await e2e.sesion({ clave: true });
    const rx = await startReceptor();
    onTestFinished(() => rx.close());
    await page.goto(`${env.url}/cuenta`);
    // The plan's monthly quota, as the API counts it.
    const { cuenta } = await api<{ cuenta: { cuota: { usadas: number; limite: number | null } } }>('GET', '/cuenta');
    await page
      .getByTestId('cuota')
      .getByText(`DeCA este mes: ${cuenta.cuota.usadas}${cuenta.cuota.limite === null ? ' (sin límite)' : ` de ${cuenta.cuota.limite}`}`)
      .waitFor();
    await seguirEnlace(page, page.getByRole('link', { name: 'Gestionar los webhooks' }), page.getByRole('heading', { name: 'Webhooks' }));
    await page.fill('#f-webhook-url', `${rx.url}/deca`);
    await page.fill('#f-webhook-descripcion', 'ERP');
    await page.getByRole('checkbox', { name: 'Abierta desde el QR o el enlace' }).uncheck();
    await page.getByRole('button', { name: 'Crear webhook' }).click();
    const secreto = (await page.getByTestId('secreto-nuevo').textContent())!;
    expect(secreto).toMatch(/^whsec_/);
    const { webhooks } = await api<{ webhooks: { id: number; eventos: string[] }[] }>('GET', '/webhooks');
    expect(webhooks.at(-1)!.eventos).not.toContain('deca.descargado');
    expect(webhooks.at(-1)!.eventos).toContain('deca.emitido');
    await page.getByRole('button', { name: 'Ya lo he guardado' }).click();
    expect(await page.getByTestId('secreto-nuevo').count()).toBe(0);

    const item = page.getByTestId('webhooks').locator('li').last();
    await item.getByRole('button', { name: 'Probar' }).click();
    await page.getByText(/Recibido \(HTTP 200\)/).waitFor();
    expect(rx.recibidos.at(-1)!.body).toMatchObject({ evento: 'ping' });
    await item.getByRole('button', { name: 'Entregas' }).click();
    await item.getByText('Prueba (ping)').waitFor();
    await item.getByRole('button', { name: 'Pausar' }).click();
    await item.getByText(/^Pausado/).waitFor();
    await item.getByRole('button', { name: 'Reanudar' }).click();
    await item.getByText(/^Activo/).waitFor();
  });

  it('sends an issued DeCA by e-mail with its PDF and offers it to the driver; asks the other party for the data of a pending one', async () => {
    const { env } = e2e;
    const { page, api } = await e2e.sesion({ clave: true });
    const emitida = await api<{ deca: { numero: string } }>('POST', '/decas', decaCompleta());
    await page.goto(`${env.url}/decas/${emitida.deca.numero}`);
    const panel = page.getByTestId('enviar-deca');
    await panel.getByRole('heading', { name: 'Enviar' }).waitFor();
    await panel.getByLabel('Correo al que enviar la DeCA').fill('trafico@cliente.example');
    await panel.getByRole('button', { name: 'Enviar por correo' }).click();
    await panel.getByTestId('enviado').getByText('Enviada a trafico@cliente.example, con el PDF.').waitFor();
    expect(await enlaceDelCorreo(env, 'trafico@cliente.example', /^\/d\/.+\/conductor$/)).toMatch(/\/conductor$/);
    expect(await panel.getByTestId('enviado').getByRole('link').getAttribute('href')).toMatch(/\/d\/.+\/conductor$/);

    const { deca } = await api<{ deca: { numero: string } }>('POST', '/decas', { emitir: false, cargador_nombre: 'Falta Su NIF, S.L.', matricula: '1212 BBB' });
    await page.goto(`${env.url}/decas/${deca.numero}`);
    await panel.getByRole('heading', { name: 'Pedir los datos a la otra parte' }).waitFor();
    await panel.getByLabel('Correo de la otra parte (opcional)').fill('cargas@falta.example');
    await panel.getByRole('button', { name: 'Pedir datos' }).click();
    await panel.getByText('Enlace enviado a cargas@falta.example.').waitFor();
    const enlace = await enlaceDelCorreo(env, 'cargas@falta.example', /^\/completar\//);
    expect(await panel.getByTestId('enviado').getByRole('link').getAttribute('href')).toContain(enlace);
  });

  it('scrolls the list page by page with the API cursor, and filters it', async () => {
    const { env } = e2e;
    const { page, api } = await e2e.sesion({ clave: true });
    for (let i = 0; i < 32; i++) await api('POST', '/decas', { emitir: false, referencia: `lote-${i}`, matricula: i % 2 ? '7777JJJ' : '8888KKK' });
    const total = (await numerosEnServidor(api)).length;
    expect(total).toBeGreaterThan(30);
    const cursores: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/v1/decas?') && r.url().includes('despues_de=')) cursores.push(r.url());
    });
    await page.goto(env.url);
    const filas = page.getByTestId('lista-decas').locator('[data-clave]');
    await expect
      .poll(
        async () => {
          await page.mouse.wheel(0, 10_000);
          return filas.count();
        },
        { timeout: 20_000 },
      )
      .toBe(total);
    expect(cursores.length).toBeGreaterThan(0);
    await page.fill('#f-texto', 'lote-7');
    await expect.poll(() => filas.count()).toBe(1);
    await page.fill('#f-texto', '');
    await page.fill('#f-matricula', '7777 jjj');
    // The list re-renders while the plate is being typed (here: the connection flickers): it stays typed.
    await page.evaluate(() => dispatchEvent(new Event('offline')));
    await page.getByText('Sin conexión').first().waitFor();
    await page.evaluate(() => dispatchEvent(new Event('online')));
    expect(await page.inputValue('#f-matricula')).toBe('7777 jjj');
    await page.press('#f-matricula', 'Enter');
    await page.locator('#f-estado').selectOption('pendiente');
    await expect.poll(() => filas.count(), { timeout: 10_000 }).toBe(16);
    expect(page.url()).toContain('matricula=7777');
    // Two changes in one task (a typed plate committed on blur as the select changes) keep both.
    await page.evaluate(() => {
      const m = document.querySelector<HTMLInputElement>('#f-matricula')!;
      m.value = '';
      m.dispatchEvent(new Event('change', { bubbles: true }));
      const e = document.querySelector<HTMLSelectElement>('#f-estado')!;
      e.value = '';
      e.dispatchEvent(new Event('change', { bubbles: true }));
    });
    await expect.poll(() => new URL(page.url()).search, { timeout: 10_000 }).toBe('');
  });

  it('signs out: the session ends on the server and the sign-in screen shows', async () => {
    const { env } = e2e;
    const { page } = await e2e.sesion();
    await page.goto(`${env.url}/cuenta`);
    const sesion = (await env.context.cookies()).find((c) => c.name === 'deca_sesion');
    expect(sesion).toBeDefined();
    const conCookie = () => fetch(`${env.url}/app/api/sesion`, { headers: { cookie: `deca_sesion=${sesion?.value}` } });
    expect((await conCookie()).status).toBe(200);
    await page.getByRole('button', { name: 'Cerrar sesión' }).click();
    await page.locator('input[type=password]').first().waitFor({ timeout: 20_000 });
    // The old cookie no longer opens anything: the session was closed on the server.
    expect((await conCookie()).status).toBe(401);
    expect((await env.context.cookies()).find((c) => c.name === 'deca_sesion')).toBeUndefined();
  });

  it('an administrator invites a driver by e-mail; the driver joins from the link and cannot reach integrations, in the app or the API', async () => {
    const { env } = e2e;
    // The administrator, signed in, invites; the account's address book has an entry a driver could be offered to edit.
    const { page, api } = await e2e.sesion({ empresa: 'Transportes Prueba SL', alias: 'administradora', clave: true });
    await api('POST', '/agenda/empresas', { nombre: 'Agenda Sin Red, S.L.', nif: 'A58818501', domicilio: 'Camí Vell 3, 25001 Lleida' });
    const CHOFER = 'chofer@example.com';
    const CLAVE_CHOFER = 'clave-del-chofer-1';
    env.recordar(CLAVE_CHOFER);
    await page.goto(`${env.url}/cuenta`);
    await seguirEnlace(page, page.getByRole('link', { name: 'Usuarios e invitaciones' }), page.getByRole('heading', { name: 'Usuarios' }));
    await page.fill('#f-invitar_email', CHOFER);
    await page.selectOption('#f-invitar_rol', 'conductor');
    await page.getByRole('button', { name: 'Enviar invitación' }).click();
    await page.getByText(`Invitación enviada a ${CHOFER}`).waitFor();
    expect(await page.getByTestId('invitaciones').textContent()).toContain('Conductor');
    await page.goto(`${env.url}/cuenta`);
    await page.getByRole('button', { name: 'Cerrar sesión' }).click();
    await page.locator('input[type=password]').first().waitFor();

    // The driver opens the link of the e-mail, chooses a password and is in.
    await page.goto(env.url + (await enlaceDelCorreo(env, CHOFER, /^\/invitacion\//)));
    await page.getByRole('heading', { name: 'Únase a Transportes Prueba SL' }).waitFor();
    expect(await page.locator('main').textContent()).toContain('conductor');
    await page.fill('#f-password', CLAVE_CHOFER);
    await page.getByRole('button', { name: 'Aceptar y entrar' }).click();
    await page.getByRole('heading', { name: 'Sus DeCA' }).waitFor();

    // No integrations, plan or users offered; typed addresses show the refusal; the API refuses them too.
    await page.goto(`${env.url}/cuenta`);
    await page.getByText(CHOFER).first().waitFor();
    const cuenta = (await page.locator('main').textContent()) ?? '';
    expect(cuenta).toContain('(conductor)');
    for (const oculto of ['Claves de API', 'Webhooks', 'Plan y cuota', 'Usuarios e invitaciones']) expect(cuenta).not.toContain(oculto);
    for (const ruta of ['/webhooks', '/usuarios', '/importar']) {
      await page.goto(env.url + ruta);
      expect(await page.getByTestId('sin-permiso').textContent()).toMatch(/^Su función en la cuenta \(Conductor\) no permite/);
    }
    const estados = await page.evaluate(async () => {
      const pedir = async (ruta: string, init?: RequestInit) => (await fetch(ruta, { ...init, headers: { 'X-DeCA-CSRF': '1', 'Content-Type': 'application/json' } })).status;
      return {
        webhooks: await pedir('/api/v1/webhooks'),
        crearWebhook: await pedir('/api/v1/webhooks', { method: 'POST', body: JSON.stringify({ url: 'https://93.184.216.34/x', eventos: ['deca.emitido'] }) }),
        claves: await pedir('/app/api/claves'),
        usuarios: await pedir('/app/api/usuarios'),
        decas: await pedir('/api/v1/decas'),
      };
    });
    expect(estados).toEqual({ webhooks: 403, crearWebhook: 403, claves: 403, usuarios: 403, decas: 200 });
    // The address book: searched, not changed.
    await page.goto(`${env.url}/agenda`);
    await page.getByTestId('agenda').locator('[data-clave="A58818501"]').waitFor();
    expect(await page.getByRole('button', { name: /^Añadir|^Editar/ }).count()).toBe(0);
    // What a driver is for: a DeCA, created and issued.
    await rellenarDeca(page, { cargador: 'Cargas del Chófer SL', matricula: '5555GGG', origen: 'Teruel', destino: 'Cuenca' });
    await page.getByRole('button', { name: 'Emitir ahora' }).click();
    await esperarNumero(page);
  });

  it('an administrator assigns a driver their truck’s plate in «Usuarios»; the driver’s list holds that truck’s DeCAs and theirs, and no other', async () => {
    const { env } = e2e;
    const { page, api } = await e2e.sesion({ empresa: 'Transportes Flota SL', clave: true });
    // The office's DeCAs by API: one for the driver's truck, one for another truck.
    const suya = (await api<{ deca: { id: number; numero: string } }>('POST', '/decas', decaCompleta({ matricula: '7777 HHH' }))).deca;
    const otra = (await api<{ deca: { id: number; numero: string } }>('POST', '/decas', decaCompleta({ matricula: '1234 BCD' }))).deca;
    // The driver joins (through the API, with the administrator's session and the e-mailed link).
    const admin = (await env.context.cookies()).find((c) => c.name === 'deca_sesion')!.value;
    const CHOFER = 'chofer.flota@example.com';
    const CLAVE_CHOFER = 'clave-del-chofer-2';
    env.recordar(CLAVE_CHOFER);
    const cabeceras = { 'content-type': 'application/json', 'X-DeCA-CSRF': '1' };
    const inv = await fetch(`${env.url}/app/api/usuarios`, { method: 'POST', headers: { ...cabeceras, cookie: `deca_sesion=${admin}` }, body: JSON.stringify({ email: CHOFER, rol: 'conductor' }) });
    expect(inv.status).toBe(201);
    const enlace = await enlaceDelCorreo(env, CHOFER, /^\/invitacion\//);
    const alta = await fetch(`${env.url}/app/api${enlace}`, { method: 'POST', headers: cabeceras, body: JSON.stringify({ password: CLAVE_CHOFER }) });
    expect(alta.status).toBe(201);

    // The administrator gives them the truck's plate, as people write it.
    await page.goto(`${env.url}/usuarios`);
    const fila = page.locator(`[data-email="${CHOFER}"]`);
    await fila.getByLabel(`Matrículas que conduce ${CHOFER}`).fill('7777-hhh');
    await fila.getByRole('button', { name: 'Guardar matrículas' }).click();
    await page.getByText(`${CHOFER} ve ahora las DeCA de 7777HHH y las que hace.`).waitFor();
    await expect.poll(() => fila.getByLabel(`Matrículas que conduce ${CHOFER}`).inputValue()).toBe('7777HHH');
    await page.goto(`${env.url}/cuenta`);
    await page.getByRole('button', { name: 'Cerrar sesión' }).click();
    await page.locator('input[type=password]').first().waitFor();

    // The driver's list: the truck's DeCA, not the other one (both came in the same page of the server's list).
    await entrar(env, page, { email: CHOFER, password: CLAVE_CHOFER });
    expect(await page.getByTestId('que-ve').textContent()).toBe('Ve las DeCA que ha hecho usted y las de su vehículo 7777HHH.');
    await page.locator(`[data-clave="s:${suya.id}"]`).first().waitFor();
    expect(await page.locator(`[data-clave="s:${otra.id}"]`).count()).toBe(0);
    // Typed in by its number, the other DeCA does not exist for them.
    await page.goto(`${env.url}/decas/${otra.numero}`);
    await page.getByText('Esta DeCA no existe en su cuenta (o se eliminó).').waitFor();
  });
});
