import './styles.css';
import { render } from 'preact';
import { App } from './app/app';
import { interceptarEnlaces } from './app/router';
import { comprobarSesion, vigilarSesion } from './app/sesion';
import { pedirPersistencia, registrarSw, vigilarInstalacion } from './app/sw-bridge';

const root = document.getElementById('app')!;
interceptarEnlaces(document.body);
render(<App />, root);

vigilarInstalacion();
void registrarSw();
void pedirPersistencia();
void comprobarSesion();
vigilarSesion();
