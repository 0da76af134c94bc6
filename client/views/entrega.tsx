import { useState } from 'preact/hooks';
import { validarNif } from '../../shared/rules/nif';
import { useUrlDeBlob } from '../app/hooks';
import { Campo } from '../components/campo';
import { nombreDeca, rutaDeca } from '../components/insignias';
import { LONGITUD_ENTREGA, MAX_FOTOS_ENTREGA } from '../data/esquemas';
import { FirmaEnSuMovil } from './entrega/firma-en-su-movil';
import { PanelFirma } from './entrega/panel-firma';
import { useEntrega } from './entrega/use-entrega';

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

/**
 * «Entregar»: at the end of the transport the consignee signs on the
 * driver's phone. Everything is kept on the phone at once (no coverage
 * needed) and sent when there is: who receives (name, optional DNI/NIE), the
 * signature drawn with a finger, reservations or «Sin reservas», up to three
 * photos, the time, and the position only if the driver adds it. A refusal
 * is recorded the same way, with its reason.
 */
export default function Entrega({ params, query }: { params: string[]; query: URLSearchParams }) {
  const { rec, envio, destino, valida, ahora, campos, fijar, firmar, alternarSinReservas, anadirFotos, pedirPosicion, guardar, firmadaEnSuMovil } = useEntrega(params[0]!, query);
  const [enSuMovil, setEnSuMovil] = useState(false);
  const { nombre, documento, trazos, reservas, sinReservas, motivo, fotos, reduciendo, posicion, estadoPosicion, errores, guardando, entregada } = campos;
  const { setResultado, setNombre, setDocumento, setReservas, setMotivo, setFotos, al } = fijar;

  if (rec === undefined) return <p aria-busy="true">Cargando…</p>;
  if (!rec || !valida) {
    return (
      <section>
        <h1 tabIndex={-1}>Entrega</h1>
        <p class="aviso error" role="alert">
          Solo se recoge la entrega de una DeCA emitida. <a href={rec ? rutaDeca(rec) : '/'}>Volver</a>
        </p>
      </section>
    );
  }
  return (
    <section class="entrega">
      <h1 tabIndex={-1}>
        {envio !== undefined ? `Entregar el envío ${envio + 1}` : 'Entrega'} · DeCA {nombreDeca(rec)}
      </h1>
      {destino ? <p class="pista">Destino: {String(destino)}</p> : null}
      <FirmaEnSuMovil rec={rec} envio={envio} activo={enSuMovil} onCambio={setEnSuMovil} alFirmar={firmadaEnSuMovil} />
      {!enSuMovil && <p class="pista">Aquí se guarda en este teléfono aunque no haya cobertura y se envía solo cuando la haya.</p>}
      <form onSubmit={(e) => void guardar(e)} noValidate hidden={enSuMovil}>
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
          <PanelFirma trazos={trazos} onCambio={firmar} />
          {errores.firma && (
            <p class="error-campo" role="alert" data-campo="firma">
              {errores.firma}
            </p>
          )}
        </div>
        {entregada ? (
          <div class="campo">
            <div class="acciones">
              <button type="button" class={sinReservas ? 'primario' : ''} aria-pressed={sinReservas} onClick={alternarSinReservas}>
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
