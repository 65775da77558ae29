// cert-manager's Certificate (cert-manager.io/v1, as cert-manager 1.11 publishes it) written as a
// schema-first definition: fields, types, required fields, enums and formats of the public API, in
// our own code. Descriptions are left out; the corpus tests hold the rest against what the installed
// @kubernetes-models/cert-manager package ships for this kind (its declarations and its validator).
import { Type, type TSchema } from 'typebox';
import { defineCustomResource, listMap } from 'kube-converge/schema';

const opt = <T extends TSchema>(t: T) => Type.Optional(t);
const strings = () => Type.Array(Type.String());
const time = () => Type.String({ format: 'date-time' });
const enumOf = <const L extends readonly string[]>(...values: L) => Type.Union(values.map((v) => Type.Literal(v)));

const USAGES = [
  'signing',
  'digital signature',
  'content commitment',
  'key encipherment',
  'key agreement',
  'data encipherment',
  'cert sign',
  'crl sign',
  'encipher only',
  'decipher only',
  'any',
  'server auth',
  'client auth',
  'code signing',
  'email protection',
  's/mime',
  'ipsec end system',
  'ipsec tunnel',
  'ipsec user',
  'timestamping',
  'ocsp signing',
  'microsoft sgc',
  'netscape sgc',
] as const;

/** A JKS or PKCS#12 keystore written beside the certificate, encrypted with a password from a Secret. */
const Keystore = () =>
  Type.Object({
    create: Type.Boolean(),
    passwordSecretRef: Type.Object({ key: opt(Type.String()), name: Type.String() }),
  });

const Condition = () =>
  Type.Object({
    lastTransitionTime: opt(time()),
    message: opt(Type.String()),
    observedGeneration: opt(Type.Integer({ format: 'int64' })),
    reason: opt(Type.String()),
    status: enumOf('True', 'False', 'Unknown'),
    type: Type.String(),
  });

export const Certificate = defineCustomResource({
  group: 'cert-manager.io',
  kind: 'Certificate',
  shortNames: ['cert', 'certs'],
  categories: ['cert-manager'],
  scope: 'Namespaced',
  versions: {
    v1: {
      served: true,
      storage: true,
      subresources: { status: true },
      spec: Type.Object({
        additionalOutputFormats: opt(Type.Array(Type.Object({ type: enumOf('DER', 'CombinedPEM') }))),
        commonName: opt(Type.String()),
        dnsNames: opt(strings()),
        duration: opt(Type.String()),
        emailAddresses: opt(strings()),
        encodeUsagesInRequest: opt(Type.Boolean()),
        ipAddresses: opt(strings()),
        isCA: opt(Type.Boolean()),
        issuerRef: Type.Object({ group: opt(Type.String()), kind: opt(Type.String()), name: Type.String() }),
        keystores: opt(Type.Object({ jks: opt(Keystore()), pkcs12: opt(Keystore()) })),
        literalSubject: opt(Type.String()),
        privateKey: opt(
          Type.Object({
            algorithm: opt(enumOf('RSA', 'ECDSA', 'Ed25519')),
            encoding: opt(enumOf('PKCS1', 'PKCS8')),
            rotationPolicy: opt(enumOf('Never', 'Always')),
            size: opt(Type.Integer()),
          }),
        ),
        renewBefore: opt(Type.String()),
        revisionHistoryLimit: opt(Type.Integer({ format: 'int32' })),
        secretName: Type.String(),
        secretTemplate: opt(
          Type.Object({
            annotations: opt(Type.Record(Type.String(), Type.String())),
            labels: opt(Type.Record(Type.String(), Type.String())),
          }),
        ),
        subject: opt(
          Type.Object({
            countries: opt(strings()),
            localities: opt(strings()),
            organizationalUnits: opt(strings()),
            organizations: opt(strings()),
            postalCodes: opt(strings()),
            provinces: opt(strings()),
            serialNumber: opt(Type.String()),
            streetAddresses: opt(strings()),
          }),
        ),
        uris: opt(strings()),
        usages: opt(Type.Array(enumOf(...USAGES))),
      }),
      status: Type.Object({
        conditions: opt(listMap(Type.Array(Condition()), ['type'])),
        failedIssuanceAttempts: opt(Type.Integer()),
        lastFailureTime: opt(time()),
        nextPrivateKeySecretName: opt(Type.String()),
        notAfter: opt(time()),
        notBefore: opt(time()),
        renewalTime: opt(time()),
        revision: opt(Type.Integer()),
      }),
      printerColumns: [
        { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
        { name: 'Secret', type: 'string', jsonPath: '.spec.secretName' },
        { name: 'Issuer', type: 'string', jsonPath: '.spec.issuerRef.name', priority: 1 },
        { name: 'Status', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].message', priority: 1 },
        { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
      ],
    },
  },
});
