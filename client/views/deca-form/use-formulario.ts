/**
 * The DeCA form's state and effects: what it starts from, what the user
 * typed, what is missing or refused (estado.ts's `comprobar`, the server's
 * own rules), where the focus goes, and saving through the outbox. The view
 * (deca-form.tsx) only lays it out.
 */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { Aviso } from '../../../shared/errors';
import { CONFIANZA_REVISAR } from '../../../shared/rules/fotos';
import { ESCRITORIO, useLiveQuery, useMedia } from '../../app/hooks';
import { navegar } from '../../app/router';
import { contexto } from '../../app/sesion';
import { useStore } from '../../app/store';
import { idCampo } from '../../components/campo';
import { nombreDeca, rutaDeca } from '../../components/insignias';
import { aprenderEnDispositivo, claveAgenda } from '../../data/agenda';
import { sugerenciasAgenda } from '../../data/agenda-cambios';
import { buscarLocal, fechaRelativa } from '../../data/consultas';
import type { DatosDeca, DecaLocal, EntradaAgendaLocal, EntradaOutbox, FotoLocal, Zona } from '../../data/db';
import { datosDePropuesta } from '../../data/fotos';
import { crearDeca, datosDeDeca, modificarDecaLocal, reenviar, sustituirDeca } from '../../data/outbox';
import { aFormulario, comprobar, cuerpo, diferencias, type EnvioForm, type Estado, envioVacio, type Operacion, ordenDeCampo, pasoDe, s, type Valores } from './estado';

export type Modo = 'crear' | 'editar' | 'sustituir';

/** What the form starts from, read from this device: the DeCA, a refused change to fix, a DeCA to copy, a photo's proposal. */
export interface Origen {
  modo: Modo;
  rec: DecaLocal | null;
  entrada: EntradaOutbox | null;
  plantilla: DecaLocal | null;
  foto: FotoLocal | null;
}

/**
 * Read what the route names (`/decas/nueva?desde=…|foto=…`, `/decas/<ref>`,
 * `/decas/<ref>/sustituir`, `?corregir=<seq>`). `cargando` while any is still
 * being read; `noEsta` when the DeCA is not on this device.
 */
export function useOrigenFormulario(params: string[], query: URLSearchParams): { cargando: boolean; noEsta: boolean; origen: Origen; clave: string } {
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
  const cargando = (Boolean(ref) && rec === undefined) || (Boolean(seqCorregir) && entrada === undefined) || (Boolean(desde) && plantilla === undefined) || (Boolean(claveFoto) && foto === undefined);
  return {
    cargando,
    noEsta: Boolean(ref) && rec === null,
    // (A photo a DeCA was already made from is that DeCA's: it proposes nothing again.)
    origen: { modo, rec: rec ?? null, entrada: entrada ?? null, plantilla: plantilla ?? null, foto: foto?.lectura && foto.estado === 'lista' ? foto : null },
    clave: `${ref}-${modo}-${seqCorregir}-${desde}-${claveFoto}`,
  };
}

export type Accion = 'emitir' | 'pendiente' | 'guardar';

/**
 * A refused create keeps the photo it was made from when resent, unless the
 * photo was the refusal (gone from the server: read 30 days before, say): then
 * the DeCA is resent without it rather than refused again for it.
 */
function fotoQueSigue(e: EntradaOutbox, rec: DecaLocal | null): { foto_id?: unknown } {
  return e.body.foto_id && !rec?.rechazo?.campos.foto_id ? { foto_id: e.body.foto_id } : {};
}

/**
 * Create, modify (method 1), replace (method 2), and fix-and-resend a change
 * the server refused. `confirmarAvisos` asks the user whether to go on
 * despite the warnings (the view's dialog).
 */
export function useFormulario({ modo, rec, entrada, plantilla, foto }: Origen, confirmarAvisos: (avisos: Aviso[], aceptar: string) => Promise<boolean>) {
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

  // The request this form becomes: a create (a new DeCA, or a refused create being fixed), else a change
  // applied to what the server will hold by then (its copy for a correction, the local view otherwise).
  const operacion = useMemo<Operacion>(() => {
    if (modo === 'crear' || corrigiendo?.tipo === 'crear') return { tipo: 'crear' };
    return { tipo: 'modificar', antes: corrigiendo ? (servidor ?? base) : base, emisorRol: rec?.deca?.emisor_rol ?? cuenta.rol, creadaAqui: !rec?.deca };
  }, [modo, corrigiendo?.tipo, servidor, base, rec?.deca?.emisor_rol, Boolean(rec?.deca)]);
  const { campos, faltan, avisos } = useMemo(
    () => comprobar(e, operacion, { nombre: cuenta.nombre, nif: cuenta.nif, domicilio: cuenta.domicilio ?? null, rol: cuenta.rol }),
    [e, operacion, cuenta.nombre, cuenta.nif, cuenta.domicilio, cuenta.rol],
  );

  useEffect(() => {
    if (!foco) return;
    document.getElementById(idCampo(foco))?.focus();
    setFoco(null);
  }, [foco, paso]);

  /** Take the user to a field: its step, then its input. */
  function ir(path: string) {
    setPaso(pasoDe(path));
    setFoco(path.replace(/^envios$/, 'envios[0].origen'));
  }

  // A datum read from the photo with little certainty is marked «revisar» until the user changes it.
  const propuestaFoto = useMemo(() => (foto?.lectura ? aFormulario(datosDePropuesta(foto.lectura.propuesta)) : null), [foto?.clave]);
  const propio = cuenta.rol === 'cargador' ? 'cargador_' : 'transp_';
  const revisar = (path: string): boolean => {
    const c = foto?.lectura?.confianza[path];
    if (c === undefined || c >= CONFIANZA_REVISAR || !propuestaFoto) return false;
    // The account's own company, put on its side from the account's data, was not read from the photo.
    if (path.startsWith(propio) && e.v[path] === s({ nombre: cuenta.nombre, nif: cuenta.nif, domicilio: cuenta.domicilio }[path.slice(propio.length)])) return false;
    const m = /^envios\[(\d+)\]\.(\w+)$/.exec(path);
    const ahora = m ? e.envios[Number(m[1])]?.[m[2] as keyof EnvioForm] : e.v[path];
    const leido = m ? propuestaFoto.envios[Number(m[1])]?.[m[2] as keyof EnvioForm] : propuestaFoto.v[path];
    return ahora === leido;
  };
  const advertencia = (path: string): string | undefined => avisos.find((a) => a.campo === path)?.mensaje;

  // The proposal opens on the first datum to review (its step, its field), as the user meets them top to bottom.
  const inicial = useRef<string | null>(null);
  useEffect(() => {
    inicial.current =
      Object.keys(foto?.lectura?.confianza ?? {})
        .filter(revisar)
        .sort((a, b) => ordenDeCampo(a) - ordenDeCampo(b))[0] ?? null;
    if (inicial.current) ir(inicial.current);
  }, []);
  /** After a navigation the app focuses the new screen's heading (app.tsx), maybe after the field was: the field gets it back, once. */
  const alEnfocarTitulo = () => {
    const p = inicial.current;
    inicial.current = null;
    if (p) ir(p);
  };

  // The field being filled in, and where the photo says it was read (readings kept before zones were sent have none).
  const [activo, setActivo] = useState<string | null>(null);
  const zona: Zona | null = (activo && foto?.lectura?.zonas?.[activo]) || null;
  /** A field of the form got the focus (tapped, tabbed to, or taken to): its zone is shown on the photo. */
  const alEnfocar = (ev: FocusEvent) => {
    const nombre = (ev.target as HTMLElement | null)?.getAttribute('name');
    if (nombre) setActivo(nombre);
  };
  const error = (path: string): string | undefined => camposServidor[path] ?? campos[path] ?? (intento ? faltan[path] : undefined);
  /** New values for the plain fields, after the user changed `k` (its server refusal is cleared). */
  const poner = (v: Valores, k: string) => {
    setE({ ...e, v });
    if (camposServidor[k]) setCamposServidor(({ [k]: _, ...rest }) => rest);
  };
  const setV = (k: string) => (x: string) => poner({ ...e.v, [k]: x } as Valores, k);

  // The address book: suggestions in every party, vehicle and place field, from the device's copy (offline too);
  // a company whose NIF has a wrong check character is never offered until it is fixed in «Agenda».
  const empresas = useLiveQuery(() => sugerenciasAgenda(ctx.db, 'empresas'), [ctx.db]) ?? [];
  const vehiculos = useLiveQuery(() => sugerenciasAgenda(ctx.db, 'vehiculos'), [ctx.db]) ?? [];
  const lugares = useLiveQuery(() => sugerenciasAgenda(ctx.db, 'lugares'), [ctx.db]) ?? [];
  /**
   * A party's name or NIF, or a plate, that is an address-book entry fills the fields of the same
   * party or vehicle that are still empty (what the user typed is never overwritten).
   */
  const conAgenda = (k: string) => (x: string) => {
    let v: Valores = { ...e.v, [k]: x } as Valores;
    const m = /^(cargador|transp)_(nombre|nif)$/.exec(k);
    let entradaAgenda: EntradaAgendaLocal | undefined;
    if (m) {
      entradaAgenda = empresas.find((a) => (m[2] === 'nif' ? a.clave === claveAgenda('empresas', { nif: x }) && x.trim() !== '' : a.datos.nombre === x));
      if (entradaAgenda) {
        for (const campo of ['nombre', 'nif', 'domicilio', 'cp', 'municipio', 'provincia', 'pais'] as const) {
          const destino = `${m[1]}_${campo}`;
          if (destino !== k && !v[destino]?.trim() && entradaAgenda.datos[campo]) v = { ...v, [destino]: entradaAgenda.datos[campo]! } as Valores;
        }
      }
    } else if (k === 'matricula' && x.trim()) {
      entradaAgenda = vehiculos.find((a) => a.clave === claveAgenda('vehiculos', { matricula: x }));
      for (const campo of ['matricula_remolque', 'conductor_nombre', 'conductor_tel'] as const) {
        if (entradaAgenda && !v[campo]?.trim() && entradaAgenda.datos[campo]) v = { ...v, [campo]: entradaAgenda.datos[campo]! } as Valores;
      }
    }
    poner(v, k);
  };
  const setEnvio = (i: number, k: keyof EnvioForm) => (x: string) => {
    setE({ ...e, envios: e.envios.map((en, j) => (j === i ? { ...en, [k]: x } : en)) });
    const p = `envios[${i}].${k}`;
    if (camposServidor[p]) setCamposServidor(({ [p]: _, ...rest }) => rest);
  };
  const anadirEnvio = () => setE({ ...e, envios: [...e.envios, envioVacio()] });
  const quitarEnvio = (i: number) => setE({ ...e, envios: e.envios.filter((_, j) => j !== i) });

  async function guardar(accion: Accion) {
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
      const seguir = await confirmarAvisos(avisos, modo === 'crear' || accion === 'emitir' ? 'Emitir de todos modos' : 'Guardar de todos modos');
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
            ? { ...cuerpo(e), emitir: corrigiendo.body.emitir, ...fotoQueSigue(corrigiendo, rec) }
            : corrigiendo.tipo === 'sustituir'
              ? { ...diferencias(e, servidor ?? base), motivo: motivo.trim() }
              : { ...diferencias(e, servidor ?? base), ...(corrigiendo.body.motivo ? { motivo: motivo.trim() } : {}), ...(corrigiendo.body.emitir ? { emitir: true } : {}) };
        await reenviar(ctx.db, corrigiendo.seq!, cuerpoNuevo);
      } else if (modo === 'crear') {
        const body = cuerpo(e);
        if (accion === 'pendiente' && email.trim()) body.pedir_datos_email = email.trim();
        // Made from a photo the server kept: the photo stays with the DeCA (with no coverage too: the queued create carries it).
        if (foto?.lectura?.foto_id) body.foto_id = foto.lectura.foto_id;
        // No network: issued here, with a number this device holds, its PDF and signed QR shown at once.
        const enDispositivo = accion === 'emitir' && !navigator.onLine ? await (await import('../../data/sin-cobertura')).emitirSinCobertura(ctx.db, ctx.sesion.cuenta, ctx.entorno, body) : null;
        // With coverage: the next number this device holds, for a series with no jumps (the server checks it is still ours).
        const reserva = enDispositivo ? null : await (await import('../../data/dispositivo')).reservaParaCrear(ctx.db).catch(() => null);
        destino = enDispositivo ?? (await crearDeca(ctx.db, body, { emitir: accion === 'emitir', reserva }));
      } else if (modo === 'sustituir') {
        const reserva = await (await import('../../data/dispositivo')).reservaParaCrear(ctx.db).catch(() => null);
        destino = await sustituirDeca(ctx.db, rec!.clave, diferencias(e, base), motivo.trim(), reserva);
      } else {
        const cambios = diferencias(e, base);
        if (Object.keys(cambios).length === 0 && accion !== 'emitir') {
          setAviso('No ha cambiado ningún dato.');
          return;
        }
        destino = await modificarDecaLocal(ctx.db, rec!.clave, cambios, { motivo: emitida ? motivo.trim() : undefined, emitir: accion === 'emitir' });
      }
      // What it says goes into the device's address book at once (the server learns it when the DeCA arrives).
      await aprenderEnDispositivo(ctx.db, cuerpo(e)).catch(() => {});
      // The photo's proposal has become a DeCA: it is not offered again, and the photo stays beside the DeCA for its page.
      if (foto && destino) await ctx.db.fotos.update(foto.clave, { estado: 'usada', deca: destino.clave });
      else if (foto) await ctx.db.fotos.delete(foto.clave);
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

  return {
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
    /** Whether step `i` is shown (every step at once on a desktop). */
    ver: (i: number) => escritorio || paso === i,
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
    alEnfocarTitulo,
    setV,
    conAgenda,
    setEnvio,
    anadirEnvio,
    quitarEnvio,
    guardar,
    empresas,
    vehiculos,
    lugares,
  };
}
