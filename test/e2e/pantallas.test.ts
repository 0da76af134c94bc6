import { chromium, type Page } from 'playwright-core';
import { describe, expect, it, onTestFinished } from 'vitest';
import { auditarAccesibilidad } from './axe';
import { CHROMIUM, CHROMIUM_ARGS, cuentaNueva, type Entorno, enlaceDelCorreo, esperarServiceWorker, POLL_API_MS, seguirEnlace, sinNumerosReservados } from './browser';
import { type Api, archivoE2e, documentosEnDispositivo } from './flujos';

/**
 * The screens as their users meet them: a driver on a 390×844 phone, a
 * dispatcher on a 1440×900 desktop, an inspector opening the QR. Every
 * screen is checked with axe-core (WCAG 2.2 A and AA) as it is shown.
 * Each test starts from an account of its own, signed in on a fresh
 * browser profile the size of the phone.
 */
/** Today in Madrid, `YYYY-MM-DD` (the browser runs on Madrid time too). */
const hoy = () => new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Madrid' }).format(new Date());

/** No WCAG A/AA violation on what the page shows now. */
async function sinInfracciones(page: Page, pantalla: string): Promise<void> {
  expect(await auditarAccesibilidad(page), pantalla).toEqual([]);
}

async function numeroEnCabecera(p: Page): Promise<string> {
  const h1 = p.locator('h1', { hasText: /DeCA \d{4}-\d{6}/ });
  await h1.waitFor({ timeout: 20_000 });
  return /(\d{4}-\d{6})/.exec((await h1.textContent()) ?? '')![1]!;
}

/** A complete DeCA typed step by step on the phone; `cambios` overrides field values by id. */
async function rellenarEnMovil(env: Entorno, p: Page, cambios: Record<string, string> = {}): Promise<void> {
  const v = (id: string, def: string) => cambios[id] ?? def;
  await p.goto(`${env.url}/decas/nueva`);
  await p.fill('#f-cargador_nombre', v('cargador_nombre', 'Frutas del Cierzo SL'));
  await p.fill('#f-cargador_nif', v('cargador_nif', 'B12345674'));
  await p.fill('#f-cargador_domicilio', v('cargador_domicilio', 'Calle Mayor 1, Zaragoza'));
  await p.getByRole('button', { name: 'Siguiente: Vehículo' }).click();
  await p.fill('#f-matricula', v('matricula', '1234BCD'));
  await p.fill('#f-conductor_nombre', v('conductor_nombre', 'Ana Ruiz'));
  await p.getByRole('button', { name: 'Siguiente: Envíos' }).click();
  await p.fill('#f-envios_0__origen', 'Zaragoza');
  await p.fill('#f-envios_0__destino', 'Teruel');
  await p.fill('#f-envios_0__naturaleza', 'Melocotón');
  await p.fill('#f-envios_0__peso', v('peso', '24.500'));
  if (cambios.unidad) await p.selectOption('#f-envios_0__unidad', cambios.unidad);
}

/**
 * An issued DeCA made through the API, today's, as the phone's form would
 * have made it («Frutas del Cierzo SL», 1234BCD, Zaragoza → Teruel); `cambios`
 * overrides its fields.
 */
async function emitida(api: Api, cambios: Record<string, unknown> = {}): Promise<{ id: number; numero: string }> {
  const { deca } = await api<{ deca: { id: number; numero: string } }>('POST', '/decas', {
    cargador_nombre: 'Frutas del Cierzo SL',
    cargador_nif: 'B12345674',
    cargador_domicilio: 'Calle Mayor 1, Zaragoza',
    matricula: '1234BCD',
    conductor_nombre: 'Ana Ruiz',
    fecha_transporte: hoy(),
    envios: [{ origen: 'Zaragoza', destino: 'Teruel', naturaleza: 'Melocotón', peso: 24500 }],
    ...cambios,
  });
  return deca;
}

/** Like the DeCA the third test makes with no coverage, once issued: the road view, the roadside check and the list's filters start from it. */
const SIN_COBERTURA = { cargador_nombre: 'Sin Cobertura SL', matricula: '4321CCC' };

describe.skipIf(!CHROMIUM)('today’s screens, as drivers, dispatchers and inspectors meet them', () => {
  const e2e = archivoE2e({ viewport: { width: 390, height: 844 } });

  // The one flow here that signs up through the form; every other test's account is made through the server's endpoints.
  it('refuses sign-up with a company NIF whose check digit is wrong, saying the right one', async () => {
    const { env } = e2e;
    const EMAIL = 'flota@example.com';
    const PASSWORD = 'una-clave-larga-2';
    env.recordar(PASSWORD);
    const movil = await env.context.newPage();
    await movil.goto(`${env.url}/registro`);
    await movil.getByRole('heading', { name: 'Crear cuenta' }).waitFor();
    await sinInfracciones(movil, 'alta');
    await movil.fill('#f-nombre', 'Transportes del Cierzo SL');
    await movil.fill('#f-nif', 'B12345678');
    await movil.fill('#f-email', EMAIL);
    await movil.fill('#f-password', PASSWORD);
    await movil.getByRole('button', { name: 'Crear cuenta' }).click();
    await expect.poll(() => movil.locator('[data-campo="nif"]').textContent()).toContain('debería ser 4');
    expect(await movil.locator('[data-campo="domicilio"]').count()).toBe(1); // the address is required too
    await sinInfracciones(movil, 'alta con errores');

    await movil.fill('#f-nif', 'B12345674');
    await movil.fill('#f-domicilio', 'Polígono Malpica 4, Zaragoza');
    await movil.getByRole('button', { name: 'Crear cuenta' }).click();
    await movil.getByRole('heading', { name: 'Sus DeCA' }).waitFor();
    await sinInfracciones(movil, 'lista vacía (móvil)');

    // Confirmed, so production keys can be made.
    const enlace = await enlaceDelCorreo(env, EMAIL, /^\/confirmar\//);
    const correo = await env.context.newPage();
    await correo.goto(`${env.url}${enlace}`);
    await correo.getByRole('button', { name: 'Confirmar el correo' }).click();
    await correo.getByRole('heading', { name: 'Correo confirmado' }).waitFor();
    await correo.close();
    const r = await movil.evaluate(async () => {
      const res = await fetch('/app/api/claves', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-DeCA-CSRF': '1' },
        body: JSON.stringify({ entorno: 'produccion', nombre: 'Pruebas e2e' }),
      });
      return { status: res.status, ...((await res.json()) as { key: string }) };
    });
    expect(r.status).toBe(201);
    expect(r.key).toMatch(/^dg_live_/);
  });

  it('warns at each field as the driver types, and asks before issuing with warnings', async () => {
    const { env } = e2e;
    const { page: movil, api } = await e2e.sesion({ clave: true });
    await rellenarEnMovil(env, movil, { cargador_nif: 'B12345678' });
    await movil.getByRole('button', { name: '1. Partes' }).click(); // the step tabs can be tapped
    await expect.poll(() => movil.locator('[data-aviso="cargador_nif"]').textContent()).toContain('debería ser 4');
    await movil.getByRole('button', { name: '2. Vehículo' }).click();
    await movil.fill('#f-matricula', 'XX');
    await expect.poll(() => movil.locator('[data-aviso="matricula"]').textContent()).toContain('Revise la matrícula XX');
    await movil.getByRole('button', { name: '3. Envíos' }).click();
    // 23.800 with the unit left at tonnes: the unit is shown beside the number and kg is suggested.
    await movil.selectOption('#f-envios_0__unidad', 't');
    await movil.fill('#f-envios_0__peso', '23.800');
    await expect.poll(() => movil.getByTestId('sufijo').textContent()).toBe('t');
    await expect.poll(() => movil.locator('[data-aviso="envios[0].peso"]').textContent()).toContain('¿Quería decir 23.800 kg?');
    await sinInfracciones(movil, 'formulario con avisos');

    await movil.getByRole('button', { name: 'Siguiente: Revisión' }).click();
    expect(await movil.getByTestId('avisos').locator('li').count()).toBe(3);
    await movil.getByRole('button', { name: 'Emitir ahora' }).click();
    const dialogo = movil.getByRole('dialog');
    await dialogo.waitFor();
    expect(await dialogo.textContent()).toContain('3 datos merecen revisión');
    expect(await dialogo.textContent()).toContain('Cargador · NIF');
    await sinInfracciones(movil, 'confirmación de emisión');
    // Escape is «review»: nothing is issued, and the first field with a warning has the focus.
    await movil.keyboard.press('Escape');
    await dialogo.waitFor({ state: 'detached' });
    await expect.poll(() => movil.evaluate(() => document.activeElement?.id)).toBe('f-cargador_nif');
    expect((await api<{ decas: unknown[] }>('GET', '/decas')).decas).toHaveLength(0);

    await movil.fill('#f-cargador_nif', 'B12345674');
    await movil.getByRole('button', { name: '3. Envíos' }).click();
    await movil.selectOption('#f-envios_0__unidad', 'kg');
    await movil.getByRole('button', { name: '4. Revisión' }).click();
    await movil.getByRole('button', { name: 'Emitir ahora' }).click();
    await dialogo.waitFor();
    expect(await dialogo.textContent()).toContain('Un dato merece revisión');
    await movil.getByRole('button', { name: 'Emitir de todos modos' }).click();
    const numero = await numeroEnCabecera(movil);
    // The address shows the number, not the local key.
    await expect.poll(() => new URL(movil.url()).pathname).toBe(`/decas/${numero}`);
    const { deca } = await api<{ deca: { matricula: string; envios: { peso: number; unidad: string }[] } }>('GET', `/decas/${numero}`);
    expect(deca.matricula).toBe('XX');
    expect(deca.envios[0]).toMatchObject({ peso: 23800, unidad: 'kg' });
  });

  it('says unmistakably that a DeCA made with no coverage is not issued yet, until it is', async () => {
    const { env } = e2e;
    const { page: movil } = await e2e.sesion();
    await esperarServiceWorker(movil);
    await env.context.setOffline(true);
    await sinNumerosReservados(movil);
    await rellenarEnMovil(env, movil, { cargador_nombre: 'Sin Cobertura SL', matricula: '4321CCC' });
    await movil.getByRole('button', { name: 'Siguiente: Revisión' }).click();
    await movil.getByRole('button', { name: 'Emitir ahora' }).click();
    const banda = movil.getByTestId('sin-emitir');
    await banda.waitFor();
    expect(await banda.textContent()).toContain('Aún no emitida: se emitirá al recuperar cobertura.');
    await sinInfracciones(movil, 'detalle sin emitir');
    await movil.getByRole('link', { name: 'DeCAs' }).click();
    await movil.getByRole('heading', { name: 'Sus DeCA' }).waitFor();
    expect(await movil.getByTestId('sin-emitir').textContent()).toContain('Una DeCA aún no emitida');
    const tarjeta = movil.locator('[data-clave]', { hasText: 'Sin Cobertura SL' });
    expect(await tarjeta.getByTestId('no-emitida').textContent()).toBe('Aún no emitida');
    expect(await tarjeta.getByTestId('pendiente-sync').textContent()).toBe('Sin enviar');
    await sinInfracciones(movil, 'lista sin conexión');

    await env.context.setOffline(false);
    await expect.poll(() => movil.getByTestId('sin-emitir').count(), { timeout: 20_000 }).toBe(0);
    await expect.poll(() => tarjeta.getByText('Emitida', { exact: true }).count(), { timeout: 20_000 }).toBe(1);
  });

  it('shows the road view in one tap from the list, with no coverage, the QR as large as the screen', async () => {
    const { env } = e2e;
    const { page: movil, api } = await e2e.sesion({ clave: true });
    // Two DeCAs issued today: the one made with no coverage, and another.
    await emitida(api);
    await emitida(api, SIN_COBERTURA);
    await movil.goto(env.url);
    const tarjeta = movil.locator('[data-clave]', { hasText: 'Sin Cobertura SL' });
    await tarjeta.getByRole('link', { name: 'Mostrar al agente' }).waitFor();
    // The documents for the road are kept on the device once issued, without opening them.
    await expect.poll(() => documentosEnDispositivo(movil), { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
    await esperarServiceWorker(movil);
    await env.context.setOffline(true);
    try {
      await tarjeta.getByRole('link', { name: 'Mostrar al agente' }).click();
      const vista = movil.getByTestId('vista-agente');
      await vista.waitFor();
      const qr = movil.getByTestId('agente-qr');
      await qr.waitFor({ timeout: 20_000 });
      await expect.poll(() => qr.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(100);
      const caja = (await qr.boundingBox())!;
      expect(caja.width).toBeGreaterThanOrEqual(360); // the phone's width, less a small margin
      expect(await movil.getByTestId('agente-estado').textContent()).toBe('EMITIDA');
      const texto = (await vista.textContent()) ?? '';
      expect(texto).toContain('4321CCC');
      expect(texto).toMatch(/\d{2}\/\d{2}\/\d{4}/);
      expect(texto).toMatch(/\d{4}-\d{6}/);
      // The screen is kept on while the QR is shown (Screen Wake Lock).
      await expect.poll(() => vista.textContent()).toContain('pantalla encendida');
      await sinInfracciones(movil, 'vista para el agente');
    } finally {
      await env.context.setOffline(false);
    }
  });

  it('records the agent’s code at a roadside check with no coverage, and has the PDF/A, the steps and the office ready', async () => {
    const { env } = e2e;
    const { page: movil, api } = await e2e.sesion({ clave: true });
    await emitida(api, SIN_COBERTURA);
    await movil.goto(env.url);
    // Kept on the device for the road once issued.
    await expect.poll(() => documentosEnDispositivo(movil), { timeout: 20_000 }).toBe(1);
    const tarjeta = movil.locator('[data-clave]', { hasText: 'Sin Cobertura SL' });
    await tarjeta.getByRole('link').first().click();
    const numero = await numeroEnCabecera(movil);
    await esperarServiceWorker(movil);
    await env.context.setOffline(true);
    try {
      await movil.getByRole('link', { name: 'Control en carretera' }).click();
      await movil.getByRole('heading', { name: /Control en carretera/ }).waitFor();
      await movil.fill('#f-codigo_control', '12-34');
      await movil.getByRole('button', { name: 'Guardar el código' }).click();
      await expect.poll(() => movil.locator('[data-campo="codigo_control"]').textContent()).toContain('solo cifras');
      await movil.fill('#f-codigo_control', '778899');
      await movil.getByRole('button', { name: 'Guardar el código' }).click();
      await expect.poll(() => movil.getByTestId('controles').textContent()).toContain('778899');
      expect(await movil.getByTestId('controles').textContent()).toContain('Sin enviar');
      expect(await movil.getByTestId('sede').getAttribute('href')).toBe('https://sede.transportes.gob.es/');
      await movil.getByTestId('pdf-control').waitFor(); // the PDF/A kept on the phone
      await sinInfracciones(movil, 'control en carretera');
    } finally {
      await env.context.setOffline(false);
    }
    type C = { cambios: { tipo: string; campos: { despues: unknown }[] }[] };
    await expect
      .poll(async () => (await api<C>('GET', `/decas/${numero}/cambios`)).cambios.filter((c) => c.tipo === 'control').map((c) => c.campos[0]?.despues), { timeout: 20_000, interval: POLL_API_MS })
      .toEqual(['778899']);
    await expect.poll(() => movil.getByTestId('controles').textContent(), { timeout: 20_000 }).toMatch(/778899 · anotado el \d{2}\/\d{2}\/\d{4}/);
  });

  it('the inspector’s page of a modified DeCA says what changed, and of an ended one that it no longer covers', async () => {
    const { env } = e2e;
    const { page: movil, api } = await e2e.sesion({ clave: true });
    const { deca } = await api<{ deca: { id: number; numero: string; urls: { ficha: string; conductor: string } } }>('POST', '/decas', {
      cargador_nombre: 'Cargas Moncayo SA',
      cargador_nif: 'A58818501',
      cargador_domicilio: 'Calle Alta 2, Tarazona',
      matricula: '5555DDD',
      fecha_transporte: hoy(),
      envios: [{ origen: 'Tarazona', destino: 'Soria', naturaleza: 'Pienso', peso: 20000 }],
    });
    await api('PATCH', `/decas/${deca.id}`, { matricula: '6666FFF', motivo: 'Avería de la tractora' });
    const inspector = await env.context.newPage();
    await inspector.goto(`${env.url}${new URL(deca.urls.ficha).pathname}`);
    const cambio = (await inspector.locator('.cambio').textContent())?.replace(/\s+/g, ' ') ?? '';
    expect(cambio).toMatch(/^MODIFICADA — versión 2, el \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/);
    expect(cambio).toContain('5555DDD → 6666FFF');
    await sinInfracciones(inspector, 'ficha pública modificada');
    await inspector.goto(`${env.url}${new URL(deca.urls.conductor).pathname}`);
    await inspector.locator('img.qr').waitFor();
    await sinInfracciones(inspector, 'página del conductor');
    await inspector.goto(`${env.url}${new URL(deca.urls.ficha).pathname}`);

    // The driver ends the service from the app: a question first (Escape keeps it running).
    await movil.goto(`${env.url}/decas/${deca.numero}`);
    await movil.getByRole('button', { name: 'Fin de servicio' }).click();
    await movil.getByRole('dialog').waitFor();
    await movil.keyboard.press('Escape');
    await expect.poll(() => movil.evaluate(() => document.activeElement?.textContent)).toBe('Fin de servicio');
    await movil.getByRole('button', { name: 'Fin de servicio' }).click();
    await movil.getByRole('button', { name: 'Marcar fin de servicio' }).click();
    await expect
      .poll(async () => (await api<{ deca: { fin_servicio_at: string | null } }>('GET', `/decas/${deca.id}`)).deca.fin_servicio_at, { timeout: 20_000, interval: POLL_API_MS })
      .not.toBeNull();
    await inspector.reload();
    const banner = (await inspector.locator('.banner').first().textContent()) ?? '';
    expect(banner).toMatch(/SERVICIO FINALIZADO el \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}: este documento ya NO ampara al vehículo/);
    await sinInfracciones(inspector, 'ficha pública finalizada');
    await inspector.close();
    await movil.getByText('Fin de servicio', { exact: true }).and(movil.locator('.insignia')).waitFor(); // a status of its own

    // The app's history shows old → new values.
    await movil.goto(`${env.url}/decas/${deca.numero}`);
    await expect.poll(async () => (await movil.locator('.cambios-campos').first().textContent()) ?? '', { timeout: 20_000 }).toContain('5555DDD → 6666FFF');
    await sinInfracciones(movil, 'detalle con historial');
  });

  it('on a desktop: counts, sorts, selects and archives in bulk, and duplicates a DeCA', async () => {
    const { env } = e2e;
    const { api } = await e2e.sesion({ clave: true });
    // Three DeCAs already issued, among them the one made with no coverage.
    await emitida(api);
    await emitida(api, SIN_COBERTURA);
    await emitida(api, { cargador_nombre: 'Cargas Moncayo SA', matricula: '6666FFF' });
    for (const [ref, matricula, conductor] of [
      ['PED-3', '7777GGG', 'Berta'],
      ['PED-1', '1111AAA', 'Carlos'],
      ['PED-2', '9999ZZZ', 'Dolores'],
    ]) {
      await api('POST', '/decas', {
        cargador_nombre: 'Escritorio SA',
        cargador_nif: 'A58818501',
        cargador_domicilio: 'Paseo 1, Huesca',
        matricula,
        fecha_transporte: hoy(),
        conductor_nombre: conductor,
        referencia: ref,
        envios: [{ origen: 'Huesca', destino: 'Jaca', naturaleza: 'Cemento', peso: 10000 }],
      });
    }
    const mesa = await env.context.newPage();
    await mesa.setViewportSize({ width: 1440, height: 900 });
    await mesa.goto(env.url);
    const filas = mesa.getByTestId('lista-decas').locator('tbody tr');
    await expect.poll(() => filas.count(), { timeout: 20_000 }).toBe(6);
    expect(await mesa.getByTestId('recuento').textContent()).toContain('6 DeCA');
    const cabeceras = (await mesa.locator('thead th').allTextContents()).map((t) => t.trim());
    expect(cabeceras).toEqual(expect.arrayContaining(['Referencia', 'Conductor', 'Cargador']));
    await sinInfracciones(mesa, 'lista (escritorio)');

    await mesa.getByRole('button', { name: 'Referencia' }).click();
    const referencias = async () => (await filas.allTextContents()).map((t) => /PED-\d/.exec(t)?.[0]).filter(Boolean);
    await expect.poll(referencias).toEqual(['PED-1', 'PED-2', 'PED-3']);
    await mesa.getByRole('button', { name: 'Referencia' }).click();
    await expect.poll(referencias).toEqual(['PED-3', 'PED-2', 'PED-1']);
    expect(await mesa.locator('th[aria-sort="descending"]').textContent()).toContain('Referencia');

    await mesa
      .getByRole('checkbox', { name: /Seleccionar .*/ })
      .first()
      .waitFor();
    for (const ref of ['PED-1', 'PED-2']) await filas.filter({ hasText: ref }).getByRole('checkbox').check();
    await mesa.getByRole('region', { name: 'Acciones con las seleccionadas' }).getByRole('button', { name: 'Archivar', exact: true }).click();
    await expect.poll(() => filas.count(), { timeout: 20_000 }).toBe(4);
    await expect.poll(async () => (await api<{ decas: unknown[] }>('GET', '/decas?archivado=true')).decas.length, { timeout: 20_000, interval: POLL_API_MS }).toBe(2);

    // The PDFs of the selected issued DeCAs, one file each, with a count of what had none.
    const descargas: string[] = [];
    mesa.on('download', (d) => descargas.push(d.suggestedFilename()));
    for (const ref of ['PED-3']) await filas.filter({ hasText: ref }).getByRole('checkbox').check();
    await filas.filter({ hasText: 'Sin Cobertura SL' }).getByRole('checkbox').check();
    await mesa.getByRole('region', { name: 'Acciones con las seleccionadas' }).getByRole('button', { name: 'Descargar PDF' }).click();
    await expect.poll(() => descargas.length, { timeout: 20_000 }).toBe(2);
    for (const n of descargas) expect(n).toMatch(/^DeCA-\d{4}-\d{6}-v\d+\.pdf$/);
    expect(await mesa.getByTestId('progreso').textContent()).toContain('2 PDF descargados.');
    await mesa.getByRole('button', { name: 'Quitar selección' }).click();

    // «Duplicar» starts a new DeCA from another one's data, with today's date.
    await filas.filter({ hasText: 'PED-3' }).getByRole('link').first().click();
    await mesa.getByRole('link', { name: 'Duplicar' }).click();
    await mesa.getByRole('heading', { name: /Nueva DeCA a partir de \d{4}-\d{6}/ }).waitFor();
    expect(await mesa.inputValue('#f-cargador_nombre')).toBe('Escritorio SA');
    expect(await mesa.inputValue('#f-matricula')).toBe('7777GGG');
    expect(await mesa.inputValue('#f-fecha_transporte')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    await sinInfracciones(mesa, 'formulario (escritorio)');
    await mesa.close();
  });

  it('revokes an API key only after a question that names it; Escape keeps it, and focus returns', async () => {
    const { env } = e2e;
    const { page: movil, api } = await e2e.sesion({ clave: 'Pruebas e2e' });
    await api('GET', '/cuenta'); // the e2e key, used
    await movil.goto(`${env.url}/cuenta`);
    await movil.getByRole('heading', { name: 'Cuenta', exact: true }).waitFor();
    await movil.fill('#f-clave_nombre', 'ERP');
    await movil.getByRole('button', { name: 'Nueva clave de pruebas' }).click();
    await movil.getByTestId('clave-nueva').waitFor();
    // The key as shown once works at once on the API of its environment.
    const nueva = (await movil.getByTestId('clave-nueva').textContent())!.trim();
    const cuenta = await fetch(`${env.url}/demo/api/v1/cuenta`, { headers: { authorization: `Bearer ${nueva}` } });
    expect(cuenta.status).toBe(200);
    expect(((await cuenta.json()) as { cuenta: { entorno: string } }).cuenta.entorno).toBe('pruebas');
    const lista = movil.getByTestId('claves');
    await expect.poll(() => lista.locator('li').count()).toBe(2);
    expect(await lista.textContent()).toContain('ERP');
    expect(await lista.textContent()).toMatch(/último uso \d{2}\/\d{2}\/\d{4}/); // the e2e key has been used
    await sinInfracciones(movil, 'cuenta');

    const erp = lista.locator('li', { hasText: 'ERP' });
    const prefijo = (await erp.getAttribute('data-prefijo'))!;
    const revocar = erp.getByRole('button', { name: /Revocar/ });
    await revocar.click();
    const dialogo = movil.getByRole('dialog');
    await dialogo.waitFor();
    expect(await dialogo.textContent()).toContain(`${prefijo}…`);
    expect(await dialogo.textContent()).toContain('pruebas');
    await sinInfracciones(movil, 'confirmación de revocación');
    await movil.keyboard.press('Escape');
    await dialogo.waitFor({ state: 'detached' });
    await expect.poll(() => revocar.evaluate((b) => b === document.activeElement)).toBe(true);
    expect(await lista.locator('li').count()).toBe(2);

    await revocar.click();
    await movil.getByRole('button', { name: `Revocar ${prefijo}…` }).click();
    await expect.poll(() => lista.locator('li').count()).toBe(1);
    expect(await lista.textContent()).toContain('Pruebas e2e'); // the other key is untouched
  });

  it('lets the administrator correct the company data, which new DeCAs then carry', async () => {
    const { env } = e2e;
    const { page: movil } = await e2e.sesion();
    await movil.goto(`${env.url}/cuenta`);
    await movil.getByRole('button', { name: 'Editar datos de la empresa' }).click();
    await movil.fill('#f-nif', 'B12345678');
    await movil.fill('#f-domicilio', 'Avenida Cataluña 10, Zaragoza');
    await movil.getByRole('button', { name: 'Guardar', exact: true }).click();
    await expect.poll(() => movil.locator('[data-campo="nif"]').textContent()).toContain('debería ser 4');
    await sinInfracciones(movil, 'datos de la empresa');
    await movil.fill('#f-nif', 'B12345674');
    await movil.getByRole('button', { name: 'Guardar', exact: true }).click();
    await movil.getByText('Datos guardados').waitFor();
    expect(await movil.locator('.datos').textContent()).toContain('Avenida Cataluña 10, Zaragoza');
    await movil.goto(`${env.url}/decas/nueva`);
    expect(await movil.inputValue('#f-transp_domicilio')).toBe('Avenida Cataluña 10, Zaragoza');
  });

  it('the users screen with an open invitation and the address book pass axe', async () => {
    const { env } = e2e;
    const { page: movil } = await e2e.sesion();
    await movil.goto(`${env.url}/usuarios`);
    await movil.fill('#f-invitar_email', 'nuevo.conductor@example.com');
    await movil.getByRole('button', { name: 'Enviar invitación' }).click();
    await movil.getByTestId('invitaciones').waitFor();
    await sinInfracciones(movil, 'usuarios');
    await movil.goto(`${env.url}/agenda`);
    await movil.getByRole('button', { name: 'Añadir a empresas' }).click();
    await movil.getByTestId('agenda-formulario').waitFor();
    await sinInfracciones(movil, 'agenda');
  });

  it('details: 44 px targets, focus on the new heading, a counter on long fields, paper without buttons, and room at 200% zoom', async () => {
    const { env } = e2e;
    const { page: movil, api } = await e2e.sesion({ clave: true });
    // Two DeCAs issued today: the one made with no coverage, and another.
    await emitida(api);
    await emitida(api, SIN_COBERTURA);
    await movil.goto(env.url);
    await movil.getByRole('heading', { name: 'Sus DeCA' }).waitFor();
    const alto = async (l: ReturnType<Page['locator']>) => (await l.boundingBox())!.height;
    expect(await alto(movil.locator('.cabecera a').first())).toBeGreaterThanOrEqual(44);
    expect(await alto(movil.locator('.filtros summary'))).toBeGreaterThanOrEqual(44);
    await movil.locator('.filtros summary').click();
    expect(await alto(movil.locator('label', { hasText: 'Ver archivadas' }))).toBeGreaterThanOrEqual(44);

    // «Hoy» and «Mi matrícula» on the phone.
    await movil.getByRole('button', { name: 'Hoy' }).click();
    await expect.poll(() => new URL(movil.url()).searchParams.get('desde')).toBe(hoy());
    await movil.getByRole('button', { name: 'Mi matrícula' }).click();
    await movil.fill('#mi-matricula', '4321 ccc');
    await movil.getByRole('button', { name: 'Ver', exact: true }).click();
    const tarjetas = movil.getByTestId('lista-decas').locator('[data-clave]');
    await expect.poll(async () => (await tarjetas.allTextContents()).length).toBe(1);
    expect(await tarjetas.first().textContent()).toContain('Sin Cobertura SL'); // the cargador is on the card
    expect(await movil.getByRole('button', { name: 'Mi matrícula (4321CCC)' }).getAttribute('aria-pressed')).toBe('true');
    await movil.getByRole('button', { name: 'Todas' }).click();
    await expect.poll(async () => (await tarjetas.allTextContents()).length).toBeGreaterThan(1);

    // After a navigation the new screen's heading has the focus.
    await movil.getByRole('link', { name: 'Cuenta' }).click();
    await expect.poll(() => movil.evaluate(() => (document.activeElement?.tagName === 'H1' ? document.activeElement.textContent : null))).toBe('Cuenta');
    for (const radio of await movil.locator('label:has(input[type=radio])').all()) expect(await alto(radio)).toBeGreaterThanOrEqual(44);
    expect(await movil.locator('.datos').first().textContent()).toContain('Plan gratuito');

    // A long field counts its characters as it nears the limit.
    await movil.goto(`${env.url}/decas/nueva`);
    await movil.getByRole('button', { name: '4. Revisión' }).click();
    await movil.fill('#f-referencia', 'R'.repeat(70));
    await expect.poll(() => movil.locator('#f-referencia-contador').textContent()).toBe('70 de 100 caracteres');

    // On paper, the detail without navigation or buttons.
    const { decas } = await api<{ decas: { numero: string; estado: string }[] }>('GET', '/decas?estado=emitido');
    await movil.goto(`${env.url}/decas/${decas[0]!.numero}`);
    await movil.getByTestId('qr').waitFor();
    const datos = (await movil.locator('.datos').textContent()) ?? '';
    expect(datos).toMatch(/Fecha\d{2}\/\d{2}\/\d{4}/);
    expect(datos).toMatch(/\(rígido\)/);
    expect(datos).toMatch(/\d{1,3}(\.\d{3})* kg/);
    await movil.emulateMedia({ media: 'print' });
    for (const sel of ['.nav', '.cabecera', '.acciones']) expect(await movil.locator(sel).first().isVisible(), sel).toBe(false);
    expect(await movil.locator('.datos').isVisible()).toBe(true);
    await movil.emulateMedia({ media: 'screen' });

    // The edit form of an issued DeCA: no «Lista para emitir», and modify vs replace in plain words.
    await movil.goto(`${env.url}/decas/${decas[0]!.numero}/editar`);
    await movil.getByRole('button', { name: '4. Revisión' }).click();
    const faltan = (await movil.getByTestId('faltan').textContent()) ?? '';
    expect(faltan).toContain('Datos completos.');
    expect(faltan).not.toContain('Lista para emitir');
    const explicacion = (await movil.locator('.explicacion').textContent()) ?? '';
    expect(explicacion).toContain('conserva el número y el QR');
    expect(explicacion).not.toMatch(/método/i);

    // A jump to a missing field (from the bottom of the one-page desktop form) leaves it clear of the sticky header.
    const mesa = await env.context.newPage();
    await mesa.setViewportSize({ width: 1440, height: 600 });
    await mesa.goto(`${env.url}/decas/nueva`);
    await mesa.mouse.wheel(0, 5_000);
    await mesa.getByTestId('faltan').getByRole('link', { name: 'Cargador · Nombre o razón social' }).click();
    await expect.poll(() => mesa.evaluate(() => document.activeElement?.id)).toBe('f-cargador_nombre');
    const cabecera = (await mesa.locator('.cabecera').boundingBox())!;
    const etiqueta = (await mesa.locator('label[for="f-cargador_nombre"]').boundingBox())!;
    expect(etiqueta.y).toBeGreaterThanOrEqual(cabecera.y + cabecera.height);
    await mesa.close();

    // 200% zoom on this phone is a 195×422 CSS viewport: what stays on screen takes under a fifth of it.
    await movil.setViewportSize({ width: 195, height: 422 });
    try {
      await movil.goto(env.url);
      await movil.getByRole('heading', { name: 'Sus DeCA' }).waitFor();
      await movil.mouse.wheel(0, 400);
      const fijo = await movil.evaluate(() =>
        ['.cabecera', '.nav']
          .map((s) => document.querySelector<HTMLElement>(s)!)
          .filter((el) => ['fixed', 'sticky'].includes(getComputedStyle(el).position))
          .reduce((t, el) => t + el.getBoundingClientRect().height, 0),
      );
      expect(fijo).toBeLessThan(422 / 5);
      await sinInfracciones(movil, 'lista al 200 %');
    } finally {
      await movil.setViewportSize({ width: 390, height: 844 });
    }
  });

  it('the sign-in screen, the other party’s completion page and an invitation’s link pass axe too', async () => {
    const { env } = e2e;
    const { page: movil, api } = await e2e.sesion({ clave: true });
    // An invitation, sent as the users screen sends it.
    const invitada = await movil.evaluate(async () => {
      const res = await fetch('/app/api/usuarios', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-DeCA-CSRF': '1' },
        body: JSON.stringify({ email: 'nuevo.conductor@example.com', rol: 'conductor' }),
      });
      return res.status;
    });
    expect(invitada).toBe(201);
    const { deca } = await api<{ deca: { urls: { completar: string } } }>('POST', '/decas', { emitir: false, matricula: '2468BCD' });
    const otra = await env.context.newPage();
    await otra.goto(`${env.url}${new URL(deca.urls.completar).pathname}`);
    await otra.locator('form').first().waitFor();
    await sinInfracciones(otra, 'completar datos');
    await otra.close();

    await movil.goto(`${env.url}/cuenta`);
    await movil.getByRole('button', { name: 'Cerrar sesión' }).click();
    await movil.getByRole('heading', { name: 'Entrar' }).waitFor();
    await sinInfracciones(movil, 'entrar');

    // Signed out, the link of the invitation sent at the start.
    await movil.goto(env.url + (await enlaceDelCorreo(env, 'nuevo.conductor@example.com', /^\/invitacion\//)));
    await movil.getByRole('heading', { name: /Únase a/ }).waitFor();
    await sinInfracciones(movil, 'invitación');
  });

  it('signing in keeps the user where they are: on a DeCA linked while signed out, or opened while the sign-in is still finishing', async () => {
    const { env } = e2e;
    const cuenta = await cuentaNueva(env, { clave: true });
    const api = e2e.api(cuenta);
    await emitida(api);
    const { decas } = await api<{ decas: { numero: string; archivado: boolean }[] }>('GET', '/decas?estado=emitido');
    const numero = decas.find((d) => !d.archivado)!.numero; // in the list as it opens
    const navegador = await chromium.launch({ executablePath: CHROMIUM!, args: CHROMIUM_ARGS });
    onTestFinished(() => navegador.close());
    const cabecera = (p: Page) => p.locator('h1', { hasText: `DeCA ${numero}` });
    const CHUNK_DEL_DISPOSITIVO = /\/assets\/dispositivo-[\w-]+\.js$/;

    /**
     * A browser new to the app whose sign-in cannot finish until the test says so: its last step
     * (this device's record of its key) needs a chunk held back here. No service worker, so that
     * the chunk comes from the network, where the test holds it.
     */
    async function entrarRetenido(ruta: string, mientras: (p: Page) => Promise<void>): Promise<Page> {
      const ctx = await navegador.newContext({ serviceWorkers: 'block', locale: 'es-ES', timezoneId: 'Europe/Madrid', viewport: { width: 1280, height: 900 } });
      let soltar!: () => void;
      const suelto = new Promise<void>((r) => (soltar = r));
      await ctx.route(CHUNK_DEL_DISPOSITIVO, async (r) => {
        await suelto;
        await r.continue();
      });
      const p = await ctx.newPage();
      await p.goto(env.url + ruta);
      await p.fill('#f-email', cuenta.email);
      await p.fill('#f-password', cuenta.password);
      await p.getByRole('button', { name: 'Entrar' }).click();
      await mientras(p);
      const servido = p.waitForResponse(CHUNK_DEL_DISPOSITIVO);
      soltar();
      await servido;
      // What followed the chunk was one IndexedDB read: a second is ample for it to have moved the page.
      await p.waitForTimeout(1_000);
      return p;
    }

    // A DeCA's link, opened signed out: after signing in, that DeCA.
    const enlazada = await entrarRetenido(`/decas/${numero}`, (p) => cabecera(p).waitFor({ timeout: 20_000 }));
    expect(new URL(enlazada.url()).pathname).toBe(`/decas/${numero}`);
    expect(await cabecera(enlazada).isVisible()).toBe(true);

    // Signed in from the list, a DeCA opened before the sign-in has finished stays open.
    const abierta = await entrarRetenido('/', async (p) => {
      const fila = p.getByTestId('lista-decas').locator('[data-clave]', { hasText: numero });
      await seguirEnlace(p, fila.getByRole('link', { name: numero }), cabecera(p));
    });
    expect(new URL(abierta.url()).pathname).toBe(`/decas/${numero}`);
    expect(await cabecera(abierta).isVisible()).toBe(true);
  });
});
