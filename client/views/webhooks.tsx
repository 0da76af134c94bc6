import { useEffect, useState } from 'preact/hooks';
import type { Entrega, EntregaList, EntregaResultado, Webhook, WebhookCreado, WebhookList } from '../../shared/schemas/webhook';
import { useEnLinea } from '../app/hooks';
import { contexto } from '../app/sesion';
import { useStore } from '../app/store';
import { useConfirmacion } from '../components/dialogo';
import { SecretoUnaVez } from '../components/secreto';
import { ConPermiso } from '../components/sin-permiso';
import { ApiError } from '../data/api';
import { EVENTOS } from '../data/esquemas';

const NOMBRE_EVENTO: Record<(typeof EVENTOS)[number], string> = {
  'deca.creado': 'Creada',
  'deca.emitido': 'Emitida',
  'deca.modificado': 'Modificada',
  'deca.sustituido': 'Sustituida',
  'deca.completado': 'Completada por la otra parte',
  'deca.fin_servicio': 'Fin del servicio',
  // An open of the public page or PDF says nothing of who opened it: an inspector's scan, the driver, anyone with the link.
  'deca.descargado': 'Abierta desde el QR o el enlace',
  'deca.control': 'Control en carretera',
  'deca.entregado': 'Mercancía entregada',
  'deca.entrega_rechazada': 'Entrega rechazada',
};

const ESTADO_ENTREGA: Record<Entrega['estado'], string> = { pendiente: 'Pendiente', entregada: 'Entregada', fallida: 'Fallida' };

const mensaje = (err: unknown) => (err instanceof ApiError ? err.message : 'Sin conexión con el servidor: vuelva a intentarlo.');

/** A webhook's deliveries: status, attempts and next retry, with a manual resend. */
function Entregas({ webhook }: { webhook: Webhook }) {
  const ctx = useStore(contexto)!;
  const [entregas, setEntregas] = useState<Entrega[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const cargar = () =>
    ctx.api.llamar('entregas_webhook', { id: webhook.id }).then(
      (r) => setEntregas(r.data.entregas),
      (e: unknown) => setError(mensaje(e)),
    );
  useEffect(() => void cargar(), [webhook.id]);
  async function reenviar(e: Entrega) {
    setError(null);
    try {
      await ctx.api.llamar('reenviar_entrega', { id: webhook.id, entrega: e.id });
    } catch (err) {
      setError(mensaje(err));
    }
    await cargar();
  }
  if (error) return <p class="aviso error">{error}</p>;
  if (!entregas) return <p aria-busy="true">Cargando entregas…</p>;
  if (!entregas.length) return <p class="pista">Aún no hay entregas.</p>;
  return (
    <table class="resultado-importacion" data-testid={`entregas-${webhook.id}`}>
      <thead>
        <tr>
          <th scope="col">DeCA</th>
          <th scope="col">Evento</th>
          <th scope="col">Creado</th>
          <th scope="col">Estado</th>
          <th scope="col">Intentos</th>
          <th scope="col">Última respuesta</th>
          <th scope="col">Próximo intento</th>
          <th scope="col">Acciones</th>
        </tr>
      </thead>
      <tbody>
        {entregas.map((e) => (
          <tr key={e.id} data-estado={e.estado}>
            <td>{e.deca_numero ? <a href={`/decas/${e.deca_numero}`}>{e.deca_numero}</a> : '—'}</td>
            <td>{e.evento === 'ping' ? 'Prueba (ping)' : NOMBRE_EVENTO[e.evento]}</td>
            <td>{e.creado_at}</td>
            <td>{ESTADO_ENTREGA[e.estado]}</td>
            <td>{e.intento}</td>
            <td>{e.status ? `HTTP ${e.status}` : (e.error ?? '—')}</td>
            <td>{e.proximo_intento_at ?? '—'}</td>
            <td>
              {e.estado !== 'entregada' && (
                <button type="button" onClick={() => void reenviar(e)}>
                  Reenviar
                </button>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Webhooks of the environment: create with an event picker (secret shown once), pause, resume, test, delete, deliveries. */
function GestionWebhooks() {
  const ctx = useStore(contexto)!;
  const enLinea = useEnLinea();
  const { confirmar, dialogo } = useConfirmacion();
  const [lista, setLista] = useState<Webhook[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [url, setUrl] = useState('');
  const [descripcion, setDescripcion] = useState('');
  const [eventos, setEventos] = useState<string[]>(['*']);
  const [nuevo, setNuevo] = useState<string | null>(null);
  const [abierto, setAbierto] = useState<number | null>(null);
  const [prueba, setPrueba] = useState<Record<number, string>>({});
  const [camposError, setCamposError] = useState<Record<string, string>>({});

  const cargar = () =>
    ctx.api.llamar('listar_webhooks', {}).then(
      (r) => setLista(r.data.webhooks),
      (e: unknown) => setError(mensaje(e)),
    );
  useEffect(() => {
    if (enLinea) void cargar();
  }, [enLinea, ctx.entorno]);

  async function crear(ev: Event) {
    ev.preventDefault();
    setError(null);
    setCamposError({});
    try {
      const r = await ctx.api.llamar('crear_webhook', { url: url.trim(), eventos, ...(descripcion.trim() ? { descripcion: descripcion.trim() } : {}) });
      setNuevo(r.data.webhook.secreto);
      setUrl('');
      setDescripcion('');
      setEventos(['*']);
      await cargar();
    } catch (err) {
      if (err instanceof ApiError) setCamposError(err.campos);
      setError(mensaje(err));
    }
  }

  async function cambiar(w: Webhook, activo: boolean) {
    setError(null);
    await ctx.api.llamar('cambiar_webhook', { id: w.id, activo }).catch((e: unknown) => setError(mensaje(e)));
    await cargar();
  }

  async function probar(w: Webhook) {
    setPrueba((p) => ({ ...p, [w.id]: 'Enviando…' }));
    try {
      const r = await ctx.api.llamar('probar_webhook', { id: w.id });
      const e = r.data.entrega;
      setPrueba((p) => ({ ...p, [w.id]: r.data.ok ? `Recibido (HTTP ${e.status}).` : `No recibido: ${e.status ? `HTTP ${e.status}` : (e.error ?? 'sin respuesta')}.` }));
    } catch (err) {
      setPrueba((p) => ({ ...p, [w.id]: mensaje(err) }));
    }
  }

  async function eliminar(w: Webhook) {
    const ok = await confirmar({
      titulo: `¿Eliminar el webhook a ${w.url}?`,
      cuerpo: <p>Dejará de recibir eventos y se borra su historial de entregas. No se puede deshacer.</p>,
      aceptar: 'Eliminar',
      cancelar: 'Conservarlo',
      peligro: true,
    });
    if (!ok) return;
    await ctx.api.llamar('eliminar_webhook', { id: w.id }).catch((e: unknown) => setError(mensaje(e)));
    await cargar();
  }

  const todos = eventos.includes('*');
  const marcar = (e: string, si: boolean) => {
    const base = todos ? [...EVENTOS] : eventos;
    const nuevos = si ? [...base, e] : base.filter((x) => x !== e);
    setEventos(nuevos.length === EVENTOS.length ? ['*'] : nuevos);
  };

  if (!enLinea) return <p class="pista">Los webhooks se gestionan con conexión.</p>;
  return (
    <section>
      <h1 tabIndex={-1}>Webhooks</h1>
      {dialogo}
      <p class="explicacion">
        Cada evento de sus DeCA se envía por POST, firmado con el secreto del webhook, a la dirección que indique (https). Los fallos se reintentan durante días; aquí ve cada entrega y puede
        reenviarla.
      </p>
      {error && (
        <p class="aviso error" role="alert">
          {error}
        </p>
      )}
      {nuevo && (
        <SecretoUnaVez valor={nuevo} testId="secreto-nuevo">
          <p>Copie el secreto ahora: no se volverá a mostrar. Con él se comprueba la firma de cada entrega.</p>
          <button type="button" onClick={() => setNuevo(null)}>
            Ya lo he guardado
          </button>
        </SecretoUnaVez>
      )}
      {lista && lista.length === 0 && <p class="pista">No hay webhooks.</p>}
      {lista && lista.length > 0 && (
        <ul class="fotos" data-testid="webhooks">
          {lista.map((w) => (
            <li key={w.id} data-activo={w.activo ? '1' : '0'}>
              <div>
                <p>
                  <strong>{w.url}</strong> {w.descripcion ? `— ${w.descripcion}` : ''}
                </p>
                <p class="pista">
                  {w.activo ? 'Activo' : `Pausado${w.pausa_motivo ? `: ${w.pausa_motivo}` : ''}`} · Eventos:{' '}
                  {w.eventos.includes('*') ? 'todos' : w.eventos.map((e) => NOMBRE_EVENTO[e as (typeof EVENTOS)[number]] ?? e).join(', ')} · Secreto {w.secreto_prefijo}
                  {w.fallando_desde ? ` · Fallando desde ${w.fallando_desde}` : ''}
                </p>
                <div class="fila-form">
                  <button type="button" onClick={() => void probar(w)}>
                    Probar
                  </button>
                  <button type="button" onClick={() => void cambiar(w, !w.activo)}>
                    {w.activo ? 'Pausar' : 'Reanudar'}
                  </button>
                  <button type="button" onClick={() => setAbierto(abierto === w.id ? null : w.id)} aria-expanded={abierto === w.id}>
                    Entregas
                  </button>
                  <button type="button" class="peligro" onClick={() => void eliminar(w)}>
                    Eliminar
                  </button>
                </div>
                {prueba[w.id] && (
                  <p role="status" data-testid={`prueba-${w.id}`}>
                    {prueba[w.id]}
                  </p>
                )}
                {abierto === w.id && <Entregas webhook={w} />}
              </div>
            </li>
          ))}
        </ul>
      )}
      <h2>Nuevo webhook</h2>
      <form onSubmit={(e) => void crear(e)} noValidate>
        <div class="campo">
          <label for="f-webhook-url">Dirección (https)</label>
          <input id="f-webhook-url" type="url" value={url} onInput={(e) => setUrl((e.currentTarget as HTMLInputElement).value)} aria-invalid={camposError.url ? 'true' : undefined} />
          {camposError.url && <p class="error-campo">{camposError.url}</p>}
        </div>
        <div class="campo">
          <label for="f-webhook-descripcion">Descripción (opcional)</label>
          <input id="f-webhook-descripcion" value={descripcion} maxLength={200} onInput={(e) => setDescripcion((e.currentTarget as HTMLInputElement).value)} />
        </div>
        <fieldset>
          <legend>Eventos</legend>
          {EVENTOS.map((e) => (
            <label key={e} class="casilla">
              <input type="checkbox" checked={todos || eventos.includes(e)} onChange={(ev) => marcar(e, (ev.currentTarget as HTMLInputElement).checked)} /> {NOMBRE_EVENTO[e]}
            </label>
          ))}
          {camposError.eventos && <p class="error-campo">{camposError.eventos}</p>}
        </fieldset>
        <button type="submit" class="primario" disabled={eventos.length === 0}>
          Crear webhook
        </button>
      </form>
    </section>
  );
}

export default function Webhooks() {
  return (
    <ConPermiso permiso="integraciones" titulo="Webhooks">
      <GestionWebhooks />
    </ConPermiso>
  );
}
