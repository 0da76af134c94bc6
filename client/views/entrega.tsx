import { useEffect, useState } from 'preact/hooks';
import { validarNif } from '../../shared/rules/nif';
import { hayFirma, type TrazoFirma } from '../../shared/rules/trazo-firma';
import { useLiveQuery, useUrlDeBlob } from '../app/hooks';
import { navegar } from '../app/router';
import { contexto } from '../app/sesion';
import { useStore } from '../app/store';
import { Campo } from '../components/campo';
import { nombreDeca, rutaDeca } from '../components/insignias';
import { buscarLocal } from '../data/consultas';
import { guardarEntrega } from '../data/entregas';
import { EntregaInput, FOTO_ENTREGA_MAXIMA, issuesToCampos, LADO_FOTO_ENTREGA, LONGITUD_ENTREGA, MAX_FOTOS_ENTREGA } from '../data/esquemas';
import { reducirFoto } from '../data/reducir-foto';
import { PanelFirma } from './entrega/panel-firma';

/** The warning a DNI/NIE gets as it is typed (the shared rule): never blocking, the consignee's document is what it is. */
export function avisoDocumento(v: string): string | undefined {
  if (!v.trim()) return undefined;
  const r = validarNif(v);
  if (r.tipo === 'dni' || r.tipo === 'nie') return r.valido ? undefined : `La letra de este ${r.tipo === 'dni' ? 'DNI' : 'NIE'} no cuadra con sus números: revíselo con el documento.`;
  return 'No parece un DNI ni un NIE (p. ej. 12345678Z o X1234567L): revíselo.';
}

const hora = (d: Date) => d.toLocaleTimeString('es-ES', { hour: '2-digit', minute: '2-digit', timeZone: 'Europe/Madrid' });

function Miniatura({ foto, n, onQuitar }: { foto: Blob; n: number; onQuitar: () => void }) {
  const url = useUrlDeBlob(foto);
  return (
    <li>
      {url && <img src={url} alt={`Foto ${n} de la entrega`} />}
      <button type="button" onClick={onQuitar}>
        Quitar
      </button>
    </li>
  );
}

type Posicion = { lat: number; lon: number; precision_m?: number };

/**
 * «Entregar»: at the end of the transport the consignee signs on the
 * driver's phone. Everything is kept on the phone at once (no coverage
 * needed) and sent when there is: who receives (name, optional DNI/NIE), the
 * signature drawn with a finger, reservations or «Sin reservas», up to three
 * photos, the time, and the position only if the driver adds it. A refusal
 * is recorded the same way, with its reason.
 */
export default function Entrega({ params, query }: { params: string[]; query: URLSearchParams }) {
  const ctx = useStore(contexto)!;
  const ref = params[0]!;
  const rec = useLiveQuery(async () => (await buscarLocal(ctx.db, ref)) ?? null, [ctx.db, ref]);
  const envioTexto = query.get('envio');
  const envio = envioTexto !== null && /^\d+$/.test(envioTexto) ? Number(envioTexto) : undefined;

  const [resultado, setResultado] = useState<'entregada' | 'rechazada'>('entregada');
  const [nombre, setNombre] = useState('');
  const [documento, setDocumento] = useState('');
  const [trazos, setTrazos] = useState<TrazoFirma[]>([]);
  const [proporcion, setProporcion] = useState(2);
  const [reservas, setReservas] = useState('');
  const [sinReservas, setSinReservas] = useState(false);
  const [motivo, setMotivo] = useState('');
  const [fotos, setFotos] = useState<Blob[]>([]);
  const [reduciendo, setReduciendo] = useState(false);
  const [posicion, setPosicion] = useState<Posicion | null>(null);
  const [estadoPosicion, setEstadoPosicion] = useState<string | null>(null);
  const [errores, setErrores] = useState<Record<string, string>>({});
  const [guardando, setGuardando] = useState(false);
  const [ahora, setAhora] = useState(() => new Date());
  useEffect(() => {
    const t = setInterval(() => setAhora(new Date()), 30_000);
    return () => clearInterval(t);
  }, []);

  if (rec === undefined) return <p aria-busy="true">Cargando…</p>;
  const envios = rec && Array.isArray(rec.datos.envios) ? (rec.datos.envios as Record<string, unknown>[]) : [];
  if (!rec || rec.estado !== 'emitido' || (envio !== undefined && envio >= envios.length)) {
    return (
      <section>
        <h1 tabIndex={-1}>Entrega</h1>
        <p class="aviso error" role="alert">
          Solo se recoge la entrega de una DeCA emitida. <a href={rec ? rutaDeca(rec) : '/'}>Volver</a>
        </p>
      </section>
    );
  }
  const destino = envio !== undefined ? envios[envio]?.destino : envios.length === 1 ? envios[0]?.destino : null;

  async function anadirFotos(ev: Event) {
    const input = ev.currentTarget as HTMLInputElement;
    const elegidas = [...(input.files ?? [])].slice(0, MAX_FOTOS_ENTREGA - fotos.length);
    input.value = '';
    if (elegidas.length === 0) return;
    setReduciendo(true);
    try {
      const reducidas: Blob[] = [];
      for (const f of elegidas) reducidas.push(await reducirFoto(f, { lado: LADO_FOTO_ENTREGA, maximo: FOTO_ENTREGA_MAXIMA }));
      setFotos((antes) => [...antes, ...reducidas].slice(0, MAX_FOTOS_ENTREGA));
      setErrores(({ fotos: _, ...resto }) => resto);
    } catch (err) {
      setErrores((e) => ({ ...e, fotos: (err as Error).message }));
    } finally {
      setReduciendo(false);
    }
  }

  function pedirPosicion(si: boolean) {
    if (!si) {
      setPosicion(null);
      setEstadoPosicion(null);
      return;
    }
    if (!('geolocation' in navigator)) {
      setEstadoPosicion('Este teléfono no da la posición. La entrega se guarda igual.');
      return;
    }
    setEstadoPosicion('Buscando la posición…');
    navigator.geolocation.getCurrentPosition(
      (p) => {
        setPosicion({ lat: p.coords.latitude, lon: p.coords.longitude, precision_m: Math.round(p.coords.accuracy) });
        setEstadoPosicion(`Posición añadida (a unos ${Math.round(p.coords.accuracy)} m).`);
      },
      () => {
        setPosicion(null);
        setEstadoPosicion('No se ha podido saber la posición (permiso denegado o sin señal). La entrega se guarda igual.');
      },
      { enableHighAccuracy: true, timeout: 20_000, maximumAge: 60_000 },
    );
  }

  async function guardar(ev: Event) {
    ev.preventDefault();
    const entregada = resultado === 'entregada';
    const datos: Record<string, unknown> = {
      ...(envio !== undefined ? { envio } : {}),
      resultado,
      receptor_nombre: nombre.trim() || undefined,
      receptor_documento: documento.trim() || undefined,
      firma: hayFirma(trazos) ? { proporcion, trazos } : undefined,
      reservas: entregada && !sinReservas ? reservas.trim() || undefined : undefined,
      sin_reservas: entregada && sinReservas ? true : undefined,
      motivo_rechazo: entregada ? undefined : motivo.trim() || undefined,
      registrada_at: new Date().toISOString(),
      posicion: posicion ?? undefined,
    };
    for (const k of Object.keys(datos)) if (datos[k] === undefined) delete datos[k];
    const r = EntregaInput.safeParse(datos);
    const campos = r.success ? {} : issuesToCampos(r.error.issues);
    // A stray touch is not a signature: said here in plain words, not as the schema's «empty».
    if (entregada && !hayFirma(trazos)) campos.firma = 'Falta la firma de quien recibe: que firme con el dedo en el recuadro.';
    setErrores(campos);
    if (Object.keys(campos).length > 0) {
      document.querySelector<HTMLElement>('[aria-invalid="true"], .error-campo')?.scrollIntoView({ block: 'center' });
      return;
    }
    setGuardando(true);
    try {
      // One destination: the delivery ends the service (several: each shipment has its own, and «Fin de servicio» stays for the last).
      const finalizar = envios.length <= 1 && !rec!.deca?.fin_servicio_at;
      await guardarEntrega(ctx.db, rec!.clave, datos, fotos, { finalizar });
      navegar(rutaDeca(rec!));
    } catch (err) {
      setErrores({ general: (err as Error).message });
      setGuardando(false);
    }
  }

  const entregada = resultado === 'entregada';
  // A field's error goes as soon as it is changed: the next «Guardar» checks again.
  const al = (campo: string, fijar: (v: string) => void) => (v: string) => {
    fijar(v);
    if (errores[campo]) setErrores(({ [campo]: _, ...resto }) => resto);
  };
  return (
    <section class="entrega">
      <h1 tabIndex={-1}>
        {envio !== undefined ? `Entregar el envío ${envio + 1}` : 'Entrega'} · DeCA {nombreDeca(rec)}
      </h1>
      {destino ? <p class="pista">Destino: {String(destino)}</p> : null}
      <p class="pista">Se guarda en este teléfono aunque no haya cobertura y se envía solo cuando la haya.</p>
      <form onSubmit={(e) => void guardar(e)} noValidate>
        <fieldset>
          <legend>¿Acepta la mercancía?</legend>
          <div class="eleccion">
            <label>
              <input type="radio" name="resultado" checked={entregada} onChange={() => setResultado('entregada')} /> Sí, la recibe
            </label>
            <label>
              <input type="radio" name="resultado" checked={!entregada} onChange={() => setResultado('rechazada')} /> No, la rechaza
            </label>
          </div>
        </fieldset>
        <Campo
          path="receptor_nombre"
          etiqueta="Nombre de quien recibe"
          valor={nombre}
          onInput={al('receptor_nombre', setNombre)}
          error={errores.receptor_nombre}
          max={LONGITUD_ENTREGA.receptor_nombre}
          extra={{ autocomplete: 'off' }}
        />
        <Campo
          path="receptor_documento"
          etiqueta="DNI o NIE (si quiere darlo)"
          valor={documento}
          onInput={al('receptor_documento', setDocumento)}
          error={errores.receptor_documento}
          advertencia={avisoDocumento(documento)}
          max={LONGITUD_ENTREGA.receptor_documento}
          extra={{ autocomplete: 'off', autocapitalize: 'characters' }}
        />
        <div class="campo">
          <p id="titulo-firma">
            <strong>Firma de quien {entregada ? 'recibe' : 'rechaza'}</strong>
            {entregada ? '' : ' (si quiere firmar)'}
          </p>
          <PanelFirma
            trazos={trazos}
            onCambio={(t, p) => {
              setTrazos(t);
              if (p) setProporcion(p);
              setErrores(({ firma: _, ...resto }) => resto);
            }}
          />
          {errores.firma && (
            <p class="error-campo" role="alert" data-campo="firma">
              {errores.firma}
            </p>
          )}
        </div>
        {entregada ? (
          <div class="campo">
            <div class="acciones">
              <button
                type="button"
                class={sinReservas ? 'primario' : ''}
                aria-pressed={sinReservas}
                onClick={() => (setSinReservas(!sinReservas), setReservas(''), setErrores(({ reservas: _, ...r }) => r))}
              >
                {sinReservas ? '✓ Sin reservas' : 'Sin reservas'}
              </button>
            </div>
            {!sinReservas && (
              <Campo
                path="reservas"
                etiqueta="Reservas (mercancía dañada, bultos que faltan…)"
                valor={reservas}
                onInput={al('reservas', setReservas)}
                error={errores.reservas}
                multilinea
                max={LONGITUD_ENTREGA.reservas}
              />
            )}
          </div>
        ) : (
          <Campo
            path="motivo_rechazo"
            etiqueta="¿Por qué la rechaza?"
            valor={motivo}
            onInput={al('motivo_rechazo', setMotivo)}
            error={errores.motivo_rechazo}
            multilinea
            max={LONGITUD_ENTREGA.motivo_rechazo}
          />
        )}
        <div class="campo">
          <label for="fotos-entrega">Fotos de la entrega (hasta {MAX_FOTOS_ENTREGA})</label>
          {fotos.length > 0 && (
            <ul class="miniaturas">
              {fotos.map((f, i) => (
                <Miniatura key={i} foto={f} n={i + 1} onQuitar={() => setFotos(fotos.filter((_, j) => j !== i))} />
              ))}
            </ul>
          )}
          {fotos.length < MAX_FOTOS_ENTREGA && <input id="fotos-entrega" type="file" accept="image/*" capture="environment" multiple onChange={(e) => void anadirFotos(e)} disabled={reduciendo} />}
          {reduciendo && <p class="pista">Preparando la foto…</p>}
          {errores.fotos && <p class="error-campo">{errores.fotos}</p>}
        </div>
        <div class="campo">
          <label>
            <input type="checkbox" checked={posicion !== null || estadoPosicion === 'Buscando la posición…'} onChange={(e) => pedirPosicion(e.currentTarget.checked)} /> Añadir dónde estoy (opcional)
          </label>
          {estadoPosicion && (
            <p class="pista" role="status">
              {estadoPosicion}
            </p>
          )}
        </div>
        <p>
          Hora de la entrega: <strong>{hora(ahora)}</strong>
        </p>
        {errores.general && (
          <p class="aviso error" role="alert">
            {errores.general}
          </p>
        )}
        <div class="acciones">
          <button type="submit" class="primario" disabled={guardando || reduciendo}>
            {entregada ? 'Guardar la entrega' : 'Guardar el rechazo'}
          </button>
          <a class="boton" href={rutaDeca(rec)}>
            Cancelar
          </a>
        </div>
      </form>
    </section>
  );
}
