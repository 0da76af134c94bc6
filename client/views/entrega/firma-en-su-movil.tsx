import { useEffect, useMemo, useState } from 'preact/hooks';
import { qrSvg } from '../../../shared/pdf/qr';
import type { Entrega, FirmaRemota } from '../../../shared/schemas/entrega';
import { useEnLinea, useUrlDeBlob } from '../../app/hooks';
import { contexto } from '../../app/sesion';
import { useStore } from '../../app/store';
import { NetworkError } from '../../data/api';
import type { DecaLocal } from '../../data/db';

/** How often the driver's phone asks whether the consignee has signed. */
const CADA_MS = 2500;

const mmss = (s: number) => `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;

/**
 * «Que firme en su móvil»: with coverage, the driver's phone asks the server
 * for a 30-minute, single-use link and shows it as a QR the consignee scans
 * with their own phone; it signs there, with no account. Meanwhile this
 * phone asks every few seconds how the link is doing and, once signed,
 * hands the delivery on (`alFirmar`): kept here and shown on the DeCA's page.
 * Without coverage, or before the DeCA reached the server, it says so: the
 * consignee signs on this phone instead.
 */
export function FirmaEnSuMovil({
  rec,
  envio,
  activo,
  onCambio,
  alFirmar,
}: {
  rec: DecaLocal;
  envio: number | undefined;
  activo: boolean;
  onCambio: (activo: boolean) => void;
  alFirmar: (e: Entrega) => Promise<void>;
}) {
  const ctx = useStore(contexto)!;
  const enLinea = useEnLinea();
  const [enlace, setEnlace] = useState<FirmaRemota | null>(null);
  const [restantes, setRestantes] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [pidiendo, setPidiendo] = useState(false);
  const svg = useMemo(() => (enlace?.url ? new Blob([qrSvg(enlace.url)], { type: 'image/svg+xml' }) : null), [enlace?.url]);
  const qr = useUrlDeBlob(svg);
  const id = rec.id;

  async function pedir() {
    if (id === undefined) return;
    setPidiendo(true);
    setError(null);
    try {
      const r = await ctx.api.llamar('pedir_firma_remota', { id: String(id), ...(envio !== undefined ? { envio } : {}) });
      setEnlace(r.data.firma_remota);
      setRestantes(r.data.firma_remota.segundos_restantes);
      onCambio(true);
    } catch (err) {
      setError(err instanceof NetworkError ? 'Sin cobertura ahora mismo: que firme aquí, en este teléfono.' : (err as Error).message);
    } finally {
      setPidiendo(false);
    }
  }

  /**
   * Back to signing here: a link still waiting is voided, so that the
   * consignee cannot sign twice; one signed meanwhile is the delivery after
   * all. With no coverage it lapses by itself (30 minutes) and a second
   * signature is refused by the server.
   */
  async function cerrar() {
    const abierto = enlace;
    setEnlace(null);
    onCambio(false);
    if (!abierto || abierto.estado !== 'esperando' || id === undefined) return;
    try {
      const r = await ctx.api.llamar('anular_firma_remota', { id: String(id), solicitud: String(abierto.id) });
      const f = r.data.firma_remota;
      if (f.estado === 'firmada') {
        const firmada = f.entrega ?? (await ctx.api.llamar('ver_firma_remota', { id: String(id), solicitud: String(abierto.id) })).data.firma_remota.entrega;
        if (firmada) await alFirmar(firmada);
      }
    } catch {
      // No coverage: the link lapses by itself.
    }
  }

  // The countdown, from the server's seconds left (the phone's clock may be off).
  useEffect(() => {
    if (!enlace || enlace.estado !== 'esperando') return;
    const fin = Date.now() + enlace.segundos_restantes * 1000;
    const t = setInterval(() => setRestantes(Math.max(0, Math.round((fin - Date.now()) / 1000))), 1000);
    return () => clearInterval(t);
  }, [enlace]);

  // Asked again and again while it waits; a moment without coverage is only a missed turn.
  useEffect(() => {
    if (!enlace || enlace.estado !== 'esperando' || id === undefined) return;
    let vivo = true;
    let ocupado = false;
    const t = setInterval(async () => {
      if (ocupado || !navigator.onLine) return;
      ocupado = true;
      try {
        const r = await ctx.api.llamar('ver_firma_remota', { id: String(id), solicitud: String(enlace.id) });
        const f = r.data.firma_remota;
        if (!vivo) return;
        if (f.estado === 'firmada' && f.entrega) {
          vivo = false;
          clearInterval(t);
          await alFirmar(f.entrega);
        } else if (f.estado !== 'esperando') {
          setEnlace({ ...enlace, estado: f.estado });
        }
      } catch {
        // Asked again on the next turn.
      } finally {
        ocupado = false;
      }
    }, CADA_MS);
    return () => {
      vivo = false;
      clearInterval(t);
    };
  }, [enlace, id]);

  async function compartir() {
    if (!enlace?.url) return;
    try {
      await navigator.share({ title: `Firmar la entrega · DeCA ${rec.deca?.numero ?? ''}`, url: enlace.url });
    } catch {
      // Dismissed: nothing to do.
    }
  }

  if (!activo || !enlace) {
    const sinServidor = id === undefined;
    return (
      <div class="campo firma-remota">
        <button type="button" onClick={() => void pedir()} disabled={!enLinea || sinServidor || pidiendo} data-testid="firmar-en-su-movil">
          {pidiendo ? 'Preparando el código…' : 'Que firme en su móvil'}
        </button>
        <p class="pista">
          {sinServidor
            ? 'Cuando esta DeCA llegue al servidor (con cobertura), el destinatario también podrá firmar en su propio móvil.'
            : enLinea
              ? 'El destinatario escanea un código con su móvil y firma allí, sin registrarse.'
              : 'Sin cobertura: que firme aquí, en este teléfono.'}
        </p>
        {error && (
          <p class="aviso error" role="alert">
            {error}
          </p>
        )}
      </div>
    );
  }

  const esperando = enlace.estado === 'esperando' && restantes > 0;
  return (
    <div class="firma-remota activa" data-testid="firma-remota">
      {esperando ? (
        <>
          <p>Que el destinatario escanee este código con la cámara de su móvil y firme allí.</p>
          {qr && <img class="qr" src={qr} alt="Código QR del enlace para firmar la entrega" width={300} height={300} data-testid="qr-firma" />}
          <p class="pista centrado">
            <a href={enlace.url ?? '#'} target="_blank" rel="noopener" data-testid="enlace-firma">
              {enlace.url}
            </a>
          </p>
          <p role="status" aria-live="polite" data-testid="estado-firma-remota">
            Esperando su firma… (el código vale {mmss(restantes)} más)
          </p>
        </>
      ) : (
        <p class="aviso" role="alert" data-testid="estado-firma-remota">
          {enlace.estado === 'anulada' ? 'Este código se sustituyó por otro.' : 'El código caducó sin firma (vale 30 minutos).'} Pida otro o que firme aquí.
        </p>
      )}
      <div class="acciones">
        {esperando && typeof navigator.share === 'function' && (
          <button type="button" onClick={() => void compartir()}>
            Enviar el enlace
          </button>
        )}
        {!esperando && (
          <button type="button" class="primario" onClick={() => void pedir()} disabled={!enLinea || pidiendo}>
            Pedir otro código
          </button>
        )}
        <button type="button" onClick={() => void cerrar()}>
          Que firme aquí
        </button>
      </div>
    </div>
  );
}
