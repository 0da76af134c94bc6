import { useEffect, useState } from 'preact/hooks';
import { fechaEs, fechaHoraEs } from '../../shared/rules/fechas';
import type { Cambio, DatosPedidos, Deca, DecaEnviada, Descarga, DescargasList } from '../../shared/schemas/deca';
import { useEnLinea, useLiveQuery } from '../app/hooks';
import { navegar } from '../app/router';
import { type Contexto, contexto, permitido, sesionCaducada } from '../app/sesion';
import { useStore } from '../app/store';
import { useConfirmacion } from '../components/dialogo';
import { useDocumentos } from '../components/documentos';
import { imprimirPdf } from '../components/imprimir';
import { Insignias, nombreDeca, puedeMostrarse, rutaDeca, SinEmitir } from '../components/insignias';
import { GuardarParaElCamino } from '../components/instalar';
import { nombreCampo, valorLegible } from '../components/nombres';
import { pesoConUnidad } from '../components/peso-con-unidad';
import { ApiError, NetworkError } from '../data/api';
import { buscarLocal, cargarCambios, obtenerDocumentos, refrescarDeca } from '../data/consultas';
import { copiaGuardada, tieneCopia } from '../data/copia-camino';
import type { DecaLocal, EntradaOutbox } from '../data/db';
import { archivarDeca, descartar, eliminarDeca, emitirDeca, finalizarServicio, reintentar } from '../data/outbox';
import { EntregasDeDeca, useEntregas } from './deca-detail/entregas-deca';
import { FotoDeDeca } from './deca-detail/foto-deca';

const OPERACION: Record<EntradaOutbox['tipo'], string> = {
  crear: 'Crear la DeCA',
  modificar: 'Modificar',
  emitir: 'Emitir',
  sustituir: 'Sustituir',
  fin: 'Fin de servicio',
  archivar: 'Archivar / desarchivar',
  eliminar: 'Eliminar',
  control: 'Control en carretera',
  agenda: 'Guardar en la agenda',
  foto: 'Leer la foto de un albarán',
  entrega: 'Entrega firmada',
};
/** What a change still on this device is, in the words of «Pendiente de enviar: …». */
const PENDIENTE: Record<EntradaOutbox['tipo'], string> = {
  crear: 'nueva DeCA',
  modificar: 'cambios en los datos',
  emitir: 'emisión',
  sustituir: 'sustitución por otra DeCA',
  fin: 'fin de servicio',
  archivar: 'archivar o desarchivar',
  eliminar: 'eliminación',
  control: 'control en carretera',
  agenda: 'datos para la agenda',
  foto: 'lectura de la foto de un albarán',
  entrega: 'entrega firmada',
};
const TIPO_CAMBIO: Record<string, string> = {
  creacion: 'Creada',
  modificacion: 'Modificada',
  emision: 'Emitida',
  completado: 'Completada por la otra parte',
  sustitucion: 'Sustituida',
  fin_servicio: 'Fin de servicio',
  archivado: 'Archivada',
  desarchivado: 'Desarchivada',
  control: 'Control en carretera',
  entrega: 'Entrega',
};

function Documentos({ rec }: { rec: DecaLocal }) {
  const { urls, copia, error } = useDocumentos(rec);
  if (error) {
    return <p class="aviso">{error instanceof NetworkError ? 'Sin conexión y sin copia en este dispositivo: el PDF y el QR se guardan solos para las DeCA de ±7 días.' : (error as Error).message}</p>;
  }
  if (!urls || !copia) return <p aria-busy="true">Cargando QR y PDF…</p>;
  const aqui = copia.fuente === 'dispositivo';
  return (
    <div class="documentos">
      <img
        class="qr"
        src={urls.qr}
        alt={aqui ? `Código QR de la DeCA ${copia.numero}, firmado por este dispositivo` : `Código QR de la DeCA ${copia.numero}, versión ${copia.version}`}
        width={380}
        height={380}
        data-testid="qr"
        data-fuente={copia.fuente}
      />
      <p class="pista centrado">El inspector escanea este código para ver la ficha pública.</p>
      <div class="acciones">
        <a class="boton primario" href={urls.pdf} target="_blank" rel="noopener" data-testid="abrir-pdf">
          Abrir PDF
        </a>
        <a class="boton" href={urls.pdf} download={`DeCA-${copia.numero}-v${copia.version}.pdf`}>
          Descargar PDF
        </a>
        {!aqui && (
          <a class="boton" href={urls.qr} download={`DeCA-${copia.numero}-qr.png`}>
            Descargar QR
          </a>
        )}
      </div>
    </div>
  );
}

/**
 * A DeCA issued on this device with no coverage: until the server has it,
 * what its QR carries (the device's signed summary, which the inspector's
 * phone verifies); after, whether the server's PDF is the same (the server's
 * counts). The QR and PDF shown are Documentos': this device's copy until
 * the server's is stored here.
 */
function EmitidaAqui({ rec }: { rec: DecaLocal }) {
  const ctx = useStore(contexto)!;
  const e = useLiveQuery(async () => (await ctx.db.emitidas.get(rec.clave)) ?? null, [ctx.db, rec.clave]);
  if (!e) return null;
  const hora = fechaHoraEs(new Date(e.emitida_at));
  if (rec.deca) {
    return e.coincide === false ? (
      <p class="aviso error" role="alert" data-testid="pdf-distinto">
        El PDF que emitió el servidor no es idéntico al que se generó en este dispositivo sin cobertura: vale el del servidor, que es el que se muestra.
      </p>
    ) : (
      <p class="pista" data-testid="emitida-aqui">
        Emitida sin cobertura en este dispositivo ({hora}){e.coincide ? '; el PDF del servidor es idéntico al generado aquí.' : '.'}
      </p>
    );
  }
  return (
    <p class="aviso" data-testid="emitida-sin-cobertura">
      <strong>Emitida sin cobertura en este dispositivo</strong> ({hora}) con el número {e.numero}. El QR lleva los datos firmados por este dispositivo: el agente los comprueba con su móvil aunque
      este aún no tenga cobertura. El documento llegará al servidor al recuperarla.
    </p>
  );
}

function Historial({ rec }: { rec: DecaLocal }) {
  const ctx = useStore(contexto)!;
  const enLinea = useEnLinea();
  const [cambios, setCambios] = useState<Cambio[] | null>(rec.cambios ?? null);
  useEffect(() => {
    if (!enLinea || !rec.id) return;
    cargarCambios(ctx.api, ctx.db, rec).then(setCambios, () => {});
  }, [rec.id, rec.deca?.version, rec.deca?.archivado, rec.deca?.fin_servicio_at, rec.pendientes, enLinea]);
  if (!cambios) return <p class="pista">{enLinea ? 'Cargando historial…' : 'El historial se verá con conexión.'}</p>;
  return (
    <ol class="historial">
      {cambios.map((c, i) => (
        <li key={i}>
          <strong>{TIPO_CAMBIO[c.tipo] ?? c.tipo}</strong> · versión {c.version} · {fechaEs(c.created_at)} · {c.autor.nombre}
          {c.motivo && <> · «{c.motivo}»</>}
          {c.tipo === 'control' && c.campos[0] && <> · código del agente {String(c.campos[0].despues)}</>}
          {c.campos.length > 0 && (c.tipo === 'modificacion' || c.tipo === 'completado') && (
            <ul class="cambios-campos">
              {c.campos.map((x) => (
                <li key={x.campo}>
                  {nombreCampo(x.campo)}: <del>{valorLegible(x.campo, x.antes)}</del> → <ins>{valorLegible(x.campo, x.despues)}</ins>
                </li>
              ))}
            </ul>
          )}
        </li>
      ))}
    </ol>
  );
}

/** The public opens of the DeCA (inspections), with robots marked: read from the server when online. */
function Aperturas({ rec }: { rec: DecaLocal }) {
  const ctx = useStore(contexto)!;
  const enLinea = useEnLinea();
  const [lista, setLista] = useState<Descarga[] | null>(null);
  useEffect(() => {
    if (!enLinea || !rec.id) return;
    ctx.api.llamar('descargas_deca', { id: rec.id }).then(
      (r) => setLista(r.data.descargas),
      () => {},
    );
  }, [rec.id, rec.deca?.descargas, enLinea]);
  if (!lista) return <p class="pista">{enLinea ? 'Cargando…' : 'Las aperturas se verán con conexión.'}</p>;
  if (lista.length === 0) return <p class="pista">Nadie ha abierto aún la ficha pública ni el PDF.</p>;
  return (
    <ol class="historial" data-testid="aperturas">
      {lista.slice(0, 50).map((x, i) => (
        <li key={i}>
          <strong>{x.recurso === 'pdf' ? 'PDF' : 'Ficha'}</strong> · {fechaEs(x.fecha)} · {x.ip}
          {x.robot && <> · robot ({x.motivo_robot})</>}
          <div class="pista">{x.navegador}</div>
        </li>
      ))}
    </ol>
  );
}

/**
 * «Imprimir» prints the official document, never this page: the PDF kept on the device (the server's, or the one
 * issued here with no coverage), else the server's.
 */
async function imprimirDeca(ctx: Contexto, rec: DecaLocal): Promise<void> {
  const copia = await copiaGuardada(ctx.db, rec);
  const pdf = copia?.pdf ?? (rec.deca ? (await obtenerDocumentos(ctx.api, ctx.db, rec.deca)).pdf : null);
  if (pdf) await imprimirPdf(pdf, `DeCA ${nombreDeca(rec)}`);
}

const v = (x: unknown) => (x === null || x === undefined || x === '' ? '—' : String(x));

/** One DeCA: state, version, QR and PDF (also offline), data, history, actions, and anything waiting to be sent. */
/**
 * Sending a DeCA: e-mail the issued one (PDF attached) and pass it to the driver's messaging app
 * (the phone's share sheet, or WhatsApp's link where there is none); for a pending one, the link
 * with which the other party completes its data, e-mailed if an address is given.
 */
function Enviar({ rec, d }: { rec: DecaLocal; d: Deca }) {
  const ctx = useStore(contexto)!;
  const enLinea = useEnLinea();
  const [email, setEmail] = useState('');
  const [hecho, setHecho] = useState<{ texto: string; url: string; whatsapp?: string; aviso: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const pendiente = d.estado === 'pendiente';
  if (!enLinea || rec.id === undefined || d.estado === 'sustituido') return null;

  async function enviar(ev: Event) {
    ev.preventDefault();
    setError(null);
    try {
      if (pendiente) {
        const r = await ctx.api.llamar('pedir_datos', { id: d.id, ...(email.trim() ? { email: email.trim() } : {}) });
        setHecho({
          texto: `Complete sus datos de la DeCA ${d.numero}`,
          url: r.data.completar,
          aviso: r.data.enviado_a ? `Enlace enviado a ${r.data.enviado_a}.` : 'Enlace para la otra parte:',
        });
      } else {
        const r = await ctx.api.llamar('enviar_deca', { id: d.id, email: email.trim() });
        setHecho({ texto: r.data.texto, url: r.data.conductor, whatsapp: r.data.whatsapp_url, aviso: `Enviada a ${r.data.enviado_a}, con el PDF.` });
      }
      setEmail('');
    } catch (err) {
      setError(err instanceof ApiError ? (Object.values(err.campos)[0] ?? err.message) : 'Sin conexión con el servidor: vuelva a intentarlo.');
    }
  }

  async function compartir(texto: string, url: string, whatsapp?: string) {
    if (navigator.share) {
      await navigator.share({ title: `DeCA ${d.numero}`, text: texto, url }).catch(() => {});
      return;
    }
    open(whatsapp ?? `https://wa.me/?text=${encodeURIComponent(`${texto} ${url}`)}`, '_blank', 'noopener');
  }

  return (
    <div class="enviar no-imprimir" data-testid="enviar-deca">
      <h2>{pendiente ? 'Pedir los datos a la otra parte' : 'Enviar'}</h2>
      <form class="fila-form" onSubmit={(e) => void enviar(e)} noValidate>
        <input
          id="f-enviar-email"
          type="email"
          placeholder={pendiente ? 'Correo de la otra parte (opcional)' : 'Correo'}
          value={email}
          onInput={(e) => setEmail((e.currentTarget as HTMLInputElement).value)}
          aria-label={pendiente ? 'Correo de la otra parte (opcional)' : 'Correo al que enviar la DeCA'}
        />
        <button type="submit" class="primario" disabled={!pendiente && !email.trim()}>
          {pendiente ? 'Pedir datos' : 'Enviar por correo'}
        </button>
      </form>
      {!pendiente && (
        <button type="button" onClick={() => void compartir(`DeCA ${d.numero}`, d.urls.conductor)}>
          Compartir con el conductor
        </button>
      )}
      {error && (
        <p class="aviso error" role="alert">
          {error}
        </p>
      )}
      {hecho && (
        <div class="aviso" role="status" data-testid="enviado">
          <p>{hecho.aviso}</p>
          <p>
            <a href={hecho.url}>{hecho.url}</a>
          </p>
          <button type="button" onClick={() => void compartir(hecho.texto, hecho.url, hecho.whatsapp)}>
            Compartir
          </button>
        </div>
      )}
    </div>
  );
}

export default function DetalleDeca({ params }: { params: string[] }) {
  const ctx = useStore(contexto)!;
  const ref = params[0]!;
  const enLinea = useEnLinea();
  const rec = useLiveQuery(async () => (await buscarLocal(ctx.db, ref)) ?? null, [ctx.db, ref]);
  const cola = useLiveQuery(async () => (rec ? ctx.db.outbox.where('clave').equals(rec.clave).sortBy('seq') : []), [ctx.db, rec?.clave, rec?.pendientes, rec?.rechazo]);
  const entregas = useEntregas(rec);
  const [noEsta, setNoEsta] = useState<string | null>(null);
  const { confirmar, dialogo } = useConfirmacion();

  // Refresh from the server when online (the other party may have completed it, etc.).
  useEffect(() => {
    if (!enLinea || ref.startsWith('l:')) return;
    refrescarDeca(ctx.api, ctx.db, ref).catch((err: unknown) => {
      if (err instanceof ApiError && err.status === 401) sesionCaducada.set(true);
      if (err instanceof ApiError && err.status === 404) setNoEsta('Esta DeCA no existe en su cuenta (o se eliminó).');
    });
  }, [ref, enLinea]);

  // Once the server numbers a DeCA made here, the address shows its number (shareable), not the local key.
  useEffect(() => {
    if (rec?.numero && ref && ref !== rec.numero && location.pathname === `/decas/${encodeURIComponent(ref)}`) navegar(rutaDeca(rec), { replace: true });
  }, [rec?.numero, ref]);

  if (rec === undefined) return <p aria-busy="true">Cargando…</p>;
  if (!rec) {
    return (
      <p class="aviso error" role="alert">
        {noEsta ?? (enLinea ? 'Buscando…' : 'Esta DeCA no está guardada en este dispositivo y no hay conexión.')} <a href="/">Volver a la lista</a>
      </p>
    );
  }

  const d = rec.deca;
  const datos = rec.datos;
  const rechazada = cola?.find((e) => e.estado === 'rechazada');
  const atascada = cola?.find((e) => e.estado === 'atascada');
  const envios = Array.isArray(datos.envios) ? (datos.envios as Record<string, unknown>[]) : [];
  const fin = d?.fin_servicio_at ?? (cola?.some((e) => e.tipo === 'fin') ? 'pendiente de enviar' : null);
  // Proof of delivery: one per shipment when there are several, else one for the DeCA.
  const entregadas = new Set((entregas ?? []).map((e) => (typeof e.datos.envio === 'number' ? e.datos.envio : -1)));
  const puedeEntregar = rec.estado === 'emitido' && entregas !== undefined;
  const accion = (p: Promise<unknown>) => void p.catch((err: Error) => alert(err.message));
  const nombre = nombreDeca(rec);
  const preguntar = async (p: Parameters<typeof confirmar>[0], hacer: () => Promise<unknown>) => {
    if (await confirmar(p)) accion(hacer());
  };
  const descartarEntrada = (e: EntradaOutbox) =>
    preguntar(
      {
        titulo: e.tipo === 'crear' ? `¿Descartar la DeCA ${nombre}?` : `¿Descartar «${OPERACION[e.tipo]}» de la DeCA ${nombre}?`,
        cuerpo: <p>{e.tipo === 'crear' ? 'No llegó al servidor: se borrará de este dispositivo y no se podrá recuperar.' : 'El cambio no llegó al servidor y se perderá.'}</p>,
        aceptar: e.tipo === 'crear' ? 'Descartar la DeCA' : 'Descartar el cambio',
        peligro: true,
      },
      () => descartar(ctx.db, e.seq!).then(() => e.tipo === 'crear' && navegar('/')),
    );

  return (
    <section>
      {dialogo}
      <h1 tabIndex={-1}>
        DeCA {nombre} {d && <small>· versión {d.version}</small>}
      </h1>
      <p>
        <Insignias r={rec} />
        {ctx.entorno === 'pruebas' && (
          <>
            {' '}
            <span class="insignia prueba" data-testid="insignia-prueba" title="Entorno de pruebas: este documento no tiene validez">
              Prueba: sin validez
            </span>
          </>
        )}
        {!rec.numero && <span class="pista"> Referencia temporal hasta que el servidor le dé número.</span>}
      </p>
      {d?.emision_offline && !rec.offline && (
        <p class="pista" data-testid="emision-offline">
          Emitida sin cobertura en el dispositivo «{d.emision_offline.dispositivo}» el {fechaEs(d.emision_offline.emitida_at)}, con un número reservado; el servidor la recibió el{' '}
          {fechaEs(d.emision_offline.recibida_at)}.
        </p>
      )}
      {rec.porEmitir && <SinEmitir />}
      {puedeMostrarse(rec) && <GuardarParaElCamino />}
      {rechazada && rec.rechazo && (
        <div class="aviso error" role="alert" data-testid="rechazo">
          <p>
            <strong>El servidor rechazó «{OPERACION[rechazada.tipo]}»:</strong> {rec.rechazo.mensaje}
          </p>
          {Object.keys(rec.rechazo.campos).length > 0 && (
            <ul>
              {Object.entries(rec.rechazo.campos).map(([c, m]) => (
                <li key={c}>
                  {nombreCampo(c)}: {m}
                </li>
              ))}
            </ul>
          )}
          {rec.rechazo.codigo === 'cuenta_incompleta' && (
            <p>
              {permitido('usuarios') ? (
                <a href="/cuenta?editar=empresa" data-testid="completar-empresa">
                  Complete los datos de la empresa
                </a>
              ) : (
                'Pida a un administrador de la cuenta que complete los datos de la empresa'
              )}{' '}
              y luego reenvíe este cambio.
            </p>
          )}
          <div class="acciones">
            {rec.rechazo.codigo === 'cuenta_incompleta' && (
              <button type="button" class="primario" onClick={() => accion(reintentar(ctx.db, rechazada.seq!))}>
                Reintentar
              </button>
            )}
            {['crear', 'modificar', 'sustituir'].includes(rechazada.tipo) && (
              <a class="boton primario" href={`${rutaDeca(rec)}/editar?corregir=${rechazada.seq}`}>
                Corregir y reenviar
              </a>
            )}
            <button type="button" class="peligro" onClick={() => void descartarEntrada(rechazada)}>
              Descartar este cambio
            </button>
          </div>
        </div>
      )}
      {atascada && (
        <div class="aviso error" role="alert" data-testid="atasco">
          <p>
            <strong>No se ha podido enviar «{OPERACION[atascada.tipo]}».</strong> El servidor falló {atascada.fallosServidor ?? atascada.intentos} veces
            {atascada.ultimoError ? `: ${atascada.ultimoError}` : '.'}
          </p>
          <p class="pista">Sigue guardado en este dispositivo. Las demás DeCA se envían con normalidad.</p>
          <div class="acciones">
            <button type="button" class="primario" onClick={() => accion(reintentar(ctx.db, atascada.seq!))}>
              Reintentar
            </button>
            <button type="button" class="peligro" onClick={() => void descartarEntrada(atascada)}>
              Descartar
            </button>
          </div>
        </div>
      )}
      {cola && cola.some((e) => e.estado === 'pendiente') && (
        <div class="aviso" role="status" data-testid="cola">
          <p>
            <strong>Pendiente de enviar:</strong> {[...new Set(cola.filter((e) => e.estado === 'pendiente').map((e) => PENDIENTE[e.tipo]))].join(', ')}.
          </p>
          <p class="pista">Está guardado en este dispositivo; se enviará solo cuando haya conexión.</p>
        </div>
      )}
      {d?.sustituido_por && (
        <p class="aviso">
          Sustituida por la DeCA <a href={`/decas/${d.sustituido_por.numero}`}>{d.sustituido_por.numero}</a>.
        </p>
      )}
      <div class="detalle">
        <div>
          <div class="acciones no-imprimir">
            {puedeMostrarse(rec) && (
              <a class="boton primario" href={`${rutaDeca(rec)}/agente`} data-testid="mostrar-agente">
                Mostrar al agente
              </a>
            )}
            {d && d.estado === 'emitido' && (
              <a class="boton" href={`${rutaDeca(rec)}/control`}>
                Control en carretera
              </a>
            )}
            {(rec.estado === 'pendiente' || rec.estado === 'borrador') && (
              <a class="boton" href={`${rutaDeca(rec)}/editar`}>
                Editar
              </a>
            )}
            {rec.estado === 'pendiente' && (
              <button type="button" class="primario" onClick={() => accion(emitirDeca(ctx.db, rec.clave))}>
                Emitir
              </button>
            )}
            {rec.estado === 'emitido' && (
              <>
                <a class="boton" href={`${rutaDeca(rec)}/editar`}>
                  Modificar
                </a>
                {permitido('gestion') && (
                  <a class="boton" href={`${rutaDeca(rec)}/sustituir`}>
                    Sustituir
                  </a>
                )}
                {puedeEntregar && envios.length <= 1 && entregadas.size === 0 && (
                  <a class="boton primario" href={`${rutaDeca(rec)}/entrega`} data-testid="entregar">
                    Entregar
                  </a>
                )}
                {!fin && (
                  <button
                    type="button"
                    onClick={() =>
                      void preguntar(
                        {
                          titulo: `¿Marcar el fin del servicio de la DeCA ${nombre}?`,
                          cuerpo: (
                            <>
                              <p>
                                Indica que el transporte {v(datos.matricula)} del {fechaEs(String(datos.fecha_transporte ?? ''))} ha terminado. La DeCA sigue consultable, pero deja de amparar un
                                transporte en curso. No se puede deshacer.
                              </p>
                              {puedeEntregar && entregadas.size === 0 && (
                                <p>Para que quien recibe firme la entrega en este teléfono, cancele y pulse «Entregar»{envios.length > 1 ? ' en cada envío' : ''}: también marca el fin de servicio.</p>
                              )}
                            </>
                          ),
                          aceptar: 'Marcar fin de servicio',
                        },
                        () => finalizarServicio(ctx.db, rec.clave),
                      )
                    }
                  >
                    Fin de servicio
                  </button>
                )}
              </>
            )}
            <a class="boton" href={`/decas/nueva?desde=${encodeURIComponent(rec.numero ?? rec.clave)}`}>
              Duplicar
            </a>
            {tieneCopia(rec) && (
              <button type="button" onClick={() => accion(imprimirDeca(ctx, rec))}>
                Imprimir
              </button>
            )}
            {rec.id !== undefined && permitido('gestion') && (
              <button type="button" onClick={() => accion(archivarDeca(ctx.db, rec.clave, !rec.archivado))}>
                {rec.archivado ? 'Desarchivar' : 'Archivar'}
              </button>
            )}
            {rec.estado === 'pendiente' && !rec.eliminada && (
              <button
                type="button"
                class="peligro"
                onClick={() =>
                  void preguntar(
                    {
                      titulo: `¿Eliminar la DeCA ${nombre}?`,
                      cuerpo: <p>Aún no está emitida: se borrará con sus datos y no se podrá recuperar.</p>,
                      aceptar: 'Eliminar la DeCA',
                      peligro: true,
                    },
                    () => eliminarDeca(ctx.db, rec.clave).then(() => navegar('/')),
                  )
                }
              >
                Eliminar
              </button>
            )}
          </div>
          {d && <Enviar rec={rec} d={d} />}
          <h2>Datos</h2>
          <dl class="datos">
            <dt>Cargador</dt>
            <dd>
              {v(datos.cargador_nombre)} · {v(datos.cargador_nif)}
              <br />
              {v(datos.cargador_domicilio)}
            </dd>
            <dt>Transportista</dt>
            <dd>
              {v(datos.transp_nombre)} · {v(datos.transp_nif)}
              <br />
              {v(datos.transp_domicilio)}
            </dd>
            <dt>Fecha</dt>
            <dd>{v(fechaEs(String(datos.fecha_transporte ?? '')))}</dd>
            <dt>Vehículo</dt>
            <dd>
              {v(datos.matricula)}
              {datos.matricula_remolque ? ` + ${String(datos.matricula_remolque)}` : ''} {datos.tipo_vehiculo ? `(${valorLegible('tipo_vehiculo', datos.tipo_vehiculo)})` : ''}
            </dd>
            <dt>Conductor</dt>
            <dd>
              {v(datos.conductor_nombre)} {datos.conductor_tel ? `· ${String(datos.conductor_tel)}` : ''}
            </dd>
            {envios.map((e, i) => (
              <>
                <dt key={`t${i}`}>Envío {i + 1}</dt>
                <dd key={`d${i}`}>
                  {v(e.origen)} → {v(e.destino)} · {v(e.naturaleza)} · {v(pesoConUnidad(e.peso, e.unidad))}
                  {puedeEntregar && envios.length > 1 && !entregadas.has(i) && !entregadas.has(-1) && (
                    <>
                      {' '}
                      <a class="boton" href={`${rutaDeca(rec)}/entrega?envio=${i}`} data-testid={`entregar-${i}`}>
                        Entregar
                      </a>
                    </>
                  )}
                </dd>
              </>
            ))}
            <dt>Su referencia</dt>
            <dd data-testid="ref-externa">{v(datos.ref_externa)}</dd>
            <dt>Referencia</dt>
            <dd>{v(datos.referencia)}</dd>
            {datos.observaciones ? (
              <>
                <dt>Observaciones</dt>
                <dd>{String(datos.observaciones)}</dd>
              </>
            ) : null}
            {d && (
              <>
                <dt>Emitida</dt>
                <dd>{v(fechaEs(d.emitido_at))}</dd>
                <dt>Fin de servicio</dt>
                <dd>{v(fin && fechaEs(fin))}</dd>
                <dt>Aperturas públicas</dt>
                <dd>{d.descargas}</dd>
              </>
            )}
          </dl>
          <EntregasDeDeca rec={rec} entregas={entregas} />
          <FotoDeDeca rec={rec} />
          {d?.urls.completar && (
            <p>
              Enlace para que la otra parte complete sus datos: <a href={d.urls.completar}>{d.urls.completar}</a>
            </p>
          )}
          {rec.id !== undefined && (
            <>
              <h2>Historial</h2>
              <Historial rec={rec} />
              {d && d.estado !== 'pendiente' && (
                // Who opened the public page (IPs, browsers) is for the office's screen, never for paper.
                <div class="no-imprimir" data-testid="registro-aperturas">
                  <h2>Aperturas públicas</h2>
                  <Aperturas rec={rec} />
                </div>
              )}
            </>
          )}
        </div>
        <div class="lado">
          {rec.offline && <EmitidaAqui rec={rec} />}
          {tieneCopia(rec) ? <Documentos rec={rec} /> : <p class="pista">El QR y el PDF existen cuando la DeCA está emitida.</p>}
        </div>
      </div>
    </section>
  );
}
