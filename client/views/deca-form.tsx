import type { ComponentChildren } from 'preact';
import type { Aviso } from '../../shared/errors';
import { parsePeso } from '../../shared/rules/peso';
import { Campo, idCampo } from '../components/campo';
import { useConfirmacion } from '../components/dialogo';
import { ETIQUETAS, nombreCampo } from '../components/nombres';
import { LONGITUD_ENVIO, LONGITUD_MAXIMA, UNIDADES } from '../data/esquemas';
import { type EnvioForm, PASOS } from './deca-form/estado';
import { FotoAlbaran } from './deca-form/foto-albaran';
import { ResumenDeca } from './deca-form/resumen';
import { type Origen, useFormulario, useOrigenFormulario } from './deca-form/use-formulario';

/**
 * Create, modify (method 1), replace (method 2), and fix-and-resend a change
 * the server refused. Checked live with the shared schema and the server's
 * own rules for what is missing to issue (deca-form/estado.ts). Phone: four
 * steps; desktop: one page. State and saving live in deca-form/use-formulario.ts.
 */
export default function FormularioDeca({ params, query }: { params: string[]; query: URLSearchParams }) {
  const { cargando, noEsta, origen, clave } = useOrigenFormulario(params, query);
  if (cargando) return <p aria-busy="true">Cargando…</p>;
  if (noEsta) {
    return (
      <p class="aviso error" role="alert">
        Esta DeCA no está en este dispositivo. <a href="/">Volver a la lista</a>
      </p>
    );
  }
  return <Formulario key={clave} {...origen} />;
}

function Formulario(origen: Origen) {
  const { modo, rec, foto } = origen;
  const { confirmar, dialogo } = useConfirmacion();
  const f = useFormulario(origen, (avisos: Aviso[], aceptar: string) =>
    confirmar({
      titulo: avisos.length === 1 ? 'Un dato merece revisión' : `${avisos.length} datos merecen revisión`,
      cuerpo: <ListaAvisos avisos={avisos} />,
      aceptar,
      cancelar: 'Revisar los datos',
    }),
  );
  const {
    titulo,
    escritorio,
    corrigiendo,
    emitida,
    pideMotivo,
    e,
    motivo,
    setMotivo,
    email,
    setEmail,
    paso,
    setPaso,
    ver,
    intento,
    aviso,
    enviando,
    camposServidor,
    campos,
    faltan,
    avisos,
    ir,
    error,
    advertencia,
    revisar,
    zona,
    activo,
    alEnfocar,
    setEnvio,
    conAgenda,
    guardar,
    empresas,
    vehiculos,
    lugares,
  } = f;
  const nFaltan = Object.keys(faltan).length;
  const nErrores = Object.keys(campos).length;

  const campo = (k: string, extra: Partial<Parameters<typeof Campo>[0]> = {}) => (
    <Campo
      path={k}
      etiqueta={ETIQUETAS[k] ?? k}
      valor={e.v[k] ?? ''}
      onInput={f.setV(k)}
      error={error(k)}
      advertencia={advertencia(k)}
      revisar={revisar(k)}
      max={(LONGITUD_MAXIMA as Record<string, number>)[k]}
      {...extra}
    />
  );

  /**
   * The eFTI data (optional, not printed), folded away under its party,
   * vehicle or shipment: open when it holds something, or something to fix.
   */
  const efti = (paths: string[], valores: string[], hijos: ComponentChildren) => (
    <details class="efti" open={valores.some((v) => v.trim() !== '') || paths.some((k) => Boolean(error(k) || advertencia(k)))}>
      <summary>Datos para eFTI (opcional)</summary>
      {hijos}
    </details>
  );
  const direccionEfti = (lado: 'cargador' | 'transp') => {
    const paths = [`${lado}_cp`, `${lado}_municipio`, `${lado}_provincia`, `${lado}_pais`];
    return efti(
      paths,
      paths.map((k) => e.v[k] ?? ''),
      <div class="rejilla dos">
        {campo(`${lado}_cp`, { extra: { autoComplete: 'off' } })}
        {campo(`${lado}_municipio`)}
        {campo(`${lado}_provincia`)}
        {campo(`${lado}_pais`, { extra: { autoCapitalize: 'characters', autoComplete: 'off' }, pista: 'Código de dos letras; vacío es ES.' })}
      </div>,
    );
  };

  return (
    <section class={foto ? 'con-foto' : undefined}>
      <h1 tabIndex={-1} onFocus={f.alEnfocarTitulo}>
        {titulo}
      </h1>
      {dialogo}
      {corrigiendo && rec?.rechazo && (
        <div class="aviso error" role="alert">
          <p>
            <strong>El servidor rechazó este cambio:</strong> {rec.rechazo.mensaje}
          </p>
          <p>Corrija los campos marcados y pulse «Reenviar».</p>
        </div>
      )}
      {modo === 'sustituir' && (
        <p class="explicacion">
          <strong>Sustituir</strong> crea una DeCA nueva, con otro número y otro QR, y esta queda como sustituida. Úselo cuando cambia el transporte (otro cargador, otra mercancía); para corregir un
          dato del mismo transporte, use «Modificar».
        </p>
      )}
      {modo === 'editar' && emitida && (
        <p class="explicacion">
          <strong>Modificar</strong> conserva el número y el QR de la DeCA: su versión sube y el cambio queda en el historial con el motivo (por ejemplo, otra matrícula o la fecha). Si cambia el
          transporte en sí, use «Sustituir».
        </p>
      )}
      {foto && <FotoAlbaran foto={foto.foto} zona={zona} campo={activo} escritorio={escritorio} />}
      {!escritorio && (
        <ol class="pasos" aria-label="Pasos">
          {PASOS.map((p, i) => (
            <li key={p}>
              <button type="button" aria-current={i === paso ? 'step' : undefined} onClick={() => setPaso(i)}>
                {i + 1}. {p}
              </button>
            </li>
          ))}
        </ol>
      )}
      <form onSubmit={(ev) => ev.preventDefault()} onFocusCapture={alEnfocar} noValidate>
        {ver(0) && (
          <div class="rejilla dos">
            <fieldset>
              <legend>Cargador</legend>
              {campo('cargador_nombre', { onInput: conAgenda('cargador_nombre'), extra: { list: 'agenda-nombres', autoComplete: 'off' } })}
              {campo('cargador_nif', { onInput: conAgenda('cargador_nif'), extra: { list: 'agenda-nifs', autoComplete: 'off' } })}
              {campo('cargador_domicilio')}
              {direccionEfti('cargador')}
            </fieldset>
            <fieldset>
              <legend>Transportista</legend>
              {campo('transp_nombre', { onInput: conAgenda('transp_nombre'), extra: { list: 'agenda-nombres', autoComplete: 'off' } })}
              {campo('transp_nif', { onInput: conAgenda('transp_nif'), extra: { list: 'agenda-nifs', autoComplete: 'off' } })}
              {campo('transp_domicilio')}
              {direccionEfti('transp')}
            </fieldset>
          </div>
        )}
        {ver(1) && (
          <fieldset>
            <legend>Vehículo y conductor</legend>
            <div class="rejilla tres">
              {campo('fecha_transporte', { tipo: 'date' })}
              {campo('matricula', { onInput: conAgenda('matricula'), extra: { autoCapitalize: 'characters', list: 'agenda-matriculas', autoComplete: 'off' } })}
              {campo('matricula_remolque', { extra: { autoCapitalize: 'characters', list: 'agenda-remolques', autoComplete: 'off' }, pista: 'Con remolque, el vehículo es articulado.' })}
              {campo('tipo_vehiculo', {
                opciones: [
                  ['', 'Según las matrículas'],
                  ['rigido', 'Rígido'],
                  ['articulado', 'Articulado'],
                ],
              })}
              {campo('autorizacion_especial')}
              {campo('conductor_nombre')}
              {campo('conductor_tel', { tipo: 'tel' })}
            </div>
            {efti(
              ['matricula_pais', 'remolque_pais'],
              [e.v.matricula_pais ?? '', e.v.remolque_pais ?? ''],
              <div class="rejilla dos">
                {campo('matricula_pais', { extra: { autoCapitalize: 'characters', autoComplete: 'off' }, pista: 'Solo si no es española: FR, PT, DE…' })}
                {campo('remolque_pais', { extra: { autoCapitalize: 'characters', autoComplete: 'off' }, pista: 'Solo si no es española.' })}
              </div>,
            )}
          </fieldset>
        )}
        {ver(2) && (
          <fieldset>
            <legend>Envíos</legend>
            {error('envios') && <p class="error-campo">{error('envios')}</p>}
            {e.envios.map((en, i) => (
              <fieldset class="envio" key={i}>
                <legend>Envío {i + 1}</legend>
                <div class="rejilla tres">
                  {(['origen', 'destino', 'naturaleza'] as const).map((k) => (
                    <Campo
                      key={k}
                      path={`envios[${i}].${k}`}
                      etiqueta={ETIQUETAS[k]!}
                      valor={en[k]}
                      onInput={setEnvio(i, k)}
                      error={error(`envios[${i}].${k}`)}
                      advertencia={advertencia(`envios[${i}].${k}`)}
                      revisar={revisar(`envios[${i}].${k}`)}
                      max={LONGITUD_ENVIO[k]}
                      extra={k === 'naturaleza' ? undefined : { list: 'agenda-lugares', autoComplete: 'off' }}
                    />
                  ))}
                  <Campo
                    path={`envios[${i}].peso`}
                    etiqueta={ETIQUETAS.peso!}
                    valor={en.peso}
                    onInput={setEnvio(i, 'peso')}
                    error={error(`envios[${i}].peso`)}
                    advertencia={advertencia(`envios[${i}].peso`)}
                    revisar={revisar(`envios[${i}].peso`)}
                    sufijo={unidadEscrita(en) ?? 'kg'}
                    extra={{ inputMode: 'decimal' }}
                    pista="Por ejemplo 24.500 o 1,5 t"
                  />
                  <Campo
                    path={`envios[${i}].unidad`}
                    etiqueta={ETIQUETAS.unidad!}
                    valor={en.unidad}
                    onInput={setEnvio(i, 'unidad')}
                    error={error(`envios[${i}].unidad`)}
                    revisar={revisar(`envios[${i}].unidad`)}
                    opciones={[['', 'Según el peso (kg)'], ...UNIDADES.map((u): [string, string] => [u, u])]}
                  />
                  <Campo path={`envios[${i}].nota`} etiqueta={ETIQUETAS.nota!} valor={en.nota} onInput={setEnvio(i, 'nota')} error={error(`envios[${i}].nota`)} max={LONGITUD_ENVIO.nota} />
                </div>
                {efti(
                  [`envios[${i}].destinatario_nombre`, `envios[${i}].destinatario_nif`],
                  [en.destinatario_nombre, en.destinatario_nif],
                  <div class="rejilla dos">
                    {(['destinatario_nombre', 'destinatario_nif'] as const).map((k) => (
                      <Campo
                        key={k}
                        path={`envios[${i}].${k}`}
                        etiqueta={ETIQUETAS[k]!}
                        valor={en[k]}
                        onInput={setEnvio(i, k)}
                        error={error(`envios[${i}].${k}`)}
                        advertencia={advertencia(`envios[${i}].${k}`)}
                        max={LONGITUD_ENVIO[k]}
                        extra={{ autoComplete: 'off' }}
                      />
                    ))}
                  </div>,
                )}
                {e.envios.length > 1 && (
                  <button type="button" class="peligro" onClick={() => f.quitarEnvio(i)}>
                    Quitar envío {i + 1}
                  </button>
                )}
              </fieldset>
            ))}
            {e.envios.length < 48 && (
              <button type="button" onClick={f.anadirEnvio}>
                Añadir envío
              </button>
            )}
          </fieldset>
        )}
        {ver(3) && (
          <fieldset>
            <legend>Sus referencias y notas</legend>
            <div class="rejilla dos">
              {campo('ref_externa', { pista: 'Un código suyo para encontrar esta DeCA (pedido, albarán…). Opcional.' })}
              {campo('referencia', { pista: 'Otra referencia para su oficina. Opcional.' })}
            </div>
            {campo('observaciones', { multilinea: true })}
            {pideMotivo && (
              <Campo
                path="motivo"
                etiqueta={ETIQUETAS.motivo!}
                valor={motivo}
                onInput={setMotivo}
                error={intento && !motivo.trim() ? 'Obligatorio' : camposServidor.motivo}
                pista="Queda en el historial de la DeCA."
              />
            )}
            {modo === 'crear' && !corrigiendo && (
              <Campo
                path="pedir_datos_email"
                etiqueta="Correo de la otra parte (opcional)"
                tipo="email"
                valor={email}
                onInput={setEmail}
                error={campos.pedir_datos_email}
                pista="Si la deja pendiente, se le enviará el enlace para completar sus datos."
              />
            )}
          </fieldset>
        )}
        {ver(3) && <ResumenDeca e={e} />}
        {(ver(3) || escritorio) && (
          <div class={`faltan ${nFaltan === 0 && nErrores === 0 ? 'completa' : ''}`} data-testid="faltan" aria-live="polite">
            {nErrores > 0 ? (
              <>
                <p>
                  <strong>Datos no válidos ({nErrores}):</strong>
                </p>
                <ListaCampos campos={campos} ir={ir} />
              </>
            ) : nFaltan === 0 ? (
              <>
                <p>
                  <strong>{emitida || modo === 'sustituir' ? 'Datos completos.' : 'Lista para emitir.'}</strong>
                  {avisos.length > 0 && ` Revise antes ${avisos.length === 1 ? 'este aviso' : `estos ${avisos.length} avisos`}:`}
                </p>
                {avisos.length > 0 && <ListaAvisos avisos={avisos} ir={ir} />}
              </>
            ) : (
              <>
                <p>
                  <strong>Falta para emitir ({nFaltan}):</strong>
                </p>
                <ListaCampos campos={faltan} ir={ir} />
                {avisos.length > 0 && (
                  <>
                    <p>
                      <strong>Revise también {avisos.length === 1 ? 'este aviso' : `estos ${avisos.length} avisos`}:</strong>
                    </p>
                    <ListaAvisos avisos={avisos} ir={ir} />
                  </>
                )}
              </>
            )}
          </div>
        )}
        {aviso && (
          <p class="aviso error" role="alert">
            {aviso}
          </p>
        )}
        <div class="acciones">
          {!escritorio && paso > 0 && (
            <button type="button" onClick={() => setPaso(paso - 1)}>
              Atrás
            </button>
          )}
          {!escritorio && paso < 3 ? (
            <button type="button" class="primario" onClick={() => setPaso(paso + 1)}>
              Siguiente: {PASOS[paso + 1]}
            </button>
          ) : corrigiendo ? (
            <button type="button" class="primario" disabled={enviando} onClick={() => guardar('guardar')}>
              Reenviar
            </button>
          ) : modo === 'crear' ? (
            <>
              <button type="button" class="primario" disabled={enviando} onClick={() => guardar('emitir')}>
                Emitir ahora
              </button>
              <button type="button" disabled={enviando} onClick={() => guardar('pendiente')}>
                Dejar pendiente
              </button>
            </>
          ) : modo === 'sustituir' ? (
            <button type="button" class="primario" disabled={enviando} onClick={() => guardar('guardar')}>
              Sustituir
            </button>
          ) : emitida ? (
            <button type="button" class="primario" disabled={enviando} onClick={() => guardar('guardar')}>
              Guardar nueva versión
            </button>
          ) : (
            <>
              <button type="button" class="primario" disabled={enviando} onClick={() => guardar('guardar')}>
                Guardar
              </button>
              {rec?.estado === 'pendiente' && (
                <button type="button" disabled={enviando} onClick={() => guardar('emitir')}>
                  Guardar y emitir
                </button>
              )}
            </>
          )}
        </div>
        <p class="pista">Se guarda primero en este dispositivo y se envía en cuanto haya conexión.</p>
        <datalist id="agenda-nombres">
          {empresas.map((a) => (
            <option key={a.clave} value={a.datos.nombre ?? ''} label={a.datos.nif ?? ''} />
          ))}
        </datalist>
        <datalist id="agenda-nifs">
          {empresas.map((a) => (
            <option key={a.clave} value={a.datos.nif ?? ''} label={a.datos.nombre ?? ''} />
          ))}
        </datalist>
        <datalist id="agenda-matriculas">
          {vehiculos.map((a) => (
            <option key={a.clave} value={a.datos.matricula ?? ''} label={a.datos.conductor_nombre ?? ''} />
          ))}
        </datalist>
        <datalist id="agenda-remolques">
          {[...new Set(vehiculos.map((a) => a.datos.matricula_remolque).filter((r): r is string => Boolean(r)))].map((r) => (
            <option key={r} value={r} />
          ))}
        </datalist>
        <datalist id="agenda-lugares">
          {lugares.map((a) => (
            <option key={a.clave} value={a.datos.texto ?? ''} />
          ))}
        </datalist>
      </form>
    </section>
  );
}

/** The unit a shipment's quantity is in: the one chosen, else the one written after the number («1,5 t»). */
function unidadEscrita(en: EnvioForm): string | null {
  if (en.unidad) return en.unidad;
  const r = en.peso.trim() ? parsePeso(en.peso) : null;
  return r?.ok && r.unidad ? r.unidad : null;
}

/** Warnings by field: each names the field and, in the form, takes the user to it. */
function ListaAvisos({ avisos, ir }: { avisos: Aviso[]; ir?: (campo: string) => void }) {
  return (
    <ul class="lista-avisos" data-testid="avisos">
      {avisos.map((a) => (
        <li key={`${a.campo}-${a.codigo}`}>
          {ir && a.campo ? (
            <a href={`#${idCampo(a.campo)}`} onClick={(ev) => (ev.preventDefault(), ir(a.campo!))}>
              {nombreCampo(a.campo)}
            </a>
          ) : (
            <strong>{a.campo ? nombreCampo(a.campo) : 'Aviso'}</strong>
          )}
          : {a.mensaje}
        </li>
      ))}
    </ul>
  );
}

/** Field paths with their message, each a link that takes the user to the field. */
function ListaCampos({ campos, ir }: { campos: Record<string, string>; ir: (campo: string) => void }) {
  return (
    <ul>
      {Object.entries(campos).map(([p, m]) => (
        <li key={p}>
          <a href={`#${idCampo(p)}`} onClick={(ev) => (ev.preventDefault(), ir(p))}>
            {nombreCampo(p)}
          </a>
          : {m}
        </li>
      ))}
    </ul>
  );
}
