import { useState } from 'preact/hooks';
import { fechaEs } from '../../shared/rules/fechas';
import { NOMBRE_ROL, QUE_PUEDE } from '../../shared/rules/roles';
import type { InvitacionPublica } from '../../shared/schemas/cuenta';
import { entrarConInvitacion, sesion } from '../app/sesion';
import { useStore } from '../app/store';
import { Campo } from '../components/campo';
import { OtraSesion, PieFormulario, useEnlace, useEnvio, useMinimoContrasena } from '../components/formulario';
import { urlApp } from '../data/api';

/**
 * The link of an invitation e-mail: who invites, as what, and a password to
 * join; then the app opens signed in. Signed in already as someone else, it
 * says so instead of mixing two users on one device.
 */
export default function Invitacion({ params }: { params: string[] }) {
  const token = params[0] ?? '';
  const yaDentro = useStore(sesion);
  const inv = useEnlace(urlApp('ver_invitacion', { token }), (d: { invitacion: InvitacionPublica }) => d.invitacion);
  const [password, setPassword] = useState('');
  const { campos, error, enviando, enviar: enviarCon } = useEnvio();
  const min = useMinimoContrasena();

  async function enviar(ev: Event) {
    ev.preventDefault();
    await enviarCon(() => entrarConInvitacion(token, password));
  }

  if (yaDentro) return <OtraSesion titulo="Invitación a DeCA" email={yaDentro.usuario.email} para="aceptar una invitación con otro correo" />;
  if (!inv) return <p aria-busy="true">Cargando la invitación…</p>;
  if (inv instanceof Error) {
    return (
      <section class="tarjeta-acceso">
        <h1>Invitación a DeCA</h1>
        <p role="alert" class="aviso error">
          {inv.message}
        </p>
        <p>
          <a href="/entrar">Entrar</a> si ya tiene usuario.
        </p>
      </section>
    );
  }
  return (
    <section class="tarjeta-acceso">
      <h1>Únase a {inv.empresa}</h1>
      <p>
        Le han invitado a DeCA como <strong>{NOMBRE_ROL[inv.rol].toLowerCase()}</strong>: podrá {QUE_PUEDE[inv.rol]}.
      </p>
      <form onSubmit={enviar} noValidate>
        <Campo path="email" etiqueta="Correo electrónico" tipo="email" valor={inv.email} onInput={() => {}} extra={{ readOnly: true, autoComplete: 'username' }} />
        <Campo
          path="password"
          etiqueta="Elija una contraseña"
          tipo="password"
          valor={password}
          onInput={setPassword}
          error={campos.password}
          pista={min ? `Al menos ${min} caracteres.` : undefined}
          extra={{ autoComplete: 'new-password' }}
        />
        <PieFormulario error={error} enviando={enviando} texto="Aceptar y entrar" />
      </form>
      <p>La invitación caduca el {fechaEs(inv.expires_at)}.</p>
    </section>
  );
}
