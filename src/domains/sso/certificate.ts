import { lazyModule } from '../../core/lazy.js'
import { decodeBase64 } from '../content/file-info.js'

/**
 * asn1js and pkijs (pkijs alone is some 800 KB of CommonJS), loaded on first use: the SAML
 * operations that take a certificate declare it (`needs`), and a seed holding certificates needs
 * it loaded first (`await preload()`).
 */
export const certificateLibraries = lazyModule('pkijs and asn1js (the SAML certificate check)', async () => {
  const [{ fromBER }, { Certificate }] = await Promise.all([import('asn1js'), import('pkijs')])
  return { fromBER, Certificate }
})

/**
 * The check of a SAML provider's `certificate`: one PEM block labelled CERTIFICATE whose DER body
 * pkijs reads as an X.509 certificate. pkijs is pure JavaScript over web standards (no Node
 * module, no global it sets), and its 3.x line ships CommonJS beside ES modules, so both builds of
 * this package load it as it is. Returns why the text is refused, or undefined when it is a
 * certificate. Validity dates are not checked: an identity provider's signing certificate is
 * often self-signed and long-lived, and whether it is current is the identity provider's business.
 */
const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----([^-]*)-----END ([A-Z0-9 ]+)-----/g

const PEM_EXAMPLE = '-----BEGIN CERTIFICATE-----\\n<base64>\\n-----END CERTIFICATE-----'

export function certificateProblem(text: string): string | undefined {
  const blocks = [...text.matchAll(PEM_BLOCK)]
  if (blocks.length === 0) return `must be an X.509 certificate in PEM form (${PEM_EXAMPLE})`
  const outside = text.replace(PEM_BLOCK, '').trim()
  if (outside !== '') return 'must hold one PEM certificate and nothing else'
  if (blocks.length > 1) return `must hold exactly one PEM certificate (found ${blocks.length} PEM blocks)`
  const [, label, body, end] = blocks[0]!
  if (label !== end) return `must be a well-formed PEM block (BEGIN ${label} ends with END ${end})`
  if (label !== 'CERTIFICATE') {
    if (label!.endsWith('PUBLIC KEY'))
      return 'must be an X.509 certificate, not a public key (give the identity provider\'s signing certificate, "-----BEGIN CERTIFICATE-----")'
    if (label!.endsWith('PRIVATE KEY')) return 'must be an X.509 certificate, not a private key (never share a private key)'
    return `must be an X.509 certificate ("-----BEGIN CERTIFICATE-----"), not a PEM "${label}" block`
  }
  let der: Uint8Array
  try {
    der = decodeBase64(body!)
  } catch (error) {
    return `must be a PEM certificate whose body is base64 (${(error as Error).message})`
  }
  if (der.byteLength === 0) return 'must be a PEM certificate with a body'
  const invalid = 'must be a valid X.509 certificate: the PEM body is not the DER encoding of one'
  // asn1js reads the ASN.1 (its offset is where it stopped: a certificate is the whole body), pkijs the certificate in it.
  if (!certificateLibraries.loaded)
    throw new Error(
      'checking a SAML certificate needs pkijs, which docs-content-api loads on first use: `await preload()` (exported by docs-content-api) before createDocsApi({ seed }) with SAML certificates',
    )
  const { fromBER, Certificate } = certificateLibraries.get()
  const asn1 = fromBER(new Uint8Array(der))
  if (asn1.offset !== der.byteLength) return invalid
  try {
    new Certificate({ schema: asn1.result })
  } catch {
    return invalid
  }
  return undefined
}
