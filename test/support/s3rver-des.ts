import crypto from 'node:crypto';

/**
 * @20minutes/s3rver signs the continuation token of a truncated bucket
 * listing with single DES, which OpenSSL 3 keeps in its legacy provider, so
 * every listing longer than a page fails with ERR_OSSL_EVP_UNSUPPORTED. Triple
 * DES with its three keys equal is single DES, and OpenSSL 3 still has it:
 * the test server's `des` is served by `des-ede3-cbc` with the key three
 * times over. Only this test process, and only the cipher named `des`.
 */
export function desParaS3rver(): void {
  const cifrar = crypto.createCipheriv;
  const descifrar = crypto.createDecipheriv;
  const tres = (key: crypto.CipherKey) => Buffer.concat([Buffer.from(key as Uint8Array), Buffer.from(key as Uint8Array), Buffer.from(key as Uint8Array)]);
  Object.assign(crypto, {
    createCipheriv: (alg: string, key: crypto.CipherKey, iv: crypto.BinaryLike | null, opts?: unknown) => (alg === 'des' ? cifrar('des-ede3-cbc', tres(key), iv) : cifrar(alg, key, iv, opts as never)),
    createDecipheriv: (alg: string, key: crypto.CipherKey, iv: crypto.BinaryLike | null, opts?: unknown) =>
      alg === 'des' ? descifrar('des-ede3-cbc', tres(key), iv) : descifrar(alg, key, iv, opts as never),
  });
}
