import { createHash } from 'node:crypto';

/** Who this platform is on the eFTI network (EFTI_GATE_ID, EFTI_PLATFORM_ID). */
export interface IdentidadEfti {
  gateId: string;
  platformId: string;
}

/** The reference's `UIL` (edelivery.xsd): the gate, the platform, and the dataset within it. */
export interface Uil extends IdentidadEfti {
  datasetId: string;
}

/**
 * The dataset's id: the same for every version of a DeCA and for the DeCAs
 * that replace it (method 2 corrects the same transport; an authority that
 * holds the UIL from the first must keep reaching the data: Reglamento (UE)
 * 2020/1056 art. 9), and unguessable: a hash of the public token of the
 * first DeCA of the chain, which never changes and is never shown by it
 * (the token itself opens the public page; its hash opens nothing). Stored
 * in `decas.efti_dataset_id` when the DeCA is created (a replacement copies
 * the one it replaces); migration 0026 computes the same in SQL.
 */
export function datasetIdDe(tokenPrimera: string): string {
  return createHash('sha256').update(`deca-efti-dataset\n${tokenPrimera}`).digest('hex').slice(0, 32);
}
