/**
 * «Emitir» with no network: the DeCA is issued on this device with the next
 * number it holds, its PDF/A rendered here by the server's own renderer
 * (shared/pdf) and its QR signed by the device's key, so the driver can show
 * it at once; the server issues the same DeCA, with the same bytes, when the
 * device syncs. This module (jsPDF, the fonts) loads only when that happens.
 */
// First: the shared schemas only through the app's door to them (zod configured for the CSP).

import { emitirEnDispositivo, FaltanDatos } from '../../shared/pdf/emision-dispositivo';
import boldUrl from '../../shared/pdf/fuentes/DejaVuSans-Bold-DeCA.ttf?url';
import normalUrl from '../../shared/pdf/fuentes/DejaVuSans-DeCA.ttf?url';
import srgbUrl from '../../shared/pdf/fuentes/sRGB.icc?url';
import { instalarRecursosPdf, recursosInstalados } from '../../shared/pdf/pdfa';
import { qrSvg } from '../../shared/pdf/qr';
import type { Cuenta, Entorno } from '../../shared/schemas/cuenta';
import type { DatosDeca, DecaDb, DecaLocal } from './db';
import { dispositivoListo, reservasUsablesEnDispositivo, sha256HexWeb } from './dispositivo';
import { DecaInput } from './esquemas';
import { crearDeca, limpiar } from './outbox';

/** The fonts and colour profile every DeCA embeds (the service worker keeps them for offline use). */
async function instalarRecursos(): Promise<void> {
  if (recursosInstalados()) return;
  const bytes = async (url: string) => {
    const res = await fetch(url);
    if (!res.ok) throw new Error(`No se pudo cargar ${url} (${res.status})`);
    return new Uint8Array(await res.arrayBuffer());
  };
  const [normal, bold, srgb] = await Promise.all([bytes(normalUrl), bytes(boldUrl), bytes(srgbUrl)]);
  instalarRecursosPdf({ normal, bold, srgb });
}

/**
 * Issue `datos` on this device, or null when it cannot (no number left, the
 * device not registered or given up, data not complete): the caller then
 * queues the DeCA to be issued when there is coverage, as before. `entorno`
 * is the one `db` belongs to (its numbers were reserved for it): a test
 * DeCA's PDF carries the test mark, as the server's will.
 */
export async function emitirSinCobertura(db: DecaDb, cuenta: Cuenta, entorno: Entorno, datos: DatosDeca): Promise<DecaLocal | null> {
  const input = DecaInput.safeParse({ ...limpiar(datos), emitir: true });
  const dispositivo = await dispositivoListo(db);
  const [reserva] = await reservasUsablesEnDispositivo(db);
  if (!input.success || !dispositivo || !reserva) return null;
  await instalarRecursos();
  const firmar = async (d: Uint8Array) => new Uint8Array(await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, dispositivo.claves.privateKey, new Uint8Array(d)));
  try {
    const r = await emitirEnDispositivo(input.data, cuenta, { ...reserva, entorno }, new Date(), firmar);
    const pdf = r.pdf.slice().buffer as ArrayBuffer;
    return await crearDeca(db, datos, { emitir: true, offline: { emision: r.emision, qrUrl: r.qrUrl, qrSvg: qrSvg(r.qrUrl), pdf, sha256: await sha256HexWeb(r.pdf) } });
  } catch (err) {
    if (err instanceof FaltanDatos) return null;
    throw err;
  }
}
