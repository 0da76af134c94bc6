import type { Aviso, Campos } from '../../../shared/errors';
import type { Rol } from '../../../shared/schemas/cuenta';
import type { CampoDatos } from '../../../shared/schemas/deca';
import { UNIDADES } from '../../../shared/schemas/envio';
import type { CompletarVista, DecaPublica } from '../../../shared/schemas/publico';
import { datosHtml } from './ficha';
import { html, layout, type SafeHtml } from './html';
import { ENLACE_PRIVACIDAD } from './privacidad';
import { FORM_STYLE } from './styles';

export const COMPLETAR_SCRIPT = '/p/completar.js';

const ETIQUETAS: Record<string, string> = {
  cargador_nombre: 'Cargador: nombre o razón social',
  cargador_nif: 'Cargador: NIF',
  cargador_domicilio: 'Cargador: domicilio',
  transp_nombre: 'Transportista: nombre o razón social',
  transp_nif: 'Transportista: NIF',
  transp_domicilio: 'Transportista: domicilio',
  fecha_transporte: 'Fecha del transporte',
  matricula: 'Matrícula del vehículo (tractora o rígido)',
  matricula_remolque: 'Matrícula del remolque (si lleva)',
  autorizacion_especial: 'Autorización especial de circulación',
  conductor_nombre: 'Conductor',
  conductor_tel: 'Teléfono del conductor',
  observaciones: 'Observaciones',
  referencia: 'Referencia',
  cargador_cp: 'Cargador: código postal',
  cargador_municipio: 'Cargador: municipio',
  cargador_provincia: 'Cargador: provincia o región',
  cargador_pais: 'Cargador: país (código de dos letras: ES, PT, FR…)',
  transp_cp: 'Transportista: código postal',
  transp_municipio: 'Transportista: municipio',
  transp_provincia: 'Transportista: provincia o región',
  transp_pais: 'Transportista: país (código de dos letras: ES, PT, FR…)',
  matricula_pais: 'País de la matrícula (si no es española: FR, PT, DE…)',
  remolque_pais: 'País de la matrícula del remolque (si no es española)',
  tipo_vehiculo: 'Tipo de vehículo',
  ref_externa: 'Referencia externa',
  emisor_rol: 'Lado de quien emite',
  envios: 'Envíos',
  origen: 'Origen',
  destino: 'Destino',
  naturaleza: 'Mercancía (naturaleza)',
  peso: 'Peso o cantidad',
  unidad: 'Unidad',
  nota: 'Nota',
  destinatario_nombre: 'Destinatario (opcional)',
  destinatario_nif: 'NIF del destinatario (opcional)',
};

/**
 * The order of the simple fields on the form: the eFTI extensions (not
 * printed, optional) right after what they complete, the address's parts
 * after the address, a plate's country after the plate.
 */
const ORDEN_FORMULARIO: readonly string[] = [
  'cargador_nombre',
  'cargador_nif',
  'cargador_domicilio',
  'cargador_cp',
  'cargador_municipio',
  'cargador_provincia',
  'cargador_pais',
  'transp_nombre',
  'transp_nif',
  'transp_domicilio',
  'transp_cp',
  'transp_municipio',
  'transp_provincia',
  'transp_pais',
  'fecha_transporte',
  'matricula',
  'matricula_pais',
  'matricula_remolque',
  'remolque_pais',
];
const posicion = (c: string) => {
  const i = ORDEN_FORMULARIO.indexOf(c);
  return i === -1 ? ORDEN_FORMULARIO.length : i;
};

const OBLIGATORIOS = new Set(['cargador_nombre', 'cargador_nif', 'cargador_domicilio', 'transp_nombre', 'transp_nif', 'fecha_transporte', 'matricula', 'origen', 'destino', 'naturaleza', 'peso']);

/** A field with its error, or else its warning (the shared warnings of the app's form), right under it. */
function input(name: string, etiqueta: string, valor: string, error: string | undefined, opts: { type?: string; required?: boolean; multiline?: boolean; aviso?: string } = {}): SafeHtml {
  const id = `f-${name.replace(/[^\w]/g, '_')}`;
  const aviso = error ? undefined : opts.aviso;
  const nota = error ? html`<span class="err" id="${id}-e">${error}</span>` : aviso ? html`<span class="aviso-campo" id="${id}-a" data-aviso="${name}">⚠ ${aviso}</span>` : '';
  const describe = error ? html` aria-invalid="true" aria-describedby="${id}-e"` : aviso ? html` aria-describedby="${id}-a"` : '';
  const control = opts.multiline
    ? html`<textarea id="${id}" name="${name}" rows="3"${describe}>${valor}</textarea>`
    : html`<input id="${id}" name="${name}" type="${opts.type ?? 'text'}" value="${valor}"${opts.required ? html` data-obligatorio="1"` : ''}${describe}>`;
  return html`<label for="${id}">${etiqueta}${opts.required ? ' *' : ''}</label>${control}${nota}`;
}

/** The first warning of each field path. */
function avisosPorCampo(avisos: readonly Aviso[]): Record<string, string> {
  const por: Record<string, string> = {};
  for (const a of avisos) if (a.campo && !(a.campo in por)) por[a.campo] = a.mensaje;
  return por;
}

function envioFieldset(i: number, valores: Record<string, string>, errores: Campos, avisos: Record<string, string>): SafeHtml {
  const k = (c: string) => `envios[${i}].${c}`;
  const unidad = valores[k('unidad')] || 'kg';
  return html`<fieldset><legend>Envío ${i + 1}</legend>
${input(k('origen'), ETIQUETAS.origen ?? '', valores[k('origen')] ?? '', errores[k('origen')], { required: true })}
${input(k('destino'), ETIQUETAS.destino ?? '', valores[k('destino')] ?? '', errores[k('destino')], { required: true })}
${input(k('naturaleza'), ETIQUETAS.naturaleza ?? '', valores[k('naturaleza')] ?? '', errores[k('naturaleza')], { required: true })}
<div class="row"><div>${input(k('peso'), ETIQUETAS.peso ?? '', valores[k('peso')] ?? '', errores[k('peso')], { required: true, aviso: avisos[k('peso')] })}</div>
<div><label for="f-u${i}">${ETIQUETAS.unidad}</label><select id="f-u${i}" name="${k('unidad')}">${UNIDADES.map((u) => html`<option${u === unidad ? ' selected' : ''}>${u}</option>`)}</select>${errores[k('unidad')] ? html`<span class="err">${errores[k('unidad')]}</span>` : ''}</div></div>
${input(k('nota'), ETIQUETAS.nota ?? '', valores[k('nota')] ?? '', errores[k('nota')])}
<div class="row"><div>${input(k('destinatario_nombre'), ETIQUETAS.destinatario_nombre ?? '', valores[k('destinatario_nombre')] ?? '', errores[k('destinatario_nombre')])}</div>
<div>${input(k('destinatario_nif'), ETIQUETAS.destinatario_nif ?? '', valores[k('destinatario_nif')] ?? '', errores[k('destinatario_nif')], { aviso: avisos[k('destinatario_nif')] })}</div></div></fieldset>`;
}

/**
 * What a link-following robot sees: a page with a button. Nothing is
 * consumed or changed until a person presses it (a POST).
 */
export function renderCompletarInicio(p: { deca: DecaPublica; solicitante: string; lado: Rol }, action: string): string {
  const { deca: row, solicitante, lado } = p;
  return layout({
    title: `Completar la DeCA ${row.numero}`,
    style: FORM_STYLE,
    body: html`<main><h1>Completar la DeCA ${row.numero}</h1>
<p>${solicitante} le pide que complete los datos del <b>${lado}</b> en este documento de control del transporte (Orden FOM/2861/2012). No necesita registrarse.</p>
<form method="post" action="${action}"><input type="hidden" name="accion" value="abrir"><button class="btn" type="submit">Continuar</button></form>
<footer>Si no esperaba este mensaje, puede ignorarlo.<br>${ENLACE_PRIVACIDAD}</footer></main>`,
  });
}

/** The form as the command left it, and where it posts to. */
export type FormularioCompletar = CompletarVista & { action: string };

/** The form with only the other party's fields editable; the rest of the DeCA shown read-only. */
export function renderCompletarFormulario(f: FormularioCompletar): string {
  const editables = f.editables;
  const errores = Object.entries(f.errores);
  const filas = f.filas;
  const simples = editables
    .filter((c): c is Exclude<CampoDatos, 'envios' | 'tipo_vehiculo'> => c !== 'envios' && c !== 'tipo_vehiculo')
    .map((c, i) => [c, i] as const)
    .sort(([a, i], [b, j]) => posicion(a) - posicion(b) || i - j)
    .map(([c]) => c);
  const etiqueta = (c: string) => ETIQUETAS[c] ?? c;
  const avisos = avisosPorCampo(f.avisos);
  const rechazados = f.rechazados ?? [];
  return layout({
    title: `Completar la DeCA ${f.deca.numero}`,
    style: FORM_STYLE,
    script: COMPLETAR_SCRIPT,
    body: html`<main><h1>Completar la DeCA ${f.deca.numero}</h1>
<p>Datos que le pide ${f.solicitante}. Los marcados con * son obligatorios para emitir el documento.</p>
${f.aviso ? html`<p class="banner info" role="status">${f.aviso}</p>` : ''}
${rechazados.length ? html`<div class="errs" role="alert" data-rechazados><b>No se ha guardado ni emitido nada.</b> Este enlace sirve para completar sus datos; estos no se pueden cambiar desde aquí (son de ${f.solicitante} o del propio documento): ${rechazados.map((c) => etiquetaRuta(c, etiqueta)).join(', ')}.</div>` : ''}
${f.confirmar ? html`<div class="avisos" role="alert"><b>Antes de emitir, revise ${f.avisos.length === 1 ? 'este dato' : `estos ${f.avisos.length} datos`}:</b><ul>${f.avisos.map((a) => html`<li>${a.campo ? etiquetaRuta(a.campo, etiqueta) : 'Aviso'}: ${a.mensaje}</li>`)}</ul>Si son correctos, pulse «Emitir de todos modos»; si no, corríjalos y vuelva a pulsarlo.</div>` : ''}
${errores.length ? html`<div class="errs" role="alert"><b>Revise ${errores.length === 1 ? 'este dato' : `estos ${errores.length} datos`}:</b><ul>${errores.map(([campo, msg]) => html`<li>${etiquetaRuta(campo, etiqueta)}: ${msg}</li>`)}</ul></div>` : ''}
<form method="post" action="${f.action}" novalidate id="completar">
${simples.map((c) =>
  input(c, etiqueta(c), f.valores[c] ?? '', f.errores[c], {
    required: OBLIGATORIOS.has(c),
    type: c === 'fecha_transporte' ? 'date' : c === 'conductor_tel' ? 'tel' : 'text',
    multiline: c === 'observaciones',
    aviso: avisos[c],
  }),
)}
${editables.includes('envios') ? html`<h2>Envíos</h2>${f.errores.envios ? html`<p class="err">${f.errores.envios}</p>` : ''}${Array.from({ length: filas }, (_, i) => envioFieldset(i, f.valores, f.errores, avisos))}<button class="btn sec" type="submit" name="accion" value="mas">Añadir otro envío</button>` : ''}
${f.confirmar ? html`<input type="hidden" name="avisos_confirmados" value="${f.confirmar}">` : ''}
<button class="btn" type="submit" name="accion" value="enviar">${f.confirmar ? 'Emitir de todos modos' : 'Emitir la DeCA'}</button>
<button class="btn sec" type="submit" name="accion" value="guardar">Guardar y seguir más tarde</button>
</form>
<h2>Resto del documento (no editable)</h2><div class="ro">${datosHtml(f.deca)}</div></main>`,
  });
}

function etiquetaRuta(campo: string, etiqueta: (c: string) => string): string {
  const m = /^envios\[(\d+)\]\.(\w+)$/.exec(campo);
  return m ? `Envío ${Number(m[1]) + 1}, ${etiqueta(m[2] ?? '').toLowerCase()}` : etiqueta(campo);
}

/**
 * Progressive enhancement for the completion form (served as a file: the CSP
 * allows no inline script): marks empty required fields as you go and keeps
 * a draft on the server, so a half-filled form survives leaving the page.
 */
export const COMPLETAR_JS = `(function(){
var f=document.getElementById('completar');if(!f||!window.fetch)return;
var t=null;
function marca(el){if(!el.dataset||!el.dataset.obligatorio)return;var vacio=!el.value.trim();el.setAttribute('aria-invalid',vacio?'true':'false');}
function guarda(){var d=new URLSearchParams(new FormData(f));d.set('accion','guardar');d.set('ajax','1');fetch(f.action,{method:'POST',body:d,credentials:'omit'}).catch(function(){});}
f.addEventListener('input',function(e){marca(e.target);clearTimeout(t);t=setTimeout(guarda,800);});
f.addEventListener('change',function(e){marca(e.target);});
})();`;
