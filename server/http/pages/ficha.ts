import { fechaEs, fechaHoraEs, formatMadrid } from '../../../shared/rules/fechas';
import { formatPeso } from '../../../shared/rules/peso';
import { nombreCampo, valorLegible } from '../../../shared/rules/presentacion';
import { paraLeer, pesoDeEnvios, type ResumenOffline } from '../../../shared/rules/resumen-offline';
import type { Entorno } from '../../../shared/schemas/cuenta';
import type { EnvioImpreso } from '../../../shared/schemas/envio';
import type { DecaPublica, EntregaPublica, FichaOffline, FichaPublica, UltimoCambio } from '../../../shared/schemas/publico';
import { html, layout, type SafeHtml } from './html';
import { ENLACE_PRIVACIDAD } from './privacidad';
import { PUBLIC_STYLE } from './styles';

const NO_CONSTA = 'no consta';

/** Same-site links as paths: the page keeps working (and within its CSP) whatever host serves it. */
export const rel = (url: string): string => {
  const u = new URL(url);
  return u.pathname + u.search;
};
/** One Spanish format on every page: `24/11/2026 21:57` (Madrid time) and `24/11/2026`. */
const fecha = (d: Date | null) => (d ? fechaHoraEs(d) : NO_CONSTA);
const dmy = (iso: string | null) => (iso ? fechaEs(iso) : NO_CONSTA);

function campo(nombre: string, valor: string | null | undefined): SafeHtml {
  return html`<dt>${nombre}</dt><dd>${valor || NO_CONSTA}</dd>`;
}

const conUnidad = (peso: number | null, unidad: string) => (peso === null ? NO_CONSTA : `${formatPeso(peso)} ${unidad}`);

/** One shipment as the inspector reads it: goods and weight first, in large type, then where from and to. */
function envioHtml(e: EnvioImpreso, i: number, total: number): SafeHtml {
  return html`<div class="envio"><p class="carga"><span class="mercancia">${total > 1 ? `${i + 1}. ` : ''}${e.naturaleza ?? NO_CONSTA}</span> · <span class="peso">${conUnidad(e.peso, e.unidad)}</span></p><p class="ruta">${e.origen ?? NO_CONSTA} → ${e.destino ?? NO_CONSTA}</p>${e.nota ? html`<p class="nota">${e.nota}</p>` : ''}</div>`;
}

/** The load: each shipment, and the total weight when there are several. */
function cargaHtml(envios: EnvioImpreso[]): SafeHtml {
  const total = envios.length > 1 ? pesoDeEnvios(envios) : null;
  return html`<h2>Carga${envios.length > 1 ? ` (${envios.length} envíos)` : ''}</h2>${envios.map((e, i) => envioHtml(e, i, envios.length))}${total ? html`<p class="sub">Peso total: <b>${conUnidad(total.valor, total.unidad)}</b></p>` : ''}`;
}

/**
 * What every public page of a DeCA of the test environment opens with: its
 * number has the same shape as a real one, so this is what tells them apart.
 */
export function bannerPruebas(entorno: Entorno): SafeHtml | '' {
  if (entorno !== 'pruebas') return '';
  return html`<div class="banner bad" role="alert" data-entorno="pruebas">ENTORNO DE PRUEBAS: este documento no tiene validez.</div>`;
}

/** The page's title, which says so too for a test DeCA (tabs, history, bookmarks). */
const tituloDeca = (numero: string, entorno: Entorno, resto = '') => `DeCA ${numero}${resto}${entorno === 'pruebas' ? ' · PRUEBAS, sin validez' : ''}`;

/**
 * The state in plain words, with a strong banner when the inspector must not
 * rely on this document (replaced, pending) or the service has ended. A test
 * DeCA is never «en vigor».
 */
export function estadoBanner(row: DecaPublica): SafeHtml {
  if (row.estado === 'sustituido') {
    const nueva = row.sustituida_por;
    return html`<div class="banner bad" role="alert">SUSTITUIDA: este documento ya no es válido.${nueva ? html` <a href="${rel(nueva.ficha)}">Ver la DeCA ${nueva.numero} que la sustituye</a>` : ''}</div>`;
  }
  if (row.estado === 'pendiente') {
    return html`<div class="banner warn" role="alert">PENDIENTE: aún no se ha emitido; no ampara el transporte.</div>`;
  }
  if (row.fin_servicio_at) {
    return html`<div class="banner info" role="status">SERVICIO FINALIZADO el ${fecha(row.fin_servicio_at)}: este documento ya NO ampara al vehículo en un transporte en curso.</div>`;
  }
  if (row.entorno === 'pruebas') return html`<div class="banner warn" role="status">EMITIDA en el entorno de pruebas: no ampara ningún transporte.</div>`;
  return html`<div class="banner ok" role="status">EMITIDA y en vigor.</div>`;
}

/**
 * The deliveries recorded (extension): «Entregada el …», per shipment when
 * each was delivered apart. Only that it happened and when: never who
 * signed, the signature or the photos, which are not the public's.
 */
export function entregasHtml(entregas: readonly EntregaPublica[], envios: number): SafeHtml | '' {
  if (!entregas.length) return '';
  const linea = (e: EntregaPublica) => {
    const que = e.resultado === 'entregada' ? 'Entregada' : 'Entrega RECHAZADA';
    const de = e.envio === null ? (envios > 1 ? ' (todos los envíos)' : '') : envios > 1 ? ` (envío ${e.envio + 1} de ${envios})` : '';
    return html`<p data-entrega="${e.resultado}">${que}${de} el ${fecha(e.registrada_at)}</p>`;
  };
  return html`<div class="banner info entregas" role="status">${entregas.map(linea)}</div>`;
}

/** Plates never wrap: a long pair is set smaller instead. */
function placasHtml(matricula: string | null, remolque: string | null): SafeHtml {
  const placas = [matricula, remolque].filter(Boolean).join(' + ') || NO_CONSTA;
  const largo = [...placas].length > 22 ? ' xl' : [...placas].length > 17 ? ' l' : '';
  return html`<div class="ancho"><dt>Matrícula${remolque ? 's' : ''}</dt><dd class="placas${largo}">${placas}</dd></div>`;
}

/** What the inspector checks first: the vehicle and the date, in large type. */
function resumenHtml(row: DecaPublica): SafeHtml {
  return html`<dl class="resumen">${placasHtml(row.matricula, row.matricula_remolque)}<div><dt>Fecha del transporte</dt><dd class="fecha">${dmy(row.fecha_transporte)}</dd></div></dl>`;
}

/** A modified DeCA says so, with when, why and each old → new value. */
function cambioHtml(ultimo: UltimoCambio | null, version: number): SafeHtml | '' {
  if (!ultimo) return '';
  return html`<div class="banner warn cambio" role="note">MODIFICADA — versión ${version}, el ${fecha(ultimo.at)}${ultimo.motivo ? html`. Motivo: ${ultimo.motivo}` : ''}${
    ultimo.campos.length
      ? html`<ul>${ultimo.campos.map((c) => html`<li>${nombreCampo(c.campo)}: <del>${valorLegible(c.campo, c.antes)}</del> → <ins>${valorLegible(c.campo, c.despues)}</ins></li>`)}</ul>`
      : ''
  }</div>`;
}

/** The data of every art. 6 datum, shared by the inspector's and the driver's pages. Never the driver's phone. */
export function datosHtml(row: DecaPublica, { envios = true } = {}): SafeHtml {
  const vehiculo = row.tipo_vehiculo === 'articulado' ? 'Articulado' : row.tipo_vehiculo === 'rigido' ? 'Rígido' : NO_CONSTA;
  return html`<h2>Cargador contractual</h2><dl>${campo('Nombre', row.cargador_nombre)}${campo('NIF', row.cargador_nif)}${campo('Domicilio', row.cargador_domicilio)}</dl>
<h2>Transportista efectivo</h2><dl>${campo('Nombre', row.transp_nombre)}${campo('NIF', row.transp_nif)}${campo('Domicilio', row.transp_domicilio)}</dl>
<h2>Transporte</h2><dl>${campo('Fecha', dmy(row.fecha_transporte))}${campo('Vehículo', vehiculo)}${campo('Matrícula', row.matricula)}${row.matricula_remolque ? campo('Remolque', row.matricula_remolque) : ''}${row.autorizacion_especial ? campo('Autorización especial', row.autorizacion_especial) : ''}${row.conductor_nombre ? campo('Conductor', row.conductor_nombre) : ''}</dl>
${envios ? html`<h2>Envíos (${row.envios.length})</h2>${row.envios.map((e, i) => envioHtml(e, i, row.envios.length))}` : ''}
${row.observaciones || row.referencia ? html`<h2>Otros datos</h2><dl>${row.observaciones ? campo('Observaciones', row.observaciones) : ''}${row.referencia ? campo('Referencia', row.referencia) : ''}</dl>` : ''}`;
}

function cabecera(row: DecaPublica): SafeHtml {
  return html`<h1>Documento de control (DeCA)</h1><p class="num">Nº ${row.numero}</p>`;
}

/**
 * Which version this is and since when: a modified DeCA says when it was
 * modified first, and when it was issued.
 */
function versionHtml(row: DecaPublica, ultimo: UltimoCambio | null): SafeHtml {
  const o = row.emision_offline;
  const offline = o ? html`<br>Emitida sin cobertura en un dispositivo${o.dispositivo ? html` (${o.dispositivo})` : ''}; recibida el ${fecha(o.recibida_at)}` : '';
  const emitida = row.emitido_at ? html`emitida el ${fecha(row.emitido_at)}` : '';
  const linea = ultimo
    ? html`<b>Modificada el ${fecha(ultimo.at)} · versión ${row.version}</b>${emitida ? html` · ${emitida}` : ''}`
    : html`Versión ${row.version}${emitida ? html` · ${emitida}` : ''}`;
  return html`<p class="sub version">${linea}${offline}${row.sustituye_a ? html`<br>Sustituye a la DeCA ${row.sustituye_a}` : ''}</p>`;
}

/** The current version's fingerprint, and where to check a PDF against it. */
function huellaHtml(row: DecaPublica): SafeHtml | '' {
  if (!row.pdf_sha256) return '';
  return html`<p class="sub">Huella SHA-256 del PDF vigente (versión ${row.version}): <code class="huella" data-huella>${row.pdf_sha256}</code><br><a href="/verificar">Comprobar si un PDF es auténtico</a></p>`;
}

/** The page an inspector opens from the QR: server-rendered, no JavaScript, a few KB. */
export function renderFicha({ deca: row, ultimo, entregas }: FichaPublica): string {
  const urls = row.urls;
  return layout({
    title: tituloDeca(row.numero, row.entorno),
    style: PUBLIC_STYLE,
    body: html`<main>${bannerPruebas(row.entorno)}${cabecera(row)}${estadoBanner(row)}${entregasHtml(entregas, row.envios.length)}${versionHtml(row, ultimo)}${resumenHtml(row)}${cargaHtml(row.envios)}${cambioHtml(ultimo, row.version)}${datosHtml(row, { envios: false })}
${row.estado !== 'pendiente' ? html`<a class="btn" href="${rel(urls.pdf)}">Ver el PDF (versión ${row.version})</a>${huellaHtml(row)}` : ''}
<footer>Documento de control del transporte de mercancías por carretera, Orden FOM/2861/2012, art. 6.<br>${ENLACE_PRIVACIDAD}</footer></main>`,
  });
}

/**
 * The load a signed summary carries: the first shipment's goods and places,
 * and the weight (of all the shipments: with several, apart from the first's
 * goods, so it is not read as theirs).
 */
function cargaOfflineHtml(r: ResumenOffline): SafeHtml {
  const varios = r.envios !== null && r.envios > 1;
  const mercancia = html`<span class="mercancia">${r.naturaleza ? paraLeer(r, 'naturaleza') : r.formato === 1 ? 'no consta en este QR' : NO_CONSTA}</span>`;
  const peso = html`<span class="peso">${r.peso ? conUnidad(r.peso.valor, r.peso.unidad) : NO_CONSTA}</span>`;
  const ruta = html`<p class="ruta">${paraLeer(r, 'origen') || NO_CONSTA} → ${paraLeer(r, 'destino') || NO_CONSTA}</p>`;
  if (!varios) return html`<h2>Carga</h2><div class="envio"><p class="carga">${mercancia} · ${peso}</p>${ruta}</div>`;
  return html`<h2>Carga (${r.envios} envíos)</h2><div class="envio"><p class="carga">1. ${mercancia}</p>${ruta}</div><p class="carga">Peso total: ${peso}</p><p class="sub">El QR lleva la mercancía y los lugares del primer envío.</p>`;
}

/**
 * What the QR of a DeCA issued with no coverage vouches for, until the DeCA
 * itself arrives: first that the device's signature holds, then the data it
 * signed (the vehicle, the date and the load on the first screen), and whose
 * device it was.
 */
export function renderFichaOffline(f: FichaOffline): string {
  const r = f.resumen;
  const hora = formatMadrid(r.emitida_at).slice(11, 16);
  return layout({
    title: tituloDeca(r.numero, f.entorno, ' · emitida sin cobertura'),
    style: PUBLIC_STYLE,
    body: html`<main>${bannerPruebas(f.entorno)}<h1>Documento de control (DeCA)</h1><p class="num">Nº ${r.numero}</p>
<div class="banner ok firma" role="status"><p class="veredicto">✓ Firma del dispositivo verificada</p><p>EMITIDA SIN COBERTURA en un dispositivo de ${f.empresa} el ${dmy(formatMadrid(r.emitida_at).slice(0, 10))} a las ${hora}; el documento completo llegará cuando el dispositivo tenga cobertura.</p></div>
<dl class="resumen">${placasHtml(r.matricula, r.remolque)}<div><dt>Fecha del transporte</dt><dd class="fecha">${dmy(r.fecha)}</dd></div>${r.conductor ? html`<div><dt>Conductor</dt><dd class="conductor">${paraLeer(r, 'conductor')}</dd></div>` : ''}</dl>
${cargaOfflineHtml(r)}
<h2>Datos firmados</h2><dl>${campo('Cargador', paraLeer(r, 'cargador_nombre'))}${campo('NIF del cargador', r.cargador_nif)}${campo('Transportista', paraLeer(r, 'transp_nombre'))}${campo('NIF del transportista', r.transp_nif)}${campo('Dispositivo', f.dispositivo)}</dl>
<p class="sub">Firma ECDSA P-256 comprobada con la clave que el dispositivo registró en la cuenta. Huella de los datos completos: <code>${r.huella}</code>${r.cortados.length ? html`<br>«…»: el QR no lleva entero ese texto; el documento completo sí.` : ''}</p>
<footer>Documento de control del transporte de mercancías por carretera, Orden FOM/2861/2012, art. 6.<br>${ENLACE_PRIVACIDAD}</footer></main>`,
  });
}

/**
 * The QR of a DeCA issued with no coverage whose signed summary does not
 * hold: said as plainly and as large as a good one, and the same whatever
 * did not hold.
 */
export function renderFichaOfflineRechazada(mensaje: string): string {
  return layout({
    title: 'DeCA no verificada',
    style: PUBLIC_STYLE,
    body: html`<main><h1>Documento de control (DeCA)</h1><div class="banner bad firma" role="alert"><p class="veredicto">✗ Firma no verificada</p><p>${mensaje}</p></div>
<footer>${ENLACE_PRIVACIDAD}</footer></main>`,
  });
}

/** The driver's page: big QR first, the data, the PDF; can be saved to the home screen. */
export function renderConductor({ deca: row, ultimo }: FichaPublica): string {
  const urls = row.urls;
  return layout({
    title: tituloDeca(row.numero, row.entorno, ' · conductor'),
    style: PUBLIC_STYLE,
    head: html`<link rel="manifest" href="${rel(urls.conductor)}/manifest.webmanifest"><meta name="theme-color" content="#000000"><meta name="apple-mobile-web-app-capable" content="yes"><meta name="mobile-web-app-capable" content="yes"><meta name="apple-mobile-web-app-title" content="DeCA ${row.numero}"><link rel="apple-touch-icon" href="/icons/icon-192.png">`,
    body: html`<main>${bannerPruebas(row.entorno)}<p class="num">DeCA ${row.numero}</p>${estadoBanner(row)}
<img class="qr" src="${rel(urls.qr_png)}" width="352" height="352" alt="Código QR de la DeCA ${row.numero}: enséñelo al agente para que lo escanee">
<p class="sub">Muestre este código al agente. Versión ${row.version}${ultimo ? html`, modificada el ${fecha(ultimo.at)}` : ''}.</p>${resumenHtml(row)}
${row.estado !== 'pendiente' ? html`<a class="btn" href="${rel(urls.pdf)}">Abrir el PDF</a>` : ''}<a class="btn sec" href="${rel(urls.ficha)}">Ficha pública</a>
${datosHtml(row)}<footer>Para tenerla a mano sin buscar el enlace: «Añadir a pantalla de inicio» en el menú del navegador.<br>${ENLACE_PRIVACIDAD}</footer></main>`,
  });
}

/** Web manifest of the driver's page, so "add to home screen" opens it like an app. */
export function conductorManifest(row: DecaPublica): object {
  const urls = row.urls;
  return {
    name: `DeCA ${row.numero}`,
    short_name: `DeCA ${row.numero.slice(5)}`,
    start_url: rel(urls.conductor),
    scope: rel(urls.conductor),
    display: 'standalone',
    background_color: '#ffffff',
    theme_color: '#000000',
    icons: [
      { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
    ],
  };
}

/** A plain page for messages (not found, link expired, done). */
export function renderMensaje(titulo: string, mensaje: SafeHtml | string, extra?: SafeHtml): string {
  return layout({ title: titulo, style: PUBLIC_STYLE, body: html`<main><h1>${titulo}</h1><p>${mensaje}</p>${extra ?? ''}</main>` });
}
