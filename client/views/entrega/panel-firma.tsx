import { useRef } from 'preact/hooks';
import { normalizarTrazo, rutaFirma, type TrazoFirma } from '../../../shared/rules/trazo-firma';

/** The pad's drawing box: the strokes are kept as fractions of it, so only its proportions matter (2:1, a signature's line). */
export const ANCHO_PANEL = 1000;
export const ALTO_PANEL = 500;

/** A finished signature, drawn back from its strokes at any size, undistorted (the pad's proportions). */
export function FirmaDibujada({ trazos, proporcion, titulo }: { trazos: readonly TrazoFirma[]; proporcion: number; titulo: string }) {
  const ancho = Math.round(ALTO_PANEL * proporcion);
  return (
    <svg class="firma-dibujada" viewBox={`0 0 ${ancho} ${ALTO_PANEL}`} style={{ aspectRatio: `${ancho} / ${ALTO_PANEL}` }} role="img" aria-label={titulo} data-testid="firma-dibujada">
      <path d={rutaFirma(trazos, ancho, ALTO_PANEL)} />
    </svg>
  );
}

/**
 * The box where the consignee signs with a finger (or a stylus, or a mouse):
 * pointer events, every sample the browser coalesced, the line drawn
 * smoothed while the finger moves and kept as normalised strokes when it
 * lifts. The page does not scroll under the finger (`touch-action: none`).
 */
export function PanelFirma({ trazos, onCambio }: { trazos: TrazoFirma[]; onCambio: (t: TrazoFirma[], proporcion?: number) => void }) {
  const svg = useRef<SVGSVGElement>(null);
  const enCurso = useRef<{ id: number; puntos: { x: number; y: number }[]; caja: DOMRect } | null>(null);
  const vivo = useRef<SVGPathElement>(null);
  // The strokes as of the last lift, not of the last render: a second stroke may end before the screen redraws.
  const ultimos = useRef(trazos);
  ultimos.current = trazos;

  // While drawing, the live stroke is written straight to its path: no render per sample.
  const dibujarVivo = () => {
    const t = enCurso.current;
    if (!t || !vivo.current) return;
    vivo.current.setAttribute('d', rutaFirma([normalizarTrazo(t.puntos, t.caja.width, t.caja.height)], ANCHO_PANEL, ALTO_PANEL));
  };
  const punto = (e: PointerEvent, caja: DOMRect) => ({ x: e.clientX - caja.left, y: e.clientY - caja.top });

  const bajar = (e: PointerEvent) => {
    if (!svg.current || (e.pointerType === 'mouse' && e.button !== 0)) return;
    e.preventDefault();
    try {
      // The stroke follows the finger past the pad's edge (clamped there); a pointer the browser no longer tracks cannot be captured.
      svg.current.setPointerCapture(e.pointerId);
    } catch {
      /* drawn all the same, from the pad's own events */
    }
    const caja = svg.current.getBoundingClientRect();
    enCurso.current = { id: e.pointerId, puntos: [punto(e, caja)], caja };
    dibujarVivo();
  };
  const mover = (e: PointerEvent) => {
    const t = enCurso.current;
    if (!t || t.id !== e.pointerId) return;
    e.preventDefault();
    const muestras = typeof e.getCoalescedEvents === 'function' ? e.getCoalescedEvents() : [];
    for (const m of muestras.length > 0 ? muestras : [e]) t.puntos.push(punto(m, t.caja));
    dibujarVivo();
  };
  const levantar = (e: PointerEvent) => {
    const t = enCurso.current;
    if (!t || t.id !== e.pointerId) return;
    enCurso.current = null;
    vivo.current?.setAttribute('d', '');
    const trazo = normalizarTrazo(t.puntos, t.caja.width, t.caja.height);
    if (trazo.length === 0) return;
    ultimos.current = [...ultimos.current, trazo];
    onCambio(ultimos.current, t.caja.width / t.caja.height);
  };

  return (
    <div class="panel-firma">
      <svg
        ref={svg}
        class="firma-lienzo"
        viewBox={`0 0 ${ANCHO_PANEL} ${ALTO_PANEL}`}
        preserveAspectRatio="none"
        role="img"
        aria-label="Recuadro para firmar con el dedo"
        data-testid="panel-firma"
        onPointerDown={bajar}
        onPointerMove={mover}
        onPointerUp={levantar}
        onPointerCancel={levantar}
      >
        <line class="firma-linea" x1="60" y1={ALTO_PANEL * 0.78} x2={ANCHO_PANEL - 60} y2={ALTO_PANEL * 0.78} />
        <path class="firma-trazo" d={rutaFirma(trazos, ANCHO_PANEL, ALTO_PANEL)} data-testid="firma-trazos" />
        <path class="firma-trazo" ref={vivo} d="" />
      </svg>
      <div class="acciones">
        <button type="button" onClick={() => onCambio(trazos.slice(0, -1))} disabled={trazos.length === 0}>
          Deshacer trazo
        </button>
        <button type="button" onClick={() => onCambio([])} disabled={trazos.length === 0}>
          Borrar firma
        </button>
      </div>
    </div>
  );
}
