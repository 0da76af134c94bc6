import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, NetworkError } from '../data/api';
import { cargarPagina, listarLocal, type Filtros } from '../data/consultas';
import type { DecaLocal } from '../data/db';
import { ESCRITORIO, useEnLinea, useLiveQuery, useMedia } from '../app/hooks';
import { contexto, sesionCaducada } from '../app/sesion';
import { useStore } from '../app/store';
import { Insignias, nombreDeca, rutaDeca } from '../components/insignias';

const PASO = 30;

function envios(r: DecaLocal): string {
  const e = Array.isArray(r.datos.envios) ? (r.datos.envios as { origen?: string; destino?: string }[]) : [];
  const p = e[0];
  if (!p) return '';
  return `${p.origen ?? '¿?'} → ${p.destino ?? '¿?'}${e.length > 1 ? ` (+${e.length - 1})` : ''}`;
}

const txt = (v: unknown) => (typeof v === 'string' && v ? v : '—');

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
  // What is typed in the plate box until it is committed (Enter or leaving the box): the list
  // re-renders as pages arrive, and must never wipe a plate being typed.
  const [matriculaEscrita, setMatriculaEscrita] = useState(f.matricula ?? '');
  const [mostrar, setMostrar] = useState(PASO);
  const pag = useRef<{ siguiente: string | null; techo: number | null; agotada: boolean; cargando: boolean; clave: string }>({ siguiente: null, techo: null, agotada: false, cargando: false, clave: '' });
  const [estadoCarga, setEstadoCarga] = useState<'cargando' | 'listo' | 'sin-red' | 'error'>('cargando');
  const [errorCarga, setErrorCarga] = useState<string | null>(null);
  const [paginas, setPaginas] = useState(0);
  const centinela = useRef<HTMLDivElement>(null);

  const { texto: _t, ...servidor } = f;
  const claveServidor = JSON.stringify(servidor) + ctx.entorno;
  const filas = useLiveQuery(() => listarLocal(ctx.db, f), [ctx.db, JSON.stringify(f)]);

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
      const r = await cargarPagina(ctx.api, ctx.db, f, p.siguiente, p.techo);
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

  const visibles = (filas ?? []).slice(0, mostrar);
  const hayMas = (filas?.length ?? 0) > mostrar || !pag.current.agotada;

  return (
    <section>
      <h1>{f.archivado ? 'DeCA archivadas' : 'Sus DeCA'}</h1>
      <details class="filtros" open={escritorio}>
        <summary>Filtros</summary>
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
              <option value="pendiente">Pendientes</option>
              <option value="sustituido">Sustituidas</option>
            </select>
          </div>
          <div class="campo">
            <label for="f-matricula">Matrícula</label>
            <input
              id="f-matricula"
              value={matriculaEscrita}
              onInput={(e) => setMatriculaEscrita(e.currentTarget.value)}
              onChange={(e) => {
                setMatriculaEscrita(e.currentTarget.value);
                set('matricula')(e);
              }}
              autoCapitalize="characters"
            />
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
              <input type="checkbox" checked={f.archivado} onChange={set('archivado')} style={{ width: 'auto', minHeight: 0, marginRight: '0.4rem' }} />
              Ver archivadas
            </label>
          </div>
        </form>
      </details>
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
      {escritorio ? (
        <table class="tabla" data-testid="lista-decas">
          <thead>
            <tr>
              <th scope="col">Número</th>
              <th scope="col">Estado</th>
              <th scope="col">Fecha</th>
              <th scope="col">Matrícula</th>
              <th scope="col">Cargador</th>
              <th scope="col">Transportista</th>
              <th scope="col">Envío</th>
            </tr>
          </thead>
          <tbody>
            {visibles.map((r) => (
              <tr key={r.clave} data-clave={r.clave}>
                <td>
                  <a href={rutaDeca(r)}>{nombreDeca(r)}</a>
                </td>
                <td>
                  <Insignias r={r} />
                </td>
                <td>{txt(r.fecha_transporte)}</td>
                <td>{txt(r.datos.matricula)}</td>
                <td>{txt(r.datos.cargador_nombre)}</td>
                <td>{txt(r.datos.transp_nombre)}</td>
                <td>{envios(r)}</td>
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
                  {txt(r.fecha_transporte)} · {txt(r.datos.matricula)}
                </div>
                <div class="det">{envios(r)}</div>
              </a>
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
