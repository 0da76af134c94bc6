import { fechaHoraEs as fecha } from '../../../shared/rules/fechas';
import type { AutenticidadVista, JustificantePublico } from '../../../shared/schemas/publico';
import { rel } from './ficha';
import { html, layout, type SafeHtml } from './html';
import { ENLACE_PRIVACIDAD } from './privacidad';
import { FORM_STYLE } from './styles';

export const RUTA_VERIFICAR = '/verificar';

function formulario(error?: string): SafeHtml {
  return html`<form method="post" action="${RUTA_VERIFICAR}" enctype="multipart/form-data">
<label for="pdf">PDF de la DeCA o del justificante de entrega (hasta 4 MB)</label>
<input type="file" id="pdf" name="pdf" accept="application/pdf,.pdf" required${error ? html` aria-invalid="true" aria-describedby="pdf-error"` : ''}>
${error ? html`<p class="err" id="pdf-error">${error}</p>` : ''}
<button class="btn" type="submit">Comprobar</button>
</form>
<p class="sub">El archivo no se guarda: solo se calcula su huella SHA-256 y se busca entre las versiones de las DeCA y los justificantes de entrega emitidos por este servicio. Basta un byte cambiado para que no coincida.</p>`;
}

/** What a receipt confirms, on its verification page and in the check's verdict: never who signed, the signature or the photos. */
export function justificanteHtml(j: JustificantePublico): SafeHtml {
  const que = j.resultado === 'entregada' ? 'ENTREGADA' : 'ENTREGA RECHAZADA';
  const envios = j.envios.map((e) => html`<li>Envío ${e.indice + 1}: ${e.origen ?? 'no consta'} → ${e.destino ?? 'no consta'}</li>`);
  return html`<p class="num">DeCA ${j.numero} · entrega ${j.n}</p>
<p class="sub">${que} el ${fecha(j.registrada_at)} (hora del teléfono del conductor); recibida por el servicio el ${fecha(j.recibida_at)}.</p>
<h2>${j.envio === null ? 'Todos los envíos de la DeCA' : 'Envío'}</h2><ul>${envios}</ul>
<p class="sub">Huella SHA-256 del justificante: <code class="huella">${j.pdf_sha256}</code></p>
<a class="btn sec" href="${rel(j.ficha)}">Ver la DeCA ${j.numero}</a>`;
}

/** The verdict on a receipt's PDF. */
function veredictoJustificante(j: JustificantePublico): SafeHtml {
  if (j.entorno === 'pruebas') return html`<div class="banner bad" role="alert">Justificante del entorno de PRUEBAS (DeCA ${j.numero}, entrega ${j.n}): sin validez.</div>`;
  return html`<div class="banner ok" role="status">AUTÉNTICO: es un justificante de entrega emitido por este servicio.</div>${justificanteHtml(j)}`;
}

/** The verdict, in plain words: authentic or not, which DeCA and version, and whether it is still the one in force. */
function veredicto(r: AutenticidadVista): SafeHtml {
  const e = r.encontrada;
  if (!e && r.justificante) return veredictoJustificante(r.justificante);
  if (!e) {
    return html`<div class="banner bad" role="alert">NO AUTÉNTICO: este archivo no es ninguna versión de una DeCA ni ningún justificante de entrega emitido por este servicio.</div>
<p>Puede estar alterado (un solo carácter basta), ser de otro servicio o no ser una DeCA.</p>`;
  }
  const { deca: row, version } = e;
  const ficha = html`<a class="btn sec" href="${rel(row.urls.ficha)}">Ver la DeCA ${row.numero} como está ahora</a>`;
  if (e.entorno === 'pruebas') {
    return html`<div class="banner bad" role="alert">Documento del entorno de PRUEBAS (DeCA ${row.numero}, versión ${version}): sin validez.</div>`;
  }
  const cabecera = html`<p class="num">DeCA ${row.numero}</p><p class="sub">Este archivo es la versión ${version}, emitida el ${fecha(e.emitida_at)}.</p>`;
  if (row.estado === 'sustituido') {
    return html`<div class="banner bad" role="alert">AUTÉNTICO, pero la DeCA fue SUSTITUIDA${row.sustituida_por ? html` por la ${row.sustituida_por.numero}` : ''}: ya no es válida.</div>${cabecera}${ficha}`;
  }
  if (version !== row.version) {
    return html`<div class="banner warn" role="alert">AUTÉNTICO, pero NO es la versión vigente: la DeCA se MODIFICÓ y hoy vale la versión ${row.version}.</div>${cabecera}${ficha}`;
  }
  const fin = row.fin_servicio_at ? html`<div class="banner info" role="status">SERVICIO FINALIZADO el ${fecha(row.fin_servicio_at)}: ya no ampara al vehículo en un transporte en curso.</div>` : '';
  return html`<div class="banner ok" role="status">AUTÉNTICO y VIGENTE: es la versión en vigor de la DeCA.</div>${fin}${cabecera}${ficha}`;
}

/**
 * The public authenticity check: upload a PDF, learn whether it is an
 * authentic version of a DeCA of this service, which one, and whether it is
 * still the one in force. No account, no JavaScript.
 */
export function renderVerificar(opts: { resultado?: AutenticidadVista; error?: string }): string {
  const r = opts.resultado;
  return layout({
    title: 'Comprobar una DeCA',
    style: FORM_STYLE,
    body: html`<main><h1>Comprobar el PDF de una DeCA</h1>
${r ? html`${veredicto(r)}<p class="sub">Huella SHA-256 del archivo: <code class="huella">${r.sha256}</code></p><h2>Comprobar otro</h2>` : ''}
${formulario(opts.error)}
<footer>Documento de control del transporte de mercancías por carretera, Orden FOM/2861/2012, art. 6.<br>${ENLACE_PRIVACIDAD}</footer></main>`,
  });
}

/** A receipt's own page, the one its QR opens: that it is authentic and what it confirms. No JavaScript. */
export function renderJustificante(j: JustificantePublico): string {
  return layout({
    title: `Justificante de entrega · DeCA ${j.numero}${j.entorno === 'pruebas' ? ' · PRUEBAS, sin validez' : ''}`,
    style: FORM_STYLE,
    body: html`<main><h1>Justificante de entrega</h1>
${veredictoJustificante(j)}
<p class="sub">Para comprobar que un PDF es este justificante sin cambios, súbalo en <a href="${RUTA_VERIFICAR}">Comprobar un PDF</a>: su huella ha de ser la de arriba.</p>
<footer>Justificante de entrega de un transporte amparado por una DeCA (Orden FOM/2861/2012). Ni la firma ni las fotos de la entrega se publican.<br>${ENLACE_PRIVACIDAD}</footer></main>`,
  });
}
