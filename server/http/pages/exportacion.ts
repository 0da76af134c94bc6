import { fechaHoraEs } from '../../../shared/rules/fechas';
import type { ExportacionVista } from '../../../shared/schemas/publico';
import { html, layout } from './html';
import { ENLACE_PRIVACIDAD } from './privacidad';
import { PUBLIC_STYLE } from './styles';

const megas = (bytes: number) =>
  `${Math.max(0.1, bytes / 1_048_576)
    .toFixed(1)
    .replace('.', ',')} MB`;

/**
 * The page of the link to a closed account's data. Opening it downloads
 * nothing: mail scanners open links by themselves, and must not spend the
 * one download; the button does (a POST to the same address: the form has
 * no `action`, so the page never repeats the link's token).
 */
export function renderExportacion(v: ExportacionVista): string {
  const cuerpo =
    v.estado === 'lista'
      ? html`<p>Archivo ZIP con los datos de la cuenta de <b>${v.empresa}</b>: todas sus DeCA en CSV, cada PDF emitido y los datos de la cuenta en JSON (${megas(v.bytes)}).</p>
<div class="banner warn" role="note">El enlace sirve para UNA descarga completa, hasta el ${fechaHoraEs(v.caduca_at)}. Guarde el archivo en un lugar seguro: lleva datos personales.</div>
<form method="post"><button class="btn" type="submit">Descargar los datos</button></form>`
      : v.estado === 'descargada'
        ? html`<div class="banner info" role="status">Los datos de ${v.empresa} ya se descargaron el ${fechaHoraEs(v.descargada_at)}: el enlace servía una sola vez.</div>`
        : html`<div class="banner bad" role="status">Este enlace caducó el ${fechaHoraEs(v.caduca_at)} y el archivo con los datos de ${v.empresa} se ha borrado.</div>`;
  return layout({
    title: 'Datos de una cuenta cerrada · DeCA',
    style: PUBLIC_STYLE,
    body: html`<main><h1>Datos de una cuenta cerrada</h1>${cuerpo}
<p class="sub">Las DeCA emitidas se siguen conservando en el servicio hasta que acaba su plazo, y sus enlaces públicos siguen funcionando.</p>
<footer>${ENLACE_PRIVACIDAD}</footer></main>`,
  });
}
