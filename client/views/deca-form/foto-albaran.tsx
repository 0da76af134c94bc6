import { useEffect, useRef, useState } from 'preact/hooks';
import { useUrlDeBlob } from '../../app/hooks';
import { nombreCampo } from '../../components/nombres';
import type { Zona } from '../../data/db';

/** How the photo is shown: its zoom (1 = the photo's width fills the frame) and where it is moved to, in px of the frame. */
interface Vista {
  escala: number;
  x: number;
  y: number;
}

const MAXIMA = 5;
const limitar = (n: number, min: number, max: number) => Math.min(max, Math.max(min, n));

/**
 * The photo a proposal was read from, beside the form (a phone: above it,
 * folding away): pinched, dragged or zoomed with its buttons, with no library
 * (pointer events and a CSS transform). The field being filled in (`campo`)
 * has its zone drawn over the photo, an SVG polygon in the photo's own
 * fractions, and the photo moves to it, closer when the line is small.
 */
export function FotoAlbaran({ foto, zona, campo, escritorio }: { foto: Blob; zona: Zona | null; campo: string | null; escritorio: boolean }) {
  const url = useUrlDeBlob(foto);
  // Height over width of the photo as seen (a delivery note is usually upright), known once it loads.
  const [proporcion, setProporcion] = useState(1.4);
  const marco = useRef<HTMLDivElement>(null);
  const [vista, setVista] = useState<Vista>({ escala: 1, x: 0, y: 0 });
  const actual = useRef(vista);
  const punteros = useRef(new Map<number, { x: number; y: number }>());
  const [moviendo, setMoviendo] = useState(false);

  /** The view asked for, held so the photo always covers the frame (never moved past its edges). */
  function poner(n: Vista): void {
    const r = marco.current?.getBoundingClientRect();
    if (!r) return;
    const escala = limitar(n.escala, 1, MAXIMA);
    const ancho = r.width * escala;
    const alto = r.width * proporcion * escala;
    actual.current = { escala, x: limitar(n.x, r.width - ancho, 0), y: limitar(n.y, Math.min(0, r.height - alto), 0) };
    setVista(actual.current);
  }

  /** Zoom by `factor` keeping the point (`px`, `py`) of the frame where it is (under the fingers, or the middle). */
  function acercar(factor: number, px?: number, py?: number): void {
    const r = marco.current?.getBoundingClientRect();
    if (!r) return;
    const v = actual.current;
    const escala = limitar(v.escala * factor, 1, MAXIMA);
    const cx = px ?? r.width / 2;
    const cy = py ?? r.height / 2;
    poner({ escala, x: cx - ((cx - v.x) * escala) / v.escala, y: cy - ((cy - v.y) * escala) / v.escala });
  }

  // A field with a zone: the photo moves to the zone's middle, close enough to read its line (at most ×3).
  useEffect(() => {
    const r = marco.current?.getBoundingClientRect();
    if (!zona || !r || r.width === 0) return;
    const xs = zona.map((p) => p[0] ?? 0);
    const ys = zona.map((p) => p[1] ?? 0);
    const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
    const alto = r.width * proporcion;
    const escala = limitar(Math.min((0.9 * r.width) / Math.max(1, (x1 - x0) * r.width), (0.5 * r.height) / Math.max(1, (y1 - y0) * alto)), 1, 3);
    poner({ escala, x: r.width / 2 - ((x0 + x1) / 2) * r.width * escala, y: r.height / 2 - ((y0 + y1) / 2) * alto * escala });
  }, [zona, proporcion]);

  const posicion = (ev: PointerEvent) => {
    const r = marco.current!.getBoundingClientRect();
    return { x: ev.clientX - r.left, y: ev.clientY - r.top };
  };
  function alPulsar(ev: PointerEvent): void {
    try {
      // The photo keeps the finger even when it slides off it.
      (ev.currentTarget as HTMLElement).setPointerCapture(ev.pointerId);
    } catch {
      // A pointer the browser no longer tracks (lifted already): nothing to keep.
    }
    punteros.current.set(ev.pointerId, posicion(ev));
    setMoviendo(true);
  }
  // One finger (or the mouse) drags the photo; two pinch it, around the point between them.
  function alMover(ev: PointerEvent): void {
    const antes = punteros.current.get(ev.pointerId);
    if (!antes) return;
    const ahora = posicion(ev);
    const otros = [...punteros.current].filter(([id]) => id !== ev.pointerId).map(([, p]) => p);
    punteros.current.set(ev.pointerId, ahora);
    const v = actual.current;
    if (otros.length === 0) {
      poner({ ...v, x: v.x + ahora.x - antes.x, y: v.y + ahora.y - antes.y });
      return;
    }
    const otro = otros[0]!;
    const distancia = (a: { x: number; y: number }) => Math.hypot(a.x - otro.x, a.y - otro.y) || 1;
    acercar(distancia(ahora) / distancia(antes), (ahora.x + otro.x) / 2, (ahora.y + otro.y) / 2);
  }
  function alSoltar(ev: PointerEvent): void {
    punteros.current.delete(ev.pointerId);
    if (punteros.current.size === 0) setMoviendo(false);
  }
  // A trackpad's pinch (ctrl + wheel) zooms; a plain wheel scrolls the page as anywhere else.
  function alRueda(ev: WheelEvent): void {
    if (!ev.ctrlKey) return;
    ev.preventDefault();
    const r = marco.current!.getBoundingClientRect();
    acercar(Math.exp(-ev.deltaY / 200), ev.clientX - r.left, ev.clientY - r.top);
  }

  const leido = zona && campo ? nombreCampo(campo) : null;
  const contenido = (
    <figure class="foto-figura">
      <div
        ref={marco}
        class="foto-visor"
        style={{ aspectRatio: `1 / ${proporcion}` }}
        onPointerDown={alPulsar}
        onPointerMove={alMover}
        onPointerUp={alSoltar}
        onPointerCancel={alSoltar}
        onWheel={alRueda}
        data-testid="foto-visor"
      >
        <div class={`foto-lienzo ${moviendo ? 'moviendo' : ''}`} style={{ transform: `translate(${vista.x}px, ${vista.y}px) scale(${vista.escala})` }}>
          {url && <img src={url} alt="Foto del albarán" draggable={false} onLoad={(ev) => setProporcion((ev.currentTarget.naturalHeight || 1) / (ev.currentTarget.naturalWidth || 1))} />}
          <svg class="foto-zonas" viewBox="0 0 1 1" preserveAspectRatio="none" aria-hidden="true">
            {zona && <polygon points={zona.map(([x, y]) => `${x},${y}`).join(' ')} data-testid="zona" data-campo={campo ?? ''} />}
          </svg>
        </div>
      </div>
      <figcaption aria-live="polite" class={leido ? undefined : 'sin-zona'}>
        {leido ? `Leído aquí: ${leido}.` : 'Al entrar en un campo leído de la foto, se marca dónde se leyó.'}
      </figcaption>
      <div class="foto-botones">
        <button type="button" onClick={() => acercar(1.5)} aria-label="Acercar la foto">
          +
        </button>
        <button type="button" onClick={() => acercar(1 / 1.5)} aria-label="Alejar la foto">
          −
        </button>
        <button type="button" onClick={() => poner({ escala: 1, x: 0, y: 0 })}>
          Entera
        </button>
      </div>
    </figure>
  );
  if (escritorio) {
    return (
      <aside class="foto-albaran" aria-label="Foto del albarán" data-testid="foto-propuesta">
        {contenido}
      </aside>
    );
  }
  return (
    <details class="foto-albaran" open data-testid="foto-propuesta">
      <summary>Foto del albarán</summary>
      {contenido}
    </details>
  );
}
