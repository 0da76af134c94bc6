import { useEffect, useMemo, useState } from 'preact/hooks';
import { avisosDeca, derivarTipoVehiculo, faltaParaEmitir } from '../../shared/rules/emision';
import type { Aviso } from '../../shared/errors';
import type { CampoDatos, DecaDatos } from '../../shared/schemas/deca';
import { parsePeso } from '../../shared/rules/peso';
import { aprenderEnDispositivo, claveAgenda, entradasAgenda } from '../data/agenda';
import { buscarLocal, fechaRelativa } from '../data/consultas';
import type { DatosDeca, DecaLocal, EntradaAgendaLocal, EntradaOutbox, FotoLocal } from '../data/db';
import { datosDePropuesta } from '../data/fotos';
import { DecaInput, LONGITUD_ENVIO, LONGITUD_MAXIMA, UNIDADES, issuesToCampos } from '../data/esquemas';
import { CAMPOS_DATOS, crearDeca, datosDeDeca, limpiar, modificarDeca, reenviar, sustituirDeca } from '../data/outbox';
import { ESCRITORIO, useLiveQuery, useMedia } from '../app/hooks';
import { navegar } from '../app/router';
import { contexto } from '../app/sesion';
import { useStore } from '../app/store';
import { Campo, idCampo } from '../components/campo';
import { useConfirmacion } from '../components/dialogo';
import { nombreDeca, rutaDeca } from '../components/insignias';
import { ETIQUETAS, nombreCampo } from '../components/nombres';

interface EnvioForm {
  origen: string;
  destino: string;
  naturaleza: string;
  peso: string;
  unidad: string;
  nota: string;
}
type Valores = Record<string, string> & { envios?: never };
interface Estado {
  v: Valores;
  envios: EnvioForm[];
}

/** Every plain (non-shipment) field of the form. */
const PLANOS = ['ref_externa', ...CAMPOS_DATOS.filter((c): c is Exclude<CampoDatos, 'envios'> => c !== 'envios')] as const;

const PASOS = ['Partes', 'Vehículo', 'Envíos', 'Revisión'] as const;
function pasoDe(path: string): number {
  if (path.startsWith('cargador_') || path.startsWith('transp_')) return 0;
  if (['fecha_transporte', 'tipo_vehiculo', 'matricula', 'matricula_remolque', 'autorizacion_especial', 'conductor_nombre', 'conductor_tel'].includes(path)) return 1;
  if (path.startsWith('envios')) return 2;
  return 3;
}

const envioVacio = (): EnvioForm => ({ origen: '', destino: '', naturaleza: '', peso: '', unidad: '', nota: '' });
const s = (x: unknown) => (x === null || x === undefined ? '' : String(x));

function aFormulario(d: DatosDeca): Estado {
  const v: Valores = {} as Valores;
  for (const k of PLANOS) v[k] = s(d[k]);
  const envios = Array.isArray(d.envios)
    ? (d.envios as Record<string, unknown>[]).map((e) => ({ origen: s(e.origen), destino: s(e.destino), naturaleza: s(e.naturaleza), peso: s(e.peso), unidad: s(e.unidad), nota: s(e.nota) }))
    : [];
  return { v, envios };
}

function enviosBody(envios: EnvioForm[]): Record<string, string>[] {
  return envios.map((e) => limpiar({ ...e }) as Record<string, string>);
}

/** Full body (create, replace): empty strings are «not given». */
function cuerpo(e: Estado): DatosDeca {
  return { ...limpiar(e.v), envios: enviosBody(e.envios) };
}

/** Only what changed against `base` (PATCH semantics: a cleared field is sent as null). */
function diferencias(e: Estado, base: Estado): DatosDeca {
  const out: DatosDeca = {};
  for (const k of PLANOS) if ((e.v[k] ?? '') !== (base.v[k] ?? '')) out[k] = e.v[k] ? e.v[k] : null;
  if (JSON.stringify(e.envios) !== JSON.stringify(base.envios)) out.envios = enviosBody(e.envios);
  return out;
}

type Modo = 'crear' | 'editar' | 'sustituir';

/**
 * Create, modify (method 1), replace (method 2), and fix-and-resend a change
 * the server refused. Checked live with the shared schema and `faltaParaEmitir`,
 * the same code the server runs. Phone: four steps; desktop: one page.
 */
export default function FormularioDeca({ params, query }: { params: string[]; query: URLSearchParams }) {
  const ctx = useStore(contexto)!;
  const ref = params[0];
  const modo: Modo = !ref ? 'crear' : params[1] === 'sustituir' ? 'sustituir' : 'editar';
  const rec = useLiveQuery(async () => (ref ? ((await buscarLocal(ctx.db, ref)) ?? null) : null), [ctx.db, ref]);
  const seqCorregir = Number(query.get('corregir')) || null;
  // «Duplicar»: a new DeCA that starts from another one's data.
  const desde = !ref ? query.get('desde') : null;
  const plantilla = useLiveQuery(async () => (desde ? ((await buscarLocal(ctx.db, desde)) ?? null) : null), [ctx.db, desde]);
  const entrada = useLiveQuery(async () => (seqCorregir ? ((await ctx.db.outbox.get(seqCorregir)) ?? null) : null), [ctx.db, seqCorregir]);
  // «Leer un albarán»: a new DeCA that starts from a photo's proposal.
  const claveFoto = !ref ? query.get('foto') : null;
  const foto = useLiveQuery(async () => (claveFoto ? ((await ctx.db.fotos.get(claveFoto)) ?? null) : null), [ctx.db, claveFoto]);
  if (ref && rec === undefined) return <p aria-busy="true">Cargando…</p>;
  if (ref && !rec) {
    return (
      <p class="aviso error" role="alert">
        Esta DeCA no está en este dispositivo. <a href="/">Volver a la lista</a>
      </p>
    );
  }
  if (seqCorregir && entrada === undefined) return <p aria-busy="true">Cargando…</p>;
  if (desde && plantilla === undefined) return <p aria-busy="true">Cargando…</p>;
  if (claveFoto && foto === undefined) return <p aria-busy="true">Cargando…</p>;
  return (
    <Formulario
      key={`${ref}-${modo}-${seqCorregir}-${desde}-${claveFoto}`}
      modo={modo}
      rec={rec ?? null}
      entrada={entrada ?? null}
      plantilla={plantilla ?? null}
      foto={foto?.lectura ? foto : null}
    />
  );
}

function Formulario({
  modo,
  rec,
  entrada,
  plantilla,
  foto,
}: {
  modo: Modo;
  rec: DecaLocal | null;
  entrada: EntradaOutbox | null;
  plantilla: DecaLocal | null;
  foto: FotoLocal | null;
}) {
  const ctx = useStore(contexto)!;
  const cuenta = ctx.sesion.cuenta;
  const escritorio = useMedia(ESCRITORIO);
  const corrigiendo = entrada?.estado === 'rechazada' ? entrada : null;

  // The form starts from the local view (queued changes included); a correction starts from what was refused.
  const base = useMemo<Estado>(() => {
    if (!rec && plantilla) {
      // Everything but what identifies the other DeCA: today's date, no ref_externa (unique per account).
      return aFormulario({ ...plantilla.datos, fecha_transporte: fechaRelativa(0), ref_externa: null });
    }
    if (!rec) {
      const inicial: DatosDeca = { fecha_transporte: fechaRelativa(0), envios: [{}] };
      const lado = cuenta.rol === 'cargador' ? 'cargador' : 'transp';
      inicial[`${lado}_nombre`] = cuenta.nombre;
      inicial[`${lado}_nif`] = cuenta.nif;
      inicial[`${lado}_domicilio`] = cuenta.domicilio ?? '';
      // What the photo said wins over the defaults; the account's own side stays its own.
      if (foto?.lectura) return aFormulario({ ...inicial, ...datosDePropuesta(foto.lectura.propuesta) });
      return aFormulario(inicial);
    }
    return aFormulario(rec.datos);
  }, [rec?.clave]);
  const servidor = useMemo(() => (rec?.deca ? aFormulario(datosDeDeca(rec.deca)) : null), [rec?.clave]);
  const [e, setE] = useState<Estado>(base);
  const [motivo, setMotivo] = useState(s(corrigiendo?.body.motivo));
  const [email, setEmail] = useState('');
  const [paso, setPaso] = useState(0);
  const [intento, setIntento] = useState(false);
  const [foco, setFoco] = useState<string | null>(null);
  const [aviso, setAviso] = useState<string | null>(null);
  const [enviando, setEnviando] = useState(false);
  // The server's campos for this item, until the user changes that field.
  const [camposServidor, setCamposServidor] = useState<Record<string, string>>(corrigiendo && rec?.rechazo ? rec.rechazo.campos : {});

  const emitida = rec?.estado === 'emitido';
  const pideMotivo = modo === 'sustituir' || (modo === 'editar' && emitida) || Boolean(corrigiendo && (corrigiendo.tipo === 'sustituir' || corrigiendo.body.motivo));

  const { campos, faltan, avisos } = useMemo(() => {
    const body = cuerpo(e);
    const p = DecaInput.safeParse({ ...body, emitir: false });
    const campos = p.success ? {} : issuesToCampos(p.error.issues);
    const d = Object.fromEntries(CAMPOS_DATOS.map((c) => [c, null])) as unknown as DecaDatos;
    if (p.success) {
      for (const c of CAMPOS_DATOS) (d as Record<string, unknown>)[c] = (p.data as Record<string, unknown>)[c] ?? null;
      d.envios = p.data.envios ?? [];
    }
    // The server fills the caller's side from the account when left empty: so do we.
    const emisorRol = rec?.deca?.emisor_rol ?? cuenta.rol;
    const lado = emisorRol === 'cargador' ? 'cargador' : 'transp';
    const dd = d as Record<string, unknown>;
    dd[`${lado}_nombre`] ??= cuenta.nombre;
    dd[`${lado}_nif`] ??= cuenta.nif;
    dd[`${lado}_domicilio`] ??= cuenta.domicilio;
    d.tipo_vehiculo = derivarTipoVehiculo(d);
    // The same warnings the server returns, by field, as the user types (informational ones aside).
    const avisos = p.success ? avisosDeca(d, { tipo_vehiculo: p.data.tipo_vehiculo ?? null, emisorRol }).filter((a) => a.codigo !== 'vehiculo_articulado') : [];
    return { campos, faltan: p.success ? faltaParaEmitir(d, emisorRol) : {}, avisos };
  }, [e]);

  useEffect(() => {
    if (!foco) return;
    document.getElementById(idCampo(foco))?.focus();
    setFoco(null);
  }, [foco, paso]);

  function ir(path: string) {
    setPaso(pasoDe(path));
    setFoco(path.replace(/^envios$/, 'envios[0].origen'));
  }

  const { confirmar, dialogo } = useConfirmacion();
  // A datum read from the photo with little certainty is marked until the user changes it.
  const propuestaFoto = useMemo(() => (foto?.lectura ? aFormulario(datosDePropuesta(foto.lectura.propuesta)) : null), [foto?.clave]);
  const propio = cuenta.rol === 'cargador' ? 'cargador_' : 'transp_';
  const dudosoDeLaFoto = (path: string): boolean => {
    const c = foto?.lectura?.confianza[path];
    if (c === undefined || c >= 0.8 || !propuestaFoto) return false;
    // The account's own company, put on its side from the account's data, was not read from the photo.
    if (path.startsWith(propio) && e.v[path] === s({ nombre: cuenta.nombre, nif: cuenta.nif, domicilio: cuenta.domicilio }[path.slice(propio.length)])) return false;
    const m = /^envios\[(\d+)\]\.(\w+)$/.exec(path);
    const ahora = m ? e.envios[Number(m[1])]?.[m[2] as keyof EnvioForm] : e.v[path];
    const leido = m ? propuestaFoto.envios[Number(m[1])]?.[m[2] as keyof EnvioForm] : propuestaFoto.v[path];
    return ahora === leido;
  };
  const advertencia = (path: string): string | undefined =>
    avisos.find((a) => a.campo === path)?.mensaje ?? (dudosoDeLaFoto(path) ? 'Leído de la foto con poca seguridad: compruébelo.' : undefined);
  const error = (path: string): string | undefined => camposServidor[path] ?? campos[path] ?? (intento ? faltan[path] : undefined);
  /** New values for the plain fields, after the user changed `k` (its server refusal is cleared). */
  const poner = (v: Valores, k: string) => {
    setE({ ...e, v });
    if (camposServidor[k]) setCamposServidor(({ [k]: _, ...rest }) => rest);
  };
  const setV = (k: string) => (x: string) => poner({ ...e.v, [k]: x } as Valores, k);
  // The address book: suggestions in every party, vehicle and place field, from the device's copy (offline too).
  const empresas = useLiveQuery(() => entradasAgenda(ctx.db, 'empresas'), [ctx.db]) ?? [];
  const vehiculos = useLiveQuery(() => entradasAgenda(ctx.db, 'vehiculos'), [ctx.db]) ?? [];
  const lugares = useLiveQuery(() => entradasAgenda(ctx.db, 'lugares'), [ctx.db]) ?? [];
  /**
   * A party's name or NIF, or a plate, that is an address-book entry fills the fields of the same
   * party or vehicle that are still empty (what the user typed is never overwritten).
   */
  const conAgenda = (k: string) => (x: string) => {
    let v: Valores = { ...e.v, [k]: x } as Valores;
    const m = /^(cargador|transp)_(nombre|nif)$/.exec(k);
    let entrada: EntradaAgendaLocal | undefined;
    if (m) {
      entrada = empresas.find((a) => (m[2] === 'nif' ? a.clave === claveAgenda('empresas', { nif: x }) && x.trim() !== '' : a.datos.nombre === x));
      if (entrada) {
        for (const campo of ['nombre', 'nif', 'domicilio'] as const) {
          const destino = `${m[1]}_${campo}`;
          if (destino !== k && !v[destino]?.trim() && entrada.datos[campo]) v = { ...v, [destino]: entrada.datos[campo]! } as Valores;
        }
      }
    } else if (k === 'matricula' && x.trim()) {
      entrada = vehiculos.find((a) => a.clave === claveAgenda('vehiculos', { matricula: x }));
      for (const campo of ['matricula_remolque', 'conductor_nombre', 'conductor_tel'] as const) {
        if (entrada && !v[campo]?.trim() && entrada.datos[campo]) v = { ...v, [campo]: entrada.datos[campo]! } as Valores;
      }
    }
    poner(v, k);
  };
  const setEnvio = (i: number, k: keyof EnvioForm) => (x: string) => {
    setE({ ...e, envios: e.envios.map((en, j) => (j === i ? { ...en, [k]: x } : en)) });
    const p = `envios[${i}].${k}`;
    if (camposServidor[p]) setCamposServidor(({ [p]: _, ...rest }) => rest);
  };

  const campo = (k: string, extra: Partial<Parameters<typeof Campo>[0]> = {}) => (
    <Campo
      path={k}
      etiqueta={ETIQUETAS[k] ?? k}
      valor={e.v[k] ?? ''}
      onInput={setV(k)}
      error={error(k)}
      advertencia={advertencia(k)}
      max={(LONGITUD_MAXIMA as Record<string, number>)[k]}
      {...extra}
    />
  );

  async function guardar(accion: 'emitir' | 'pendiente' | 'guardar') {
    setIntento(accion === 'emitir');
    setAviso(null);
    const primero = Object.keys(campos)[0];
    if (primero) {
      setAviso('Hay datos con un formato no válido: corríjalos antes de guardar.');
      return ir(primero);
    }
    if (pideMotivo && !motivo.trim()) {
      // Issued or replaced: the data is complete, so marking what is missing only marks the reason.
      setIntento(true);
      setAviso('Indique el motivo del cambio.');
      setPaso(3);
      return setFoco('motivo');
    }
    const emitiendo = accion === 'emitir' || emitida || modo === 'sustituir';
    const falta = Object.keys(faltan)[0];
    if (emitiendo && falta) {
      setIntento(true);
      setAviso(`Faltan datos para emitir (${Object.keys(faltan).length}). Puede dejarla pendiente o completarlos.`);
      return ir(falta);
    }
    if (emitiendo && avisos.length > 0) {
      const seguir = await confirmar({
        titulo: avisos.length === 1 ? 'Un dato merece revisión' : `${avisos.length} datos merecen revisión`,
        cuerpo: <ListaAvisos avisos={avisos} />,
        aceptar: modo === 'crear' || accion === 'emitir' ? 'Emitir de todos modos' : 'Guardar de todos modos',
        cancelar: 'Revisar los datos',
      });
      if (!seguir) {
        setAviso('Revise los datos señalados con ⚠ antes de emitir.');
        return ir(avisos[0]!.campo ?? 'envios');
      }
    }
    setEnviando(true);
    try {
      let destino: DecaLocal | null | undefined = rec;
      if (corrigiendo) {
        const cuerpoNuevo =
          corrigiendo.tipo === 'crear'
            ? { ...cuerpo(e), emitir: corrigiendo.body.emitir }
            : corrigiendo.tipo === 'sustituir'
              ? { ...diferencias(e, servidor ?? base), motivo: motivo.trim() }
              : { ...diferencias(e, servidor ?? base), ...(corrigiendo.body.motivo ? { motivo: motivo.trim() } : {}), ...(corrigiendo.body.emitir ? { emitir: true } : {}) };
        await reenviar(ctx.db, corrigiendo.seq!, cuerpoNuevo);
      } else if (modo === 'crear') {
        const body = cuerpo(e);
        if (accion === 'pendiente' && email.trim()) body.pedir_datos_email = email.trim();
        // No network: issued here, with a number this device holds, its PDF and signed QR shown at once.
        const enDispositivo = accion === 'emitir' && !navigator.onLine ? await (await import('../data/sin-cobertura')).emitirSinCobertura(ctx.db, ctx.sesion.cuenta, ctx.entorno, body) : null;
        destino = enDispositivo ?? (await crearDeca(ctx.db, body, { emitir: accion === 'emitir' }));
      } else if (modo === 'sustituir') {
        destino = await sustituirDeca(ctx.db, rec!.clave, diferencias(e, base), motivo.trim());
      } else {
        const cambios = diferencias(e, base);
        if (Object.keys(cambios).length === 0 && accion !== 'emitir') {
          setAviso('No ha cambiado ningún dato.');
          return;
        }
        destino = await modificarDeca(ctx.db, rec!.clave, cambios, { motivo: emitida ? motivo.trim() : undefined, emitir: accion === 'emitir' });
      }
      // What it says goes into the device's address book at once (the server learns it when the DeCA arrives).
      await aprenderEnDispositivo(ctx.db, cuerpo(e)).catch(() => {});
      // The photo's proposal has become a DeCA: it is not offered again.
      if (foto) await ctx.db.fotos.delete(foto.clave);
      if (destino) navegar(rutaDeca(destino), { replace: true });
    } catch (err) {
      setAviso(`No se pudo guardar en este dispositivo: ${(err as Error).message}`);
    } finally {
      setEnviando(false);
    }
  }

  const titulo = corrigiendo
    ? `Corregir y reenviar ${rec ? nombreDeca(rec) : ''}`
    : modo === 'crear'
      ? plantilla
        ? `Nueva DeCA a partir de ${nombreDeca(plantilla)}`
        : 'Nueva DeCA'
      : modo === 'sustituir'
        ? `Sustituir ${nombreDeca(rec!)}`
        : emitida
          ? `Modificar ${nombreDeca(rec!)}`
          : `Editar ${nombreDeca(rec!)}`;
  const ver = (i: number) => escritorio || paso === i;
  const nFaltan = Object.keys(faltan).length;
  const nErrores = Object.keys(campos).length;

  return (
    <section>
      <h1 tabIndex={-1}>{titulo}</h1>
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
          <strong>Sustituir</strong> crea una DeCA nueva, con otro número y otro QR, y esta queda como sustituida. Úselo cuando cambia el
          transporte (otro cargador, otra mercancía); para corregir un dato del mismo transporte, use «Modificar».
        </p>
      )}
      {modo === 'editar' && emitida && (
        <p class="explicacion">
          <strong>Modificar</strong> conserva el número y el QR de la DeCA: su versión sube y el cambio queda en el historial con el motivo (por
          ejemplo, otra matrícula o la fecha). Si cambia el transporte en sí, use «Sustituir».
        </p>
      )}
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
      <form onSubmit={(ev) => ev.preventDefault()} noValidate>
        {ver(0) && (
          <div class="rejilla dos">
            <fieldset>
              <legend>Cargador</legend>
              {campo('cargador_nombre', { onInput: conAgenda('cargador_nombre'), extra: { list: 'agenda-nombres', autoComplete: 'off' } })}
              {campo('cargador_nif', { onInput: conAgenda('cargador_nif'), extra: { list: 'agenda-nifs', autoComplete: 'off' } })}
              {campo('cargador_domicilio')}
            </fieldset>
            <fieldset>
              <legend>Transportista</legend>
              {campo('transp_nombre', { onInput: conAgenda('transp_nombre'), extra: { list: 'agenda-nombres', autoComplete: 'off' } })}
              {campo('transp_nif', { onInput: conAgenda('transp_nif'), extra: { list: 'agenda-nifs', autoComplete: 'off' } })}
              {campo('transp_domicilio')}
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
                    sufijo={unidadEscrita(en) ?? 'kg'}
                    extra={{ inputMode: 'decimal' }}
                    pista="Por ejemplo 24.500 o 1,5 t"
                  />
                  <Campo path={`envios[${i}].unidad`} etiqueta={ETIQUETAS.unidad!} valor={en.unidad} onInput={setEnvio(i, 'unidad')} error={error(`envios[${i}].unidad`)} opciones={[['', 'Según el peso (kg)'], ...UNIDADES.map((u): [string, string] => [u, u])]} />
                  <Campo path={`envios[${i}].nota`} etiqueta={ETIQUETAS.nota!} valor={en.nota} onInput={setEnvio(i, 'nota')} error={error(`envios[${i}].nota`)} max={LONGITUD_ENVIO.nota} />
                </div>
                {e.envios.length > 1 && (
                  <button type="button" class="peligro" onClick={() => setE({ ...e, envios: e.envios.filter((_, j) => j !== i) })}>
                    Quitar envío {i + 1}
                  </button>
                )}
              </fieldset>
            ))}
            {e.envios.length < 48 && (
              <button type="button" onClick={() => setE({ ...e, envios: [...e.envios, envioVacio()] })}>
                Añadir envío
              </button>
            )}
          </fieldset>
        )}
        {ver(3) && (
          <fieldset>
            <legend>Referencias y revisión</legend>
            <div class="rejilla dos">
              {campo('ref_externa')}
              {campo('referencia')}
            </div>
            {campo('observaciones', { multilinea: true })}
            {pideMotivo && <Campo path="motivo" etiqueta={ETIQUETAS.motivo!} valor={motivo} onInput={setMotivo} error={intento && !motivo.trim() ? 'Obligatorio' : camposServidor.motivo} pista="Queda en el historial de la DeCA." />}
            {modo === 'crear' && !corrigiendo && (
              <Campo path="pedir_datos_email" etiqueta="Correo de la otra parte (opcional)" tipo="email" valor={email} onInput={setEmail} error={campos.pedir_datos_email} pista="Si la deja pendiente, se le enviará el enlace para completar sus datos." />
            )}
          </fieldset>
        )}
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
