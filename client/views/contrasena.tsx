import { useState } from 'preact/hooks';
import { fechaEs } from '../../shared/rules/fechas';
import type { OlvidoResponse, RestablecimientoPublico } from '../../shared/schemas/cuenta';
import { entrarConContrasenaNueva, sesion } from '../app/sesion';
import { useStore } from '../app/store';
import { Campo } from '../components/campo';
import { OtraSesion, PieFormulario, useEnlace, useEnvio, useMinimoContrasena } from '../components/formulario';
import { llamarApp, urlApp } from '../data/api';

const f: typeof fetch = (...a) => fetch(...a);

/**
 * «¿Ha olvidado la contraseña?»: the address to send a reset link to. The
 * answer is the same whether or not it has a user, and says so.
 */
export function Olvido() {
  const [email, setEmail] = useState('');
  const [hecho, setHecho] = useState<string | null>(null);
  const { campos, setCampos, error, setError, enviando, enviar: enviarCon } = useEnvio();

  async function enviar(ev: Event) {
    ev.preventDefault();
    if (!email.trim()) {
      setCampos({ email: 'Obligatorio' });
      setError('Escriba el correo con el que entra en DeCA.');
      return;
    }
    await enviarCon(async () => {
      const r = await llamarApp(f, 'olvido_contrasena', { email: email.trim() });
      setCampos({});
      setHecho(r.data.mensaje);
    });
  }

  return (
    <section class="tarjeta-acceso">
      <h1>¿Ha olvidado la contraseña?</h1>
      {hecho ? (
        <p class="aviso ok" role="status" data-testid="olvido-enviado">
          {hecho}
        </p>
      ) : (
        <>
          <p>Escriba su correo y le enviaremos un enlace para elegir una contraseña nueva.</p>
          <form onSubmit={enviar} noValidate>
            <Campo path="email" etiqueta="Correo electrónico" tipo="email" valor={email} onInput={setEmail} error={campos.email} extra={{ autoComplete: 'email' }} />
            <PieFormulario error={error} enviando={enviando} texto="Enviar el enlace" />
          </form>
        </>
      )}
      <p>
        <a href="/entrar">Volver a entrar</a>
      </p>
    </section>
  );
}

/**
 * The link of a reset e-mail: a new password (the sign-up rules), then the
 * app opens signed in; every other session of the user has ended. Signed in
 * already as someone else, it says so instead of mixing two users on one device.
 */
export default function Restablecer({ params }: { params: string[] }) {
  const token = params[0] ?? '';
  const yaDentro = useStore(sesion);
  const info = useEnlace(urlApp('ver_restablecimiento', { token }), (d: { restablecimiento: RestablecimientoPublico }) => d.restablecimiento);
  const [password, setPassword] = useState('');
  const { campos, error, enviando, enviar: enviarCon } = useEnvio();
  const min = useMinimoContrasena();

  async function enviar(ev: Event) {
    ev.preventDefault();
    await enviarCon(() => entrarConContrasenaNueva(token, password));
  }

  if (!info) return <p aria-busy="true">Cargando…</p>;
  if (info instanceof Error) {
    return (
      <section class="tarjeta-acceso">
        <h1>Restablecer la contraseña</h1>
        <p role="alert" class="aviso error">
          {info.message}
        </p>
        <p>{yaDentro ? <a href="/">Volver a la lista</a> : <a href="/olvido">Pedir otro enlace</a>}</p>
      </section>
    );
  }
  if (yaDentro && yaDentro.usuario.email !== info.email) {
    return <OtraSesion titulo="Restablecer la contraseña" email={yaDentro.usuario.email} para={`restablecer la contraseña de ${info.email}`} />;
  }
  return (
    <section class="tarjeta-acceso">
      <h1>Elija una contraseña nueva</h1>
      <form onSubmit={enviar} noValidate>
        <Campo path="email" etiqueta="Correo electrónico" tipo="email" valor={info.email} onInput={() => {}} extra={{ readOnly: true, autoComplete: 'username' }} />
        <Campo
          path="password"
          etiqueta="Contraseña nueva"
          tipo="password"
          valor={password}
          onInput={setPassword}
          error={campos.password}
          pista={min ? `Al menos ${min} caracteres. Se cerrarán las sesiones abiertas en otros dispositivos.` : undefined}
          extra={{ autoComplete: 'new-password' }}
        />
        <PieFormulario error={error} enviando={enviando} texto="Guardar y entrar" />
      </form>
      <p>El enlace vale hasta el {fechaEs(info.expires_at)}, una sola vez.</p>
    </section>
  );
}
