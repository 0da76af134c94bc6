// Screenshots of the PWA for the README: phone (390×844) and desktop (1280×800),
// with a fresh account and a few DeCAs on the real server. Run: npx tsx scripts/screenshots.ts
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { arrancar, CHROMIUM, CHROMIUM_ARGS, enlaceDelCorreo, esperarServiceWorker, leerQr, reservasEnDispositivo } from '../test/e2e/browser';
import { buildIfStale } from '../test/e2e/global-setup';
import { fotografiar } from '../test/fixtures/albaranes';
import { herramienta } from '../test/support/herramientas';
import { ROOT } from '../test/support/processes';

/** A new DeCA on the phone's form, one step at a time, up to its one shipment's weight (the review is the caller's). */
async function rellenarEnMovil(
  p: Page,
  d: { cargador: string; nif: string; domicilio: string; matricula: string; origen: string; destino: string; naturaleza: string; peso: string; unidad?: string },
): Promise<void> {
  await p.goto(`${env.url}/decas/nueva`);
  await p.fill('#f-cargador_nombre', d.cargador);
  await p.fill('#f-cargador_nif', d.nif);
  await p.fill('#f-cargador_domicilio', d.domicilio);
  await p.getByRole('button', { name: 'Siguiente: Vehículo' }).click();
  await p.fill('#f-matricula', d.matricula);
  await p.getByRole('button', { name: 'Siguiente: Envíos' }).click();
  await p.fill('#f-envios_0__origen', d.origen);
  await p.fill('#f-envios_0__destino', d.destino);
  await p.fill('#f-envios_0__naturaleza', d.naturaleza);
  if (d.unidad) await p.selectOption('#f-envios_0__unidad', d.unidad);
  await p.fill('#f-envios_0__peso', d.peso);
}

buildIfStale();
const env = await arrancar({ width: 390, height: 844 });
const docs = path.join(ROOT, 'docs');
try {
  const page = await env.context.newPage();
  await page.goto(`${env.url}/registro`);
  await page.fill('#f-nombre', 'Transportes Ebro SL');
  await page.fill('#f-nif', 'B12345674');
  await page.fill('#f-domicilio', 'Polígono Malpica, calle E 12, 50016 Zaragoza');
  await page.fill('#f-email', 'trafico@transportes-ebro.example');
  await page.fill('#f-password', 'una-clave-muy-larga');
  await page.getByRole('button', { name: 'Crear cuenta' }).click();
  await page.getByRole('heading', { name: 'Sus DeCA' }).waitFor();
  const hoy = new Date().toISOString().slice(0, 10);
  const crear = (body: object) =>
    page.evaluate(async (b) => {
      const r = await fetch('/api/v1/decas', { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-DeCA-CSRF': '1' }, body: JSON.stringify(b) });
      return ((await r.json()) as { deca: { numero: string } }).deca.numero;
    }, body);
  const base = { fecha_transporte: hoy, cargador_domicilio: 'Av. de la Huerta 4, 04700 El Ejido (Almería)', cargador_nif: 'A58818501' };
  await crear({
    ...base,
    cargador_nombre: 'Hortofrutícola del Poniente SA',
    matricula: '4821 KLM',
    matricula_remolque: 'R-1234-BCD',
    conductor_nombre: 'Lucía Martín',
    envios: [{ origen: 'El Ejido (Almería)', destino: 'Mercazaragoza', naturaleza: 'Pimiento en palés', peso: '21.400' }],
  });
  await crear({
    ...base,
    cargador_nombre: 'Cementos del Moncayo SL',
    cargador_domicilio: 'Ctra. N-122 km 74, Tarazona',
    matricula: '9087 GHJ',
    emitir: false,
    envios: [{ origen: 'Tarazona', destino: 'Logroño', naturaleza: 'Cemento a granel', peso: '25 t' }],
  });
  const numero = await crear({
    ...base,
    cargador_nombre: 'Papelera del Ebro SA',
    cargador_domicilio: 'Camino del Vado 3, Zaragoza',
    matricula: '3345 LBC',
    conductor_nombre: 'Andrés Gil',
    envios: [
      { origen: 'Zaragoza', destino: 'Pamplona', naturaleza: 'Bobinas de papel', peso: '18.250' },
      { origen: 'Pamplona', destino: 'Vitoria', naturaleza: 'Palés vacíos', peso: '30', unidad: 'palets' },
    ],
  });

  // A method-1 change, so the history shows old → new values.
  await page.evaluate(async (n) => {
    await fetch(`/api/v1/decas/${n}`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/json', 'X-DeCA-CSRF': '1' },
      body: JSON.stringify({ matricula: '3345 LBD', motivo: 'Cambio de tractora por avería' }),
    });
  }, numero);

  await page.goto(env.url);
  await page.getByTestId('lista-decas').locator('[data-clave]').nth(2).waitFor();
  await page.screenshot({ path: path.join(docs, 'movil-lista.png') });
  // Night in a cab: the same list in the dark scheme the phone asks for («Cuenta» can choose it too).
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: path.join(docs, 'img', 'oscuro.png') });
  await page.emulateMedia({ colorScheme: null });
  await page.goto(`${env.url}/decas/${numero}`);
  await page.getByTestId('qr').waitFor();
  await page.screenshot({ path: path.join(docs, 'movil-deca.png') });
  await page.goto(`${env.url}/decas/${numero}/agente`);
  await page.getByTestId('agente-qr').waitFor();
  await page.screenshot({ path: path.join(docs, 'movil-agente.png') });

  // Warnings where the driver types, and the question before issuing.
  await rellenarEnMovil(page, {
    cargador: 'Frutas Cinca SL',
    nif: 'B12345678',
    domicilio: 'Calle Mayor 8, Fraga',
    matricula: '5566 KLM',
    origen: 'Fraga',
    destino: 'Lleida',
    naturaleza: 'Melocotón',
    unidad: 't',
    peso: '23.800',
  });
  await page.locator('[data-aviso="envios[0].peso"]').waitFor();
  await page.screenshot({ path: path.join(docs, 'movil-aviso-peso.png') });
  await page.getByRole('button', { name: 'Siguiente: Revisión' }).click();
  await page.getByRole('button', { name: 'Emitir ahora' }).click();
  await page.getByRole('dialog').waitFor();
  await page.screenshot({ path: path.join(docs, 'movil-confirmar-avisos.png') });
  await page.keyboard.press('Escape');

  // Issued with no coverage: nothing may suggest the truck is covered yet.
  await env.context.setOffline(true);
  await page.fill('#f-cargador_nif', 'B12345674');
  await page.getByRole('button', { name: '3. Envíos' }).click();
  await page.selectOption('#f-envios_0__unidad', 'kg');
  await page.getByRole('button', { name: '4. Revisión' }).click();
  await page.getByRole('button', { name: 'Emitir ahora' }).click();
  await page.getByTestId('sin-emitir').waitFor();
  await page.screenshot({ path: path.join(docs, 'movil-sin-emitir.png') });
  await env.context.setOffline(false);
  await page.getByTestId('sin-emitir').waitFor({ state: 'detached', timeout: 20_000 });

  // Once the e-mail is confirmed the phone holds reserved numbers: with no coverage it issues a real
  // DeCA with a signed QR, and an inspector's phone with coverage verifies it before the sync.
  const correo = await env.context.newPage();
  await correo.goto(env.url + (await enlaceDelCorreo(env, 'trafico@transportes-ebro.example', /^\/confirmar\//)));
  await correo.getByRole('button', { name: 'Confirmar el correo' }).click();
  await correo.getByRole('heading', { name: 'Correo confirmado' }).waitFor();
  await correo.close();
  await page.goto(env.url);
  await esperarServiceWorker(page);
  for (let intento = 0; (await reservasEnDispositivo(page)) < 3; intento++) {
    if (intento === 30) throw new Error('el dispositivo no ha recibido números reservados');
    await page.evaluate(() => dispatchEvent(new Event('focus')));
    await page.waitForTimeout(1_000);
  }
  await rellenarEnMovil(page, {
    cargador: 'Quesos del Valle de Benasque SL',
    nif: 'B22156780',
    domicilio: 'Calle San Pedro 2, 22440 Benasque (Huesca)',
    matricula: '6120 LKP',
    origen: 'Benasque (Huesca)',
    destino: 'Mercazaragoza',
    naturaleza: 'Quesos en cajas refrigeradas',
    peso: '6.300',
  });
  await page.getByRole('button', { name: 'Siguiente: Revisión' }).click();
  await env.context.setOffline(true);
  await page.getByRole('button', { name: 'Emitir ahora' }).click();
  await page.getByTestId('emitida-sin-cobertura').waitFor();
  await page.getByTestId('emitida-sin-cobertura').evaluate((e) => e.scrollIntoView({ block: 'start' }));
  await page.screenshot({ path: path.join(docs, 'movil-emitida-sin-cobertura.png') });
  // Above the phone's bottom bar, whole, as the inspector's camera would see it.
  await page.getByTestId('qr').evaluate((qr) => qr.scrollIntoView({ block: 'center' }));
  const enQr = new URL(await leerQr(page));
  const numeroSinCobertura = /(\d{4}-\d{6})/.exec(new URL(page.url()).pathname)![1]!;
  const otroNavegador = await chromium.launch({ executablePath: CHROMIUM!, args: CHROMIUM_ARGS });
  try {
    const ficha = await (await otroNavegador.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } })).newPage();
    await ficha.goto(`${env.url}${enQr.pathname}${enQr.search}`);
    await ficha.getByText(/EMITIDA SIN COBERTURA/).waitFor();
    await ficha.screenshot({ path: path.join(docs, 'movil-ficha-sin-cobertura.png') });
    await env.context.setOffline(false);
    await page.evaluate(() => dispatchEvent(new Event('online')));
    await page.getByText('el PDF del servidor es idéntico al generado aquí').waitFor({ timeout: 30_000 });
    // The office, on its own computer, sees where and when it was issued.
    const oficina = await (await otroNavegador.newContext({ viewport: { width: 1280, height: 800 }, locale: 'es-ES', timezoneId: 'Europe/Madrid' })).newPage();
    await oficina.goto(`${env.url}/decas/${numeroSinCobertura}`);
    await oficina.fill('#f-email', 'trafico@transportes-ebro.example');
    await oficina.fill('#f-password', 'una-clave-muy-larga');
    await oficina.getByRole('button', { name: 'Entrar' }).click();
    await oficina.getByTestId('emision-offline').waitFor({ timeout: 20_000 });
    await oficina.screenshot({ path: path.join(docs, 'escritorio-deca-sin-cobertura.png') });
  } finally {
    await otroNavegador.close();
  }

  await page.goto(`${env.url}/cuenta`);
  await page.getByRole('heading', { name: 'Cuenta', exact: true }).waitFor();
  await page.screenshot({ path: path.join(docs, 'movil-cuenta.png') });

  // Photo → DeCA: a delivery note read on the server, then its proposal in the form.
  const nota = await fotografiar(
    herramienta('pdftoppm')!,
    [
      'ALBARÁN Nº 2291',
      `Fecha: ${hoy.split('-').reverse().join('/')}`,
      'Remitente:',
      'Conservas Garrido e Hijos, S.L.',
      'NIF: B72377054',
      'Lugar de carga: Calahorra (La Rioja)',
      'Lugar de descarga: Mercabarna, Barcelona',
      'Matrícula: 7731 HJK   Remolque: R-4410-BBC',
      'Mercancía: Conservas vegetales',
      'Peso bruto: 16.800 kg',
    ],
    { grados: 1.5, cizalla: 0.01, desenfoque: 0.5, ruido: 10, luz: 0.25, calidad: 70, perspectiva: 0.02 },
  );
  await page.goto(`${env.url}/fotos`);
  await page.setInputFiles('input[type=file]', { name: 'albaran.jpg', mimeType: 'image/jpeg', buffer: nota });
  await page.getByRole('button', { name: 'Revisar y crear la DeCA' }).waitFor({ timeout: 60_000 });
  await page.screenshot({ path: path.join(docs, 'movil-foto.png') });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: path.join(docs, 'escritorio-foto.png') });
  await page.getByRole('button', { name: 'Revisar y crear la DeCA' }).click();
  await page.getByRole('heading', { name: 'Nueva DeCA' }).waitFor();
  await page.screenshot({ path: path.join(docs, 'escritorio-foto-formulario.png') });

  // Webhooks: one that fails (nothing listens there), with its deliveries open.
  await page.evaluate(async () => {
    await fetch('/api/v1/webhooks', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-DeCA-CSRF': '1' },
      body: JSON.stringify({ url: 'http://127.0.0.1:9/deca', descripcion: 'ERP', eventos: ['deca.emitido', 'deca.modificado', 'deca.fin_servicio'] }),
    });
  });
  await page.goto(`${env.url}/webhooks`);
  await page.getByTestId('webhooks').waitFor();
  await page.getByRole('button', { name: 'Probar' }).click();
  await page.getByText(/No recibido|Recibido/).waitFor({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Entregas' }).click();
  await page.getByText('Prueba (ping)').waitFor();
  await page.screenshot({ path: path.join(docs, 'escritorio-webhooks.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: path.join(docs, 'movil-webhooks.png') });
  await page.setViewportSize({ width: 1280, height: 800 });

  // CSV import: checked line by line before anything is saved.
  const csv = [
    'ref_externa;referencia;fecha_transporte;cargador;cargador_nif;cargador_domicilio;transportista;transportista_nif;origen;destino;mercancia;peso;unidad;tipo_vehiculo;matricula;remolque;autorizacion_especial;conductor;conductor_tel;observaciones',
    `PED-3001;;${hoy};Hortofrutícola del Poniente SA;A58818501;El Ejido;;;El Ejido;Mercazaragoza;Pimiento;21.400;kg;;4821 KLM;;;;;`,
    `PED-3002;;31/02/2026;Cementos del Moncayo SL;A58818501;Tarazona;;;Tarazona;Logroño;Cemento;25 t;;;9087 GHJ;;;;;`,
  ].join('\r\n');
  await page.goto(`${env.url}/importar`);
  await page.setInputFiles('input[type=file]', { name: 'pedidos.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await page.getByTestId('resultado-importacion').waitFor();
  await page.screenshot({ path: path.join(docs, 'escritorio-importar.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: path.join(docs, 'movil-importar.png') });

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(env.url);
  const filas = page.getByTestId('lista-decas').locator('tbody tr');
  await filas.nth(3).waitFor();
  for (const i of [1, 2]) await filas.nth(i).getByRole('checkbox').check();
  await page.screenshot({ path: path.join(docs, 'escritorio-lista.png') });
  await page.goto(`${env.url}/decas/${numero}`);
  await page.getByTestId('qr').waitFor();
  await page.locator('.cambios-campos').first().waitFor();
  await page.screenshot({ path: path.join(docs, 'escritorio-deca.png') });
  await page.goto(`${env.url}/cuenta`);
  await page.getByRole('button', { name: 'Nueva clave de pruebas' }).click();
  await page.getByTestId('claves').waitFor();
  await page
    .getByTestId('claves')
    .getByRole('button', { name: /Revocar/ })
    .first()
    .click();
  await page.getByRole('dialog').waitFor();
  await page.screenshot({ path: path.join(docs, 'escritorio-revocar.png') });
  await page.keyboard.press('Escape');

  // The address book: what the DeCAs above taught it, one entry being edited.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`${env.url}/agenda`); // a fresh start refreshes the device's copy at the first idle moment
  await page.getByRole('button', { name: 'Editar Papelera del Ebro SA' }).click({ timeout: 30_000 });
  await page.getByTestId('agenda-formulario').waitFor();
  await page.screenshot({ path: path.join(docs, 'escritorio-agenda.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('button', { name: 'Cancelar' }).click();
  await page.screenshot({ path: path.join(docs, 'movil-agenda.png') });

  // Users: a driver who joined, an office invitation still open; then that invitation's link, signed out.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`${env.url}/usuarios`);
  for (const [email, rol] of [
    ['lucia.martin@transportes-ebro.example', 'conductor'],
    ['administracion@transportes-ebro.example', 'oficina'],
  ] as const) {
    await page.fill('#f-invitar_email', email);
    await page.selectOption('#f-invitar_rol', rol);
    await page.getByRole('button', { name: 'Enviar invitación' }).click();
    await page.getByText(`Invitación enviada a ${email}`).waitFor();
  }
  const aceptada = await fetch(env.url + '/app/api' + (await enlaceDelCorreo(env, 'lucia.martin@transportes-ebro.example', /^\/invitacion\//)), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-DeCA-CSRF': '1' },
    body: JSON.stringify({ password: 'clave-de-lucia-1' }),
  });
  if (aceptada.status !== 201) throw new Error(`invitación no aceptada: ${aceptada.status}`);
  await page.reload();
  await page.getByTestId('usuarios').locator('[data-email^="lucia"]').waitFor();
  await page.screenshot({ path: path.join(docs, 'escritorio-usuarios.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: path.join(docs, 'movil-usuarios.png') });
  await page.goto(`${env.url}/cuenta`);
  await page.getByRole('button', { name: 'Cerrar sesión' }).click();
  await page.locator('input[type=password]').first().waitFor();
  await page.goto(env.url + (await enlaceDelCorreo(env, 'administracion@transportes-ebro.example', /^\/invitacion\//)));
  await page.getByRole('heading', { name: /Únase a/ }).waitFor();
  await page.screenshot({ path: path.join(docs, 'movil-invitacion.png') });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: path.join(docs, 'escritorio-invitacion.png') });
  console.log(`capturas en ${docs}`);
} finally {
  await env.close();
}
