import type { ComponentChildren } from 'preact';

/** A secret the server shows only once (an API key, a webhook's signing secret): copy it now. */
export function SecretoUnaVez({ valor, testId, children, clase = 'aviso' }: { valor: string; testId: string; children: ComponentChildren; clase?: string }) {
  return (
    <div class={clase} role="status">
      {children}
      <p>
        <code data-testid={testId}>{valor}</code>{' '}
        <button type="button" onClick={() => void navigator.clipboard?.writeText(valor)}>
          Copiar
        </button>
      </p>
    </div>
  );
}
