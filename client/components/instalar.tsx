import { useEffect, useState } from 'preact/hooks';
import { useStore } from '../app/store';
import { ofertaInstalar, pedirPersistencia } from '../app/sw-bridge';

const K_NO_INSTALAR = 'deca-instalar-no';

/** Running as an installed app (home-screen icon), where the browser keeps its data. */
function instalada(): boolean {
  return matchMedia('(display-mode: standalone)').matches || (navigator as Navigator & { standalone?: boolean }).standalone === true;
}

/** iPhone or iPad in the browser: installing is «Añadir a pantalla de inicio», from the Share menu; there is no offer to accept. */
function iosEnNavegador(): boolean {
  return /iPhone|iPad|iPod/.test(navigator.userAgent) && !instalada();
}

/**
 * Shown with an issued DeCA: the copies for the road must stay on the phone.
 * Asks the browser to keep them (persistent storage) and, while the app is
 * not installed, offers to install it — the browser's own offer where there is
 * one (Chromium), a two-step explanation on iOS — until installed or declined.
 */
export function GuardarParaElCamino() {
  const oferta = useStore(ofertaInstalar);
  const [no, setNo] = useState(() => localStorage.getItem(K_NO_INSTALAR) === '1');
  useEffect(() => {
    void pedirPersistencia(true);
  }, []);
  if (no || instalada() || (!oferta && !iosEnNavegador())) return null;
  const cerrar = () => {
    localStorage.setItem(K_NO_INSTALAR, '1');
    setNo(true);
  };
  async function instalar() {
    if (!oferta) return;
    await oferta.prompt();
    const { outcome } = await oferta.userChoice;
    ofertaInstalar.set(null);
    if (outcome === 'accepted') void pedirPersistencia(true);
    else cerrar();
  }
  return (
    <div class="aviso no-imprimir" role="note" data-testid="instalar">
      <p>
        <strong>Instale la aplicación</strong> para que el teléfono guarde las DeCA y sus QR y se abran en carretera sin cobertura.
      </p>
      {oferta ? null : <p>En iPhone o iPad: toque «Compartir» (el cuadrado con la flecha) y luego «Añadir a pantalla de inicio».</p>}
      <div class="acciones">
        {oferta && (
          <button type="button" class="primario" onClick={() => void instalar()}>
            Instalar
          </button>
        )}
        <button type="button" onClick={cerrar}>
          {oferta ? 'Ahora no' : 'Entendido'}
        </button>
      </div>
    </div>
  );
}
