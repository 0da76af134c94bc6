import { useEffect, useState } from 'preact/hooks';
import { hayFirma, type TrazoFirma } from '../../../shared/rules/trazo-firma';
import type { Entrega } from '../../../shared/schemas/entrega';
import { useLiveQuery } from '../../app/hooks';
import { navegar } from '../../app/router';
import { contexto } from '../../app/sesion';
import { useStore } from '../../app/store';
import { rutaDeca } from '../../components/insignias';
import { buscarLocal } from '../../data/consultas';
import { guardarEntrega, guardarEntregaRecibida } from '../../data/entregas';
import { EntregaInput, FOTO_ENTREGA_MAXIMA, issuesToCampos, LADO_FOTO_ENTREGA, MAX_FOTOS_ENTREGA } from '../../data/esquemas';
import { reducirFoto } from '../../data/reducir-foto';
import { useEntregas } from '../deca-detail/entregas-deca';

type Posicion = { lat: number; lon: number; precision_m?: number };

/**
 * The state of the «Entregar» screen and what its buttons do: the DeCA and
 * the shipment (`?envio=`), the fields, the signature's strokes and the
 * pad's proportions, the photos as the worker shrank them, the position only
 * once asked for, the errors the shared schema finds, and saving to the
 * device (the outbox sends it).
 */
export function useEntrega(ref: string, query: URLSearchParams) {
  const ctx = useStore(contexto)!;
  const rec = useLiveQuery(async () => (await buscarLocal(ctx.db, ref)) ?? null, [ctx.db, ref]);
  const entregas = useEntregas(rec);
  const envioTexto = query.get('envio');
  const envio = envioTexto !== null && /^\d+$/.test(envioTexto) ? Number(envioTexto) : undefined;
  const envios = rec && Array.isArray(rec.datos.envios) ? (rec.datos.envios as Record<string, unknown>[]) : [];
  const destino = envio !== undefined ? envios[envio]?.destino : envios.length === 1 ? envios[0]?.destino : null;
  const valida = !!rec && rec.estado === 'emitido' && (envio === undefined || envio < envios.length);

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

  /** The last delivery ends the service: the only one, or that of the last shipment still undelivered. */
  function esLaUltima(): boolean {
    const hechas = new Set((entregas ?? []).map((e) => e.datos.envio));
    const faltan = envios.map((_, i) => i).filter((i) => i !== envio && !hechas.has(i));
    return !rec!.deca?.fin_servicio_at && (envio === undefined || faltan.length === 0);
  }

  /** The consignee signed on their own phone: the server's delivery kept here, the service ended if it was the last. */
  async function firmadaEnSuMovil(entrega: Entrega) {
    await guardarEntregaRecibida(ctx.db, rec!.clave, entrega, { finalizar: esLaUltima() });
    navegar(rutaDeca(rec!));
  }

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
      await guardarEntrega(ctx.db, rec!.clave, datos, fotos, { finalizar: esLaUltima() });
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

  const quitarError = (campo: string) => setErrores(({ [campo]: _, ...resto }) => resto);
  return {
    rec,
    envio,
    destino,
    valida,
    ahora,
    campos: { resultado, nombre, documento, trazos, reservas, sinReservas, motivo, fotos, reduciendo, posicion, estadoPosicion, errores, guardando, entregada },
    fijar: { setResultado, setNombre, setDocumento, setReservas, setMotivo, setFotos, al, quitarError },
    firmar: (t: TrazoFirma[], p?: number) => {
      setTrazos(t);
      if (p) setProporcion(p);
      quitarError('firma');
    },
    alternarSinReservas: () => {
      setSinReservas(!sinReservas);
      setReservas('');
      quitarError('reservas');
    },
    anadirFotos,
    pedirPosicion,
    guardar,
    firmadaEnSuMovil,
  };
}
