/**
 * The service's seal on every stored version of a DeCA: a PAdES baseline
 * (B-B) signature, i.e. a detached CMS (CAdES) whose signed attributes are
 * content-type, message-digest and ESS signing-certificate-v2, with no
 * signing-time (PAdES puts the time in the signature dictionary's `/M`,
 * which the renderer writes as the version's issue time).
 *
 * The renderer leaves the signature dictionary in the document with an empty
 * `/Contents` (pdfa.ts, `reservarSello`), so the sealed file is still one
 * PDF/A revision with its ID. `@signpdf/signpdf` fills the byte range and
 * the contents; the CMS is built here with pkijs and signed with Node's
 * native RSA, the key and certificate parsed once per process. The seal is
 * RSA only: PKCS#1 v1.5 is deterministic, so sealing the same bytes twice
 * gives the same file.
 */
import { createHash, createPrivateKey, createPublicKey, sign as firmar, generateKeyPairSync, randomBytes, X509Certificate } from 'node:crypto';
import { SignPdf } from '@signpdf/signpdf';
import { Signer } from '@signpdf/utils';
import * as asn1js from 'asn1js';
import forge from 'node-forge';
import * as pkijs from 'pkijs';
import { CAPACIDAD_SELLO, type DecaPdfData } from '../../shared/pdf/deca-pdf-data';
import { type JustificantePdfData, renderJustificantePdf } from '../../shared/pdf/justificante-pdf';
import { renderDecaPdf } from './deca-pdf';

/** What a seal is made of, as plain bytes: it crosses to the PDF workers with `postMessage`. */
export interface MaterialSello {
  /** The private key, PKCS#8 DER. */
  clavePkcs8: Uint8Array;
  /** DER certificates, the seal's own first, then its chain (if any). */
  certificados: Uint8Array[];
}

const OID = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  sha256: '2.16.840.1.101.3.4.2.1',
  rsaEncryption: '1.2.840.113549.1.1.1',
  sha256WithRSA: '1.2.840.113549.1.1.11',
  commonName: '2.5.4.3',
  organization: '2.5.4.10',
  country: '2.5.4.6',
  basicConstraints: '2.5.29.19',
  keyUsage: '2.5.29.15',
  subjectKeyIdentifier: '2.5.29.14',
} as const;

const buffer = (b: Uint8Array): ArrayBuffer => b.slice().buffer as ArrayBuffer;
const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest();

/** Where `marca` is in `en`, which must hold it exactly once. */
function posicionUnica(en: Buffer, marca: Buffer): number {
  const i = en.indexOf(marca);
  if (i < 0 || en.indexOf(marca, i + 1) >= 0) throw new Error('plantilla del sello ambigua');
  return i;
}

/** A signer for `@signpdf/signpdf`: the CMS for the bytes the byte range covers. */
class SignerSello extends Signer {
  constructor(private readonly cms: (datos: Uint8Array) => Buffer) {
    super();
  }
  override async sign(pdf: Buffer): Promise<Buffer> {
    return this.cms(pdf);
  }
}

export interface Sellador {
  /** Seals a rendered PDF (one that carries the renderer's empty signature). */
  sellar(pdf: Uint8Array): Promise<Uint8Array>;
  /** Bytes of this seal's CMS, always the same: the room the renderer leaves for it. */
  capacidad: number;
  /** The seal's certificate, for logs and the README's «what production must configure». */
  titular: string;
  /** SHA-256 of the seal's certificate (hex). */
  huella: string;
  caduca: Date;
}

/** Loads the key and certificates once; every `sellar` after that is hashing, one RSA signature and ASN.1. */
export function crearSellador(material: MaterialSello): Sellador {
  if (material.certificados.length === 0) throw new Error('el sello no tiene certificado');
  const clave = createPrivateKey({ key: Buffer.from(material.clavePkcs8), format: 'der', type: 'pkcs8' });
  const propio = material.certificados[0]!;
  const x509 = new X509Certificate(Buffer.from(propio));
  if (!x509.checkPrivateKey(clave)) throw new Error('la clave del sello no corresponde a su certificado');
  const cert = pkijs.Certificate.fromBER(buffer(propio));
  const cadena = material.certificados.map((der) => pkijs.Certificate.fromBER(buffer(der)));
  if (clave.asymmetricKeyType !== 'rsa') throw new Error(`tipo de clave del sello no admitido: ${clave.asymmetricKeyType ?? 'desconocido'} (el sello ha de ser RSA)`);

  // What is the same in every seal, built once: the signing-certificate-v2 value and the signer's id.
  const certificadoFirmante = new asn1js.Sequence({
    value: [
      new asn1js.Sequence({
        value: [
          // ESSCertIDv2: hashAlgorithm is SHA-256, the DEFAULT, so it is left out.
          new asn1js.Sequence({
            value: [
              new asn1js.OctetString({ valueHex: buffer(sha256(propio)) }),
              new asn1js.Sequence({
                value: [new pkijs.GeneralNames({ names: [new pkijs.GeneralName({ type: 4, value: cert.issuer })] }).toSchema(), cert.serialNumber],
              }),
            ],
          }),
        ],
      }),
    ],
  });

  /** The CMS for a digest and a signature (and the signed attributes' DER, what the signature covers). */
  function construir(huella: Uint8Array, firma: Uint8Array): { atributos: Buffer; cms: Buffer } {
    const atributos = new pkijs.SignedAndUnsignedAttributes({
      type: 0,
      attributes: [
        new pkijs.Attribute({ type: OID.contentType, values: [new asn1js.ObjectIdentifier({ value: OID.data })] }),
        new pkijs.Attribute({ type: OID.messageDigest, values: [new asn1js.OctetString({ valueHex: buffer(huella) })] }),
        new pkijs.Attribute({ type: OID.signingCertificateV2, values: [certificadoFirmante] }),
      ],
    });
    // What is signed is the attributes' DER with the SET tag (RFC 5652 §5.4), not the [0] they travel under.
    const firmado = Buffer.from(atributos.toSchema().toBER());
    firmado[0] = 0x31;
    const firmante = new pkijs.SignerInfo({
      version: 1,
      sid: new pkijs.IssuerAndSerialNumber({ issuer: cert.issuer, serialNumber: cert.serialNumber }),
      digestAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: OID.sha256 }),
      signedAttrs: atributos,
      signatureAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: OID.rsaEncryption, algorithmParams: new asn1js.Null() }),
      signature: new asn1js.OctetString({ valueHex: buffer(firma) }),
    });
    const signedData = new pkijs.SignedData({
      version: 1,
      digestAlgorithms: [new pkijs.AlgorithmIdentifier({ algorithmId: OID.sha256 })],
      encapContentInfo: new pkijs.EncapsulatedContentInfo({ eContentType: OID.data }),
      certificates: cadena,
      signerInfos: [firmante],
    });
    const info = new pkijs.ContentInfo({ contentType: OID.signedData, content: signedData.toSchema(true) });
    return { atributos: firmado, cms: Buffer.from(info.toSchema().toBER()) };
  }

  // Only the digest (32 bytes) and the signature (the modulus' length: PKCS#1 v1.5) change from one
  // document to the next, and neither changes a DER length: the CMS is built once with markers in
  // their place, and each seal copies it and writes the two in.
  const longitudFirma = (clave.asymmetricKeyDetails?.modulusLength ?? 0) / 8;
  const marcaHuella = Buffer.alloc(32, 0xa5);
  const marcaFirma = Buffer.alloc(longitudFirma, 0x5a);
  const plantilla = construir(marcaHuella, marcaFirma);
  const enAtributos = posicionUnica(plantilla.atributos, marcaHuella);
  const huellaEnCms = posicionUnica(plantilla.cms, marcaHuella);
  const firmaEnCms = posicionUnica(plantilla.cms, marcaFirma);

  function cms(datos: Uint8Array): Buffer {
    const huella = sha256(datos);
    const atributos = Buffer.from(plantilla.atributos);
    huella.copy(atributos, enAtributos);
    const firma = firmar('sha256', atributos, clave);
    if (firma.length !== longitudFirma) throw new Error(`firma de ${firma.length} bytes, se esperaban ${longitudFirma}`);
    const out = Buffer.from(plantilla.cms);
    huella.copy(out, huellaEnCms);
    firma.copy(out, firmaEnCms);
    return out;
  }

  const tamano = plantilla.cms.length;
  if (tamano > CAPACIDAD_SELLO) {
    throw new Error(`la firma con este certificado y su cadena ocupa ${tamano} bytes y el documento reserva ${CAPACIDAD_SELLO}: quite certificados de la cadena del P12`);
  }
  const signer = new SignerSello(cms);
  const signpdf = new SignPdf();
  return {
    async sellar(pdf) {
      return new Uint8Array(await signpdf.sign(Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength), signer));
    },
    capacidad: tamano,
    titular: x509.subject.replace(/\n/g, ', '),
    huella: createHash('sha256').update(propio).digest('hex'),
    caduca: new Date(x509.validTo),
  };
}

/** What the pool renders and seals: a DeCA's version, or a delivery's receipt (`tipo: 'justificante'`). */
export type DocumentoPdfData = DecaPdfData | JustificantePdfData;

/** What a stored version is (or a receipt): the rendered PDF/A with the seal the renderer left room for. */
export async function renderYSellar(data: DocumentoPdfData, sellador: Sellador): Promise<Uint8Array> {
  const opciones = { capacidadSello: sellador.capacidad };
  return sellador.sellar(await ('tipo' in data && data.tipo === 'justificante' ? renderJustificantePdf(data, opciones) : renderDecaPdf(data as DecaPdfData, opciones)));
}

/**
 * A seal certificate of our own, for a deployment that has not configured a
 * real one: RSA 2048, self-signed, valid 20 years, for digital signature and
 * non-repudiation. It proves the file is what this service issued (the
 * authenticity page checks that), not who the service is.
 */
export function generarSelloAutofirmado(sitio: string, ahora: Date): MaterialSello {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const cert = new pkijs.Certificate();
  cert.version = 2;
  const serie = randomBytes(16);
  serie[0] = serie[0]! & 0x7f || 0x01; // positive, and no leading zero byte
  cert.serialNumber = new asn1js.Integer({ valueHex: buffer(serie) });
  const nombre = [
    [OID.country, new asn1js.PrintableString({ value: 'ES' })],
    [OID.organization, new asn1js.Utf8String({ value: `DeCA (${sitio})` })],
    [OID.commonName, new asn1js.Utf8String({ value: 'Sello del servicio DeCA (autofirmado)' })],
  ] as const;
  // One attribute per RDN (pkijs would put them all in one multi-valued RDN: «C=ES + O=… + CN=…»).
  const nombreDer = new asn1js.Sequence({
    value: nombre.map(([type, value]) => new asn1js.Set({ value: [new asn1js.Sequence({ value: [new asn1js.ObjectIdentifier({ value: type }), value] })] })),
  }).toBER();
  cert.subject = pkijs.RelativeDistinguishedNames.fromBER(nombreDer);
  cert.issuer = pkijs.RelativeDistinguishedNames.fromBER(nombreDer);
  cert.notBefore.value = new Date(Math.floor(ahora.getTime() / 1000) * 1000 - 60_000);
  cert.notAfter.value = new Date(Date.UTC(ahora.getUTCFullYear() + 20, ahora.getUTCMonth(), ahora.getUTCDate()));
  const spki = publicKey.export({ type: 'spki', format: 'der' });
  cert.subjectPublicKeyInfo = pkijs.PublicKeyInfo.fromBER(buffer(spki));
  const usos = new asn1js.BitString({ valueHex: new Uint8Array([0xc0]).buffer, unusedBits: 6 }); // digitalSignature, nonRepudiation
  cert.extensions = [
    new pkijs.Extension({ extnID: OID.basicConstraints, critical: true, extnValue: new pkijs.BasicConstraints({ cA: false }).toSchema().toBER() }),
    new pkijs.Extension({ extnID: OID.keyUsage, critical: true, extnValue: usos.toBER() }),
    new pkijs.Extension({
      extnID: OID.subjectKeyIdentifier,
      extnValue: new asn1js.OctetString({ valueHex: buffer(createHash('sha1').update(cert.subjectPublicKeyInfo.subjectPublicKey.valueBlock.valueHexView).digest()) }).toBER(),
    }),
  ];
  const algoritmo = new pkijs.AlgorithmIdentifier({ algorithmId: OID.sha256WithRSA, algorithmParams: new asn1js.Null() });
  cert.signature = algoritmo;
  cert.signatureAlgorithm = algoritmo;
  const tbs = new Uint8Array(cert.encodeTBS().toBER());
  cert.signatureValue = new asn1js.BitString({ valueHex: buffer(firmar('sha256', tbs, privateKey)) });
  return {
    clavePkcs8: new Uint8Array(privateKey.export({ type: 'pkcs8', format: 'der' })),
    certificados: [new Uint8Array(cert.toSchema(true).toBER())],
  };
}

/**
 * A PKCS#12 file (what a certification authority delivers a qualified seal
 * in) → its key and certificates, the seal's own first. Refuses, in
 * Spanish, a wrong password, a file without a key, or a key without its certificate.
 */
export function materialDesdeP12(p12: Uint8Array, password: string): MaterialSello {
  let archivo: forge.pkcs12.Pkcs12Pfx;
  try {
    archivo = forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(forge.util.createBuffer(Buffer.from(p12).toString('binary'))), false, password);
  } catch (error) {
    throw new Error(`no se pudo abrir el P12 del sello (¿contraseña equivocada o archivo dañado?): ${error instanceof Error ? error.message : String(error)}`);
  }
  const bolsas = [
    ...(archivo.getBags({ bagType: forge.pki.oids.pkcs8ShroudedKeyBag! })[forge.pki.oids.pkcs8ShroudedKeyBag!] ?? []),
    ...(archivo.getBags({ bagType: forge.pki.oids.keyBag! })[forge.pki.oids.keyBag!] ?? []),
  ];
  const bolsa = bolsas.find((b) => b.key);
  if (!bolsa?.key) throw new Error('el P12 del sello no contiene una clave privada RSA');
  const pkcs8 = forge.asn1.toDer(forge.pki.wrapRsaPrivateKey(forge.pki.privateKeyToAsn1(bolsa.key))).getBytes();
  const clave = createPrivateKey({ key: Buffer.from(pkcs8, 'binary'), format: 'der', type: 'pkcs8' });
  const publica = createPublicKey(clave).export({ type: 'spki', format: 'der' });
  const certificados = (archivo.getBags({ bagType: forge.pki.oids.certBag! })[forge.pki.oids.certBag!] ?? [])
    .filter((b) => b.cert)
    .map((b) => new Uint8Array(Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(b.cert!)).getBytes(), 'binary')));
  const propio = certificados.findIndex((der) => new X509Certificate(Buffer.from(der)).publicKey.export({ type: 'spki', format: 'der' }).equals(publica));
  if (propio < 0) throw new Error('el P12 del sello no contiene el certificado de su clave privada');
  return {
    clavePkcs8: new Uint8Array(Buffer.from(pkcs8, 'binary')),
    certificados: [certificados[propio]!, ...certificados.filter((_, i) => i !== propio)],
  };
}
