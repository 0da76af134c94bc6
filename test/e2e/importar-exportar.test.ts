import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { COLUMNAS_CSV } from '../../shared/rules/csv-deca';
import { auditarAccesibilidad } from './axe';
import { CHROMIUM } from './browser';
import { archivoE2e, decaCompleta } from './flujos';

/**
 * The office's CSV desk at 1440×900: a file whose check finds a warning asks
 * before importing it and can import only the correct DeCAs; «Exportar CSV»
 * after a search downloads the DeCAs the list shows, no others.
 */
describe.skipIf(!CHROMIUM)('the office’s CSV desk at 1440×900', () => {
  const e2e = archivoE2e({ viewport: { width: 1440, height: 900 }, politicas: true });

  it('shows a DeCA’s warning from the check, asks before importing it, and «Importar solo las correctas» creates only the others', async () => {
    const { env } = e2e;
    const { page, api } = await e2e.sesion({ clave: true });
    const cabecera = [...COLUMNAS_CSV, 'emisor_rol', 'transportista_domicilio'].join(';');
    const fila = (ref: string, nif: string) =>
      `${ref};;24/11/2026;Cítricos La Ribera SL;${nif};Calle Mayor 1, Alzira;Transportes Prueba SL;B12345674;Alzira;Málaga;Naranjas;18.000;kg;;1234 BCD;;;;;;;Polígono Sur 3, Zaragoza`;
    const csv = [cabecera, fila('IMP-AV-1', 'B96712341'), fila('IMP-OK-1', 'A58818501'), fila('IMP-OK-2', 'A58818501')].join('\r\n');
    await page.goto(`${env.url}/importar`);
    await page.getByRole('heading', { name: 'Importar DeCA desde un CSV' }).waitFor();
    await page.setInputFiles('input[type=file]', { name: 'decas.csv', mimeType: 'text/csv', buffer: Buffer.from(csv, 'utf8') });

    const resumen = page.getByTestId('resumen-importacion');
    await resumen.filter({ hasText: '2 de 3 DeCA correctas, 1 con avisos' }).waitFor();
    // The warning the form gives for that NIF, on its DeCA's row, and only there.
    const tabla = page.getByTestId('resultado-importacion');
    const conAviso = tabla.locator('tbody tr', { hasText: 'IMP-AV-1' });
    expect(await conAviso.textContent()).toContain('Revise el NIF B96712341');
    expect(await conAviso.textContent()).toContain('Correcta, con avisos');
    expect(await tabla.locator('tbody tr', { hasText: 'IMP-OK-1' }).textContent()).not.toContain('Revise');
    expect(await auditarAccesibilidad(page), 'the check with a warning').toEqual([]);

    // The question; Escape goes back and imports nothing.
    await page.getByRole('button', { name: 'Importar 3 DeCA' }).click();
    const pregunta = page.getByRole('dialog', { name: 'Una DeCA tiene avisos' });
    await pregunta.waitFor();
    expect(await pregunta.textContent()).toContain('B96712341');
    expect(await pregunta.getByRole('button', { name: 'Importar 3 con avisos' }).count()).toBe(1);
    expect(await auditarAccesibilidad(page), 'the question').toEqual([]);
    await page.keyboard.press('Escape');
    await pregunta.waitFor({ state: 'hidden' });
    // Focus goes back to the button that asked.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Importar 3 DeCA');
    expect((await api<{ decas: unknown[] }>('GET', '/decas')).decas).toEqual([]);

    await page.getByRole('button', { name: 'Importar 3 DeCA' }).click();
    await pregunta.getByRole('button', { name: 'Importar solo las correctas (2)' }).click();
    await resumen.filter({ hasText: '2 creadas, 0 ya importadas antes, 0 con errores, 1 sin importar.' }).waitFor({ timeout: 30_000 });
    expect(await tabla.locator('tbody tr', { hasText: 'IMP-AV-1' }).textContent()).toContain('No guardada');
    const { decas } = await api<{ decas: { ref_externa: string; estado: string }[] }>('GET', '/decas');
    expect(decas.map((d) => [d.ref_externa, d.estado]).sort()).toEqual([
      ['IMP-OK-1', 'emitido'],
      ['IMP-OK-2', 'emitido'],
    ]);
  });

  it('«Exportar CSV» after a search downloads the DeCAs the list shows, each with its number', async () => {
    const { env } = e2e;
    const { page, api } = await e2e.sesion({ clave: true });
    const nombres = ['Cítricos La Ribera SL', 'Hortalizas del Norte SA', 'Ribera Baixa SCV', 'Cementos Jaca SA'];
    for (const cargador_nombre of nombres) await api('POST', '/decas', decaCompleta({ cargador_nombre }));
    await page.goto(env.url);
    const filas = page.getByTestId('lista-decas').locator('tbody tr');
    await expect.poll(() => filas.count(), { timeout: 20_000 }).toBe(4);

    await page.fill('#f-texto', 'ribera');
    await expect.poll(() => filas.count(), { timeout: 20_000 }).toBe(2);
    const mostradas = (await filas.allTextContents()).map((t) => /\d{4}-\d{6}/.exec(t)?.[0]).sort();
    expect(mostradas).toHaveLength(2);

    const [descarga] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Exportar CSV' }).click()]);
    const texto = readFileSync((await descarga.path())!, 'utf8');
    const exportadas = parse(texto, { bom: true, delimiter: ';', columns: true }) as Record<string, string>[];
    expect(exportadas.map((f) => f.numero).sort()).toEqual(mostradas);
    expect(exportadas.map((f) => f.cargador).sort()).toEqual(['Cítricos La Ribera SL', 'Ribera Baixa SCV']);
    // What an office reconciles with: the state and issue time the service has for each.
    const { decas } = await api<{ decas: { numero: string; estado: string; emitido_at: string | null }[] }>('GET', '/decas');
    for (const f of exportadas) {
      const d = decas.find((x) => x.numero === f.numero)!;
      expect([f.estado, f.emitido_at]).toEqual([d.estado, d.emitido_at ?? '']);
    }
  });
});
