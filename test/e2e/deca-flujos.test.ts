import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { fotografiar } from '../fixtures/albaranes';
import { herramienta } from '../support/herramientas';
import { runCli } from '../support/processes';
import { CHROMIUM, entrar, esperarServiceWorker, POLL_API_MS } from './browser';
import { archivoE2e, decaCompleta, esperarNumero, numerosEnServidor, rellenarDeca } from './flujos';

/** The delivery-note photos kept on the device (the signed-in user's production database). */
function fotosEnDispositivo(p: Page): Promise<{ estado: string; lado: number; tipo: string; clave: string }[]> {
  return p.evaluate(async () => {
    const nombre = (await indexedDB.databases()).find((d) => d.name?.endsWith('-produccion'))!.name!;
    const db = await new Promise<IDBDatabase>((ok, mal) => {
      const r = indexedDB.open(nombre);
      r.onsuccess = () => ok(r.result);
      r.onerror = () => mal(r.error);
    });
    const fotos = await new Promise<{ foto: Blob; idempotencyKey: string; estado: string }[]>((ok) => {
      const r = db.transaction('fotos').objectStore('fotos').getAll();
      r.onsuccess = () => ok(r.result as { foto: Blob; idempotencyKey: string; estado: string }[]);
    });
    db.close();
    return Promise.all(
      fotos.map(async (f) => {
        const bmp = await createImageBitmap(f.foto);
        return { estado: f.estado, lado: Math.max(bmp.width, bmp.height), tipo: f.foto.type, clave: f.idempotencyKey };
      }),
    );
  });
}

/**
 * A DeCA's life after it is issued, and the ways of filling one: the test
 * environment, the phone's steps, the address book (offline too), a CSV
 * import, a delivery-note photo, and the company data a refusal asks for.
 */
describe.skipIf(!CHROMIUM)('DeCA flows: changes, environments, address book, import, photos', () => {
  const e2e = archivoE2e({ politicas: true });

  it('modifies (method 1), replaces (method 2), ends the service, archives and deletes', async () => {
    type D = { deca: { version: number; matricula: string; estado: string; fin_servicio_at: string | null; archivado: boolean; sustituido_por: { numero: string } | null } };
    const { env } = e2e;
    const { page, cuenta, api } = await e2e.sesion({ clave: true });
    // The DeCA this flow changes, issued from the app.
    await rellenarDeca(page, { cargador: 'Frutas del Sur SA', matricula: '1234 BCD', origen: 'Almería', destino: 'Zaragoza' });
    await page.getByRole('button', { name: 'Emitir ahora' }).click();
    const primera = await esperarNumero(page);

    await page.goto(`${env.url}/decas/${primera}`);
    await page.getByRole('link', { name: 'Modificar' }).click();
    await page.fill('#f-matricula', '9999LLL');
    await page.getByRole('button', { name: 'Guardar nueva versión' }).click();
    await page.locator('#f-motivo[aria-invalid="true"]').waitFor(); // the reason is required
    await page.fill('#f-motivo', 'Cambio de tractora');
    await page.getByRole('button', { name: 'Guardar nueva versión' }).click();
    await page.getByRole('heading', { name: /versión 2/ }).waitFor({ timeout: 20_000 });
    expect((await api<D>('GET', `/decas/${primera}`)).deca).toMatchObject({ version: 2, matricula: '9999LLL' });

    await page.getByRole('link', { name: 'Sustituir' }).click();
    await page.fill('#f-envios_0__destino', 'Huesca');
    await page.fill('#f-motivo', 'Cambio de destino');
    await page.getByRole('button', { name: 'Sustituir' }).click();
    const nueva = await esperarNumero(page);
    // The replacement takes this phone's next number: the series has no jump.
    expect(nueva).toBe(`${primera.slice(0, 5)}${String(Number(primera.slice(5)) + 1).padStart(6, '0')}`);
    expect((await api<D>('GET', `/decas/${primera}`)).deca).toMatchObject({ estado: 'sustituido', sustituido_por: { numero: nueva } });

    await page.getByRole('button', { name: 'Fin de servicio' }).click();
    await page.getByRole('button', { name: 'Marcar fin de servicio' }).click();
    await expect.poll(async () => (await api<D>('GET', `/decas/${nueva}`)).deca.fin_servicio_at, { timeout: 20_000, interval: POLL_API_MS }).not.toBeNull();
    await page.getByRole('button', { name: 'Archivar' }).click();
    await expect.poll(async () => (await api<D>('GET', `/decas/${nueva}`)).deca.archivado, { timeout: 20_000, interval: POLL_API_MS }).toBe(true);
    await page.getByRole('button', { name: 'Desarchivar' }).click();
    await expect.poll(async () => (await api<D>('GET', `/decas/${nueva}`)).deca.archivado, { timeout: 20_000, interval: POLL_API_MS }).toBe(false);

    const pendiente = (await api<{ deca: { numero: string } }>('POST', '/decas', { emitir: false, referencia: 'borrar' })).deca.numero;
    await page.goto(`${env.url}/decas/${pendiente}`);
    await page.getByRole('button', { name: 'Eliminar' }).click();
    await page.getByRole('button', { name: 'Eliminar la DeCA' }).click();
    await page.getByRole('heading', { name: 'Sus DeCA' }).waitFor();
    await expect
      .poll(async () => (await fetch(`${env.url}/api/v1/decas/${pendiente}`, { headers: { Authorization: `Bearer ${cuenta.clave}` } })).status, { timeout: 20_000, interval: POLL_API_MS })
      .toBe(404);
  });

  it('switches to the test environment with a banner, and keeps its data apart', async () => {
    const { env } = e2e;
    const { page, api } = await e2e.sesion({ clave: true });
    // A production DeCA, which the test environment must not show.
    await api('POST', '/decas', decaCompleta());
    const produccion = await numerosEnServidor(api);
    expect(produccion).toHaveLength(1);
    await page.goto(`${env.url}/cuenta`);
    await page.getByLabel('Pruebas: datos sin validez, separados de los reales').click();
    await page.getByTestId('banda-pruebas').waitFor();
    // The choice survives a reload: the app never falls back to production unseen.
    await page.reload();
    await page.getByTestId('banda-pruebas').waitFor();
    await page.click('a[href="/"]');
    await page.getByText('No hay DeCA').waitFor();
    await rellenarDeca(page, { cargador: 'Demo SL', matricula: '5555GGG', origen: 'Ávila', destino: 'Segovia' });
    await page.getByRole('button', { name: 'Emitir ahora' }).click();
    const demo = await esperarNumero(page);
    const demoApi = await page.evaluate(async () => ((await (await fetch('/demo/api/v1/decas')).json()) as { decas: { numero: string }[] }).decas.map((d) => d.numero));
    expect(demoApi).toEqual([demo]);
    expect(await numerosEnServidor(api)).toEqual(produccion);
    await page.getByRole('button', { name: 'Volver a producción' }).click();
    await expect.poll(() => page.getByTestId('banda-pruebas').count()).toBe(0);
    await page.getByRole('heading', { name: 'Sus DeCA' }).waitFor();
    await expect.poll(() => page.getByTestId('lista-decas').locator('[data-clave]').count()).toBe(produccion.length);
  });

  it('creates step by step on a phone, with the bottom navigation', async () => {
    const { env } = e2e;
    const { page } = await e2e.sesion();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${env.url}/decas/nueva`);
    const nav = page.getByRole('navigation', { name: 'Principal' });
    const caja = (await nav.boundingBox())!;
    expect(caja.y + caja.height).toBeGreaterThan(800); // at the bottom, under the thumb
    await page.getByRole('list', { name: 'Pasos' }).waitFor();
    await page.fill('#f-cargador_nombre', 'Móvil SL');
    await page.fill('#f-cargador_nif', 'B12345674');
    await page.fill('#f-cargador_domicilio', 'Calle Sol 2, Sevilla');
    expect(await page.locator('#f-matricula').count()).toBe(0); // one step at a time
    await page.getByRole('button', { name: 'Siguiente: Vehículo' }).click();
    await page.fill('#f-matricula', '6666HHH');
    await page.getByRole('button', { name: 'Siguiente: Envíos' }).click();
    await page.fill('#f-envios_0__origen', 'Sevilla');
    await page.fill('#f-envios_0__destino', 'Cádiz');
    await page.fill('#f-envios_0__naturaleza', 'Aceite');
    await page.fill('#f-envios_0__peso', '12 t');
    await page.getByRole('button', { name: 'Siguiente: Revisión' }).click();
    await page.getByText('Lista para emitir.').waitFor();
    await page.getByRole('button', { name: 'Emitir ahora' }).click();
    await esperarNumero(page);
    await page.getByTestId('qr').waitFor();
  });

  it('suggests and fills parties and vehicles from the address book with no network', async () => {
    const { env } = e2e;
    const { page, api } = await e2e.sesion({ clave: true });
    await api('POST', '/agenda/empresas', { nombre: 'Agenda Sin Red, S.L.', nif: 'A58818501', domicilio: 'Camí Vell 3, 25001 Lleida' });
    await api('POST', '/agenda/vehiculos', { matricula: '4321 DFG', matricula_remolque: 'R-5678-BBC', conductor_nombre: 'Lucía Fernández', conductor_tel: '600 111 222' });
    // A reopened app refreshes its copy of the address book at the first idle moment.
    await page.goto(`${env.url}/decas/nueva`);
    await expect.poll(() => page.locator('#agenda-nombres option[value="Agenda Sin Red, S.L."]').count(), { timeout: 20_000 }).toBe(1);
    await expect.poll(() => page.locator('#agenda-matriculas option[value="4321DFG"]').count()).toBe(1);

    await esperarServiceWorker(page);
    await env.context.setOffline(true);
    await page.reload();
    await page.getByRole('heading', { name: 'Nueva DeCA' }).waitFor();
    expect(await page.locator('#f-cargador_nombre').getAttribute('list')).toBe('agenda-nombres');
    await expect.poll(() => page.locator('#agenda-nombres option[value="Agenda Sin Red, S.L."]').count()).toBe(1);
    // Picking the company by name fills its NIF and address; picking the plate fills the trailer and the driver.
    await page.fill('#f-cargador_nombre', 'Agenda Sin Red, S.L.');
    expect(await page.inputValue('#f-cargador_nif')).toBe('A58818501');
    expect(await page.inputValue('#f-cargador_domicilio')).toBe('Camí Vell 3, 25001 Lleida');
    await page.fill('#f-matricula', '4321DFG');
    expect(await page.inputValue('#f-matricula_remolque')).toBe('R5678BBC');
    expect(await page.inputValue('#f-conductor_nombre')).toBe('Lucía Fernández');
    // What the user typed is never overwritten.
    await page.fill('#f-transp_domicilio', 'Otra dirección 1');
    await page.fill('#f-transp_nif', '');
    await page.fill('#f-transp_nif', 'A58818501');
    expect(await page.inputValue('#f-transp_domicilio')).toBe('Otra dirección 1');
  });

  it('searches the address book, and adds and edits entries with no network; they reach the server when it returns', async () => {
    const { env } = e2e;
    const { page, api } = await e2e.sesion({ clave: true });
    // The account's address book: a company and a vehicle with its trailer and driver.
    await api('POST', '/agenda/empresas', { nombre: 'Agenda Sin Red, S.L.', nif: 'A58818501', domicilio: 'Camí Vell 3, 25001 Lleida' });
    await api('POST', '/agenda/vehiculos', { matricula: '4321 DFG', matricula_remolque: 'R-5678-BBC', conductor_nombre: 'Lucía Fernández', conductor_tel: '600 111 222' });
    await page.goto(`${env.url}/agenda`);
    await page.getByRole('heading', { name: 'Agenda' }).waitFor();
    await page.getByTestId('agenda').locator('[data-clave="A58818501"]').waitFor();
    // The vehicles' copy too, before the network goes: it is fetched apart from the companies'.
    await page.getByRole('button', { name: 'Vehículos' }).click();
    await page.getByTestId('agenda').locator('[data-clave="4321DFG"]').waitFor();
    await page.getByRole('button', { name: 'Empresas' }).click();
    await page.getByTestId('agenda').locator('[data-clave="A58818501"]').waitFor();
    await esperarServiceWorker(page);
    await env.context.setOffline(true);

    // Search: any part, no accents or case.
    await page.fill('#f-agenda_q', 'cami vell');
    await expect.poll(() => page.getByTestId('agenda').locator('li').count()).toBe(1);
    await page.fill('#f-agenda_q', '');

    // Added offline: refused first on a wrong NIF, as the server would; then saved on the device, pending.
    await page.getByRole('button', { name: 'Añadir a empresas' }).click();
    await page.fill('#f-agenda_nif', 'B1234567X');
    await page.fill('#f-agenda_nombre', 'Almacenes del Cierzo SL');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.locator('#f-agenda_nif[aria-invalid="true"]').waitFor();
    await page.fill('#f-agenda_nif', 'B12345674');
    await page.fill('#f-agenda_domicilio', 'Calle del Viento 1, Zaragoza');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.getByText('«Almacenes del Cierzo SL» guardado en este dispositivo').waitFor();
    const nueva = page.getByTestId('agenda').locator('[data-clave="B12345674"]');
    expect(await nueva.textContent()).toContain('pendiente de enviar');
    // Edited offline: the plate could change too (the server has the entry); only the driver does here.
    await page.getByRole('button', { name: 'Vehículos' }).click();
    await page.getByRole('button', { name: 'Editar 4321DFG' }).click();
    expect(await page.getAttribute('#f-agenda_matricula', 'readonly')).toBeNull();
    await page.fill('#f-agenda_conductor_nombre', 'Marta Ruiz');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.getByTestId('agenda').locator('[data-clave="4321DFG"]', { hasText: 'Marta Ruiz' }).waitFor();
    // The form suggests the new company at once, still offline.
    await page.goto(`${env.url}/decas/nueva`);
    await expect.poll(() => page.locator('#agenda-nombres option[value="Almacenes del Cierzo SL"]').count()).toBe(1);

    await env.context.setOffline(false);
    await expect
      .poll(async () => (await api<{ entradas: { nombre: string }[] }>('GET', '/agenda/empresas?q=cierzo')).entradas.map((e) => e.nombre), { timeout: 20_000, interval: POLL_API_MS })
      .toEqual(['Almacenes del Cierzo SL']);
    // Each entry goes in its own lane: the vehicle's edit may arrive after the company.
    const vehiculo = async () => (await api<{ entradas: { conductor_nombre: string | null; matricula_remolque: string | null }[] }>('GET', '/agenda/vehiculos?q=4321')).entradas[0];
    await expect.poll(vehiculo, { timeout: 20_000, interval: POLL_API_MS }).toMatchObject({ conductor_nombre: 'Marta Ruiz', matricula_remolque: 'R5678BBC' });
    await page.goto(`${env.url}/agenda`);
    await expect.poll(async () => (await page.getByTestId('agenda').locator('[data-clave="B12345674"]').textContent()) ?? '', { timeout: 20_000 }).not.toContain('pendiente');
  });

  it('imports a CSV: checks it first and shows an error at its line, then imports the fixed file with progress', async () => {
    const { env } = e2e;
    const { page, api } = await e2e.sesion({ clave: true });
    const cabecera =
      'ref_externa;referencia;fecha_transporte;cargador;cargador_nif;cargador_domicilio;transportista;transportista_nif;origen;destino;mercancia;peso;unidad;tipo_vehiculo;matricula;remolque;autorizacion_especial;conductor;conductor_tel;observaciones';
    const fila = (ref: string, fecha: string) => `${ref};;${fecha};Importadora Sur, S.A.;A58818501;Calle Real 1, Sevilla;;;Sevilla;Huelva;Fresas;12.000;kg;;9999 KLM;;;;;`;
    const archivo = (lineas: string[]) => ({ name: 'decas.csv', mimeType: 'text/csv', buffer: Buffer.from([cabecera, ...lineas].join('\r\n'), 'utf8') });
    await page.goto(`${env.url}/importar`);
    await page.getByRole('heading', { name: 'Importar DeCA desde un CSV' }).waitFor();
    const plantilla = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Descargar la plantilla' }).click()]);
    expect(readFileSync((await plantilla[0].path())!, 'utf8').split('\r\n')[0]).toBe(`\ufeff${cabecera}`);

    await page.setInputFiles('input[type=file]', archivo([fila('IMP-E2E-1', '24/11/2026'), fila('IMP-E2E-2', '31/02/2026')]));
    await page.getByTestId('resumen-importacion').filter({ hasText: '1 de 2 DeCA correctas, 1 con errores' }).waitFor();
    // The date as the file may write it, named once.
    const errores = (await page.getByTestId('resultado-importacion').textContent())!;
    expect(errores).toMatch(/Línea 3, columna «fecha_transporte»: Fecha no válida: use dd\/mm\/aaaa .* o aaaa-mm-dd/);
    expect(errores.match(/columna «fecha_transporte»/g)).toHaveLength(1);
    // Only the correct DeCA may be imported, and the button says so.
    expect(await page.getByRole('button', { name: /^Importar/ }).allTextContents()).toEqual(['Importar solo las correctas (1)']);
    expect((await api<{ decas: unknown[] }>('GET', '/decas?ref_externa=IMP-E2E-1')).decas).toEqual([]);

    // The fixed file, 45 DeCAs: sent in parts of 20 whole DeCAs; the network drops the second part once.
    const refs = Array.from({ length: 45 }, (_, i) => `IMP-E2E-${i + 1}`);
    const partes: string[] = [];
    let cortada = false;
    await page.route('**/api/v1/importar', async (route) => {
      partes.push(route.request().url());
      if (!route.request().url().includes('validar') && partes.filter((u) => !u.includes('validar')).length === 2 && !cortada) {
        cortada = true;
        return route.abort('internetdisconnected');
      }
      return route.continue();
    });
    await page.setInputFiles('input[type=file]', archivo(refs.map((r) => fila(r, '25/11/2026'))));
    await page.getByRole('button', { name: 'Importar 45 DeCA' }).click();
    await page.getByTestId('resumen-importacion').filter({ hasText: '45 creadas, 0 ya importadas antes, 0 con errores.' }).waitFor({ timeout: 60_000 });
    expect(partes.filter((u) => !u.includes('validar')).length).toBe(4); // 3 parts, one sent twice
    // Lines are the file's, not the part's: the last DeCA is on line 46.
    expect(await page.getByTestId('resultado-importacion').locator('tbody tr').last().locator('td').first().textContent()).toBe('46');
    for (const ref of ['IMP-E2E-1', 'IMP-E2E-21', 'IMP-E2E-45']) {
      expect((await api<{ decas: { estado: string }[] }>('GET', `/decas?ref_externa=${ref}`)).decas.map((d) => d.estado)).toEqual(['emitido']);
    }
  });

  it('reads a delivery note photographed with no coverage once the network returns, and its proposal becomes an issued DeCA', async () => {
    const { env } = e2e;
    const { page, api } = await e2e.sesion({ clave: true });
    const nota = await fotografiar(
      herramienta('pdftoppm')!,
      [
        'ALBARÁN DE ENTREGA Nº 815',
        'Fecha: 25/11/2026',
        'Remitente:',
        'Frutas Peñalara, S.A.',
        'NIF: A58818501',
        'Camí Vell 3, 25001 Lleida',
        'Lugar de carga: Lleida',
        'Lugar de descarga: Mercamálaga, Málaga',
        'Matrícula: 1234 BCD',
        'Mercancía: Piñones',
        'Peso bruto: 18.250 kg',
      ],
      { grados: 1.5, cizalla: 0.01, desenfoque: 0.5, ruido: 10, luz: 0.2, calidad: 60, perspectiva: 0.02 },
    );
    // As a phone's camera takes it: larger than the server needs.
    const foto = await sharp(nota).resize({ height: 2600 }).jpeg({ quality: 80 }).toBuffer();
    await page.goto(`${env.url}/fotos`);
    await page.getByRole('heading', { name: 'Leer un albarán' }).waitFor();
    await page.getByTestId('cuota-fotos').waitFor();
    expect(await page.getByLabel('Fotografiar albarán').getAttribute('capture')).toBe('environment');
    await esperarServiceWorker(page);
    await env.context.setOffline(true);
    await page.setInputFiles('input[type=file]', { name: 'albaran.jpg', mimeType: 'image/jpeg', buffer: foto });
    await page.getByText('se leerá cuando haya conexión.').waitFor();
    // Kept on the device, shrunk by the worker to 1800 px, with its Idempotency-Key.
    const guardada = await fotosEnDispositivo(page);
    expect(guardada).toEqual([{ estado: 'pendiente', lado: 1800, tipo: 'image/jpeg', clave: expect.stringMatching(/^foto-/) }]);
    await page.goto(env.url);
    // The network comes back while the server is restarting (a deploy): the first try gets no answer,
    // and nothing else happens in the app, yet the photo is read once the server is back.
    await env.reiniciarServidor(async () => {
      await env.context.setOffline(false);
      await new Promise((r) => setTimeout(r, 3_000));
      expect((await fotosEnDispositivo(page)).map((f) => f.estado)).toEqual(['pendiente']);
    });
    await page.getByTestId('propuesta-lista').waitFor({ timeout: 60_000 });
    await page.getByTestId('propuesta-lista').getByRole('link', { name: 'Revisarla' }).click();
    await page.getByRole('button', { name: 'Revisar y crear la DeCA' }).click();
    await page.getByRole('heading', { name: 'Nueva DeCA' }).waitFor();
    expect(await page.inputValue('#f-cargador_nif')).toBe('A58818501');
    expect(await page.inputValue('#f-cargador_nombre')).toBe('Frutas Peñalara, S.A.');
    expect(await page.inputValue('#f-fecha_transporte')).toBe('2026-11-25');
    expect(await page.inputValue('#f-matricula')).toBe('1234BCD');
    expect(await page.inputValue('#f-envios_0__destino')).toBe('Mercamálaga, Málaga');
    expect(await page.inputValue('#f-envios_0__peso')).toBe('18250');
    // The account's own side comes from the account, not from the photo: nothing there to check.
    expect(await page.locator('[data-aviso^="transp_"]').count()).toBe(0);
    await page.getByText('Lista para emitir.').waitFor();
    await page.getByRole('button', { name: 'Emitir ahora' }).click();
    const numero = await esperarNumero(page);
    const deca = await api<{ deca: { cargador_nif: string; envios: { peso: number }[] } }>('GET', `/decas/${numero}`);
    expect(deca.deca).toMatchObject({ cargador_nif: 'A58818501', envios: [expect.objectContaining({ peso: 18250 })] });
    // The photo's proposal is used up: no longer offered.
    await page.goto(`${env.url}/fotos`);
    await page.getByRole('heading', { name: 'Leer un albarán' }).waitFor();
    expect(await page.getByTestId('fotos').count()).toBe(0);
  });

  it('a refusal for missing company data links to the company form; completed there, the same change goes through', async () => {
    const { env } = e2e;
    // An account opened by the operator without an address (the sign-up asks for one).
    const cuenta = { email: 'sin-domicilio@example.com', password: 'una-clave-larga-3' };
    env.recordar(cuenta.password);
    const cli = await runCli(['account:create', '--company', 'Sin Domicilio SL', '--nif', 'A58818501', '--email', cuenta.email, '--password', cuenta.password], { DATA_DIR: env.dataDir });
    expect(cli.code, cli.stderr).toBe(0);
    const page = await env.context.newPage();
    await entrar(env, page, cuenta);

    // The form says what is missing to issue (its own address); pending, it can wait.
    await page.click('a[href="/decas/nueva"]');
    for (const [campo, valor] of <const>[
      ['#f-cargador_nombre', 'Cargas del Valle SL'],
      ['#f-cargador_nif', 'B12345674'],
      ['#f-cargador_domicilio', 'Rúa do Porto 2, Ourense'],
      ['#f-matricula', '6666HHH'],
      ['#f-envios_0__origen', 'Lugo'],
      ['#f-envios_0__destino', 'Ourense'],
      ['#f-envios_0__naturaleza', 'Castañas'],
      ['#f-envios_0__peso', '12.000'],
    ]) {
      await page.fill(campo, valor);
    }
    expect(await page.getByTestId('faltan').textContent()).toMatch(/domicilio/i);
    await page.getByRole('button', { name: 'Dejar pendiente' }).click();
    await esperarNumero(page);
    await page.getByRole('button', { name: 'Emitir', exact: true }).click();
    const rechazo = page.getByTestId('rechazo');
    await rechazo.waitFor({ timeout: 20_000 });
    expect(await rechazo.textContent()).toContain('no tiene domicilio');
    await rechazo.getByTestId('completar-empresa').click();
    await page.fill('#f-domicilio', 'Rúa Nova 5, 27001 Lugo');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.getByText('Rúa Nova 5, 27001 Lugo').first().waitFor();
    await page.goBack();
    await page.getByTestId('rechazo').getByRole('button', { name: 'Reintentar' }).click();
    await page.locator('.insignia.emitido').waitFor({ timeout: 20_000 });
    await expect.poll(() => page.getByTestId('rechazo').count()).toBe(0);
  });
});
