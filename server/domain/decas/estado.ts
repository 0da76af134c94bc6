import { AppError } from '../../../shared/errors';
import type { Estado } from '../../../shared/schemas/deca';
import type { DecaRow } from '../../db/schema';

/** What each refusal says, by the state the DeCA is in: the 409 answers of the spec, with what to do. */
const MENSAJES: Record<string, Record<Estado, string>> = {
  emitir: {
    pendiente: '',
    emitido: 'La DeCA ya está emitida. Para cambiarla use PATCH con «motivo» (misma URL) o «sustituir».',
    sustituido: 'Esta DeCA fue sustituida por otra: trabaje con la nueva.',
  },
  sustituir: {
    pendiente: 'La DeCA está pendiente: cámbiela directamente con PATCH; solo se sustituyen DeCA emitidas.',
    emitido: '',
    sustituido: 'Esta DeCA ya fue sustituida: sustituya la más reciente.',
  },
  modificar: {
    pendiente: '',
    emitido: '',
    sustituido: 'Esta DeCA fue sustituida y ya no se modifica: cambie la que la sustituye.',
  },
  fin: {
    pendiente: 'La DeCA está pendiente: emítala antes de marcar el fin del servicio.',
    emitido: '',
    sustituido: 'Esta DeCA fue sustituida: marque el fin del servicio en la que la sustituye.',
  },
  control: {
    pendiente: 'La DeCA está pendiente: no ampara el transporte, así que no hay documento que enviar. Emítala.',
    emitido: '',
    sustituido: 'Esta DeCA fue sustituida: anote el control en la que la sustituye y envíe esa.',
  },
  entregar: {
    pendiente: 'La DeCA está pendiente: no ampara ningún transporte, así que no hay entrega que anotar. Emítala antes.',
    emitido: '',
    sustituido: 'Esta DeCA fue sustituida: anote la entrega en la que la sustituye.',
  },
  eliminar: {
    pendiente: '',
    emitido: 'Las DeCA emitidas no se borran: se conservan un año. Puede archivarla.',
    sustituido: 'Las DeCA sustituidas no se borran: se conservan un año. Puede archivarla.',
  },
};

/** 409 with the state as `codigo` (`emitido`, `pendiente`, `sustituido`) when the action does not fit. */
export function exigirEstado(row: Pick<DecaRow, 'estado' | 'numero'>, accion: keyof typeof MENSAJES): void {
  const mensaje = MENSAJES[accion]?.[row.estado];
  if (mensaje) throw new AppError(row.estado, `DeCA ${row.numero}: ${mensaje}`);
}
