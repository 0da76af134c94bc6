import type { DecaDb, DecaLocal } from './db';

/**
 * The copy of an issued DeCA this phone shows on the road: its PDF and QR,
 * from the server's copy kept on the device (`documentos`, the current
 * version) or, until that is stored, from the one this device issued with no
 * coverage (`emitidas`). The device's copy is version 1 as issued here: once
 * the DeCA is modified, only the server's counts.
 */
export interface CopiaCamino {
  fuente: 'servidor' | 'dispositivo';
  numero: string;
  version: number;
  pdf: ArrayBuffer;
  qr: ArrayBuffer | string;
  tipoQr: 'image/png' | 'image/svg+xml';
}

/** Whether the item is an issued DeCA there is a copy of to show (issued here offline, or by the server). */
export function tieneCopia(rec: DecaLocal): boolean {
  return rec.deca ? rec.deca.estado !== 'pendiente' : rec.offline === 1;
}

/**
 * The copy kept on this device, or null when it has none (then only the
 * server has it). The server's wins once stored; the device's stays until
 * then, whatever the network does meanwhile (a sync whose answer arrived
 * just before the network went leaves the device's copy in place).
 */
export async function copiaGuardada(db: DecaDb, rec: DecaLocal): Promise<CopiaCamino | null> {
  const d = rec.deca;
  if (d && d.estado !== 'pendiente') {
    const doc = await db.documentos.get(d.id);
    if (doc && doc.version === d.version) return { fuente: 'servidor', numero: d.numero, version: d.version, pdf: doc.pdf, qr: doc.qr, tipoQr: 'image/png' };
  }
  if (!rec.offline || (d && d.version !== 1)) return null;
  const e = await db.emitidas.get(rec.clave);
  return e ? { fuente: 'dispositivo', numero: e.numero, version: 1, pdf: e.pdf, qr: e.qrSvg, tipoQr: 'image/svg+xml' } : null;
}
