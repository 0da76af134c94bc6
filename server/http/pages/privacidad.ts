import { CONSERVACION_DECA_TEXTO, DIAS_EXPORTACION, DIAS_FOTO_SIN_DECA, DIAS_IP_COMPLETA, RUTA_PRIVACIDAD } from '../../../shared/rules/privacidad';
import { html, layout, type SafeHtml } from './html';
import { PUBLIC_STYLE } from './styles';

export { RUTA_PRIVACIDAD };

/** The link every public page's footer carries to this page. */
export const ENLACE_PRIVACIDAD: SafeHtml = html`<a href="${RUTA_PRIVACIDAD}">Privacidad: qué datos se guardan y cuánto tiempo</a>`;

const plazo = (que: string, cuanto: SafeHtml | string): SafeHtml => html`<dt>${que}</dt><dd>${cuanto}</dd>`;

/**
 * /privacidad: what personal data the service keeps, why, for how long, and
 * how an account is closed and its data taken away — in plain Spanish, the
 * same figures the code applies (shared/rules/privacidad.ts). Static: no
 * database, no JavaScript.
 */
export function renderPrivacidad(): string {
  return layout({
    title: 'Privacidad · DeCA',
    style: PUBLIC_STYLE,
    body: html`<main><h1>Privacidad</h1>
<p class="sub">Qué datos personales guarda este servicio de documentos de control (DeCA), para qué y durante cuánto tiempo, y cómo cerrar una cuenta llevándose sus datos.</p>

<h2>Qué datos guardamos</h2>
<ul>
<li><b>En cada DeCA</b>, los que pide el art. 6 de la Orden FOM/2861/2012 y los que la empresa añade: nombre, NIF (o DNI/NIE, si es una persona) y domicilio del cargador y del transportista; origen y destino; matrículas; nombre y teléfono del conductor (el teléfono nunca sale en la ficha pública); mercancía, observaciones y referencias. Con ella, cada versión emitida en PDF y su historial: qué cambió, cuándo y quién (el correo del usuario o el prefijo de la clave de API).</li>
<li><b>De cada usuario</b>: su correo, su función y, si es conductor, sus matrículas. La contraseña nunca: solo una huella (scrypt) con la que comprobarla. De cada sesión y de cada clave de API, también solo una huella.</li>
<li><b>Registro público de descargas</b>: fecha, dirección IP y navegador de cada apertura de la ficha o del PDF de una DeCA desde su enlace o su QR.</li>
<li><b>Correo enviado</b>: destinatario, asunto y texto de cada mensaje (pedir datos a la otra parte, enviar una DeCA, confirmar el correo, invitaciones, restablecer la contraseña).</li>
<li><b>Agenda</b>: las empresas, vehículos (con su conductor y teléfono) y lugares que la cuenta usa en sus DeCA.</li>
<li><b>Webhooks</b>: la dirección que recibe los avisos y cada entrega. <b>Dispositivos</b>: el nombre y la clave pública de cada teléfono que emite sin cobertura.</li>
<li>Las fotos de albaranes se leen en el servidor y no se guardan.</li>
</ul>

<h2>Para qué</h2>
<ul>
<li>La Orden FOM/2861/2012 (art. 6) exige un documento de control con esos datos en cada transporte, que viaje con el vehículo y se enseñe a los agentes en una inspección: por eso la ficha del QR se abre sin cuenta y cada DeCA emitida se conserva.</li>
<li>El registro de descargas sirve para decir al transportista quién abrió su documento y cuándo (por ejemplo, un agente en un control) y para frenar abusos.</li>
<li>Los datos de los usuarios sirven para entrar y para saber quién hizo cada cambio; el correo guardado, para reintentar un envío y no perder ninguno.</li>
</ul>

<h2>Cuánto tiempo</h2>
<dl>
${plazo('DeCA emitidas, sus versiones y su historial', `${CONSERVACION_DECA_TEXTO[0]!.toUpperCase()}${CONSERVACION_DECA_TEXTO.slice(1)}, el plazo del servicio. No se pueden borrar antes, tampoco al cerrar la cuenta: sus enlaces públicos siguen funcionando para las inspecciones. Después se borran por meses enteros, con sus PDF, su historial y su registro de descargas: las creadas en un mes, cuando han pasado ${CONSERVACION_DECA_TEXTO} y un mes más desde que ese mes terminó (o más tarde, si alguna se emitió o cambió después).`)}
${plazo('DeCA pendientes y entorno de pruebas', 'Hasta que la empresa las borra; al cerrar la cuenta se borran (las de pruebas no tienen validez).')}
${plazo('Fotos de albaranes', `La que se convierte en una DeCA se guarda con ella y se borra con ella; solo la ven los usuarios y las claves de la cuenta, nunca la ficha pública. La que no, ${DIAS_FOTO_SIN_DECA} días desde que se leyó (al momento si se borra su DeCA pendiente o se cierra la cuenta).`)}
${plazo('IP del registro de descargas', `${DIAS_IP_COMPLETA} días entera; después solo se guarda su red (en IPv4, los tres primeros números: 203.0.113.0; en IPv6, los tres primeros grupos). La fecha y el navegador se quedan con la DeCA.`)}
${plazo('Sesiones', '30 días desde el último uso; terminan al momento al cerrar sesión, al cambiar la contraseña o al cerrar la cuenta.')}
${plazo('Enlaces de un solo uso', 'Restablecer la contraseña, 30 minutos; invitaciones, 7 días.')}
${plazo('Avisos de webhooks y claves de idempotencia', 'Las entregas y los eventos, por semanas: cada semana se borra entera 30 días después de terminar; las claves de idempotencia, 8 días.')}
${plazo('Correo enviado', `Como las DeCA: ${CONSERVACION_DECA_TEXTO} y un mes más desde que terminó el mes en que se envió; entonces se borra con las DeCA de ese mes. Al cerrar la cuenta, al momento.`)}
${plazo('Datos de la cuenta', 'Empresa, usuarios, claves, webhooks y agenda: mientras la cuenta esté abierta. Al cerrarla se borran, salvo el correo de cada usuario, que identifica quién hizo cada DeCA y se conserva con ellas.')}
${plazo('Archivo con los datos de una cuenta cerrada', `${DIAS_EXPORTACION} días, o hasta que se descarga entero; después se borra.`)}
</dl>

<h2>Cerrar la cuenta y llevarse los datos</h2>
<p>Un administrador de la cuenta, en la aplicación: <b>Cuenta › Cerrar la cuenta</b>, con su contraseña y el NIF de la empresa para confirmar. Antes de borrar nada se prepara un archivo ZIP con todas las DeCA en CSV (con las columnas de la importación, para llevarlas a otro programa), cada PDF emitido tal como se emitió, y los datos de la cuenta en JSON (empresa, usuarios, nombres de las claves de API sin su secreto, webhooks y agenda). Se envía al administrador un enlace que sirve para una sola descarga completa durante ${DIAS_EXPORTACION} días.</p>
<p>En ese mismo momento se revocan todas las claves de API, se cierran todas las sesiones y dispositivos, y se borra lo que la ley no obliga a conservar. Nadie puede volver a entrar en la cuenta ni usar sus claves. Las DeCA emitidas se conservan ${CONSERVACION_DECA_TEXTO}, como se dice arriba.</p>
<p>Sin cerrar la cuenta, la lista de DeCA se descarga en CSV (en la API, <code>GET /decas.csv</code>) y el PDF de cada una desde su ficha.</p>
<p>Si su nombre o su teléfono figuran en la DeCA de otra empresa (por ejemplo, como conductor), es esa empresa quien escribió esos datos: a ella puede pedirle que los corrija.</p>
<footer>Documento de control del transporte de mercancías por carretera, Orden FOM/2861/2012, art. 6.</footer></main>`,
  });
}
