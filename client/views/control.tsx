import { useEffect, useState } from 'preact/hooks';
import { fechaEs } from '../../shared/rules/fechas';
import { useEnLinea, useLiveQuery } from '../app/hooks';
import { contexto } from '../app/sesion';
import { useStore } from '../app/store';
import { Campo } from '../components/campo';
import { useDocumentos } from '../components/documentos';
import { nombreDeca, rutaDeca } from '../components/insignias';
import { ApiError, NetworkError } from '../data/api';
import { buscarLocal, cargarCambios } from '../data/consultas';
import { anotarControl } from '../data/outbox';

/** The Ministry's electronic office when the server has not said another (SEDE_CONTROL_URL). */
const SEDE_POR_DEFECTO = 'https://sede.transportes.gob.es/';

/**
 * «Control en carretera»: the driver writes down the numeric code the agent
 * gave (kept on the phone at once, sent when there is coverage), and the
 * screen has what the company needs next: the PDF/A of the version shown,
 * the steps, the Ministry's office, and sending it by e-mail to the office.
 */
export default function Control({ params }: { params: string[] }) {
  const ctx = useStore(contexto)!;
  const ref = params[0]!;
  const enLinea = useEnLinea();
  const rec = useLiveQuery(async () => (await buscarLocal(ctx.db, ref)) ?? null, [ctx.db, ref]);
  const pendientes = useLiveQuery(async () => (rec ? (await ctx.db.outbox.where('clave').equals(rec.clave).toArray()).filter((e) => e.tipo === 'control') : []), [ctx.db, rec?.clave, rec?.pendientes]);
  const [codigo, setCodigo] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [email, setEmail] = useState(ctx.sesion.usuario.email);
  const [envio, setEnvio] = useState<string | null>(null);
  const d = rec?.deca ?? null;

  // The recorded checks come with the history (refreshed once a queued code is sent).
  useEffect(() => {
    if (enLinea && rec?.id) cargarCambios(ctx.api, ctx.db, rec).catch(() => {});
  }, [rec?.id, rec?.pendientes, enLinea]);

  const pdf = useDocumentos(rec ?? null).urls?.pdf ?? null;

  if (rec === undefined) return <p aria-busy="true">Cargando…</p>;
  if (!rec || !d || d.estado !== 'emitido') {
    return (
      <section>
        <h1 tabIndex={-1}>Control en carretera</h1>
        <p class="aviso error" role="alert">
          Solo se anota un control en una DeCA emitida y vigente. <a href={rec ? rutaDeca(rec) : '/'}>Volver</a>
        </p>
      </section>
    );
  }

  async function guardar(ev: Event) {
    ev.preventDefault();
    const limpio = codigo.replace(/\s+/g, '');
    if (!/^\d{4,20}$/.test(limpio)) {
      setError('El código del agente son solo cifras (entre 4 y 20).');
      return;
    }
    setError(null);
    await anotarControl(ctx.db, rec!.clave, limpio);
    setCodigo('');
  }

  async function enviarPorCorreo(ev: Event) {
    ev.preventDefault();
    setEnvio('Enviando…');
    try {
      await ctx.api.llamar('enviar_deca', { id: d!.id, email: email.trim() });
      setEnvio(`Enviado a ${email.trim()}, con el PDF adjunto.`);
    } catch (err) {
      setEnvio(err instanceof NetworkError ? 'Sin conexión: envíelo cuando tenga cobertura.' : err instanceof ApiError ? err.message : String(err));
    }
  }

  const sede = ctx.sesion.sede_control_url ?? SEDE_POR_DEFECTO;
  const anotados = (rec.cambios ?? []).filter((c) => c.tipo === 'control');
  return (
    <section>
      <h1 tabIndex={-1}>Control en carretera · DeCA {nombreDeca(rec)}</h1>
      {ctx.entorno === 'pruebas' && (
        <p class="aviso error" role="alert" data-testid="control-prueba">
          <strong>ENTORNO DE PRUEBAS: este documento no tiene validez.</strong> No lo presente en la sede del Ministerio: su PDF lleva la marca «DOCUMENTO DE PRUEBA — SIN VALIDEZ».
        </p>
      )}
      <form onSubmit={guardar} noValidate>
        <Campo
          path="codigo_control"
          etiqueta="Código que le ha dado el agente"
          valor={codigo}
          onInput={setCodigo}
          error={error ?? undefined}
          extra={{ inputMode: 'numeric', autoComplete: 'off' }}
          pista="Solo cifras. Se guarda en el teléfono aunque no haya cobertura."
        />
        <div class="acciones">
          <button type="submit" class="primario">
            Guardar el código
          </button>
        </div>
      </form>
      {(pendientes?.length ?? 0) + anotados.length > 0 && (
        <ul class="historial" data-testid="controles">
          {pendientes?.map((e) => (
            <li key={e.seq}>
              Código <strong>{String(e.body.codigo)}</strong> · <span class="insignia sync">Sin enviar</span>
            </li>
          ))}
          {anotados.map((c, i) => (
            <li key={i}>
              Código <strong>{String(c.campos[0]?.despues ?? '')}</strong> · anotado el {fechaEs(c.created_at)} · versión {c.version}
            </li>
          ))}
        </ul>
      )}

      <h2>Qué hacer después</h2>
      <ol class="pasos-control">
        <li>
          Descargue el PDF de la DeCA (es un PDF/A, el formato que pide la sede):{' '}
          {pdf ? (
            <a class="boton" href={pdf} download={`DeCA-${d.numero}-v${d.version}.pdf`} data-testid="pdf-control">
              PDF de la versión {d.version}
            </a>
          ) : (
            <span class="pista">{enLinea ? 'preparando…' : 'sin copia en este teléfono: se descarga con conexión'}</span>
          )}
        </li>
        <li>
          Entre en la sede electrónica del Ministerio:{' '}
          <a href={sede} target="_blank" rel="noopener noreferrer" data-testid="sede">
            {sede}
          </a>
        </li>
        <li>Indique el código del agente y adjunte el PDF (hasta 4 MB; el de la DeCA ocupa mucho menos).</li>
      </ol>

      <h2>Enviarlo a la oficina</h2>
      <form onSubmit={enviarPorCorreo} noValidate>
        <Campo path="email_oficina" etiqueta="Correo de la oficina" tipo="email" valor={email} onInput={setEmail} />
        <div class="acciones">
          <button type="submit" disabled={!enLinea || !email.trim()}>
            Enviar el PDF por correo
          </button>
        </div>
        {envio && (
          <p class="aviso" role="status">
            {envio}
          </p>
        )}
      </form>
      <p>
        <a href={rutaDeca(rec)}>Volver a la DeCA</a>
      </p>
    </section>
  );
}
