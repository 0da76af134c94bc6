import { sql, type Transaction } from 'kysely';
import { escapeHtml } from '../../../shared/rules/html';
import { formatPeso } from '../../../shared/rules/peso';
import { notificar } from '../../db/notify';
import type { AccountRow, AdjuntoPdf, CorreosTable, DB } from '../../db/schema';
import type { DecaConRefs } from '../decas/queries';
import { decaUrls } from '../decas/urls';

type Scope = { accountId: number; entorno: 'produccion' | 'pruebas' };

export interface Mensaje {
  asunto: string;
  texto: string;
  html: string;
}

/**
 * Queue a message in the mail outbox, in the transaction of the action that
 * sends it: if the action commits the mail exists, and the worker sends it.
 */
export async function enqueueCorreo(
  trx: Transaction<DB>,
  scope: Scope,
  m: Mensaje & { tipo: CorreosTable['tipo']; decaId: number | null; destinatario: string; adjuntos?: AdjuntoPdf[] },
  now: Date,
): Promise<number> {
  const row = await trx
    .insertInto('correos')
    .values({
      account_id: scope.accountId,
      entorno: scope.entorno,
      deca_id: m.decaId,
      tipo: m.tipo,
      destinatario: m.destinatario,
      asunto: m.asunto,
      texto: m.texto,
      html: m.html,
      adjuntos: JSON.stringify(m.adjuntos ?? []),
      created_at: now,
      proximo_intento_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await notificar(trx, 'correos');
  return row.id;
}

/**
 * Queue a message to the user with this e-mail, if there is one (and their
 * account is not closed): one INSERT … SELECT that writes one row or none. The same statements run either way, so
 * neither the answer nor its time tells whether the address has a user.
 */
export async function enqueueCorreoSiHayUsuario(trx: Transaction<DB>, email: string, m: Mensaje & { tipo: CorreosTable['tipo'] }, now: Date): Promise<void> {
  await trx
    .insertInto('correos')
    .columns(['account_id', 'entorno', 'deca_id', 'tipo', 'destinatario', 'asunto', 'texto', 'html', 'adjuntos', 'created_at', 'proximo_intento_at'])
    .expression(
      trx
        .selectFrom('users')
        .select([
          'account_id',
          sql<string>`'produccion'`.as('entorno'),
          sql<null>`null::bigint`.as('deca_id'),
          sql<string>`${m.tipo}::text`.as('tipo'),
          'email',
          sql<string>`${m.asunto}::text`.as('asunto'),
          sql<string>`${m.texto}::text`.as('texto'),
          sql<string>`${m.html}::text`.as('html'),
          sql<string>`'[]'::jsonb`.as('adjuntos'),
          sql<Date>`${now.toISOString()}::timestamptz`.as('created_at'),
          sql<Date>`${now.toISOString()}::timestamptz`.as('proximo_intento_at'),
        ])
        .where('email', '=', email)
        .where('account_id', 'not in', (eb) => eb.selectFrom('accounts').select('id').where('cerrada_at', 'is not', null)),
    )
    .execute();
  await notificar(trx, 'correos');
}

function resumen(row: DecaConRefs): string {
  const e = row.envios[0];
  const ruta = e ? `${e.origen ?? '¿?'} → ${e.destino ?? '¿?'}` : '';
  const fecha = row.fecha_transporte ? row.fecha_transporte.split('-').reverse().join('/') : '';
  return [fecha && `transporte del ${fecha}`, row.matricula, ruta].filter(Boolean).join(', ');
}

function htmlMensaje(parrafos: string[], boton: { texto: string; url: string }, pie: string): string {
  const p = parrafos.map((t) => `<p style="margin:0 0 14px">${escapeHtml(t)}</p>`).join('');
  return `<!doctype html><html lang="es"><body style="font-family:Arial,sans-serif;font-size:16px;color:#111;max-width:36rem">${p}<p style="margin:18px 0"><a href="${escapeHtml(boton.url)}" style="background:#0b3b8c;color:#fff;padding:12px 18px;text-decoration:none;font-weight:bold;display:inline-block">${escapeHtml(boton.texto)}</a></p><p style="font-size:13px;color:#444">${escapeHtml(pie)}</p></body></html>`;
}

const PIE = 'Mensaje enviado por DeCA: documentos de control del transporte (Orden FOM/2861/2012).';

/** The e-mail asking the other party to complete its data through the link (no account needed). */
export function mensajePedirDatos(account: AccountRow, row: DecaConRefs, completarUrl: string): Mensaje {
  const asunto = `${account.nombre} le pide completar la DeCA ${row.numero}`;
  const parrafos = [
    'Buenos días:',
    `${account.nombre} ha preparado el documento de control (DeCA) ${row.numero}${resumen(row) ? ` (${resumen(row)})` : ''} y necesita que complete sus datos para emitirlo.`,
    'No hace falta registrarse: abra el enlace, revise lo que ya está rellenado y complete lo que falta.',
  ];
  return {
    asunto,
    texto: `${parrafos.join('\n\n')}\n\nCompletar la DeCA: ${completarUrl}\n\n-- \n${PIE}\n`,
    html: htmlMensaje(parrafos, { texto: 'Completar la DeCA', url: completarUrl }, PIE),
  };
}

/** The e-mail sending an issued DeCA (PDF attached) with the link to the driver's page. */
export function mensajeEnviarDeca(account: AccountRow, row: DecaConRefs, siteUrl: string): Mensaje {
  const urls = decaUrls(siteUrl, row);
  const envios = row.envios.slice(0, 5).map((e) => `${e.origen} → ${e.destino}: ${e.naturaleza}, ${e.peso === null ? '' : `${formatPeso(e.peso)} ${e.unidad}`}`);
  const parrafos = [
    'Buenos días:',
    `${account.nombre} le envía el documento de control (DeCA) ${row.numero}, versión ${row.version}${resumen(row) ? ` (${resumen(row)})` : ''}. Va adjunto en PDF.`,
    ...envios,
    'Durante el transporte puede enseñarlo desde el móvil con el enlace del conductor: muestra el código QR y los datos, también guardado en la pantalla de inicio.',
  ];
  return {
    asunto: `DeCA ${row.numero} de ${account.nombre}`,
    texto: `${parrafos.join('\n\n')}\n\nEnlace del conductor: ${urls.conductor}\nPDF: ${urls.pdf}\n\n-- \n${PIE}\n`,
    html: htmlMensaje(parrafos, { texto: 'Abrir la DeCA (conductor)', url: urls.conductor }, PIE),
  };
}

/** A delivery's receipt, to the shipper: delivered (or refused) when and to whom, the receipt attached. */
export function mensajeJustificante(
  account: AccountRow,
  row: DecaConRefs,
  siteUrl: string,
  e: { n: number; envio: number | null; resultado: 'entregada' | 'rechazada'; receptor_nombre: string | null; registrada_at: string; motivo_rechazo: string | null },
): Mensaje {
  const envio = e.envio === null ? '' : row.envios.length > 1 ? ` (envío ${e.envio + 1}: ${row.envios[e.envio]?.origen ?? ''} → ${row.envios[e.envio]?.destino ?? ''})` : '';
  const cuando = `${e.registrada_at.slice(8, 10)}/${e.registrada_at.slice(5, 7)}/${e.registrada_at.slice(0, 4)} a las ${e.registrada_at.slice(11, 16)}`;
  const que =
    e.resultado === 'entregada'
      ? `La mercancía de la DeCA ${row.numero}${envio} se entregó el ${cuando}${e.receptor_nombre ? `; la recibió ${e.receptor_nombre}` : ''}.`
      : `La entrega de la mercancía de la DeCA ${row.numero}${envio} se RECHAZÓ el ${cuando}. Motivo: ${e.motivo_rechazo ?? ''}`;
  const parrafos = ['Buenos días:', `${account.nombre} le informa: ${que}`, 'Va adjunto el justificante de entrega en PDF, sellado por el servicio; su código QR lleva a la página que lo confirma.'];
  const ficha = decaUrls(siteUrl, row).ficha;
  return {
    asunto: `${e.resultado === 'entregada' ? 'Entrega' : 'Entrega rechazada'}: DeCA ${row.numero} de ${account.nombre}`,
    texto: `${parrafos.join('\n\n')}\n\n-- \n${PIE}\n`,
    html: htmlMensaje(parrafos, { texto: 'Ver la DeCA', url: ficha }, PIE),
  };
}

/** The e-mail that confirms a new account's address (sign-up): until then live use is limited. */
export function mensajeConfirmacion(account: AccountRow, url: string): Mensaje {
  const parrafos = [
    'Buenos días:',
    `Se ha abierto en DeCA la cuenta de ${account.nombre} con este correo. Confírmelo con el enlace para emitir DeCA reales sin límite y crear claves de API de producción.`,
    'Si no ha sido usted, no haga nada: sin confirmar, la cuenta no puede emitir más que unas pocas DeCA.',
  ];
  return {
    asunto: `Confirme su correo en DeCA (${account.nombre})`,
    texto: `${parrafos.join('\n\n')}\n\nConfirmar el correo: ${url}\n\n-- \n${PIE}\n`,
    html: htmlMensaje(parrafos, { texto: 'Confirmar el correo', url }, PIE),
  };
}

/**
 * A password reset link. It names no company: the same message is built
 * whether or not the address has a user (and then sent only if it has).
 */
export function mensajeRestablecer(url: string, minutos: number): Mensaje {
  const parrafos = [
    'Buenos días:',
    `Se ha pedido restablecer la contraseña de DeCA de este correo. Abra el enlace para elegir una nueva: sirve una sola vez y durante ${minutos} minutos.`,
    'Al cambiarla se cierran las sesiones abiertas en otros dispositivos. Si no lo ha pedido usted, no haga nada: su contraseña sigue siendo la misma.',
  ];
  return {
    asunto: 'Restablecer su contraseña de DeCA',
    texto: `${parrafos.join('\n\n')}\n\nElegir una contraseña nueva: ${url}\n\n-- \n${PIE}\n`,
    html: htmlMensaje(parrafos, { texto: 'Elegir una contraseña nueva', url }, PIE),
  };
}

/** An administrator's invitation to join the account with a role. */
export function mensajeInvitacion(account: AccountRow, invita: string, rol: string, url: string, caduca: string): Mensaje {
  const parrafos = [
    'Buenos días:',
    `${invita} le invita a usar DeCA en ${account.nombre} como ${rol}: documentos de control del transporte, también sin cobertura.`,
    `Abra el enlace para elegir su contraseña y entrar. Caduca el ${caduca}; si no esperaba esta invitación, no haga nada.`,
  ];
  return {
    asunto: `Invitación a DeCA de ${account.nombre}`,
    texto: `${parrafos.join('\n\n')}\n\nAceptar la invitación: ${url}\n\n-- \n${PIE}\n`,
    html: htmlMensaje(parrafos, { texto: 'Aceptar la invitación', url }, PIE),
  };
}

/**
 * The link to a closed account's data (the ZIP made before closing it): valid
 * for a few days and for one whole download. Says what was deleted and what
 * is kept, and until when.
 */
export function mensajeExportacion(account: AccountRow, url: string, o: { caduca: string; megas: string; decas: number; conservacion: string }): Mensaje {
  const parrafos = [
    'Buenos días:',
    `La cuenta de ${account.nombre} en DeCA se ha cerrado. Sus datos le esperan en un archivo ZIP (${o.megas}): todas sus DeCA en CSV, cada PDF emitido y los datos de la cuenta (empresa, usuarios, nombres de las claves de API, webhooks, agenda) en JSON.`,
    `El enlace sirve para una sola descarga completa y caduca el ${o.caduca}; después, el archivo se borra. Guárdelo en un lugar seguro: lleva datos personales (nombres y teléfonos de conductores, direcciones de correo).`,
    `Se han borrado los usuarios (salvo su correo, que identifica quién hizo cada DeCA), las claves de API, las sesiones, los dispositivos, los webhooks, la agenda, los borradores y el correo guardado. Las ${o.decas} DeCA emitidas, sus versiones y su historial se conservan ${o.conservacion}, como exige la Orden FOM/2861/2012, y sus enlaces públicos siguen funcionando para las inspecciones.`,
  ];
  return {
    asunto: `Sus datos de DeCA (${account.nombre}): la cuenta está cerrada`,
    texto: `${parrafos.join('\n\n')}\n\nDescargar los datos: ${url}\n\n-- \n${PIE}\n`,
    html: htmlMensaje(parrafos, { texto: 'Descargar los datos', url }, PIE),
  };
}

/** The short text for the driver's messaging app, and its WhatsApp link. */
export function textoConductor(account: AccountRow, row: DecaConRefs, siteUrl: string): { texto: string; whatsapp_url: string } {
  const urls = decaUrls(siteUrl, row);
  const texto = `DeCA ${row.numero} de ${account.nombre}${resumen(row) ? ` (${resumen(row)})` : ''}. Ábrela aquí para enseñarla en un control: ${urls.conductor}`;
  return { texto, whatsapp_url: `https://wa.me/?text=${encodeURIComponent(texto)}` };
}
