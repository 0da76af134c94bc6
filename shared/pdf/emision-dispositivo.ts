/**
 * Issuing a DeCA on a device with no coverage: the same data, summary, QR and
 * PDF the server will make when the device syncs, so the driver shows at once
 * the document that will exist (the server's render, before its seal, is
 * these bytes). The signing is the caller's (the device's non-extractable key).
 */
import type { Campos } from '../errors';
import { datosParaEmitir, type EmpresaPropia } from '../rules/datos-deca';
import { codificarResumen, conResumen, parametroResumen, resumenDeDatos } from '../rules/resumen-offline';
import type { Entorno, Rol } from '../schemas/cuenta';
import type { DecaDatos, DecaInputParsed } from '../schemas/deca';
import { datosPdf } from './datos-pdf';
import { renderDecaPdf } from './deca-pdf';

/** A number the device holds (POST /app/api/dispositivos/{id}/reservas), with what the server said to render with. */
export interface NumeroReservado {
  /** The environment whose numbers these are (the device keeps each one's apart): a test DeCA's PDF is marked. */
  entorno: Entorno;
  dispositivo_id: number;
  numero: string;
  token: string;
  ficha_url: string;
  capacidad_sello: number;
}

export interface EmitidaEnDispositivo {
  datos: DecaDatos;
  /** What the QR holds: the ficha URL with the signed summary. */
  qrUrl: string;
  /** The PDF/A, unsealed: the server's render of the same DeCA before its seal. */
  pdf: Uint8Array;
  /** What POST /decas gets as `emision_offline`. */
  emision: { dispositivo_id: number; numero: string; token: string; emitida_at: string; qr: string };
}

/** Refused before a number is spent: the DeCA is not complete enough to issue. */
export class FaltanDatos extends Error {
  constructor(readonly faltan: Campos) {
    super(`Faltan datos para emitir: ${Object.keys(faltan).join(', ')}`);
  }
}

export async function emitirEnDispositivo(
  input: DecaInputParsed,
  cuenta: EmpresaPropia & { rol: Rol },
  reserva: NumeroReservado,
  ahora: Date,
  firmar: (datos: Uint8Array) => Promise<Uint8Array>,
): Promise<EmitidaEnDispositivo> {
  const { datos, faltan } = datosParaEmitir(input, cuenta, cuenta.rol);
  if (Object.keys(faltan).length > 0) throw new FaltanDatos(faltan);
  // Whole seconds: the time the summary carries, the PDF prints and the server records.
  const emitidaAt = new Date(Math.floor(ahora.getTime() / 1000) * 1000);
  const resumen = codificarResumen(resumenDeDatos(reserva.numero, datos, emitidaAt));
  const o = parametroResumen(resumen, await firmar(resumen));
  const qrUrl = conResumen(reserva.ficha_url, o);
  const pdf = await renderDecaPdf(datosPdf(datos, { entorno: reserva.entorno, numero: reserva.numero, version: 1, emitidoAt: emitidaAt, modificadoAt: null, motivo: null, sustituyeA: null, qrUrl }), {
    capacidadSello: reserva.capacidad_sello,
  });
  return {
    datos,
    qrUrl,
    pdf,
    emision: { dispositivo_id: reserva.dispositivo_id, numero: reserva.numero, token: reserva.token, emitida_at: emitidaAt.toISOString(), qr: o },
  };
}
