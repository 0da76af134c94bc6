import type { ConfigBlobs } from '../config';
import type { Logger } from '../log';
import type { BlobStore } from './almacen';
import { AlmacenDisco } from './disco';
import { AlmacenS3 } from './s3';

/** The store BLOB_URL names (README: Configuración): by default the folder DATA_DIR/blobs. */
export function crearAlmacen(config: ConfigBlobs, log: Logger): BlobStore {
  return config.tipo === 's3' ? new AlmacenS3(config, log) : new AlmacenDisco(config.dir, log);
}
