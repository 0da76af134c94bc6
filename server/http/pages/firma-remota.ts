import type { Aviso, Campos } from '../../../shared/errors';
import type { Entrega } from '../../../shared/schemas/entrega';
import { LONGITUD_ENTREGA } from '../../../shared/schemas/entrega';
import type { ValoresFirmaRemota, VistaFirmaRemota } from '../../../shared/schemas/publico';
import { html, layout, type SafeHtml } from './html';
import { ENLACE_PRIVACIDAD } from './privacidad';
import { FIRMA_STYLE } from './styles';

export const FIRMA_SCRIPT = '/p/firma.js';

const ETIQUETAS: Record<string, string> = {
  resultado: '¿Acepta la mercancía?',
  receptor_nombre: 'Su nombre',
  receptor_documento: 'DNI o NIE',
  firma: 'Firma',
  reservas: 'Reservas',
  sin_reservas: 'Sin reservas',
  motivo_rechazo: 'Motivo del rechazo',
};

const hora = (madrid: string) => madrid.slice(11, 16);

function envios(v: VistaFirmaRemota): SafeHtml {
  return html`${v.envios.map(
    (e) =>
      html`<div class="envio"><p class="carga">${e.naturaleza ?? '—'}${e.cantidad ? html` · <span class="peso">${e.cantidad}</span>` : ''}</p><p>${e.origen ?? '—'} → <b>${e.destino ?? '—'}</b></p></div>`,
  )}`;
}

function campoTexto(
  name: keyof ValoresFirmaRemota,
  etiqueta: string,
  valores: ValoresFirmaRemota,
  errores: Campos,
  opts: { max: number; multilinea?: boolean; ayuda?: string; extra?: SafeHtml },
): SafeHtml {
  const id = `f-${name}`;
  const error = errores[name];
  const describe = error ? html` aria-invalid="true" aria-describedby="${id}-e"` : '';
  const control = opts.multilinea
    ? html`<textarea id="${id}" name="${name}" rows="3" maxlength="${opts.max}"${describe}>${valores[name] ?? ''}</textarea>`
    : html`<input id="${id}" name="${name}" value="${valores[name] ?? ''}" maxlength="${opts.max}" autocomplete="off"${opts.extra ?? ''}${describe}>`;
  return html`<label for="${id}">${etiqueta}</label>${opts.ayuda ? html`<span class="sub">${opts.ayuda}</span>` : ''}${control}${error ? html`<span class="err" id="${id}-e">${error}</span>` : ''}`;
}

/**
 * The consignee's form on their own phone. Everything but the signature
 * works without JavaScript (a refusal needs no signature); the pad needs it,
 * and says so when it is off. The choices that do not apply to the answer
 * chosen are hidden by the script, and ignored by the server anyway.
 */
export function renderFirmaRemota(v: VistaFirmaRemota, opts: { action: string; valores?: ValoresFirmaRemota; errores?: Campos }): string {
  const valores = opts.valores ?? {};
  const errores = opts.errores ?? {};
  const lista = Object.entries(errores);
  const rechaza = valores.resultado === 'rechazada';
  const sinReservas = valores.sin_reservas !== undefined && valores.sin_reservas !== '';
  return layout({
    title: `Firmar la entrega · DeCA ${v.numero}`,
    style: FIRMA_STYLE,
    script: FIRMA_SCRIPT,
    body: html`<main><h1>Firmar la entrega</h1>
<p class="num">DeCA ${v.numero}</p>
<p class="sub">${v.transp_nombre ?? 'El transportista'} le entrega${v.todos ? '' : ' este envío'}${v.cargador_nombre ? html` de <b>${v.cargador_nombre}</b>` : ''}${v.matricula ? html` (vehículo <span dir="ltr">${v.matricula}</span>${v.conductor_nombre ? html`, conductor ${v.conductor_nombre}` : ''})` : ''}:</p>
${envios(v)}
<p class="banner info" role="status">Este enlace vale hasta las ${hora(v.expira_at)} (${v.minutos_restantes === 1 ? 'queda 1 minuto' : `quedan ${v.minutos_restantes} minutos`}) y para una sola firma. No necesita registrarse.</p>
${lista.length ? html`<div class="errs" role="alert"><b>Revise ${lista.length === 1 ? 'esto' : 'estos datos'}:</b><ul>${lista.map(([c, m]) => html`<li>${ETIQUETAS[c] ?? c}: ${m}</li>`)}</ul></div>` : ''}
<form method="post" action="${opts.action}" novalidate id="firmar">
<fieldset class="eleccion"><legend>${ETIQUETAS.resultado}</legend>
<label><input type="radio" name="resultado" value="entregada"${rechaza ? '' : ' checked'}> Sí, la recibo</label>
<label><input type="radio" name="resultado" value="rechazada"${rechaza ? ' checked' : ''}> No, la rechazo</label></fieldset>
${campoTexto('receptor_nombre', ETIQUETAS.receptor_nombre!, valores, errores, { max: LONGITUD_ENTREGA.receptor_nombre, extra: html` autocapitalize="words"` })}
${campoTexto('receptor_documento', 'DNI o NIE (si quiere darlo)', valores, errores, { max: LONGITUD_ENTREGA.receptor_documento, extra: html` autocapitalize="characters"` })}
<div id="bloque-firma"><label id="etiqueta-firma">Su firma</label>
<p data-sin-js class="aviso-campo">Para firmar con el dedo hace falta JavaScript, que está desactivado en este navegador. Actívelo y vuelva a abrir el enlace; sin firma solo puede rechazar la entrega.</p>
<div data-solo-con-js><span class="sub">Firme con el dedo dentro del recuadro.</span><div class="panel"><canvas id="panel-firma" role="img" aria-labelledby="etiqueta-firma"></canvas><div class="linea"></div></div>
<button class="btn sec" type="button" id="borrar-firma">Borrar la firma</button></div>
<input type="hidden" name="firma" id="firma" value="${valores.firma ?? ''}">
${errores.firma ? html`<span class="err" id="f-firma-e">${errores.firma}</span>` : ''}</div>
<div id="bloque-reservas"${rechaza ? html` class="oculto"` : ''}><label class="casilla"><input type="checkbox" name="sin_reservas" value="1" id="f-sin_reservas"${sinReservas ? ' checked' : ''}> Recibida conforme, sin reservas</label>
${campoTexto('reservas', 'Reservas (mercancía dañada, bultos que faltan…)', valores, errores, { max: LONGITUD_ENTREGA.reservas, multilinea: true, ayuda: 'Si no marca «sin reservas», escríbalas aquí.' })}</div>
<div id="bloque-rechazo"${rechaza ? '' : html` class="oculto"`}>${campoTexto('motivo_rechazo', 'Si la rechaza: ¿por qué?', valores, errores, { max: LONGITUD_ENTREGA.motivo_rechazo, multilinea: true })}</div>
<button class="btn" type="submit">Firmar y enviar</button>
</form>
<footer>El conductor ve su firma en su teléfono en cuanto la envía. Se guarda con el documento de control del transporte y en el justificante de entrega.<br>${ENLACE_PRIVACIDAD}</footer></main>`,
  });
}

/** After signing: thanks, what was recorded, and the warning on the document if any. */
export function renderFirmada(v: VistaFirmaRemota, entrega: Entrega, avisos: readonly Aviso[]): string {
  const entregada = entrega.resultado === 'entregada';
  return layout({
    title: entregada ? 'Entrega firmada' : 'Rechazo anotado',
    style: FIRMA_STYLE,
    body: html`<main><h1>DeCA ${v.numero}</h1>
<p class="banner ok" role="status">${entregada ? `Entrega firmada. Gracias, ${entrega.receptor_nombre ?? ''}.` : 'Rechazo anotado.'}</p>
<p>El conductor ya lo tiene en su teléfono${entregada ? ', con el justificante de entrega' : ''}. Puede cerrar esta página.</p>
${avisos.length ? html`<div class="avisos">${avisos.map((a) => html`<p>${a.mensaje}</p>`)}</div>` : ''}
<footer>${ENLACE_PRIVACIDAD}</footer></main>`,
  });
}

/**
 * The signature pad (served as a file: the CSP allows no inline script).
 * Points are kept in the pad's CSS pixels as the finger went; the server
 * normalises and thins them with the same rule as the driver's pad. Also
 * shows only the part of the form the answer chosen needs.
 */
export const FIRMA_JS = `(function(){
var d=document;d.documentElement.className+=' js';
var f=d.getElementById('firmar'),c=d.getElementById('panel-firma'),h=d.getElementById('firma');if(!f||!c||!h)return;
var g=c.getContext('2d'),trazos=[],actual=null;
function medir(){var r=c.getBoundingClientRect(),k=window.devicePixelRatio||1;c.width=Math.round(r.width*k);c.height=Math.round(r.height*k);g.setTransform(k,0,0,k,0,0);g.lineWidth=2.5;g.lineCap='round';g.lineJoin='round';g.strokeStyle='#000';pintar();}
function pintar(){var r=c.getBoundingClientRect();g.clearRect(0,0,r.width,r.height);trazos.forEach(function(t){g.beginPath();t.forEach(function(p,i){if(i)g.lineTo(p[0],p[1]);else g.moveTo(p[0],p[1]);});if(t.length===1)g.lineTo(t[0][0]+0.1,t[0][1]);g.stroke();});}
function guardar(){var r=c.getBoundingClientRect();h.value=trazos.length?JSON.stringify({w:Math.round(r.width),h:Math.round(r.height),t:trazos}):'';}
function punto(e){var r=c.getBoundingClientRect();return[Math.round((e.clientX-r.left)*10)/10,Math.round((e.clientY-r.top)*10)/10];}
c.addEventListener('pointerdown',function(e){e.preventDefault();if(c.setPointerCapture)try{c.setPointerCapture(e.pointerId);}catch(x){}actual=[punto(e)];trazos.push(actual);pintar();});
c.addEventListener('pointermove',function(e){if(!actual)return;e.preventDefault();actual.push(punto(e));pintar();});
function fin(){if(!actual)return;actual=null;guardar();}
c.addEventListener('pointerup',fin);c.addEventListener('pointercancel',fin);
d.getElementById('borrar-firma').addEventListener('click',function(){trazos=[];h.value='';pintar();});
window.addEventListener('resize',function(){var r=c.getBoundingClientRect();if(Math.round(r.width*(window.devicePixelRatio||1))!==c.width){trazos=[];h.value='';medir();}});
var rs=d.getElementById('bloque-reservas'),rc=d.getElementById('bloque-rechazo');
function eleccion(){var no=f.querySelector('input[name=resultado][value=rechazada]').checked;rs.className=no?'oculto':'';rc.className=no?'':'oculto';}
f.addEventListener('change',function(e){if(e.target.name==='resultado')eleccion();});
try{var previa=JSON.parse(h.value||'null');if(previa&&Math.abs(previa.w-c.getBoundingClientRect().width)<1&&Array.isArray(previa.t))trazos=previa.t;}catch(x){}if(!trazos.length)h.value='';medir();eleccion();
})();`;
