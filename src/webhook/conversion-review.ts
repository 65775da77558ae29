/**
 * The `apiextensions.k8s.io` ConversionReview a CRD's conversion webhook answers (served at
 * `/convert`): each object of the request converted to `desiredAPIVersion` by the conversion of its
 * kind. Invariants: the response carries the request's `uid` and the request's review `apiVersion`;
 * the objects come back in request order; one object that cannot be converted fails the whole
 * review (result `Failure` with the reason, no objects), as the API server requires, and is logged.
 */
import type { KubeObject, Logger } from '../meta/index.js';
import { convertObject, type Conversion } from './conversion.js';

/** What the API server sends: the objects and the version wanted. */
export interface ConversionRequest {
  uid: string;
  desiredAPIVersion: string;
  objects: KubeObject[];
}

/** The converted objects, or a failure with its reason. */
export interface ConversionResponse {
  uid: string;
  convertedObjects: KubeObject[];
  result: { status: 'Success' | 'Failure'; message?: string };
}

/** The envelope of a conversion request and its response. */
export interface ConversionReview {
  apiVersion: string;
  kind: 'ConversionReview';
  request?: ConversionRequest;
  response?: ConversionResponse;
}

/** Answers a ConversionReview body with the conversions registered by `group/kind`. @extension */
export function serveConversion(body: unknown, conversions: ReadonlyMap<string, Conversion>, logger: Logger): ConversionReview {
  const review = body as Partial<ConversionReview> | null;
  const apiVersion = typeof review?.apiVersion === 'string' ? review.apiVersion : 'apiextensions.k8s.io/v1';
  const request = review?.request;
  const failure = (uid: string, message: string): ConversionReview => ({
    apiVersion,
    kind: 'ConversionReview',
    response: { uid, convertedObjects: [], result: { status: 'Failure', message } },
  });
  if (
    review?.kind !== 'ConversionReview' ||
    !request ||
    typeof request.uid !== 'string' ||
    typeof request.desiredAPIVersion !== 'string' ||
    !Array.isArray(request.objects)
  ) {
    return failure('', 'the request body is not a ConversionReview with a request, its uid, desiredAPIVersion and objects');
  }
  const [group, version] = request.desiredAPIVersion.includes('/') ? request.desiredAPIVersion.split('/') : ['', request.desiredAPIVersion];
  try {
    const convertedObjects = request.objects.map((obj) => {
      const conversion = conversions.get(`${group}/${obj.kind}`);
      if (!conversion) throw new Error(`no conversion is registered for ${group} ${obj.kind}`);
      return convertObject(conversion, obj, version!);
    });
    return { apiVersion, kind: 'ConversionReview', response: { uid: request.uid, convertedObjects, result: { status: 'Success' } } };
  } catch (err) {
    logger.error({ uid: request.uid, desiredAPIVersion: request.desiredAPIVersion, err }, 'conversion failed');
    return failure(request.uid, err instanceof Error ? err.message : String(err));
  }
}
