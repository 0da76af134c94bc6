import { useEffect, useRef, useState } from 'preact/hooks';
import { fechaEs } from '../../shared/rules/fechas';
import { queVeElConductor, veTodasLasDecas } from '../../shared/rules/roles';
import { ESCRITORIO, useEnLinea, useLiveQuery, useMedia } from '../app/hooks';
import { useModulo } from '../app/router';
import { contexto, permitido, sesionCaducada } from '../app/sesion';
import { useStore } from '../app/store';
import { Insignias, nombreDeca, puedeMostrarse, rutaDeca, SinEmitir } from '../components/insignias';
import { ApiError, NetworkError } from '../data/api';
import { cargarPagina, consultaServidor, type Filtros, fechaRelativa, listarLocal, porFechaTransporte } from '../data/consultas';
import type { DecaLocal } from '../data/db';

/** The bulk actions load with the first selection: the list's first screen carries none of their code. */
const cargarSeleccion = () => import('./deca-list/seleccion');

const PASO = 30;

function envios(r: DecaLocal): string {
  const e = Array.isArray(r.datos.envios) ? (r.datos.envios as { origen?: string; destino?: string }[]) : [];
  const p = e[0];
  if (!p) return '';
  return `${p.origen ?? '¿?'} → ${p.destino ?? '¿?'}${e.length > 1 ? ` (+${e.length - 1})` : ''}`;
}

const txt = (v: unknown) => (typeof v === 'string' && v ? v : '—');
/** A text cell cut to its column (the whole text on hover). */
const celda = (k: string, c: string, v: string) => (
  <td key={k} class={c || undefined} title={v}>
    {v}
  </td>
);

/**
 * Desktop columns that sort (the list's own order is by transport date, newest first). `c` is the column's
 * class: the style sheet gives each a width and hides the ones a narrower desk has no room for (`opc1`
 * first, then `opc2`), never number, state, date, plate or shipper: the row never scrolls sideways.
 */
const COLUMNAS = {
  numero: { titulo: 'Número', c: 'c-num', valor: (r: DecaLocal) => nombreDeca(r) },
  estado: { titulo: 'Estado', c: 'c-estado', valor: (r: DecaLocal) => (r.porEmitir ? ' ' : r.estado) },
  fecha: { titulo: 'Fecha', c: 'c-fecha', valor: (r: DecaLocal) => r.fecha_transporte },
  matricula: { titulo: 'Matrícula', c: 'c-mat', valor: (r: DecaLocal) => txt(r.datos.matricula) },
  cargador: { titulo: 'Cargador', c: '', valor: (r: DecaLocal) => txt(r.datos.cargador_nombre) },
  transportista: { titulo: 'Transportista', c: 'opc1', valor: (r: DecaLocal) => txt(r.datos.transp_nombre) },
  conductor: { titulo: 'Conductor', c: 'opc2', valor: (r: DecaLocal) => txt(r.datos.conductor_nombre) },
  referencia: { titulo: 'Referencia', c: 'opc2', valor: (r: DecaLocal) => txt(r.datos.referencia) },
} as const;
type Columna = keyof typeof COLUMNAS;
type Orden = { col: Columna; asc: boolean };
const ORDEN_INICIAL: Orden = { col: 'fecha', asc: false };

function ordenar(filas: DecaLocal[], o: Orden): DecaLocal[] {
  if (o.col === 'fecha') return o.asc ? [...filas].sort(porFechaTransporte).reverse() : filas;
  const valor = COLUMNAS[o.col].valor;
  return [...filas].sort((a, b) => valor(a).localeCompare(valor(b), 'es', { numeric: true }) * (o.asc ? 1 : -1) || porFechaTransporte(a, b));
}

const K_MI_MATRICULA = 'deca-mi-matricula';

function leerFiltros(q: URLSearchParams): Filtros {
  return {
    estado: (q.get('estado') as Filtros['estado']) ?? '',
    desde: q.get('desde') ?? '',
    hasta: q.get('hasta') ?? '',
    matricula: q.get('matricula') ?? '',
    texto: q.get('q') ?? '',
    archivado: q.get('archivadas') === '1',
  };
}

/** The DeCA list: filters kept in the URL, pages from the server by cursor, everything readable offline. */
export default function ListaDecas({ query }: { params: string[]; query: URLSearchParams }) {
  const ctx = useStore(contexto)!;
  const escritorio = useMedia(ESCRITORIO);
  const enLinea = useEnLinea();
  const [f, setF] = useState<Filtros>(() => leerFiltros(query));
  const [mostrar, setMostrar] = useState(PASO);
  const pag = useRef<{ siguiente: string | null; techo: number | null; agotada: boolean; cargando: boolean; clave: string }>({
    siguiente: null,
    techo: null,
    agotada: false,
    cargando: false,
    clave: '',
  });
  const [estadoCarga, setEstadoCarga] = useState<'cargando' | 'listo' | 'sin-red' | 'error'>('cargando');
  const [errorCarga, setErrorCarga] = useState<string | null>(null);
  const [paginas, setPaginas] = useState(0);
  const centinela = useRef<HTMLDivElement>(null);

  // The plate filters as it is typed, like the search: the device's DeCAs at once, the server's once typing pauses.
  const [matriculaServidor, setMatriculaServidor] = useState(f.matricula);
  useEffect(() => {
    const t = setTimeout(() => setMatriculaServidor(f.matricula), 300);
    return () => clearTimeout(t);
  }, [f.matricula]);
  const { texto: _t, ...servidor } = { ...f, matricula: matriculaServidor };
  const claveServidor = JSON.stringify(servidor) + ctx.entorno;
  const filas = useLiveQuery(() => listarLocal(ctx.db, f), [ctx.db, JSON.stringify(f)]);
  const [orden, setOrden] = useState<Orden>(ORDEN_INICIAL);
  const [seleccion, setSeleccion] = useState<Set<string>>(new Set());
  const [progreso, setProgreso] = useState<string | null>(null);
  const [miMatricula, setMiMatricula] = useState(() => localStorage.getItem(K_MI_MATRICULA) ?? '');
  const [pidiendoMatricula, setPidiendoMatricula] = useState(false);
  const sinEmitir = useLiveQuery(() => ctx.db.decas.filter((r) => r.porEmitir === 1 && !r.eliminada).count(), [ctx.db]) ?? 0;

  async function cargarMas(): Promise<void> {
    const p = pag.current;
    if (p.cargando || p.agotada) return;
    if (!navigator.onLine) {
      setEstadoCarga('sin-red');
      return;
    }
    p.cargando = true;
    const clave = p.clave;
    try {
      const r = await cargarPagina(ctx.api, ctx.db, servidor, p.siguiente, p.techo);
      if (pag.current.clave !== clave) return;
      p.siguiente = r.siguiente;
      p.techo = r.suelo;
      p.agotada = r.siguiente === null;
      setEstadoCarga('listo');
      setPaginas((n) => n + 1);
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) sesionCaducada.set(true);
      if (err instanceof NetworkError) setEstadoCarga('sin-red');
      else {
        setEstadoCarga('error');
        setErrorCarga((err as Error).message);
      }
    } finally {
      p.cargando = false;
    }
  }

  // New server filters (or environment): start again from the first page.
  useEffect(() => {
    pag.current = { siguiente: null, techo: null, agotada: false, cargando: false, clave: claveServidor };
    setMostrar(PASO);
    setEstadoCarga('cargando');
    void cargarMas();
  }, [claveServidor, enLinea]);

  // Infinite scroll: show more of what is here, and fetch the next page with the cursor.
  const masRef = useRef<() => void>(() => {});
  masRef.current = () => {
    setMostrar((m) => m + PASO);
    void cargarMas();
  };
  useEffect(() => {
    const el = centinela.current;
    if (!el) return;
    const io = new IntersectionObserver((ents) => {
      if (ents.some((e) => e.isIntersecting)) masRef.current();
    });
    io.observe(el);
    return () => io.disconnect();
  }, []);
  // A short page leaves the sentinel in view (no new intersection): keep going while it is.
  useEffect(() => {
    const el = centinela.current;
    if (!el || estadoCarga !== 'listo' || pag.current.agotada) return;
    const r = el.getBoundingClientRect();
    if (r.top < innerHeight) masRef.current();
  }, [estadoCarga, paginas]);

  // Filters live in the URL. Each control updates from the latest state, never from the render
  // it was drawn in: two changes in one task (a typed plate committed on blur, then a select) keep both.
  const filtrosIniciales = useRef(JSON.stringify(f));
  useEffect(() => {
    if (JSON.stringify(f) === filtrosIniciales.current) return;
    filtrosIniciales.current = '';
    const q = new URLSearchParams();
    if (f.estado) q.set('estado', f.estado);
    if (f.desde) q.set('desde', f.desde);
    if (f.hasta) q.set('hasta', f.hasta);
    if (f.matricula) q.set('matricula', f.matricula);
    if (f.texto) q.set('q', f.texto);
    if (f.archivado) q.set('archivadas', '1');
    history.replaceState(null, '', q.toString() ? `/?${q}` : '/');
  }, [JSON.stringify(f)]);
  const set = (k: keyof Filtros) => (e: Event) => {
    const el = e.currentTarget as HTMLInputElement;
    const valor = el.type === 'checkbox' ? el.checked : el.value;
    setF((prev) => ({ ...prev, [k]: valor }));
  };

  const Seleccion = useModulo(escritorio && seleccion.size > 0 ? cargarSeleccion : null);
  const ordenadas = escritorio ? ordenar(filas ?? [], orden) : (filas ?? []);
  const visibles = ordenadas.slice(0, mostrar);
  const hayMas = (filas?.length ?? 0) > mostrar || !pag.current.agotada;
  const elegidas = (filas ?? []).filter((r) => seleccion.has(r.clave));
  const alternar = (clave: string) =>
    setSeleccion((prev) => {
      const s = new Set(prev);
      if (s.has(clave)) s.delete(clave);
      else s.add(clave);
      return s;
    });

  const hoy = fechaRelativa(0);
  const vista =
    f.desde === hoy && f.hasta === hoy && !f.matricula
      ? 'hoy'
      : f.matricula && miMatricula && f.matricula === miMatricula && !f.desde && !f.hasta
        ? 'mia'
        : !f.desde && !f.hasta && !f.matricula
          ? 'todas'
          : null;
  const ver = (v: 'todas' | 'hoy' | 'mia') => {
    if (v === 'mia' && !miMatricula) return setPidiendoMatricula(true);
    setPidiendoMatricula(false);
    const m = v === 'mia' ? miMatricula : '';
    setF((prev) => ({ ...prev, desde: v === 'hoy' ? hoy : '', hasta: v === 'hoy' ? hoy : '', matricula: m }));
  };
  const th = (c: Columna) => (
    <th scope="col" class={COLUMNAS[c].c} aria-sort={orden.col === c ? (orden.asc ? 'ascending' : 'descending') : undefined}>
      <button type="button" class="ordenar" onClick={() => setOrden((o) => (o.col === c ? { col: c, asc: !o.asc } : { col: c, asc: c !== 'fecha' }))}>
        {COLUMNAS[c].titulo}
        <span aria-hidden="true">{orden.col === c ? (orden.asc ? ' ▲' : ' ▼') : ''}</span>
      </button>
    </th>
  );

  return (
    <section>
      <h1 tabIndex={-1}>{f.archivado ? 'DeCA archivadas' : 'Sus DeCA'}</h1>
      {!veTodasLasDecas(ctx.sesion.usuario.rol) && (
        <p class="pista" data-testid="que-ve">
          {/* A session remembered by an earlier version has no plates: shown as none until it is read again. */}
          {queVeElConductor(ctx.sesion.usuario.matriculas ?? [])}
        </p>
      )}
      {escritorio && permitido('importar') && (
        <p class="acciones-lista">
          <a href="/importar">Importar CSV</a>
          {' · '}
          {/* Every filter of the list, the search box's text included (`q`: the server searches as the list does), in the import's columns (the export streams every match, not a page). */}
          <a href={ctx.api.url('exportar_csv', { ...consultaServidor(f), ...(f.texto?.trim() ? { q: f.texto.trim() } : {}) })} download="decas.csv">
            Exportar CSV
          </a>
        </p>
      )}
      {!escritorio && (
        // biome-ignore lint/a11y/useSemanticElements: a row of toggle buttons, not a form's fieldset
        <div class="vistas" role="group" aria-label="Qué DeCA ver">
          {(
            [
              ['todas', 'Todas'],
              ['hoy', 'Hoy'],
              ['mia', miMatricula ? `Mi matrícula (${miMatricula})` : 'Mi matrícula'],
            ] as const
          ).map(([v, t]) => (
            <button key={v} type="button" aria-pressed={vista === v} onClick={() => ver(v)}>
              {t}
            </button>
          ))}
        </div>
      )}
      {pidiendoMatricula && (
        <form
          class="mi-matricula"
          onSubmit={(e) => {
            e.preventDefault();
            const m = ((e.currentTarget as HTMLFormElement).elements.namedItem('mi-matricula') as HTMLInputElement).value.toUpperCase().replace(/[\s-]/g, '');
            if (!m) return;
            localStorage.setItem(K_MI_MATRICULA, m);
            setMiMatricula(m);
            setPidiendoMatricula(false);
            setF((prev) => ({ ...prev, desde: '', hasta: '', matricula: m }));
          }}
        >
          <label for="mi-matricula">¿Qué matrícula lleva?</label>
          <div class="fila-form">
            <input id="mi-matricula" name="mi-matricula" autoCapitalize="characters" placeholder="1234BCD" />
            <button type="submit" class="primario">
              Ver
            </button>
          </div>
        </form>
      )}
      <details class="filtros" open={escritorio}>
        <summary>Filtros</summary>
        {/* biome-ignore lint/a11y/useSemanticElements: <search> is missing before Safari 17; the role says the same to every browser */}
        <form class="rejilla" role="search" onSubmit={(e) => e.preventDefault()}>
          <div class="campo ancho">
            <label for="f-texto">Buscar</label>
            <input id="f-texto" type="search" value={f.texto} onInput={set('texto')} placeholder="Número, empresa, lugar…" />
          </div>
          <div class="campo">
            <label for="f-estado">Estado</label>
            <select id="f-estado" value={f.estado} onChange={set('estado')}>
              <option value="">Todos</option>
              <option value="emitido">Emitidas</option>
              <option value="pendiente">Faltan datos</option>
              <option value="sustituido">Sustituidas</option>
            </select>
          </div>
          <div class="campo">
            <label for="f-matricula">Matrícula</label>
            <input id="f-matricula" type="search" value={f.matricula} onInput={set('matricula')} onChange={set('matricula')} autoCapitalize="characters" placeholder="Parte de la matrícula" />
          </div>
          <div class="campo">
            <label for="f-desde">Desde</label>
            <input id="f-desde" type="date" value={f.desde} onChange={set('desde')} />
          </div>
          <div class="campo">
            <label for="f-hasta">Hasta</label>
            <input id="f-hasta" type="date" value={f.hasta} onChange={set('hasta')} />
          </div>
          <div class="campo ancho">
            <label>
              <input type="checkbox" checked={f.archivado} onChange={set('archivado')} />
              Ver archivadas
            </label>
          </div>
        </form>
      </details>
      {sinEmitir > 0 && <SinEmitir n={sinEmitir} />}
      {estadoCarga === 'sin-red' && (
        <p class="aviso" role="status">
          Sin conexión: se muestran las DeCA guardadas en este dispositivo.
        </p>
      )}
      {estadoCarga === 'error' && (
        <p class="aviso error" role="alert">
          No se pudo cargar la lista: {errorCarga}
        </p>
      )}
      {filas && filas.length === 0 && estadoCarga !== 'cargando' && (
        <p>
          No hay DeCA{f.texto || f.estado || f.matricula || f.desde || f.hasta ? ' con estos filtros' : ''}. <a href="/decas/nueva">Crear una</a>
        </p>
      )}
      {filas && filas.length > 0 && (
        <p class="recuento" role="status" data-testid="recuento">
          {filas.length} DeCA{hayMas && estadoCarga === 'listo' ? ' cargadas; hay más al bajar' : ''}
        </p>
      )}
      {escritorio && elegidas.length > 0 && Seleccion && !(Seleccion instanceof Error) && (
        <Seleccion.default elegidas={elegidas} archivadas={Boolean(f.archivado)} progreso={setProgreso} quitar={() => setSeleccion(new Set())} />
      )}
      {progreso && (
        <p class="aviso" role="status" data-testid="progreso">
          {progreso}
        </p>
      )}
      {escritorio ? (
        <table class="tabla decas" data-testid="lista-decas">
          <thead>
            <tr>
              <th scope="col" class="c-sel">
                <label class="sr-check">
                  <input
                    type="checkbox"
                    checked={visibles.length > 0 && visibles.every((r) => seleccion.has(r.clave))}
                    onChange={(e) => setSeleccion(e.currentTarget.checked ? new Set(visibles.map((r) => r.clave)) : new Set())}
                  />
                  <span class="sr">Seleccionar todas</span>
                </label>
              </th>
              {th('numero')}
              {th('estado')}
              {th('fecha')}
              {th('matricula')}
              {th('cargador')}
              {th('transportista')}
              {th('conductor')}
              {th('referencia')}
              <th scope="col" class="opc1">
                Envío
              </th>
            </tr>
          </thead>
          <tbody>
            {visibles.map((r) => (
              <tr key={r.clave} data-clave={r.clave} class={seleccion.has(r.clave) ? 'elegida' : ''}>
                <td>
                  <label class="sr-check">
                    <input type="checkbox" checked={seleccion.has(r.clave)} onChange={() => alternar(r.clave)} />
                    <span class="sr">Seleccionar {nombreDeca(r)}</span>
                  </label>
                </td>
                <td>
                  <a href={rutaDeca(r)}>{nombreDeca(r)}</a>
                </td>
                <td class="c-estado">
                  <Insignias r={r} />
                </td>
                <td>{fechaEs(r.fecha_transporte) || '—'}</td>
                {(['matricula', 'cargador', 'transportista', 'conductor', 'referencia'] as const).map((c) => celda(c, COLUMNAS[c].c, COLUMNAS[c].valor(r)))}
                {celda('envio', 'opc1', envios(r))}
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <ul class="tarjetas" data-testid="lista-decas">
          {visibles.map((r) => (
            <li class="tarjeta" key={r.clave} data-clave={r.clave}>
              <a href={rutaDeca(r)}>
                <div class="fila">
                  <span class="num">{nombreDeca(r)}</span>
                  <Insignias r={r} />
                </div>
                <div class="det">
                  {fechaEs(r.fecha_transporte) || '—'} · {txt(r.datos.matricula)}
                </div>
                <div class="det">{txt(r.datos.cargador_nombre)}</div>
                <div class="det">{envios(r)}</div>
              </a>
              {puedeMostrarse(r) && (
                <a class="boton agente-enlace" href={`${rutaDeca(r)}/agente`} data-testid="mostrar-agente">
                  Mostrar al agente
                </a>
              )}
            </li>
          ))}
        </ul>
      )}
      <div ref={centinela} class="centinela" aria-live="polite">
        {estadoCarga === 'cargando' ? 'Cargando…' : hayMas && estadoCarga === 'listo' ? 'Cargando más…' : ''}
      </div>
    </section>
  );
}
