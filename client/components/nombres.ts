// Field names and values in words: one source for the app and the public pages.
export { ETIQUETAS, nombreCampo, valorLegible } from '../../shared/rules/presentacion';
