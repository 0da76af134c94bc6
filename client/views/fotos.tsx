import { useUrlDeBlob } from '../app/hooks';
import { navegar } from '../app/router';
import { useFotos } from './fotos/use-fotos';

const hora = (t: number) => new Date(t).toLocaleTimeString('es-ES', { hour: '2-digit', minute: '2-digit' });

function Miniatura({ foto }: { foto: Blob }) {
  const url = useUrlDeBlob(foto);
  return url ? <img class="miniatura" src={url} alt="" width={72} height={96} /> : null;
}

/** Photo → DeCA: take or pick a delivery note's photo; it is read on our server, now or, through the outbox, when coverage returns. */
export default function Fotos() {
  const { fotos, cuota, trabajando, error, elegida, descartar } = useFotos();
  /** The camera's photo or the gallery's: taken from the input, which is emptied so the same file can be chosen again. */
  const alElegir = (e: Event) => {
    const input = e.currentTarget as HTMLInputElement;
    const f = input.files?.[0];
    input.value = '';
    if (f) void elegida(f);
  };

  return (
    <section>
      <h1 tabIndex={-1}>Leer un albarán</h1>
      <p class="explicacion">
        Haga una foto del albarán, pedido o carta de porte, de frente y con luz. Se lee en nuestro servidor y le proponemos la DeCA: revísela antes de emitirla. Sin cobertura, la foto se guarda y se
        lee sola cuando vuelva la conexión.
      </p>
      {cuota && (
        <p class="pista" data-testid="cuota-fotos">
          {cuota.limite === null ? `Lecturas de fotos este mes: ${cuota.usadas} (sin límite).` : `Lecturas de fotos este mes: ${cuota.usadas} de ${cuota.limite}; quedan ${cuota.restantes}.`}
        </p>
      )}
      <div class="tomar-foto">
        <label class="boton primario grande">
          <svg class="icono-camara" viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
            <path
              d="M9 3 7.2 5H4a2 2 0 0 0-2 2v11a2 2 0 0 0 2 2h16a2 2 0 0 0 2-2V7a2 2 0 0 0-2-2h-3.2L15 3H9Zm3 5a5 5 0 1 1 0 10 5 5 0 0 1 0-10Zm0 2a3 3 0 1 0 0 6 3 3 0 0 0 0-6Z"
              fill="currentColor"
            />
          </svg>{' '}
          {trabajando ? 'Preparando la foto…' : 'Fotografiar albarán'}
          <input class="sr" type="file" accept="image/*" capture="environment" disabled={trabajando} onChange={alElegir} data-testid="camara" />
        </label>
        <label class="boton grande">
          Elegir de la galería
          <input class="sr" type="file" accept="image/*" disabled={trabajando} onChange={alElegir} data-testid="galeria" />
        </label>
      </div>
      {error && (
        <p class="aviso error" role="alert">
          {error}
        </p>
      )}
      {fotos.length > 0 && (
        <ul class="fotos" data-testid="fotos">
          {fotos.map(({ foto: f, estado, reintentar }) => (
            <li key={f.clave} data-estado={f.estado} data-envio={estado.clave}>
              <Miniatura foto={f.foto} />
              <div>
                <p>
                  Foto de las {hora(f.creado)}: {estado.texto}
                </p>
                {f.estado === 'lista' && f.lectura && f.lectura.avisos.length > 0 && (
                  <ul class="pista">
                    {f.lectura.avisos.map((a) => (
                      <li key={a}>{a}</li>
                    ))}
                  </ul>
                )}
                <div class="fila-form">
                  {f.estado === 'lista' && (
                    <button type="button" class="primario" onClick={() => navegar(`/decas/nueva?foto=${f.clave}`)}>
                      Revisar y crear la DeCA
                    </button>
                  )}
                  {reintentar && (
                    <button type="button" class="primario" onClick={reintentar}>
                      Reintentar
                    </button>
                  )}
                  <button type="button" onClick={() => descartar(f)}>
                    Descartar
                  </button>
                </div>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
