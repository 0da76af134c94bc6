import { useEffect, useState } from 'preact/hooks';
import type { ClaveApi, ClaveCreada, Entorno } from '../../shared/schemas/cuenta';
import { ApiError, pedirJson } from '../data/api';
import { guardarParaElCamino } from '../data/consultas';
import { useEnLinea, useLiveQuery } from '../app/hooks';
import { cambiarEntorno, contexto, salir } from '../app/sesion';
import { useStore } from '../app/store';

const f: typeof fetch = (...a) => fetch(...a);

function Claves() {
  const enLinea = useEnLinea();
  const [claves, setClaves] = useState<ClaveApi[] | null>(null);
  const [nueva, setNueva] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const cargar = () =>
    pedirJson<{ claves: ClaveApi[] }>(f, 'GET', '/app/api/claves').then(
      (r) => setClaves(r.data.claves),
      (e: Error) => setError(e.message),
    );
  useEffect(() => {
    if (enLinea) void cargar();
  }, [enLinea]);
  async function crear(entorno: Entorno) {
    setError(null);
    try {
      const r = await pedirJson<ClaveCreada>(f, 'POST', '/app/api/claves', { body: { entorno } });
      setNueva(r.data.key);
      await cargar();
    } catch (e) {
      setError((e as ApiError).message);
    }
  }
  async function revocar(id: number) {
    await pedirJson(f, 'DELETE', `/app/api/claves/${id}`).catch((e: Error) => setError(e.message));
    await cargar();
  }
  if (!enLinea) return <p class="pista">Las claves de API se gestionan con conexión.</p>;
  return (
    <>
      {nueva && (
        <div class="aviso ok" role="status">
          <p>Copie la clave ahora: no se volverá a mostrar.</p>
          <p>
            <code data-testid="clave-nueva">{nueva}</code>
          </p>
        </div>
      )}
      {error && <p class="aviso error">{error}</p>}
      <ul>
        {(claves ?? []).map((c) => (
          <li key={c.id}>
            <code>{c.prefijo}…</code> · {c.entorno === 'pruebas' ? 'pruebas' : 'producción'} {c.solo_lectura ? '· solo lectura' : ''} ·{' '}
            {c.revocada_at ? (
              `revocada ${c.revocada_at}`
            ) : (
              <button type="button" class="peligro" onClick={() => revocar(c.id)}>
                Revocar
              </button>
            )}
          </li>
        ))}
      </ul>
      <div class="acciones">
        <button type="button" onClick={() => crear('produccion')}>
          Nueva clave de producción
        </button>
        <button type="button" onClick={() => crear('pruebas')}>
          Nueva clave de pruebas
        </button>
      </div>
    </>
  );
}

/** Account: company, environment switch (test mode), data kept on this device, API keys, sign out. */
export default function Cuenta() {
  const ctx = useStore(contexto)!;
  const { cuenta, usuario } = ctx.sesion;
  const pendientes = useLiveQuery(() => ctx.db.outbox.count(), [ctx.db]) ?? 0;
  const guardadas = useLiveQuery(() => ctx.db.documentos.count(), [ctx.db]) ?? 0;
  const [persistente, setPersistente] = useState<boolean | null>(null);
  const [camino, setCamino] = useState<string | null>(null);
  useEffect(() => {
    void navigator.storage?.persisted?.().then(setPersistente);
  }, []);
  return (
    <section>
      <h1>Cuenta</h1>
      <dl class="datos">
        <dt>Empresa</dt>
        <dd>{cuenta.nombre}</dd>
        <dt>NIF</dt>
        <dd>{cuenta.nif}</dd>
        <dt>Domicilio</dt>
        <dd>{cuenta.domicilio ?? '—'}</dd>
        <dt>Lado</dt>
        <dd>{cuenta.rol === 'cargador' ? 'Cargador' : 'Transportista'}</dd>
        <dt>Usuario</dt>
        <dd>{usuario.email}</dd>
        <dt>Plan</dt>
        <dd>{cuenta.plan}</dd>
      </dl>

      <h2>Entorno</h2>
      <fieldset>
        <legend>Datos con los que trabaja</legend>
        {(['produccion', 'pruebas'] as const).map((e) => (
          <label key={e} style={{ fontWeight: 400 }}>
            <input type="radio" name="entorno" value={e} checked={ctx.entorno === e} onChange={() => cambiarEntorno(e)} style={{ width: 'auto', minHeight: 0, marginRight: '0.5rem' }} />
            {e === 'produccion' ? 'Producción: DeCA reales' : 'Pruebas: datos sin validez, separados de los reales'}
          </label>
        ))}
      </fieldset>

      <h2>En este dispositivo</h2>
      <ul>
        <li>{pendientes === 0 ? 'Todo enviado.' : `${pendientes} cambio(s) sin enviar.`}</li>
        <li>
          {guardadas} DeCA con PDF y QR guardados para verlas sin conexión (las emitidas de los últimos 7 días y los próximos 7).{' '}
          <button
            type="button"
            onClick={() =>
              guardarParaElCamino(ctx.api, ctx.db).then(
                (n) => setCamino(`Actualizado: ${n} DeCA.`),
                (e: Error) => setCamino(e.message),
              )
            }
          >
            Actualizar ahora
          </button>{' '}
          {camino}
        </li>
        <li>Almacenamiento persistente: {persistente === null ? '—' : persistente ? 'sí' : 'no concedido por el navegador (instale la aplicación para conseguirlo)'}</li>
      </ul>

      <h2>Claves de API</h2>
      <Claves />

      <h2>Sesión</h2>
      {pendientes > 0 && <p class="aviso">Hay cambios sin enviar: se quedan guardados en este dispositivo y se enviarán cuando vuelva a entrar.</p>}
      <button type="button" class="peligro" onClick={() => void salir()}>
        Cerrar sesión
      </button>
    </section>
  );
}
